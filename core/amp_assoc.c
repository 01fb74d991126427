/* SPDX-License-Identifier: MIT */
/*
 * AMP 3.3: associativity by thrashing.  Hypothesis k: 2k elements N/k
 * bytes apart (N the capacity) fall into one set when the cache is k-way
 * and thrash it; k advances through the factors of the number of lines, so
 * 3-, 5-, 12-, 20- or 24-way caches are found.  No thrash before k reaches
 * the number of lines: fully associative.
 *
 * Beyond the paper: every access must reach the measured level, or a level
 * above (which holds the 2k elements easily) hides the thrash.  Each
 * element is followed by flushers (core/amp.h), lines of its set in every
 * level above but of another set in the measured one.
 *
 * A victim (exclusive) cache begins to miss only when it and the levels
 * above are full; its capacity is then its boundary less theirs.  Which of
 * the two it is, the thrash experiment tells: only the true capacity has
 * k elements N/k apart fit and 2k thrash (amp_settle_size).
 */
#include "core/amp.h"
#include "core/refstring.h"

/* Flushers per level-above way: twice, so a pseudo-LRU or random level above lets go too. */
#define FLUSH_FACTOR 2u
/* 3.3's thrashing threshold, as 3.2's: 0.80 of one miss per element access. */
#define THRASH_FRACTION 0.80
/* A cache not thrashed by 256 ways is not measured: no cache is that associative. */
#define MAX_CACHE_WAYS 256u
/* Passes over an experiment's chain before counting: its sets settle. */
#define PRIME_PASSES 2u
/* Offsets of one experiment's chain (2 MB, static: core has no allocator). */
#define CHAIN_MAX (1u << 18)

static uint64_t offs[CHAIN_MAX];

uint64_t amp_flushers(const struct amp_level *l)
{
	return l->above.span ? FLUSH_FACTOR * l->above.ways : 0;
}

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return to ? (v + to - 1) / to * to : v;
}

/*
 * Flusher j of group t of set s: at an odd multiple of the largest way span
 * above, past the elements (at a multiple of the measured way span `gap`).
 * A chase passes a word once, so group t uses word t % words of its lines.
 */
uint64_t amp_flusher(const struct amp_level *l, uint64_t n, uint64_t gap, uint64_t s, uint64_t t,
		     uint64_t j)
{
	uint64_t words = l->unit / 8, base = round_up(n * gap, gap > l->above.span ? gap
										 : l->above.span);
	uint64_t line = t / words * amp_flushers(l) + j;

	return base + s * l->unit + (2 * line + 1) * l->above.span + t % words * 8;
}

static bool fits(const struct amp_level *l, uint64_t n, uint64_t gap, uint64_t sets,
		 uint64_t len)
{
	uint64_t groups = AMP_WORDS * (n + 1);

	return len <= CHAIN_MAX && n * gap <= l->a->mem.bytes &&
	       (!amp_flushers(l) ||
		amp_flusher(l, n, gap, sets, groups, amp_flushers(l)) <= l->a->mem.bytes);
}

uint64_t amp_set_chain(const struct amp_level *l, uint64_t n, uint64_t gap, uint64_t sets,
		       unsigned word, void **start)
{
	uint64_t m = amp_flushers(l), c = 0, len = n * sets * (1 + m);

	if (!fits(l, n, gap, sets, len))
		return 0;
	for (uint64_t i = 0; i < n; i++)
		for (uint64_t s = 0; s < sets; s++) {
			offs[c++] = i * gap + s * l->unit + word * 8;
			for (uint64_t j = 0; j < m; j++)
				offs[c++] = amp_flusher(l, n, gap, s, word * (n + 1) + i, j);
		}
	*start = mp_ref_chain(l->a->mem.base, offs, c);
	return c;
}

uint64_t amp_flush_chain(const struct amp_level *l, uint64_t n, uint64_t gap, uint64_t sets,
			 void **start)
{
	uint64_t m = amp_flushers(l), c = 0;

	if (!m || !fits(l, n, gap, sets, sets * m))
		return 0;
	for (uint64_t s = 0; s < sets; s++)
		for (uint64_t j = 0; j < m; j++)
			offs[c++] = amp_flusher(l, n, gap, s, n, j);
	*start = mp_ref_chain(l->a->mem.base, offs, c);
	return c;
}

/* ---- 3.3 ---- */

struct thrash_job {
	struct amp_chase ch;
	uint64_t elements;
};

static int64_t thrash_of(uint64_t misses, const void *job)
{
	const struct thrash_job *j = job;

	return (double)misses >= THRASH_FRACTION * (double)j->elements;
}

/* Do n elements gap apart (with flushers) miss at the thrashing rate? */
static enum mp_status thrashes(struct amp_level *l, uint64_t n, uint64_t gap, bool *yes,
			       struct mp_cnt_tally *sure)
{
	struct thrash_job j = { { .ev = l->ev, .region = "amp-assoc" }, n };
	struct mp_cnt_decision d = { amp_count, &j, thrash_of };
	struct mp_cnt_tally t;
	enum mp_status st;

	*yes = false;
	j.ch.steps = amp_set_chain(l, n, gap, 1, 0, &j.ch.cursor);
	if (!j.ch.steps)
		return MP_ENOMEM;
	st = amp_walk(l->a, &j.ch, PRIME_PASSES * j.ch.steps);
	if (st == MP_OK)
		st = mp_cnt_decide(&l->a->k, &d, &t);
	if (st == MP_OK && sure)
		amp_weakest(sure, &t);
	*yes = st == MP_OK && t.value == 1;
	return st;
}

static uint64_t next_factor(uint64_t lines, uint64_t k)
{
	do
		k++;
	while (lines % k);
	return k;
}

/* The associativity at capacity l->size: 0 when none explains the experiment. */
static enum mp_status find_ways(struct amp_level *l, uint64_t *ways, struct mp_cnt_tally *sure)
{
	uint64_t lines = l->size / l->unit, limit = l->tlb ? lines : MAX_CACHE_WAYS, k;
	bool yes = false, fits_k = true;
	enum mp_status st = MP_OK;

	*ways = 0;
	for (k = 1; k < lines && k <= limit && st == MP_OK && !yes;
	     k = yes ? k : next_factor(lines, k))
		st = thrashes(l, 2 * k, l->size / k, &yes, sure);
	if (st != MP_OK || (!yes && k < lines))
		return st == MP_ENOMEM ? MP_OK : st;
	if (!yes)
		return *ways = lines, MP_OK;
	/* The true capacity also has k elements N/k apart fit in their one set. */
	st = thrashes(l, k, l->size / k, &fits_k, sure);
	if (st == MP_OK && !fits_k)
		*ways = k;
	return st == MP_ENOMEM ? MP_OK : st;
}

enum mp_status amp_ways(struct amp_level *l, struct mp_cnt_tally *t)
{
	uint64_t ways;
	enum mp_status st;

	*t = (struct mp_cnt_tally){ MP_NA, 0, 0 };
	st = find_ways(l, &ways, t);
	t->value = ways ? (int64_t)ways : MP_NA;
	return st;
}

enum mp_status amp_settle_size(struct amp_level *l, bool *ok)
{
	uint64_t ways = 0;
	enum mp_status st;

	l->size = l->boundary;
	l->exclusive = false;
	st = find_ways(l, &ways, NULL);
	if (st != MP_OK || ways || !l->above.held || l->boundary <= l->above.held)
		return *ok = ways != 0, st;
	l->size = l->boundary - l->above.held;
	st = find_ways(l, &ways, NULL);
	l->exclusive = ways != 0;
	if (!ways)
		l->size = l->boundary;
	*ok = ways != 0;
	return st;
}
