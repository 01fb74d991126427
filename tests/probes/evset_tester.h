/* SPDX-License-Identifier: MIT */
/*
 * An eviction tester (struct mp_evset) on a simulated model of one cache
 * with a 4-cycle hit over a 100-cycle memory, for the tests of the
 * eviction test's parts: its memory, its context, 2 passes and 2 tries a
 * test, and its threshold halfway from the hit to memory.
 */
#ifndef MEMPROBE_TESTS_PROBES_EVSET_TESTER_H
#define MEMPROBE_TESTS_PROBES_EVSET_TESTER_H

#include "core/probes/evset/evset.h"
#include "tests/probes/probe_sim.h"

#define ET_PAGE 4096u

struct et_run {
	struct ps_run s;
	struct mp_mem m;
	struct mp_ctx c;
	struct mp_evset e;
};

/* The model's platform, `bytes` of memory aligned to `align`, the tester: 1 ready. */
static inline int et_open(struct et_run *t, const char *name, const char *text, uint64_t bytes,
			  uint64_t align)
{
	struct mp_mem_req req = { .bytes = bytes, .align = align, .page = MP_PAGE_4K };
	struct mp_evset_hit hit;

	if (!ps_open_text(&t->s, name, text, PS_EXACT))
		return 0;
	CHECK(t->s.p->ops->mem_alloc(t->s.p, &req, &t->m) == MP_OK, "memory for the lines");
	t->c = (struct mp_ctx){ .p = t->s.p, .cfg = &t->s.cfg, .r = &t->s.r };
	t->e = (struct mp_evset){ .c = &t->c, .base = t->m.base, .bytes = t->m.bytes,
				  .page = ET_PAGE, .passes = 2, .trials = 2 };
	mp_rng_seed(&t->e.rng, 1);
	CHECK(mp_evset_hit(&t->e, 0, &hit) == 0, "the victim's hit is timed");
	t->e.slow = (uint64_t)hit.least + 48;  /* halfway from the hit's 4 cycles to memory's 100 */
	return 1;
}

static inline void et_close(struct et_run *t)
{
	t->s.p->ops->mem_free(t->s.p, &t->m);
	ps_close(&t->s);
}

#endif
