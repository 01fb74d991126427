/* SPDX-License-Identifier: MIT */
/*
 * Probe "evset": a level's candidates (core/probes/evset/run.h), lines at
 * the victim's page offset, one a page: how many pages they are taken
 * from, and which of them can be congruent with the victim.
 */
#include "core/probes/evset/run.h"
#include "core/seq/refstring.h"

/* Candidates per level: this many times its effective capacity in pages,
 * so that every class has some four times its ways (docs/algorithms.md). */
#define EVSET_POOL_FACTOR 4u
#define EVSET_MIN_PAGES 2048u
/*
 * May a level's pool grow past the largest level's usual one (evset_calibrated),
 * by profile: on this project's AMD EPYC guest the L3's growth added some
 * 1.6 s to the quick profile's evset (two rounds), whose suite is to end
 * within 10 s; the full profile grows it.
 */
static const bool pool_grows[] = { [MP_PROFILE_QUICK] = false, [MP_PROFILE_FULL] = true };

bool evset_pool_grows(const struct mp_ctx *c)
{
	return pool_grows[c->cfg->profile];
}

/* Pages of the arena: the most a pool can be taken from. */
uint64_t evset_arena_pages(const struct run *rn)
{
	return rn->m.bytes / rn->m.page_bytes;
}

/*
 * The level's pool taken from num / den times the pages (rounded up), up
 * to `most` and the arena: did it grow?
 */
static bool pages_scaled(const struct run *rn, struct level *lv, uint64_t num, uint64_t den,
			 uint64_t most)
{
	uint64_t was = lv->pages, want = (lv->pages * num + den - 1) / den;

	most = most < evset_arena_pages(rn) ? most : evset_arena_pages(rn);
	lv->pages = want < most ? want : most;
	return lv->pages > was;
}

/*
 * The level's pool taken from `times` times the pages, as far as the
 * largest level's usual pool goes (or its own, where it grew past that).
 */
bool evset_more_pages(const struct run *rn, struct level *lv, uint64_t times)
{
	return pages_scaled(rn, lv, times, 1, lv->pages > rn->usual ? lv->pages : rn->usual);
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
			rn->pool[k++] = off;
	}
	mp_rng_seed(&g, rn->c->cfg->seed ^ (uint64_t)lv->level);
	mp_ref_shuffle(rn->pool, k, &g);
	lv->n = k;
}

/* Is the candidate congruent with the victim at every level above this one? */
int evset_above(struct run *rn, const struct level *lv, uint64_t y)
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
 * in as many as a test where a coarse clock took more, calibrate.c's fit_trials: with
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
		int ev = mp_evset_evicts_own(&e, rn->pool[i], rn->up.set, rn->up.m);

		if (ev < 0)
			return -1;
		if (ev > 0)
			rn->pool[kept++] = rn->pool[i];
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
		if (evset_above(rn, lv, rn->pool[i]))
			rn->pool[kept++] = rn->pool[i];
	lv->n = kept;
}

int evset_pool_of(struct run *rn, struct level *lv)
{
	lv->within = false;
	set_pool(rn, lv, lv->pages);
	if (!rn->up.m) {
		filter_colour(rn, lv);
		return 0;
	}
	return filter_within(rn, lv);
}

/* The pool without the n lines of s. */
void evset_pool_without(struct run *rn, struct level *lv, const uint64_t *s, uint64_t n)
{
	uint64_t kept = 0;

	for (uint64_t i = 0; i < lv->n; i++)
		if (!mp_evset_member(s, n, rn->pool[i]))
			rn->pool[kept++] = rn->pool[i];
	lv->n = kept;
}

bool evset_pool_may_grow(const struct run *rn, const struct level *lv)
{
	return evset_pool_grows(rn->c) && lv->pages < evset_arena_pages(rn);
}

bool evset_grow_pool(const struct run *rn, struct level *lv, uint64_t num, uint64_t den)
{
	return evset_pool_may_grow(rn, lv) && pages_scaled(rn, lv, num, den, evset_arena_pages(rn));
}

/* The level's pool taken from twice the pages, as the arena and its time allow: did it grow? */
bool evset_double_pool(const struct run *rn, struct level *lv, const struct mp_evset *e)
{
	return mp_now(rn->c->p) < e->deadline && evset_grow_pool(rn, lv, 2, 1);
}

/*
 * Pages a level's pool takes: EVSET_POOL_FACTOR times its effective
 * capacity, at least EVSET_MIN_PAGES (on scattered frames "levels" can
 * find a level a third of its size), and for the L2 times the L1's colours
 * (only the victim's colour is kept).
 */
uint64_t evset_pool_pages(const struct run *rn, int32_t level, uint64_t effective, uint64_t page)
{
	uint64_t n = EVSET_POOL_FACTOR * effective / page, colours = rn->l1_way / page;

	n = n > EVSET_MIN_PAGES ? n : EVSET_MIN_PAGES;
	return level == 2 && colours > 1 ? n * colours : n;
}
