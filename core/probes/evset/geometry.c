/* SPDX-License-Identifier: MIT */
/*
 * Probe "evset": the victim's minimal set (core/probes/evset/run.h), its
 * ways and line, tested again before it is believed and, where the count
 * did not, borne out by other classes' sets.
 */
#include "core/lib/fmath.h"
#include "core/lib/str.h"
#include "core/probes/evset/run.h"

/* Tests a set of one line must pass, each of them (one_way). */
#define EVSET_ONE_WAY_TESTS 10u
/* Sets looked for (held_set). */
#define EVSET_ATTEMPTS 3u
/* The second class's victims tried at most (evset_corroborate). */
#define EVSET_SECOND 4u
/* The second class's set and tail (evset_corroborate); the tail picked again (tail_round). */
static uint64_t set2[MP_EVSET_MAX_POOL], tail2[UPPER_TAIL], again[UPPER_TAIL];

/* Does the set evict x in most of EVSET_RECHECKS tests?  1, 0, -1 a run failed. */
int evset_evicts_mostly(struct mp_evset *e, uint64_t x, const uint64_t *s, uint64_t m)
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
 * A set of one line leaves a replacement no choice: in a direct-mapped set
 * the line evicts the victim in every test, and the victim the line, and
 * the tail alone evicts neither.  One fast test disproves it (interference
 * only adds time).  On the Zen 3 guest (AMD EPYC, family 25 model 1) single
 * lines of the victim's page offset evicted it in 5 to 10 tests of 10 and
 * were evicted by it in 5 to 10: AMD's L1D way predictor, which keeps one
 * line of a virtual-address hash (a utag) in a set (Lipp et al., "Take A
 * Way", AsiaCCS 2020), with a neighbour's noise; evset recorded the L2
 * 1-way in one quick run of 20.  1 holds up, 0 not, -1 a run failed.
 */
static int one_way_once(struct mp_evset *e, uint64_t x, uint64_t y)
{
	int ev = mp_evset_evicts(e, x, &y, 1), alone;

	if (ev == 1)
		ev = mp_evset_evicts(e, y, &x, 1);
	if (ev != 1)
		return ev;
	alone = mp_evset_evicts(e, x, &y, 0);
	return alone < 0 ? -1 : !alone;
}

static int one_way(struct mp_evset *e, uint64_t x, uint64_t y)
{
	int held = 1;

	for (unsigned i = 0; i < EVSET_ONE_WAY_TESTS && held == 1; i++)
		held = one_way_once(e, x, y);
	return held;
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
	if (m == 1)
		return one_way(e, x, s[0]);
	if ((most = evset_evicts_mostly(e, x, s, m)) < 0 ||
	    (less = mp_evset_unneeded(e, x, s, m)) < 0)
		return -1;
	return most && less == 0;
}

/*
 * A minimal set for victim x that holds up, looked for EVSET_ATTEMPTS
 * times (a search whose reductions all lost the eviction is one of them);
 * into out, its size in *mm.  1 found and held up, 2 found but none held
 * up (the last in out; lv->why), 0 not found (lv->why), -1 failed.
 */
static int held_set(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t x,
		    uint64_t *out, uint64_t *mm)
{
	int st = 0;

	for (unsigned i = 0; i < EVSET_ATTEMPTS; i++) {
		int held = 0;

		if ((st = mp_evset_find(e, x, rn->pool, lv->n, out, mm)) < 0)
			return -1;
		if (st == 0 || st == 2)
			return lv->why = evset_find_why[st], 0;
		if (st == 1 && (held = repeatable(e, x, out, *mm)) != 0)
			return held;
	}
	if (st == 3)
		return lv->why = evset_find_why[3], 0;
	lv->why = "no minimal set held up when tested again";
	return 2;
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
	uint64_t want = evset_tail_lines(lv);

	*nv = 0;
	*nt = 0;
	tail2[(*nt)++] = rn->x;
	for (uint64_t i = 0; i < m && *nt < UPPER_TAIL; i++)
		tail2[(*nt)++] = rn->set[i];
	for (uint64_t i = 0; i < lv->n && (*nt < want || *nv < EVSET_SECOND); i++) {
		uint64_t y = rn->pool[i];
		int in = mp_evset_member(rn->set, m, y) ? 3 : evicted_twice(e, rn->set, m, y);

		if (in < 0)
			return -1;
		if (in == 1 && *nt < want && *nt < UPPER_TAIL)
			tail2[(*nt)++] = y;
		if (in == 0 && *nv < EVSET_SECOND)
			vs[(*nv)++] = y;
	}
	return !*nv ? 2 : *nt >= want;
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
 * and its set is tested over time (measure.c, still_evicts).  1 borne out (or
 * alone), 0 not (lv->why), -1 failed.
 */
int evset_corroborate(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t m)
{
	struct mp_evset e2 = *e;
	uint64_t vs[EVSET_SECOND], m2 = 0;
	unsigned nv, agree = 0, other = 0;
	int st = second_class(rn, e, lv, m, &e2.ntail, vs, &nv);

	if (st < 0)
		return -1;
	if (st != 1) {
		lv->alone = true;       /* tested over time instead (measure.c) */
		return 1;
	}
	evset_pool_without(rn, lv, tail2, e2.ntail); /* a tail is disjoint from every set */
	evset_pool_without(rn, lv, vs, nv);     /* a victim in its pool is loaded again by it */
	e2.tail = tail2;
	for (unsigned i = 0; i < nv && agree <= other && other < 2; i++) {
		if ((st = held_set(rn, &e2, lv, vs[i], set2, &m2)) < 0)
			return -1;
		agree += st == 1 && m2 == m;
		other += st == 1 && m2 != m;
	}
	if (agree > other)
		return 1;
	lv->why = other ? "other classes' minimal sets have another size" :
		  e2.late ? evset_find_why[2] : "no other class's minimal set was found to bear the ways out";
	return 0;
}

/*
 * The shortest prefix of the pool that evicts the victim, in *p; where
 * none does, the pool taken from twice the pages, as the arena allows:
 * its size follows the level's effective capacity, and where an index
 * spreads one offset's lines over more classes (size.c, sharing_offsets), the
 * victim's class may get too few of them.  On this project's AMD EPYC
 * guest (64 classes at an offset for the L2's 16 ways), 2048 pages left
 * some 32 lines in its class, and the whole pool failed its test in 1 of
 * 9 instrumented runs.  1, 0 none, -1 a run failed.
 */
static int evicting_prefix(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t *p)
{
	int st;

	while ((st = mp_evset_prefix(e, rn->x, rn->pool, lv->n, p)) == 0 && !e->late &&
	       evset_more_pages(rn, lv, 2))
		if (evset_pool_of(rn, lv) < 0)
			return -1;
	return st;
}

/* Rounds of the tail picked again with the victim's set and the set looked for again (settled_set). */
#define EVSET_TAIL_ROUNDS 3u
/* A round's outcome (tail_round): the set holds up with a tail picked with it. */
#define SETTLED 3

/*
 * One round of the tail picked again with the victim's set (*mm lines in
 * rn->set; held: it held up with the tail it was found with): the
 * candidates the set does not evict, of no class it evicts, the victim's
 * above all.  A held set must hold up with the new tail as after its
 * search (repeatable); else, or where it did not hold up, the set is
 * looked for again with the new tail, which becomes the level's, where
 * `search`.  SETTLED (the tail stands where too few are found for a new
 * one), or as held_set.
 */
static int tail_round(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t *mm,
		      bool held, bool search)
{
	struct mp_evset t = *e;
	int st = 0;

	if (evset_pick_tail(rn, e, lv, rn->set, *mm, held ? EVSET_BY_SET : EVSET_BY_UNHELD, again,
			    &t.ntail) < 0)
		return -1;
	if (t.ntail < e->ntail)
		return held ? SETTLED : 0;
	t.tail = again;
	if (held && (st = repeatable(&t, rn->x, rn->set, *mm)) < 0)
		return -1;
	if (!st && !search)
		return lv->why = "its minimal set did not hold up with a tail picked with it", 0;
	if (!st && (st = held_set(rn, &t, lv, rn->x, rn->set, mm)) <= 0)
		return st;
	mp_memcpy(rn->tail, again, t.ntail * sizeof(*again));
	e->ntail = t.ntail;
	return held && st == 1 ? SETTLED : st;
}

/*
 * The victim's set settled with its tail: the tail it was found with may
 * hold lines of the victim's class (picked with a stand-in's set that did
 * not evict every line of the class, or with a prefix that left the class
 * under its threshold).  Each such line takes a way, and the set comes
 * out as many ways short (a simulated 3M 12-way victim L3 under a 256K
 * 4-way L2 came out 10-way, its class left with too few candidates for
 * another class to bear the ways out).  A prefix may also leave one other
 * class alone under its threshold, and a tail of that class's lines
 * alone, as many as the ways, makes the set seem to evict that class too
 * (a simulated 8M 16-way victim L3's first class counted took 21 of
 * another's 37 candidates so, and its size was lost).  So the tail is
 * picked again with the set found (tail_round), spread over the other
 * classes, and the set looked for again with it, EVSET_TAIL_ROUNDS times
 * at most, until the set holds up with a tail picked with it; a set that
 * did not hold up picks one too (a victim L3 of four classes to one
 * above, found with a tail of three lines of its class, came out a
 * 28-line set of 14 of them; the tail picked with it had one, and the set
 * found with that, 15 of 16).  A set found in the last round must still
 * hold up with a tail picked with it, without another search: one found
 * with a tail of two lines of the victim's class held up with it, and a
 * 16-way victim L3 came out 14-way.  Asking a held set only to evict in
 * most tests was not enough either: the simulated Core i7 whose L2 way a
 * neighbour holds now and then kept a set a way short, and its L2 came
 * out 7-way.  1 (the set in rn->set, its size in *mm), 0 not (lv->why),
 * -1 failed.
 */
static int settled_set(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t *mm,
		       int st)
{
	for (unsigned r = 0; r <= EVSET_TAIL_ROUNDS && (st == 1 || st == 2); r++)
		st = tail_round(rn, e, lv, mm, st == 1, r < EVSET_TAIL_ROUNDS);
	if (st == SETTLED)
		lv->why = NULL;
	return st < 0 ? -1 : st == SETTLED;
}

const char evset_past_next[] = "its minimal set takes the victim past the next level too: a "
				"lower level's (a clock too coarse to tell this level's hits "
				"from the next's)";

/*
 * Does the victim's minimal set take it past the next level too?  Then it
 * is a lower level's set: the threshold told that level's hits from the
 * one after, not this level's from the next (a clock whose step is wider
 * than the gap between the two: on this project's Zen 3 guest, a TSC in
 * steps of 24.5 ticks, an L1 hit read 49 or 73 and an L2 hit 73, and
 * where the l1 probe failed, evset's L1 threshold fell between the L2's
 * reads and the L3's, and the L2's 512K 8-way was recorded as the L1's).
 * Past it where the victim's reads after the set (their middle half's
 * mean: a median is a step of such a clock) lie nearer the latency after
 * the next than the next, by their geometric mean.  1 past (lv->why, a
 * note), 0 not, -1 failed.
 */
static int past_next(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t mm)
{
	double bound;
	struct mp_evset_times t;
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	if (mp_is_na(lv->next) || mp_is_na(lv->after))
		return 0;
	if (mp_evset_time(e, rn->x, rn->set, mm, MP_EVSET_MAX_TRIES, &t) < 0)
		return -1;
	bound = evset_read_of(rn, mp_sqrt(lv->next * lv->after));
	if (t.midmean <= bound)
		return 0;
	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "evset: L%d: after its minimal set the victim read %.0f ticks, past "
			  "%.0f (the next level's hit reads about %.0f, the one after's %.0f)",
		      (int)lv->level, t.midmean, bound, evset_read_of(rn, lv->next),
		      evset_read_of(rn, lv->after));
	mp_result_add_note(rn->c->r, text);
	lv->why = evset_past_next;
	return 1;
}

/*
 * The victim's minimal set with a tail (picked with the shortest prefix
 * of the pool that evicts the victim without one, then again with that
 * set: settled_set): its ways and line.  0 (what is missing in lv->why),
 * -1 when a run failed.
 */
int evset_geometry(struct run *rn, struct mp_evset *e, struct level *lv)
{
	uint64_t p = 0, nt = 0, mm = 0;
	int st = evicting_prefix(rn, e, lv, &p);

	if (st != 1)
		return st < 0 ? -1 : (lv->why = evset_find_why[e->late ? 2 : 0], 0);
	if (!lv->inpage) {           /* else the tail inside the pages stands */
		if (evset_tail_of(rn, e, lv, p, &nt) < 0)
			return -1;
		if (lv->why)
			return 0;
		e->tail = rn->tail;
		e->ntail = nt;
	}
	st = held_set(rn, e, lv, rn->x, rn->set, &mm);
	if (!lv->inpage)
		st = settled_set(rn, e, lv, &mm, st);
	if (st != 1)
		return st < 0 ? -1 : 0;
	if ((st = past_next(rn, e, lv, mm)) != 0)
		return st < 0 ? -1 : 0;
	if (mp_evset_line(e, rn->x, &lv->line) < 0)
		return -1;
	lv->ways = mm;
	return 0;
}

/* Keep this level's tester, set, tail and classes for the next. */
void evset_keep_upper(struct run *rn, const struct mp_evset *e, const struct level *lv)
{
	rn->up.m = 0;
	if (!lv->ways || lv->ways > UPPER_SET || e->ntail > UPPER_TAIL)
		return;
	rn->up.e = *e;
	mp_memcpy(rn->up.set, rn->set, lv->ways * sizeof(*rn->set));
	mp_memcpy(rn->up.tail, rn->tail, e->ntail * sizeof(*rn->tail));
	rn->up.e.tail = rn->up.tail;
	rn->up.e.deadline = 0;
	rn->up.m = lv->ways;
	rn->up.classes = lv->size ? lv->classes : 0;
	rn->up.sharing = lv->sharing;
}
