/* SPDX-License-Identifier: MIT */
/*
 * The eviction test and the group-testing reduction (Vila, Köpf and
 * Morales 2019, section IV): a set that evicts a victim is split into
 * groups; a group whose removal keeps the eviction is dropped.  With more
 * groups than the set holds congruent lines, one group always holds none,
 * so the set shrinks until every line is needed: a minimal eviction set,
 * one line per way.  The associativity is not known beforehand, so the
 * groups double whenever no group can be dropped (docs/algorithms.md,
 * "Eviction sets").
 */
#include "core/lib/sort.h"
#include "core/lib/str.h"
#include "core/measure/timing.h"
#include "core/probes/evset/evset.h"
#include "core/seq/refstring.h"

/* One-load runs that price an L1 hit (mp_evset_hit). */
#define EVSET_HIT_RUNS 64u
/* The groups of the reduction's first round. */
#define EVSET_FIRST_GROUPS 2u
/*
 * A "minimal" set of more lines than any cache's ways is a test that missed
 * evictions (a busy host): reduced again from two groups, this many times.
 * So is a set no group of which can go at more groups than any cache's
 * ways and one: one group then holds no line of the victim's class, or
 * the set holds so many more than the ways that the group with fewest of
 * them can go (mp_evset_reduce).  The groups stop doubling there, short
 * of one a line, which at a set of 600 lines takes some 1200 tests: on
 * this project's AMD guest "Turin-like" a reduction spent its level's
 * 2.4 s at such a set.
 */
#define EVSET_AGAIN 3u
/* Groups put back in one reduction at most (docs/algorithms.md, "Eviction sets"). */
#define EVSET_BACKTRACKS 8u
/* L1 hits a wait before a timed load takes at most (dither). */
#define EVSET_DITHER 32u

static uint64_t rest[MP_EVSET_MAX_POOL], set_order[MP_EVSET_MAX_POOL];
static uint64_t tail_order[MP_EVSET_MAX_POOL];

static void *self_loop(struct mp_evset *e, uint64_t off)
{
	void **w = (void **)(void *)(e->base + off);

	*w = w;
	return w;
}

/*
 * The last line of the victim's page: loaded right before the victim is
 * timed, so that the victim's translation is in the TLB and the time is
 * the cache's alone (the set's pages evict it from the first-level TLB,
 * whose miss can cost as much as a level's step).  Its own cache sets are
 * none of the victim's: another page offset.  A victim that is that line
 * takes the line half a page before it (not the line right before: a
 * next-line prefetch of it would fetch the victim).
 */
static uint64_t warm_line(const struct mp_evset *e, uint64_t victim)
{
	uint64_t last = victim - victim % e->page + e->page - MP_EVSET_WARM_BACK;

	return last != victim ? last : last - e->page / 2;
}

bool mp_evset_late(struct mp_evset *e)
{
	e->late = e->late || (e->deadline && mp_now(e->c->p) > e->deadline);
	return e->late;
}

/* A chase of `steps` loads from `start`; its ticks.  -1 when the run failed. */
static int chase(struct mp_evset *e, void *start, uint64_t steps, uint64_t *ticks)
{
	struct mp_run r = { .op = MP_OP_CHASE, .start = start, .steps = steps, .region = "evset" };
	struct mp_sample s;

	e->loads += steps;
	if (mp_run_masked(e->c, &r, &s) != MP_OK)
		return -1;
	*ticks = s.ticks;
	return 0;
}

/* A chase whose ticks are not wanted: a warm-up, a wait, the tail, the set. */
static int untimed(struct mp_evset *e, void *start, uint64_t steps)
{
	uint64_t t;

	return chase(e, start, steps, &t);
}

/*
 * A wait of 1 to EVSET_DITHER L1 hits on line `at` (warm), drawn, right
 * before a timed load: on a clock that moves in steps the reading depends
 * on where in a step the load falls, and tries of one length keep that
 * phase from one to the next, so their reads are not independent, as the
 * tries' vote assumes (calibrate.c).  A simulated clock in steps of 24.45
 * cycles, which has no jitter, read a victim out of the level as one in it
 * in 14 tries running, then as out of it in 32, and a set that evicted it
 * passed one test of three (coarse-zen3: the L2's line not measured at
 * seeds 4 and 6).  The draw spreads the phase over some 30 to 130 cycles:
 * a few steps of such clocks.  Drawn apart from the tries' orders, which
 * stay as they were.
 */
static int dither(struct mp_evset *e, void *at)
{
	return untimed(e, at, 1 + mp_rng_below(&e->wait, EVSET_DITHER));
}

static int run_tail(struct mp_evset *e, void *start)
{
	return start ? untimed(e, start, e->ntail) : 0;
}

/*
 * The least of EVSET_HIT_RUNS runs, each after a drawn wait (dither), and
 * the mean of all but the slowest eighth: a clock that moves in steps
 * reads a run as the step below or above its time, in proportion, so that
 * the least is up to a step short, while the mean of the reads is the time
 * itself (the eighth left out: a busy host's bursts; each read left out
 * of a clock's upper step takes the mean down by a step over the runs
 * kept).  With 16 runs and a quarter left out, the simulated Zen 3 guest's
 * hit (64 cycles, read 49 or 73) came out 55 to 63 as the draws fell, and
 * the threshold below the L2's reads of 73 and 74 at two seeds of six.
 */
int mp_evset_hit(struct mp_evset *e, uint64_t off, struct mp_evset_hit *hit)
{
	void *x = self_loop(e, off);
	uint64_t t[EVSET_HIT_RUNS], sum = 0, kept = EVSET_HIT_RUNS - EVSET_HIT_RUNS / 8;

	if (untimed(e, x, 1) < 0)
		return -1;
	for (unsigned i = 0; i < EVSET_HIT_RUNS; i++)
		if (dither(e, x) < 0 || chase(e, x, 1, &t[i]) < 0)
			return -1;
	mp_sort_u64(t, EVSET_HIT_RUNS);
	for (uint64_t i = 0; i < kept; i++)
		sum += t[i];
	hit->least = (double)t[0];
	hit->mean = (double)sum / (double)kept;
	return 0;
}

/* The offsets in a fresh random order, linked: the chain's start. */
static void *shuffled(struct mp_evset *e, uint64_t *buf, const uint64_t *offs, uint64_t n)
{
	mp_memcpy(buf, offs, n * sizeof(*offs));
	mp_ref_shuffle(buf, n, &e->rng);
	return mp_ref_chain(e->base, buf, n);
}

/*
 * One try: load the victims; traverse the tail, the set, the tail,
 * `passes` times; flush e->flushed, if any; time each victim again (its
 * warm line first), into t.  Each pass over the set is linked anew in a
 * fresh order: other sets may have used the same lines since, and a
 * tree-PLRU set can keep the victim through one order of its lines
 * repeated (evicting a line from any state takes up to w/2 log2 w + 1
 * distinct accesses: Reineke et al., "Timing predictability of cache
 * replacement policies", 2007).  A second pass evicts where one may not:
 * a replacement that inserts new lines at low priority while the set
 * thrashes (Intel's adaptive L2) lets one pass of exactly the ways' lines
 * miss the victim; the passes repeat the whole sequence, tail included,
 * so that what evicts in one pass evicts in two (the victim, once out,
 * stays out), which passes over the set alone do not give an exclusive
 * level (its hits free ways).  Several victims share a try in a screen
 * (mp_evset_screen): each is older than every line of the set, as one
 * victim is, and a test of its own confirms what the screen calls it.
 */
static int try_once(struct mp_evset *e, const uint64_t *v, uint64_t k, const uint64_t *set,
		    uint64_t n, uint64_t *t)
{
	void *tail = e->ntail ? shuffled(e, tail_order, e->tail, e->ntail) : NULL;

	for (uint64_t i = 0; i < k; i++) {
		void *x = self_loop(e, v[i]);

		self_loop(e, warm_line(e, v[i]));  /* written now, loaded untouched later */
		if (untimed(e, x, 1) < 0)
			return -1;
	}
	for (unsigned i = 0; i < e->passes; i++)
		if (run_tail(e, tail) < 0 ||
		    (n && untimed(e, shuffled(e, set_order, set, n), n) < 0) ||
		    run_tail(e, tail) < 0)
			return -1;
	if (e->flushed)
		e->c->p->ops->flush_line(e->c->p, e->flushed);
	for (uint64_t i = 0; i < k; i++)
		if (dither(e, e->base + warm_line(e, v[i])) < 0 ||
		    chase(e, e->base + v[i], 1, &t[i]) < 0)
			return -1;
	return 0;
}

/*
 * Flush the test's lines, so that none stays behind in the victim's set:
 * under pseudo-LRU a line left there can make fewer lines than ways evict
 * the victim, over and over, and the victim and the set left from a try
 * can make as many lines as ways keep it.
 */
static void flush(struct mp_evset *e, const uint64_t *v, uint64_t k, const uint64_t *set,
		  uint64_t n)
{
	struct mp_platform *p = e->c->p;

	for (uint64_t i = 0; i < k; i++)
		p->ops->flush_line(p, e->base + v[i]);
	for (uint64_t i = 0; i < n; i++)
		p->ops->flush_line(p, e->base + set[i]);
	for (uint64_t i = 0; i < e->ntail; i++)
		p->ops->flush_line(p, e->base + e->tail[i]);
}

int mp_evset_time(struct mp_evset *e, uint64_t victim, const uint64_t *set, uint64_t n,
		  unsigned tries, struct mp_evset_times *t)
{
	uint64_t u[MP_EVSET_MAX_TRIES];

	tries = tries < MP_EVSET_MAX_TRIES ? tries : MP_EVSET_MAX_TRIES;
	*t = (struct mp_evset_times){ .least = UINT64_MAX };
	for (unsigned i = 0; i < tries; i++) {
		flush(e, &victim, 1, set, n);
		if (try_once(e, &victim, 1, set, n, &u[i]) < 0)
			return -1;
		t->least = u[i] < t->least ? u[i] : t->least;
		t->most = u[i] > t->most ? u[i] : t->most;
		t->slow += u[i] > e->slow;
	}
	flush(e, &victim, 1, set, n);
	t->median = tries ? mp_median_u64(u, tries) : 0;
	t->midmean = tries ? mp_midmean_u64(u, tries) : 0.0;
	return 0;
}

/*
 * Slow in every try (or in `needed` of them: a vote), each from a clean
 * start (the lines flushed before it): interference only adds time, so
 * one fast try shows the victim stayed, and a burst of noise on one
 * victim load is no eviction.  From a clean start fewer congruent lines
 * than ways never evict the victim (LRU, pseudo-LRU, FIFO: the
 * simulator's 0 of 100), and as many evict it in every fresh order there
 * (100 of 100); on a busy host a true set's test fails now and then,
 * which the rechecks allow for.  Up to MP_EVSET_MAX_WAYS victims at once
 * (mp_evset_screen): a victim leaves the batch once its tries have
 * decided; slow[i] whether victim i read slow in enough.  The lines are
 * flushed again after.
 */
static int slow_always(struct mp_evset *e, const uint64_t *v, uint64_t k, const uint64_t *set,
		      uint64_t n, bool *slow)
{
	uint64_t left[MP_EVSET_MAX_WAYS], at[MP_EVSET_MAX_WAYS], t[MP_EVSET_MAX_WAYS], nl = k;
	unsigned got[MP_EVSET_MAX_WAYS];
	unsigned need = e->needed && e->needed < e->trials ? e->needed : e->trials;

	for (uint64_t i = 0; i < k; i++) {
		left[i] = v[i];
		at[i] = i;
		got[i] = 0;
		slow[i] = false;
	}
	for (unsigned r = 0; r < e->trials && nl; r++) {
		uint64_t still = 0;

		flush(e, left, nl, set, n);
		if (try_once(e, left, nl, set, n, t) < 0)
			return -1;
		for (uint64_t i = 0; i < nl; i++) {
			uint64_t j = at[i];

			got[j] += t[i] > e->slow;
			slow[j] = got[j] >= need;
			left[still] = left[i];
			at[still] = j;
			still += !slow[j] && r + 1 - got[j] <= e->trials - need;
		}
		nl = still;
	}
	flush(e, v, k, set, n);
	return 0;
}

int mp_evset_screen(struct mp_evset *e, const uint64_t *v, uint64_t k, const uint64_t *set,
		    uint64_t n, uint64_t batch, bool *slow)
{
	batch = batch < MP_EVSET_MAX_WAYS ? batch : MP_EVSET_MAX_WAYS;
	batch = batch ? batch : 1;
	for (uint64_t i = 0; i < k; i += batch)
		if (slow_always(e, v + i, k - i < batch ? k - i : batch, set, n, slow + i) < 0)
			return -1;
	return 0;
}

int mp_evset_tail_evicts(struct mp_evset *e, uint64_t victim)
{
	bool ev;

	if (e->ntail == 0)
		return 0;
	return slow_always(e, &victim, 1, NULL, 0, &ev) < 0 ? -1 : ev;
}

int mp_evset_evicts(struct mp_evset *e, uint64_t victim, const uint64_t *set, uint64_t n)
{
	bool ev;

	if (n == 0)
		return 0;
	return slow_always(e, &victim, 1, set, n, &ev) < 0 ? -1 : ev;
}

/* The set without its elements a .. b-1, into rest; how many are left. */
static uint64_t without(const uint64_t *set, uint64_t n, uint64_t a, uint64_t b)
{
	mp_memcpy(rest, set, a * sizeof(*set));
	mp_memcpy(rest + a, set + b, (n - b) * sizeof(*set));
	return n - (b - a);
}

/*
 * The groups dropped so far, in order (their lines in `dropped`, their
 * sizes in `dropped_len`): a test that calls a needed group unneeded (noise
 * slowing the victim's load in every try) leaves a set that no longer
 * evicts; the reduction then puts back the groups last dropped.
 */
static uint64_t dropped[MP_EVSET_MAX_POOL], dropped_len[MP_EVSET_MAX_POOL];
static uint64_t ndropped, ngroups;

static void push_group(const uint64_t *lines, uint64_t len)
{
	mp_memcpy(dropped + ndropped, lines, len * sizeof(*lines));
	ndropped += len;
	dropped_len[ngroups++] = len;
}

/* The last group dropped back into the set; false when none is left. */
static bool pop_group(uint64_t *set, uint64_t *n)
{
	uint64_t len;

	if (!ngroups)
		return false;
	len = dropped_len[--ngroups];
	ndropped -= len;
	mp_memcpy(set + *n, dropped + ndropped, len * sizeof(*set));
	*n += len;
	return true;
}

/* Drop one of g groups whose removal keeps the eviction: 1 dropped, 0 none, -1 failed. */
static int drop_group(struct mp_evset *e, uint64_t victim, uint64_t *set, uint64_t *n,
		      uint64_t g)
{
	for (uint64_t j = 0; j < g && !mp_evset_late(e); j++) {
		uint64_t a = j * *n / g, b = (j + 1) * *n / g, m = without(set, *n, a, b);
		int ev = mp_evset_evicts(e, victim, rest, m);

		if (ev > 0)
			ev = mp_evset_confirmed(e, victim, rest, m);
		if (ev != 0) {
			if (ev > 0) {
				push_group(set + a, b - a);
				mp_memcpy(set, rest, m * sizeof(*set));
				*n = m;
			}
			return ev;
		}
	}
	return 0;
}

int mp_evset_unneeded(struct mp_evset *e, uint64_t victim, const uint64_t *set, uint64_t n)
{
	int unneeded = 0;

	for (uint64_t j = 0; j < n; j++) {
		int ev = mp_evset_confirmed(e, victim, rest, without(set, n, j, j + 1));

		if (ev < 0)
			return -1;
		unneeded += ev;
	}
	return unneeded;
}

int mp_evset_evictions(struct mp_evset *e, uint64_t victim, const uint64_t *set, uint64_t n,
		       unsigned tests, unsigned enough)
{
	unsigned yes = 0;

	for (unsigned t = 0; t < tests && yes < enough; t++) {
		int ev = mp_evset_evicts(e, victim, set, n);

		if (ev < 0)
			return -1;
		yes += (unsigned)ev;
	}
	return (int)yes;
}

int mp_evset_short_evictions(struct mp_evset *e, uint64_t victim, const uint64_t *set, uint64_t n,
			     unsigned tests, unsigned enough)
{
	int most = 0;

	for (uint64_t j = 0; j < n && most < (int)enough; j++) {
		int yes = mp_evset_evictions(e, victim, rest, without(set, n, j, j + 1), tests, enough);

		if (yes < 0)
			return -1;
		most = yes > most ? yes : most;
	}
	return most;
}

/*
 * Where no group can be dropped, does the set still evict (either of two
 * tests: a true set's test fails now and then)?  If not, a group dropped
 * before was needed (a test called it unneeded when noise slowed the
 * victim in every try): it goes back (1), at most EVSET_BACKTRACKS times
 * in a reduction.  0 the set evicts, 2 it does not and nothing goes back,
 * -1 failed.
 */
static int backtrack(struct mp_evset *e, uint64_t victim, uint64_t *set, uint64_t *n,
		     unsigned *left)
{
	int ev = mp_evset_evicts(e, victim, set, *n);

	if (ev == 0)
		ev = mp_evset_evicts(e, victim, set, *n);
	if (ev != 0)
		return ev < 0 ? -1 : 0;
	if (!*left || !pop_group(set, n))
		return 2;
	--*left;
	return 1;
}

int mp_evset_reduce(struct mp_evset *e, uint64_t victim, uint64_t *set, uint64_t *n)
{
	uint64_t k = EVSET_FIRST_GROUPS;
	unsigned again = EVSET_AGAIN, left = EVSET_BACKTRACKS;

	ndropped = ngroups = 0;
	for (;;) {
		uint64_t g = k < *n ? k : *n;
		int st = drop_group(e, victim, set, n, g);
		bool all = g == *n || g > MP_EVSET_MAX_WAYS + 1;

		if (st == 0 && !e->late)
			st = backtrack(e, victim, set, n, &left);
		if (st < 0 || st == 2)
			return st;
		if (e->late)
			return 1;
		if (st == 0 && g == *n && *n <= MP_EVSET_MAX_WAYS)
			return 0;           /* every line is needed */
		if (st == 0 && all && again-- == 0)
			return 2;           /* missed evictions, every time */
		if (st == 0 && all)
			k = EVSET_FIRST_GROUPS;  /* missed evictions */
		else if (st == 0)
			k *= 2;
	}
}

/*
 * The victim moved by d is in another first-level line than the tail's:
 * the tail moved by d takes it out of the levels above.
 */
struct mp_evset mp_evset_tail_moved(const struct mp_evset *e, uint64_t d, uint64_t *buf)
{
	struct mp_evset m = *e;

	for (uint64_t i = 0; i < e->ntail; i++)
		buf[i] = e->tail[i] + d;
	m.tail = buf;
	return m;
}

struct mp_evset mp_evset_tail_also(const struct mp_evset *e, uint64_t d, uint64_t *buf)
{
	struct mp_evset m = mp_evset_tail_moved(e, d, buf + e->ntail);

	mp_memcpy(buf, e->tail, e->ntail * sizeof(*buf));
	m.tail = buf;
	m.ntail = 2 * e->ntail;
	return m;
}

/*
 * Loaded, taken out of the levels above by the tail moved with it, is the
 * victim moved by d read out of this level once the victim's own line is
 * flushed?  It is where it lies in the victim's line here.
 */
static int flushed_with(struct mp_evset *e, uint64_t victim, uint64_t d)
{
	static uint64_t moved[MP_EVSET_MAX_POOL];
	struct mp_evset m = mp_evset_tail_moved(e, d, moved);
	uint64_t at = victim + d;
	bool slow;

	m.flushed = e->base + victim;
	return slow_always(&m, &at, 1, NULL, 0, &slow) < 0 ? -1 : slow;
}

/* In how many of three tests is the victim moved by d flushed with the victim?  -1 failed. */
static int flushed_tests(struct mp_evset *e, uint64_t victim, uint64_t d)
{
	int yes = 0;

	for (int i = 0; i < 3; i++) {
		int ev = flushed_with(e, victim, d);

		if (ev < 0)
			return -1;
		yes += ev;
	}
	return yes;
}

/*
 * The first distance d at which the moved victim stays in the level in
 * all three tests is the line, only where the one before it (d / 2; the
 * victim itself before 16: a flush that takes nothing gives no line)
 * still goes with the victim's flush in most of three tested again.  A
 * distance read slow in one test of three tells neither (a busy host's
 * burst, or the victim left the level): the line is not measured (this
 * project's AMD EPYC guest's L3 gave 32 bytes for 64 in 2 rounds of some
 * 50 where one test of three sufficed).  The
 * victim's line goes by a flush, not by its minimal set: a prefetcher that
 * fetches a missed line's 128-byte pair loads the pairs of the set's
 * lines too, which fill the moved victim's set and evict it as if it lay
 * in the victim's line (this guest's L3 gave 128 bytes for 64 once in ten
 * full runs; the simulated adjacent-line prefetcher gave an L2 128 bytes).
 */
int mp_evset_line(struct mp_evset *e, uint64_t victim, uint64_t *line)
{
	*line = 0;
	for (uint64_t d = 16; d <= 512 && d < e->page / 2; d *= 2) {
		int k = flushed_tests(e, victim, d);

		if (k < 0)
			return -1;
		if (k == 1)
			return 0;
		if (k > 1)
			continue;
		k = flushed_tests(e, victim, d > 16 ? d / 2 : 0);
		*line = k >= 2 ? d : 0;
		return k < 0 ? -1 : 0;
	}
	return 0;
}
