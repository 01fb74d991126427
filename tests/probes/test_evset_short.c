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
#include "tests/probes/evset_tester.h"

#define PAGE ET_PAGE
#define TESTS 8u

static const char *const text =
	"name = short\nclock freq=1.0G\n"
	"cache L1D size=16K line=64 ways=4 latency=4 replacement=lru\n"
	"memory latency=100\n";

/* The lines of pages 1 .. n, all in the victim's (page 0's) set. */
static const uint64_t lines[] = { 1 * PAGE, 2 * PAGE, 3 * PAGE, 4 * PAGE, 5 * PAGE };

int main(void)
{
	struct et_run t;
	struct mp_evset *e = &t.e;

	if (!et_open(&t, "short", text, 8 * PAGE, PAGE))
		return check_done();
	CHECK(mp_evset_evicts(e, 0, lines, 4) == 1, "the set of the 4 ways evicts the victim");
	CHECK(mp_evset_evicts(e, 0, lines, 3) == 0, "3 lines do not");
	CHECK(mp_evset_short_evictions(e, 0, lines, 4, TESTS, TESTS) == 0,
	      "the set of the ways short of any line evicts the victim in no test");
	CHECK(mp_evset_short_evictions(e, 0, lines, 5, TESTS, TESTS) == TESTS,
	      "a set of a line more than the ways, short of one line, evicts it in every test");
	CHECK(mp_evset_short_evictions(e, 0, lines, 5, TESTS, 2) == 2,
	      "the tests stop once one line left out reaches enough");
	et_close(&t);
	return check_done();
}
