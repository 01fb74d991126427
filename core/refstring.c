/* SPDX-License-Identifier: MIT */
#include "core/refstring.h"

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
