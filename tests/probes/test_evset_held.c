/* SPDX-License-Identifier: MIT */
/*
 * The count of classes (mp_evset_count, core/probes/evset/classes.c;
 * "Eviction sets" in docs/algorithms.md) beside a thread sharing the
 * level that holds a way of every set it uses, in spans on and off, as a
 * tenant's thread on this project's AMD EPYC guest does: on a simulated
 * LRU L1 of 1M, 4 ways, whose lines of one page offset fall in 64 classes.
 *  - Nothing wrong: a count that completes has the 64 classes.  A class
 *    found while the thread held a way may have a set of 3 of its lines
 *    and one of another class, which screens few of its candidates; a
 *    later victim finds the class again once the thread has let the way
 *    go.  Before the classes were checked distinct at the end, the count
 *    at spans of 3 x 10^4 cycles completed with 66 classes at seed 10.
 *  - Busy spells do not end the count: a victim whose class is not found
 *    is set aside, sixteen at most and one for every four classes
 *    counted.  With sixteen at most, one count of the twelve at spans of
 *    3 x 10^4 cycles reached 56 classes; now 11 do.
 */
#include <stdio.h>

#include "tests/probes/evset_tester.h"

#define PAGE ET_PAGE
#define PAGES 1024u
#define WAYS 4u
#define CLASSES 64u
#define SEEDS 12u

static const char *const text =
	"name = held\nclock freq=1.0G\n"
	"cache L1D size=1M line=64 ways=4 latency=4 replacement=lru\n"
	"memory latency=100\n"
	"neighbour ways=1 level=1 on=%llu off=%llu\n";

/* The count at one seed, beside a thread holding a way `span` cycles on and off. */
static int count_at(uint64_t seed, uint64_t span, struct mp_evset_classes *k)
{
	char model[512];
	uint64_t pool[PAGES - 1];
	struct et_run t;
	int st;

	snprintf(model, sizeof(model), text, (unsigned long long)span, (unsigned long long)span);
	if (!et_open(&t, "held", model, PAGES * PAGE, 4 * PAGE))
		return -1;
	mp_rng_seed(&t.e.rng, seed);
	for (uint64_t i = 0; i < PAGES - 1; i++)
		pool[i] = (i + 1) * PAGE;
	st = mp_evset_count(&t.e, pool, PAGES - 1, WAYS, 2 * WAYS, NULL, false, k);
	et_close(&t);
	return st;
}

/* Every count at spans of `span` cycles: none complete but with the 64 classes; how many reached `far`. */
static unsigned counts(uint64_t span, uint64_t far)
{
	unsigned reached = 0;

	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct mp_evset_classes k;

		if (count_at(seed, span, &k) < 0) {
			CHECK(0, "spans of %llu, seed %llu: the count ran", (unsigned long long)span,
			      (unsigned long long)seed);
			continue;
		}
		CHECK(!k.complete || k.count == CLASSES,
		      "spans of %llu, seed %llu: %llu classes, %s (%s)", (unsigned long long)span,
		      (unsigned long long)seed, (unsigned long long)k.count,
		      k.complete ? "complete" : "not complete", k.why ? k.why : "-");
		reached += k.count >= far;
	}
	return reached;
}

int main(void)
{
	unsigned far;

	far = counts(30000, CLASSES - CLASSES / 8);
	CHECK(far >= SEEDS / 2, "spans of 30000: %u of %u counts reached %u classes or more", far,
	      SEEDS, CLASSES - CLASSES / 8);
	counts(100000, CLASSES);
	return check_done();
}
