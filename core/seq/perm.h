/* SPDX-License-Identifier: MIT */
/*
 * A keyed pseudo-random permutation of [0, n) without scratch memory:
 * rounds of invertible steps on b-bit integers (add a key, multiply by an
 * odd key, xor-shift right), b the smallest width covering n, walking the
 * cycle back into range (cycle walking: fewer than two steps on average
 * since 2^b < 2n).  Chains of millions of elements are shuffled this way
 * in place (core/seq/cycle.c, grouped.c).
 */
#ifndef MEMPROBE_CORE_SEQ_PERM_H
#define MEMPROBE_CORE_SEQ_PERM_H

#include <stdint.h>

#include "core/lib/rng.h"

#define MP_PERM_ROUNDS 3

struct mp_perm {
	uint64_t n;
	uint64_t mask;
	unsigned shift;
	uint64_t add[MP_PERM_ROUNDS], mul[MP_PERM_ROUNDS];
};

/* A permutation of [0, n), n >= 1, keyed by g. */
void mp_perm_init(struct mp_perm *p, uint64_t n, struct mp_rng *g);
/* The i-th element of the permutation, i < n. */
uint64_t mp_perm_at(const struct mp_perm *p, uint64_t i);

#endif
