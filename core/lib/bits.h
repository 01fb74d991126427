/* SPDX-License-Identifier: MIT */
/* Small helpers on numbers and arrays, written once. */
#ifndef MEMPROBE_CORE_LIB_BITS_H
#define MEMPROBE_CORE_LIB_BITS_H

#include <stdbool.h>
#include <stdint.h>

/* Elements of an array (not a pointer). */
#define MP_COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Largest power of two <= x; 1 for x <= 1. */
static inline uint64_t mp_pow2_floor(uint64_t x)
{
	uint64_t p = 1;

	while (p <= x / 2)
		p *= 2;
	return p;
}

static inline bool mp_is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

#endif
