/* SPDX-License-Identifier: MIT */
/*
 * Probe "evset": the physical size, ways and line of every cache level
 * below the L1 from minimal eviction sets (core/probes/evset/evset.h), for
 * the levels compact sets cannot measure: memory that is not physically
 * contiguous (Linux without huge pages, a virtual machine) or an index
 * hashed over slices.  Where compact sets measured a level in contiguous
 * memory, their values stand and these check them (a note when they
 * disagree).
 *
 * Each level is told from the next by latency: a victim that loads slower
 * than halfway between the two left the level.  The levels and latencies
 * come from the "levels" probe, the L1's from "latency" and "l1".
 */
#include "core/lib/buf.h"
#include "core/lib/fmath.h"
#include "core/lib/str.h"
#include "core/probes/evset/evset.h"
#include "core/probes/probes.h"
#include "core/seq/refstring.h"

/* Candidates per level: this many times its effective capacity in pages,
 * so that every class has some four times its ways (docs/algorithms.md). */
#define EVSET_POOL_FACTOR 4u
#define EVSET_MIN_PAGES 2048u
/*
 * Passes of tail, set, tail per try (docs/algorithms.md, "The test"), and
 * tries of a victim, per test.
 */
#define EVSET_PASSES 2u
#define EVSET_TRIALS 2u
/*
 * Tries that price how often a victim left in the level reads slow, and
 * the normal quantile of the bound on that share; the most tries a test
 * may take, and the share of such victims a test may call evicted
 * (fit_trials).
 */
#define EVSET_RATE_TRIES 16u
#define EVSET_RATE_Z 1.645
#define EVSET_MAX_TRIALS 16u
#define EVSET_FALSE_EVICT 0.001
/*
 * Tries whose least time calibrates the threshold; how far apart the two
 * must be; groups of a few candidates for the time out of the L1 (time_above).
 */
#define EVSET_CALIBRATE_TRIES 5u
#define EVSET_APART 1.25
#define EVSET_FEW_GROUPS 3u
/* Times a minimal set is tested again before it is believed; sets looked for. */
#define EVSET_RECHECKS 3u
#define EVSET_ATTEMPTS 3u
/*
 * Tests of the victim's set short of each line, and the passes over the
 * set in each: more misses, so that a replacement that spares the victim
 * now and then has more chances to take it (a_line_short).
 */
#define EVSET_SHORT_TESTS 8u
#define EVSET_SHORT_PASSES 8u
/*
 * Searches again after the victim's set stopped evicting it; its tests
 * over time, and the rest between them (geometry_over_time).
 */
#define EVSET_AGAIN 1u
/*
 * Victims the first level measured may take, while it was lost within
 * this share of its time (another_victim).
 */
#define EVSET_VICTIMS 3u
#define EVSET_QUICK_LOSS 0.1
#define EVSET_HOLD_TRIES 5u
#define EVSET_HOLD_REST_US 50000u
/* The tail: this many times the most ways above. */
#define EVSET_TAIL_FACTOR 2u
/* Stand-in tails tried, each the next candidates of the pool (tail_of). */
#define EVSET_STAND_INS 3u
/* Seconds of the platform's clock a level may take, by profile. */
static const double level_seconds[] = { [MP_PROFILE_QUICK] = 3.0, [MP_PROFILE_FULL] = 60.0 };
/*
 * May a level's pool grow past the largest level's usual one (calibrated),
 * by profile: on this project's AMD EPYC guest the L3's growth added some
 * 1.6 s to the quick profile's evset (two rounds), whose suite is to end
 * within 10 s; the full profile grows it.
 */
static const bool pool_grows[] = { [MP_PROFILE_QUICK] = false, [MP_PROFILE_FULL] = true };
/*
 * Levels whose count of classes (the offsets sharing a set, its first
 * step, included) ran out of time in an earlier round of
 * this run of the probe: not counted again, as the rounds after it would
 * spend as long for a vote it cannot win (two rounds, one of them without
 * the size).  On this project's AMD EPYC guest the quick profile's count
 * of the L2 ran out in most runs, and its second round doubled evset's
 * 3 s.
 */
static bool ran_out[MP_MAX_CACHES + 1];

static uint64_t pool[MP_EVSET_MAX_POOL], set[MP_EVSET_MAX_POOL], tail[MP_EVSET_MAX_POOL];

/* What one level is measured with, and what it gave. */
struct level {
	int32_t level;
	double lat, next;       /* its latency and the next level's (or memory's), ticks */
	uint64_t up_ways;       /* the most ways of any level above */
	uint64_t pages;         /* pages its pool is taken from */
	uint64_t n;             /* candidates in the pool */
	bool within;            /* the pool holds only lines congruent with the victim above */
	bool tailed;            /* its sets are found only with a tail (a victim level) */
	bool inpage;            /* its tail lies beside the victim in the pages (inpage_tail) */
	bool doubt;             /* the count found sets of another size than the ways */
	bool alone;             /* no second class bore the ways out: they rest on the victim's set */
	uint64_t ways, line, size, classes;
	uint64_t sharing;       /* line offsets in a page whose lines share the victim's sets */
	const char *why;        /* what is not measured, and why */
};

/* The level above's tester and minimal set: congruence there picks the tail here. */
#define UPPER_SET MP_EVSET_MAX_WAYS
#define UPPER_TAIL 512u
/* The second class's set and tail (corroborate); its victims tried at most. */
#define EVSET_SECOND 4u
static uint64_t set2[MP_EVSET_MAX_POOL], tail2[UPPER_TAIL], stand_in[UPPER_TAIL];
/*
 * The pool and the tail moved to another offset in their pages, and the
 * screen's answers (offset_congruent).
 */
static uint64_t moved[MP_EVSET_MAX_POOL], moved_tail[UPPER_TAIL], swapped[UPPER_SET];
/* The count's tail inside the pages (inpage_count). */
static uint64_t count_tail[UPPER_TAIL];
static bool moved_slow[MP_EVSET_MAX_POOL];
/* Victims a screen takes to a try, and tries between looks at what it found (offset_congruent). */
#define EVSET_SCREEN_BATCH MP_EVSET_MAX_WAYS
#define EVSET_SCREEN_LOOK 4u
/*
 * Lines of an offset that must each take the place of one of the victim's
 * set (offset_congruent): the pool gives a class several times its ways.
 * Three lines swapped in at once, rather than one at a time, passed about
 * one swap in five at a sharing offset on this guest (one candidate of no
 * class spoils the three), and a round of its full profile gave its L2 as
 * 2M once in 15 (the classes or the offsets counted were not logged).
 */
#define EVSET_SHARE_LINES 2u
struct upper {
	struct mp_evset e;
	uint64_t set[UPPER_SET];
	uint64_t m;             /* 0: none (the L1, or a level not measured) */
	uint64_t classes;       /* its classes at a page offset, all of them; 0: not counted */
	uint64_t sharing;       /* its line offsets sharing a set (struct level) */
	uint64_t tail[UPPER_TAIL];
};

/* The memory and what every level shares. */
struct run {
	struct mp_ctx *c;
	struct mp_mem m;
	uint64_t x;             /* the victim: a line near the end of the usual pools (victim_of) */
	uint64_t usual;         /* pages of the largest level's pool (usual_pages) */
	uint64_t l1_way, l1_ways;
	double hit;             /* ticks of a one-load run that hits the L1 */
	double l1_lat;          /* the L1's latency, ticks */
	bool contiguous;        /* the platform gives physically contiguous memory */
	struct upper up;
};

static double ns_to_ticks(const struct mp_platform *p, double ns)
{
	return ns * (double)p->tick_hz / 1e9;
}

static struct mp_cache *level_rec(struct mp_result *r, int32_t level)
{
	struct mp_cache *rec = mp_result_find_cache(r, level, MP_KIND_UNIFIED);

	return rec ? rec : mp_result_find_cache(r, level, MP_KIND_DATA);
}

/* The latency of the level below `level` (memory after the last), ticks; NaN: unknown. */
static double next_latency(struct mp_ctx *c, int32_t level)
{
	const struct mp_cache *rec = level_rec(c->r, level + 1);

	return ns_to_ticks(c->p, rec ? rec->latency_ns : c->r->memory.latency_ns);
}

/* Pages of the arena: the most a pool can be taken from. */
static uint64_t arena_pages(const struct run *rn)
{
	return rn->m.bytes / rn->m.page_bytes;
}

/* The level's pool taken from `times` times the pages, up to `most` and the arena: did it grow? */
static bool pages_times(const struct run *rn, struct level *lv, uint64_t times, uint64_t most)
{
	uint64_t was = lv->pages;

	most = most < arena_pages(rn) ? most : arena_pages(rn);
	lv->pages = lv->pages * times < most ? lv->pages * times : most;
	return lv->pages > was;
}

/*
 * The level's pool taken from `times` times the pages, as far as the
 * largest level's usual pool goes (or its own, where it grew past that).
 */
static bool more_pages(const struct run *rn, struct level *lv, uint64_t times)
{
	return pages_times(rn, lv, times, lv->pages > rn->usual ? lv->pages : rn->usual);
}

/* The first n pages' lines, shuffled, without the victim and the level above's lines. */
static void set_pool(struct run *rn, struct level *lv, uint64_t n)
{
	struct mp_rng g;
	uint64_t k = 0;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = i * rn->m.page_bytes;

		if (off != rn->x && !mp_evset_member(rn->up.set, rn->up.m, off) &&
		    !mp_evset_member(rn->up.tail, rn->up.e.ntail, off))
			pool[k++] = off;
	}
	mp_rng_seed(&g, rn->c->cfg->seed ^ (uint64_t)lv->level);
	mp_ref_shuffle(pool, k, &g);
	lv->n = k;
}

/* Is the candidate congruent with the victim at every level above this one? */
static int above(struct run *rn, const struct level *lv, uint64_t y)
{
	uint64_t page = rn->m.page_bytes, colours = rn->l1_way / page;

	if (lv->within)
		return 1;
	if (!rn->up.m)
		return colours <= 1 || (rn->x / page) % colours == (y / page) % colours;
	return mp_evset_evicts(&rn->up.e, y, rn->up.set, rn->up.m);
}

/*
 * Below a level measured here, only the candidates congruent with the
 * victim there (its minimal set evicts them: in one try where a test
 * there takes two, a candidate let in wrongly costing the count a test;
 * in as many as a test where a coarse clock took more, fit_trials: with
 * one fewer, the simulated Skylake's L3 pool held candidates of no class
 * the pool could evict, and its size was lost at two seeds of six) can
 * be congruent here: a level's set index holds the bits of the one above it
 * (docs/algorithms.md).  The rest are left out, which makes the pool a
 * few dozen times smaller.  The test keeps that level's tail, which takes
 * a candidate out of the levels above it (an L2 of fewer ways than the L1,
 * Alder Lake's 10 under 12, evicts none without); a candidate the tail
 * alone evicts is of a class the tail holds the ways of, not the victim's.
 */
static int filter_within(struct run *rn, struct level *lv)
{
	struct mp_evset e = rn->up.e;
	uint64_t kept = 0;

	e.trials = e.trials > EVSET_TRIALS ? e.trials : 1;
	for (uint64_t i = 0; i < lv->n; i++) {
		int ev = mp_evset_evicts_own(&e, pool[i], rn->up.set, rn->up.m);

		if (ev < 0)
			return -1;
		if (ev > 0)
			pool[kept++] = pool[i];
	}
	lv->n = kept;
	lv->within = true;
	return 0;
}

/*
 * An L1 whose way spans several pages (a virtually indexed 64K 2-way L1):
 * only the candidates of the victim's colour (page number modulo the
 * pages of a way) share its L1 set, so that the set's lines pass through
 * it in order (an exclusive L2 is filled from it).
 */
static void filter_colour(struct run *rn, struct level *lv)
{
	uint64_t kept = 0;

	for (uint64_t i = 0; i < lv->n; i++)
		if (above(rn, lv, pool[i]))
			pool[kept++] = pool[i];
	lv->n = kept;
}

static int pool_of(struct run *rn, struct level *lv)
{
	lv->within = false;
	set_pool(rn, lv, lv->pages);
	if (!rn->up.m) {
		filter_colour(rn, lv);
		return 0;
	}
	return filter_within(rn, lv);
}

/*
 * The tail: candidates congruent with the victim above but not here (the
 * set `by`, which evicts the victim, does not evict them), not in `by`,
 * EVSET_TAIL_FACTOR times the most ways above, looked for until the time
 * bound passes (each candidate's test traverses `by`, which may be a long
 * prefix of the pool: the simulated Power3's 4096-line prefix, for 256
 * lines of tail under its 128-way L1, took 29 s of a 3 s bound).  Taken
 * out of the pool when there are enough of them; how many in *nt.
 */
static int pick_tail(struct run *rn, struct mp_evset *e, struct level *lv, const uint64_t *by,
		     uint64_t nby, uint64_t *nt)
{
	uint64_t want = EVSET_TAIL_FACTOR * lv->up_ways, kept = 0;

	*nt = 0;
	for (uint64_t i = 0; i < lv->n && *nt < want && *nt < UPPER_TAIL && !mp_evset_late(e); i++) {
		bool own = mp_evset_member(by, nby, pool[i]) ||
			   mp_evset_member(e->tail, e->ntail, pool[i]);
		int a = own ? 0 : above(rn, lv, pool[i]), ev = 0;

		/* Not evicted twice: a congruent line in the tail would count as a way. */
		if (a > 0 && (ev = mp_evset_evicts(e, pool[i], by, nby)) == 0)
			ev = mp_evset_evicts(e, pool[i], by, nby);
		if (a < 0 || ev < 0)
			return -1;
		if (a > 0 && ev == 0)
			tail[(*nt)++] = pool[i];
	}
	if (*nt < want)
		return 0;
	for (uint64_t i = 0; i < lv->n; i++)
		if (!mp_evset_member(tail, *nt, pool[i]))
			pool[kept++] = pool[i];
	lv->n = kept;
	return 0;
}

/*
 * Why mp_evset_find found no set, by its result (0, 2, 3).  A random
 * replacement loses the eviction as noise does: a set of its ways evicts
 * the victim only now and then (the simulated Cortex-A9's 16-way random
 * L2 in the full profile; with LRU there, its 1M 16-way 32 B is exact).
 */
static const char *const find_why[] = {
	[0] = "the candidates do not evict a victim at this level's latency",
	[2] = "the time bound passed before a minimal set was found",
	[3] = "every reduction lost the eviction (a noisy host or a random replacement)",
};
/*
 * Why a victim level's set found with the stand-in tail is not used
 * (tail_of): the stand-in may hold lines of the victim's class.
 */
static const char stand_in_lost[] =
	"its sets show only with a tail, and the set found with a stand-in one did not hold up";

/* The tail picked with set (m1 lines), which evicts the victim.  0 or lv->why set, -1 failed. */
static int tail_by(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t m1, uint64_t *nt)
{
	if (pick_tail(rn, e, lv, set, m1, nt) < 0)
		return -1;
	if (*nt < EVSET_TAIL_FACTOR * lv->up_ways)
		lv->why = "too few candidates congruent above but not here";
	return 0;
}

/*
 * A minimal set of the victim found with tester e out of pool[from .. n),
 * which holds up in two tests (a set that does not evict the victim would
 * put its congruent lines in the tail), into set and *m1.  1 found, 0 not
 * (lv->why), -1 failed.
 */
static int tail_picker(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t from,
		       uint64_t *m1)
{
	int st = mp_evset_find(e, rn->x, pool + from, lv->n - from, set, m1), ev = 0;

	if (st == 1 && (ev = mp_evset_confirmed(e, rn->x, set, *m1)) < 0)
		return -1;
	if (st < 0 || (st == 1 && ev == 1))
		return st;
	return lv->why = find_why[st == 1 ? 3 : st], 0;
}

/*
 * A set of the victim found with a stand-in tail, the first `want`
 * candidates of the pool after the k-th block of them is moved to the
 * front; its search takes the rest.  1 found (into set, *m1), 0 not
 * (lv->why), -1 failed.
 */
static int stand_in_set(struct run *rn, struct mp_evset *s, struct level *lv, unsigned k,
			uint64_t *m1)
{
	uint64_t want = s->ntail;

	for (uint64_t i = 0; k && i < want; i++) {
		uint64_t t = pool[i];

		pool[i] = pool[k * want + i];
		pool[k * want + i] = t;
	}
	mp_memcpy(stand_in, pool, want * sizeof(*pool));
	lv->why = NULL;
	return tail_picker(rn, s, lv, want, m1);
}

/*
 * The tail, picked with the shortest evicting prefix of the pool; where
 * that evicts most candidates (every class near its threshold), with a
 * minimal set found without a tail; where none is found, with one found
 * with a stand-in tail: the first candidates of the pool, EVSET_TAIL_FACTOR
 * times the most ways above.  A level filled only by the victims of the
 * one above (exclusive, a victim cache) takes a set's lines only once
 * something pushes them out of that level, so its set cannot be found
 * without a tail (lv->tailed); a stand-in congruent with the victim here
 * leaves the set a way or so short, which still evicts the victim's class
 * and few lines of any other, or one that does not hold up: then the next
 * candidates are the stand-in, EVSET_STAND_INS in all (the simulated Zen
 * 4's 16 classes in the victim's L2 class: a stand-in of 16 lines holds
 * none of its class about one time in three).  The stand-in is left out
 * of the tail picked.  0 picked or lv->why set, -1 failed.
 */
static int tail_of(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t p, uint64_t *nt)
{
	uint64_t m1 = 0, want = EVSET_TAIL_FACTOR * lv->up_ways;
	struct mp_evset s = *e;
	int st;

	if (pick_tail(rn, e, lv, pool, p, nt) < 0)
		return -1;
	if (*nt >= want)
		return 0;
	if ((st = tail_picker(rn, e, lv, 0, &m1)) != 0)
		return st < 0 ? -1 : tail_by(rn, e, lv, m1, nt);
	s.tail = stand_in;
	s.ntail = want;
	for (unsigned k = 0; k < EVSET_STAND_INS && want <= UPPER_TAIL && lv->n > (k + 2) * want;
	     k++) {
		if ((st = stand_in_set(rn, &s, lv, k, &m1)) < 0)
			return -1;
		if (st == 1) {
			lv->tailed = true;
			return tail_by(rn, &s, lv, m1, nt);
		}
		if (lv->why != find_why[3])
			return 0;
		lv->why = stand_in_lost;
	}
	return 0;
}

/* Does the set evict x in most of EVSET_RECHECKS tests?  1, 0, -1 a run failed. */
static int evicts_mostly(struct mp_evset *e, uint64_t x, const uint64_t *s, uint64_t m)
{
	unsigned all = 0;

	for (unsigned i = 0; i < EVSET_RECHECKS; i++) {
		int a = mp_evset_evicts(e, x, s, m);

		if (a < 0)
			return -1;
		all += (unsigned)a;
	}
	return 2 * all > EVSET_RECHECKS;
}

/*
 * The minimal set tested again: it must evict the victim in most of
 * EVSET_RECHECKS tests and, without any one of its lines, not in two
 * tests running (every line needed: minimal indeed; one noisy test is no
 * unneeded line, while a line not needed leaves a set that evicts in every
 * test), and be no
 * larger than the most ways a set is kept for (noise that hides evictions
 * leaves hundreds of lines "each needed"; on a busy host a test of a true
 * set fails one time in ten, and a noisy reduction can stop at a set of
 * many classes whose extra lines are not needed: docs/algorithms.md,
 * "Eviction sets").  1 holds up, 0 not, -1 a run failed.
 */
static int repeatable(struct mp_evset *e, uint64_t x, const uint64_t *s, uint64_t m)
{
	int most, less;

	if (m > UPPER_SET || m < 1)
		return 0;
	if ((most = evicts_mostly(e, x, s, m)) < 0 || (less = mp_evset_unneeded(e, x, s, m)) < 0)
		return -1;
	return most && less == 0;
}

/*
 * A minimal set for victim x that holds up, looked for EVSET_ATTEMPTS
 * times (a search whose reductions all lost the eviction is one of them);
 * into out, its size in *mm.  1 found, 0 not (lv->why), -1 failed.
 */
static int held_set(struct mp_evset *e, struct level *lv, uint64_t x, uint64_t *out,
		    uint64_t *mm)
{
	int st = 0;

	for (unsigned i = 0; i < EVSET_ATTEMPTS; i++) {
		int held = 0;

		if ((st = mp_evset_find(e, x, pool, lv->n, out, mm)) < 0)
			return -1;
		if (st == 0 || st == 2)
			return lv->why = find_why[st], 0;
		if (st == 1 && (held = repeatable(e, x, out, *mm)) != 0)
			return held;
	}
	lv->why = st == 3 ? find_why[3] : "no minimal set held up when tested again";
	return 0;
}

/* Does the set evict candidate y: 1 in two tests running, 0 in neither, 2 in one. */
static int evicted_twice(struct mp_evset *e, const uint64_t *s, uint64_t m, uint64_t y)
{
	int a = mp_evset_evicts(e, y, s, m), b = a < 0 ? a : mp_evset_evicts(e, y, s, m);

	return a < 0 || b < 0 ? -1 : a && b ? 1 : a || b ? 2 : 0;
}

/*
 * Other classes to bear out the ways: their victims the first
 * EVSET_SECOND candidates x's set (m lines) evicts in neither of two tests
 * (a candidate the pool cannot evict, one let into a pool of lines
 * congruent above by a noisy test, is passed over); their tail x, x's set
 * and candidates that set evicts in both (x's class: congruent above with
 * every candidate, here with none of the others), EVSET_TAIL_FACTOR times
 * the most ways above.  Into tail2 and vs.  1 found, 0 too few candidates
 * for the tail, 2 no other class, -1 failed.
 */
static int second_class(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t m,
			uint64_t *nt, uint64_t *vs, unsigned *nv)
{
	uint64_t want = EVSET_TAIL_FACTOR * lv->up_ways;

	*nv = 0;
	*nt = 0;
	tail2[(*nt)++] = rn->x;
	for (uint64_t i = 0; i < m && *nt < UPPER_TAIL; i++)
		tail2[(*nt)++] = set[i];
	for (uint64_t i = 0; i < lv->n && (*nt < want || *nv < EVSET_SECOND); i++) {
		int in = mp_evset_member(set, m, pool[i]) ? 3 : evicted_twice(e, set, m, pool[i]);

		if (in < 0)
			return -1;
		if (in == 1 && *nt < want && *nt < UPPER_TAIL)
			tail2[(*nt)++] = pool[i];
		if (in == 0 && *nv < EVSET_SECOND)
			vs[(*nv)++] = pool[i];
	}
	return !*nv ? 2 : *nt >= want;
}

/* The pool without the n lines of s. */
static void pool_without(struct level *lv, const uint64_t *s, uint64_t n)
{
	uint64_t kept = 0;

	for (uint64_t i = 0; i < lv->n; i++)
		if (!mp_evset_member(s, n, pool[i]))
			pool[kept++] = pool[i];
	lv->n = kept;
}

/*
 * The ways borne out by other classes (where the count did not bear them
 * out): a minimal set is a line short where a line in use all the time
 * (the page walks' own, a neighbour's) holds a way of its set, so one
 * victim's set alone may count a way too few; the other classes' minimal
 * sets, found with a tail of x's class, must mostly have as many lines:
 * the first found that has bears them out, one of another size must be
 * outvoted by two more (on a noisy host such a set, too, comes out a
 * line short now and then).  A victim whose set is not found (one let
 * into the pool by a test that erred: the pool holds none of its class)
 * is passed over.  Where there is no other class, or too few candidates
 * of x's class for the tail (Power3's 128-way L1 takes 256 of the 512
 * classes' candidates), the ways rest on x's set alone: the level says so,
 * and its set is tested over time (still_evicts).  1 borne out (or
 * alone), 0 not (lv->why), -1 failed.
 */
static int corroborate(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t m)
{
	struct mp_evset e2 = *e;
	uint64_t vs[EVSET_SECOND], m2 = 0;
	unsigned nv, agree = 0, other = 0;
	int st = second_class(rn, e, lv, m, &e2.ntail, vs, &nv);

	if (st < 0)
		return -1;
	if (st != 1) {
		lv->alone = true;       /* tested over time instead (still_evicts) */
		return 1;
	}
	pool_without(lv, tail2, e2.ntail);      /* a tail is disjoint from every set */
	pool_without(lv, vs, nv);               /* a victim in its pool is loaded again by it */
	e2.tail = tail2;
	for (unsigned i = 0; i < nv && agree <= other && other < 2; i++) {
		if ((st = held_set(&e2, lv, vs[i], set2, &m2)) < 0)
			return -1;
		agree += st == 1 && m2 == m;
		other += st == 1 && m2 != m;
	}
	if (agree > other)
		return 1;
	lv->why = other ? "other classes' minimal sets have another size" :
		  e2.late ? find_why[2] : "no other class's minimal set was found to bear the ways out";
	return 0;
}

/*
 * The shortest prefix of the pool that evicts the victim, in *p; where
 * none does, the pool taken from twice the pages, as the arena allows:
 * its size follows the level's effective capacity, and where an index
 * spreads one offset's lines over more classes (sharing_offsets), the
 * victim's class may get too few of them.  On this project's AMD EPYC
 * guest (64 classes at an offset for the L2's 16 ways), 2048 pages left
 * some 32 lines in its class, and the whole pool failed its test in 1 of
 * 9 instrumented runs.  1, 0 none, -1 a run failed.
 */
static int evicting_prefix(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t *p)
{
	int st;

	while ((st = mp_evset_prefix(e, rn->x, pool, lv->n, p)) == 0 && !e->late &&
	       more_pages(rn, lv, 2))
		if (pool_of(rn, lv) < 0)
			return -1;
	return st;
}

/*
 * The victim's minimal set with a tail (picked with the shortest prefix
 * of the pool that evicts the victim without one): its ways and line.  0
 * (what is missing in lv->why), -1 when a run failed.
 */
static int geometry(struct run *rn, struct mp_evset *e, struct level *lv)
{
	uint64_t p = 0, nt = 0, mm = 0;
	int st = evicting_prefix(rn, e, lv, &p);

	if (st != 1)
		return st < 0 ? -1 : (lv->why = find_why[e->late ? 2 : 0], 0);
	if (!lv->inpage) {           /* else the tail inside the pages stands */
		if (tail_of(rn, e, lv, p, &nt) < 0)
			return -1;
		if (lv->why)
			return 0;
		e->tail = tail;
		e->ntail = nt;
	}
	if ((st = held_set(e, lv, rn->x, set, &mm)) <= 0)
		return st;
	if (mp_evset_line(e, rn->x, set, mm, &lv->line) < 0)
		return -1;
	lv->ways = mm;
	return 0;
}

/* Keep this level's tester, set, tail and classes for the next. */
static void keep_upper(struct run *rn, const struct mp_evset *e, const struct level *lv)
{
	rn->up.m = 0;
	if (!lv->ways || lv->ways > UPPER_SET || e->ntail > UPPER_TAIL)
		return;
	rn->up.e = *e;
	mp_memcpy(rn->up.set, set, lv->ways * sizeof(*set));
	mp_memcpy(rn->up.tail, tail, e->ntail * sizeof(*tail));
	rn->up.e.tail = rn->up.tail;
	rn->up.e.deadline = 0;
	rn->up.m = lv->ways;
	rn->up.classes = lv->size ? lv->classes : 0;
	rn->up.sharing = lv->sharing;
}

/*
 * A tail inside the pages, for the L2 under an L1 whose way is smaller
 * than a page: a line a multiple of the L1's way from the victim's page
 * offset shares its L1 set and, in a level of more sets, not its set
 * there (a 64K page under a 4K-way L1: 15 such offsets a page).  Where the
 * L2's way is a page or less, every candidate at the victim's offset
 * shares its L2 set too: the candidates that take the victim out of the L1
 * take it out of the L2 as well, and none of them can be a tail.  False
 * when the L1's way is a page or more, or the level is not the L2.
 */
static bool inpage_fits(const struct run *rn, const struct level *lv)
{
	return !rn->up.m && lv->level == 2 && rn->l1_way < rn->m.page_bytes &&
	       EVSET_TAIL_FACTOR * lv->up_ways <= UPPER_TAIL;
}

/*
 * The lines of such a tail, EVSET_TAIL_FACTOR times the most ways above
 * as far as the level's pages go, into buf; how many.  One line a page, at
 * a random one of those offsets: lines at regular distances feed a stride
 * prefetcher, whose fetches may land in the victim's L2 set (Power9's L2
 * prefetcher gave a 16-byte line).
 */
static uint64_t inpage_lines(const struct run *rn, const struct level *lv, uint64_t *buf)
{
	uint64_t page = rn->m.page_bytes, per = page / rn->l1_way, n = 0;
	uint64_t want = EVSET_TAIL_FACTOR * lv->up_ways;
	struct mp_rng g;

	mp_rng_seed(&g, rn->c->cfg->seed + (uint64_t)lv->level);
	for (; n < want && n < lv->pages; n++)
		buf[n] = n * page + (1 + mp_rng_below(&g, per - 1)) * rn->l1_way;
	return n;
}

/*
 * Counted within the victim's class above: every class above holds as
 * many of this level's (docs/algorithms.md), so the classes at a page
 * offset are those within one times the classes above.
 */
static int within_size(struct run *rn, struct level *lv, const struct mp_evset_classes *k)
{
	lv->classes = k->count * rn->up.classes;
	if (!k->complete)
		return lv->why = k->why, 0;
	lv->size = lv->classes * rn->m.page_bytes * lv->ways;
	return 0;
}

/*
 * Does the count take a tail inside the pages (inpage_lines)?  Where the
 * L1 has more ways than this level, a set without a tail must hold the
 * L1's ways to take the victim out of it, and the seeded count's tail, the
 * victim's class, can hold no more than the pool gives a class: the
 * simulated Power3's 4-way L2 under its 128-way L1 counted no class
 * either way.  A tail inside the pages is congruent with no candidate
 * here where no other offset shares a set (lv->sharing).
 */
static bool inpage_count(const struct run *rn, const struct level *lv)
{
	return lv->up_ways > lv->ways && lv->sharing == 1 && inpage_fits(rn, lv);
}

/*
 * The classes at the victim's page offset, seeded with the victim's class
 * and the tester's tail (a tailed level without a tail inside the pages;
 * any level whose count without a tail does not complete), or else
 * counted with a tail inside the pages where `inpage` (inpage_count), or
 * without a tail.
 */
static int count(struct run *rn, const struct mp_evset *e, struct level *lv,
		 const struct mp_evset_seed *seed, bool inpage, struct mp_evset_classes *k)
{
	struct mp_evset t = *e;

	if (!seed) {
		t.tail = inpage ? count_tail : NULL;
		t.ntail = inpage ? inpage_lines(rn, lv, count_tail) : 0;
	}
	if (pool_of(rn, lv) < 0)
		return -1;
	return mp_evset_count(&t, pool, lv->n, lv->ways, EVSET_TAIL_FACTOR * lv->up_ways, seed, k);
}

/*
 * Does line y (at another offset) take the place of one of the victim's
 * minimal set: does the set with its first line swapped for y still evict
 * the victim (with its own tail) in most of EVSET_RECHECKS tests, as the
 * set itself had to (repeatable), while the set without that line does
 * not?  A minimal set short of a line never evicts, unless a neighbour
 * holds a way of the victim's set meanwhile: then any line passed (the
 * simulated Core i7 with a neighbour holding an L2 way found 8 of 64
 * offsets sharing, and its 256K L2 came out 32K).  1, 0, -1 a run failed.
 */
static int swap_evicts(struct run *rn, struct mp_evset *e, const struct level *lv, uint64_t y)
{
	int short_evicts = evicts_mostly(e, rn->x, set + 1, lv->ways - 1);

	if (short_evicts != 0)
		return short_evicts < 0 ? -1 : 0;
	mp_memcpy(swapped, set, lv->ways * sizeof(*set));
	swapped[0] = y;
	return evicts_mostly(e, rn->x, swapped, lv->ways);
}

/*
 * Are lines at offset o of the pool's pages congruent with the victim?
 * Candidates first: lines its minimal set evicts (screened, then
 * confirmed), the tail moved to o to take them out of the levels above,
 * and the tail alone does not.  Moved, the tail is no longer free of any
 * class: under a plain index it held the ways of some class at o now and
 * then, and that class's lines made every such offset look shared (the
 * simulated Skylake's 256K L2 came out 4K); with a neighbour holding a way
 * while the set ran and not while the tail ran alone, a class holding
 * some of the tail still passed (the simulated Core i7's L2 came out 128K
 * at one seed).  So a candidate must then take the place of a line of the
 * victim's set, tested with the victim's own tail (swap_evicts), and
 * EVSET_SHARE_LINES that do make the offset shared.  1, 0, -1 a run
 * failed.
 */
static int offset_congruent(struct run *rn, struct mp_evset *e, const struct level *lv,
			    uint64_t o)
{
	uint64_t step = EVSET_SCREEN_LOOK * EVSET_SCREEN_BATCH, found = 0;
	struct mp_evset t = mp_evset_tail_moved(e, o, moved_tail);

	for (uint64_t i = 0; i < lv->n; i++)
		moved[i] = pool[i] + o;
	for (uint64_t at = 0; at < lv->n && !mp_evset_late(e); at += step) {
		uint64_t k = lv->n - at < step ? lv->n - at : step;

		if (mp_evset_screen(&t, moved + at, k, set, lv->ways, EVSET_SCREEN_BATCH,
				    moved_slow) < 0)
			return -1;
		for (uint64_t i = 0; i < k; i++) {
			int ev = moved_slow[i] ? mp_evset_evicts_own(&t, moved[at + i], set, lv->ways)
					       : 0;

			if (ev > 0)
				ev = swap_evicts(rn, e, lv, moved[at + i]);
			if (ev < 0)
				return -1;
			if ((found += (uint64_t)ev) == EVSET_SHARE_LINES)
				return 1;
		}
	}
	return 0;
}

/*
 * The line offsets in a page whose lines share the victim's sets, its own
 * included.  A plain or sliced index takes the set from the bits right
 * above the line offset, so that no line at another offset is ever
 * congruent with the victim: 1.  An index that folds upper address bits
 * into the bits inside the page (this project's AMD EPYC guest, Zen 5
 * class: its L2's bits 10 and 11) spreads one offset's lines over that
 * many times the sets, and lets that many offsets share each.  Then the
 * sets are the classes at one offset x the offsets in a page / those
 * sharing, not the classes x the offsets.  An offset shares where
 * EVSET_SHARE_LINES of its lines are congruent with the victim
 * (offset_congruent).  Not the
 * pool moved there evicting the victim: a next-line prefetcher fetches
 * its lines' neighbours, and on that guest the pool moved 960, 1984 or
 * 3008 bytes evicted the victim as the pool moved 1024, 2048, 3072 did,
 * while no line of it was congruent; and a whole pool's test, each of its
 * tries needing the eviction, missed one sharing offset in 12 runs.
 * Each offset screens the whole pool, so the offsets are tried while the
 * level's time bound lasts (e->late after): where the tail moved to an
 * offset holds the ways of its classes there, every candidate reads slow
 * and is tested alone (a 4-way L2 under a 32-way L1 took 12 s for a 3 s
 * bound).  Into lv->sharing; -1 a run failed.
 */
static int sharing_offsets(struct run *rn, struct mp_evset *e, struct level *lv)
{
	lv->sharing = 1;
	for (uint64_t o = lv->line; o < rn->m.page_bytes && !e->late; o += lv->line) {
		int ev = offset_congruent(rn, e, lv, o);

		if (ev < 0)
			return -1;
		lv->sharing += (uint64_t)ev;
	}
	return 0;
}

/*
 * The size once every class at the victim's page offset was counted: the
 * sets (those classes x the line offsets in a page / the offsets sharing a
 * set: sharing_offsets) x the ways x the line.  Not measured where the
 * offsets sharing are not a power of two (an index that folds address bits
 * into the bits inside the page lets the offsets of a subspace of those
 * bits share: one offset missed or too many) or do not divide them.
 */
static int size_of(struct run *rn, struct level *lv)
{
	uint64_t spread = lv->classes * (rn->m.page_bytes / lv->line);

	if (lv->sharing & (lv->sharing - 1))
		return lv->why = "its page offsets sharing a set are not a power of two", 0;
	if (spread % lv->sharing)
		return lv->why = "its page offsets sharing a set do not divide its classes", 0;
	lv->size = spread / lv->sharing * lv->ways * lv->line;
	return 0;
}

/*
 * Why the level's classes are not counted, as no size could follow from
 * them (a count within the class above takes that level's classes), or
 * NULL.
 */
static const char *not_counted(const struct run *rn, const struct level *lv)
{
	if (ran_out[lv->level])
		return "its count of classes ran out of time in an earlier round "
		       "(the full profile gives it longer)";
	if (!lv->within)
		return lv->line ? NULL : "its line, which its offsets sharing a set are found by, "
					 "was not measured";
	if (!rn->up.classes)
		return "the level above's classes were not counted";
	return rn->up.sharing > 1 ? "the level above's sets take lines of several page offsets" :
				    NULL;
}

/*
 * The classes among the lines of one page offset (counted with a pool
 * as many times larger as offsets share a set: that many times the
 * classes), where the way is at least a page (the victim half a page on
 * is not evicted), and from them the size (size_of).  The ways are borne
 * out (*borne) where most classes counted, the victim's own not, have
 * minimal sets of as many lines: a count that stopped at the victim's
 * class bore out nothing (this guest's quick profile gave its 16-way L2
 * as 15-way and 17-way so, in 2 runs of 40).  A count without a tail
 * that did not complete is followed by a seeded one, unless it ran out of
 * time: the seeded count has the same time bound, and on this guest the
 * quick profile's second count of the L2 spent some 0.5 s more to run out
 * too.  A count with a tail inside the pages is not: its tail is already
 * congruent with no candidate.
 */
static int size(struct run *rn, struct mp_evset *e, struct level *lv, bool *borne)
{
	struct mp_evset_classes k, first = { 0 };   /* first: a count the seeded one follows */
	struct mp_evset_seed seed = { .x = rn->x, .set = set, .m = lv->ways };
	uint64_t half = rn->x + rn->m.page_bytes / 2;
	int ev = mp_evset_evicts(e, half, set, lv->ways);
	const char *why;
	bool inpage;

	*borne = ev != 0;           /* one class at a page offset: no other to bear the ways out */
	if (ev != 0)
		return ev < 0 ? -1 : (lv->why = "its way is smaller than a page: size", 0);
	if ((why = not_counted(rn, lv)) != NULL)
		return lv->why = why, 0;
	if (!lv->within && sharing_offsets(rn, e, lv) < 0)
		return -1;
	if (e->late) {              /* r is the count's first step: it ran out */
		ran_out[lv->level] = true;
		return lv->why = mp_evset_count_late, 0;
	}
	more_pages(rn, lv, lv->sharing);
	inpage = inpage_count(rn, lv);
	if (count(rn, e, lv, lv->tailed && !inpage ? &seed : NULL, inpage, &k) < 0)
		return -1;
	if (!k.complete && !k.late && !lv->tailed && !inpage) {
		first = k;
		if (count(rn, e, lv, &seed, false, &k) < 0)
			return -1;
	}
	ran_out[lv->level] = k.late;
	*borne = first.same + k.same > first.other + k.other;
	lv->doubt = first.other + k.other + first.larger + k.larger > 0;
	if (lv->within)
		return within_size(rn, lv, &k);
	lv->classes = k.count;
	if (!k.complete)
		return lv->why = k.why, 0;
	return size_of(rn, lv);
}

/* The platform's clock when a level's time (by profile) from now is up. */
static uint64_t deadline(const struct run *rn)
{
	struct mp_platform *p = rn->c->p;

	return mp_now(p) + (uint64_t)(level_seconds[rn->c->cfg->profile] * (double)p->tick_hz);
}

static void tester(struct run *rn, struct level *lv, struct mp_evset *e)
{
	*e = (struct mp_evset){
		.c = rn->c, .base = rn->m.base, .bytes = rn->m.bytes, .page = rn->m.page_bytes,
		.passes = EVSET_PASSES, .trials = EVSET_TRIALS, .deadline = deadline(rn),
	};
	mp_rng_seed(&e->rng, rn->c->cfg->seed + (uint64_t)lv->level);
	/*
	 * A victim run costs the seam's run and an L1 hit; beyond that, the
	 * level's latency.  Between it and the next level's, the geometric
	 * mean: the next latency "levels" gives may be the memory's or a
	 * blend (a virtual machine's share of an L3), and the step is wide.
	 */
	e->slow = (uint64_t)(rn->hit - rn->l1_lat + mp_sqrt(lv->lat * lv->next));
}

/* Groups of lines that take the victim out of the levels above only (time_above). */
static uint64_t above_groups(const struct run *rn, const struct level *lv)
{
	uint64_t few = EVSET_TAIL_FACTOR * lv->up_ways, g = 1;

	if (rn->up.m || lv->inpage)
		return 1;
	while (g < EVSET_FEW_GROUPS && (g + 1) * few <= lv->n)
		g++;
	return g;
}

/* The g-th such group: its lines in *s, how many returned. */
static uint64_t above_group(const struct run *rn, const struct level *lv, uint64_t g,
			    const uint64_t **s)
{
	uint64_t few = EVSET_TAIL_FACTOR * lv->up_ways;

	if (rn->up.m || lv->inpage) {
		*s = rn->up.set;
		return lv->inpage ? 0 : rn->up.m;
	}
	*s = pool + g * few;
	return few < lv->n ? few : lv->n;
}

/*
 * The victim's least time once out of the levels above only: after the
 * level above's minimal set, or after nothing where the tail lies in the
 * pages, or for the L2 after a few candidates: the median of
 * EVSET_FEW_GROUPS groups of them, the lower of two (a group may hold a
 * line of the victim's set here: under a direct-mapped L2 of 64 classes at
 * a page offset, one of its four candidates did so at one seed of eight,
 * and the level was lost).  In *most, the slowest try of any group.
 */
static int time_above(struct run *rn, struct level *lv, struct mp_evset *e, uint64_t *in,
		      uint64_t *most)
{
	uint64_t t[EVSET_FEW_GROUPS], ng = above_groups(rn, lv);

	*most = 0;
	for (uint64_t g = 0; g < ng; g++) {
		const uint64_t *s;
		uint64_t n = above_group(rn, lv, g, &s);
		struct mp_evset_times tt;

		if (mp_evset_time(e, rn->x, s, n, EVSET_CALIBRATE_TRIES, &tt) < 0)
			return -1;
		t[g] = tt.least;
		*most = tt.most > *most ? tt.most : *most;
		for (uint64_t j = g; j > 0 && t[j] < t[j - 1]; j--) {
			uint64_t swap = t[j];

			t[j] = t[j - 1];
			t[j - 1] = swap;
		}
	}
	*in = t[(ng - 1) / 2];
	return 0;
}

static void note_trials(struct run *rn, const struct level *lv, unsigned slow, unsigned trials)
{
	char text[MP_TEXT_LEN];
	struct mp_buf b;

	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "evset: L%d: the victim out of the levels above only read slower than "
			  "the threshold in %u of %u tries (a coarse timer or a busy host): "
			  "%u tries a test", (int)lv->level, slow, EVSET_RATE_TRIES, trials);
	mp_result_add_note(rn->c->r, text);
}

/*
 * The share of slow reads a victim left in the level may have, `slow` of
 * n tries seen: Wilson's upper bound at one-sided 95% (z = EVSET_RATE_Z).
 * Sixteen tries tell a share only roughly: with the share seen itself,
 * Skylake's 3 of 16 and Zen 4's 5 of 16 on coarse clocks took 5 and 6
 * tries a test, and a count still lost a class at one seed each; with
 * this bound, 8 and 11, and both exact.
 */
static double slow_share(unsigned slow, unsigned n)
{
	double p = (double)slow / n, z2 = EVSET_RATE_Z * EVSET_RATE_Z;
	double r = mp_sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n));

	return (p + z2 / (2.0 * n) + EVSET_RATE_Z * r) / (1.0 + z2 / n);
}

/*
 * The tries a test takes where a victim left in the level reads slow in
 * `slow` of EVSET_RATE_TRIES tries: the least k with p^k at most
 * EVSET_FALSE_EVICT, p that share's upper bound (slow_share), from
 * EVSET_TRIALS to EVSET_MAX_TRIALS.  None slow: the calibration's slow
 * read was noise, and EVSET_TRIALS stand.
 */
static unsigned trials_for(unsigned slow)
{
	double p, k = EVSET_MAX_TRIALS;

	if (slow == 0)
		return EVSET_TRIALS;
	p = slow_share(slow, EVSET_RATE_TRIES);
	if (p < 1.0)
		k = mp_ceil(mp_log2(EVSET_FALSE_EVICT) / mp_log2(p));
	k = k > EVSET_TRIALS ? k : EVSET_TRIALS;
	return k < EVSET_MAX_TRIALS ? (unsigned)k : EVSET_MAX_TRIALS;
}

/*
 * The tries of a test: a victim that a set does not evict stays out of
 * the levels above only, and where it reads slower than the threshold
 * there now and then (p of the tries, the least over the groups of
 * time_above), a test calls it evicted in every try p^tries of the time
 * (trials_for; at 1%, a count's checks against every class counted
 * called a new class one counted now and then: the simulated Skylake's L2
 * came out 240K for 256K on a coarse clock).  A coarse timer does this:
 * on this project's AMD EPYC guest (Zen 5 class) the TSC advances in
 * steps of 26 ticks (10 ns), and an L1 or L2 hit reads 26 or 52, each in
 * about half the tries: two tries a test call an L2 hit evicted about one
 * time in four.  The tries run on a copy of the tester (its random orders
 * as they were), and only where some try of the calibration's read slow
 * (calibrate).  -1 failed.
 */
static int fit_trials(struct run *rn, struct level *lv, struct mp_evset *e)
{
	struct mp_evset f = *e;
	unsigned least = EVSET_RATE_TRIES;
	uint64_t ng = above_groups(rn, lv);

	for (uint64_t g = 0; g < ng; g++) {
		const uint64_t *s;
		uint64_t n = above_group(rn, lv, g, &s);
		struct mp_evset_times t;

		if (mp_evset_time(&f, rn->x, s, n, EVSET_RATE_TRIES, &t) < 0)
			return -1;
		least = t.slow < least ? t.slow : least;
	}
	e->trials = trials_for(least);
	if (e->trials > EVSET_TRIALS)
		note_trials(rn, lv, least, e->trials);
	return 0;
}

static const char no_slower[] = "the victim loads no slower after the whole pool";

/*
 * The threshold from the victim itself: its least time once out of the
 * levels above only (time_above), and once out of this level too (after
 * the whole pool); halfway between, or the geometric mean of the
 * latencies "levels" gives this level and the next where that is lower:
 * the whole pool may evict the victim from the next level too, and on a
 * busy host the next latency may be memory's one run and a blend the
 * next.  Then, where some try of time_above read slower than that, the
 * tries a test takes (fit_trials).  0 (lv->why when the two times are
 * not apart), -1 failed.
 */
static int calibrate(struct run *rn, struct level *lv, struct mp_evset *e)
{
	uint64_t in, most, out;
	struct mp_evset_times t;

	if (time_above(rn, lv, e, &in, &most) < 0 ||
	    mp_evset_time(e, rn->x, pool, lv->n, EVSET_CALIBRATE_TRIES, &t) < 0)
		return -1;
	out = t.least;
	if ((double)out < EVSET_APART * (double)in)
		return lv->why = no_slower, 0;
	/* Not past the next level: the whole pool may evict the victim from it too. */
	e->slow = (in + out) / 2 < e->slow ? (in + out) / 2 : e->slow;
	if (e->slow <= in)
		return lv->why = "the latencies give no threshold above a hit here", 0;
	return most > e->slow ? fit_trials(rn, lv, e) : 0;
}

/* The level's geometry not believed, and why: 0. */
static int not_held(struct level *lv, const char *why)
{
	lv->ways = lv->size = lv->line = lv->classes = 0;
	lv->sharing = 1;
	lv->alone = false;
	lv->why = why;
	return 0;
}

/*
 * The level's ways and size not believed, its line kept (any set that
 * evicts the victim gives it): 0.
 */
static int line_only(struct level *lv, const char *why)
{
	uint64_t line = lv->line;

	not_held(lv, why);
	lv->line = line;
	return 0;
}

/* In how many tests at most the victim's set a line short evicts it (stopping at enough). */
static int short_evictions(struct run *rn, const struct mp_evset *e, const struct level *lv,
			   unsigned enough)
{
	struct mp_evset many = *e;

	many.passes = EVSET_SHORT_PASSES;
	many.deadline = deadline(rn);
	return mp_evset_short_evictions(&many, rn->x, set, lv->ways, EVSET_SHORT_TESTS, enough);
}

/*
 * Does the victim's set a line short stop evicting it (in none of the
 * tests), tested again up to EVSET_HOLD_TRIES times EVSET_HOLD_REST_US
 * apart: a thread that held a way has gone.  1, 0 (or nothing else runs
 * here), -1 failed.
 */
static int stops_later(struct run *rn, const struct mp_evset *e, const struct level *lv)
{
	for (unsigned i = 1; i < EVSET_HOLD_TRIES; i++) {
		int st;

		if (!mp_rest(rn->c->p, EVSET_HOLD_REST_US))
			return 0;
		if ((st = short_evictions(rn, e, lv, 1)) <= 0)
			return st < 0 ? -1 : 1;
	}
	return 0;
}

/*
 * Is the victim's minimal set bigger than the ways?  Under LRU fewer lines
 * than the ways fit beside the victim, while a replacement that does not
 * always take the oldest line lets a set of the ways evict it only now and
 * then, so that the set that evicts it in most tests has a line more: on
 * this project's AMD EPYC guest the L3 (16-way, a victim cache shared with
 * other tenants) came out 17-way, one of its 16-line sets evicting the
 * victim in 2 tests of 4.  So the set short of each one line is tested
 * EVSET_SHORT_TESTS times over EVSET_SHORT_PASSES passes (which give such
 * a replacement the chances it needs).  Where no count bore the ways out,
 * one eviction undoes them.  Where one did, it takes most tests: every
 * class's set has the line more, so a count bears it out too (the
 * simulated bimodal L3 of test_probe_evset, an LRU whose fills go to the
 * LRU end one time in 32, came out 17- and 19-way so), and a test that
 * reads the victim slow on a noisy host does not undo a count.  A thread
 * that holds a way of every set it uses while it runs looks the same for
 * a while (the Core i7 whose L2 way a neighbour holds half the time lost
 * its L2's ways at seed 1 so): where a count bore the ways out, they stand
 * if the set a line short stops evicting the victim later (stops_later).
 * Where the ways are undone, so is the size, and the line stands (any set
 * that evicts the victim gives it).  0 (lv says what), -1 failed.
 */
static int a_line_short(struct run *rn, const struct mp_evset *e, struct level *lv, bool borne)
{
	unsigned enough = borne ? EVSET_SHORT_TESTS / 2 + 1 : 1;
	int st = short_evictions(rn, e, lv, enough);

	if (st < 0)
		return -1;
	if ((unsigned)st < enough)
		return 0;
	if (borne && (st = stops_later(rn, e, lv)) != 0)
		return st < 0 ? -1 : 0;
	return line_only(lv, borne ? "its minimal set a line short evicted the victim in most "
				     "tests (a replacement that does not always take the oldest "
				     "line)"
				   : "its minimal set a line short evicted the victim now and then "
				     "(a replacement that does not always take the oldest line, or a "
				     "thread sharing it)");
}

/*
 * The ways the count did not bear out (most of its classes' minimal sets
 * of another size): a second class's set must have as many lines
 * (corroborate), else the ways are not measured.  0 (lv says what), -1
 * failed.
 */
static int borne_out(struct run *rn, struct mp_evset *e, struct level *lv)
{
	const char *why = lv->why;
	int st;

	e->deadline = deadline(rn);
	e->late = false;
	if (pool_of(rn, lv) < 0 || (st = corroborate(rn, e, lv, lv->ways)) < 0)
		return -1;
	if (st == 1)
		return lv->why = why, 0;
	return not_held(lv, lv->why);
}

/* The tester with a tail inside the pages, where one fits and is whole: true. */
static bool inpage_tail(struct run *rn, struct level *lv, struct mp_evset *e)
{
	if (!inpage_fits(rn, lv))
		return false;
	tester(rn, lv, e);
	e->tail = tail;
	e->ntail = inpage_lines(rn, lv, tail);
	lv->inpage = e->ntail == EVSET_TAIL_FACTOR * lv->up_ways;
	return lv->inpage;
}

/* The level's pool taken from twice the pages, as the arena and its time allow: did it grow? */
static bool double_pool(const struct run *rn, struct level *lv, const struct mp_evset *e)
{
	return pool_grows[rn->c->cfg->profile] && mp_now(rn->c->p) < e->deadline &&
	       pages_times(rn, lv, 2, arena_pages(rn));
}

/*
 * The threshold (calibrate): where the whole pool does not evict the
 * victim, with a pool of twice the pages, as the arena and the level's
 * time allow (a last level shared with others, of which "levels" sees a
 * part), and once it does, twice that again, so that the other classes
 * too have more lines than the ways (the count; the L3 of test_probe_evset's
 * "shared" model lost its size without); where the candidates give none,
 * again with the tail inside the pages (inpage_tail).  0 (lv->why when
 * there is none), -1 failed.
 */
static int calibrated(struct run *rn, struct level *lv, struct mp_evset *e)
{
	bool grew = false;

	if (calibrate(rn, lv, e) < 0)
		return -1;
	while (lv->why == no_slower && double_pool(rn, lv, e)) {
		grew = true;
		lv->why = NULL;
		if (pool_of(rn, lv) < 0 || calibrate(rn, lv, e) < 0)
			return -1;
	}
	if (grew && !lv->why && double_pool(rn, lv, e) && pool_of(rn, lv) < 0)
		return -1;
	if (lv->why == no_slower && !pool_grows[rn->c->cfg->profile])
		lv->why = "the victim loads no slower after the whole pool (the full profile grows it)";
	if (!lv->why || !inpage_tail(rn, lv, e))
		return 0;
	lv->why = NULL;
	return calibrate(rn, lv, e);
}

/*
 * The geometry and the size with tester e (as calibrated); the tester the
 * victim's set was found with in *kept.  0 (lv says what), -1 failed.
 */
static int geometry_and_size(struct run *rn, struct level *lv, struct mp_evset e,
			     struct mp_evset *kept)
{
	bool borne = false;

	if (geometry(rn, &e, lv) < 0)
		return -1;
	*kept = e;
	if (lv->ways && size(rn, &e, lv, &borne) < 0)
		return -1;
	if (lv->ways && a_line_short(rn, kept, lv, borne) < 0)
		return -1;
	if (lv->ways && !borne && borne_out(rn, kept, lv) < 0)
		return -1;
	return 0;
}

/*
 * Does the victim's set still evict it?  Tested once, or where the count
 * found sets of another size or the ways rest on that set alone,
 * EVSET_HOLD_TRIES times EVSET_HOLD_REST_US
 * apart, so that a thread that held ways meanwhile may have gone.  1, 0,
 * -1 a run failed.
 */
static int still_evicts(struct run *rn, const struct level *lv, struct mp_evset *e)
{
	unsigned tries = lv->doubt || lv->alone ? EVSET_HOLD_TRIES : 1;

	for (unsigned i = 0; i < tries; i++) {
		int held;

		if (i && !mp_rest(rn->c->p, EVSET_HOLD_REST_US))
			return 1;       /* nothing else runs: the test stands */
		if ((held = evicts_mostly(e, rn->x, set, lv->ways)) != 1)
			return held;
	}
	return 1;
}

/*
 * The geometry and size, and the victim's set tested again once they are
 * done: a thread sharing the level that holds a way of every set it uses
 * (an SMT sibling on a virtual machine's host, for tens to hundreds of
 * milliseconds) leaves every minimal set found meanwhile a way short, the
 * victim's and the classes' alike, so the count's vote cannot see it (this
 * guest's 16-way L2 came out 15-way in 2 runs of 20).  Once it has gone,
 * such a set no longer evicts the victim, while a true one still does
 * (more lines in use can only take the victim's way sooner).  Then the
 * ways are more than that set's lines: all is looked for again, up to
 * EVSET_AGAIN times, and a set no larger is not believed.  0 (lv says
 * what), -1 failed.
 */
static int geometry_over_time(struct run *rn, struct level *lv, const struct mp_evset *calib,
			      struct mp_evset *kept)
{
	const struct level start = *lv;
	uint64_t short_of = 0;

	for (unsigned i = 0; ; i++) {
		int held;

		if (geometry_and_size(rn, lv, *calib, kept) < 0)
			return -1;
		if (lv->ways && lv->ways <= short_of)
			return not_held(lv, "its minimal sets came out a way short again "
					       "(a thread sharing it held ways)");
		if (!lv->ways || (held = still_evicts(rn, lv, kept)) == 1)
			return 0;
		if (held < 0)
			return -1;
		if (i == EVSET_AGAIN)
			return not_held(lv, "its minimal set stopped evicting the victim "
					       "(a thread sharing it held ways)");
		short_of = lv->ways;
		*lv = start;
		if (pool_of(rn, lv) < 0)
			return -1;
	}
}

/* Measure one level with victim rn->x: 0 (lv says what and why), -1 when a run failed. */
static int measure_with(struct run *rn, struct level *lv)
{
	struct mp_evset e, kept;

	tester(rn, lv, &e);
	if (pool_of(rn, lv) < 0 || calibrated(rn, lv, &e) < 0)
		return -1;
	if (lv->why)
		return 0;
	if (geometry_over_time(rn, lv, &e, &kept) < 0)
		return -1;
	keep_upper(rn, &kept, lv);
	return 0;
}

/*
 * Another victim, the line of the page before, where the first level
 * measured (no level above holds sets of this victim) was lost within
 * EVSET_QUICK_LOSS of its time: a victim whose set something else
 * keeps busy (our own page walks' lines, a host's thread) fails every
 * round alike, as every round takes the same victim.  On this project's
 * AMD EPYC guest 2 full-profile runs of 6 lost the L2 so, in 0.03 and 0.2
 * s.  A note says why the victim before was lost.  1 taken, 0 not, -1 a
 * run failed.
 */
static int another_victim(struct run *rn, const struct level *lv, unsigned tried, uint64_t t0)
{
	struct mp_evset e = { .c = rn->c, .base = rn->m.base };
	char text[MP_TEXT_LEN];
	struct mp_buf b;

	if (tried >= EVSET_VICTIMS || rn->x < rn->m.page_bytes ||
	    mp_seconds_since(rn->c->p, t0) > EVSET_QUICK_LOSS * level_seconds[rn->c->cfg->profile])
		return 0;
	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "evset: L%d: victim %llu not measured (%s): another taken",
		      (int)lv->level, (unsigned long long)tried, lv->why);
	mp_result_add_note(rn->c->r, text);
	rn->x -= rn->m.page_bytes;
	return mp_evset_hit(&e, rn->x, &rn->hit) < 0 ? -1 : 1;
}

/* Measure one level: 0 (lv says what and why), -1 when a run failed. */
static int measure(struct run *rn, struct level *lv)
{
	const struct level start = *lv;
	uint64_t t0 = mp_now(rn->c->p);
	bool movable = !rn->up.m;   /* no level above was measured with this victim */

	if (lv->level > 2 && !rn->up.m)
		return lv->why = "the level above was not measured here", 0;
	for (unsigned tried = 1; ; tried++) {
		int moved;

		if (measure_with(rn, lv) < 0)
			return -1;
		if (lv->ways || !movable || (moved = another_victim(rn, lv, tried, t0)) == 0)
			return 0;
		if (moved < 0)
			return -1;
		*lv = start;
	}
}

/* Did compact sets measure the level (size, ways and line)? */
static bool compact_measured(const struct mp_cache *rec)
{
	return rec && rec->size_bytes > 0 && rec->ways > 0 && rec->line_bytes > 0;
}

static bool agree(const struct mp_cache *rec, const struct level *lv)
{
	return (!lv->ways || rec->ways == (int64_t)lv->ways) &&
	       (!lv->line || rec->line_bytes == (int64_t)lv->line) &&
	       (!lv->size || rec->size_bytes == (int64_t)lv->size);
}

static int64_t or_na(uint64_t v)
{
	return v ? (int64_t)v : MP_NA;
}

static void record(struct mp_cache *rec, const struct level *lv)
{
	rec->size_bytes = or_na(lv->size);
	rec->ways = or_na(lv->ways);
	rec->line_bytes = or_na(lv->line);
	rec->method = MP_METHOD_EVSETS;
}

/* The level in the probe's message: what was measured, what not and why. */
static void describe(struct mp_buf *b, const struct level *lv)
{
	mp_buf_printf(b, "%sL%d ", b->len ? "; " : "", (int)lv->level);
	if (!lv->ways && lv->line) {
		mp_buf_printf(b, "%llu B line; ways and size not measured: %s",
			      (unsigned long long)lv->line, lv->why);
		return;
	}
	if (!lv->ways) {
		mp_buf_printf(b, "not measured: %s", lv->why);
		return;
	}
	if (lv->size) {
		mp_buf_size(b, lv->size);
		mp_buf_putc(b, ' ');
	}
	mp_buf_printf(b, "%llu-way", (unsigned long long)lv->ways);
	if (lv->line)
		mp_buf_printf(b, " %llu B", (unsigned long long)lv->line);
	if (!lv->line)
		mp_buf_puts(b, "; line not measured");
	if (lv->why)
		mp_buf_printf(b, "; size not measured: %s", lv->why);
}

/* The method the level's values come from, and why, in a note. */
static void note_method(struct run *rn, const struct level *lv, const char *method)
{
	uint64_t page = rn->m.page_bytes;
	char text[MP_TEXT_LEN];
	struct mp_buf b;

	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "evset: L%d: %s", (int)lv->level, method);
	if (lv->sharing > 1)
		mp_buf_printf(&b, "; lines of %llu of a page's %llu line offsets share each set",
			      (unsigned long long)lv->sharing, (unsigned long long)(page / lv->line));
	if (lv->classes)
		mp_buf_printf(&b, "; %llu congruence classes at a page offset",
			      (unsigned long long)lv->classes);
	if (lv->alone)
		mp_buf_puts(&b, "; its ways rest on the victim's minimal set alone "
				"(no second class's set bore them out)");
	mp_result_add_note(rn->c->r, text);
}

static void note_disagree(struct mp_ctx *c, const struct mp_cache *rec, const struct level *lv)
{
	char text[MP_TEXT_LEN];
	struct mp_buf b;

	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "evset: L%d: eviction sets found %llu-way, %llu B lines, ", (int)lv->level,
		      (unsigned long long)lv->ways, (unsigned long long)lv->line);
	mp_buf_size(&b, lv->size);
	mp_buf_printf(&b, "; compact sets in contiguous memory found %lld-way, %lld B lines, ",
		      (long long)rec->ways, (long long)rec->line_bytes);
	mp_buf_size(&b, (uint64_t)rec->size_bytes);
	mp_buf_puts(&b, ", and stand");
	mp_result_add_note(c->r, text);
}

/* Which method the level's values come from, and why; the record updated. */
static const char *settle(struct run *rn, struct mp_cache *rec, const struct level *lv)
{
	if (rn->contiguous && compact_measured(rec)) {
		if (lv->ways && !agree(rec, lv))
			note_disagree(rn->c, rec, lv);
		return lv->ways ? (agree(rec, lv) ? "compact sets and eviction sets agree"
						  : "compact sets stand; eviction sets disagree")
				: "compact sets stand";
	}
	/* A whole record is not traded for one without a size that agrees with it. */
	if (lv->ways && !lv->size && compact_measured(rec) && agree(rec, lv))
		return "the record stands; eviction sets agree on ways and line, size not measured";
	if (lv->ways)
		record(rec, lv);
	if (!lv->ways && lv->line && rec->line_bytes <= 0) {
		rec->line_bytes = (int64_t)lv->line;
		rec->method = MP_METHOD_EVSETS;
	}
	if (!rn->contiguous)
		return "eviction sets: memory is not physically contiguous";
	return "eviction sets: compact sets did not measure it";
}

static uint64_t most_ways(struct run *rn, int32_t level)
{
	uint64_t w = rn->l1_ways;

	for (int32_t k = 2; k < level; k++) {
		const struct mp_cache *rec = level_rec(rn->c->r, k);

		w = rec && rec->ways > (int64_t)w ? (uint64_t)rec->ways : w;
	}
	return w;
}

/*
 * Pages a level's pool takes: EVSET_POOL_FACTOR times its effective
 * capacity, at least EVSET_MIN_PAGES (on scattered frames "levels" can
 * find a level a third of its size), and for the L2 times the L1's colours
 * (only the victim's colour is kept).
 */
static uint64_t pool_pages(const struct run *rn, int32_t level, uint64_t effective, uint64_t page)
{
	uint64_t n = EVSET_POOL_FACTOR * effective / page, colours = rn->l1_way / page;

	n = n > EVSET_MIN_PAGES ? n : EVSET_MIN_PAGES;
	return level == 2 && colours > 1 ? n * colours : n;
}

/* The level's inputs from the records; false when the latencies are not known. */
static bool level_of(struct run *rn, int32_t level, struct level *lv)
{
	const struct mp_cache *rec = level_rec(rn->c->r, level);
	uint64_t pages = rn->usual;

	if (!rec || rec->effective_size_bytes <= 0 || mp_is_na(rec->latency_ns))
		return false;
	*lv = (struct level){ .level = level, .sharing = 1,
			      .lat = ns_to_ticks(rn->c->p, rec->latency_ns),
			      .next = next_latency(rn->c, level), .up_ways = most_ways(rn, level) };
	lv->pages = pool_pages(rn, level, (uint64_t)rec->effective_size_bytes, rn->m.page_bytes);
	lv->pages = lv->pages < pages ? lv->pages : pages;
	return !mp_is_na(lv->next);
}

/*
 * A level not measured whose documented size takes more pages than its
 * pool has to hold its ways' lines in every class at a page offset (size /
 * ways / page classes): a last level shared with others, of which "levels"
 * sees a small part.  Then that is why, and a note gives the figures.
 */
static void pool_short(struct run *rn, struct level *lv)
{
	const struct mp_cache *d = mp_result_documented_cache(rn->c->r, lv->level);
	uint64_t page = rn->m.page_bytes, classes, need;
	char text[MP_TEXT_LEN];
	struct mp_buf b;

	if (lv->ways || !d || d->size_bytes <= 0 || d->ways <= 0)
		return;
	classes = (uint64_t)d->size_bytes / (uint64_t)d->ways / page;
	need = (classes ? classes : 1) * (uint64_t)d->ways;
	if (need <= lv->pages)
		return;
	lv->why = pool_grows[rn->c->cfg->profile] ?
		"its pool is too small for the documented size" :
		"its pool is too small for the documented size (the full profile grows it)";
	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "evset: L%d: a pool of %llu pages holds no eviction set of the "
			  "documented ", (int)lv->level, (unsigned long long)lv->pages);
	mp_buf_size(&b, (uint64_t)d->size_bytes);
	mp_buf_printf(&b, " %d-way level: that takes ~%llu pages (the arena has %llu)",
		      (int)d->ways, (unsigned long long)need,
		      (unsigned long long)(rn->c->cfg->arena_bytes / page));
	mp_result_add_note(rn->c->r, text);
}

static void levels(struct run *rn)
{
	struct mp_buf msg;

	mp_buf_init(&msg, rn->c->self->message, sizeof(rn->c->self->message));
	for (int32_t i = 2; i <= MP_MAX_CACHES; i++) {
		struct level lv;

		mp_progress(rn->c->p, "evset", (uint64_t)(i - 2), MP_MAX_CACHES - 1);
		if (!level_of(rn, i, &lv))
			break;
		if (measure(rn, &lv) < 0)
			return mp_probe_fail(rn->c, "the platform failed a run");
		pool_short(rn, &lv);
		note_method(rn, &lv, settle(rn, level_rec(rn->c->r, i), &lv));
		describe(&msg, &lv);
	}
	if (!msg.len)
		mp_buf_puts(&msg, "no level below the L1 has the effective capacity and the "
				  "latencies, its own and the next's, that a pool is made from (probe levels)");
	mp_progress(rn->c->p, "evset", MP_MAX_CACHES - 1, MP_MAX_CACHES - 1);
}

/* Does the platform give physically contiguous memory (then compact sets work)? */
static bool contiguous(struct mp_ctx *c)
{
	struct mp_mem_req req = { .bytes = 2 * MP_PAGE_BYTES_2M, .align = 4096,
				  .page = MP_PAGE_2M, .contiguous = true };
	struct mp_mem m;
	bool yes;

	if (c->p->ops->mem_alloc(c->p, &req, &m) != MP_OK)
		return false;
	yes = m.contiguous;
	c->p->ops->mem_free(c->p, &m);
	return yes;
}

/*
 * Bytes of the largest level's pool by its effective capacity, reckoned
 * in 4K pages, and a page for the victim (the last of them).
 */
static uint64_t usual_bytes(const struct run *rn)
{
	uint64_t most = 0;

	for (int32_t i = 2; i <= MP_MAX_CACHES; i++) {
		const struct mp_cache *rec = level_rec(rn->c->r, i);
		uint64_t n = rec && rec->effective_size_bytes > 0
			? pool_pages(rn, i, (uint64_t)rec->effective_size_bytes, MP_PAGE_BYTES_4K) : 0;

		most = n > most ? n : most;
	}
	return (most + 1) * MP_PAGE_BYTES_4K;
}

/*
 * The memory pools are taken from, as far as the arena and the pool's
 * table go: the usual pools (usual_bytes), or where a pool may grow past
 * them (calibrated) all of it: on this project's AMD EPYC guest the L3,
 * of which "levels" sees 8 to 16M of 32M, took 24576 to 65536 pages.
 */
static uint64_t pool_bytes(const struct mp_ctx *c, const struct run *rn)
{
	uint64_t cap = (uint64_t)MP_EVSET_MAX_POOL * MP_PAGE_BYTES_4K, want;

	cap = c->cfg->arena_bytes < cap ? c->cfg->arena_bytes : cap;
	want = pool_grows[c->cfg->profile] ? cap : usual_bytes(rn);
	return want < cap ? want : cap;
}

/* Pages of the usual pools, the victim's included, as far as the arena goes. */
static uint64_t usual_pages(const struct run *rn)
{
	uint64_t page = rn->m.page_bytes, pages = (usual_bytes(rn) + page - 1) / page;

	return pages < arena_pages(rn) ? pages : arena_pages(rn);
}

static bool l1_known(struct mp_ctx *c, struct run *rn)
{
	const struct mp_cache *l1 = mp_result_find_cache(c->r, 1, MP_KIND_DATA);

	if (!l1 || l1->ways <= 0 || l1->size_bytes <= 0 || mp_is_na(l1->latency_ns))
		return false;
	rn->l1_ways = (uint64_t)l1->ways;
	rn->l1_way = (uint64_t)(l1->size_bytes / l1->ways);
	rn->l1_lat = ns_to_ticks(c->p, l1->latency_ns);
	return true;
}

/*
 * The round's victim: the first line of a page at the end of the usual
 * pools, each round's EVSET_VICTIMS pages before the last round's (room
 * for its other victims: another_victim), so that a victim whose set
 * something keeps busy spoils one round's vote, not all of them.  On this
 * project's AMD EPYC guest, with one victim for every round, the quick
 * profile recorded the L2 as 15-way for 16 in 2 rounds of 2 (its ways
 * rested on the victim's set alone, which a line in use all along, the
 * run's own or a neighbour's, makes a line short).
 */
static uint64_t victim_of(const struct run *rn, unsigned round)
{
	uint64_t back = (uint64_t)round * EVSET_VICTIMS;

	return (back < rn->usual ? rn->usual - 1 - back : rn->usual - 1) * rn->m.page_bytes;
}

void mp_probe_evset(struct mp_ctx *c)
{
	static struct run rn;
	struct mp_evset e;

	rn = (struct run){ .c = c };
	if (c->round == 0)
		mp_memset(ran_out, 0, sizeof(ran_out));
	if (!l1_known(c, &rn))
		return mp_probe_unsupported(c, "needs the L1's ways and latency (probes latency, l1)");
	if (!level_rec(c->r, 2) || mp_is_na(level_rec(c->r, 2)->latency_ns))
		return mp_probe_unsupported(c, "needs the levels' latencies (probe levels)");
	rn.contiguous = contiguous(c);
	if (mp_probe_alloc(c, pool_bytes(c, &rn), MP_PAGE_4K, &rn.m) != MP_OK)
		return;
	rn.usual = usual_pages(&rn);
	rn.x = victim_of(&rn, c->round);
	e = (struct mp_evset){ .c = c, .base = rn.m.base };
	if (mp_evset_hit(&e, rn.x, &rn.hit) < 0)
		mp_probe_fail(c, "the platform could not run a chase");
	else
		levels(&rn);
	c->p->ops->mem_free(c->p, &rn.m);
}
