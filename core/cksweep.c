/* SPDX-License-Identifier: MIT */
/* The C(k) response curve: grid, sweep, analysis and refinement (core/cksweep.h). */
#include "core/cksweep.h"
#include "core/refstring.h"

struct ck_run {
	struct mp_mem *m;
	const struct mp_ck *k;
	struct mp_rng g;
	const char *region;
};

uint32_t mp_ck_grid(uint64_t lo, uint64_t hi, uint64_t line, uint64_t *out, uint32_t max)
{
	uint32_t n = 0;

	for (uint64_t p = 1; p <= hi && n < max; p <<= 1) {
		for (uint64_t q = 4; q < 4 + MP_CK_PER_DOUBLING && n < max; q++) {
			uint64_t x = p * q / 4;

			x -= x % line;
			if (x < lo || x > hi || (n && x <= out[n - 1]))
				continue;
			out[n++] = x;
		}
	}
	return n;
}

static uint64_t row_bytes(const struct mp_mem *m, uint64_t bytes)
{
	return m->page_bytes >= MP_CK_LARGE_PAGE ? bytes : m->page_bytes;
}

/* A fresh C(bytes) to chase from its first element. */
static void ck_build(struct ck_run *r, uint64_t bytes, struct mp_chase *ch)
{
	const struct mp_ck *k = r->k;

	ch->cursor = mp_ref_ck(r->m->base, bytes, row_bytes(r->m, bytes), k->line, &r->g);
	ch->length = bytes / k->line;
	ch->region = r->region;
}

static enum mp_status ck_window(struct mp_ctx *c, struct mp_chase *ch, double *ticks)
{
	uint64_t steps = mp_chase_steps(ch), t;
	enum mp_status st = mp_chase_window(c, ch, steps, &t);

	*ticks = (double)t / (double)steps;
	return st;
}

/*
 * Is a freshly built string as warm as a walk would make it?  Building it
 * stores to every element in chase order, which leaves a write-allocating
 * hierarchy as a warming walk would; so the first window is timed straight
 * away and the walk is only spent when that window is slower than the
 * point's best (or on the point's first visit).
 */
static bool needs_walk(struct mp_ctx *c, const struct ck_run *r, const struct mp_sweep *s,
		       uint32_t i, double first)
{
	if (r->k->cold_above && s->x[i] > r->k->cold_above)
		return false;
	return s->runs[i] == 0 ||
	       (first > s->best[i] && !mp_same_time(c->p, first, s->best[i], MP_KNOCKOUT_REL));
}

/*
 * One visit: build a fresh string, time a window, warm it if needed, and
 * time as many more windows as the set-up is worth: one per
 * MP_WINDOW_STEPS elements walked, up to MP_VISIT_RUNS in all.
 */
static enum mp_status ck_sample(struct mp_ctx *c, void *arg, const struct mp_sweep *s,
				uint32_t i, double *ticks, uint32_t *n)
{
	struct ck_run *r = arg;
	struct mp_chase ch;
	uint32_t more;
	enum mp_status st;

	ck_build(r, s->x[i], &ch);
	st = ck_window(c, &ch, &ticks[0]);
	*n = 1;
	if (st != MP_OK || !needs_walk(c, r, s, i, ticks[0]))
		return st;
	st = mp_chase_warm(c, &ch);
	more = (uint32_t)(ch.length / MP_WINDOW_STEPS) + 1;
	for (uint32_t k = 0; st == MP_OK && k < more && *n < MP_VISIT_RUNS; k++)
		st = ck_window(c, &ch, &ticks[(*n)++]);
	return st;
}

enum mp_status mp_ck_sweep(struct mp_ctx *c, struct mp_mem *m, const char *what,
			   struct mp_ck *k)
{
	static struct mp_sweep s;
	struct ck_run run = { .m = m, .k = k, .region = what };
	double x[MP_SWEEP_MAX];
	enum mp_status st;

	k->n = mp_ck_grid(k->lo, k->hi, k->line, k->bytes, MP_SWEEP_MAX);
	if (k->n == 0)
		return MP_EIO;
	mp_rng_seed(&run.g, c->cfg->seed);
	mp_sweep_init(&s, k->bytes, k->n);
	if (k->budget_s > 0)
		s.deadline = mp_now(c->p) + (uint64_t)(k->budget_s * (double)c->p->tick_hz);
	st = mp_sweep_run(c, &s, ck_sample, &run, what);
	k->timed_out = s.timed_out;
	k->sweeps = s.sweeps;
	for (uint32_t i = 0; i < k->n; i++) {
		k->ticks[i] = s.best[i];
		k->runs[i] = s.runs[i];
		x[i] = (double)k->bytes[i];
	}
	if (st == MP_OK)
		mp_steps_find(x, k->ticks, (int32_t)k->n, MP_STEP_MIN_RISE_CACHE, &k->steps);
	return st;
}

/* The minimum time of C(bytes) alone, by the single-point discipline. */
static enum mp_status ck_time(struct mp_ctx *c, struct ck_run *r, uint64_t bytes, double *ticks)
{
	struct mp_chase ch;
	enum mp_status st;

	ck_build(r, bytes, &ch);
	st = mp_chase_warm(c, &ch);
	return st == MP_OK ? mp_chase_min(c, &ch, ticks) : st;
}

enum mp_status mp_ck_refine(struct mp_ctx *c, struct mp_mem *m, const struct mp_ck *k,
			    int32_t i, uint64_t *bytes)
{
	const struct mp_plateau *below = &k->steps.plateau[i];
	uint64_t lo = k->bytes[below->last];
	uint64_t hi = below->last + 1 < (int32_t)k->n ? k->bytes[below->last + 1] : lo;
	struct ck_run run = { .m = m, .k = k, .region = "levels-refine" };
	double fit = mp_log2(1.0 + MP_CK_FIT_RISE), t;

	mp_rng_seed(&run.g, c->cfg->seed + (uint64_t)i);
	for (unsigned s = 0; s < MP_CK_REFINE_STEPS; s++) {
		uint64_t mid = (lo + hi) / 2;
		enum mp_status st;

		mid -= mid % k->line;
		if (mid <= lo || mid >= hi)
			break;
		st = ck_time(c, &run, mid, &t);
		if (st != MP_OK)
			return st;
		if (mp_log2(t / below->high) <= fit ||
		    mp_log2(t / below->high) <= MP_STEP_NOISE_K * k->steps.noise)
			lo = mid;
		else
			hi = mid;
	}
	*bytes = lo;
	return MP_OK;
}

void mp_ck_latency(const struct mp_platform *p, double ticks, double *cycles, double *ns)
{
	*cycles = mp_ticks_to_cycles(p, ticks);
	*ns = mp_ticks_to_ns(p, ticks);
}

/* A string of `count` lines, one in each of as many equal slices of m. */
static void *spread_string(struct mp_mem *m, uint64_t count, uint64_t line, struct mp_rng *g)
{
	struct mp_ref_pages s = {
		.page = MP_CK_MEMORY_SLICE, .line = line, .group_stride = MP_CK_MEMORY_SLICE,
		.per_group = 1, .page_stride = MP_CK_MEMORY_SLICE, .per_page = 1,
	};
	uint64_t slices = m->bytes / MP_CK_MEMORY_SLICE;

	s.groups = count < slices ? count : slices;
	s.group_stride = slices / s.groups * MP_CK_MEMORY_SLICE;
	return mp_ref_pages(m->base, &s, g);
}

/* One pass over a string whose every line was flushed first: all misses. */
static enum mp_status cold_pass(struct mp_ctx *c, void *start, uint64_t n, double *ticks)
{
	struct mp_chase ch = { .cursor = start, .length = n, .region = "memory" };
	uint64_t *e = start, t;
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

enum mp_status mp_ck_memory(struct mp_ctx *c, struct mp_mem *m, uint64_t line, double *ticks)
{
	uint64_t n = m->bytes / MP_CK_MEMORY_SLICE, since = 0;
	struct mp_rng g;
	void *start;

	n = n < MP_WINDOW_STEPS ? n : MP_WINDOW_STEPS;
	if (n == 0)
		return MP_EIO;
	mp_rng_seed(&g, c->cfg->seed);
	start = spread_string(m, n, line, &g);
	*ticks = mp_na_double();
	for (unsigned run = 0; run < MP_MAX_RUNS && since < mp_stable_runs(c->cfg); run++) {
		double t;
		enum mp_status st = cold_pass(c, start, n, &t);

		if (st != MP_OK)
			return st;
		since = (mp_is_na(*ticks) || (t < *ticks && !mp_same_time(c->p, t, *ticks,
									    MP_SAME_REL))) ? 0 : since + 1;
		*ticks = mp_is_na(*ticks) || t < *ticks ? t : *ticks;
	}
	return MP_OK;
}
