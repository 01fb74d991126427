/* SPDX-License-Identifier: MIT */
/*
 * A set-associative array of keys with its replacement state: the one
 * structure every cache level and every TLB of the simulator is made of.
 * A key is an address shifted right by the line (or page) size; the caller
 * picks the set, so a level can be indexed by one address and tagged by
 * another.  A set is one row: its keys, then its replacement state (stamps
 * or tree bits), so a lookup and its update touch neighbouring host lines.
 *
 * Replacement: lru keeps a use stamp per way; fifo a fill stamp; bimodal is
 * lru whose fill takes the lowest stamp a line can have one time in
 * SIM_BIMODAL_LOW (Qureshi et al.'s bimodal insertion, ISCA 2007, mostly at
 * the MRU end), so the next fill of its set replaces it; plru a
 * binary tree of (leaves rounded up to a power of two) - 1 bits per set,
 * each pointing at the half to replace next, where a victim walk never
 * enters a half holding no real way (a tree of up to 64 leaves is touched
 * with one and-or of precomputed masks); random draws from a seeded
 * generator.  An empty way is always filled first.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim/simint.h"

#define HUGE_BYTES (2ull << 20)

void *sim_zalloc(uint64_t bytes)
{
	void *p;

	if (bytes < HUGE_BYTES)
		return calloc(1, bytes);
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, bytes, MADV_HUGEPAGE);
	return p;
}

void sim_zfree(void *p, uint64_t bytes)
{
	if (!p)
		return;
	if (bytes < HUGE_BYTES)
		free(p);
	else
		munmap(p, bytes);
}

static uint32_t ceil_log2(uint64_t n)
{
	uint32_t d = 0;

	while ((1ull << d) < n)
		d++;
	return d;
}

/* The per-way masks of a tree that fits one word: touching way w points every
 * node on its path at the other half. */
static void plru_masks(struct sim_sets *a)
{
	for (uint32_t w = 0; w < a->ways; w++) {
		uint64_t node = w + (1ull << a->plru_depth), clear = 0, set = 0;

		for (uint32_t d = 0; d < a->plru_depth; d++) {
			uint64_t parent = node >> 1;

			clear |= 1ull << parent;
			if (!(node & 1))
				set |= 1ull << parent;
			node = parent;
		}
		a->plru_and[w] = ~clear;
		a->plru_or[w] = set;
	}
}

static int alloc_state(struct sim_sets *a, bool with_aux)
{
	uint64_t words = a->nsets * a->stride, entries = a->nsets * a->ways;
	uint64_t hints = 1ull << ceil_log2(entries);

	if (hints > SIM_HINT_MAX)
		hints = SIM_HINT_MAX;
	a->hint_mask = (uint32_t)(hints - 1);
	a->key = sim_zalloc(words * sizeof(*a->key));
	a->hint = sim_zalloc(hints * sizeof(*a->hint));
	if (!a->key || !a->hint)
		return -1;
	if (with_aux && !(a->aux = sim_zalloc(words * sizeof(*a->aux))))
		return -1;
	if (a->repl == MP_REPL_LRU || a->repl == MP_REPL_FIFO || a->repl == MP_REPL_BIMODAL)
		a->stamp = a->key + a->ways;
	if (a->repl == MP_REPL_PLRU)
		a->plru = a->key + a->ways;
	if (a->plru && a->plru_words == 1) {
		a->plru_and = sim_zalloc(a->ways * sizeof(*a->plru_and));
		a->plru_or = sim_zalloc(a->ways * sizeof(*a->plru_or));
		if (!a->plru_and || !a->plru_or)
			return -1;
		plru_masks(a);
	}
	return 0;
}

/* Words of state after a set's keys. */
static uint64_t state_words(const struct sim_sets *a)
{
	switch (a->repl) {
	case MP_REPL_LRU:
	case MP_REPL_FIFO:
	case MP_REPL_BIMODAL:
		return a->ways;
	case MP_REPL_PLRU:
		return a->plru_words;
	default:
		return 0;
	}
}

int sim_sets_init(struct sim_sets *a, uint64_t entries, uint64_t ways, unsigned shift,
		  enum mp_replacement repl, uint64_t seed, bool with_aux)
{
	memset(a, 0, sizeof(*a));
	if (ways == 0 || entries == 0 || entries % ways || ways > UINT32_MAX / 4)
		return -1;
	a->ways = (uint32_t)ways;
	a->nsets = entries / ways;
	a->pow2 = (a->nsets & (a->nsets - 1)) == 0;
	a->set_mask = a->pow2 ? a->nsets - 1 : 0;
	a->recip = ~(unsigned __int128)0 / a->nsets + 1;
	a->shift = shift;
	a->low_mask = (1ull << shift) - 1;
	a->repl = repl;
	a->rng = sim_seed(seed);
	a->plru_depth = ceil_log2(ways);
	a->plru_words = (uint32_t)(((1ull << a->plru_depth) + 63) / 64);
	a->stride = a->ways + state_words(a);
	if (alloc_state(a, with_aux) < 0) {
		sim_sets_free(a);
		return -1;
	}
	sim_sets_clear(a);
	return 0;
}

void sim_sets_free(struct sim_sets *a)
{
	uint64_t words = a->nsets * a->stride;

	sim_zfree(a->key, words * sizeof(*a->key));
	sim_zfree(a->aux, words * sizeof(*a->aux));
	sim_zfree(a->hint, ((uint64_t)a->hint_mask + 1) * sizeof(*a->hint));
	sim_zfree(a->plru_and, a->ways * sizeof(*a->plru_and));
	sim_zfree(a->plru_or, a->ways * sizeof(*a->plru_or));
	memset(a, 0, sizeof(*a));
}

void sim_sets_clear(struct sim_sets *a)
{
	for (uint64_t set = 0; set < a->nsets; set++) {
		uint64_t *row = a->key + set * a->stride;

		for (uint32_t w = 0; w < a->ways; w++)
			row[w] = SIM_NONE;
		memset(row + a->ways, 0, (a->stride - a->ways) * sizeof(*row));
	}
}

/* Tree nodes are numbered heap-style from 1; leaf l is node l + 2^depth. */
static bool plru_bit(const uint64_t *bits, uint64_t node)
{
	return (bits[node >> 6] >> (node & 63)) & 1;
}

void sim_plru_touch_tree(struct sim_sets *a, uint64_t set, uint32_t way)
{
	uint64_t *bits = a->plru + set * a->stride;
	uint64_t node = way + (1ull << a->plru_depth);

	for (uint32_t d = 0; d < a->plru_depth; d++) {
		uint64_t parent = node >> 1;
		uint64_t mask = 1ull << (parent & 63);

		/* point the parent at the other half */
		if (node & 1)
			bits[parent >> 6] &= ~mask;
		else
			bits[parent >> 6] |= mask;
		node = parent;
	}
}

static uint32_t plru_victim(const struct sim_sets *a, uint64_t set)
{
	const uint64_t *bits = a->plru + set * a->stride;
	uint64_t leaves = 1ull << a->plru_depth;
	uint64_t node = 1;

	for (uint32_t d = 1; d <= a->plru_depth; d++) {
		uint64_t child = 2 * node + plru_bit(bits, node);
		/* no real way under child (its first leaf is past the last way): take
		 * the other half; computed, not branched on */
		uint64_t none = (child << (a->plru_depth - d)) - leaves >= a->ways;

		node = child ^ none;
	}
	return (uint32_t)(node - leaves);
}

/* Least recent stamp; empty ways have stamp 0, so they go first. */
static uint32_t oldest(const struct sim_sets *a, uint64_t set)
{
	const uint64_t *st = a->stamp + set * a->stride;
	uint32_t best = 0;

	for (uint32_t w = 1; w < a->ways; w++)
		if (st[w] < st[best])
			best = w;
	return best;
}

static uint32_t victim(struct sim_sets *a, uint64_t set)
{
	const uint64_t *row = a->key + set * a->stride;

	if (a->stamp)
		return oldest(a, set);
	for (uint32_t w = 0; w < a->ways; w++)
		if (row[w] == SIM_NONE)
			return w;
	if (a->repl == MP_REPL_PLRU)
		return plru_victim(a, set);
	return (uint32_t)sim_below(&a->rng, a->ways);
}

uint64_t sim_sets_peek(const struct sim_sets *a, uint64_t set)
{
	const uint64_t *row = a->key + set * a->stride;

	if (a->stamp)
		return row[oldest(a, set)];
	if (a->repl != MP_REPL_PLRU)
		return SIM_NONE;
	for (uint32_t w = 0; w < a->ways; w++)
		if (row[w] == SIM_NONE)
			return SIM_NONE;
	return row[plru_victim(a, set)];
}

/* A fill's stamp: the next use's, or for bimodal now and then the lowest a
 * line can have (empty ways have 0). */
static uint64_t fill_stamp(struct sim_sets *a)
{
	if (a->repl == MP_REPL_BIMODAL && sim_below(&a->rng, SIM_BIMODAL_LOW) == 0)
		return 1;
	return ++a->clock;
}

uint64_t sim_sets_fill(struct sim_sets *a, uint64_t set, uint64_t key, uint64_t ikey,
		       uint64_t aux)
{
	uint32_t w = victim(a, set);
	uint64_t i = set * a->stride + w;
	uint64_t old = a->key[i];

	a->key[i] = key;
	if (a->aux)
		a->aux[i] = aux;
	if (a->stamp)
		a->stamp[i] = fill_stamp(a);
	else if (a->plru)
		sim_sets_touch(a, set * a->stride, i);
	a->hint[ikey & a->hint_mask] = (uint32_t)i;
	return old;
}

void sim_sets_drop(struct sim_sets *a, uint64_t entry)
{
	a->key[entry] = SIM_NONE;
	if (a->stamp)
		a->stamp[entry] = 0;
}
