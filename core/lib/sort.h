/* SPDX-License-Identifier: MIT */
/* Sorting the few numbers a calibration or a CPU sample takes (insertion sort: tens at most). */
#ifndef MEMPROBE_CORE_LIB_SORT_H
#define MEMPROBE_CORE_LIB_SORT_H

#include <stddef.h>
#include <stdint.h>

/* An insertion sort of v[0 .. n), ascending, for one element type. */
#define MP_DEFINE_SORT(name, type)                                              \
	static inline void name(type *v, size_t n)                              \
	{                                                                       \
		for (size_t i = 1; i < n; i++)                                  \
			for (size_t j = i; j > 0 && v[j] < v[j - 1]; j--) {     \
				type swap = v[j];                               \
									\
				v[j] = v[j - 1];                                \
				v[j - 1] = swap;                                \
			}                                                       \
	}

MP_DEFINE_SORT(mp_sort_u64, uint64_t)
MP_DEFINE_SORT(mp_sort_u32, uint32_t)

/* The median of v[0 .. n), n > 0 (the lower of the middle two): v sorted in place. */
static inline uint64_t mp_median_u64(uint64_t *v, size_t n)
{
	mp_sort_u64(v, n);
	return v[(n - 1) / 2];
}

/*
 * The mean of the middle half of v[0 .. n), n > 0 (v sorted in place):
 * on a clock that moves in steps a median is a step, this lies between
 * them as the reads do, and a burst of noise is left out as by a median.
 */
static inline double mp_midmean_u64(uint64_t *v, size_t n)
{
	size_t from = n / 4, to = n - n / 4;
	double sum = 0.0;

	mp_sort_u64(v, n);
	for (size_t i = from; i < to; i++)
		sum += (double)v[i];
	return sum / (double)(to - from);
}

#endif
