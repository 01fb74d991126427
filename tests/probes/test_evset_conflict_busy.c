/* SPDX-License-Identifier: MIT */
/*
 * The classes by a conflict set (mp_evset_conflict, core/probes/evset/
 * conflict.c) beside a thread sharing the level that holds a way of every
 * set it uses, in spans on and off, as a tenant's thread on this
 * project's AMD EPYC guests does: on a simulated LRU L1 of 1M, 4 ways,
 * whose lines of one page offset fall in 64 classes (a page's class is
 * its number mod 64), seeded with class 0's four lines.
 *  - While the thread holds a way, the rest of the set evicts any of its
 *    lines as a line more of its class would.  Before that test was tried
 *    again over time, every conflict set here came out "a class held more
 *    lines than the ways".  Now each completes with the 64 classes, on a
 *    pool of 16 pages a class and of 6.
 *  - A class whose candidates all read evicted while the thread held its
 *    way is left a line short.  Before the set was filled again from the
 *    lines it left out, 10 of the 12 sets at spans of 10^6 cycles on the
 *    pool of 6 pages a class had no whole number of classes.
 *  - Nothing wrong: on a pool of 5 pages a class, no conflict set
 *    completes with other than the 64 classes.
 */
#include <stdio.h>

#include "tests/probes/evset_tester.h"

#define PAGE ET_PAGE
#define WAYS 4u
#define CLASSES 64u
#define SEEDS 12u

static const char *const text =
	"name = busy\nclock freq=1.0G\n"
	"cache L1D size=1M line=64 ways=4 latency=4 replacement=lru\n"
	"memory latency=100\n"
	"neighbour ways=1 level=1 on=%llu off=%llu\n";

/* The conflict set of pages 1 .. pages-1 but class 0's seed, at one seed and span; *classes. */
static int conflict_at(uint64_t pages, uint64_t span, uint64_t seed, uint64_t *classes)
{
	static uint64_t pool[CLASSES * 16];
	char model[512];
	uint64_t sd[WAYS], n = 0;
	const char *why;
	struct et_run t;
	int st;

	snprintf(model, sizeof(model), text, (unsigned long long)span, (unsigned long long)span);
	if (!et_open(&t, "busy", model, pages * PAGE, CLASSES * PAGE))
		return -1;
	mp_rng_seed(&t.e.rng, seed);
	for (uint64_t i = 0; i < WAYS; i++)
		sd[i] = (i + 1) * CLASSES * PAGE;
	for (uint64_t p = 1; p < pages; p++)
		if (p % CLASSES || p > WAYS * CLASSES)
			pool[n++] = p * PAGE;
	st = mp_evset_conflict(&t.e, sd, WAYS, pool, n, WAYS, CLASSES - 1, classes, &why);
	et_close(&t);
	return st;
}

/* At every seed, on `pages` pages, spans of `span` cycles: how many gave 64, how many other. */
static void counts(uint64_t pages, uint64_t span, unsigned *right, unsigned *wrong)
{
	*right = *wrong = 0;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		uint64_t classes = 0;
		int st = conflict_at(pages, span, seed, &classes);

		*right += st == 1 && classes == CLASSES;
		*wrong += st == 1 && classes != CLASSES;
	}
}

int main(void)
{
	static const uint64_t spans[] = { 30000, 1000000 };
	static const uint64_t deep[] = { 16 * CLASSES, 6 * CLASSES };

	for (unsigned s = 0; s < sizeof(spans) / sizeof(*spans); s++) {
		unsigned right, wrong;

		for (unsigned d = 0; d < sizeof(deep) / sizeof(*deep); d++) {
			counts(deep[d], spans[s], &right, &wrong);
			CHECK(right == SEEDS, "%llu pages, spans of %llu cycles: %u of %u sets "
			      "complete with the 64 classes", (unsigned long long)deep[d],
			      (unsigned long long)spans[s], right, SEEDS);
		}
		counts(5 * CLASSES, spans[s], &right, &wrong);
		CHECK(wrong == 0, "%u pages, spans of %llu cycles: no set completes with other "
		      "than the 64 classes (%u did; %u with them)", 5 * CLASSES,
		      (unsigned long long)spans[s], wrong, right);
	}
	return check_done();
}
