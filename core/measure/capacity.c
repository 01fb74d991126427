/* SPDX-License-Identifier: MIT */
#include "core/lib/bits.h"
#include "core/measure/capacity.h"

uint64_t mp_capacity_grid(uint64_t bytes, uint64_t unit)
{
	uint64_t g = mp_pow2_floor(bytes) / MP_CAPACITY_GRID_DIVISOR;

	return g > unit ? g - g % unit : unit;
}

static bool narrow_enough(const struct mp_capacity *s)
{
	uint64_t gap = s->dirty - s->clean;

	return gap <= mp_capacity_grid(s->clean, s->unit) / MP_CAPACITY_GRID_STOP ||
	       gap <= s->unit;
}

enum mp_status mp_capacity_refine(struct mp_capacity *s, mp_capacity_try_fn try, void *arg,
				  uint64_t *size)
{
	enum mp_status st = MP_OK;
	uint64_t g;

	while (st == MP_OK && !narrow_enough(s)) {
		uint64_t mid = (s->clean + s->dirty) / 2;

		st = try(arg, s, mid - mid % s->unit);
	}
	g = mp_capacity_grid(s->clean, s->unit);
	*size = (s->clean + g / 2) / g * g;
	return st;
}
