/* SPDX-License-Identifier: MIT */
/*
 * The count of classes (mp_evset_count, core/probes/evset/classes.c;
 * "Eviction sets" in docs/algorithms.md) beside a thread sharing the
 * level that holds ways now and then, as a tenant's thread on this
 * project's AMD EPYC guest does.
 *  - The ways borne out (mp_evset_ways_borne): the sets a count with a
 *    tail set aside as over the ways count against them.  On the guest a
 *    tenant's thread held a way of the victim's set and of the first
 *    class's while they were found, and of the victim's still when it was
 *    tested over time; its 8-way L2 came out 7-way on that one class's
 *    set of 7, against 16 sets of 8 set aside so.
 */
#include "core/probes/evset/evset.h"
#include "tests/check.h"

/*
 * The ways borne out: the guest's count (one class's set of the ways,
 * 16 over them with a tail), and the same without a tail (sets of twice
 * the ways or more, larger but not over: they hold the ways above too).
 */
static void ways_borne(void)
{
	struct mp_evset_classes k = { .same = 1, .larger = 16, .over = 16 };
	struct mp_evset_classes untailed = { .same = 1, .larger = 16 };
	struct mp_evset_classes two[] = { { .same = 2, .other = 1 }, { .same = 1, .shorter = 1 } };

	CHECK(!mp_evset_ways_borne(&k, 1), "one class's set against 16 over the ways with a tail: "
	      "the ways not borne out");
	CHECK(mp_evset_ways_borne(&untailed, 1), "sets larger without a tail do not count against");
	CHECK(mp_evset_ways_borne(two, 2), "two counts: 3 sets of the ways against 2 others");
	two[1].over = 1;
	CHECK(!mp_evset_ways_borne(two, 2), "two counts: 3 against 3 (one over the ways)");
}

int main(void)
{
	ways_borne();
	return check_done();
}
