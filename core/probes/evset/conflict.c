/* SPDX-License-Identifier: MIT */
/*
 * The classes a count has no time to find one by one, by a conflict set
 * (Liu, Yarom, Ge, Heiser and Lee, "Last-Level Cache Side-Channel Attacks
 * are Practical", IEEE S&P 2015): the lines of a pool, each
 * kept unless the lines kept so far evict it, end with as many lines of
 * every class as its ways.  Then the lines over the ways count the classes,
 * where they are a whole number of them and two checks say that each
 * class holds its ways and no more
 * (docs/algorithms.md, "The conflict set").
 */
#include "core/probes/evset/evset.h"

/*
 * Candidates screened to a try (mp_evset_screen) against the set so far
 * come in batches (conflict_batch): under LRU two of one class evict each
 * other only where the set lacks fewer lines of it than they are, and then
 * the last ones loaded read fast, as many as it lacks, and are tested
 * alone; a pseudo-LRU set of more lines than its ways may keep any of
 * them, which costs their tests alone too.
 */
static uint64_t cs[MP_EVSET_MAX_POOL], left_out[MP_EVSET_MAX_POOL];
static bool in_cs[MP_EVSET_MAX_POOL], slow[MP_EVSET_MAX_POOL];

/* Evicted in one test, or where that says not, in the next: 1, 0, -1 failed. */
static int evicted_once_of_two(struct mp_evset *e, uint64_t victim, const uint64_t *s,
			       uint64_t m)
{
	int ev = mp_evset_evicts(e, victim, s, m);

	return ev != 0 ? ev : mp_evset_evicts(e, victim, s, m);
}

/*
 * The candidates pool[0 .. n) (n at most MP_EVSET_MAX_WAYS) screened against
 * the set so far in one screen, and each that read fast added unless a
 * test of its own says the set evicts it; in[i]: pool[i] added.  1 done,
 * 0 the table is full, -1 failed.
 */
static int add_batch(struct mp_evset *e, const uint64_t *pool, uint64_t n, uint64_t *m, bool *in)
{
	bool ev_slow[MP_EVSET_MAX_WAYS];

	if (mp_evset_screen(e, pool, n, cs, *m, n, ev_slow) < 0)
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		int ev = ev_slow[i] ? 1 : mp_evset_evicts(e, pool[i], cs, *m);

		if (ev < 0)
			return -1;
		in[i] = ev == 0;
		if (in[i] && *m == MP_EVSET_MAX_POOL)
			return 0;
		if (in[i])
			cs[(*m)++] = pool[i];
	}
	return 1;
}

/*
 * The conflict set: the seed, then each line of the pool its lines so far
 * do not evict (add_batch); *m lines.  1 built, 0 full, 2 the deadline
 * passed, -1 failed.
 */
static int build(struct mp_evset *e, const uint64_t *seed, uint64_t ns, const uint64_t *pool,
		 uint64_t n, uint64_t batch, uint64_t *m)
{
	for (*m = 0; *m < ns; (*m)++)
		cs[*m] = seed[*m];
	for (uint64_t i = 0; i < n; i += batch) {
		uint64_t k = n - i < batch ? n - i : batch;
		int st = add_batch(e, pool + i, k, m, in_cs + i);

		if (st <= 0)
			return st;
		if (mp_evset_late(e))
			return 2;
	}
	return 1;
}

/*
 * Does no class hold more than its ways: does each line of the set stay
 * there once the set holds it no longer (mp_evset_confirmed: evicted in
 * two tests running is evicted)?  Its class's other lines in the set are one fewer
 * than the ways.  The seed's lines too: a seed of more lines of a class
 * than its ways is caught so as well.  1, 0, 2 late, -1 failed.
 */
static int no_class_over(struct mp_evset *e, uint64_t m)
{
	for (uint64_t i = 0; i < m; i++) {
		uint64_t y = cs[i];
		int ev;

		cs[i] = cs[m - 1];
		cs[m - 1] = y;
		ev = mp_evset_confirmed(e, y, cs, m - 1);
		cs[m - 1] = cs[i];
		cs[i] = y;
		if (ev != 0)
			return ev < 0 ? -1 : 0;
		if (mp_evset_late(e))
			return 2;
	}
	return 1;
}

/*
 * Does every class of a line left out hold its ways: does the whole set
 * evict each line the pool gave it not (screened, and where that reads
 * fast, a test of its own, or where that says not evicted, the next)?
 * 1, 0, 2 late, -1 failed.
 */
static int every_left_out_evicted(struct mp_evset *e, const uint64_t *pool, uint64_t n,
				  uint64_t batch, uint64_t m)
{
	uint64_t k = 0;

	for (uint64_t i = 0; i < n; i++)
		if (!in_cs[i])
			left_out[k++] = pool[i];
	if (mp_evset_screen(e, left_out, k, cs, m, batch, slow) < 0)
		return -1;
	for (uint64_t i = 0; i < k; i++) {
		int ev = slow[i] ? 1 : evicted_once_of_two(e, left_out[i], cs, m);

		if (ev != 1)
			return ev;
		if (mp_evset_late(e))
			return 2;
	}
	return 1;
}

/*
 * Candidates to a screen: about the square root of twice the classes, so
 * that the tries a batch shares (one a batch) and the tests alone of the
 * pairs of one class in it (about one a batch) weigh alike; the count's
 * 64 classes left in a 4M 16-way L2 on a coarse clock (13 tries a test)
 * built and checked the set in 3.7 s of simulated time in batches of 64,
 * 1.4 s in batches of 12.
 */
static uint64_t conflict_batch(uint64_t classes)
{
	uint64_t b = 1;

	while (b < MP_EVSET_MAX_WAYS && (b + 1) * (b + 1) <= 2 * classes)
		b++;
	return b;
}

int mp_evset_conflict(struct mp_evset *e, const uint64_t *seed, uint64_t ns,
		      const uint64_t *pool, uint64_t n, uint64_t ways, uint64_t left,
		      uint64_t *classes, const char **why)
{
	uint64_t m = 0, batch = conflict_batch(left);
	int st = ns <= MP_EVSET_MAX_POOL && n <= MP_EVSET_MAX_POOL
			 ? build(e, seed, ns, pool, n, batch, &m) : 0;

	*why = "at its pace the count would pass the time bound, and a conflict set of "
	       "the classes left would not fit its table";
	if (st == 1 && m % ways)
		st = 0, *why = "at its pace the count would pass the time bound, and a "
		       "conflict set of the classes left held no whole number of classes";
	if (st == 1 && (st = no_class_over(e, m)) == 0)
		*why = "at its pace the count would pass the time bound, and a class of "
		       "a conflict set of the classes left held more lines than the ways";
	if (st == 1 && (st = every_left_out_evicted(e, pool, n, batch, m)) == 0)
		*why = "at its pace the count would pass the time bound, and a conflict "
		       "set of the classes left did not evict a line it left out";
	*classes = m / ways;
	return st;
}
