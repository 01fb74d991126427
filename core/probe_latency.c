/* SPDX-License-Identifier: MIT */
/*
 * The latency sweep: a random pointer chase over growing footprints gives
 * the response curve (cycles per load against footprint) and, from its
 * smallest footprints, the hit latency of the first-level data cache.
 * Every later capacity probe reads the same kind of curve.
 */
#include "core/buf.h"
#include "core/measure.h"
#include "core/probes.h"
#include "core/refstring.h"

#define SWEEP_MIN_BYTES 4096u
/* Footprint steps per doubling: the curve's resolution. */
#define STEPS_PER_DOUBLING_QUICK 2u
#define STEPS_PER_DOUBLING_FULL 4u
#define SWEEP_MAX_QUICK (16ull << 20)
#define SWEEP_MAX_FULL (512ull << 20)
/* Element spacing: one per 64-byte line, the smallest line of any
 * current x86 core; a larger line only makes the curve rise earlier. */
#define ELEMENT_BYTES 64u
/* Footprints at or below this are taken as L1 hits for the latency: no
 * modelled or known data cache is smaller than 8 KB. */
#define L1_LATENCY_FOOTPRINT 8192u

static uint64_t sweep_max(const struct mp_ctx *c)
{
	uint64_t max = c->cfg->profile == MP_PROFILE_FULL ? SWEEP_MAX_FULL : SWEEP_MAX_QUICK;

	return max < c->cfg->arena_bytes / 2 ? max : c->cfg->arena_bytes / 2;
}

/* The k-th footprint of a geometric sweep with `per` steps per doubling,
 * rounded to whole elements. */
static uint64_t footprint(uint64_t k, unsigned per)
{
	static const uint16_t frac[4][4] = {
		{ 1000 }, { 1000, 1414 }, { 1000, 1260, 1587 }, { 1000, 1189, 1414, 1682 },
	};
	uint64_t bytes = ((uint64_t)SWEEP_MIN_BYTES << (k / per)) * frac[per - 1][k % per] / 1000;

	return bytes - bytes % ELEMENT_BYTES;
}

static enum mp_status measure_point(struct mp_ctx *c, struct mp_mem *m, uint64_t bytes,
				    struct mp_rng *g, double *ticks)
{
	struct mp_chase ch = { .length = bytes / ELEMENT_BYTES, .region = "latency-sweep" };
	enum mp_status st;

	ch.cursor = mp_ref_cycle(m->base, ch.length, ELEMENT_BYTES, g);
	st = mp_chase_warm(c, &ch);
	return st == MP_OK ? mp_chase_min(c, &ch, ticks) : st;
}

static void record_l1(struct mp_ctx *c, double ticks)
{
	struct mp_cache *l1 = mp_result_find_cache(c->r, 1, MP_KIND_DATA);

	if (!l1)
		l1 = mp_result_add_cache(c->r);
	if (!l1)
		return;
	l1->level = 1;
	l1->type = MP_KIND_DATA;
	l1->latency_cycles = mp_ticks_to_cycles(c->p, ticks);
	l1->latency_ns = mp_ticks_to_ns(c->p, ticks);
	l1->method = MP_METHOD_TIMING;
}

void mp_probe_latency(struct mp_ctx *c)
{
	unsigned per = c->cfg->profile == MP_PROFILE_FULL ? STEPS_PER_DOUBLING_FULL
							  : STEPS_PER_DOUBLING_QUICK;
	uint64_t max = sweep_max(c), npoints = 0;
	struct mp_curve *curve = mp_result_add_curve(c->r, "latency", "bytes", mp_probe_time_unit(c));
	double l1 = mp_na_double(), ticks;
	struct mp_rng g;
	struct mp_mem m;

	while (footprint(npoints, per) <= max)
		npoints++;
	if (mp_probe_alloc(c, footprint(npoints - 1, per), MP_PAGE_2M, &m) != MP_OK)
		return;
	mp_rng_seed(&g, c->cfg->seed);
	for (uint64_t k = 0; k < npoints; k++) {
		uint64_t bytes = footprint(k, per);

		c->p->ops->progress(c->p, "latency", k, npoints);
		if (measure_point(c, &m, bytes, &g, &ticks) != MP_OK) {
			mp_probe_fail(c, "the platform could not run a chase");
			break;
		}
		if (bytes <= L1_LATENCY_FOOTPRINT && !(ticks >= l1))
			l1 = ticks;
		if (curve)
			mp_curve_add_point(curve, (double)bytes, mp_probe_time(c, ticks));
	}
	c->p->ops->mem_free(c->p, &m);
	if (!mp_is_na(l1))
		record_l1(c, l1);
}
