/* SPDX-License-Identifier: MIT */
/* The C(k) response curve: grid, sweep, analysis and refinement (core/measure/footprint.h). */
#include "core/measure/footprint.h"
#include "core/probe.h"
#include "core/seq/refstring.h"

struct ck_run {
	struct mp_mem *m;
	const struct mp_ck *k;
	struct mp_rng g;
	const char *region;
	bool no_flush;           /* the platform cannot empty its caches */
};

uint64_t mp_footprint_grid_ceil(uint64_t x, uint64_t line)
{
	uint64_t g[MP_SWEEP_MAX];
	uint32_t n = mp_footprint_grid(x, 4 * x + line, line, g, MP_SWEEP_MAX);

	return n ? g[0] : x;
}

uint32_t mp_footprint_grid(uint64_t lo, uint64_t hi, uint64_t line, uint64_t *out, uint32_t max)
{
	uint32_t n = 0;

	for (uint64_t p = 1; p <= hi && n < max; p <<= 1) {
		for (uint64_t q = 4; q < 4 + MP_FOOTPRINT_PER_DOUBLING && n < max; q++) {
			uint64_t x = p * q / 4;

			x -= x % line;
			if (x < lo || x > hi || (n && x <= out[n - 1]) ||
			    (x > MP_FOOTPRINT_COARSE_BYTES && q % 2))
				continue;
			out[n++] = x;
		}
	}
	return n;
}

static uint64_t spacing(const struct mp_ck *k, uint64_t bytes)
{
	return bytes <= k->fine_upto && k->fine_line ? k->fine_line : k->line;
}

/*
 * A fresh C(bytes) to chase from its first element, built in caches
 * emptied first where the platform can (docs/algorithms.md, "Timing
 * discipline", stale lines).
 */
static enum mp_status ck_build(struct mp_ctx *c, struct ck_run *r, uint64_t bytes,
			       struct mp_chase *ch)
{
	const struct mp_ck *k = r->k;
	struct mp_linker link = k->code_row ? mp_linker_code(c->p, k->code_row)
					    : mp_linker_data(c->p);
	uint64_t line = spacing(k, bytes), row = k->code_row ? k->code_row : k->row;
	void *start;
	enum mp_status st;

	if (!r->no_flush)
		r->no_flush = c->p->ops->flush_all(c->p) != MP_OK;
	st = mp_link_ck(&link, r->m, bytes, row, line, &r->g, &start);
	*ch = mp_chase_linked(&link, start, bytes / line, r->region);
	return st;
}

/*
 * One visit: build a fresh string, walk it once to warm the caches unless
 * no level can hold it, and time whole passes.
 */
static enum mp_status ck_sample(struct mp_ctx *c, void *arg, const struct mp_sweep *s,
				uint32_t i, double *ticks, uint32_t *n)
{
	struct ck_run *r = arg;
	struct mp_chase ch;
	enum mp_status st = ck_build(c, r, s->x[i], &ch);

	*n = 0;
	if (st != MP_OK)
		return st;
	return mp_chase_visit(c, &ch, !r->k->cold_above || s->x[i] <= r->k->cold_above, ticks,
			      n);
}

enum mp_status mp_footprint_sweep(struct mp_ctx *c, struct mp_mem *m, const char *what,
			   struct mp_ck *k)
{
	static struct mp_sweep s;
	struct ck_run run = { .m = m, .k = k, .region = what };
	enum mp_status st;

	k->n = mp_footprint_grid(k->lo, k->hi, k->line, k->bytes, MP_SWEEP_MAX);
	if (k->n == 0)
		return MP_EIO;
	mp_rng_seed(&run.g, c->cfg->seed);
	mp_sweep_init(&s, c->cfg, k->bytes, k->n);
	for (uint32_t i = 0; i < k->n; i++)
		s.need[i] = mp_stable_for(c->cfg, k->bytes[i] / spacing(k, k->bytes[i]));
	if (k->budget_s > 0)
		s.deadline = mp_now(c->p) + (uint64_t)(k->budget_s * (double)c->p->tick_hz);
	s.ceiling = k->ceiling;
	st = mp_sweep_run(c, &s, ck_sample, &run, what);
	k->timed_out = s.timed_out;
	k->sweeps = s.sweeps;
	k->n = mp_sweep_reach(c->p, &s);
	for (uint32_t i = 0; i < k->n; i++) {
		k->ticks[i] = s.best[i];
		k->runs[i] = s.runs[i];
	}
	if (st == MP_OK)
		mp_footprint_analyse(k);
	return st;
}

void mp_footprint_analyse(struct mp_ck *k)
{
	double x[MP_SWEEP_MAX];

	for (uint32_t i = 0; i < k->n; i++)
		x[i] = (double)k->bytes[i];
	mp_steps_find(x, k->ticks, (int32_t)k->n, MP_STEP_MIN_RISE_CACHE, MP_STEP_MIN_FLAT_CACHE,
		      &k->steps);
}

bool mp_footprint_append(struct mp_ck *a, const struct mp_ck *b)
{
	if (a->n + b->n > MP_SWEEP_MAX)
		return false;
	for (uint32_t i = 0; i < b->n; i++) {
		a->bytes[a->n + i] = b->bytes[i];
		a->ticks[a->n + i] = b->ticks[i];
		a->runs[a->n + i] = b->runs[i];
	}
	a->n += b->n;
	a->hi = b->hi;
	a->timed_out |= b->timed_out;
	a->sweeps += b->sweeps;
	return true;
}

/* The minimum time of C(bytes) alone, by the sweep's rule for its length (mp_stable_for). */
static enum mp_status ck_time(struct mp_ctx *c, struct ck_run *r, uint64_t bytes, double *ticks)
{
	struct mp_chase ch;
	enum mp_status st = ck_build(c, r, bytes, &ch);

	if (st == MP_OK)
		st = mp_chase_warm(c, &ch);
	if (st != MP_OK)
		return st;
	return mp_chase_min_pass(c, &ch, MP_MIN_PASSES(mp_stable_for(c->cfg, ch.length)), ticks);
}

enum mp_status mp_footprint_refine(struct mp_ctx *c, struct mp_mem *m, const struct mp_ck *k,
			    int32_t i, uint64_t *bytes)
{
	const struct mp_plateau *below = &k->steps.plateau[i];
	uint64_t lo = k->bytes[below->last];
	uint64_t hi = below->last + 1 < (int32_t)k->n ? k->bytes[below->last + 1] : lo;
	struct ck_run run = { .m = m, .k = k, .region = "levels-refine" };
	double noise = below->noise > k->steps.noise ? below->noise : k->steps.noise;
	double fit = mp_log2(1.0 + MP_FOOTPRINT_FIT_RISE), t;

	mp_rng_seed(&run.g, c->cfg->seed + (uint64_t)i);
	if (k->cold_above && lo > k->cold_above && below->last > below->first) {
		hi = lo;                 /* more than all the caches hold: cannot fit */
		lo = k->bytes[below->last - 1];
	}
	for (unsigned s = 0; s < MP_FOOTPRINT_REFINE_STEPS; s++) {
		uint64_t mid = (lo + hi) / 2;
		enum mp_status st;

		mid -= mid % k->line;
		if (mid <= lo || mid >= hi)
			break;
		if (k->cold_above && mid > k->cold_above) {
			hi = mid;
			continue;
		}
		st = ck_time(c, &run, mid, &t);
		if (st != MP_OK)
			return st;
		if (mp_log2(t / below->peak) <= fit ||
		    mp_log2(t / below->peak) <= MP_STEP_NOISE_K * noise)
			lo = mid;
		else
			hi = mid;
	}
	*bytes = lo;
	return MP_OK;
}

void mp_footprint_latency(const struct mp_platform *p, double ticks, double *cycles, double *ns)
{
	*cycles = mp_ticks_to_cycles(p, ticks);
	*ns = mp_ticks_to_ns(p, ticks);
}

/* The memory string: every MP_FOOTPRINT_MEMORY_GAP-th line (or sparser) of the first row. */
static void *memory_string(struct mp_mem *m, const struct mp_ck *k, uint64_t *n, struct mp_rng *g)
{
	uint64_t span = k->row < m->bytes ? k->row : m->bytes, gap = MP_FOOTPRINT_MEMORY_GAP * k->line;
	struct mp_ref_pages s = { .line = k->line, .per_group = 1, .per_page = 1 };

	while (span / gap > MP_FOOTPRINT_MEMORY_LINES)
		gap *= 2;
	s.page = gap;
	s.groups = span / gap;
	s.group_stride = gap;
	s.page_stride = gap;
	*n = s.groups;
	return *n ? mp_ref_pages(m->base, &s, g) : NULL;
}

/* One pass over a string whose every line was flushed first: all misses. */
static enum mp_status cold_pass(struct mp_ctx *c, void *start, uint64_t n, double *ticks)
{
	struct mp_chase ch = { .cursor = start, .length = n, .region = "memory" };
	uint64_t *e = start, t = 0;
	enum mp_status st = MP_OK;

	for (uint64_t i = 0; i < n && st == MP_OK; i++) {
		uint64_t *next = (uint64_t *)(uintptr_t)*e;  /* read before the line goes */

		st = c->p->ops->flush_line(c->p, e);
		e = next;
	}
	if (st == MP_OK)
		st = mp_chase_window(c, &ch, n, &t);
	*ticks = (double)t / (double)n;
	return st;
}

enum mp_status mp_footprint_memory(struct mp_ctx *c, struct mp_mem *m, const struct mp_ck *k,
			    double *ticks)
{
	uint64_t n, since = 0;
	struct mp_rng g;
	void *start;

	mp_rng_seed(&g, c->cfg->seed);
	start = memory_string(m, k, &n, &g);
	if (!start)
		return MP_EIO;
	*ticks = mp_na_double();
	for (unsigned run = 0; run < MP_MAX_RUNS && since < MP_STABLE_RUNS_FULL; run++) {
		double t;
		enum mp_status st = cold_pass(c, start, n, &t);

		if (st != MP_OK)
			return st;
		bool better = mp_is_na(*ticks) || t < *ticks;

		since = better && (mp_is_na(*ticks) || !mp_same_time(c->p, t, *ticks, MP_SAME_REL))
				? 0 : since + 1;
		*ticks = better ? t : *ticks;
	}
	return MP_OK;
}

/* A line length a chase can use: a power of two from 16 bytes to a page. */
static bool usable_line(const struct mp_cache *c)
{
	return c && c->line_bytes >= 16 && c->line_bytes <= 4096;
}

uint64_t mp_footprint_l1_line(struct mp_result *r)
{
	return mp_footprint_l1_line_of(r, MP_KIND_DATA);
}

uint64_t mp_footprint_l1_line_of(struct mp_result *r, enum mp_kind side)
{
	const struct mp_cache *l1 = mp_result_find_cache(r, 1, side);
	const struct mp_cache *d = mp_result_documented_side(r, 1, side);

	if (usable_line(l1))
		return (uint64_t)l1->line_bytes;
	if (usable_line(d))
		return (uint64_t)d->line_bytes;
	return MP_FOOTPRINT_DEFAULT_LINE;
}
