/* SPDX-License-Identifier: MIT */
/*
 * A lower level's inclusion towards the levels above.
 *
 * Exclusion (X-Ray 5.2.2 saw it as C1 + C2): a line lives in one level
 * only, so one set of this level together with the sets above it holds
 * this level's ways plus U, the ways above that hold lines this level
 * lacks.  A set of n lines in one set of every level, A < n <= A + U, is
 * compact when the level is exclusive and misses here otherwise: n is
 * A + U, at most 2A (a tree-PLRU set cycled through a line or two more
 * than its ways can still hit on most of them).  The lines must also miss
 * in every level above on every visit, or a non-inclusive level under a
 * large upper level would hold them together with it just the same: n
 * must be at least twice the ways of any level above, or else A + U with U
 * at least the ways of every level above (each upper set is then over-full
 * by A lines at least: Ice Lake's 20-way L2 over a 12-way L3, an exclusive
 * 8-way L2 under a 12-way L1).  Where neither can be, exclusion is not
 * tested, and a level that back-invalidates nothing is reported
 * non-inclusive with a note.  The ladder's groups, visited a chunk at a time
 * (core/probes/compact/geom.c), keep the upper ways from adding to any one
 * group, so A itself is the physical associativity, except where no line
 * can leave the sets above without sharing a set here (split_joined()).
 *
 * Inclusion (back-invalidation): an inclusive level that evicts a line
 * takes it from the levels above too.  Line x is visited between m lines
 * ("y") that share its set here (mp_ref_evict_order): x hits in the L1,
 * while the y lines miss above and push x out of this level.  If this
 * level is inclusive, x then leaves the L1 as well and misses every time.
 * The reference moves x by D (the largest upper way): the same upper sets
 * and upper traffic, but another set here, where nothing pushes it out.  x
 * missing far more than its reference means inclusive, in every round,
 * each at another place in the memory (a random offset), so that no one
 * set's history decides.
 *
 * x must stay in the L1 between its visits.  Where this level's line is
 * longer than the L1's, the y lines sit in the other half of x's line-set
 * here, which is another L1 set, and leave x alone.  Otherwise they share
 * x's L1 set too (a way size divides the next), and the L1
 * keeps x only if it protects the lines used most recently (LRU, tree-PLRU,
 * with x visited every m / words accesses): a check (x_kept) comes first.  No level between the L1 and this one may
 * be inclusive either: that level's own evictions of x would look the same.
 */
#include "core/lib/bits.h"
#include "core/probes/compact/compact.h"

const char mp_compact_no_room[] = "the inclusion tests do not fit the memory";
const char mp_compact_combined[] = "exclusive, and its sets act as one with those above: "
				 "its own size and ways cannot be told apart";

/* Words of an x line visited per cycle: one per 8 bytes of the L1 line (at most this many). */
#define INCL_MAX_WORDS 16u
/*
 * The x lines take up to this share of the L1's ways (half): each one that
 * is back-invalidated costs a miss per cycle, so more of them make a
 * stronger signal, while the rest of the L1 set still lets the m lines
 * miss there.
 */
#define INCL_X_SHARE 2u
/* Lines per upper set, as a multiple of its ways, that make a tree-PLRU
 * set miss on nearly every visit of a cycle (a few more than the ways do
 * not, in the simulator's tree-PLRU). */
#define INCL_THRASH 2u
#define INCL_MAX_XLINES 4u
/*
 * x is kept when the check costs no more than this above its parts: no x
 * miss at all (the simulator gives the parts' cost exactly; the minimum of
 * repeated windows on hardware stays within 1%, Cooper-Xu 3.1).  One x
 * miss per cycle shows there as an L1-to-here step, in the test itself as
 * the larger step to the level below: the check must be the stricter.
 */
#define INCL_KEPT_REL 0.03
/*
 * Inclusive when x's string costs this much more than its reference.  Not
 * inclusive, the two cost the same (the same y lines, x hitting in the L1
 * in both); inclusive, each x line pushed out here misses once per cycle,
 * and a tree-PLRU set pushes out about one of them per cycle when the y
 * lines are twice its ways: one memory access in a cycle of 70 loads adds
 * 10% or more.  The minimum of repeated windows stays within 1-2%.
 */
#define INCL_REL 0.05

static uint64_t together(const struct mp_lower *lv, const struct mp_geom *g)
{
	return g->way > lv->d ? g->way : lv->d;
}

/*
 * 1 exclusive, 0 not, -1 a run failed, -2 it does not fit the memory, -3
 * not testable, -4 exclusive but not with these ways: one more line than
 * this level and the upper ways together hold must spill, and does not
 * where the groups of the ladder shared a set (Athlon MP: an exclusive
 * level whose way is the L1's acts as one set of both their ways).
 */
static int exclusive(struct mp_lower *lv, const struct mp_geom *g)
{
	uint64_t above = lv->top_ways > lv->mid_ways_max ? lv->top_ways : lv->mid_ways_max;
	uint64_t n = g->ways + (lv->union_ways < g->ways ? lv->union_ways : g->ways);
	struct mp_ref_stride x = mp_ref_xray(together(lv, g), n), y = x;
	int st;

	if (n < INCL_THRASH * above && lv->union_ways >= above)
		x.n = n = g->ways + lv->union_ways;
	else if (n < INCL_THRASH * above)
		return -3;
	if ((st = mp_compact_set_compact(&lv->cs, &x)) != 1 || n < g->ways + lv->union_ways)
		return st;
	y.n = n + 1;
	st = mp_compact_set_compact(&lv->cs, &y);
	return st == 0 ? 1 : (st == 1 ? -4 : st);
}

/* Lines one stride apart, at most this many, when counting a joined set's ways. */
#define JOINED_MAX_LINES 1024u

/* Are n lines `stride` apart compact?  1 yes, 0 no, < 0 as mp_compact_set_compact. */
static int lines_fit(struct mp_lower *lv, uint64_t stride, uint64_t n)
{
	struct mp_ref_stride x = mp_ref_xray(stride, n);

	return mp_compact_set_compact(&lv->cs, &x);
}

/* The most lines `stride` apart that stay compact: doubling, then halving the gap. */
static int most_lines(struct mp_lower *lv, uint64_t stride, uint64_t *most)
{
	uint64_t fit = 1, spill = 0;
	int st = 1;

	while (!spill && st >= 0) {
		if (2 * fit > JOINED_MAX_LINES)
			return 0;
		st = lines_fit(lv, stride, 2 * fit);
		fit = st == 1 ? 2 * fit : fit;
		spill = st == 0 ? 2 * fit : 0;
	}
	while (st >= 0 && spill - fit > 1) {
		uint64_t mid = fit + (spill - fit) / 2;

		st = lines_fit(lv, stride, mid);
		fit = st == 1 ? mid : fit;
		spill = st == 0 ? mid : spill;
	}
	*most = fit;
	return st < 0 ? st : 1;
}

/* Lines of the union levels' sets that lines `stride` apart reach: a set per way they span. */
static uint64_t union_lines(const struct mp_lower *lv, uint64_t stride)
{
	uint64_t sum = 0;

	for (int32_t k = 0; k < lv->nunion; k++)
		sum += lv->uni[k].ways * (lv->uni[k].way > stride ? lv->uni[k].way / stride : 1);
	return sum;
}

/*
 * An exclusive level whose sets act as one with those above (its way
 * divides the L1's: every L1 set lies within one of its sets, so no set
 * of the L1 can be filled without filling its set too; Athlon MP, or an
 * L2 way smaller than the L1's): the ladder measured joined sets, X-Ray
 * 5.2.2's C1 + C2.  Lines S apart reach max(1, W / S) sets of a level of
 * way W, and fit when no more than those sets' ways together take them
 * (a line is in one level only).  Far apart (T, above every way) they
 * share one set everywhere: the most that fit are A plus the union ways.
 * Halving S, what fits beyond the union levels' share stays A while S is
 * at least W, and is 2A at S = W / 2: that gives the way.  1 told (g is
 * this level's own), 0 not (what fits is neither), < 0 as above.
 */
static int split_joined(struct mp_lower *lv, struct mp_geom *g)
{
	uint64_t far = mp_pow2_floor(2 * g->ways * g->way - 1), lines, ways;
	int st;

	if (!g->line || (st = most_lines(lv, far, &lines)) != 1)
		return g->line ? st : 0;
	if (lines <= lv->union_ways)
		return 0;
	ways = lines - lv->union_ways;
	for (uint64_t s = far / 2; s >= g->line; s /= 2) {
		if ((st = most_lines(lv, s, &lines)) != 1)
			return st;
		if (lines < union_lines(lv, s) || (lines - union_lines(lv, s)) % ways ||
		    (lines - union_lines(lv, s)) / ways > 2)
			return 0;
		if ((lines - union_lines(lv, s)) / ways == 2) {
			*g = (struct mp_geom){ ways, 2 * s, g->line, MP_INCL_EXCLUSIVE };
			return 1;
		}
	}
	return 0;
}

/* The back-invalidation string for this level. */
struct evict {
	uint64_t xlines, words, m, stride, yoff;
};

/*
 * The y lines: twice as many as this level has ways, so that they miss
 * here whether or not x still takes a way (a tree-PLRU set can keep a line
 * nobody touches for long): then only x's own misses tell T from its
 * reference.  Twice as many as any level in between has (they must reach
 * this one, on every visit: 24 lines through a 20-way tree-PLRU L2 hit
 * there on some visits and not others, and the string's time wandered by
 * several percent from round to round, enough to pass for a
 * back-invalidation), and more than the L1 ways x leaves them (they must
 * miss there too).
 * `fewer`: as many as this level has ways, the fewest that push x out of
 * an LRU set, for an L1 that keeps x only when the y lines are few (see
 * x_kept): once x is out they fit, and only an inclusive level keeps
 * missing (x comes back each time and is pushed out again).
 */
static uint64_t y_lines(const struct mp_lower *lv, const struct mp_geom *g, uint64_t xlines,
			bool fewer)
{
	uint64_t here = fewer ? g->ways : 2 * g->ways;
	uint64_t mid = INCL_THRASH * lv->mid_ways_max, m = here > mid ? here : mid;
	uint64_t l1 = lv->top_ways > xlines ? lv->top_ways - xlines + 1 : 2;

	return m > l1 ? m : l1;
}

static struct evict evict_shape(const struct mp_lower *lv, const struct mp_geom *g, bool fewer)
{
	struct evict e = {
		.words = lv->top_line / sizeof(uint64_t),
		.stride = together(lv, g),
	};
	uint64_t between, share = lv->top_ways / INCL_X_SHARE;

	share = share < INCL_MAX_XLINES ? share : INCL_MAX_XLINES;

	e.words = e.words < INCL_MAX_WORDS ? e.words : INCL_MAX_WORDS;
	/*
	 * Lines here longer than the L1's: the y lines sit in the second part
	 * of x's line-set here, which is another L1 set, and leave x alone.
	 * Otherwise an x line sees the other x lines and m / words y lines
	 * between its visits: LRU keeps it while they are fewer than its ways.
	 */
	if (g->line > lv->top_line)
		e.yoff = lv->top_line;
	between = (y_lines(lv, g, 1, fewer) + e.words - 1) / e.words;
	e.xlines = between < lv->top_ways ? lv->top_ways - between : 1;
	e.xlines = e.xlines < share ? e.xlines : (share ? share : 1);
	e.m = y_lines(lv, g, e.xlines, fewer);
	return e;
}

/* Time per access of the string, x moved by xoff. */
static enum mp_status evict_time(struct mp_lower *lv, const struct evict *e, uint64_t xoff,
				 double *ticks)
{
	uint64_t n = mp_ref_evict_order(xoff, e->xlines, e->words, e->m, e->stride, e->yoff,
					mp_compact_set_order(&lv->cs), &lv->cs.rng);

	return mp_compact_set_time_order(&lv->cs, n, ticks);
}

/*
 * Does the L1 keep the x lines while the y lines pass through its set?
 * The same string with the y lines D apart instead (the same sets above,
 * but all in different sets here, where they hit) must cost what its parts
 * do: hits here for the y lines, L1 hits for the x words.  A random or FIFO
 * L1, or one with too few ways for the y lines to pass between x's visits,
 * costs more.
 */
static int x_kept(struct mp_lower *lv, const struct evict *e)
{
	struct evict pass = *e;
	double t, xs = (double)(e->xlines * e->words), m = (double)e->m;
	enum mp_status st;

	if (e->yoff)
		return 1;
	pass.stride = lv->d;
	if ((st = evict_time(lv, &pass, 0, &t)) != MP_OK)
		return st == MP_ENOMEM ? -2 : -1;
	return t <= (m * lv->cs.base_min + xs * lv->cs.l1_ticks) / (m + xs) *
			    (1.0 + INCL_KEPT_REL);
}

/*
 * 1 inclusive, 0 not, 2 cannot tell (x not kept), 3 cannot tell (the
 * reference unsteady), -1 a run failed, -2 it does not fit the memory.
 * Where every round finds the string over its reference, the references
 * must agree within INCL_REL: noise that takes an x line from the L1 makes
 * it come back from beyond level i in the string, from level i in the
 * reference, and once it does so in every window the string looks
 * back-invalidated (a 12-way tree-PLRU L1 under the simulator's noise cost
 * one memory access more a pass in all three rounds, its reference 45.6
 * to 49.7 ticks from round to round, against the same ticks to the cycle
 * without noise).
 */
static int back_invalidates(struct mp_lower *lv, const struct mp_geom *g)
{
	struct evict e = evict_shape(lv, g, false);
	double t = 0, ref = 0, least = 0, most = 0;
	int kept = x_kept(lv, &e);

	/* Not kept, or too large for the memory: the fewer y lines. */
	if (kept == 0 || kept == -2) {
		e = evict_shape(lv, g, true);
		kept = x_kept(lv, &e);
	}
	if (kept <= 0)
		return kept < 0 ? kept : 2;
	for (unsigned round = 0; round < MP_COMPACT_SET_ROUNDS; round++) {
		enum mp_status st;

		mp_compact_set_place(&lv->cs, (e.xlines + e.m) * e.stride + lv->d);
		st = evict_time(lv, &e, 0, &t);
		if (st == MP_OK)
			st = evict_time(lv, &e, lv->d, &ref);
		lv->cs.shift = 0;
		if (st != MP_OK)
			return st == MP_ENOMEM ? -2 : -1;
		/* Within the round: both strings at its place (another place's
		 * reference may be cheaper: 45.6 against 49.7 ticks, once). */
		if (t <= ref * (1.0 + INCL_REL))
			return 0;
		least = round == 0 || ref < least ? ref : least;
		most = ref > most ? ref : most;
	}
	return most <= least * (1.0 + INCL_REL) ? 1 : 3;
}

/* Why back_invalidates() could not tell, by its answer. */
static const char *const untold[] = {
	[2] = "the L1 does not keep a line between visits (replacement or too few ways): "
	      "inclusive and non-inclusive look alike",
	[3] = "the string's reference moved from round to round by more than 5% (noise): a "
	      "line the noise takes from the L1 looks back-invalidated",
};

int mp_compact_inclusion(struct mp_lower *lv, struct mp_geom *g, bool incl_above,
		       const char **why)
{
	int st = exclusive(lv, g);
	bool untested = st == -3;

	if (st == -4) {
		int split = split_joined(lv, g);

		if (split == 1 || split == -1)
			return split == 1 ? 0 : -1;
	}
	if (st != 0 && !untested) {
		g->incl = st > 0 ? MP_INCL_EXCLUSIVE : MP_INCL_UNKNOWN;
		if (st == -2)
			*why = mp_compact_no_room;
		if (st == -4)
			*why = mp_compact_combined;
		return st == -1 ? -1 : 0;
	}
	g->incl = MP_INCL_UNKNOWN;
	if (incl_above || lv->d >= g->way) {
		*why = incl_above ? "an inclusive level above hides back-invalidation"
				  : "the way above is not smaller than this level's";
		return 0;
	}
	st = back_invalidates(lv, g);
	if (st == -2)
		*why = mp_compact_no_room;
	else if (st >= 2)
		*why = untold[st];
	else if (st >= 0)
		g->incl = st ? MP_INCL_INCLUSIVE : MP_INCL_NONINCLUSIVE;
	if (st == 0 && untested)
		*why = "not exclusive unless the levels above hide it (too many ways above "
		       "to test exclusion)";
	return st == -1 ? -1 : 0;
}
