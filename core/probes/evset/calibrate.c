/* SPDX-License-Identifier: MIT */
/*
 * Probe "evset": a level's tester (core/probes/evset/run.h), and its
 * threshold between this level and the next, taken from the victim
 * itself: its time once out of the levels above only, and once out of
 * this level too; the tries a test takes where a coarse clock or a busy
 * host reads a victim left in the level slow now and then.
 */
#include "core/lib/buf.h"
#include "core/lib/fmath.h"
#include "core/lib/sort.h"
#include "core/probes/evset/run.h"

/*
 * Passes of tail, set, tail per try (docs/algorithms.md, "The test").
 */
#define EVSET_PASSES 2u
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
/* The least ratio of a level's latency to the one above's (next_bound). */
#define EVSET_NEXT_RATIO 2.0
/*
 * Tries whose times calibrate the threshold; how far apart the two
 * must be; groups of a few candidates for the time out of the L1 (time_above).
 */
#define EVSET_CALIBRATE_TRIES 5u
#define EVSET_APART 1.25
#define EVSET_FEW_GROUPS 3u
/*
 * Seconds of the platform's clock a level may take, by profile.  The full
 * profile counts every class: the simulated Power3 (375 MHz, 136-cycle
 * memory) counted 502 of its L2's 512 classes at a page offset in 60 s.
 */
static const double level_seconds[] = { [MP_PROFILE_QUICK] = 3.0, [MP_PROFILE_FULL] = 180.0 };

double evset_seconds(const struct mp_ctx *c)
{
	return level_seconds[c->cfg->profile];
}

/* The platform's clock when a level's time (by profile) from now is up. */
uint64_t evset_deadline(const struct run *rn)
{
	struct mp_platform *p = rn->c->p;

	return mp_now(p) + (uint64_t)(evset_seconds(rn->c) * (double)p->tick_hz);
}

/*
 * Where a victim reads as out of this level, over a hit above, in the
 * level's latencies: the geometric mean of this level's and the next's
 * "levels" gives, but no more than EVSET_NEXT_RATIO times this level's,
 * so that a level "levels" missed between the two still reads slow (the
 * least step between levels in the simulator's library is Itanium 2's L3,
 * 2.3 times its L2; the cap only binds where the next is more than 4
 * times this level).  A busy spell on this project's AMD EPYC guest made
 * "levels" miss its L3 in 2 full runs of 4: with memory's latency as the
 * next, the threshold (91 ticks) lay above the L3 hit's reads (63 and
 * 84), a set that evicted the victim from the L2 alone read as none, and
 * the L2 was lost; a simulated 512K 8-way L2 over an exclusive 1M L3 came
 * out 1536K 24-way so, the two as one (test_probe_evset, "missed level").
 */
static double next_bound(const struct level *lv)
{
	double mean = mp_sqrt(lv->lat * lv->next), most = EVSET_NEXT_RATIO * lv->lat;

	return mean < most ? mean : most;
}

void evset_tester(struct run *rn, struct level *lv, struct mp_evset *e)
{
	*e = (struct mp_evset){
		.c = rn->c, .base = rn->m.base, .bytes = rn->m.bytes, .page = rn->m.page_bytes,
		.passes = EVSET_PASSES, .trials = EVSET_TRIALS, .deadline = evset_deadline(rn),
	};
	mp_rng_seed(&e->rng, rn->c->cfg->seed + (uint64_t)lv->level);
	/*
	 * A victim run costs the seam's run and an L1 hit; beyond that, the
	 * level's latency.  Between it and the next level's, the geometric
	 * mean: the next latency "levels" gives may be the memory's or a
	 * blend (a virtual machine's share of an L3), and the step is wide.
	 * Not past EVSET_NEXT_RATIO times this level's, where a level
	 * "levels" missed may lie (below).  The run's cost is the hit's mean:
	 * on a clock that moves in steps its least is up to a step short
	 * (mp_evset_hit).  On this project's Zen 3 guest (a TSC in steps of
	 * 24.5 ticks) an L1 hit read 49 or 73, the victim in the L2 73 or 74,
	 * out of it 98: from the least, the threshold (64) lay below the L2's
	 * reads in most runs, and the L2 was not measured ("no threshold
	 * above a hit", or sets that evicted only with a tail).
	 */
	e->slow = lv->missed ? UINT64_MAX
			     : (uint64_t)evset_read_of(rn, next_bound(lv));
}

/* Groups of lines that take the victim out of the levels above only (time_above). */
static uint64_t above_groups(const struct run *rn, const struct level *lv)
{
	uint64_t few = evset_tail_lines(lv), g = 1;

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
	uint64_t few = evset_tail_lines(lv);

	if (rn->up.m || lv->inpage) {
		*s = rn->up.set;
		return lv->inpage ? 0 : rn->up.m;
	}
	*s = rn->pool + g * few;
	return few < lv->n ? few : lv->n;
}

/* The victim's times once out of the levels above only (time_above). */
struct above {
	uint64_t least;         /* each group's least: their median */
	uint64_t median;        /* each group's median: their median */
	uint64_t most;          /* the slowest try of any group */
};

/*
 * The victim's times once out of the levels above only: after the level
 * above's minimal set, or after nothing where the tail lies in the pages,
 * or for the L2 after a few candidates: the median over EVSET_FEW_GROUPS
 * groups of them, the lower of two (a group may hold a line of the
 * victim's set here: under a direct-mapped L2 of 64 classes at a page
 * offset, one of its four candidates did so at one seed of eight, and the
 * level was lost).
 */
static int time_above(struct run *rn, struct level *lv, struct mp_evset *e, struct above *a)
{
	uint64_t least[EVSET_FEW_GROUPS], median[EVSET_FEW_GROUPS], ng = above_groups(rn, lv);

	a->most = 0;
	for (uint64_t g = 0; g < ng; g++) {
		const uint64_t *s;
		uint64_t n = above_group(rn, lv, g, &s);
		struct mp_evset_times tt;

		if (mp_evset_time(e, rn->x, s, n, EVSET_CALIBRATE_TRIES, &tt) < 0)
			return -1;
		least[g] = tt.least;
		median[g] = tt.median;
		a->most = tt.most > a->most ? tt.most : a->most;
	}
	a->least = mp_median_u64(least, ng);
	a->median = mp_median_u64(median, ng);
	return 0;
}

static void note_trials(struct run *rn, const struct level *lv, unsigned slow, unsigned trials)
{
	char text[MP_NOTE_LEN];
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

/* The chance of exactly i of k tries, each of chance p: C(k, i) p^i (1 - p)^(k - i). */
static double exactly(unsigned k, unsigned i, double p)
{
	double term = 1.0;

	for (unsigned j = 0; j < i; j++)
		term *= p * (double)(k - j) / (double)(j + 1);
	for (unsigned j = i; j < k; j++)
		term *= 1.0 - p;
	return term;
}

/* The chance of c or more of k tries, each of chance p. */
static double at_least(unsigned k, unsigned c, double p)
{
	double sum = 0.0;

	for (unsigned i = c; i <= k; i++)
		sum += exactly(k, i, p);
	return sum;
}

/*
 * The fewest tries, up to EVSET_MAX_TRIALS, and the most of them that
 * must read slow (in *needed), for which a victim left in the level
 * (reading slow in a share `in` of the tries) is called evicted, and one
 * taken out of it (slow in a share `out`) is not, each at most
 * EVSET_FALSE_EVICT of the time.  0 where none is.
 */
static unsigned vote_for(double in, double out, unsigned *needed)
{
	for (unsigned k = 1; k <= EVSET_MAX_TRIALS; k++)
		for (unsigned c = k; c >= 1; c--)
			if (at_least(k, c, in) <= EVSET_FALSE_EVICT &&
			    at_least(k, k - c + 1, 1.0 - out) <= EVSET_FALSE_EVICT)
				return *needed = c, k;
	return 0;
}

/* Tries of each victim that price the shares of a vote (fit_vote). */
#define EVSET_VOTE_TRIES (6u * MP_EVSET_MAX_TRIES)

/* Tries of EVSET_VOTE_TRIES with set s (n lines) that read x slower than f's threshold. */
static int slow_reads(struct mp_evset *f, uint64_t x, const uint64_t *s, uint64_t n,
		      unsigned *slow)
{
	*slow = 0;
	for (unsigned i = 0; i < EVSET_VOTE_TRIES; i += MP_EVSET_MAX_TRIES) {
		struct mp_evset_times t;

		if (mp_evset_time(f, x, s, n, MP_EVSET_MAX_TRIES, &t) < 0)
			return -1;
		*slow += t.slow;
	}
	return 0;
}

static void note_vote(struct run *rn, const struct level *lv, const struct mp_evset *e,
		      unsigned in, unsigned out)
{
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "evset: L%d: a test calls the victim evicted in %u of %u tries slower "
			  "than %llu ticks, which the victim read in %u of %u tries in the level, "
			  "%u of %u out of it", (int)lv->level, e->needed, e->trials,
		      (unsigned long long)e->slow, in, EVSET_VOTE_TRIES, out, EVSET_VOTE_TRIES);
	mp_result_add_note(rn->c->r, text);
}

/*
 * Slow reads of EVSET_VOTE_TRIES at threshold `slow`: of the victim after
 * group g of time_above (*in), and after the shortest prefix of the pool
 * that evicts it (*out; found with the tester as it is).  1, 0 no prefix
 * evicts, -1 failed.
 */
static int reads_at(struct run *rn, struct level *lv, const struct mp_evset *e, uint64_t g,
		    uint64_t slow, unsigned *in, unsigned *out)
{
	struct mp_evset f = *e;
	const uint64_t *s;
	uint64_t n = above_group(rn, lv, g, &s), p;
	int st;

	if ((st = mp_evset_prefix(&f, rn->x, rn->pool, lv->n, &p)) != 1)
		return st;
	f.slow = slow;
	if (slow_reads(&f, rn->x, s, n, in) < 0 || slow_reads(&f, rn->x, rn->pool, p, out) < 0)
		return -1;
	return 1;
}

/*
 * The vote (vote_for) that `in` and `out` slow reads of EVSET_VOTE_TRIES,
 * in the level and out of it, give: by the bounds on each share
 * (slow_share; the share out of the level from below).
 */
static unsigned vote_of(unsigned in, unsigned out, unsigned *needed)
{
	return vote_for(slow_share(in, EVSET_VOTE_TRIES),
			1.0 - slow_share(EVSET_VOTE_TRIES - out, EVSET_VOTE_TRIES), needed);
}

/* The tester takes the vote: `k` tries at threshold `slow`, `c` of them slow; a note. */
static void vote_taken(struct run *rn, const struct level *lv, struct mp_evset *e, uint64_t slow,
		       unsigned k, unsigned c, unsigned in, unsigned out)
{
	e->slow = slow;
	e->trials = k;
	e->needed = c;
	note_vote(rn, lv, e, in, out);
}

/*
 * A vote of the tries, where it takes fewer than a test that asks every
 * try to read slow (fit_trials): the threshold at `median`, the median
 * read of the victim left in the level, and the tries and the slow ones
 * among them that tell such a victim from one taken out of the level
 * (vote_for), by bounds on the shares of slow reads of each (slow_share):
 * the victim after group g of time_above, and after the shortest prefix
 * of the pool that evicts it (found with the tester fitted).  The
 * threshold stays below halfway between the latencies of this level and
 * the next, so that a hit in the next level is never read as one in this.
 * A coarse clock calls for this: on this project's AMD guest "Turin-like"
 * (Zen 5 class, its TSC in steps of 21 ticks) the victim left in the L2
 * read 42 or 63 ticks, 63 in most tries, and out of it 84 or 105, now
 * and then 63; the latencies put the threshold at 57, every test took 16
 * tries that all had to read slow, and a set a line short passed some
 * (the L2 came out 15-way in one run of 11).  -1 failed.
 */
static int fit_vote(struct run *rn, struct level *lv, struct mp_evset *e, uint64_t g,
		    uint64_t median)
{
	unsigned in, out, k, c = 0;
	int st;

	if ((double)median >= evset_read_of(rn, (lv->lat + lv->next) / 2))
		return 0;
	if ((st = reads_at(rn, lv, e, g, median, &in, &out)) != 1)
		return st;
	k = vote_of(in, out, &c);
	if (k == 0 || k >= e->trials)
		return 0;
	vote_taken(rn, lv, e, median, k, c, in, out);
	return 0;
}

/*
 * A vote at the threshold as it is, where the victim taken out of the
 * level read fast in some of EVSET_VOTE_TRIES tries there (after the
 * shortest prefix of the pool that evicts it): a test whose every try must
 * read slow then misses evictions, which lose reductions.  A clock that
 * moves in steps does this where the level's hit and the next's lie about
 * a step apart: on this project's Zen 3 guest (a TSC in steps of 24.5
 * ticks; its L2 and L3 hits some 32 apart) the victim in the L2 read 73
 * or 74, out of it 98 and now and then 73, and with two tries a test that
 * all had to read slow, most rounds lost the L2 ("every reduction lost the
 * eviction", or sets found only with a tail).  Taken whatever its tries:
 * the test it replaces is wrong too often.  -1 failed.
 */
static int fit_misses(struct run *rn, struct level *lv, struct mp_evset *e, uint64_t g)
{
	unsigned in, out, k, c = 0;
	int st;

	if ((st = reads_at(rn, lv, e, g, e->slow, &in, &out)) != 1)
		return st;
	if (out == EVSET_VOTE_TRIES)
		return 0;
	k = vote_of(in, out, &c);
	if (k != 0)
		vote_taken(rn, lv, e, e->slow, k, c, in, out);
	return 0;
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
static int fit_trials(struct run *rn, struct level *lv, struct mp_evset *e, uint64_t median,
		      uint64_t *best)
{
	struct mp_evset f = *e;
	unsigned least = EVSET_RATE_TRIES + 1;
	uint64_t ng = above_groups(rn, lv);

	for (uint64_t g = 0; g < ng; g++) {
		const uint64_t *s;
		uint64_t n = above_group(rn, lv, g, &s);
		struct mp_evset_times t;

		if (mp_evset_time(&f, rn->x, s, n, EVSET_RATE_TRIES, &t) < 0)
			return -1;
		*best = t.slow < least ? g : *best;
		least = t.slow < least ? t.slow : least;
	}
	e->trials = trials_for(least);
	if (e->trials > EVSET_TRIALS)
		note_trials(rn, lv, least, e->trials);
	return e->trials > EVSET_TRIALS && median > e->slow ? fit_vote(rn, lv, e, *best, median) : 0;
}

static const char no_slower[] = "the victim loads no slower after the whole pool";

/*
 * Does the victim load slower after the whole pool than out of the levels
 * above only, by EVSET_APART, in the median of its tries?  On a clock in
 * steps a least is up to a step short: on this project's Zen 3 guest the
 * L3 hit read 73 now and then for 98, as the L2 hit reads, and one such
 * read of five called the pool too small (the L2 not measured so in 3
 * quick runs of 22).  A pool too small leaves the victim in the level in
 * most tries, and its median there.
 */
static bool slower(const struct above *in, const struct mp_evset_times *out)
{
	return (double)out->median >= EVSET_APART * (double)in->median;
}

/*
 * Halfway between the victim's times in the level and out of it: the
 * medians', where a clock that moves in steps reads a least up to a step
 * short (the Zen 3 guest's victim in the L2 read 49 in some tries of 73
 * and 74, out of it 73 in one of 98, and the leasts' halfway, 61, lay
 * below most reads in the level); where "levels" gave no latency (missed),
 * the leasts', the only bound on the next level: a median after the whole
 * pool may be memory's.
 */
static uint64_t halfway(const struct level *lv, const struct above *in,
			const struct mp_evset_times *out)
{
	return lv->missed ? (in->least + out->least) / 2 : (in->median + out->median) / 2;
}

/*
 * The threshold from the victim itself: its time once out of the levels
 * above only (time_above), and once out of this level too (after the
 * whole pool); halfway between, or the geometric mean of the latencies
 * "levels" gives this level and the next where that is lower: the whole
 * pool may evict the victim from the next level too, and on a busy host
 * the next latency may be memory's one run and a blend the next
 * (halfway).  Then, where some try of time_above read slower than that,
 * the tries a test takes (fit_trials), and where no vote was taken so, a
 * vote if the victim out of the level read fast now and then
 * (fit_misses).  0 (lv->why when the two times are not apart), -1 failed.
 */
static int calibrate(struct run *rn, struct level *lv, struct mp_evset *e)
{
	struct above in;
	struct mp_evset_times out;
	uint64_t g = 0;         /* the group of time_above a vote reads after */
	uint64_t mid;

	if (time_above(rn, lv, e, &in) < 0 ||
	    mp_evset_time(e, rn->x, rn->pool, lv->n, EVSET_CALIBRATE_TRIES, &out) < 0)
		return -1;
	if (!slower(&in, &out))
		return lv->why = no_slower, 0;
	if (lv->missed)         /* no latency from "levels": the victim's own, in ticks */
		lv->lat = (double)in.least - rn->hit.least + rn->l1_lat;
	/* Not past the next level: the whole pool may evict the victim from it too. */
	mid = halfway(lv, &in, &out);
	e->slow = mid < e->slow ? mid : e->slow;
	if (e->slow <= in.least)
		return lv->why = "the latencies give no threshold above a hit here", 0;
	if (in.most > e->slow && fit_trials(rn, lv, e, in.median, &g) < 0)
		return -1;
	return e->needed ? 0 : fit_misses(rn, lv, e, g);
}

/* The tester with a tail inside the pages, where one fits and is whole: true. */
static bool inpage_tail(struct run *rn, struct level *lv, struct mp_evset *e)
{
	if (!evset_inpage_fits(rn, lv))
		return false;
	evset_tester(rn, lv, e);
	e->tail = rn->tail;
	e->ntail = evset_inpage_lines(rn, lv, rn->tail);
	lv->inpage = e->ntail == evset_tail_lines(lv);
	return lv->inpage;
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
int evset_calibrated(struct run *rn, struct level *lv, struct mp_evset *e)
{
	bool grew = false;

	if (calibrate(rn, lv, e) < 0)
		return -1;
	while (lv->why == no_slower && evset_double_pool(rn, lv, e)) {
		grew = true;
		lv->why = NULL;
		if (evset_pool_of(rn, lv) < 0 || calibrate(rn, lv, e) < 0)
			return -1;
	}
	if (grew && !lv->why && evset_double_pool(rn, lv, e) && evset_pool_of(rn, lv) < 0)
		return -1;
	if (lv->why == no_slower && !evset_pool_grows(rn->c))
		lv->why = "the victim loads no slower after the whole pool (the full profile grows it)";
	if (!lv->why || !inpage_tail(rn, lv, e))
		return 0;
	lv->why = NULL;
	return calibrate(rn, lv, e);
}
