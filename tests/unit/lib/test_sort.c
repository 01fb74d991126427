/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for core/lib/sort.h: the median, and the middle half's mean
 * that a clock in steps reads between its steps (core/probes/evset).
 */
#include "core/lib/sort.h"
#include "tests/check.h"

static void test_median(void)
{
	uint64_t v[] = { 9, 3, 7, 1 };
	uint64_t one[] = { 5 };

	CHECK(mp_median_u64(v, 4) == 3, "median of 4 is the lower middle (%llu)",
	      (unsigned long long)v[1]);
	CHECK(v[0] == 1 && v[3] == 9, "sorted in place");
	CHECK(mp_median_u64(one, 1) == 5, "median of one");
}

static void test_midmean(void)
{
	/* A clock in steps of 24: eight reads of 49, seven of 73, one burst. */
	uint64_t steps[] = { 73, 49, 73, 49, 49, 73, 73, 49, 5000, 49, 73, 49, 73, 49, 73, 49 };
	uint64_t even[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	uint64_t three[] = { 30, 10, 20 };
	double m = mp_midmean_u64(steps, 16);

	/* The middle half (reads 4 to 11 of 16): four 49s and four 73s. */
	CHECK(m == 61.0, "between the steps, the burst left out (%g)", m);
	m = mp_midmean_u64(even, 8);
	CHECK(m == 4.5, "middle half of 1..8 is 3..6 (%g)", m);
	m = mp_midmean_u64(three, 3);
	CHECK(m == 20.0, "three: all three (%g)", m);
}

int main(void)
{
	test_median();
	test_midmean();
	return check_done();
}
