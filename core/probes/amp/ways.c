/* SPDX-License-Identifier: MIT */
/*
 * AMP 3.3: associativity by thrashing.  Hypothesis k: 2k elements N/k
 * bytes apart (N the capacity) fall into one set when the cache is k-way
 * and thrash it; k advances through the factors of the number of lines.
 * No thrash before k reaches the number of lines: fully associative.
 * Beyond the paper: every element is followed by flushers (amp.h), a
 * thrash is any miss beyond noise (not 3.3's 0.80), and a victim cache's
 * capacity is settled by the same experiment (amp_settle_size), and one
 * element more tells one set from the slices of a hashed index
 * (true_assoc).  docs/algorithms.md, "Counter-based probes", AMP and
 * hashed sets.
 */
#include "core/lib/bits.h"
#include "core/measure/overfill.h"
#include "core/probes/amp/amp.h"
#include "core/seq/refstring.h"

/* Flushers per level-above way. */
#define FLUSH_FACTOR 2u
/* A cache not thrashed by this many ways is not measured. */
#define MAX_CACHE_WAYS 256u
/* A set fits when at most 1/FIT_DIVISOR of its elements miss. */
#define FIT_DIVISOR 16u
/* Passes over an experiment's chain before counting: its sets settle. */
#define PRIME_PASSES 2u
/* Offsets of one experiment's chain (2 MB, static: core has no allocator). */
#define CHAIN_MAX (1u << 18)

static uint64_t offs[CHAIN_MAX];

uint64_t amp_flushers(const struct amp_level *l)
{
	return l->above.span ? FLUSH_FACTOR * l->above.ways : 0;
}

uint64_t amp_sets(const struct amp_level *l, uint64_t want)
{
	uint64_t fit = l->above.span / l->unit;

	if (!l->above.span || fit >= want)
		return want;
	return fit ? fit : 1;
}

/* Flushers per element for n elements of one set: none when the elements
 * are enough to thrash the levels above by themselves (a fully associative
 * measured level would hold the flushers too). */
static uint64_t flushers_for(const struct amp_level *l, uint64_t n)
{
	return n > amp_flushers(l) ? 0 : amp_flushers(l);
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
	uint64_t word = l->a->word, words = l->unit / word;
	uint64_t base = round_up(n * gap, gap > l->above.span ? gap : l->above.span);
	uint64_t line = t / words * amp_flushers(l) + j;

	return base + s * l->unit + (2 * line + 1) * l->above.span + t % words * word;
}

static bool fits(const struct amp_level *l, uint64_t n, uint64_t gap, uint64_t sets,
		 uint64_t len)
{
	uint64_t groups = AMP_WORDS * (n + 1);

	return len <= CHAIN_MAX && n * gap <= l->a->mem.bytes &&
	       (!amp_flushers(l) ||
		amp_flusher(l, n, gap, sets, groups, amp_flushers(l)) <= l->a->mem.bytes);
}

/* Shuffle the groups of an element and its flushers (each `per` long), and the
 * flushers within each group: no constant stride for a prefetcher to follow. */
static void shuffle_groups(uint64_t c, uint64_t per, struct mp_rng *g)
{
	static uint64_t tmp[CHAIN_MAX];
	uint64_t groups = c / per, order[MP_REF_MAX_GROUP];

	for (uint64_t i = 0; i < c; i += per)
		mp_ref_shuffle(offs + i + 1, per - 1, g);
	if (groups > MP_REF_MAX_GROUP)
		return;
	for (uint64_t i = 0; i < groups; i++)
		order[i] = i;
	mp_ref_shuffle(order, groups, g);
	for (uint64_t i = 0; i < groups; i++)
		for (uint64_t j = 0; j < per; j++)
			tmp[i * per + j] = offs[order[i] * per + j];
	for (uint64_t i = 0; i < c; i++)
		offs[i] = tmp[i];
}

/* offs[0 .. c) linked on the amp's side; 0 when they cannot be (a block out of the array). */
static uint64_t link(const struct amp_level *l, uint64_t c, void **start)
{
	struct amp *a = l->a;

	return mp_link(&a->link, a->mem.base, a->mem.bytes, offs, c, start) == MP_OK ? c : 0;
}

/* amp_set_chain without elements [lo, hi); the elements alone never in equal steps. */
static uint64_t set_chain(const struct amp_level *l, uint64_t n, uint64_t gap, uint64_t sets,
			  unsigned word, uint64_t lo, uint64_t hi, bool strideless, void **start)
{
	uint64_t m = flushers_for(l, n), c = 0, len = n * sets * (1 + m);

	if (!fits(l, n, gap, sets, len) || sets > amp_sets(l, sets))
		return 0;
	for (uint64_t i = 0; i < n; i++)
		for (uint64_t s = 0; s < sets && (i < lo || i >= hi); s++) {
			offs[c++] = i * gap + s * l->unit + word * l->a->word;
			for (uint64_t j = 0; j < m; j++)
				offs[c++] = amp_flusher(l, n, gap, s, word * (n + 1) + i, j);
		}
	if (strideless)
		mp_ref_shuffle_strideless(offs, c, &l->a->g);
	else
		shuffle_groups(c, 1 + m, &l->a->g);
	return link(l, c, start);
}

uint64_t amp_set_chain(const struct amp_level *l, uint64_t n, uint64_t gap, uint64_t sets,
		       unsigned word, void **start)
{
	return set_chain(l, n, gap, sets, word, 0, 0, false, start);
}

uint64_t amp_flush_chain(const struct amp_level *l, uint64_t n, uint64_t gap, uint64_t sets,
			 void **start)
{
	uint64_t m = flushers_for(l, n), c = 0;

	if (!m || !fits(l, n, gap, sets, sets * m) || sets > amp_sets(l, sets))
		return 0;
	for (uint64_t s = 0; s < sets; s++)
		for (uint64_t j = 0; j < m; j++)
			offs[c++] = amp_flusher(l, n, gap, s, n, j);
	mp_ref_shuffle(offs, c, &l->a->g);
	return link(l, c, start);
}

/* ---- 3.3 ---- */

enum outcome { FITS = 0, SPILLS };

struct thrash_job {
	struct amp_chase ch;
	uint64_t elements;
};

static int64_t outcome_of(uint64_t misses, const void *job)
{
	const struct thrash_job *j = job;

	return misses <= j->elements / FIT_DIVISOR ? FITS : SPILLS;
}

/* How n elements gap apart (with flushers) fare; a chain too big SPILLS. */
static enum mp_status try_set(struct amp_level *l, uint64_t n, uint64_t gap, enum outcome *o,
			      struct mp_tally *sure)
{
	struct thrash_job j = { { .ev = l->ev, .region = "amp-assoc", .op = l->a->link.op }, n };
	struct mp_counter_decision d = { amp_count, &j, outcome_of };
	struct mp_tally t;
	enum mp_status st;

	*o = SPILLS;
	j.ch.steps = gap % l->unit ? 0 : amp_set_chain(l, n, gap, 1, 0, &j.ch.cursor);
	if (!j.ch.steps)
		return MP_ENOMEM;        /* beyond the array: the experiment cannot be made */
	st = mp_counter_flush(&l->a->k);
	if (st == MP_OK)
		st = amp_walk(l->a, &j.ch, PRIME_PASSES * j.ch.steps);
	if (st == MP_OK)
		st = mp_counter_decide(&l->a->k, &d, &t);
	if (st == MP_OK && sure)
		amp_weakest(sure, &t);
	*o = st == MP_OK ? (enum outcome)t.value : SPILLS;
	return st;
}

static uint64_t next_factor(uint64_t lines, uint64_t k)
{
	do
		k++;
	while (lines % k);
	return k;
}

/* Can 2k elements N/2k apart be tried: N/2k a multiple of twice the flushers' span? */
static bool two_sets(const struct amp_level *l, uint64_t n, uint64_t k)
{
	return (n / (2 * k)) % (2 * (l->above.span ? l->above.span : l->unit)) == 0;
}

/*
 * Hypothesis k thrashed; only at the true capacity N do k elements N/k
 * apart also fit in their one set, and 2k elements N/2k apart in their two.
 */
static enum mp_status consistent(struct amp_level *l, uint64_t n, uint64_t k, bool *yes,
				 struct mp_tally *sure)
{
	enum outcome o = SPILLS;
	enum mp_status st = try_set(l, k, n / k, &o, sure);

	/* (Only where flushers can miss both sets.) */
	if (st == MP_OK && o == FITS && two_sets(l, n, k))
		st = try_set(l, 2 * k, n / (2 * k), &o, sure);
	*yes = st == MP_OK && o == FITS;
	return st;
}

/* ---- one set, or several (docs/algorithms.md, "Counter-based probes", hashed sets) ---- */

struct overfill_job {
	struct amp_level *l;
	uint64_t c, gap;
};

/* c elements `gap` apart without elements [lo, hi), primed: still missing on every pass? */
static enum mp_status still_miss(void *job, uint64_t lo, uint64_t hi, bool *miss)
{
	struct overfill_job *j = job;
	struct amp_level *l = j->l;
	struct amp_chase ch = { .ev = l->ev, .region = "amp-assoc", .op = l->a->link.op };
	enum mp_status st;
	uint64_t min = 0;

	*miss = false;
	ch.steps = set_chain(l, j->c, j->gap, 1, 0, lo, hi, true, &ch.cursor);
	if (!ch.steps)
		return MP_ENOMEM;
	st = mp_counter_flush(&l->a->k);
	if (st == MP_OK)
		st = amp_walk(l->a, &ch, PRIME_PASSES * ch.steps);
	if (st == MP_OK)
		st = mp_counter_min(&l->a->k, amp_count, &ch, &min);
	*miss = min > 0;
	return st;
}

/*
 * Hypothesis k passed 3.3: are the k elements N/k apart one set of k ways,
 * or the sets of several slices of a hashed index (mp_overfill_assoc)?
 * One element more; where the k were spread unevenly over the slices it
 * overfills none (no miss).  Then, the level above may be keeping some (an
 * exclusive level): as many more as its ways, all of which must then be
 * critical; then the 2k elements N/2k apart that filled 3.3's two sets,
 * and one more.  Sets l->assoc (0: not told).
 */
static enum mp_status true_assoc(struct amp_level *l, uint64_t n, uint64_t k)
{
	const struct mp_overfill fills[] = { { k, 1, true }, { k, 1 + l->above.ways, false },
					     { 2 * k, 1, true } };
	struct mp_rng kept = l->a->g;
	enum mp_status st = MP_OK;
	bool missed = false;

	/* Shuffled from a generator of their own: the experiments after them
	 * (3.4 to 3.6, the next levels) meet the same chains as without. */
	mp_rng_seed(&l->a->g, l->a->c->cfg->seed + (uint64_t)l->level);
	l->assoc = 0;
	for (unsigned i = 0; i < MP_COUNT_OF(fills) && st == MP_OK && !missed; i++) {
		struct overfill_job j = { l, fills[i].fill + fills[i].more, n / fills[i].fill };

		if (fills[i].fill == 2 * k && !two_sets(l, n, k))
			continue;
		st = mp_overfill_assoc(&fills[i], k, still_miss, &j, &l->assoc, &missed);
		if (st == MP_ENOMEM)         /* beyond the array: the next one */
			st = MP_OK;
	}
	l->a->g = kept;
	return st;
}

/* The associativity of capacity n: 0 when no hypothesis explains the experiments. */
static enum mp_status find_ways(struct amp_level *l, uint64_t n, uint64_t *ways,
				struct mp_tally *sure)
{
	uint64_t lines = n / l->unit, limit = l->tlb ? lines : MAX_CACHE_WAYS, k;
	enum mp_status st = MP_OK;
	enum outcome o;
	bool yes = false;

	*ways = 0;
	for (k = 1; k < lines && k <= limit && st == MP_OK; k = next_factor(lines, k)) {
		st = try_set(l, 2 * k, n / k, &o, sure);
		if (st == MP_OK && o == SPILLS)
			st = consistent(l, n, k, &yes, sure);
		if (yes)
			return *ways = k, st;
	}
	if (st == MP_OK && k >= lines)
		*ways = lines;
	return st == MP_ENOMEM ? MP_OK : st;
}

enum mp_status amp_ways(struct amp_level *l, struct mp_tally *t)
{
	uint64_t ways;
	enum mp_status st;

	*t = mp_tally_none();
	st = find_ways(l, l->size, &ways, t);
	l->ways = l->assoc = ways;
	if (st == MP_OK && ways && ways < l->size / l->unit)
		st = true_assoc(l, l->size, ways);
	t->value = l->assoc ? (int64_t)l->assoc : MP_NA;
	return st == MP_ENOMEM ? MP_OK : st;
}

/*
 * The capacity lies between the boundary less what the levels above hold
 * (a victim cache) and the boundary (an inclusive cache): the largest
 * candidate on the grid that AMP's associativity experiment explains.
 */
enum mp_status amp_settle_size(struct amp_level *l, bool *ok)
{
	uint64_t low = l->boundary > l->above.held ? l->boundary - l->above.held : l->unit;
	uint64_t step = amp_grid(l, l->boundary), ways = 0;
	enum mp_status st = MP_OK;

	*ok = false;
	l->exclusive = false;
	for (uint64_t n = l->boundary; n >= low && n >= step && st == MP_OK && !ways; n -= step) {
		l->size = n;
		st = find_ways(l, n, &ways, NULL);
	}
	*ok = ways != 0;
	l->exclusive = *ok && l->size != l->boundary;
	if (!*ok)
		l->size = l->boundary;
	return st;
}
