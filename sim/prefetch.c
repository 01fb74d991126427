/* SPDX-License-Identifier: MIT */
/*
 * The hardware prefetcher a probe has to defeat.  It sits at one cache
 * level of the data path and watches the demand accesses that reach that
 * level (at level 1: every data access):
 *
 *   next-line  a miss there fetches the next `degree` lines;
 *   stride     two equal steps in a row between accesses fetch `degree`
 *              steps ahead (a step shorter than a line fetches whole lines
 *              in its direction);
 *   adjacent   a miss there fetches the other line of its aligned pair (a
 *              128-byte pair of 64-byte lines: Intel's spatial prefetcher,
 *              AMD's adjacent-line fetch); `degree` is not used.
 *
 * One stream is tracked per logical CPU (real prefetchers track several, by instruction
 * address).  Prefetches never cross a page, cost no time, count no events,
 * and fill the watched level and the levels below it as a load would.
 */
#include "sim/simint.h"

static void issue(struct mp_sim *s, struct sim_path *p, uint64_t va, uint64_t pa,
		  int64_t delta)
{
	const struct sim_region *r = sim_vm_find(s, va);
	uint64_t target = va + (uint64_t)delta;
	int h;

	if (!r || (target >> r->fshift) != (va >> r->fshift))
		return;
	pa += (uint64_t)delta;
	h = sim_lookup_from(s, p, p->pf, target, pa, false);
	sim_fill_range(s, p, p->pf, h, target, pa, false);
}

static int64_t step_of(int64_t stride, uint64_t line)
{
	int64_t l = (int64_t)line;

	if (stride >= l || stride <= -l)
		return stride;
	return stride > 0 ? l : -l;
}

static void next_line(struct mp_sim *s, struct sim_path *p, uint64_t va, uint64_t pa,
		      bool hit, uint64_t line)
{
	if (!hit)
		for (uint32_t k = 1; k <= s->model.prefetch.degree; k++)
			issue(s, p, va, pa, (int64_t)(k * line));
}

static void adjacent(struct mp_sim *s, struct sim_path *p, uint64_t va, uint64_t pa, bool hit,
		     uint64_t line)
{
	if (!hit)
		issue(s, p, va, pa, pa & line ? -(int64_t)line : (int64_t)line);
}

static void stride(struct mp_sim *s, struct sim_path *p, uint64_t va, uint64_t pa, bool hit,
		   uint64_t line)
{
	struct sim_prefetcher *pf = &s->cur->pf;
	int64_t step = (int64_t)(va - pf->last);

	(void)hit;
	pf->confirmed = step != 0 && step == pf->stride ? pf->confirmed + 1 : 0;
	pf->stride = step;
	pf->last = va;
	if (!pf->confirmed)
		return;
	for (uint32_t k = 1; k <= s->model.prefetch.degree; k++)
		issue(s, p, va, pa, (int64_t)k * step_of(step, line));
}

typedef void prefetch_fn(struct mp_sim *s, struct sim_path *p, uint64_t va, uint64_t pa,
			 bool hit, uint64_t line);

static prefetch_fn *const kinds[] = {
	[MP_SIM_PF_NEXT_LINE] = next_line,
	[MP_SIM_PF_STRIDE] = stride,
	[MP_SIM_PF_ADJACENT] = adjacent,
};

void sim_prefetch_observe(struct mp_sim *s, struct sim_path *p, uint64_t va, uint64_t pa,
			  bool hit)
{
	prefetch_fn *fn = kinds[s->model.prefetch.kind];

	if (fn)
		fn(s, p, va, pa, hit, p->c[p->pf]->m.line);
}
