/* SPDX-License-Identifier: MIT */
/*
 * The victim's set short of a line (mp_evset_short_evictions, core/probes/
 * evset/test.c; "Ways borne out" in docs/algorithms.md), on a simulated
 * LRU L1 of 4 ways of 4K, where lines a page apart share a set: fewer
 * lines than the ways never evict the victim, so the set of its ways short
 * of any one line evicts it in no test, while a set of a line more than
 * the ways short of one line evicts it in every test (the tests stop once
 * one reaches enough).
 */
#include "core/probes/evset/evset.h"
#include "tests/probes/probe_sim.h"

#define PAGE 4096u
#define TESTS 8u

static const char *const text =
	"name = short\nclock freq=1.0G\n"
	"cache L1D size=16K line=64 ways=4 latency=4 replacement=lru\n"
	"memory latency=100\n";

/* The lines of pages 1 .. n, all in the victim's (page 0's) set. */
static const uint64_t lines[] = { 1 * PAGE, 2 * PAGE, 3 * PAGE, 4 * PAGE, 5 * PAGE };

int main(void)
{
	struct mp_mem_req req = { .bytes = 8 * PAGE, .align = PAGE, .page = MP_PAGE_4K };
	struct ps_run s;
	struct mp_mem m;
	struct mp_ctx c;
	struct mp_evset e;
	struct mp_evset_hit hit;

	if (!ps_open_text(&s, "short", text, PS_EXACT))
		return check_done();
	CHECK(s.p->ops->mem_alloc(s.p, &req, &m) == MP_OK, "memory for the lines");
	c = (struct mp_ctx){ .p = s.p, .cfg = &s.cfg, .r = &s.r };
	e = (struct mp_evset){ .c = &c, .base = m.base, .bytes = m.bytes, .page = PAGE,
			       .passes = 2, .trials = 2 };
	mp_rng_seed(&e.rng, 1);
	CHECK(mp_evset_hit(&e, 0, &hit) == 0, "the victim's hit is timed");
	e.slow = (uint64_t)hit.least + 48;    /* halfway from the L1's 4 cycles to memory's 100 */
	CHECK(mp_evset_evicts(&e, 0, lines, 4) == 1, "the set of the 4 ways evicts the victim");
	CHECK(mp_evset_evicts(&e, 0, lines, 3) == 0, "3 lines do not");
	CHECK(mp_evset_short_evictions(&e, 0, lines, 4, TESTS, TESTS) == 0,
	      "the set of the ways short of any line evicts the victim in no test");
	CHECK(mp_evset_short_evictions(&e, 0, lines, 5, TESTS, TESTS) == TESTS,
	      "a set of a line more than the ways, short of one line, evicts it in every test");
	CHECK(mp_evset_short_evictions(&e, 0, lines, 5, TESTS, 2) == 2,
	      "the tests stop once one line left out reaches enough");
	s.p->ops->mem_free(s.p, &m);
	ps_close(&s);
	return check_done();
}
