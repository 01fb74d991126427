/* SPDX-License-Identifier: MIT */
/*
 * Reference strings: the one generator of pointer chains that every probe
 * and every platform uses.  An element is a pointer-sized word holding the
 * address of the next element; the chain is always one cycle, so a chase
 * of any length stays on it.  Orders are pseudo-random (seeded) so that a
 * stride prefetcher sees nothing to follow (X-Ray 4.4.3, Cooper-Xu 3.3).
 */
#ifndef MEMPROBE_CORE_REFSTRING_H
#define MEMPROBE_CORE_REFSTRING_H

#include <stdint.h>

#include "core/rng.h"

/*
 * Link n elements at base + i * stride (i < n) into one random cycle
 * (Sattolo's algorithm, in place: no scratch memory).  Returns the element
 * the chase starts from.  n >= 1, stride >= sizeof(void *).
 */
void *mp_ref_cycle(uint8_t *base, uint64_t n, uint64_t stride, struct mp_rng *g);

/*
 * Link the elements at base + offs[i] into one cycle in the given order
 * (offs is not changed).  Returns base + offs[0].
 */
void *mp_ref_chain(uint8_t *base, const uint64_t *offs, uint64_t n);

/* Shuffle offs[0..n) in place (Fisher-Yates), for a random visiting order. */
void mp_ref_shuffle(uint64_t *offs, uint64_t n, struct mp_rng *g);

#endif
