/* SPDX-License-Identifier: MIT */
/* A small seeded generator (splitmix64): reproducible reference strings. */
#ifndef MEMPROBE_CORE_LIB_RNG_H
#define MEMPROBE_CORE_LIB_RNG_H

#include <stdint.h>

struct mp_rng {
	uint64_t state;
};

static inline void mp_rng_seed(struct mp_rng *g, uint64_t seed) { g->state = seed; }

static inline uint64_t mp_rng_next(struct mp_rng *g)
{
	uint64_t z = (g->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0 (Lemire's multiply-shift, bias below 2^-32 for our n). */
static inline uint64_t mp_rng_below(struct mp_rng *g, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)mp_rng_next(g) * n) >> 64);
}

#endif
