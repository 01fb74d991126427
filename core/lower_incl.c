/* SPDX-License-Identifier: MIT */
/*
 * A lower level's inclusion towards the levels above.
 *
 * Exclusion (X-Ray 5.2.2 saw it as C1 + C2): a line lives in one level
 * only, so one set of this level together with the sets above it holds
 * this level's ways plus the upper ways.  A set of A + U lines (U: the
 * ways above that hold lines this level lacks) in one set of every level
 * is compact when the level is exclusive, and misses here otherwise.  The
 * ladder's groups (core/lower_geom.c) keep the upper ways from adding to
 * any one group, so A itself is the physical associativity.
 *
 * Inclusion (back-invalidation): an inclusive level that evicts a line
 * takes it from the levels above too.  Line x is visited between m lines
 * that share its set here and in every level above (mp_ref_evict_order):
 * x stays the most recently used line of its L1 set and hits there, while
 * the m lines miss above and push x out of this level.  If this level is
 * inclusive, x then leaves the L1 as well and misses every time.  The
 * reference moves x by D (the largest upper way): the same upper sets, the
 * same upper traffic, but another set here, where nothing pushes it out.
 * x missing far more than its reference means inclusive.
 *
 * The test needs x to survive in the L1 between its visits, which LRU and
 * tree-PLRU guarantee for the few lines in between (x is visited every
 * m / words accesses); and no level between the L1 and this one may be
 * inclusive, since that level's own evictions of x would look the same.
 */
#include "core/lower.h"

/* Words of an x line visited per cycle: one per 8 bytes of the L1 line (at most this many). */
#define INCL_MAX_WORDS 16u
/*
 * The x lines take up to this share of the L1's ways (half): each one that
 * is back-invalidated costs a miss per cycle, so more of them make a
 * stronger signal, while the rest of the L1 set still lets the m lines
 * miss there.
 */
#define INCL_X_SHARE 2u

static uint64_t together(const struct mp_lower *lv, const struct mp_geom *g)
{
	return g->way > lv->d ? g->way : lv->d;
}

/* 1 exclusive, 0 not, -1 not timed. */
static int exclusive(struct mp_lower *lv, const struct mp_geom *g)
{
	struct mp_ref_stride x = mp_ref_xray(together(lv, g), g->ways + lv->union_ways);

	return mp_cset_compact(&lv->cs, &x);
}

/* Time per access of the eviction string, the x lines moved by xoff. */
static enum mp_status evict_time(struct mp_lower *lv, const struct mp_geom *g, uint64_t xoff,
				 double *ticks)
{
	uint64_t words = lv->top_line / sizeof(uint64_t);
	uint64_t xlines = lv->top_ways / INCL_X_SHARE ? lv->top_ways / INCL_X_SHARE : 1;
	uint64_t m = (g->ways > lv->up_ways_max ? g->ways : lv->up_ways_max) + 1;
	uint64_t n;

	words = words < INCL_MAX_WORDS ? words : INCL_MAX_WORDS;
	n = mp_ref_evict_order(xoff, xlines, words, m, together(lv, g), mp_cset_order(&lv->cs),
			       &lv->cs.rng);
	return mp_cset_time_order(&lv->cs, n, ticks);
}

/* 1 inclusive, 0 not, -1 not timed. */
static int back_invalidates(struct mp_lower *lv, const struct mp_geom *g)
{
	double t = 0, ref = 0, best = 0, best_ref = 0;

	for (unsigned round = 0; round < MP_CSET_ROUNDS; round++) {
		if (evict_time(lv, g, 0, &t) != MP_OK || evict_time(lv, g, lv->d, &ref) != MP_OK)
			return -1;
		best = round == 0 || t < best ? t : best;
		best_ref = round == 0 || ref < best_ref ? ref : best_ref;
		if (best <= best_ref * (1.0 + MP_CSET_MISS_REL))
			return 0;
	}
	return 1;
}

int mp_lower_inclusion(struct mp_lower *lv, struct mp_geom *g, bool incl_above,
		       const char **why)
{
	int st = exclusive(lv, g);

	if (st != 0) {
		g->incl = st > 0 ? MP_INCL_EXCLUSIVE : MP_INCL_UNKNOWN;
		return st < 0 ? -1 : 0;
	}
	if (incl_above || lv->d >= g->way) {
		*why = incl_above ? "an inclusive level above hides back-invalidation"
				  : "the way above is not smaller than this level's";
		g->incl = MP_INCL_UNKNOWN;
		return 0;
	}
	st = back_invalidates(lv, g);
	g->incl = st > 0 ? MP_INCL_INCLUSIVE : MP_INCL_NONINCLUSIVE;
	return st < 0 ? -1 : 0;
}
