/* SPDX-License-Identifier: MIT */
/*
 * A lower level's ways, way size and line (X-Ray 4.5): figure 8's ladder
 * and figure 10's block test, on stride-decomposed sets.
 *
 * A set <S, n> for level i must miss in every level above, or those would
 * answer for it.  X-Ray splits it into r groups S_old apart (S_old = the
 * upper levels' way size, 4.5.1): all n x r elements share one set in every
 * upper level, and each group sits in its own set of level i.  We take D,
 * the largest upper way size (a multiple of every upper way size, as they
 * are powers of two), and r just large enough that each upper set gets
 * MP_COMPACT_OVERFILL times the ways above (X-Ray: just more than A_up).
 * The groups take turns a chunk of lines at a time (chunk()), so that an
 * exclusive level's lines leave the levels above between two chunks.
 * Where S < D (X-Ray's Athlon case, an upper way larger than this level's)
 * the set is not split; it then spreads over D / S upper sets, each of
 * which must still get that many lines.
 *
 * The ladder starts at the stride where the level's effective capacity
 * (from "levels") gives about LADDER_START_N elements, and never below D.
 * At each doubling of S the shortest non-compact n lies, by Theorem 1,
 * between half the previous one and the previous one: a binary search
 * there.  When n stops halving, A = n - 1 and the way is the stride before.
 */
#include "core/lib/bits.h"
#include "core/probes/compact/compact.h"

/*
 * Groups a set is split into at least, where they fit in a stride: with
 * two or more, each group's lines leave the levels above while the others
 * are visited (chunk()), so an exclusive level must hold every group alone
 * and shows its own ways (one group would share the upper ways: X-Ray
 * measured C1 + C2 that way on the Athlon and Opteron, 5.2.2).
 */
#define LOWER_MIN_GROUPS 2u
/*
 * From a stride of this many upper ways D on, the groups stay within half
 * of it: the ladder's last step, at twice the way W, must find A + 1
 * again, and groups beyond W would share sets of the level (a 256K way
 * under a 64K one holds four groups only).
 */
#define GROUPS_HALF 4u
/* At most this many times the lines an upper set needs, for more groups. */
#define GROUPS_COST 2u
/* Elements of the first ladder step: enough to stay below the plateau
 * (A + 1) of any level up to 63 ways, few enough to time quickly. */
#define LADDER_START_N 64u
#define WORD 8u

/*
 * Elements of a group visited in a row: few enough that the other groups'
 * turns in between (r - 1 chunks) push them out of every level above.  An
 * exclusive level holds only the lines the levels above do not: a group
 * visited whole leaves A + 1 lines in its set only once the next group
 * pushes the last ones down, and the set then drops just one, the next to
 * come (the first visited), so A + 1 lines miss once per visit, too weak a
 * signal among many (the L1's lines counted into an exclusive L2).  Pushed
 * out one chunk at a time, a set of A + 1 overflows after every chunk, and
 * drops the line that comes next: a miss per chunk (per line where r
 * exceeds the ways above), as any level cycled through more lines than its
 * ways (docs/algorithms.md, "Exclusive levels: chunks").
 */
static uint64_t chunk(const struct mp_lower *lv, uint64_t r)
{
	return r > 1 ? (lv->above_ways + r - 2) / (r - 1) : 0;
}

/* The span the groups of a set at this stride may take. */
static uint64_t group_room(const struct mp_lower *lv, uint64_t stride)
{
	return stride >= GROUPS_HALF * lv->d ? stride / 2 : stride;
}

/*
 * More groups where they fit, up to one more than the upper ways (chunks
 * of one line), as long as each upper set gets at most GROUPS_COST times
 * the lines it needs (the cost of a set grows with its lines) and the set
 * stays within half a TLB twin.
 */
static uint64_t more_groups(const struct mp_lower *lv, uint64_t r, uint64_t room, uint64_t per)
{
	uint64_t most = GROUPS_COST * lv->u < lv->cs.twin_max / 2 ? GROUPS_COST * lv->u
								  : lv->cs.twin_max / 2;
	uint64_t want = lv->above_ways + 1, fit = room / lv->d, twin = most / per;

	want = want < fit ? want : fit;
	want = want < twin ? want : twin;
	return want > r ? want : r;
}

bool mp_compact_shape(const struct mp_lower *lv, uint64_t stride, uint64_t n, uint64_t from,
		    uint64_t b, struct mp_ref_stride *out)
{
	/* Lines one group puts in each upper set it touches; a shifted part
	 * may go to other upper sets, so count the smaller part only. */
	uint64_t part = from < n && n - from < from ? n - from : (from < n ? from : n);
	uint64_t per = stride >= lv->d ? part : part * stride / lv->d;
	uint64_t r = per >= lv->u ? 1 : (lv->u + per - 1) / (per ? per : 1);
	uint64_t room = group_room(lv, stride);

	if (r < LOWER_MIN_GROUPS && LOWER_MIN_GROUPS * lv->d <= room)
		r = LOWER_MIN_GROUPS;
	if (r > 1)
		r = more_groups(lv, r, room, per);
	/* Fewer groups where they do not fit, as long as the upper sets still overflow. */
	if (r > 1 && stride >= lv->d && r * lv->d > room && room / lv->d * per > lv->above_ways)
		r = room / lv->d;
	if (per == 0 || (r > 1 && (stride < lv->d || r * lv->d > room)))
		return false;
	*out = (struct mp_ref_stride){ stride, n, from, b, r, lv->d, chunk(lv, r) };
	return true;
}

/* 1: <S, n, D, r> is not compact here, 0: it is, -1: not timed, -2: not buildable. */
static int spills(struct mp_lower *lv, uint64_t stride, uint64_t n)
{
	struct mp_ref_stride x;
	int c;

	if (!mp_compact_shape(lv, stride, n, n, 0, &x))
		return -2;
	c = mp_compact_set_compact(&lv->cs, &x);
	return c < 0 ? c : !c;
}

/* Smallest n in (lo, hi] that spills; lo taken as compact, hi as spilling. */
static int smallest_spill(struct mp_lower *lv, uint64_t stride, uint64_t lo, uint64_t hi,
			  uint64_t *n)
{
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		int m = spills(lv, stride, mid);

		if (m == -1)
			return -1;
		if (m == 1)
			hi = mid;
		else
			lo = mid;  /* compact, or too small to build: below the answer */
	}
	*n = hi;
	return 0;
}

/*
 * The shortest spilling n at a doubled stride: by Theorem 1 it lies in
 * ((old - 1) / 2, old]; the lower end is checked, and where it spills
 * after all (noise earlier on) the search falls back to X-Ray's [1, old].
 */
static int bracketed_spill(struct mp_lower *lv, uint64_t stride, uint64_t old, uint64_t *n)
{
	uint64_t lo = (old - 1) / 2;
	int m = lo > 1 ? spills(lv, stride, lo) : 0;

	if (m == -1)
		return -1;
	return m != 1 ? smallest_spill(lv, stride, lo, old, n)
		      : smallest_spill(lv, stride, 1, lo, n);
}

/* The fewest elements a set at this stride can have and still be built. */
static uint64_t buildable_from(const struct mp_lower *lv, uint64_t stride)
{
	uint64_t room = group_room(lv, stride), n = (lv->u * lv->d + room - 1) / room;

	return n > 1 ? n : 1;
}

/* Ladder outcomes besides 0 (settled) and -1 (a run failed); 1 is mp_compact_geom's "verified". */
enum { UNSETTLED = 2, TOO_HIGH, TOO_SMALL, UNLAWFUL, NO_SPILL, UNREPEATED, HASHED, HELD,
       OUTCOMES };

/* The most elements n a set <S, n> with its groups can have within a TLB twin. */
static uint64_t twin_reach(const struct mp_lower *lv, uint64_t stride, uint64_t from)
{
	struct mp_ref_stride x;
	uint64_t n = from;

	while (mp_compact_shape(lv, stride, n + 1, n + 1, 0, &x) &&
	       mp_ref_stride_count(&x) <= lv->cs.twin_max)
		n++;
	return n;
}

/*
 * The first step: n doubles from the fewest buildable until the set
 * spills, but no further than a TLB twin reaches (more elements would pay
 * for TLB misses that no twin takes off): NO_SPILL then starts higher.
 */
static int first_step(struct mp_lower *lv, uint64_t stride, uint64_t *n)
{
	uint64_t k = buildable_from(lv, stride), reach = twin_reach(lv, stride, k), next;
	int m = spills(lv, stride, k);

	if (m != 0)
		return m == -1 ? -1 : TOO_SMALL;
	for (next = 2 * k < reach ? 2 * k : reach; next > k; next = 2 * k < reach ? 2 * k : reach) {
		if ((m = spills(lv, stride, next)) != 0)
			break;
		k = next;
	}
	if (m != 1)
		return m == -1 ? -1 : NO_SPILL;  /* out of reach, memory or elements first */
	return smallest_spill(lv, stride, k, next, n);
}

static uint64_t start_stride(const struct mp_lower *lv)
{
	uint64_t s = lv->hint ? mp_pow2_floor(lv->hint / LADDER_START_N) : lv->d;

	return s > lv->d ? s : lv->d;
}

/*
 * Theorem 1 at half the way: n = 2A + 1.  One more is let pass: where a
 * set holds A + 1 of 2A + 1 lines, a tree-PLRU set still hits on some, and
 * the signal at that step can fall short by a line (verify() checks the
 * exact figures again).
 */
static bool lawful(uint64_t before, uint64_t ways)
{
	return before == 2 * ways + 1 || before == 2 * ways + 2;
}

/*
 * Figure 8 from `stride`.  TOO_HIGH when n did not halve even once (the
 * way may be the start stride or less), UNSETTLED when it still halved at
 * lv->limit, UNLAWFUL when the step before the plateau broke Theorem 1
 * (lawful()).  Sets that only look
 * contiguous (a virtual machine's guest-physical pages need not be
 * contiguous on the host) scatter over the level's sets at random and
 * break it; so does a hashed index.
 */
static int ladder(struct mp_lower *lv, uint64_t stride, struct mp_geom *g)
{
	uint64_t n, old, before = 0;
	int st = first_step(lv, stride, &n);

	while (st == 0) {
		before = before ? old : 1;
		old = n;
		stride *= 2;
		if (stride > lv->limit || old * stride > lv->cs.bytes)
			return UNSETTLED;
		st = bracketed_spill(lv, stride, old, &n);
		if (st == 0 && n == old) {
			g->ways = n - 1;
			g->way = stride / 2;
			if (before == 1)
				return TOO_HIGH;
			return lawful(before, g->ways) ? 0 : UNLAWFUL;
		}
	}
	return st;
}

/* <way, 2A, b> built into *x; false where it cannot be. */
static bool block_shape(const struct mp_lower *lv, const struct mp_geom *g, uint64_t b,
			struct mp_ref_stride *x)
{
	return mp_compact_shape(lv, g->way, 2 * g->ways, g->ways, b, x);
}

/* Does <way, 2A, b> spill (a set built before)?  1, 0, or mp_compact_set_compact's failure. */
static int block_spills(struct mp_lower *lv, const struct mp_geom *g, uint64_t b)
{
	struct mp_ref_stride x;
	int c;

	if (!block_shape(lv, g, b, &x))
		return 1;
	c = mp_compact_set_compact(&lv->cs, &x);
	return c < 0 ? c : !c;
}

/*
 * Figure 10 on decomposed sets: the line, 0 when no b below the way did
 * it.  The offset before the first that did must still spill: where it
 * no longer does, the spills before came of a thread that held a way of
 * the sets and went (the Core i7 above read 128 B for a 64 B line so),
 * and nothing is found.
 */
static int block(struct mp_lower *lv, struct mp_geom *g)
{
	for (uint64_t b = WORD; b < g->way; b *= 2) {
		struct mp_ref_stride x;
		int c;

		if (!block_shape(lv, g, b, &x))
			return 0;
		if ((c = mp_compact_set_compact(&lv->cs, &x)) == 0)
			continue;
		if (c == 1 && b > WORD && (c = block_spills(lv, g, b / 2)) != 1)
			return c;
		g->line = b;
		return c;
	}
	return 0;
}

/*
 * The geometry, checked again at other places in the memory (every round
 * of a compact-set test picks a random offset): A lines a way apart fit
 * and A + 1 do not, 2A lines half a way apart fit and 2A + 1 do not.  In
 * contiguous memory these hold wherever the sets lie; in memory that only
 * looks contiguous they come out differently from place to place
 * (UNREPEATED).  Then A lines an odd number of ways apart fit: a plain
 * index puts them in one set as it does lines one way apart, but a hashed
 * one spreads lines of such strides over its slices unevenly, so that some
 * slice's set overflows (HASHED), while lines a power of two ways apart,
 * as far spread, still fit: a spill at both strides comes of their span,
 * not of a hash, and says nothing (docs/algorithms.md, "Lower levels:
 * compact sets").
 */
#define VERIFY_ROUNDS 2u
/* Odd strides (in ways) tried for a hash, each against a span of the next power of two. */
static const unsigned hash_strides[] = { 3, 5, 7 };

/* The geometry again at other places: 1, UNREPEATED, or -1 when a run failed. */
static int repeated(struct mp_lower *lv, const struct mp_geom *g)
{
	static const struct { uint64_t div, mul, extra; int spill; } checks[] = {
		{ 1, 1, 0, 0 }, { 1, 1, 1, 1 }, { 2, 2, 0, 0 }, { 2, 2, 1, 1 },
	};

	for (unsigned k = 0; k < VERIFY_ROUNDS * 4; k++) {
		int m = spills(lv, g->way / checks[k % 4].div,
			       g->ways * checks[k % 4].mul + checks[k % 4].extra);

		if (m == -1)
			return -1;
		if (m != -2 && m != checks[k % 4].spill)
			return UNREPEATED;
	}
	return 1;
}

/* The least power of two above an odd stride: a span as wide. */
static unsigned span_of(unsigned odd)
{
	unsigned p = 1;

	while (p < odd)
		p *= 2;
	return p;
}

/*
 * A lines an odd number of ways apart spill and as many a span as wide
 * apart do not: 1 (hashed), 0, or -1.  A linear (xor) hash can spread one
 * odd stride evenly at some offsets (3 ways apart fitted the simulated
 * Haswell's L3 in both rounds of a run in thirty, which then read 64-way):
 * each round tries 3, 5 and 7.
 */
static int hashed(struct mp_lower *lv, const struct mp_geom *g)
{
	for (unsigned k = 0; k < VERIFY_ROUNDS * MP_COUNT_OF(hash_strides); k++) {
		unsigned odd_ways = hash_strides[k % MP_COUNT_OF(hash_strides)];
		int odd = spills(lv, odd_ways * g->way, g->ways);
		int even = odd == 1 ? spills(lv, span_of(odd_ways) * g->way, g->ways) : 0;

		if (odd == -1 || even == -1)
			return -1;
		if (odd == 1 && even == 0)
			return 1;
	}
	return 0;
}

/*
 * The geometry over time: a thread sharing the level that holds a way of
 * every set it uses (an SMT sibling, for tens of milliseconds at a time)
 * leaves every set a way short while it runs, and each check above agrees
 * with the ways it leaves (the simulated Core i7 with a neighbour holding
 * an L2 way half the time came out 224K 7-way in 3 of 12 one-round runs:
 * test_probe_compact, "neighbour").
 * Once it has gone, A + 1 lines a way apart fit; so they are tested again
 * HOLD_TESTS times about HOLD_REST_US apart, as evset tests a minimal set
 * again (core/probes/evset/measure.c, still_evicts).  1 where they spilled
 * every time or nothing else runs (the platform has no rest), HELD where
 * they fitted once, -1 a run failed.
 */
#define HOLD_TESTS 4u
#define HOLD_REST_US 50000u

static int held(struct mp_lower *lv, const struct mp_geom *g)
{
	struct mp_rng rng;

	mp_rng_seed(&rng, lv->cs.c->cfg->seed);
	for (unsigned i = 0; i < HOLD_TESTS; i++) {
		int m;

		if (!mp_rest_about(lv->cs.c->p, &rng, HOLD_REST_US))
			return 1;
		if ((m = spills(lv, g->way, g->ways + 1)) == -1)
			return -1;
		if (m == 0)
			return HELD;
	}
	return 1;
}

static int verify(struct mp_lower *lv, const struct mp_geom *g)
{
	int st = repeated(lv, g);

	if (st != 1)
		return st;
	st = hashed(lv, g);
	if (st != 0)
		return st < 0 ? -1 : HASHED;
	return held(lv, g);
}

/*
 * A number of sets that is not a power of two (5 x 2^14 in a 60 MB 12-way
 * cache) fools the ladder: lines a power of two apart then cycle through
 * f sets (f the odd factor), which look like one set of f x A ways f times
 * smaller than the real way.  AMP steps its associativity hypotheses
 * through the factors of the number of lines (3.3); here each odd factor
 * f of the ways found is tried: A / f + 1 lines f ways apart spill and
 * A / f do not when the real set is f times larger.
 */
static int odd_factors(struct mp_lower *lv, struct mp_geom *g)
{
	for (uint64_t f = 3; f <= g->ways; f += 2) {
		while (g->ways % f == 0) {
			int over = spills(lv, f * g->way, g->ways / f + 1);
			int fits = over == 1 ? spills(lv, f * g->way, g->ways / f) : 1;

			if (over == -1 || fits == -1)
				return -1;
			if (over != 1 || fits != 0)
				break;
			g->ways /= f;
			g->way *= f;
		}
	}
	return 0;
}

/*
 * Strides tried below D when the ladder settles at once there: X-Ray's
 * case of a level whose way is smaller than the one above (4.5.1).
 */
#define LADDER_MIN_STRIDE 1024u
/* Without an effective capacity to start from, the first stride grows by
 * this factor until a set that spills fits the memory and the scratch. */
#define LADDER_RESTART 8u

const char mp_compact_no_level[] = "no set that fits the memory spilled";
const char mp_compact_too_small[] = "the level holds too few lines to overfill the levels above";

static const char *const outcome_why[OUTCOMES] = {
	[UNSETTLED] = "n(S) still halved at the largest stride the memory allows",
	[TOO_HIGH] = "n(S) settled at once even at the smallest stride",
	[TOO_SMALL] = mp_compact_too_small,
	[UNLAWFUL] = "n(S) broke X-Ray's Theorem 1: the memory is not physically contiguous "
		     "(on the host, for a virtual machine) or the index is hashed",
	[NO_SPILL] = mp_compact_no_level,
	[UNREPEATED] = "the sets gave other answers elsewhere in the memory: it is not "
		       "physically contiguous (on the host, for a virtual machine) or the index "
		       "is hashed",
	[HASHED] = "A lines three ways apart overflowed a set: the index is hashed over "
		   "slices, which compact sets cannot decompose",
	[HELD] = "A + 1 lines a way apart fitted when tested again later: a thread sharing "
		 "the level held a way while its sets were measured",
};

/* The ladder from the start stride, moved down or up until it settles. */
static int settle(struct mp_lower *lv, struct mp_geom *g)
{
	uint64_t stride = start_stride(lv);
	int st;

	while ((st = ladder(lv, stride, g)) == NO_SPILL && stride * LADDER_RESTART <= lv->limit)
		stride *= LADDER_RESTART;
	while (st == TOO_HIGH && stride / 4 >= LADDER_MIN_STRIDE)
		st = ladder(lv, stride /= 4, g);
	if (st == TOO_SMALL)
		st = ladder(lv, stride * 2, g);
	return st;
}

/* The ways and way, found and checked (settle, odd_factors, verify): 1, an outcome, or -1. */
static int ways_of(struct mp_lower *lv, struct mp_geom *g)
{
	int st;

	*g = (struct mp_geom){ 0, 0, 0, MP_INCL_UNKNOWN };
	if ((st = settle(lv, g)) == 0 && (st = odd_factors(lv, g)) == 0)
		st = verify(lv, g);
	return st;
}

/*
 * Ways found while a thread held one (HELD) are looked for again, up to
 * GEOM_AGAIN times, and ways no more than those are not believed, as
 * evset does (core/probes/evset/measure.c, geometry_over_time).
 */
#define GEOM_AGAIN 1u

static int held_ways_again(struct mp_lower *lv, struct mp_geom *g)
{
	uint64_t short_of = 0;
	int st;

	for (unsigned i = 0; (st = ways_of(lv, g)) == HELD && i < GEOM_AGAIN; i++)
		short_of = g->ways;
	return st == 1 && g->ways <= short_of ? HELD : st;
}

/*
 * The line (figure 10), tested again up to HOLD_TESTS times about
 * HOLD_REST_US apart where no offset did it: 2A lines half a way apart
 * overflow two sets a thread holds a way of, at every offset.  1 found,
 * 0 not, -1 a run failed.
 */
static int line_over_time(struct mp_lower *lv, struct mp_geom *g)
{
	struct mp_rng rng;
	int st = block(lv, g);

	mp_rng_seed(&rng, lv->cs.c->cfg->seed);
	for (unsigned i = 1; st == 0 && i < HOLD_TESTS; i++) {
		if (!mp_rest_about(lv->cs.c->p, &rng, HOLD_REST_US))
			break;
		st = block(lv, g);
	}
	return st;
}

int mp_compact_geom(struct mp_lower *lv, struct mp_geom *g, const char **why)
{
	int st = held_ways_again(lv, g);

	if (st != 1) {
		*why = st > 1 ? outcome_why[st] : NULL;
		*g = (struct mp_geom){ 0, 0, 0, MP_INCL_UNKNOWN };
		return st < 0 ? -1 : 0;
	}
	if ((st = line_over_time(lv, g)) == 0)
		*why = "no offset below the way made <C/A, 2A, b> compact";
	return st < 0 ? -1 : 0;
}
