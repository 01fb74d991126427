/* SPDX-License-Identifier: MIT */
/*
 * The multi-level cache test (Cooper-Xu 3.3): the C(k) response curve over
 * the whole hierarchy, its transitions found by the step analysis.  Every
 * transition is a level: its effective capacity (refined between the last
 * footprint that fits and the first that does not) and its hit latency (the
 * plateau below the transition); the plateau after the last transition is
 * memory.  Level 1 is the L1 data cache (the "l1" probe measures its
 * physical parameters); the levels below are reported as unified, which is
 * what a data reference string can see.
 */
#include "core/buf.h"
#include "core/cksweep.h"
#include "core/probes.h"
#include "core/str.h"

/*
 * Sweep range.  The curve must run on past the last cache level to show
 * the memory plateau for a doubling: to LEVELS_TOP_FACTOR times the sum of
 * the documented data and unified caches (exclusive levels add up, X-Ray
 * 5.2.2), at least LEVELS_TOP_MIN (Cooper-Xu's upper bound, which covers the
 * caches of their machines), LEVELS_TOP_DEFAULT when nothing is documented,
 * and at most half the arena.
 */
#define LEVELS_TOP_FACTOR 2u
#define LEVELS_TOP_MIN (32ull << 20)
#define LEVELS_TOP_DEFAULT (64ull << 20)
/*
 * Footprints above LEVELS_COLD_PERCENT of that sum cannot be held by any
 * level, so their runs skip the warming walk (the costliest part of a run
 * at memory latency).
 */
#define LEVELS_COLD_PERCENT 150u
/* Time bound of the sweep (Cooper-Xu report a few seconds for this test). */
#define LEVELS_BUDGET_S 6.0
/*
 * An effective capacity below this fraction of the documented size is
 * reported: Cooper-Xu (section 4) find the last level's effective capacity
 * below its physical one when other cores share it.
 */
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

static uint64_t sweep_top(const struct mp_ctx *c)
{
	uint64_t doc = documented_total(c->r), top = LEVELS_TOP_DEFAULT;

	if (doc)
		top = doc * LEVELS_TOP_FACTOR > LEVELS_TOP_MIN ? doc * LEVELS_TOP_FACTOR
							       : LEVELS_TOP_MIN;
	return top < c->cfg->arena_bytes / 2 ? top : c->cfg->arena_bytes / 2;
}

/* Element spacing: the L1 line the "l1" probe found, else the default. */
static uint64_t element_bytes(struct mp_ctx *c)
{
	struct mp_cache *l1 = mp_result_find_cache(c->r, 1, MP_KIND_DATA);

	if (l1 && l1->line_bytes >= 16 && l1->line_bytes <= 4096)
		return (uint64_t)l1->line_bytes;
	return MP_CK_DEFAULT_LINE;
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

static const struct mp_cache *documented_level(const struct mp_result *r, int32_t level)
{
	for (int32_t i = 0; i < r->documented.ncaches && i < MP_MAX_CACHES; i++) {
		const struct mp_cache *d = &r->documented.caches[i];

		if (d->level == level && d->type != MP_KIND_INSTRUCTION)
			return d;
	}
	return NULL;
}

static void note_far_below(struct mp_ctx *c, int32_t level, uint64_t eff)
{
	const struct mp_cache *d = documented_level(c->r, level);
	char text[MP_TEXT_LEN];
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

static void record_level(struct mp_ctx *c, int32_t level, uint64_t eff, double ticks)
{
	struct mp_cache *rec = level_record(c->r, level);

	if (!rec)
		return;
	rec->effective_size_bytes = (int64_t)eff;
	mp_ck_latency(c->p, ticks, &rec->latency_cycles, &rec->latency_ns);
	note_far_below(c, level, eff);
}

static void record_curve(struct mp_ctx *c, const struct mp_ck *k)
{
	struct mp_curve *curve = mp_result_add_curve(c->r, "levels", "bytes", mp_probe_time_unit(c));

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
 * Memory latency, measured directly where the platform can flush lines,
 * closes the curve: the climb out of the last cache level is a transition
 * even when the sweep ends before the curve reaches memory latency.
 */
static void close_curve(struct mp_ctx *c, struct mp_mem *m, struct mp_ck *k)
{
	double x[MP_SWEEP_MAX], mem;

	if (mp_ck_memory(c, m, k->line, &mem) != MP_OK)
		return;
	for (uint32_t i = 0; i < k->n; i++)
		x[i] = (double)k->bytes[i];
	mp_steps_top(x, k->ticks, (int32_t)k->n, mem, MP_STEP_MIN_RISE_CACHE, &k->steps);
}

static void analyse(struct mp_ctx *c, struct mp_mem *m, struct mp_ck *k)
{
	int32_t n;

	close_curve(c, m, k);
	n = k->steps.nsteps;

	for (int32_t i = 0; i < n; i++) {
		uint64_t eff;

		c->p->ops->progress(c->p, "levels refine", (uint64_t)i, (uint64_t)n);
		if (mp_ck_refine(c, m, k, i, &eff) != MP_OK) {
			mp_probe_fail(c, "the platform could not run a chase");
			return;
		}
		record_level(c, i + 1, eff, k->steps.plateau[i].level);
	}
	mp_ck_latency(c->p, k->steps.plateau[n].level, &c->r->memory.latency_cycles,
		      &c->r->memory.latency_ns);
	summarise(c, k);
}

void mp_probe_levels(struct mp_ctx *c)
{
	static struct mp_ck k;
	struct mp_mem m;

	k.lo = MP_CK_MIN_BYTES;
	k.hi = sweep_top(c);
	k.line = element_bytes(c);
	k.cold_above = documented_total(c->r) * LEVELS_COLD_PERCENT / 100u;
	k.budget_s = LEVELS_BUDGET_S;
	if (mp_probe_alloc(c, k.hi, MP_PAGE_2M, &m) != MP_OK)
		return;
	if (mp_ck_sweep(c, &m, "levels", &k) != MP_OK) {
		mp_probe_fail(c, "the platform could not run a chase");
	} else {
		record_curve(c, &k);
		analyse(c, &m, &k);
	}
	c->p->ops->mem_free(c->p, &m);
}
