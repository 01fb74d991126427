/* SPDX-License-Identifier: MIT */
/*
 * Minimal sets out of a pool, and the congruence classes among the pool's
 * candidates: one minimal set per class, each class's candidates removed
 * by testing them against it (docs/algorithms.md, "Eviction sets").
 */
#include "core/lib/str.h"
#include "core/probes/evset/evset.h"

/* The first prefix of the pool tried as an eviction set: this fraction of it. */
#define EVSET_PREFIX_DIV 16u
/* Reductions of one victim's set, each from the start, before it is given up. */
#define EVSET_FIND_TRIES 3u

/*
 * The first classes, kept to recognise their stragglers and their lines
 * found again: each class's minimal set, then members it removed from the
 * pool, up to twice its lines in all (docs/algorithms.md, "Eviction sets",
 * classes).
 */
#define KEPT_CLASSES 512u
#define KEPT_LINES 64u

static uint64_t set[MP_EVSET_MAX_POOL];
static uint64_t victims[MP_EVSET_MAX_CLASSES];
static uint64_t kept[KEPT_CLASSES][KEPT_LINES];
static uint64_t kept_n[KEPT_CLASSES];    /* lines kept */
static uint64_t kept_m[KEPT_CLASSES];    /* of which the minimal set's, first */
/* The tail of a count: lines of the classes counted, tail_want at most (take_tail). */
static uint64_t tail[KEPT_CLASSES];
static uint64_t tail_want;
/*
 * Victims whose class was not found, set aside at most (set_aside): 16,
 * and one more for every EVSET_ASIDE_PER classes counted.  On this
 * project's AMD EPYC guest a count of the L2's 64 classes at a page
 * offset set aside 9 (a reduction lost on a busy host about one victim in
 * eight), and with 4 it stopped at 11 to 56 classes; on a later guest
 * (Zen 3, 128 classes) reductions lost about one victim in five, and 16
 * stopped the full profile's counts at 87 and 112 classes (with the more,
 * 101 to 127, and the quick profile's all 128 once in 20 runs).
 */
#define EVSET_ASIDE 16u
#define EVSET_ASIDE_PER 4u
static uint64_t aside[EVSET_ASIDE + MP_EVSET_MAX_CLASSES / EVSET_ASIDE_PER];
static unsigned naside;
/*
 * The screen's answers for the pool (mp_evset_screen), at least this many
 * times the ways to a try (batch_of; the screen takes 64 at most): a class
 * that gets more than its ways of a batch makes its lines look evicted,
 * which only costs their tests alone.
 */
static bool slow[MP_EVSET_MAX_POOL];
#define EVSET_BATCH_WAYS 4u
/*
 * The victims of the classes counted and the kept lines of them all, each
 * tested at once against a new class's set (seen_none), and the screen's
 * answers for those victims.
 */
static uint64_t counted_victims[MP_EVSET_MAX_CLASSES];
static uint64_t kept_union[KEPT_CLASSES * KEPT_LINES];
static bool victim_slow[MP_EVSET_MAX_CLASSES];
/* Classes counted before the pace is judged (too_slow). */
#define EVSET_PACE_AFTER 4u
/*
 * Classes counted before the pool's depth is judged (thin: before the
 * pace, which a pool that grows makes anew), and the odds, at most, that
 * some class of the pool has no more candidates than the ways (deep_enough).
 */
#define EVSET_THIN_AFTER EVSET_PACE_AFTER
#define EVSET_THIN_ODDS 0.01
#define EVSET_E_INV 0.36787944117144233 /* e^-1 */

int mp_evset_prefix(struct mp_evset *e, uint64_t victim, const uint64_t *pool, uint64_t n,
		    uint64_t *p)
{
	int ev;

	*p = n / EVSET_PREFIX_DIV ? n / EVSET_PREFIX_DIV : n;
	while ((ev = mp_evset_confirmed(e, victim, pool, *p)) == 0 && *p < n && !mp_evset_late(e))
		*p = 2 * *p < n ? 2 * *p : n;
	return ev;
}

int mp_evset_find(struct mp_evset *e, uint64_t victim, const uint64_t *pool, uint64_t n,
		  uint64_t *out, uint64_t *m)
{
	int st = 2;

	for (unsigned i = 0; i < EVSET_FIND_TRIES && st == 2; i++) {
		uint64_t p;
		int ev = mp_evset_prefix(e, victim, pool, n, &p);

		if (ev <= 0)
			return ev < 0 ? -1 : e->late ? 2 : 0;
		/* A prefix with barely the ways' lines evicts barely: twice as many the next time. */
		p = p << i < n ? p << i : n;
		mp_memcpy(out, pool, p * sizeof(*pool));
		*m = p;
		st = mp_evset_reduce(e, victim, out, m);
	}
	return st < 0 ? -1 : st == 0 ? 1 : st == 1 ? 2 : 3;
}

int mp_evset_confirmed(struct mp_evset *e, uint64_t victim, const uint64_t *s, uint64_t m)
{
	int ev = mp_evset_evicts(e, victim, s, m);

	return ev == 1 ? mp_evset_evicts(e, victim, s, m) : ev;
}

int mp_evset_evicts_own(struct mp_evset *e, uint64_t victim, const uint64_t *s, uint64_t m)
{
	int ev = mp_evset_confirmed(e, victim, s, m), alone;

	if (ev != 1)
		return ev;
	alone = mp_evset_tail_evicts(e, victim);
	return alone < 0 ? -1 : !alone;
}

/* Does the set evict the victim in most of three tests?  1, 0, -1 a run failed. */
static int mostly(struct mp_evset *e, uint64_t victim, const uint64_t *s, uint64_t m)
{
	int yes = 0, no = 0;

	while (yes < 2 && no < 2) {
		int ev = mp_evset_evicts(e, victim, s, m);

		if (ev < 0)
			return -1;
		yes += ev;
		no += !ev;
	}
	return yes == 2;
}

/* Does the tail hold lines of kept class i (then they may evict its victim alone)? */
static bool in_tail(const struct mp_evset *e, uint64_t i)
{
	if (e->tail != tail)
		return false;           /* no tail of classes' lines (yet) */
	if (i >= KEPT_CLASSES)
		return true;            /* its lines are not known: as if there */
	for (uint64_t j = 0; j < kept_n[i]; j++)
		if (mp_evset_member(e->tail, e->ntail, kept[i][j]))
			return true;
	return false;
}

/* A test that cannot be made (seen): no victim to try, or no lines kept. */
#define UNTESTED 2

/*
 * Does the set evict class i's victim in most of three tests (UNTESTED:
 * the tail holds its lines)?
 */
static int evicts_victim(struct mp_evset *e, uint64_t i, const uint64_t *s, uint64_t m)
{
	return in_tail(e, i) ? UNTESTED : mostly(e, victims[i], s, m);
}

/* Do class i's kept lines evict x in most of three tests (UNTESTED: none kept)? */
static int kept_evict(struct mp_evset *e, uint64_t i, uint64_t x)
{
	return i < KEPT_CLASSES && kept_n[i] ? mostly(e, x, kept[i], kept_n[i]) : UNTESTED;
}

/*
 * Is x's set class i's, asked both ways: 1 yes, 0 no, 2 the two ways
 * disagree; where one way cannot be asked (the tail holds class i's
 * lines, or none were kept), the other's answer.  -1 a run failed.
 */
static int same_class(struct mp_evset *e, uint64_t x, const uint64_t *s, uint64_t m, uint64_t i)
{
	int fwd = evicts_victim(e, i, s, m), back = fwd < 0 ? 0 : kept_evict(e, i, x);

	if (fwd < 0 || back < 0)
		return -1;
	if (fwd == UNTESTED)
		return back == UNTESTED ? 0 : back;
	if (back == UNTESTED)
		return fwd;
	return fwd == back ? fwd : 2;
}

/*
 * A class counted other than i and i2, whose victim the set s must not
 * evict for i to be s's class (a noisy host evicts every victim for a
 * while); 1 it does not (or there is none to ask), 0 it does, -1 failed.
 */
static int control(struct mp_evset *e, const uint64_t *s, uint64_t m, uint64_t i, uint64_t i2,
		   uint64_t counted)
{
	for (uint64_t j = 0; j < counted && j < MP_EVSET_MAX_CLASSES; j++) {
		int ev = j == i || j == i2 ? UNTESTED : evicts_victim(e, j, s, m);

		if (ev != UNTESTED)
			return ev < 0 ? -1 : !ev;
	}
	return 1;
}

/* Do the kept lines of every class counted evict x in either of two tests?  1, 0, -1 failed. */
static int kept_evict_any(struct mp_evset *e, uint64_t x, uint64_t counted)
{
	uint64_t k = 0;
	int ev = 0;

	for (uint64_t i = 0; i < counted && i < KEPT_CLASSES; i++) {
		mp_memcpy(kept_union + k, kept[i], kept_n[i] * sizeof(*kept_union));
		k += kept_n[i];
	}
	for (unsigned r = 0; r < 2 && ev == 0; r++)
		ev = mp_evset_evicts(e, x, kept_union, k);
	return ev;
}

/*
 * Does the set evict, in either of two screens, the victim of any class
 * counted whose lines the tail does not hold?  1, 0, -1 failed.
 */
static int evicts_any_victim(struct mp_evset *e, const uint64_t *s, uint64_t m,
			     uint64_t counted)
{
	uint64_t k = 0;

	for (uint64_t i = 0; i < counted && i < MP_EVSET_MAX_CLASSES; i++)
		if (!in_tail(e, i))
			counted_victims[k++] = victims[i];
	for (unsigned r = 0; r < 2; r++) {
		if (mp_evset_screen(e, counted_victims, k, s, m, MP_EVSET_MAX_WAYS, victim_slow) < 0)
			return -1;
		for (uint64_t i = 0; i < k; i++)
			if (victim_slow[i])
				return 1;
	}
	return 0;
}

/*
 * Is the minimal set (of victim x) surely no class counted: the kept lines
 * of them all never evict x (kept_evict_any), nor the set any of their
 * victims (evicts_any_victim), each asked twice at once for every class?
 * Then seen need not ask class by class: that took some 200000 cycles a
 * class counted for the simulated Power3's L2, whose 512 classes at a page
 * offset made it the count's largest cost.  Where either says yes (a
 * straggler of a class counted, or a noisy moment), seen asks as before.
 * Each class is asked at least one way, as by seen (a class's victim in
 * the tail, or without lines kept, is asked the other way).  1 surely
 * none, 0 not sure, -1 failed.
 */
static int seen_none(struct mp_evset *e, uint64_t x, const uint64_t *s, uint64_t m,
		     uint64_t counted)
{
	int ev = kept_evict_any(e, x, counted);

	if (ev == 0)
		ev = evicts_any_victim(e, s, m, counted);
	return ev < 0 ? -1 : !ev;
}

/*
 * Is the minimal set (of victim x) another class's?  Class i's when it
 * evicts i's victim and i's kept lines evict x, each in most of three
 * tests, then it does not evict another class's victim (control), and
 * then the two ways say so again.  Asked one way only, one busy moment of
 * this project's AMD EPYC guest called a new class one counted before,
 * and its candidates left with it: a count of its L2's 64 classes ended
 * complete at 63 (1008K).  Asked again after the control, a moment that
 * evicts every victim cannot cover the first asking and end just before
 * the control (asking again wherever the ways disagreed let a neighbour
 * filling the simulated Core i7's L2 in bursts lose a class so: 224K for
 * 256K).  Where the tail holds lines of class i (the first classes of a
 * tailed count), which may evict its victim alone, only i's lines are
 * tried on x.  1 seen, 0 a new class, 2 not told (the ways disagree, or
 * the control is evicted too), -1 failed.
 */
static int seen(struct mp_evset *e, uint64_t x, const uint64_t *s, uint64_t m,
		uint64_t counted)
{
	int none = seen_none(e, x, s, m, counted);

	if (none != 0)
		return none < 0 ? -1 : 0;
	for (uint64_t i = 0; i < counted && i < MP_EVSET_MAX_CLASSES; i++) {
		int same = same_class(e, x, s, m, i), ctl;

		if (same == 0)
			continue;
		if (same != 1)
			return same;
		if ((ctl = control(e, s, m, i, i, counted)) != 1)
			return ctl < 0 ? -1 : 2;
		same = same_class(e, x, s, m, i);   /* after the control too */
		return same < 0 ? -1 : same == 1 ? 1 : 2;
	}
	return 0;
}

bool mp_evset_member(const uint64_t *set, uint64_t n, uint64_t off)
{
	for (uint64_t i = 0; i < n; i++)
		if (set[i] == off)
			return true;
	return false;
}

static void keep(uint64_t i, const uint64_t *s, uint64_t m)
{
	if (i >= KEPT_CLASSES)
		return;
	kept_n[i] = m <= KEPT_LINES ? m : 0;
	kept_m[i] = kept_n[i];
	mp_memcpy(kept[i], s, kept_n[i] * sizeof(*s));
}

/* A member of kept class i beside its minimal set, while it has room. */
static void keep_member(uint64_t i, uint64_t line)
{
	if (i < KEPT_CLASSES && kept_m[i] && kept_n[i] < 2 * kept_m[i] && kept_n[i] < KEPT_LINES &&
	    !mp_evset_member(kept[i], kept_n[i], line))
		kept[i][kept_n[i]++] = line;
}

/*
 * Remove from pool[0 .. *n) the set's lines and every candidate the set
 * evicts, screened with the lines `by` (nb of them) in batches, then each
 * tested alone with the set; the candidates evicted are kept as members
 * of class `into` (none when it is not kept).
 */
static int remove_screened(struct mp_evset *e, uint64_t *pool, uint64_t *n, const uint64_t *by,
			   uint64_t nb, const uint64_t *s, uint64_t m, uint64_t batch,
			   uint64_t into)
{
	uint64_t kept = 0;

	if (mp_evset_screen(e, pool, *n, by, nb, batch, slow) < 0)
		return -1;
	for (uint64_t i = 0; i < *n; i++) {
		bool in_set = mp_evset_member(s, m, pool[i]);
		int ev = in_set ? 1 : slow[i] ? mp_evset_confirmed(e, pool[i], s, m) : 0;

		if (ev < 0)
			return -1;
		if (ev == 0)
			pool[kept++] = pool[i];
		else if (!in_set)
			keep_member(into, pool[i]);
	}
	*n = kept;
	return 0;
}

/* The classes left among n candidates, by the candidates a class took so far (0: none yet). */
static uint64_t classes_left(const struct mp_evset_classes *out, uint64_t n)
{
	return out->members ? n * out->count / out->members : 0;
}

/*
 * Candidates a screen of the pool takes to a try: EVSET_BATCH_WAYS times
 * the ways, or where the classes left are more (the candidates left over
 * those a class took so far), a quarter of them times the ways, so that a
 * class gets a quarter of its ways of a batch on the average.  A batch's
 * try costs its tail and its set whatever the batch: the simulated
 * Power3's 128-way L1 takes a tail of as many lines, which a batch of 16
 * paid for some 32 loads a candidate.
 */
static uint64_t batch_of(const struct mp_evset_classes *out, uint64_t n)
{
	uint64_t left = classes_left(out, n);

	return (left / 4 > EVSET_BATCH_WAYS ? left / 4 : EVSET_BATCH_WAYS) * out->ways;
}

/*
 * The class's candidates out of the pool: screened with its set (batch_of),
 * then again with its kept lines where it kept more, unless a batch gives
 * a class less than a quarter of a candidate on the average (members in a
 * batch compete with the set for its ways, so a few outlast it; twice the
 * ways' lines leave far fewer), so that few stay behind as stragglers,
 * whose class a later victim would have to recognise as counted.  Where a
 * batch gives a class that little, it seldom holds two of one: the
 * simulated Power3's count of 512 classes found no straggler without the
 * second screen, which had cost it 10 of its 28 s of screens.  Skipped
 * wherever a batch gave a class less than one, the simulated Ice Lake-SP's
 * evset took 4.37 s for 3.82.
 */
static int remove_class(struct mp_evset *e, uint64_t *pool, uint64_t *n, const uint64_t *s,
			uint64_t m, const struct mp_evset_classes *out, uint64_t into)
{
	uint64_t batch = batch_of(out, *n);
	uint64_t crowd = batch < MP_EVSET_MAX_WAYS ? batch : MP_EVSET_MAX_WAYS;

	if (remove_screened(e, pool, n, s, m, s, m, batch, into) < 0)
		return -1;
	if (into >= KEPT_CLASSES || kept_n[into] <= m || 4 * crowd < classes_left(out, *n))
		return 0;
	return remove_screened(e, pool, n, kept[into], kept_n[into], s, m, batch, into);
}

static int stop(struct mp_evset_classes *out, const char *why)
{
	out->why = why;
	return 0;
}

const char mp_evset_count_late[] = "the time bound passed before every class was found";

static int stop_late(struct mp_evset_classes *out, const char *why)
{
	out->late = true;
	return stop(out, why);
}

/*
 * A candidate the rest of the pool does not evict: a straggler of a class
 * counted (its kept lines evict it; the removal test missed it once), or a class
 * with too few candidates left.  1, 0, -1 a run failed.
 */
static int straggler(struct mp_evset *e, uint64_t x, uint64_t counted)
{
	for (uint64_t i = 0; i < counted && i < KEPT_CLASSES; i++) {
		int ev = kept_n[i] ? mp_evset_confirmed(e, x, kept[i], kept_n[i]) : 0;

		if (ev != 0)
			return ev;
	}
	return 0;
}

/*
 * A victim whose class was not found (too few candidates left, the
 * reductions lost, too large a set) set aside, up to EVSET_ASIDE and one
 * in EVSET_ASIDE_PER of the classes counted:
 * another victim may find its class; at the end each must belong to a
 * class counted (aside_counted).  1 set aside, 0 stopped (out->why).
 */
static int set_aside(struct mp_evset_classes *out, uint64_t x, const char *why)
{
	if (naside >= EVSET_ASIDE + out->count / EVSET_ASIDE_PER)
		return stop(out, why);
	aside[naside++] = x;
	out->why = why;
	return 1;
}

/*
 * A victim whose class was not found: dropped where it is a straggler of
 * a class counted, else set aside.  Only then: on this project's AMD EPYC
 * guest a count of its L2's 64 classes at a page offset, in a quiet spell
 * (2 tries a test), reached all 64 in 0.9 s, and stopped there, its 16
 * set aside: the last 36 candidates of the pool, stragglers of a class
 * counted, gave sets of 15 lines (a thread sharing the L2 held a way) that
 * did not hold up.  1, 0 stopped (out->why), -1 a run failed.
 */
static int unfound(struct mp_evset *e, struct mp_evset_classes *out, uint64_t x, const char *why)
{
	int st = straggler(e, x, out->count);

	return st != 0 ? st : set_aside(out, x, why);
}

/*
 * Is class i's victim of class j: do j's kept lines evict both j's own
 * victim and i's, each in most of three tests, but not the victim of a
 * third class (a control: a noisy host evicts every victim for a while)?
 * Kept lines that evict victims of two classes would hold the ways of
 * both, more lines than a set may have.  1 yes, 0 no, 2 cannot tell (the
 * control evicted too), -1 failed.
 */
static int of_class(struct mp_evset *e, uint64_t i, uint64_t j, uint64_t n)
{
	int own = mostly(e, victims[j], kept[j], kept_n[j]), ev;

	if (own <= 0 || (ev = mostly(e, victims[i], kept[j], kept_n[j])) <= 0)
		return own <= 0 ? own : ev;
	ev = control(e, kept[j], kept_n[j], i, j, n);
	return ev < 0 ? -1 : ev ? 1 : 2;
}

/* The class of the first KEPT_CLASSES counted that class i was found to be (distinct). */
static uint64_t first_of[KEPT_CLASSES];

static uint64_t root(uint64_t i)
{
	while (first_of[i] != i)
		i = first_of[i];
	return i;
}

/*
 * The classes whose victims class j's kept lines evict, in a screen and
 * then of_class, made one with j.  0 done, 1 one could not be told, -1
 * failed.
 */
static int victims_of(struct mp_evset *e, uint64_t j, uint64_t n)
{
	if (mp_evset_screen(e, victims, n, kept[j], kept_n[j], MP_EVSET_MAX_WAYS, victim_slow) < 0)
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		int of;

		if (i == j || in_tail(e, i) || !victim_slow[i] || root(i) == root(j))
			continue;
		if ((of = of_class(e, i, j, n)) < 0 || of == 2)
			return of < 0 ? -1 : 1;
		if (of)
			first_of[root(i)] = root(j);
	}
	return 0;
}

/*
 * Are the classes counted all distinct?  A class found while a thread
 * sharing the level held a way of it may have a set of its ways less one
 * and a line of another class, which evicts its victim only while the
 * thread holds that way: its screen takes few of its candidates, and a
 * later victim of the class finds it again, which seen misses once the
 * thread has let the way go (a simulated L1 beside such a thread,
 * tests/probes/test_evset_held.c, counted 66 classes for 64).  So each
 * class's kept lines are screened against every victim (the first
 * KEPT_CLASSES classes), and classes whose victims one class's lines
 * evict are counted once; a class that cannot be told stops the count.
 * 1 distinct (out->count less those found again), 0 stopped (out->why),
 * -1 failed.
 */
static int distinct(struct mp_evset *e, struct mp_evset_classes *out)
{
	uint64_t n = out->count < KEPT_CLASSES ? out->count : KEPT_CLASSES, roots = 0;

	for (uint64_t i = 0; i < n; i++)
		first_of[i] = i;
	for (uint64_t j = 0; j < n; j++) {
		int st = in_tail(e, j) || !kept_n[j] ? 0 : victims_of(e, j, n);

		if (st != 0)
			return st < 0 ? -1 : stop(out, "a class counted could not be told from "
							"another (a noisy host)");
	}
	for (uint64_t i = 0; i < n; i++)
		roots += first_of[i] == i;
	out->count -= n - roots;
	return 1;
}

/* Does every victim set aside belong to a class counted?  1, 0 (out->why), -1 failed. */
static int aside_counted(struct mp_evset *e, struct mp_evset_classes *out)
{
	for (unsigned i = 0; i < naside; i++) {
		int st = straggler(e, aside[i], out->count);

		if (st <= 0)
			return st;
	}
	return 1;
}

/* Append line to the tail unless it is there or the tail is full. */
static void tail_add(struct mp_evset *e, uint64_t line)
{
	if (e->ntail < tail_want && e->ntail < KEPT_CLASSES && !mp_evset_member(tail, e->ntail, line))
		tail[e->ntail++] = line;
}

/*
 * The tail grown to tail_want lines from the classes counted, at most the
 * ways of each, so that it stays in this level and costs a hit a line: a
 * class's members, and its minimal set where that has no more lines than
 * the ways (a larger one, found without a tail, holds lines of other
 * classes, which took the victim out of the levels above).
 */
static void grow_tail(struct mp_evset *e, uint64_t counted, uint64_t ways)
{
	for (uint64_t i = 0; i < counted && i < KEPT_CLASSES && e->ntail < tail_want; i++) {
		uint64_t from = kept_m[i] > ways ? kept_m[i] : 0;
		uint64_t to = kept_n[i] < from + ways ? kept_n[i] : from + ways;

		for (uint64_t j = from; j < to; j++)
			tail_add(e, kept[i][j]);
	}
}

/* Have most classes counted sets of more lines than the ways? */
static bool sets_larger(uint64_t counted, uint64_t ways)
{
	uint64_t larger = 0, n = counted < KEPT_CLASSES ? counted : KEPT_CLASSES;

	for (uint64_t i = 0; i < n; i++)
		larger += kept_m[i] > ways;
	return 2 * larger > n;
}

/*
 * A count without a tail whose sets come out larger than the ways takes
 * one as soon as the classes counted make a whole one.  Such sets are a
 * level of fewer ways than the one above (Ice Lake-SP's 12-way L3 under
 * its 20-way L2): the ways and lines of other classes that take the victim
 * out of the level above.  Each set takes those lines out of the pool, and
 * the last classes were left too few to evict their own (the simulated Ice
 * Lake-SP counted 78 or 79 of its 80 at five seeds of eight).  The tail's
 * lines are congruent with no candidate left, as a seeded count's.  Where
 * the sets are the ways, the count goes on without one: a tail costs every
 * test its lines (with one, this guest's evset took 1.74 s for 1.21 s).
 */
static void take_tail(struct mp_evset *e, uint64_t counted, uint64_t ways)
{
	if (e->tail == tail) {
		grow_tail(e, counted, ways);
		return;
	}
	if (!sets_larger(counted, ways))
		return;
	e->tail = tail;
	e->ntail = 0;
	grow_tail(e, counted, ways);
	if (e->ntail == tail_want)
		return;
	e->tail = NULL;
	e->ntail = 0;
}

/*
 * May a minimal set of m lines hold another class's ways as well as its
 * own?  Without a tail, where it has the ways' worth of lines more than the
 * ways.  With one, where it has any more than the ways: the tail may hold
 * lines of the victim's class (a straggler of a class counted), and a set
 * of its ways less those and other lines held the Opteron's 16th class
 * whole (31 lines, 12 of the victim's class), whose candidates it then
 * took out of the pool as the straggler's: 960K for 1M.
 */
static bool too_large(const struct mp_evset *e, uint64_t m, uint64_t ways)
{
	return e->tail == tail ? m > ways : m >= 2 * ways;
}

/*
 * One class more: 1 counted or a straggler dropped or set aside, 0
 * stopped (out->why), -1 failed.
 */
static int next_class(struct mp_evset *e, uint64_t *pool, uint64_t *n,
		      struct mp_evset_classes *out)
{
	uint64_t x = pool[--*n], m = 0, before;
	int st = mp_evset_find(e, x, pool, *n, set, &m), dup;

	if (st < 0)
		return -1;
	if (st == 0)
		return unfound(e, out, x, "a class has too few candidates in the pool to evict its own");
	if (st == 2)
		return stop_late(out, mp_evset_count_late);
	if (st == 3)
		return unfound(e, out, x, "a class's reductions all lost the eviction "
					  "(a noisy host or a random replacement)");
	if (too_large(e, m, out->ways)) {
		out->larger++;
		return unfound(e, out, x, "a set larger than a class's may hold another class's ways");
	}
	/* A reduction that lost the eviction unseen would count a class of nothing. */
	if ((dup = mostly(e, x, set, m)) <= 0)
		return dup < 0 ? -1 : unfound(e, out, x, "a class's set did not hold up when tested again");
	if ((dup = seen(e, x, set, m, out->count)) < 0)
		return -1;
	if (dup == 2)
		return set_aside(out, x, "a class's set could not be told from a class counted "
					 "(a noisy host)");
	if (!dup && out->count < MP_EVSET_MAX_CLASSES)
		victims[out->count] = x;
	if (!dup)
		keep(out->count, set, m);
	before = *n;
	if (remove_class(e, pool, n, set, m, out, dup ? KEPT_CLASSES : out->count) < 0)
		return -1;
	/*
	 * A set not of the ways that took no member: found while a thread
	 * held ways of it, it screens nothing, and its class would be counted
	 * again with a whole set (test_probe_evset, "hot set").  A set short
	 * of the ways so, or one a line over them that holds a line or two
	 * short of the class's ways and lines of others (the hot-set model's
	 * 17 lines at seed 2 once the calibration took more time: 1088K).
	 */
	if (!dup && m != out->ways && before - *n <= m) {
		out->shorter += m < out->ways;
		out->larger += m > out->ways;
		return set_aside(out, x, "a class's set not of the ways took no other candidate "
					 "from the pool (a thread sharing the level held ways)");
	}
	out->members += dup ? 0 : before - *n;
	out->count += !dup;
	out->same += !dup && m == out->ways;
	out->other += !dup && m != out->ways;
	return 1;
}

/*
 * The seed's class, counted first with the tester's own tail (free of the
 * seed's class, not of others'): its members leave the pool, and with its
 * set they make the tail of the count (congruent with no candidate
 * left; a tail that held a victim's class would give ways up on a victim
 * level, whose lines move up on a hit).  -1 failed.
 */
static int count_seed(struct mp_evset *e, uint64_t *pool, uint64_t *n,
		      const struct mp_evset_seed *seed, struct mp_evset_classes *out)
{
	struct mp_evset own = *e;
	uint64_t kept = 0;

	e->tail = tail;
	e->ntail = 0;
	keep(0, seed->set, seed->m);
	for (uint64_t i = 0; i < seed->m; i++)
		tail_add(e, seed->set[i]);
	for (uint64_t i = 0; i < *n; i++) {
		int in = mp_evset_member(seed->set, seed->m, pool[i]) ? 1 :
			 mp_evset_evicts_own(&own, pool[i], seed->set, seed->m);

		if (in < 0)
			return -1;
		if (!in) {
			pool[kept++] = pool[i];
			continue;
		}
		tail_add(e, pool[i]);
		keep_member(0, pool[i]);
	}
	out->members = *n - kept;
	*n = kept;
	victims[0] = seed->x;
	out->count = 1;         /* the seed's set bears out nothing: it is the one to bear out */
	return 0;
}

/*
 * Will the count pass its time bound, at the pace of the classes counted
 * so far?  Their time a class, times the classes the candidates left make
 * at the candidates a class took, against the time left; judged once
 * EVSET_PACE_AFTER classes are counted.  A class's removal screens the
 * whole pool, which shrinks: the time of the classes left is taken in
 * proportion to the pool, the half of what is left against the half of
 * what there was and is (n / (n0 + n)), which can only make the estimate
 * lower.  On this project's AMD EPYC guest the quick profile's count of
 * its L2 (64 classes at an offset) reached 6 to 60 in its 3 s in each of
 * two rounds: a count that cannot end only spends the suite's time.
 */
struct pace {
	uint64_t start;         /* the platform's clock when the classes began */
	uint64_t n0, c0;        /* the candidates and the classes then */
};

static bool too_slow(const struct mp_evset *e, const struct mp_evset_classes *out,
		     const struct pace *p, uint64_t n)
{
	uint64_t now = mp_now(e->c->p), done = out->count - p->c0;
	double per, left;

	if (!e->deadline || done < EVSET_PACE_AFTER || n == p->n0 || now >= e->deadline)
		return false;
	per = (double)(now - p->start) / (double)done * (double)n / (double)(p->n0 + n);
	left = (double)n * (double)done / (double)(p->n0 - n);
	return per * left > (double)(e->deadline - now);
}

/*
 * The candidates a class must have on the average for `classes` classes
 * to have more than `ways` each, but at odds of EVSET_THIN_ODDS: their
 * candidates fall in them as a Poisson count, and a class of no more than
 * its ways cannot evict its victim (the victim is one of them).
 */
static uint64_t deep_enough(uint64_t classes, uint64_t ways)
{
	double e_mu = 1.0;      /* e^-mu */

	for (uint64_t i = 0; i < ways; i++)
		e_mu *= EVSET_E_INV;
	for (uint64_t mu = ways + 1;; mu++) {
		double term = e_mu *= EVSET_E_INV, below = 0.0;

		for (uint64_t k = 0; k <= ways; k++) {
			below += term;
			term *= (double)mu / (double)(k + 1);
		}
		if ((double)classes * below <= EVSET_THIN_ODDS)
			return mu;
	}
}

/*
 * Is the pool too thin for its classes: then out->depth and out->want
 * are set.  Judged once, when EVSET_THIN_AFTER classes are counted, by
 * the candidates they took from the pool a class (the victim, taken first,
 * not among them: a victim falls in a class by its candidates, so the
 * classes counted are the larger ones by about one), against what the
 * classes that many make of the pool want (deep_enough).  "levels" found
 * the simulated Power3's 8M 4-way L2 3M on scattered frames, so its pool
 * gave its 512 classes at a page offset some six candidates each: a class
 * of no more than its ways cannot be found, and some dozens were; grown to
 * 14 a class, one class in 512 still had 4.  The depth wanted has an
 * eighth more, for the first classes' spread.
 */
static bool thin(struct mp_evset_classes *out, uint64_t n)
{
	uint64_t depth = out->members / out->count, want;

	if (out->count != EVSET_THIN_AFTER)
		return false;
	want = deep_enough(depth ? n / depth + out->count : n, out->ways);
	if (depth >= want)
		return false;
	out->depth = depth ? depth : 1;
	out->want = want + want / 8;
	return true;
}

static const char pace_late[] = "at its pace the count would pass the time bound";

/*
 * The minimal sets of the classes counted, end to end in kept_union (as
 * a conflict set's seed): their lines, or 0 where one is not kept or is
 * not of the ways.
 */
static uint64_t counted_sets(const struct mp_evset_classes *out)
{
	uint64_t k = 0;

	if (out->count > KEPT_CLASSES)
		return 0;
	for (uint64_t i = 0; i < out->count; i++) {
		if (kept_m[i] != out->ways)
			return 0;
		mp_memcpy(kept_union + k, kept[i], kept_m[i] * sizeof(*kept_union));
		k += kept_m[i];
	}
	return k;
}

/*
 * The classes the count has no time to find one by one, where its pace
 * would pass the time bound, by a conflict set (mp_evset_conflict) of the
 * candidates left and the victims set aside, seeded with the classes'
 * minimal sets (so that their stragglers stay out), where every class
 * counted had a set of the ways and the pool gives the classes left
 * enough candidates each for every one to have more than the ways
 * (deep_enough, as for a thin pool).  Not where the tail holds lines of
 * the classes counted (a seeded count's): with them a class's set less
 * one of its lines evicts that line.  On this project's AMD EPYC guest
 * the quick profile's count of its L2's 64 classes at a page offset,
 * where a test took 16 tries, stopped so after a few classes in most
 * runs; the set was built in some 0.65 s, and held 1004 to 1008 lines
 * where 64 classes of 16 ways hold 1024 (a thread sharing the core held
 * ways of some sets), so the size stays unmeasured there.  0 stopped or
 * complete (out), -1 failed.
 */
static int rest_by_conflict(struct mp_evset *e, uint64_t *pool, uint64_t n,
			    struct mp_evset_classes *out)
{
	uint64_t ns = counted_sets(out), classes = 0, left, t0;
	const char *why, *said;
	int st;

	if (!ns || e->tail == tail)
		return stop_late(out, pace_late);
	for (unsigned i = 0; i < naside; i++)
		pool[n++] = aside[i];
	mp_logf(e->c->p, MP_LOG_INFO, "evset: %llu classes counted, at its pace the count would "
		"pass its time bound: the rest by a conflict set of %llu candidates",
		(unsigned long long)out->count, (unsigned long long)n);
	t0 = mp_now(e->c->p);
	st = mp_evset_conflict(e, kept_union, ns, pool, n, out->ways, classes_left(out, n), &classes,
			       &why);
	said = st == 1 ? "" : st == 2 ? mp_evset_count_late : why;
	mp_logf(e->c->p, MP_LOG_INFO, "evset: the conflict set: %llu classes in %.2f s%s%s",
		(unsigned long long)classes, mp_seconds_since(e->c->p, t0), st == 1 ? "" : ": ",
		said);
	if (st != 1)
		return st < 0 ? -1 : stop_late(out, said);
	left = classes > out->count ? classes - out->count : 0;
	if (!left || n / left < deep_enough(left, out->ways))
		return stop_late(out, "at its pace the count would pass the time bound, and its pool "
				      "gives the classes left too few candidates each for a conflict "
				      "set of them");
	out->conflict = left;
	out->count = classes;
	out->complete = true;
	return 0;
}

int mp_evset_count(struct mp_evset *e, uint64_t *pool, uint64_t n, uint64_t ways,
		   uint64_t want, const struct mp_evset_seed *seed, bool grows,
		   struct mp_evset_classes *out)
{
	struct pace p;
	int st;

	*out = (struct mp_evset_classes){ .ways = ways };
	naside = 0;
	tail_want = want;
	if (seed && count_seed(e, pool, &n, seed, out) < 0)
		return -1;
	p = (struct pace){ .start = mp_now(e->c->p), .n0 = n, .c0 = out->count };
	while (n > 0) {
		take_tail(e, out->count, out->ways);
		if ((st = next_class(e, pool, &n, out)) <= 0)
			return st;
		if (e->late && n > 0)
			return stop_late(out, mp_evset_count_late);
		if (grows && thin(out, n))
			return stop(out, "its pool gives its classes too few candidates each");
		if (too_slow(e, out, &p, n))
			return rest_by_conflict(e, pool, n, out);
	}
	if ((st = aside_counted(e, out)) <= 0 || (st = distinct(e, out)) <= 0)
		return st;
	out->complete = true;
	return 0;
}
