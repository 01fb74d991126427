/* SPDX-License-Identifier: MIT */
/*
 * The capacity search the counter probes share (AMP 3.2, PAPI cacheSize):
 * footprints that fit and footprints that do not close in on a capacity,
 * which lies on a grid (docs/algorithms.md, "Capacity grid").
 */
#ifndef MEMPROBE_CORE_MEASURE_CAPACITY_H
#define MEMPROBE_CORE_MEASURE_CAPACITY_H

#include <stdint.h>

#include "core/platform.h"

/*
 * The grid a capacity lies on, and where the search stops
 * (docs/algorithms.md, "Capacity grid").
 */
#define MP_CAPACITY_GRID_DIVISOR 64u
#define MP_CAPACITY_GRID_STOP 4u

/* The grid step near `bytes`: 1/64 of its power-of-two floor, a whole number of units. */
uint64_t mp_capacity_grid(uint64_t bytes, uint64_t unit);

/* The search so far: the largest footprint that fits, the smallest that does not. */
struct mp_capacity {
	uint64_t clean;
	uint64_t dirty;
	uint64_t unit;
};

/* Try a footprint of `bytes` (a whole number of units); it moves s->clean or s->dirty. */
typedef enum mp_status (*mp_capacity_try_fn)(void *arg, struct mp_capacity *s, uint64_t bytes);

/* Bisect between clean and dirty down to the grid's stop, then *size is clean rounded to the grid. */
enum mp_status mp_capacity_refine(struct mp_capacity *s, mp_capacity_try_fn try, void *arg,
				  uint64_t *size);

#endif
