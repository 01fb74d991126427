/* SPDX-License-Identifier: MIT */
/*
 * The multi-level cache test (Cooper-Xu 3.3): the C(k) response curve over
 * the whole hierarchy, its transitions found by the step analysis.  Every
 * transition is a level: its effective capacity and its hit latency; the
 * plateau after the last transition is memory.  Level 1 is the L1 data
 * cache; the levels below are reported as unified.  docs/algorithms.md,
 * "Multi-level caches".
 */
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/measure/footprint.h"
#include "core/probes/probes.h"

/*
 * Sweep range: to the first sample point at or above LEVELS_TOP_PERCENT of
 * the documented data and unified caches added up, at least LEVELS_TOP_MIN,
 * LEVELS_TOP_DEFAULT when nothing is documented, at most half the arena;
 * grown LEVELS_EXTEND times, up to LEVELS_EXTENSIONS times, while the curve
 * does not climb out of its last plateau.
 */
#define LEVELS_TOP_PERCENT 125u
#define LEVELS_TOP_MIN (2ull << 20)
#define LEVELS_TOP_DEFAULT (64ull << 20)
#define LEVELS_EXTEND 4u
#define LEVELS_EXTENSIONS 2u
/* No warming walk above LEVELS_COLD_PERCENT of that sum (no level can hold the footprint). */
#define LEVELS_COLD_PERCENT 100u
#define LEVELS_FINE_FACTOR 4u
#define LEVELS_FINE_DEFAULT (256u << 10)
/* Time bound of the sweep. */
#define LEVELS_BUDGET_S 4.0
/* An effective capacity below this fraction of the documented size gets a note. */
#define FAR_BELOW 0.5

/* The documented data and unified caches, added up (0: none documented). */
static uint64_t documented_total(const struct mp_result *r)
{
	uint64_t sum = 0;

	for (int32_t i = 0; i < r->documented.ncaches && i < MP_MAX_CACHES; i++) {
		const struct mp_cache *d = &r->documented.caches[i];

		if (d->type != MP_KIND_INSTRUCTION && d->size_bytes > 0)
			sum += (uint64_t)d->size_bytes;
	}
	return sum;
}

static uint64_t arena_top(const struct mp_ctx *c)
{
	return c->cfg->arena_bytes / 2;
}

static uint64_t sweep_top(const struct mp_ctx *c)
{
	uint64_t doc = documented_total(c->r), top = LEVELS_TOP_DEFAULT;

	if (doc)
		top = mp_footprint_grid_ceil(doc * LEVELS_TOP_PERCENT / 100u, MP_FOOTPRINT_DEFAULT_LINE);
	top = top > LEVELS_TOP_MIN ? top : LEVELS_TOP_MIN;
	return top < arena_top(c) ? top : arena_top(c);
}

/* The longest documented line of a data or unified level, at least `line`. */
static uint64_t longest_line(const struct mp_result *r, uint64_t line)
{
	for (int32_t i = 0; i < r->documented.ncaches && i < MP_MAX_CACHES; i++) {
		const struct mp_cache *d = &r->documented.caches[i];

		if (d->type != MP_KIND_INSTRUCTION && d->line_bytes > 0 &&
		    d->line_bytes <= 4096 && (uint64_t)d->line_bytes > line)
			line = (uint64_t)d->line_bytes;
	}
	return line;
}

/* Footprints up to LEVELS_FINE_FACTOR times the documented L1 (or
 * LEVELS_FINE_DEFAULT) use the L1's line (core/measure/footprint.h). */
static uint64_t fine_upto(const struct mp_result *r)
{
	const struct mp_cache *d = mp_result_documented_cache(r, 1);

	return d && d->size_bytes > 0 ? (uint64_t)d->size_bytes * LEVELS_FINE_FACTOR
				      : LEVELS_FINE_DEFAULT;
}

static struct mp_cache *level_record(struct mp_result *r, int32_t level)
{
	enum mp_kind kind = level == 1 ? MP_KIND_DATA : MP_KIND_UNIFIED;
	struct mp_cache *rec = mp_result_find_cache(r, level, kind);

	if (!rec && level > 1)
		rec = mp_result_find_cache(r, level, MP_KIND_DATA);
	if (rec)
		return rec;
	rec = mp_result_add_cache(r);
	if (rec) {
		rec->level = level;
		rec->type = kind;
		rec->method = MP_METHOD_TIMING;
	}
	return rec;
}

static void note_far_below(struct mp_ctx *c, int32_t level, uint64_t eff)
{
	const struct mp_cache *d = mp_result_documented_cache(c->r, level);
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	if (!d || d->size_bytes <= 0 || (double)eff >= FAR_BELOW * (double)d->size_bytes)
		return;
	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "L%d: effective capacity ", (int)level);
	mp_buf_size(&b, eff);
	mp_buf_puts(&b, " is far below the documented ");
	mp_buf_size(&b, (uint64_t)d->size_bytes);
	mp_buf_puts(&b, ": other cores or tenants share it (or page tables occupy it)");
	mp_result_add_note(c->r, text);
}

/* The largest way (size / ways) of a documented data or unified level (0: none). */
static uint64_t widest_way(const struct mp_result *r)
{
	uint64_t w = 0;

	for (int32_t i = 0; i < r->documented.ncaches && i < MP_MAX_CACHES; i++) {
		const struct mp_cache *d = &r->documented.caches[i];

		if (d->type != MP_KIND_INSTRUCTION && d->size_bytes > 0 && d->ways > 0 &&
		    (uint64_t)(d->size_bytes / d->ways) > w)
			w = (uint64_t)(d->size_bytes / d->ways);
	}
	return w;
}

static void note_scattered(struct mp_ctx *c, uint64_t page)
{
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	mp_buf_init(&b, text, sizeof(text));
	mp_buf_puts(&b, "levels: memory not physically contiguous (frames of ");
	mp_buf_size(&b, page);
	mp_buf_puts(&b, "): a level indexed by more physical bits loses lines to page colours");
	mp_result_add_note(c->r, text);
}

static void record_level(struct mp_ctx *c, int32_t level, uint64_t eff, double ticks)
{
	struct mp_cache *rec = level_record(c->r, level);

	if (!rec)
		return;
	rec->effective_size_bytes = (int64_t)eff;
	mp_footprint_latency(c->p, ticks, &rec->latency_cycles, &rec->latency_ns);
	note_far_below(c, level, eff);
}

static void record_curve(struct mp_ctx *c, const struct mp_ck *k)
{
	const char *unit = mp_probe_time_unit(c);
	struct mp_curve *curve = mp_result_add_curve(c->r, "levels", "bytes", unit);

	for (uint32_t i = 0; curve && i < k->n; i++)
		mp_curve_add_point(curve, (double)k->bytes[i], mp_probe_time(c, k->ticks[i]));
}

static void summarise(struct mp_ctx *c, const struct mp_ck *k)
{
	struct mp_buf b;

	mp_buf_init(&b, c->self->message, sizeof(c->self->message));
	mp_buf_printf(&b, "%d cache levels", (int)k->steps.nsteps);
	if (k->timed_out)
		mp_buf_puts(&b, "; some footprints never settled in the time allowed");
}

/*
 * Memory latency, measured directly where the platform can flush lines
 * (NaN elsewhere).  It closes the curve (close_curve), and the sweep stops
 * at the first footprint within the smallest cache step of it
 * (MP_STEP_MIN_RISE_CACHE): no cache level can lie above that footprint,
 * since its step to memory would be too small to count.
 */
static double memory_latency(struct mp_ctx *c, struct mp_mem *m, const struct mp_ck *k)
{
	double t;

	return mp_footprint_memory(c, m, k, &t) == MP_OK ? t : mp_na_double();
}

/*
 * The climb out of the last cache level is a transition even when the
 * sweep ends before the curve reaches memory latency.  Returns whether the
 * curve climbs out of its last plateau within the range (true too when
 * memory latency is unknown).
 */
static bool close_curve(struct mp_ck *k)
{
	double x[MP_SWEEP_MAX];
	int32_t n;

	mp_footprint_analyse(k);
	if (mp_is_na(k->memory))
		return true;
	for (uint32_t i = 0; i < k->n; i++)
		x[i] = (double)k->bytes[i];
	n = mp_steps_top(x, k->ticks, (int32_t)k->n, k->memory, MP_STEP_MIN_RISE_CACHE, &k->steps);
	return k->steps.plateau[n].first < (int32_t)k->n;
}

/* Entries of the documented first-level data TLB for this page size (0: none). */
static uint64_t l1_tlb_entries(const struct mp_result *r, uint64_t page)
{
	for (int32_t i = 0; i < r->documented.ntlbs && i < MP_MAX_TLBS; i++) {
		const struct mp_tlb *d = &r->documented.tlbs[i];

		if (d->level == 1 && d->type != MP_KIND_INSTRUCTION && d->entries > 0 &&
		    (uint64_t)d->page_bytes == page)
			return (uint64_t)d->entries;
	}
	return 0;
}

/* C(k)'s row: half the first-level data TLB's reach (core/measure/footprint.h). */
static uint64_t row_bytes(const struct mp_ctx *c, const struct mp_mem *m)
{
	uint64_t pages = l1_tlb_entries(c->r, m->page_bytes) / 2;

	return (pages > MP_FOOTPRINT_ROW_PAGES ? pages : MP_FOOTPRINT_ROW_PAGES) * m->page_bytes;
}

/* Sweep [lo, hi] into k (appending to its points when it has some), up to memory latency. */
static bool sweep_range(struct mp_ctx *c, struct mp_mem *m, struct mp_ck *k, uint64_t lo,
			uint64_t hi)
{
	static struct mp_ck more;

	k->row = row_bytes(c, m);
	k->memory = memory_latency(c, m, k);
	more = *k;
	more.lo = lo;
	more.hi = hi;
	more.ceiling = mp_is_na(k->memory) ? 0.0 : k->memory / (1.0 + MP_STEP_MIN_RISE_CACHE);
	if (mp_footprint_sweep(c, m, "levels", &more) != MP_OK) {
		mp_probe_fail(c, "the platform could not run a chase");
		return false;
	}
	if (k->n == 0)
		*k = more;
	else if (!mp_footprint_append(k, &more))
		return false;
	return true;
}

/*
 * The curve, from the smallest footprint to a range that shows the climb
 * out of the last level; m is left holding the last range's memory.
 */
static bool measure_curve(struct mp_ctx *c, struct mp_ck *k, struct mp_mem *m)
{
	uint64_t lo = MP_FOOTPRINT_MIN_BYTES, hi = sweep_top(c);

	for (unsigned ext = 0; ; ext++) {
		if (mp_probe_alloc_contig(c, hi, m) != MP_OK)
			return false;
		if (!sweep_range(c, m, k, lo, hi))
			return false;
		if (close_curve(k) || ext == LEVELS_EXTENSIONS || hi >= arena_top(c))
			return true;
		c->p->ops->mem_free(c->p, m);
		lo = hi + 1;
		hi = hi * LEVELS_EXTEND < arena_top(c) ? hi * LEVELS_EXTEND : arena_top(c);
	}
}

static void analyse(struct mp_ctx *c, struct mp_mem *m, struct mp_ck *k)
{
	int32_t n = k->steps.nsteps;

	for (int32_t i = 0; i < n; i++) {
		uint64_t eff;

		mp_progress(c->p, "levels refine", (uint64_t)i, (uint64_t)n);
		if (mp_footprint_refine(c, m, k, i, &eff) != MP_OK) {
			mp_probe_fail(c, "the platform could not run a chase");
			return;
		}
		record_level(c, i + 1, eff, k->steps.plateau[i].upper);
	}
	mp_footprint_latency(c->p, mp_is_na(k->memory) ? k->steps.plateau[n].level : k->memory,
		      &c->r->memory.latency_cycles, &c->r->memory.latency_ns);
	summarise(c, k);
}

void mp_probe_levels(struct mp_ctx *c)
{
	static struct mp_ck k;
	struct mp_mem m;

	k.n = 0;
	k.fine_line = mp_footprint_l1_line(c->r);
	k.line = longest_line(c->r, k.fine_line);
	k.fine_upto = fine_upto(c->r);
	k.cold_above = documented_total(c->r) * LEVELS_COLD_PERCENT / 100u;
	k.budget_s = LEVELS_BUDGET_S;
	if (!measure_curve(c, &k, &m))
		return;
	record_curve(c, &k);
	if (!m.contiguous && widest_way(c->r) > m.frame_bytes)
		note_scattered(c, m.frame_bytes);
	analyse(c, &m, &k);
	c->p->ops->mem_free(c->p, &m);
}
