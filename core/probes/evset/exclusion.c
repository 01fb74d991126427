/* SPDX-License-Identifier: MIT */
/*
 * Probe "evset": is a level exclusive of the ones above (a victim cache)?
 * X-Ray's test of C1 + C2 (5.2.2) with eviction sets instead of strides,
 * for memory whose physical addresses are unknown: lines of the victim's
 * class here that also share its sets above (the level's pool holds only
 * such lines) fit in the ways of both levels together where a line lives
 * in one level only, and in this level's ways alone where it may live in
 * both.  So without a tail, Z = W + U/2 such lines (W this level's ways,
 * U the ways of the level above) never take the victim out of this level
 * if it is exclusive, and always do otherwise, while W + U + U/2 take it
 * out in either case (docs/algorithms.md, "Eviction sets", exclusion).
 */
#include "core/lib/str.h"
#include "core/probes/evset/run.h"

/* Lines of the victim's class at most (its minimal set, then members). */
#define EXCL_LINES (3u * MP_EVSET_MAX_WAYS)

static uint64_t lines[EXCL_LINES];

/* The ways of the level right above: the L1's, or the minimal set found there. */
static uint64_t ways_above(const struct run *rn, const struct level *lv)
{
	return lv->level == 2 ? rn->l1_ways : rn->up.m;
}

/*
 * Lines of the victim's class here, up to `want`: its minimal set, then
 * candidates that set evicts where the tail alone does not (each in two
 * tests running).  How many, or -1 when a run failed.
 */
static int64_t class_lines(struct run *rn, struct mp_evset *e, const struct level *lv,
			   uint64_t want)
{
	uint64_t k = lv->ways;

	mp_memcpy(lines, rn->set, k * sizeof(*lines));
	for (uint64_t i = 0; i < lv->n && k < want && !mp_evset_late(e); i++) {
		uint64_t y = rn->pool[i];
		int in;

		if (y == rn->x || mp_evset_member(lines, k, y) ||
		    mp_evset_member(e->tail, e->ntail, y))
			continue;
		if ((in = mp_evset_evicts_own(e, y, rn->set, lv->ways)) < 0)
			return -1;
		if (in)
			lines[k++] = y;
	}
	return (int64_t)k;
}

/*
 * The victim timed after the first n class lines without a tail, in
 * every try a test can take (MP_EVSET_MAX_TRIES).  -1 when a run failed.
 */
static int timed(struct mp_evset *e, uint64_t x, uint64_t n, struct mp_evset_times *t)
{
	struct mp_evset bare = *e;
	int st;

	bare.tail = NULL;
	bare.ntail = 0;
	st = mp_evset_time(&bare, x, lines, n, MP_EVSET_MAX_TRIES, t);
	e->loads = bare.loads;
	return st;
}

/*
 * Is the level exclusive?  Tested where the level above has U >= 4 ways
 * (Z and the victim then leave a way of the two levels free at least) and
 * the pool gives more than W + U lines (up to W + U + U/2 are taken).
 * Exclusive (lv->exclusive) where every try of Z reads the victim in this
 * level and most tries of the larger set read it out of it: a larger set
 * short of the U/2 lines more can only fail to take the victim out, which
 * leaves the level's inclusion unsaid (test_probe_evset's victim-b, a
 * 12-way L3 under a 16-way L2, had 35 of its 36 lines in the pool).  In
 * this level: not out of it, and out of every level above, so that none
 * above kept it: below the L2, slower
 * than the level above's tester's threshold; for the L2, Z must overfill
 * the L1's set twice over instead (compact sets' rule), as no tester told
 * the L1's reads from the L2's, and on a coarse clock they overlap.
 * Anything else leaves it unsaid: noise only reads slow, which can undo
 * an exclusion, never make one.  0, -1 a run failed.
 */
int evset_exclusion(struct run *rn, struct mp_evset *e, struct level *lv)
{
	uint64_t u = ways_above(rn, lv), z = lv->ways + u / 2, spill = z + u;
	bool l2 = lv->level == 2;
	struct mp_evset_times fit, over;
	int64_t k;

	lv->exclusive = false;
	if (u < 4 || (l2 && z < 2 * lv->up_ways) || spill > EXCL_LINES || mp_evset_late(e))
		return 0;
	if ((k = class_lines(rn, e, lv, spill)) < 0)
		return -1;
	if ((uint64_t)k <= lv->ways + u)
		return 0;
	spill = (uint64_t)k;
	if (timed(e, rn->x, z, &fit) < 0)
		return -1;
	if (fit.slow || (!l2 && fit.least <= rn->up.e.slow))
		return 0;
	if (timed(e, rn->x, spill, &over) < 0)
		return -1;
	lv->exclusive = 2 * over.slow > MP_EVSET_MAX_TRIES;
	return 0;
}
