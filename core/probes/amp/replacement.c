/* SPDX-License-Identifier: MIT */
/*
 * AMP 3.5: the replacement policy.  N elements of one set (N the
 * associativity) are read, then some of them again, then an (N+1)st: it
 * evicts one.  Counting the misses of element i over repeated experiments
 * shows whether always the same one goes (some LRU) or any (random).
 * Beyond the paper, two re-read orders tell LRU, FIFO and tree pseudo-LRU
 * apart where their victims differ:
 *   A: re-read 0 .. N-2 (the paper's)   LRU: N-1   FIFO: 0   PLRU: tree
 *   B: re-read 0 only                    LRU: 1     FIFO: 0   PLRU: tree
 * docs/algorithms.md, "Counter-based probes", AMP.
 */
#include "core/lib/bits.h"
#include "core/probes/amp/amp.h"
#include "core/seq/refstring.h"

/* Sets tried at once, so that an element's miss count is more than 0 or 1. */
#define COUNTED_SETS 4u
/* Larger sets are not tried (the paper tried 4 and 8 ways). */
#define REPL_MAX_WAYS 32u
/* Repetitions of each experiment per vote ("a statistical picture", 3.5). */
#define REPL_TRIALS 2u
/* One element takes at least this share of the misses: a repeatable choice. */
#define REPL_SINGLE 0.80
#define SEQ_MAX (2 * REPL_MAX_WAYS + 1)
/* Words of an element's line: its first and second read in the sequence, then the count. */
#define COUNTED_WORD 2u
#define CHAIN_MAX (SEQ_MAX * COUNTED_SETS * (1 + 2 * 64))

static uint64_t offs[CHAIN_MAX];

struct seq {
	unsigned n;
	unsigned at[SEQ_MAX];        /* element read at each step; the last is element N */
};

static void make_seq(struct seq *s, unsigned ways, bool all)
{
	unsigned again = all ? ways - 1 : 1;

	s->n = 0;
	for (unsigned i = 0; i < ways; i++)
		s->at[s->n++] = i;
	for (unsigned i = 0; i < again; i++)
		s->at[s->n++] = i;
	s->at[s->n++] = ways;
}

/* ---- what each policy would evict ---- */

static unsigned lru_victim(const struct seq *s, unsigned ways)
{
	unsigned last[REPL_MAX_WAYS] = { 0 }, v = 0;

	for (unsigned t = 0; t + 1 < s->n; t++)
		last[s->at[t]] = t;
	for (unsigned i = 1; i < ways; i++)
		v = last[i] < last[v] ? i : v;
	return v;
}

static unsigned fifo_victim(const struct seq *s, unsigned ways)
{
	(void)s;
	(void)ways;
	return 0;
}

/* Tree pseudo-LRU over the ways rounded up to a power of two: each node
 * points at the half to replace next; a walk never enters a half holding
 * no real way.  Element i is in way i (empty ways fill in order). */
static unsigned plru_victim(const struct seq *s, unsigned ways)
{
	unsigned leaves = 1, bits[2 * REPL_MAX_WAYS] = { 0 }, node = 1;

	while (leaves < ways)
		leaves *= 2;
	for (unsigned t = 0; t + 1 < s->n; t++)
		for (unsigned n = 1, lo = 0, w = leaves; w > 1; w /= 2) {
			bool right = s->at[t] >= lo + w / 2;

			bits[n] = !right;           /* point away from the way just used */
			n = 2 * n + right;
			lo += right ? w / 2 : 0;
		}
	for (unsigned lo = 0, w = leaves; w > 1; w /= 2) {
		bool right = bits[node] && lo + w / 2 < ways;

		node = 2 * node + right;
		lo += right ? w / 2 : 0;
		if (w == 2)
			return lo;
	}
	return 0;
}

static const struct {
	enum mp_replacement policy;
	unsigned (*victim)(const struct seq *s, unsigned ways);
} policies[] = {
	{ MP_REPL_LRU, lru_victim },
	{ MP_REPL_FIFO, fifo_victim },
	{ MP_REPL_PLRU, plru_victim },
};
#define NPOLICIES (MP_COUNT_OF(policies))

/* ---- the experiment ---- */

static uint64_t span_of(const struct amp_level *l)
{
	return l->size / l->ways;
}

/* Offset of element e of set s at its read number v (a chase passes a word once). */
static uint64_t element_at(const struct amp_level *l, unsigned e, unsigned s, unsigned v)
{
	return e * span_of(l) + s * l->unit + v * 8;
}

/* The sets of one step in shuffled order: no constant stride for a prefetcher. */
static void set_order(const struct amp_level *l, uint64_t *order)
{
	for (uint64_t s = 0; s < amp_sets(l, COUNTED_SETS); s++)
		order[s] = s;
	mp_ref_shuffle(order, amp_sets(l, COUNTED_SETS), &l->a->g);
}

/* The sequence in every set, each step followed by the flushers of every set. */
static uint64_t build(const struct amp_level *l, const struct seq *q)
{
	unsigned reads[REPL_MAX_WAYS + 1] = { 0 };
	uint64_t m = amp_flushers(l), c = 0, n = l->ways + 1, order[COUNTED_SETS];
	uint64_t sets = amp_sets(l, COUNTED_SETS);

	for (unsigned t = 0; t < q->n; t++) {
		uint64_t first;

		set_order(l, order);
		for (unsigned s = 0; s < sets; s++)
			offs[c++] = element_at(l, q->at[t], (unsigned)order[s], reads[q->at[t]]);
		reads[q->at[t]]++;
		first = c;
		for (unsigned s = 0; s < sets; s++)
			for (uint64_t j = 0; j < m; j++)
				offs[c++] = amp_flusher(l, n, span_of(l), s, t, j);
		mp_ref_shuffle(offs + first, c - first, &l->a->g);
	}
	return c;
}

/* Misses of element i (every set) after the sequence, summed over the trials. */
static enum mp_status misses_of(struct amp_level *l, const struct seq *q, unsigned i,
				uint64_t *sum)
{
	uint64_t len = build(l, q), counted[COUNTED_SETS], n;
	struct amp_chase setup = { .region = "amp-replacement" };
	uint64_t sets = amp_sets(l, COUNTED_SETS);
	struct amp_chase probe = { .steps = sets, .ev = l->ev, .region = "amp-replacement" };
	enum mp_status st = MP_OK;

	setup.cursor = mp_ref_chain(l->a->mem.base, offs, len);
	for (unsigned s = 0; s < sets; s++)
		counted[s] = element_at(l, i, s, COUNTED_WORD);
	probe.cursor = mp_ref_chain(l->a->mem.base, counted, sets);
	*sum = 0;
	for (unsigned t = 0; t < REPL_TRIALS && st == MP_OK; t++) {
		st = mp_counter_flush(&l->a->k);
		if (st == MP_OK)
			st = amp_walk(l->a, &setup, len);
		if (st == MP_OK)
			st = amp_count(&l->a->k, &probe, &n);
		*sum += st == MP_OK ? n : 0;
	}
	return st;
}

/* The element the (N+1)st evicted, or -1 when the victims are scattered (random). */
static enum mp_status observe(struct amp_level *l, const struct seq *q, int *victim)
{
	uint64_t miss[REPL_MAX_WAYS], total = 0;
	unsigned best = 0;
	enum mp_status st = MP_OK;

	for (unsigned i = 0; i < l->ways && st == MP_OK; i++) {
		st = misses_of(l, q, i, &miss[i]);
		total += miss[i];
		best = miss[i] > miss[best] ? i : best;
	}
	*victim = total && (double)miss[best] >= REPL_SINGLE * (double)total ? (int)best : -1;
	return st;
}

static bool fits(const struct amp_level *l)
{
	uint64_t m = amp_flushers(l);

	return l->ways >= 2 && l->ways <= REPL_MAX_WAYS && l->unit / 8 > COUNTED_WORD &&
	       !l->tlb && l->size % l->ways == 0 && (2 * l->ways + 1) * COUNTED_SETS * (1 + m) <= CHAIN_MAX &&
	       (m == 0 || amp_flusher(l, l->ways + 1, span_of(l), COUNTED_SETS, SEQ_MAX, m) <=
				  l->a->mem.bytes) &&
	       (l->ways + 1) * span_of(l) <= l->a->mem.bytes;
}

/* One vote: the victims of both sequences, matched with each policy's. */
static enum mp_status vote(struct mp_counter *k, void *level, int64_t *v)
{
	struct amp_level *l = level;
	struct seq q[2];
	int seen[2];
	enum mp_status st = MP_OK;
	unsigned matches = 0;

	(void)k;
	for (unsigned s = 0; s < 2 && st == MP_OK; s++) {
		make_seq(&q[s], (unsigned)l->ways, s == 0);
		st = observe(l, &q[s], &seen[s]);
	}
	*v = MP_REPL_RANDOM;
	if (st != MP_OK || seen[0] < 0 || seen[1] < 0)
		return st;
	for (unsigned p = 0; p < NPOLICIES; p++)
		if ((int)policies[p].victim(&q[0], (unsigned)l->ways) == seen[0] &&
		    (int)policies[p].victim(&q[1], (unsigned)l->ways) == seen[1])
			*v = matches++ ? MP_REPL_LRU_LIKE : policies[p].policy;
	if (!matches)
		*v = MP_REPL_LRU_LIKE;
	return st;
}

enum mp_status amp_replacement(struct amp_level *l, struct mp_tally *t)
{
	*t = mp_tally_none();
	if (!fits(l))
		return MP_OK;
	return mp_counter_vote(&l->a->k, vote, l, t);
}
