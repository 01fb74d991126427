/* SPDX-License-Identifier: MIT */
/*
 * Cooper and Xu's L1 gap test (section 3.2, figure 3), in their order:
 * capacity, then associativity, then line size, on G(n, k, o): n words k
 * bytes apart, the last moved o bytes further (core/seq/refstring.h).
 * Where it goes beyond the paper (MaxAssoc doubled, the ways searched
 * inside their bracket, the capacity refined) docs/algorithms.md, "L1 data
 * cache", says why.
 */
#include "core/lib/bits.h"
#include "core/probes/l1/l1.h"

/* Cooper-Xu's search bounds for the L1 (3.2): 1 KB to 4 MB. */
#define GAP_LB 1024ull
#define GAP_UB (4ull << 20)
/* Cooper-Xu's MaxAssoc, and how far we double it when nothing misses. */
#define GAP_MAX_ASSOC 16u
#define GAP_MAX_ASSOC_LIMIT 256u
/* The smallest gap and offset is one element, s->elem: an 8-byte word, or a code block. */
/* The largest line offset tried: a 4 KB page (Cooper-Xu sweep o to the page size). */
#define GAP_MAX_OFFSET 4096u

/* 1: G misses at L1, 0: it hits, -1: not timed. */
static int misses(struct mp_compact_set *s, uint64_t n, uint64_t k, uint64_t o)
{
	struct mp_ref_stride g = mp_ref_gap(n, k, o);
	int c = mp_compact_set_compact(s, &g);

	return c < 0 ? -1 : !c;
}

/* Loop 1 for one MaxAssoc: the capacity bound, 0 when no gap misses. */
static int capacity_bound(struct mp_compact_set *s, uint64_t assoc, uint64_t *cap)
{
	uint64_t k = GAP_LB / assoc < s->elem ? s->elem : GAP_LB / assoc;

	for (; k <= GAP_UB / assoc; k *= 2) {
		int m = misses(s, assoc + 1, k, 0);

		if (m != 0) {
			*cap = assoc * k;
			return m;
		}
	}
	*cap = 0;
	return 0;
}

static int find_capacity(struct mp_compact_set *s, uint64_t *assoc, uint64_t *cap)
{
	for (*assoc = GAP_MAX_ASSOC; *assoc <= GAP_MAX_ASSOC_LIMIT; *assoc *= 2) {
		int m = capacity_bound(s, *assoc, cap);

		if (m != 0)
			return m;
	}
	return 0;
}

/* Largest n in [lo, hi] for which G(n, k, 0) hits; G(lo, k, 0) hits. */
static int largest_hit(struct mp_compact_set *s, uint64_t lo, uint64_t hi, uint64_t k, uint64_t *n)
{
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;
		int m = misses(s, mid, k, 0);

		if (m < 0)
			return -1;
		if (m)
			hi = mid - 1;
		else
			lo = mid;
	}
	*n = lo;
	return 0;
}

/* Loop 2 and its refinement: the ways, given the capacity bound. */
static int find_ways(struct mp_compact_set *s, uint64_t assoc, uint64_t cap, uint64_t *ways)
{
	for (uint64_t m = assoc / 2; m >= 1; m /= 2) {
		int miss = misses(s, m + 1, cap / m, 0);

		if (miss < 0)
			return -1;
		if (!miss)
			return largest_hit(s, m + 1, 2 * m, cap / m, ways);
	}
	*ways = 1;
	return 0;
}

/* Step 3: the exact capacity; 0 when the two confirming runs disagree. */
static int exact_capacity(struct mp_compact_set *s, uint64_t cap, uint64_t ways, uint64_t *way)
{
	int over, under = 0;

	*way = mp_pow2_floor(cap / ways);
	over = misses(s, ways + 1, *way, 0);
	if (*way / 2 >= s->elem)
		under = misses(s, ways + 1, *way / 2, 0);
	if (over < 0 || under < 0)
		return -1;
	return over && !under;
}

/* Loop 3: the line, 0 when no offset below the way brings G back to hits. */
static int find_line(struct mp_compact_set *s, uint64_t ways, uint64_t way, uint64_t *line)
{
	for (uint64_t o = s->elem; o < way && o <= GAP_MAX_OFFSET; o *= 2) {
		int m = misses(s, ways + 1, way, o);

		if (m <= 0) {
			*line = o;
			return m < 0 ? -1 : 1;
		}
	}
	return 0;
}

static int fail(struct mp_l1_found *out, int st, const char *why)
{
	out->why = why;
	return st < 0 ? -1 : 0;
}

int mp_l1_gap(struct mp_compact_set *s, struct mp_l1_found *out)
{
	uint64_t assoc, cap, ways, way;
	int st;

	*out = (struct mp_l1_found){ MP_NA, MP_NA, MP_NA, NULL, 0 };
	if ((st = find_capacity(s, &assoc, &cap)) <= 0)
		return fail(out, st, "gap test: no gap up to 4 MB / 256 made G(n,k,0) miss");
	if (find_ways(s, assoc, cap, &ways) < 0)
		return -1;
	/* The ways stand only with the capacity they refine: loop 2 ends at 1 when nothing hit. */
	if ((st = exact_capacity(s, cap, ways, &way)) <= 0)
		return fail(out, st, "gap test: the capacity did not refine to ways x a power of two");
	out->ways = (int64_t)ways;
	out->size = (int64_t)(ways * way);
	return mp_l1_gap_line(s, out);
}

int mp_l1_gap_line(struct mp_compact_set *s, struct mp_l1_found *out)
{
	uint64_t line, ways = (uint64_t)out->ways;
	int st = find_line(s, ways, (uint64_t)out->size / ways, &line);

	if (st <= 0)
		return fail(out, st, "gap test: no offset below the way made G hit again");
	out->line = (int64_t)line;
	out->why = NULL;
	return 0;
}
