/* SPDX-License-Identifier: MIT */
/*
 * Probe "evset": a level's size (core/probes/evset/run.h) from its
 * congruence classes at the victim's page offset, and the line offsets
 * in a page whose lines share its sets.
 */
#include "core/lib/str.h"
#include "core/probes/evset/run.h"

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
/*
 * Levels whose count of classes (the offsets sharing a set, its first
 * step, included) ran out of time in an earlier search of the level in
 * this run of the probe (an earlier round, or another victim or more
 * passes in this one): not counted again, as the rounds after it would
 * spend as long for a vote it cannot win (two rounds, one of them without
 * the size).  On this project's AMD EPYC guest the quick profile's count
 * of the L2 ran out in most runs, and its second round doubled evset's
 * 3 s.
 */
static bool ran_out[MP_MAX_CACHES + 1];
/*
 * Lines of the victim's class an offset's screen is to meet, as the pool
 * at the victim's own offset gives them (screened_share).
 */
#define EVSET_SHARE_DEPTH 32u
/* Tests of a line's pair, all of which must leave it in the level (pair_apart). */
#define EVSET_PAIR_TESTS 3u
/*
 * The pool and the tail moved to another offset in their pages, and the
 * screen's answers (offset_congruent); the count's tail inside the pages
 * (inpage_count).
 */
static uint64_t moved[MP_EVSET_MAX_POOL], moved_tail[2 * UPPER_TAIL], swapped[UPPER_SET];
static uint64_t count_tail[UPPER_TAIL];
static bool moved_slow[MP_EVSET_MAX_POOL];

/* A new run of the probe: no level has run out yet (its round 0). */
void evset_counts_forgotten(void)
{
	mp_memset(ran_out, 0, sizeof(ran_out));
}

/*
 * Counted within the victim's class above: every class above holds as
 * many of this level's (docs/algorithms.md), so the classes at a page
 * offset are those within one times the classes above.
 */
static int within_size(struct run *rn, struct level *lv, const struct mp_evset_classes *k)
{
	lv->counted = k->count;
	if (!k->complete)
		return lv->why = k->why, 0;
	lv->classes = k->count * rn->up.classes;
	lv->conflict = k->conflict * rn->up.classes;
	lv->size = lv->classes * rn->m.page_bytes * lv->ways;
	return 0;
}

/*
 * Does the count take a tail inside the pages (evset_inpage_lines)?  Where the
 * L1 has more ways than this level, a set without a tail must hold the
 * L1's ways to take the victim out of it, and the seeded count's tail, the
 * victim's class, can hold no more than the pool gives a class: the
 * simulated Power3's 4-way L2 under its 128-way L1 counted no class
 * either way.  A tail inside the pages is congruent with no candidate
 * here where no other offset shares a set (lv->sharing).
 */
static bool inpage_count(const struct run *rn, const struct level *lv)
{
	return lv->up_ways > lv->ways && lv->sharing == 1 && evset_inpage_fits(rn, lv);
}

/*
 * The classes at the victim's page offset, seeded with the victim's class
 * and the tester's tail (a tailed level without a tail inside the pages;
 * any level whose count without a tail does not complete), or else
 * counted with a tail inside the pages where `inpage` (inpage_count), or
 * without a tail.
 */
static int count_once(struct run *rn, const struct mp_evset *e, struct level *lv,
		      const struct mp_evset_seed *seed, bool inpage, struct mp_evset_classes *k)
{
	struct mp_evset t = *e;

	if (!seed) {
		t.tail = inpage ? count_tail : NULL;
		t.ntail = inpage ? evset_inpage_lines(rn, lv, count_tail) : 0;
	}
	if (evset_pool_of(rn, lv) < 0)
		return -1;
	return mp_evset_count(&t, rn->pool, lv->n, lv->ways, evset_tail_lines(lv), seed,
			      evset_pool_may_grow(rn, lv), k);
}

/*
 * The count (count_once), again with a pool as many times larger as a
 * count that stopped on a thin pool asks (mp_evset_classes.depth): where
 * the profile and the arena let the pool grow (else a thin pool's count
 * goes on, and completes where its classes happen to have enough).
 */
static int count(struct run *rn, const struct mp_evset *e, struct level *lv,
		 const struct mp_evset_seed *seed, bool inpage, struct mp_evset_classes *k)
{
	do {
		if (count_once(rn, e, lv, seed, inpage, k) < 0)
			return -1;
	} while (k->depth && evset_grow_pool(rn, lv, k->want, k->depth));
	return 0;
}

/*
 * Does line y (at another offset) take the place of one of the victim's
 * minimal set: does the set with its first line swapped for y still evict
 * the victim in most of EVSET_RECHECKS tests, as the set itself had to
 * (geometry.c, repeatable), while the set without that line does not?
 * Asked with both tails; where the set without the line evicts with them,
 * the moved tail holds lines of the victim's class, and the victim's own
 * tail alone is asked (without, test_probe_evset's folded L2 found too
 * few offsets sharing, and lost its size).  A minimal set short of a line
 * never evicts, unless a neighbour holds a way of the victim's set
 * meanwhile: then any line passed (the simulated Core i7 with a neighbour
 * holding an L2 way found 8 of 64 offsets sharing, and its 256K L2 came
 * out 32K).  1, 0, -1 a run failed.
 */
static int swap_evicts(struct run *rn, struct mp_evset *both, struct mp_evset *own,
		       const struct level *lv, uint64_t y)
{
	struct mp_evset *t = both;
	int short_evicts = evset_evicts_mostly(t, rn->x, rn->set + 1, lv->ways - 1);

	if (short_evicts == 1)
		short_evicts = evset_evicts_mostly(t = own, rn->x, rn->set + 1, lv->ways - 1);
	if (short_evicts != 0)
		return short_evicts < 0 ? -1 : 0;
	mp_memcpy(swapped, rn->set, lv->ways * sizeof(*rn->set));
	swapped[0] = y;
	return evset_evicts_mostly(t, rn->x, swapped, lv->ways);
}

/*
 * Is y's place in the victim's set its own, not its pair's?  The two lines
 * of an aligned pair (2 x the line) are never in one set of a level of
 * more than one set, but an adjacent-line prefetcher fetches a missed
 * line's pair with it (Intel's spatial prefetcher, AMD's adjacent-line
 * fetch; sim/prefetch.c, adjacent): where y's pair is a line of the
 * victim's class, y takes a way of its set through it, and the offset one
 * line from the victim's shares every set (with such a prefetcher at the
 * L2, a simulated 512K L2 came out 256K: test_probe_evset's adjacent-l2).
 * The pair is apart where x's set evicts it in none of EVSET_PAIR_TESTS
 * tests (or its tail alone does): every line of the victim's class passes
 * the swap through its pair at that offset, and two tests running
 * (mp_evset_evicts_own) missed the pair's eviction twice in one count
 * under a clock in steps of 24.45 cycles (the simulated Zen 3 guest with
 * that prefetcher, memprobe-sim's quick profile at seed 3: 256K in one
 * round of two).  1 apart, 0 not, -1 a run failed.
 */
static int pair_apart(struct run *rn, struct mp_evset *e, const struct level *lv, uint64_t y)
{
	uintptr_t at = (uintptr_t)(e->base + y);
	uint64_t pair = (uint64_t)((at ^ lv->line) - (uintptr_t)e->base);
	int ev;

	if (pair % rn->m.page_bytes != rn->x % rn->m.page_bytes)
		return 1;
	ev = mp_evset_evictions(e, pair, rn->set, lv->ways, EVSET_PAIR_TESTS, 1);
	if (ev != 0)
		return ev < 0 ? -1 : mp_evset_tail_evicts(e, pair);
	return 1;
}

/*
 * Are lines at offset o of the pool's pages congruent with the victim?
 * Candidates first: lines its minimal set evicts (screened, then
 * confirmed), with the tail and the tail moved to o both
 * (mp_evset_tail_also: the moved lines take the candidates out of the
 * levels above at every pass, the tail in place the set's lines; with the
 * moved tail alone the set's lines stayed in the L1 after a try's first
 * pass, and a random L2 not inclusive of it, test_probe_evset's
 * random-folded, came out 4 times its size, no offset found shared), and
 * the tails alone do not.  Moved, the tail is no longer free of any
 * class: under a plain index it held the ways of some class at o now and
 * then, and that class's lines made every such offset look shared (the
 * simulated Skylake's 256K L2 came out 4K); with a neighbour holding a way
 * while the set ran and not while the tail ran alone, a class holding
 * some of the tail still passed (the simulated Core i7's L2 came out 128K
 * at one seed).  So a candidate must then take the place of a line of the
 * victim's set (swap_evicts), by a place of its own (pair_apart), and
 * EVSET_SHARE_LINES that do make the offset shared.  1, 0, -1 a run failed.
 */
static int offset_congruent(struct run *rn, struct mp_evset *e, const struct level *lv,
			    uint64_t o, uint64_t share)
{
	uint64_t step = EVSET_SCREEN_LOOK * EVSET_SCREEN_BATCH, found = 0;
	struct mp_evset t = mp_evset_tail_also(e, o, moved_tail);

	for (uint64_t i = 0; i < share; i++)
		moved[i] = rn->pool[i] + o;
	for (uint64_t at = 0; at < share && !mp_evset_late(e); at += step) {
		uint64_t k = share - at < step ? share - at : step;

		if (mp_evset_screen(&t, moved + at, k, rn->set, lv->ways, EVSET_SCREEN_BATCH,
				    moved_slow) < 0)
			return -1;
		for (uint64_t i = 0; i < k; i++) {
			int ev = moved_slow[i] ? mp_evset_evicts_own(&t, moved[at + i], rn->set, lv->ways)
					       : 0;

			if (ev > 0)
				ev = swap_evicts(rn, &t, e, lv, moved[at + i]);
			if (ev > 0)
				ev = pair_apart(rn, e, lv, moved[at + i]);
			if (ev < 0)
				return -1;
			if ((found += (uint64_t)ev) == EVSET_SHARE_LINES)
				return 1;
		}
	}
	return 0;
}

/*
 * The first lines of the pool an offset's screen takes, into *share: as
 * many as hold EVSET_SHARE_DEPTH lines of the victim's class at its own
 * offset, the whole pool where it holds no more.  The pool's lines fall
 * in the classes of a sharing offset as in the victim's, a Poisson count
 * about as deep; the lines the screen calls slow wrongly only make the
 * share smaller (with a random replacement two in five of them), so some
 * 20 to 32 of the class are expected, and fewer than two come at odds
 * below 1e-7.  A plain offset, the most, screens the share alone: with
 * both tails a random L2's tests of 32 passes cost 1.75 times as much,
 * and the whole pool at each of 63 offsets took a simulated random 512K
 * L2 (test_probe_evset's random-l2) 1.7 s of its quick 3 s, leaving its
 * count too little.  -1 a run failed.
 */
static int screened_share(struct run *rn, struct mp_evset *e, const struct level *lv,
			  uint64_t *share)
{
	uint64_t depth = 0;

	if (mp_evset_screen(e, rn->pool, lv->n, rn->set, lv->ways, EVSET_SCREEN_BATCH,
			    moved_slow) < 0)
		return -1;
	for (uint64_t i = 0; i < lv->n; i++)
		depth += moved_slow[i];
	*share = depth <= EVSET_SHARE_DEPTH ? lv->n : lv->n * EVSET_SHARE_DEPTH / depth + 1;
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
	uint64_t share;

	if (screened_share(rn, e, lv, &share) < 0)
		return -1;
	lv->sharing = 1;
	for (uint64_t o = lv->line; o < rn->m.page_bytes && !e->late; o += lv->line) {
		int ev = offset_congruent(rn, e, lv, o, share);

		if (ev < 0)
			return -1;
		lv->sharing += (uint64_t)ev;
	}
	return 0;
}

/*
 * The classes at a page offset, from those counted in a pool that keeps
 * the victim's L1 colour only (pool.c, filter_colour: an L1 whose way
 * spans several pages) where the pages' colours are physical (memory
 * known to be physically contiguous, as on bare metal): the level's index
 * takes the colour's bits with the bits above them, so every colour holds
 * as many classes, and the pool those of one.  A single class counted may
 * be all the level has at a page offset (its way no larger than the L1's)
 * or one colour's: then not measured.  The simulated Opteron's 1M L2 under
 * a 64K 2-way L1, on contiguous frames, came out 128K without this (2
 * classes of its 16).  On scattered frames a page's colour tells nothing
 * of its frame's, and the pool holds every class.  False where not
 * measured (lv->why).
 */
static bool colour_classes(const struct run *rn, struct level *lv)
{
	uint64_t colours = rn->l1_way / rn->m.page_bytes;

	if (colours <= 1 || rn->up.m || !rn->m.contiguous)
		return true;
	if (lv->classes == 1) {
		lv->why = "its pool keeps one L1 colour of contiguous memory, "
			  "and its one class there may be that colour's or all of them";
		lv->classes = 0;
		return false;
	}
	lv->classes *= colours;
	return true;
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
static const char *const ran_out_why[] = {
	[MP_PROFILE_QUICK] = "its count of classes ran out of time in an earlier search of the "
			     "level, this round's or a round before (the full profile gives it "
			     "longer)",
	[MP_PROFILE_FULL] = "its count of classes ran out of time in an earlier search of the "
			    "level, this round's or a round before",
};

static const char *not_counted(const struct run *rn, const struct level *lv)
{
	if (ran_out[lv->level])
		return ran_out_why[rn->c->cfg->profile];
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
int evset_size(struct run *rn, struct mp_evset *e, struct level *lv, bool *borne)
{
	struct mp_evset_classes k, first = { 0 };   /* first: a count the seeded one follows */
	struct mp_evset_seed seed = { .x = rn->x, .set = rn->set, .m = lv->ways };
	uint64_t half = rn->x + rn->m.page_bytes / 2;
	int ev = mp_evset_evicts(e, half, rn->set, lv->ways);
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
	evset_more_pages(rn, lv, lv->sharing);
	inpage = inpage_count(rn, lv);
	if (count(rn, e, lv, lv->tailed && !inpage ? &seed : NULL, inpage, &k) < 0)
		return -1;
	if (!k.complete && !k.late && !lv->tailed && !inpage) {
		first = k;
		if (count(rn, e, lv, &seed, false, &k) < 0)
			return -1;
	}
	ran_out[lv->level] = k.late;
	*borne = first.same + k.same > first.other + k.other + first.shorter + k.shorter;
	lv->doubt = first.other + k.other + first.larger + k.larger + first.shorter + k.shorter > 0;
	if (lv->within)
		return within_size(rn, lv, &k);
	lv->counted = k.count;
	if (!k.complete)
		return lv->why = k.why, 0;
	lv->classes = k.count;
	lv->conflict = k.conflict;
	return colour_classes(rn, lv) ? size_of(rn, lv) : 0;
}
