/* SPDX-License-Identifier: MIT */
/*
 * Probe "evset": one level measured (core/probes/evset/run.h), its
 * geometry and size, and whether they hold up: a set a line short that
 * still evicts the victim, ways no second class bore out, a set that stops
 * evicting once a thread sharing the level has gone; another victim where
 * the first was lost at once.
 */
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/probes/evset/run.h"

/*
 * Tests of the victim's set short of each line, and the passes over the
 * set in each: more misses, so that a replacement that spares the victim
 * now and then has more chances to take it (a_line_short).
 */
#define EVSET_SHORT_TESTS 8u
#define EVSET_SHORT_PASSES 8u
/* Searches again after the victim's set stopped evicting it (geometry_over_time). */
#define EVSET_AGAIN 1u
/* Passes of a test where those of calibrate.c found no set (sparing). */
#define EVSET_SPARING_PASSES 32u
/* The share of its time within which the first level's loss takes another victim. */
#define EVSET_QUICK_LOSS 0.1

/* Ticks the level's counts of classes took, this call of evset_measure (another_victim). */
static uint64_t counting;

/* The level's geometry not believed, and why: 0. */
static int not_held(struct level *lv, const char *why)
{
	lv->ways = lv->size = lv->line = lv->classes = lv->counted = lv->conflict = 0;
	lv->sharing = 1;
	lv->alone = lv->exclusive = false;
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
	many.deadline = evset_deadline(rn);
	return mp_evset_short_evictions(&many, rn->x, rn->set, lv->ways, EVSET_SHORT_TESTS, enough);
}

/*
 * Does the victim's set a line short stop evicting it (in none of the
 * tests), tested again up to MP_EVSET_HOLD_TRIES times
 * MP_EVSET_HOLD_REST_US apart: a thread that held a way has gone.  1, 0
 * (or nothing else runs here), -1 failed.
 */
static int stops_later(struct run *rn, const struct mp_evset *e, const struct level *lv)
{
	struct mp_rng rng = e->rng;

	for (unsigned i = 1; i < MP_EVSET_HOLD_TRIES; i++) {
		int st;

		if (!mp_rest_about(rn->c->p, &rng, MP_EVSET_HOLD_REST_US))
			return 0;
		if ((st = short_evictions(rn, e, lv, 1)) <= 0)
			return st < 0 ? -1 : 1;
	}
	return 0;
}

/* Why the ways are undone by a set a line short (a_line_short). */
static const char short_most[] = "its minimal set a line short evicted the victim in most tests "
				 "(a replacement that does not always take the oldest line)";
static const char short_now[] = "its minimal set a line short evicted the victim now and then "
				"(a replacement that does not always take the oldest line, or a "
				"thread sharing it)";

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
	return line_only(lv, borne ? short_most : short_now);
}

/*
 * The ways the count did not bear out (most of its classes' minimal sets
 * of another size): a second class's set must have as many lines
 * (evset_corroborate), else the ways are not measured.  0 (lv says what), -1
 * failed.
 */
static int borne_out(struct run *rn, struct mp_evset *e, struct level *lv)
{
	const char *why = lv->why;
	int st;

	e->deadline = evset_deadline(rn);
	e->late = false;
	if (evset_pool_of(rn, lv) < 0 || (st = evset_corroborate(rn, e, lv, lv->ways)) < 0)
		return -1;
	if (st == 1)
		return lv->why = why, 0;
	return not_held(lv, lv->why);
}

/*
 * The geometry, the exclusion (before the count uses the pool up) and the
 * size with tester e (as evset_calibrated left it); the tester the
 * victim's set was found with in *kept.  0 (lv says what), -1 failed.
 */
static int geometry_and_size(struct run *rn, struct level *lv, struct mp_evset e,
			     struct mp_evset *kept)
{
	bool borne = false;
	uint64_t t;

	if (evset_geometry(rn, &e, lv) < 0 || (lv->ways && evset_exclusion(rn, &e, lv) < 0))
		return -1;
	*kept = e;
	t = mp_now(rn->c->p);
	if (lv->ways && evset_size(rn, &e, lv, &borne) < 0)
		return -1;
	counting += mp_now(rn->c->p) - t;
	if (lv->ways && a_line_short(rn, kept, lv, borne) < 0)
		return -1;
	if (lv->ways && !borne && borne_out(rn, kept, lv) < 0)
		return -1;
	return 0;
}

/*
 * Does the victim's set still evict it?  Tested once where a complete
 * count bore its ways out with sets of that size alone, else
 * MP_EVSET_HOLD_TRIES times about MP_EVSET_HOLD_REST_US apart, so that a
 * thread that held ways meanwhile may have gone.  A count stopped by its time
 * bears ways out with the sets of its first classes alone, which one
 * thread's run may cover: the simulator's 4M 16-way L2 on a coarse clock,
 * with a neighbour holding one of its ways 2^26 cycles of every 2^27,
 * came out 15-way so at seeds 2 and 4 of 1 to 4, and at seed 2 where its
 * tests were 50 ms apart without a draw (the neighbour's period at 2.6
 * GHz; test_probe_evset, stopped_count).  1, 0,
 * -1 a run failed.
 */
static int still_evicts(struct run *rn, const struct level *lv, struct mp_evset *e)
{
	bool doubt = lv->doubt || lv->alone || !lv->classes || lv->conflict;
	unsigned tries = doubt ? MP_EVSET_HOLD_TRIES : 1;

	for (unsigned i = 0; i < tries; i++) {
		int held;

		if (i && !mp_rest_about(rn->c->p, &e->rng, MP_EVSET_HOLD_REST_US))
			return 1;       /* nothing else runs: the test stands */
		if ((held = evset_evicts_mostly(e, rn->x, rn->set, lv->ways)) != 1)
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
		if (evset_pool_of(rn, lv) < 0)
			return -1;
	}
}

/*
 * Could a replacement that spares the victim be why no geometry came out?
 * Not where no prefix of the pool evicted it (the whole pool misses many
 * times a pass: a random replacement takes the victim in two passes), nor
 * where a set a line short evicted it (its lines and the victim fit: a
 * thread that holds a way does that, and more passes give it more
 * chances; on this guest the L2's second round lost its ways so in 4 runs
 * of 6, and the 32 passes spent the rest of its time: evset 4.7 s for 2.7
 * in the quick profile), nor where the time bound passed, nor where its
 * set was a lower level's (more passes find it again).
 */
static bool spares(const char *why)
{
	return why != evset_find_why[0] && why != evset_find_why[2] && why != short_most &&
	       why != short_now && why != evset_past_next;
}

/*
 * Levels whose geometry took EVSET_SPARING_PASSES passes in an earlier
 * round, and levels whose search with them found none (sparing); the
 * time that search may take at most, by profile.
 */
static bool spared[MP_MAX_CACHES + 1], unspared[MP_MAX_CACHES + 1];
static const double sparing_seconds[] = { [MP_PROFILE_QUICK] = 3.0, [MP_PROFILE_FULL] = 20.0 };

/*
 * Where no geometry came out of tests of EVSET_PASSES passes, and the
 * level's time is not up, it is looked for again with tests of
 * EVSET_SPARING_PASSES passes, from the level's calibrated state and a
 * fresh pool.  A replacement that picks the line it evicts at random
 * takes the victim only one miss in `ways`, so a set of the ways evicts it
 * in a few passes now and then, while a set a line short never does (its
 * lines and the victim fit): the simulated Cortex-A9's 16-way random L2 on
 * scattered frames was "not measured" with 2 passes and came out exact
 * with 32.  LRU and its kin evict in the first pass, so the passes only
 * cost the levels whose sets were not found.  The later rounds of the
 * probe take them from the start (spared: a second round's search of
 * that L2 with 2 passes spent its time, and the one with 32 ran out of
 * it).  The search takes sparing_seconds at most, once a run of the probe
 * (unspared): on this guest a full-profile search with 32 passes after the
 * L2's reductions were lost to its busy sibling took the level's whole
 * 180 s.  A note says which passes the geometry took.  0 (lv says what),
 * -1 failed.
 */
static int sparing(struct run *rn, struct level *lv, const struct level *calibrated,
		   const struct mp_evset *calib, struct mp_evset *kept)
{
	struct mp_evset many = *calib;
	const char *why = lv->why;
	char text[MP_NOTE_LEN];
	struct mp_buf b;
	uint64_t bound;

	if (lv->ways || !spares(why) || calib->passes == EVSET_SPARING_PASSES ||
	    unspared[lv->level] || mp_evset_late(&many))
		return 0;
	*lv = *calibrated;
	many.passes = EVSET_SPARING_PASSES;
	bound = mp_now(rn->c->p) +
		(uint64_t)(sparing_seconds[rn->c->cfg->profile] * (double)rn->c->p->tick_hz);
	many.deadline = bound < many.deadline ? bound : many.deadline;
	if (evset_pool_of(rn, lv) < 0 || geometry_over_time(rn, lv, &many, kept) < 0)
		return -1;
	unspared[lv->level] = !lv->ways;
	if (!lv->ways)
		return lv->why = why, 0;
	spared[lv->level] = true;
	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "evset: L%d: no set found with tests of %u passes, %s; with %u, its "
		      "sets evict the victim: a replacement that spares it now and then (random?)",
		      (int)lv->level, calib->passes, why, EVSET_SPARING_PASSES);
	mp_result_add_note(rn->c->r, text);
	return 0;
}

/* Measure one level with victim rn->x: 0 (lv says what and why), -1 when a run failed. */
static int measure_with(struct run *rn, struct level *lv)
{
	struct mp_evset e, kept;
	struct level calibrated;

	evset_tester(rn, lv, &e);
	e.passes = spared[lv->level] ? EVSET_SPARING_PASSES : e.passes;
	if (evset_pool_of(rn, lv) < 0 || evset_calibrated(rn, lv, &e) < 0)
		return -1;
	if (lv->why)
		return 0;
	calibrated = *lv;
	if (geometry_over_time(rn, lv, &e, &kept) < 0 ||
	    sparing(rn, lv, &calibrated, &e, &kept) < 0)
		return -1;
	evset_keep_upper(rn, &kept, lv);
	return 0;
}

/*
 * Another victim, the line of the page before, where the first level
 * measured (no level above holds sets of this victim) was lost within
 * EVSET_QUICK_LOSS of its time: a victim whose set something else
 * keeps busy (our own page walks' lines, a host's thread) fails every
 * round alike, as every round takes the same victim.  On this project's
 * AMD EPYC guest 2 full-profile runs of 6 lost the L2 so, in 0.03 and 0.2
 * s.  The time its counts of classes took is not counted: a set that a
 * line short then undoes is lost as soon as one without a count (a
 * random L2's set of 17 lines for 8 ways, found in tests of 2 passes, was
 * lost 0.6 s after its count, a third of the bound, and no other victim
 * or more passes were tried: test_probe_evset's random L2 at seeds 2 and
 * 5).  Not where its set took the victim past the next level: a clock
 * too coarse does that for any victim.  A note says why the victim
 * before was lost.  1 taken, 0 not, -1 a run failed.
 */
static int another_victim(struct run *rn, const struct level *lv, unsigned tried, uint64_t t0)
{
	struct mp_evset e = { .c = rn->c, .base = rn->m.base };
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	if (tried >= EVSET_VICTIMS || rn->x < rn->m.page_bytes || lv->why == evset_past_next ||
	    mp_seconds_since(rn->c->p, t0 + counting) > EVSET_QUICK_LOSS * evset_seconds(rn->c))
		return 0;
	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "evset: L%d: victim %llu not measured (%s): another taken",
		      (int)lv->level, (unsigned long long)tried, lv->why);
	mp_result_add_note(rn->c->r, text);
	rn->x -= rn->m.page_bytes;
	return mp_evset_hit(&e, rn->x, &rn->hit) < 0 ? -1 : 1;
}

/*
 * Levels whose search for a minimal set ran out of time in an earlier
 * round of this run of the probe: not searched again.  Such a round took
 * the level's whole time bound, past the quick profile's 2.5 s for a
 * probe's rounds, so no third round follows there, and the second's
 * values could only tie the first's "not measured", which a tie keeps
 * (core/measure/vote.c).  On this project's AMD EPYC guest the second
 * round of such a run spent another 3 s losing the L2 again (evset 6.0 s,
 * the quick suite 13.1 s).
 */
static bool searched_out[MP_MAX_CACHES + 1];

/* A first round forgets both: what ran out of time, what took more passes (spared). */
void evset_searches_forgotten(void)
{
	mp_memset(searched_out, 0, sizeof(searched_out));
	mp_memset(spared, 0, sizeof(spared));
	mp_memset(unspared, 0, sizeof(unspared));
}

/*
 * The L1, measured here where the l1 probe recorded no geometry (probe.c),
 * stands only with two classes or more at a page offset, all counted: a
 * physically indexed L1 whose way spans pages, which X-Ray cannot measure
 * on scattered frames (the simulated Cortex-A9's 32K 4-way L1, 8K a way).
 * With one class its way is a page or less, the l1 probe's to measure,
 * which then failed for another reason: a thread sharing the core that
 * takes ways now and then leaves minimal sets a way or two short while it
 * runs (this project's AMD EPYC guest, 48K 12-way, read 40K 10-way so),
 * and only that probe's sharp-edge check refuses them.  Its ways and way,
 * not recorded, still size the tails of the levels below (probe.c,
 * l1_for_below; where its size was not counted, the documentation's), and
 * they are measured as under an L1 the l1 probe measured: its set is
 * forgotten (their pools are not screened by it).
 */
static void l1_spans_pages(struct run *rn, struct level *lv)
{
	if (lv->level != 1 || !lv->ways || (lv->size && lv->classes >= 2))
		return;
	rn->up.m = 0;
	if (!lv->size) {
		not_held(lv, lv->why);
		return;
	}
	rn->l1_ways = lv->ways;
	rn->l1_way = lv->size / lv->ways;
	not_held(lv, "its lines at a page offset are of one class: its way is a page or less, "
		     "which the l1 probe measures (a thread sharing the core may take ways)");
}

/* Measure one level: 0 (lv says what and why), -1 when a run failed. */
int evset_measure(struct run *rn, struct level *lv)
{
	const struct level start = *lv;
	uint64_t t0 = mp_now(rn->c->p);
	bool movable = !rn->up.m;   /* no level above was measured with this victim */

	if (lv->level > 2 && !rn->up.m)
		return lv->why = "the level above was not measured here", 0;
	if (searched_out[lv->level])
		return lv->why = "its search ran out of time in an earlier round", 0;
	counting = 0;
	for (unsigned tried = 1; ; tried++) {
		int moved;

		if (measure_with(rn, lv) < 0)
			return -1;
		if (lv->ways || !movable || (moved = another_victim(rn, lv, tried, t0)) == 0)
			break;
		if (moved < 0)
			return -1;
		*lv = start;
	}
	searched_out[lv->level] = !lv->ways && lv->why == evset_find_why[2];
	l1_spans_pages(rn, lv);
	return 0;
}
