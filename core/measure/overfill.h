/* SPDX-License-Identifier: MIT */
/*
 * Is a set found by strides one set, or the sets of several slices of a
 * hashed index?  Counted on elements that exactly fill the stride's sets,
 * plus some more: the elements without which none misses are those of the
 * one set the extra ones overfilled (docs/algorithms.md, "Counter-based
 * probes", hashed sets).  Shared by the counter probes (AMP 3.3, PAPI
 * cacheBlock), each with its own chains.
 */
#ifndef MEMPROBE_CORE_MEASURE_OVERFILL_H
#define MEMPROBE_CORE_MEASURE_OVERFILL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/platform.h"

/* Do the elements, without elements [lo, hi), still miss on every pass (from empty sets)? */
typedef enum mp_status (*mp_overfill_fn)(void *arg, uint64_t lo, uint64_t hi, bool *miss);

/*
 * One overfill: `fill` elements that filled fill/k of the stride's k-way
 * sets, and `more` beyond them.
 */
struct mp_overfill {
	uint64_t fill, more;
	bool slices;         /* one more element: may tell slices */
};

/*
 * The true associativity the overfill x of sets of k ways tells (0: not
 * told; *missed false when none of its elements missed, and it told nothing).
 */
enum mp_status mp_overfill_assoc(const struct mp_overfill *x, uint64_t k, mp_overfill_fn f,
				 void *arg, uint64_t *assoc, bool *missed);

#endif
