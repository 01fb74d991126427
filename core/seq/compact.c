/* SPDX-License-Identifier: MIT */
/*
 * The reference strings of the compact-set probes (core/seq/refstring.h): the
 * gap test's G(n, k, o), X-Ray's <S, n>, <C/A, 2A, b> and <S, n, S_old, r>,
 * the back-invalidation string and the TLB twin of a visiting order.
 */
#include <stdbool.h>

#include "core/seq/refstring.h"

uint64_t mp_ref_stride_count(const struct mp_ref_stride *s)
{
	return s->n * s->groups;
}

uint64_t mp_ref_stride_span(const struct mp_ref_stride *s)
{
	uint64_t last = (s->n - 1) * s->stride + (s->groups - 1) * s->group_stride;

	return last + (s->shift_from < s->n ? s->shift : 0) + sizeof(uint64_t);
}

/* Group g's elements, shuffled, at offs[0 .. n). */
static void group_offsets(const struct mp_ref_stride *s, uint64_t g, uint64_t *offs,
			  struct mp_rng *rng)
{
	for (uint64_t e = 0; e < s->n; e++)
		offs[e] = g * s->group_stride + e * s->stride + (e >= s->shift_from ? s->shift : 0);
	mp_ref_shuffle(offs, s->n, rng);
}

/* Rounds of the repair below; each fixes what the previous could not. */
#define UNSTRIDE_PASSES 8u

static uint64_t step_at(const uint64_t *offs, uint64_t n, uint64_t i)
{
	return offs[i % n] - offs[(i + n - 1) % n];
}

/* Do two steps in a row match anywhere from i - 1 to i + 2? */
static bool strided_near(const uint64_t *offs, uint64_t n, uint64_t i)
{
	for (uint64_t k = i + n - 1; k <= i + n + 2; k++)
		if (step_at(offs, n, k) == step_at(offs, n, k - 1))
			return true;
	return false;
}

static void swap(uint64_t *offs, uint64_t i, uint64_t j)
{
	uint64_t t = offs[i];

	offs[i] = offs[j];
	offs[j] = t;
}

/* Swap element i with one of its block that leaves no equal steps near either. */
static bool unstride_at(uint64_t *offs, uint64_t n, uint64_t i, uint64_t block,
			struct mp_rng *g)
{
	uint64_t first = i / block * block, size = n - first < block ? n - first : block;
	uint64_t r = mp_rng_below(g, size);

	for (uint64_t k = 0; k < size; k++) {
		uint64_t j = first + (r + k) % size;

		if (j == i)
			continue;
		swap(offs, i, j);
		if (!strided_near(offs, n, i) && !strided_near(offs, n, j))
			return true;
		swap(offs, i, j);
	}
	return false;
}

/*
 * Break every pair of equal steps in a row (a stride prefetcher fires on
 * two: docs/algorithms.md, "Reference strings") by swapping the element
 * with another of its own block (a group: the order stays group by group).
 * Blocks of two or three elements cannot always avoid it; bounded passes.
 */
static void unstride(uint64_t *offs, uint64_t n, uint64_t block, struct mp_rng *g)
{
	for (unsigned pass = 0; n > 2 && block > 1 && pass < UNSTRIDE_PASSES; pass++) {
		bool left = false;

		for (uint64_t i = 0; i < n; i++)
			if (step_at(offs, n, i) == step_at(offs, n, i + n - 1))
				left |= !unstride_at(offs, n, i, block, g);
		if (!left)
			return;
	}
}

void mp_ref_stride_order(const struct mp_ref_stride *s, uint64_t *offs, struct mp_rng *g)
{
	/* Shuffle the group numbers in place first, then expand each group
	 * from the last: group i overwrites only numbers already used. */
	for (uint64_t i = 0; i < s->groups; i++)
		offs[i] = i;
	mp_ref_shuffle(offs, s->groups, g);
	for (uint64_t i = s->groups; i-- > 0;)
		group_offsets(s, offs[i], offs + i * s->n, g);
	unstride(offs, mp_ref_stride_count(s), s->n, g);
}

void *mp_ref_stride_chain(uint8_t *base, const struct mp_ref_stride *s, uint64_t *offs,
			  struct mp_rng *g)
{
	mp_ref_stride_order(s, offs, g);
	return mp_ref_chain(base, offs, mp_ref_stride_count(s));
}

uint64_t mp_ref_evict_order(uint64_t xoff, uint64_t xlines, uint64_t words, uint64_t m,
			    uint64_t stride, uint64_t yoff, uint64_t *offs, struct mp_rng *g)
{
	uint64_t xs = xlines * words, total = m + xs, left = m, w = xs;

	for (uint64_t i = 0; i < m; i++)
		offs[i] = (xlines + i) * stride + yoff;
	mp_ref_shuffle(offs, m, g);
	/* The x words hit above: the levels below see the y lines alone. */
	unstride(offs, m, m, g);
	/* Merge from the back (a line is read before its place is written):
	 * x access j goes to position j * total / xs. */
	for (uint64_t pos = total; xs && pos-- > 0;) {
		if (w > 0 && pos == (w - 1) * total / xs) {
			w--;
			offs[pos] = xoff + w % xlines * stride + w / xlines * sizeof(uint64_t);
		} else {
			offs[pos] = offs[--left];
		}
	}
	return total;
}

void mp_ref_twin(const uint64_t *offs, uint64_t n, uint64_t page, uint64_t line, uint64_t elem,
		 uint64_t *out)
{
	uint64_t lines = page / line, slots = line / elem;

	for (uint64_t i = 0; i < n; i++)
		out[i] = (offs[i] & ~(page - 1)) + i % lines * line + i / lines % slots * elem;
}
