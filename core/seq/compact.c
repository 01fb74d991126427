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

static uint64_t chunk_of(const struct mp_ref_stride *s)
{
	return s->chunk && s->chunk < s->n ? s->chunk : s->n;
}

/*
 * Where element k of round j of the group in turn `slot` lies: rounds are
 * `groups` chunks each, all of `chunk` elements but the last round's.
 */
static uint64_t at_turn(const struct mp_ref_stride *s, uint64_t j, uint64_t slot, uint64_t k)
{
	uint64_t c = chunk_of(s), len = s->n - j * c < c ? s->n - j * c : c;

	return j * s->groups * c + slot * len + k;
}

/* The turn (the group's place in a round) of position p. */
static uint64_t turn_of(const struct mp_ref_stride *s, uint64_t p)
{
	uint64_t c = chunk_of(s), j = p / (s->groups * c), rest = p - j * s->groups * c;

	return rest / (s->n - j * c < c ? s->n - j * c : c);
}

/* Position of a group's element number e (its chunk, then its place in it). */
static uint64_t place(const struct mp_ref_stride *s, uint64_t slot, uint64_t e)
{
	uint64_t c = chunk_of(s);

	return at_turn(s, e / c, slot, e % c);
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

/* Swap element i with another of its group that leaves no equal steps near either. */
static bool unstride_at(const struct mp_ref_stride *s, uint64_t *offs, uint64_t i,
			struct mp_rng *g)
{
	uint64_t total = mp_ref_stride_count(s), r = mp_rng_below(g, s->n), slot = turn_of(s, i);

	for (uint64_t e = 0; e < s->n; e++) {
		uint64_t p = place(s, slot, (r + e) % s->n);

		if (p == i)
			continue;
		swap(offs, i, p);
		if (!strided_near(offs, total, i) && !strided_near(offs, total, p))
			return true;
		swap(offs, i, p);
	}
	return false;
}

/*
 * Break every pair of equal steps in a row (a stride prefetcher fires on
 * two: docs/algorithms.md, "Reference strings") by swapping the element
 * with another of its own group (the order of the groups' turns stays).
 * Groups of two or three elements cannot always avoid it; bounded passes.
 */
static void unstride(const struct mp_ref_stride *s, uint64_t *offs, struct mp_rng *g)
{
	uint64_t n = mp_ref_stride_count(s);

	for (unsigned pass = 0; n > 2 && s->n > 1 && pass < UNSTRIDE_PASSES; pass++) {
		bool left = false;

		for (uint64_t i = 0; i < n; i++)
			if (step_at(offs, n, i) == step_at(offs, n, i + n - 1))
				left |= !unstride_at(s, offs, i, g);
		if (!left)
			return;
	}
}

/* Swap the elements of the groups in turns a and b. */
static void swap_turns(const struct mp_ref_stride *s, uint64_t *offs, uint64_t a, uint64_t b)
{
	for (uint64_t e = 0; a != b && e < s->n; e++)
		swap(offs, place(s, a, e), place(s, b, e));
}

void mp_ref_stride_order(const struct mp_ref_stride *s, uint64_t *offs, struct mp_rng *g)
{
	for (uint64_t slot = 0; slot < s->groups; slot++) {
		for (uint64_t e = 0; e < s->n; e++)
			offs[place(s, slot, e)] = slot * s->group_stride + e * s->stride +
						  (e >= s->shift_from ? s->shift : 0);
		for (uint64_t e = s->n; e-- > 1;)
			swap(offs, place(s, slot, e), place(s, slot, mp_rng_below(g, e + 1)));
	}
	for (uint64_t a = s->groups; a-- > 1;)
		swap_turns(s, offs, a, mp_rng_below(g, a + 1));
	unstride(s, offs, g);
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
	unstride(&(struct mp_ref_stride){ stride, m, m, 0, 1, 0, 0 }, offs, g);
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
