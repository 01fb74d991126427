/* SPDX-License-Identifier: MIT */
#include "core/measure/overfill.h"

/*
 * How many of elements [lo, hi) are critical: without any one of them none
 * misses.  Halving: a range whose removal leaves misses holds none (the
 * caller never asks for all of them at once).
 */
static enum mp_status critical(mp_overfill_fn f, void *arg, uint64_t lo, uint64_t hi,
			       uint64_t *count)
{
	bool miss = true;
	enum mp_status st = lo < hi ? f(arg, lo, hi, &miss) : MP_OK;

	if (st != MP_OK || miss)
		return st;
	if (hi - lo == 1)
		return ++*count, MP_OK;
	st = critical(f, arg, lo, lo + (hi - lo) / 2, count);
	return st == MP_OK ? critical(f, arg, lo + (hi - lo) / 2, hi, count) : st;
}

/*
 * In one k-way set the elements overfill, every one is critical: without
 * any one, k + more - 1 remain and fit (from empty sets, under any
 * replacement).  In slices of w ways, fill/w of them filled, one more
 * element overfills one slice: only its w + 1 are critical.
 */
static uint64_t assoc_of(const struct mp_overfill *x, uint64_t count, uint64_t k)
{
	uint64_t w = count > x->more ? count - x->more : 0;

	if (w == k)
		return k;
	return x->slices && w >= 2 && w < k && x->fill % w == 0 ? w : 0;
}

enum mp_status mp_overfill_assoc(const struct mp_overfill *x, uint64_t k, mp_overfill_fn f,
				 void *arg, uint64_t *assoc, bool *missed)
{
	uint64_t c = x->fill + x->more, count = 0;
	enum mp_status st = f(arg, 0, 0, missed);

	*assoc = 0;
	if (st != MP_OK || !*missed)
		return st;
	st = critical(f, arg, 0, c / 2, &count);
	if (st == MP_OK)
		st = critical(f, arg, c / 2, c, &count);
	*assoc = st == MP_OK ? assoc_of(x, count, k) : 0;
	return st;
}
