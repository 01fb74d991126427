/* SPDX-License-Identifier: MIT */
/*
 * The counter probes' reference strings, on top of core/refstring.h.
 *
 * A counted run has to see the misses a structure causes and nothing a
 * prefetcher hides, so no string here walks memory at a constant stride:
 * a stride prefetcher trains on two equal steps (tests/sim/prefetch.c, and
 * every x86 L1/L2 streamer), a shuffled order gives it none.
 */
#ifndef MEMPROBE_CORE_CSTRING_H
#define MEMPROBE_CORE_CSTRING_H

#include <stdint.h>

#include "core/rng.h"

/* Elements of one group: 4096 bytes of 8-byte words is the largest group. */
#define MP_CS_MAX_GROUP 512u

/*
 * One cycle through the elements base + i * stride, i < bytes / stride.
 * The groups of `group` bytes come in shuffled order and every element of
 * a group, in shuffled order, before the next group: a cold pass takes one
 * miss per line (or page) no larger than the group however small the
 * cache.  group == stride is a plain shuffled cycle.  stride >= 8 divides
 * group, group divides bytes, group / stride <= MP_CS_MAX_GROUP.  Returns
 * the element a chase starts from (base).
 */
void *mp_cs_grouped(uint8_t *base, uint64_t bytes, uint64_t stride, uint64_t group,
		    struct mp_rng *g);

#endif
