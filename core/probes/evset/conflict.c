/* SPDX-License-Identifier: MIT */
/*
 * The classes a count has no time to find one by one, by a conflict set
 * (Liu, Yarom, Ge, Heiser and Lee, "Last-Level Cache Side-Channel Attacks
 * are Practical", IEEE S&P 2015): the lines of a pool, each
 * kept unless the lines kept so far evict it, end with as many lines of
 * every class as its ways.  Then the lines over the ways count the classes,
 * where they are a whole number of them, a last pass over the lines left
 * out finds none that the set does not evict, and a check says that no
 * class holds more than its ways
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
 * Does the rest of the set evict its last line (mp_evset_confirmed: in two
 * tests running), in every try over time (MP_EVSET_HOLD_TRIES, rests
 * apart)?  A thread sharing the level that holds a way of the line's set
 * makes the rest evict it as a line more of its class would, while it
 * holds the way.  1, 0, -1 failed.
 */
static int last_evicted(struct mp_evset *e, uint64_t m)
{
	int ev = mp_evset_confirmed(e, cs[m - 1], cs, m - 1);

	for (unsigned i = 1; ev == 1 && i < MP_EVSET_HOLD_TRIES; i++) {
		if (!mp_rest_about(e->c->p, &e->rng, MP_EVSET_HOLD_REST_US))
			return 1;       /* nothing else runs: the test stands */
		ev = mp_evset_confirmed(e, cs[m - 1], cs, m - 1);
	}
	return ev;
}

/*
 * Does no class hold more than its ways: does each line of the set stay
 * there once the set holds it no longer (last_evicted)?  Its class's other
 * lines in the set are one fewer than the ways.  The seed's lines too: a
 * seed of more lines of a class than its ways is caught so as well.  1, 0,
 * 2 late, -1 failed.
 */
static int no_class_over(struct mp_evset *e, uint64_t m)
{
	for (uint64_t i = 0; i < m; i++) {
		uint64_t y = cs[i];
		int ev;

		cs[i] = cs[m - 1];
		cs[m - 1] = y;
		ev = last_evicted(e, m);
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
 * Every candidate the build left out that the whole set does not evict
 * (screened, and where that reads fast, a test of its own, or where that
 * says not evicted, the next) is added: its class was left short of its
 * ways, its lines read slow while a thread sharing the level held a way
 * or noise slowed them.  The set only grows, so a line evicted stays
 * evicted: at the end every candidate left out is evicted by the whole
 * set, every class of one holding its ways.  1, 0 the table is full, 2
 * late, -1 failed.
 */
static int fill(struct mp_evset *e, const uint64_t *pool, uint64_t n, uint64_t batch, uint64_t *m)
{
	uint64_t k = 0;

	for (uint64_t i = 0; i < n; i++)
		if (!in_cs[i])
			left_out[k++] = pool[i];
	if (mp_evset_screen(e, left_out, k, cs, *m, batch, slow) < 0)
		return -1;
	for (uint64_t i = 0, j = 0; i < n; i++) {
		int ev = in_cs[i] ? 1 : slow[j++] ? 1 : evicted_once_of_two(e, pool[i], cs, *m);

		if (ev < 0)
			return -1;
		if (ev == 0 && *m == MP_EVSET_MAX_POOL)
			return 0;
		if (ev == 0)
			cs[(*m)++] = pool[i], in_cs[i] = true;
		if (mp_evset_late(e))
			return 2;
	}
	return 1;
}

/*
 * The set filled (fill) until a fill adds no line and its lines are a
 * whole number of classes, after a rest each time they are not, at most
 * MP_EVSET_HOLD_TRIES fills after the first: a class whose candidates all
 * read evicted while a thread sharing the level held a way of its set
 * gets a line once the thread has let the way go, and the last fill,
 * adding none, checks that every class of a candidate left out holds its
 * ways.  *added: the lines the last fill added.  As fill.
 */
static int filled(struct mp_evset *e, const uint64_t *pool, uint64_t n, uint64_t batch,
		  uint64_t ways, uint64_t *m, uint64_t *added)
{
	int st = 1;

	for (unsigned i = 0; i <= MP_EVSET_HOLD_TRIES; i++) {
		uint64_t was = *m;

		if (i)
			mp_rest_about(e->c->p, &e->rng, MP_EVSET_HOLD_REST_US);
		st = fill(e, pool, n, batch, m);
		*added = *m - was;
		if (st != 1 || (*added == 0 && *m % ways == 0))
			break;
	}
	return st;
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
	uint64_t m = 0, added = 0, batch = conflict_batch(left);
	int st = ns <= MP_EVSET_MAX_POOL && n <= MP_EVSET_MAX_POOL
			 ? build(e, seed, ns, pool, n, batch, &m) : 0;

	if (st == 1)
		st = filled(e, pool, n, batch, ways, &m, &added);
	*why = "at its pace the count would pass the time bound, and a conflict set of "
	       "the classes left would not fit its table";
	if (st == 1 && m % ways)
		st = 0, *why = "at its pace the count would pass the time bound, and a "
		       "conflict set of the classes left held no whole number of classes";
	if (st == 1 && added)
		st = 0, *why = "at its pace the count would pass the time bound, and a conflict "
		       "set of the classes left did not evict a line it left out";
	if (st == 1 && (st = no_class_over(e, m)) == 0)
		*why = "at its pace the count would pass the time bound, and a class of "
		       "a conflict set of the classes left held more lines than the ways";
	*classes = m / ways;
	return st;
}
