/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stddef.h>

#include "core/seq/refstring.h"

static inline uint64_t *slot(uint8_t *base, uint64_t i, uint64_t stride)
{
	return (uint64_t *)(void *)(base + i * stride);
}

void *mp_ref_cycle(uint8_t *base, uint64_t n, uint64_t stride, struct mp_rng *g)
{
	/* Sattolo: a uniformly random permutation with a single cycle.  Each
	 * slot first holds its successor's index, then the index becomes an
	 * address. */
	for (uint64_t i = 0; i < n; i++)
		*slot(base, i, stride) = i;
	for (uint64_t i = n - 1; i > 0; i--) {
		uint64_t j = mp_rng_below(g, i);
		uint64_t t = *slot(base, i, stride);

		*slot(base, i, stride) = *slot(base, j, stride);
		*slot(base, j, stride) = t;
	}
	for (uint64_t i = 0; i < n; i++)
		*slot(base, i, stride) = (uint64_t)(uintptr_t)(base + *slot(base, i, stride) * stride);
	return base;
}

void *mp_ref_chain(uint8_t *base, const uint64_t *offs, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		uint8_t *next = base + offs[(i + 1) % n];

		*(uint64_t *)(void *)(base + offs[i]) = (uint64_t)(uintptr_t)next;
	}
	return base + offs[0];
}

void mp_ref_shuffle(uint64_t *offs, uint64_t n, struct mp_rng *g)
{
	for (uint64_t i = n; i > 1; i--) {
		uint64_t j = mp_rng_below(g, i);
		uint64_t t = offs[i - 1];

		offs[i - 1] = offs[j];
		offs[j] = t;
	}
}

/* Does the cycle take the same step into and out of element i? */
static bool same_steps(const uint64_t *offs, uint64_t n, uint64_t i)
{
	uint64_t a = offs[(i + n - 1) % n], b = offs[i], c = offs[(i + 1) % n];

	return b - a == c - b;
}

void mp_ref_shuffle_strideless(uint64_t *offs, uint64_t n, struct mp_rng *g)
{
	mp_ref_shuffle(offs, n, g);
	for (unsigned round = 0; round < MP_REF_STRIDELESS_ROUNDS && n > 3; round++)
		for (uint64_t i = 0; i < n; i++)
			if (same_steps(offs, n, i)) {
				uint64_t j = mp_rng_below(g, n), t = offs[i];

				offs[i] = offs[j];
				offs[j] = t;
			}
}

/*
 * A keyed pseudo-random permutation of [0, n) without scratch memory:
 * rounds of invertible steps on b-bit integers (add a key, multiply by an
 * odd key, xor-shift right), b the smallest width covering n, walking the
 * cycle back into range (fewer than two steps on average since 2^b < 2n).
 */
#define PERM_ROUNDS 3

struct perm {
	uint64_t n;
	uint64_t mask;
	unsigned shift;
	uint64_t add[PERM_ROUNDS], mul[PERM_ROUNDS];
};

static void perm_init(struct perm *p, uint64_t n, struct mp_rng *g)
{
	unsigned bits = 0;

	while (bits < 63 && (1ull << bits) < n)
		bits++;
	p->n = n;
	p->mask = (1ull << bits) - 1;
	p->shift = bits / 2 + 1;
	for (unsigned i = 0; i < PERM_ROUNDS; i++) {
		p->add[i] = mp_rng_next(g);
		p->mul[i] = mp_rng_next(g) | 1;
	}
}

static uint64_t perm_at(const struct perm *p, uint64_t i)
{
	do {
		for (unsigned k = 0; k < PERM_ROUNDS; k++) {
			i = ((i + p->add[k]) * p->mul[k]) & p->mask;
			i ^= i >> p->shift;
		}
	} while (i >= p->n);
	return i;
}

void mp_ref_put(struct mp_ref_out *o, uint64_t off)
{
	uint64_t *e;

	if (o->offs) {
		if (o->n < o->max)
			o->offs[o->n] = off;
		o->n++;
		return;
	}
	e = (uint64_t *)(void *)(o->base + off);
	if (o->prev)
		*o->prev = (uint64_t)(uintptr_t)e;
	if (!o->first)
		o->first = e;
	o->prev = e;
	o->n++;
}

void *mp_ref_close(struct mp_ref_out *o)
{
	if (o->offs || !o->prev)
		return NULL;
	*o->prev = (uint64_t)(uintptr_t)o->first;
	return o->first;
}

void mp_ref_ck_put(struct mp_ref_out *o, uint64_t bytes, uint64_t row, uint64_t line,
		   struct mp_rng *g)
{
	uint64_t nrows = (bytes + row - 1) / row;
	struct perm rows, cols;

	perm_init(&rows, nrows, g);
	for (uint64_t i = 0; i < nrows; i++) {
		uint64_t from = perm_at(&rows, i) * row;
		uint64_t nlines = (from + row < bytes ? row : bytes - from) / line;

		perm_init(&cols, nlines, g);
		for (uint64_t j = 0; j < nlines; j++)
			mp_ref_put(o, from + perm_at(&cols, j) * line);
	}
}

void *mp_ref_ck(uint8_t *base, uint64_t bytes, uint64_t row, uint64_t line, struct mp_rng *g)
{
	struct mp_ref_out o = mp_ref_linked(base);

	mp_ref_ck_put(&o, bytes, row, line, g);
	return mp_ref_close(&o);
}

static uint64_t pages_lines(const struct mp_ref_pages *s)
{
	return s->page / s->line;
}

uint64_t mp_ref_pages_count(const struct mp_ref_pages *s)
{
	return s->groups * s->per_group * s->per_page;
}

static uint64_t pages_places(const struct mp_ref_pages *s)
{
	return s->slots ? s->slots : s->groups;
}

uint64_t mp_ref_pages_span(const struct mp_ref_pages *s)
{
	return (pages_places(s) - 1) * s->group_stride + (s->per_group - 1) * s->page_stride +
	       s->page;
}

/* The permutations a string draws: line columns, page order, and the groups' places. */
struct pages_perms {
	struct perm cols, order, places;
};

static uint64_t pages_offset(const struct mp_ref_pages *s, const struct pages_perms *pp,
			     uint64_t e)
{
	uint64_t q = e / s->per_page, lines = pages_lines(s), group = q / s->per_group;
	uint64_t place = s->slots ? perm_at(&pp->places, group) : group;
	uint64_t page = place * s->group_stride + q % s->per_group * s->page_stride;
	uint64_t turn = (e / lines + pp->cols.add[0]) % lines;

	return page + perm_at(&pp->cols, (e + turn) % lines) * s->line;
}

void mp_ref_pages_put(struct mp_ref_out *o, const struct mp_ref_pages *s, struct mp_rng *g)
{
	uint64_t pages = s->groups * s->per_group;
	struct pages_perms pp;

	perm_init(&pp.cols, pages_lines(s), g);
	perm_init(&pp.order, pages, g);
	if (s->slots)
		perm_init(&pp.places, s->slots, g);
	for (uint64_t round = 0; round < s->per_page; round++) {
		for (uint64_t i = 0; i < pages; i++) {
			uint64_t e = perm_at(&pp.order, i) * s->per_page + round;

			mp_ref_put(o, pages_offset(s, &pp, e));
		}
	}
}

void *mp_ref_pages(uint8_t *base, const struct mp_ref_pages *s, struct mp_rng *g)
{
	struct mp_ref_out o = mp_ref_linked(base);

	mp_ref_pages_put(&o, s, g);
	return mp_ref_close(&o);
}
