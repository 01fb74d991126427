/* SPDX-License-Identifier: MIT */
/*
 * The classes by a conflict set (mp_evset_conflict, core/probes/evset/
 * conflict.c), on a simulated LRU cache of 4 ways of 16K: lines at one
 * page offset fall in 4 classes by their page's colour (its number mod 4).
 * Seeded with class 0's 4 lines, a pool of every colour gives 4 classes of
 * 4 lines; the same pool gives no whole number of classes of 3 ways, nor
 * where one colour has fewer candidates than the ways; and a seed of 5
 * lines of class 0 is caught where a colour a line short makes the lines
 * a whole number of classes all the same.
 */
#include "tests/probes/evset_tester.h"

#define PAGE ET_PAGE
#define COLOURS 4u
#define WAYS 4u
#define PAGES 64u

static const char *const text =
	"name = conflict\nclock freq=1.0G\n"
	"cache L1D size=64K line=64 ways=4 latency=4 replacement=lru\n"
	"memory latency=100\n";

/* Class 0's lines: the seed, a minimal set of the ways; and a line more. */
static const uint64_t seed[WAYS] = { 4 * PAGE, 8 * PAGE, 12 * PAGE, 16 * PAGE };
static const uint64_t over[WAYS + 1] = { 4 * PAGE, 8 * PAGE, 12 * PAGE, 16 * PAGE, 0 };

/* The pages after the seed's, but those of colour `thin` past its first `keep`. */
static uint64_t pool_of(uint64_t *pool, unsigned thin, unsigned keep)
{
	uint64_t n = 0;
	unsigned kept = 0;

	for (uint64_t p = 17; p < PAGES; p++) {
		if (p % COLOURS == thin && kept++ >= keep)
			continue;
		pool[n++] = p * PAGE;
	}
	return n;
}

static int conflict(struct mp_evset *e, const uint64_t *seed, uint64_t ns, const uint64_t *pool,
		    uint64_t n, uint64_t ways, uint64_t *classes)
{
	const char *why;

	return mp_evset_conflict(e, seed, ns, pool, n, ways, COLOURS, classes, &why);
}

int main(void)
{
	uint64_t pool[PAGES], n, classes = 0;
	struct et_run t;
	struct mp_evset *e = &t.e;

	if (!et_open(&t, "conflict", text, PAGES * PAGE, COLOURS * PAGE))
		return check_done();
	n = pool_of(pool, COLOURS, 0);
	CHECK(conflict(e, seed, WAYS, pool, n, WAYS, &classes) == 1 && classes == COLOURS,
	      "a pool of every colour: 4 classes (%llu)", (unsigned long long)classes);
	CHECK(conflict(e, seed, WAYS, pool, n, WAYS - 1, &classes) == 0,
	      "of 3 ways, its 16 lines are no whole number of classes");
	n = pool_of(pool, 3, WAYS - 2);
	CHECK(conflict(e, seed, WAYS, pool, n, WAYS, &classes) == 0,
	      "a colour with fewer candidates than the ways: no whole number of classes");
	n = pool_of(pool, 3, WAYS - 1);
	CHECK(conflict(e, over, WAYS + 1, pool, n, WAYS, &classes) == 0,
	      "a seed of a line more than the ways, a colour a line short: 16 lines, "
	      "but a class of more than the ways");
	et_close(&t);
	return check_done();
}
