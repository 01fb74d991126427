/* SPDX-License-Identifier: MIT */
/*
 * Probe "evset": the tail (core/probes/evset/run.h), lines congruent with
 * the victim at every level above but not at this one, which take it out
 * of the levels above whatever a set does there: picked from the pool,
 * with a stand-in where a victim level shows its sets only with a tail,
 * or inside the pages where the L1's way is smaller than a page.
 */
#include "core/lib/str.h"
#include "core/probes/evset/run.h"

/* Stand-in tails tried, each the next candidates of the pool (evset_tail_of). */
#define EVSET_STAND_INS 3u
/* The stand-in tail (stand_in_set). */
static uint64_t stand_in[UPPER_TAIL];

/*
 * How a tail is picked with each kind of set `by` (enum evset_by): the
 * tests a candidate must pass unevicted (a line of the victim's class in
 * the tail counts as a way), and whether the pick gives up once `by` has
 * evicted as many candidates as the tail wants and none other (a prefix
 * past every class's threshold).  A set that did not hold up evicts its
 * class only now and then: with two tests the tails picked with such sets
 * kept lines of the victim's class round after round (the simulated
 * POWER9's L3, at seed 2 on scattered frames, kept 1 to 5 of them among
 * 16); with four, eight victim hierarchies of no model in the library came
 * out exact in 87 runs of 88 (84 with two), two more 14 of 16 (12).
 */
static const struct {
	unsigned tests;
	bool give_up;
} picks[] = {
	[EVSET_BY_PREFIX] = { 2, true },
	[EVSET_BY_SET] = { 2, false },
	[EVSET_BY_UNHELD] = { 4, false },
};

/*
 * The tail: candidates congruent with the victim above but not here (the
 * set `by`, which evicts the victim, does not evict them), not in `by`,
 * EVSET_TAIL_FACTOR times the most ways above, looked for until the time
 * bound passes (each candidate's test traverses `by`, which may be a long
 * prefix of the pool: the simulated Power3's 4096-line prefix, for 256
 * lines of tail under its 128-way L1, took 29 s of a 3 s bound), or until
 * the pick gives up (picks[]).  Into `into`, and taken out of the pool
 * when there are enough of them; how many in *nt.
 */
int evset_pick_tail(struct run *rn, struct mp_evset *e, struct level *lv, const uint64_t *by,
		    uint64_t nby, enum evset_by kind, uint64_t *into, uint64_t *nt)
{
	uint64_t want = evset_tail_lines(lv), kept = 0, evicted = 0;

	*nt = 0;
	for (uint64_t i = 0; i < lv->n && *nt < want && *nt < UPPER_TAIL &&
	     (*nt || !picks[kind].give_up || evicted < want) && !mp_evset_late(e); i++) {
		bool own = mp_evset_member(by, nby, rn->pool[i]) ||
			   mp_evset_member(e->tail, e->ntail, rn->pool[i]);
		int a = own ? 0 : evset_above(rn, lv, rn->pool[i]), ev = 0;

		for (unsigned k = 0; a > 0 && ev == 0 && k < picks[kind].tests; k++)
			ev = mp_evset_evicts(e, rn->pool[i], by, nby);
		if (a < 0 || ev < 0)
			return -1;
		if (a > 0 && ev == 0)
			into[(*nt)++] = rn->pool[i];
		evicted += a > 0 && ev > 0;
	}
	if (*nt < want)
		return 0;
	for (uint64_t i = 0; i < lv->n; i++)
		if (!mp_evset_member(into, *nt, rn->pool[i]))
			rn->pool[kept++] = rn->pool[i];
	lv->n = kept;
	return 0;
}

/*
 * Why mp_evset_find found no set, by its result (0, 2, 3).  A random
 * replacement loses the eviction as noise does: a set of its ways evicts
 * the victim only now and then (the simulated Cortex-A9's 16-way random
 * L2 in the full profile; with LRU there, its 1M 16-way 32 B is exact).
 */
const char *const evset_find_why[] = {
	[0] = "the candidates do not evict a victim at this level's latency",
	[2] = "the time bound passed before a minimal set was found",
	[3] = "every reduction lost the eviction (a noisy host or a random replacement)",
};

/*
 * Why a victim level's set found with the stand-in tail is not used
 * (evset_tail_of): the stand-in may hold lines of the victim's class.
 */
static const char stand_in_lost[] =
	"its sets show only with a tail, and no set found with a stand-in one held up";

/*
 * The tail picked with set (m1 lines, of that kind), which evicts the
 * victim.  0 or lv->why set, -1 failed.
 */
static int tail_by(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t m1,
		   enum evset_by kind, uint64_t *nt)
{
	if (evset_pick_tail(rn, e, lv, rn->set, m1, kind, rn->tail, nt) < 0)
		return -1;
	if (*nt < evset_tail_lines(lv))
		lv->why = "too few candidates congruent above but not here";
	return 0;
}

/*
 * A minimal set of the victim found with tester e out of pool[from .. n),
 * into set and *m1: 1 found and held up in two tests (a set that does not
 * evict the victim would put its congruent lines in the tail), 2 found but
 * did not hold up, 0 not found (lv->why), -1 failed.
 */
static int tail_picker(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t from,
		       uint64_t *m1)
{
	int st = mp_evset_find(e, rn->x, rn->pool + from, lv->n - from, rn->set, m1), ev = 0;

	if (st == 1 && (ev = mp_evset_confirmed(e, rn->x, rn->set, *m1)) < 0)
		return -1;
	if (st == 1)
		return ev ? 1 : (lv->why = evset_find_why[3], 2);
	return st < 0 ? -1 : (lv->why = evset_find_why[st], 0);
}

/*
 * A set of the victim found with a stand-in tail, the first `want`
 * candidates of the pool after the k-th block of them is moved to the
 * front; its search takes the rest.  As tail_picker.
 */
static int stand_in_set(struct run *rn, struct mp_evset *s, struct level *lv, unsigned k,
			uint64_t *m1)
{
	uint64_t want = s->ntail;

	for (uint64_t i = 0; k && i < want; i++) {
		uint64_t t = rn->pool[i];

		rn->pool[i] = rn->pool[k * want + i];
		rn->pool[k * want + i] = t;
	}
	mp_memcpy(stand_in, rn->pool, want * sizeof(*rn->pool));
	lv->why = NULL;
	return tail_picker(rn, s, lv, want, m1);
}

/*
 * The tail, picked with the shortest evicting prefix of the pool; where
 * that evicts most candidates (every class near its threshold), with a
 * minimal set found without a tail (the prefix's pick gives up once it has
 * evicted as many candidates as the tail wants and none other: the
 * simulated Ice Lake-SP's L3 on contiguous frames spent 1.4 s of its 3 s
 * testing all 1852 candidates against a 1840-line prefix, found none, and
 * its count then ran out of time); where none is found, with one found
 * with a stand-in tail: the first candidates of the pool, EVSET_TAIL_FACTOR
 * times the most ways above.  A level filled only by the victims of the
 * one above (exclusive, a victim cache) takes a set's lines only once
 * something pushes them out of that level, so its set cannot be found
 * without a tail (lv->tailed); a stand-in congruent with the victim here
 * leaves the set a way or so short, which still evicts the victim's class
 * and few lines of any other, or one that does not hold up: then the next
 * candidates are the stand-in, EVSET_STAND_INS in all (the simulated Zen
 * 4's 16 classes in the victim's L2 class: a stand-in of 16 lines holds
 * none of its class about one time in three).  Where the last stand-in's
 * set was found but did not hold up, the tail is picked with it all the
 * same: that tail may hold lines of the victim's class, and is picked
 * again once the victim's set is found with it (geometry.c, settled_set),
 * which must then hold up.  Victim L3s of four classes to one above came
 * out exact at 9 of 24 seeds over three hierarchies without this, and at
 * 14 with it; at 18 with the first stand-in's set taken so, held up or not,
 * but then the simulated POWER9's L3 was lost at seed 1, where the second
 * stand-in's set holds up.  The stand-in is left out of the tail picked.
 * 0 picked or lv->why set, -1 failed.
 */
int evset_tail_of(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t p, uint64_t *nt)
{
	uint64_t m1 = 0, want = evset_tail_lines(lv);
	struct mp_evset s = *e;
	int st;

	if (evset_pick_tail(rn, e, lv, rn->pool, p, EVSET_BY_PREFIX, rn->tail, nt) < 0)
		return -1;
	if (*nt >= want)
		return 0;
	if ((st = tail_picker(rn, e, lv, 0, &m1)) < 0)
		return -1;
	if (st == 1)
		return tail_by(rn, e, lv, m1, EVSET_BY_SET, nt);
	s.tail = stand_in;
	s.ntail = want;
	st = 0;
	for (unsigned k = 0; k < EVSET_STAND_INS && want <= UPPER_TAIL && lv->n > (k + 2) * want;
	     k++) {
		if ((st = stand_in_set(rn, &s, lv, k, &m1)) < 0)
			return -1;
		if (st == 1)
			break;
		if (lv->why != evset_find_why[3])
			return 0;
		lv->why = stand_in_lost;
	}
	if (st == 0)
		return 0;
	lv->why = NULL;
	lv->tailed = true;
	return tail_by(rn, &s, lv, m1, st == 1 ? EVSET_BY_SET : EVSET_BY_UNHELD, nt);
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
bool evset_inpage_fits(const struct run *rn, const struct level *lv)
{
	return !rn->up.m && lv->level == 2 && rn->l1_way < rn->m.page_bytes &&
	       evset_tail_lines(lv) <= UPPER_TAIL;
}

/*
 * The lines of such a tail, EVSET_TAIL_FACTOR times the most ways above
 * as far as the level's pages go, into buf; how many.  One line a page, at
 * a random one of those offsets: lines at regular distances feed a stride
 * prefetcher, whose fetches may land in the victim's L2 set (Power9's L2
 * prefetcher gave a 16-byte line).
 */
uint64_t evset_inpage_lines(const struct run *rn, const struct level *lv, uint64_t *buf)
{
	uint64_t page = rn->m.page_bytes, per = page / rn->l1_way, n = 0;
	uint64_t want = evset_tail_lines(lv);
	struct mp_rng g;

	mp_rng_seed(&g, rn->c->cfg->seed + (uint64_t)lv->level);
	for (; n < want && n < lv->pages; n++)
		buf[n] = n * page + (1 + mp_rng_below(&g, per - 1)) * rn->l1_way;
	return n;
}
