/* SPDX-License-Identifier: MIT */
/*
 * The latency curve: the multi-level test's C(k) sweep (core/measure/
 * footprint.h) over small footprints only, a first hit latency of the L1
 * data cache before any other probe runs.
 */
#include "core/measure/footprint.h"
#include "core/probes/probes.h"

/*
 * The curve runs to LATENCY_TOP_FACTOR times the documented L1 data cache,
 * or to LATENCY_TOP_DEFAULT when nothing is documented
 * (docs/algorithms.md, "Multi-level caches").
 */
#define LATENCY_TOP_FACTOR 8u
#define LATENCY_TOP_DEFAULT (256u << 10)
#define LATENCY_BUDGET_S 1.0

static uint64_t latency_top(const struct mp_ctx *c)
{
	for (int32_t i = 0; i < c->r->documented.ncaches && i < MP_MAX_CACHES; i++) {
		const struct mp_cache *d = &c->r->documented.caches[i];

		if (d->level == 1 && d->type == MP_KIND_DATA && d->size_bytes > 0)
			return (uint64_t)d->size_bytes * LATENCY_TOP_FACTOR;
	}
	return LATENCY_TOP_DEFAULT;
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
	mp_footprint_latency(c->p, ticks, &l1->latency_cycles, &l1->latency_ns);
	l1->method = MP_METHOD_TIMING;
}

void mp_probe_latency(struct mp_ctx *c)
{
	static struct mp_ck k = {
		.lo = MP_FOOTPRINT_MIN_BYTES, .line = MP_FOOTPRINT_DEFAULT_LINE, .budget_s = LATENCY_BUDGET_S,
	};
	struct mp_curve *curve;
	struct mp_mem m;

	k.hi = latency_top(c);
	if (mp_probe_alloc_contig(c, k.hi, &m) != MP_OK)
		return;
	k.row = MP_FOOTPRINT_ROW_PAGES * m.page_bytes;
	if (mp_footprint_sweep(c, &m, "latency", &k) != MP_OK) {
		mp_probe_fail(c, "the platform could not run a chase");
		c->p->ops->mem_free(c->p, &m);
		return;
	}
	c->p->ops->mem_free(c->p, &m);
	curve = mp_result_add_curve(c->r, "latency", "bytes", mp_probe_time_unit(c));
	for (uint32_t i = 0; curve && i < k.n; i++)
		mp_curve_add_point(curve, (double)k.bytes[i], mp_probe_time(c, k.ticks[i]));
	record_l1(c, k.steps.plateau[0].level);
}
