/* SPDX-License-Identifier: MIT */
/* Cooper-Xu's C(k) (nested bands) and T(n,k) / X-Ray page strings (core/seq/cycle.c). */
#include <stdint.h>
#include <stdlib.h>

#include "core/seq/refstring.h"
#include "tests/check.h"

#define PAGE 4096u
#define LINE 64u

/* Walk the cycle from start; count elements until it returns (0 if it does not within max). */
static uint64_t cycle_length(void *start, uint64_t max)
{
	uint64_t *e = start, n = 0;

	do {
		e = (uint64_t *)(uintptr_t)*e;
		n++;
	} while (e != start && n <= max);
	return e == start ? n : 0;
}

/* Does the chase finish every page before it moves on, and visit no page twice? */
static int pages_whole(uint8_t *base, void *start, uint64_t n, uint64_t bytes)
{
	uint8_t seen[4096] = { 0 };
	uint64_t *e = start, cur = UINT64_MAX;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = (uint64_t)((uint8_t *)e - base), page = off / PAGE;

		if (off >= bytes || off % LINE)
			return 0;
		if (page != cur) {
			if (seen[page])
				return 0;
			seen[page] = 1;
			cur = page;
		}
		e = (uint64_t *)(uintptr_t)*e;
	}
	return 1;
}

static void test_ck(void)
{
	static const uint64_t bytes[] = { 1024, 4096, 12288, 65536, 1048576 };
	uint8_t *mem = aligned_alloc(PAGE, 1048576);
	struct mp_rng g;

	mp_rng_seed(&g, 7);
	for (uint32_t i = 0; i < 5; i++) {
		void *start = mp_ref_ck(mem, bytes[i], PAGE, LINE, &g);

		CHECK_EQ_INT(cycle_length(start, 1 << 20), bytes[i] / LINE, "C(k) cycle length");
		CHECK(pages_whole(mem, start, bytes[i] / LINE, bytes[i]),
		      "C(%llu): whole pages, each once, inside the footprint",
		      (unsigned long long)bytes[i]);
	}
	CHECK_EQ_INT(cycle_length(mp_ref_ck(mem, 1048576, 1ull << 40, LINE, &g), 1 << 20),
		     1048576 / LINE, "C(k) as one shuffled set: cycle length");
	free(mem);
}

/* T(n, k): n distinct lines in every page, lines spread evenly over the column set. */
static void test_tnk(uint64_t n, uint64_t pages)
{
	struct mp_ref_pages s = {
		.page = PAGE, .line = LINE, .groups = pages, .group_stride = PAGE,
		.per_group = 1, .page_stride = PAGE, .per_page = n,
	};
	uint8_t *mem = aligned_alloc(PAGE, mp_ref_pages_span(&s));
	uint32_t per_page[512] = { 0 }, per_col[PAGE / LINE] = { 0 };
	uint32_t lo = UINT32_MAX, hi = 0;
	uint64_t uneven = 0;
	struct mp_rng g;
	uint64_t *e;

	mp_rng_seed(&g, n);
	e = mp_ref_pages(mem, &s, &g);
	CHECK_EQ_INT(cycle_length(e, 1 << 20), n * pages, "T(n,k) cycle length");
	for (uint64_t i = 0; i < n * pages; i++) {
		uint64_t off = (uint64_t)((uint8_t *)e - mem);

		per_page[off / PAGE]++;
		per_col[off % PAGE / LINE]++;
		e = (uint64_t *)(uintptr_t)*e;
	}
	for (uint64_t p = 0; p < pages; p++)
		uneven += per_page[p] != n;
	CHECK(uneven == 0, "T(%llu,k): %llu pages of %llu lack %llu elements",
	      (unsigned long long)n, (unsigned long long)uneven, (unsigned long long)pages,
	      (unsigned long long)n);
	for (unsigned c = 0; c < PAGE / LINE; c++) {
		lo = per_col[c] < lo ? per_col[c] : lo;
		hi = per_col[c] > hi ? per_col[c] : hi;
	}
	CHECK(hi - lo <= 1, "T(%llu,k): lines spread over the sets (%u..%u per column)",
	      (unsigned long long)n, lo, hi);
	free(mem);
}

/*
 * X-Ray's page test at half a page: 384 slices of 2K, one line each.  A
 * cache whose way spans several slices (an 8-way L1I of 32K: 64 sets, two
 * slices a way) sees each slice's line in a set chosen by the line's column
 * and the slice's place in the way; for every power-of-two number of sets
 * the lines must spread evenly (random turns put 10 lines in half the sets).
 */
static void test_small_slices(uint64_t seed)
{
	enum { N = 384, SLICE = 2048, MAX_SETS = 8192 };
	struct mp_ref_pages s = {
		.page = SLICE, .line = LINE, .groups = N, .group_stride = SLICE,
		.per_group = 1, .page_stride = SLICE, .per_page = 1,
	};
	uint8_t *mem = aligned_alloc(PAGE, mp_ref_pages_span(&s));
	static uint32_t load[MAX_SETS];
	uint64_t lines[N];
	struct mp_rng g;
	uint64_t *e;

	mp_rng_seed(&g, seed);
	e = mp_ref_pages(mem, &s, &g);
	for (int i = 0; i < N; i++) {
		lines[i] = (uint64_t)((uint8_t *)e - mem) / LINE;
		e = (uint64_t *)(uintptr_t)*e;
	}
	for (uint64_t sets = 2; sets <= MAX_SETS; sets *= 2) {
		uint64_t fair = (N + sets - 1) / sets, hi = 0;

		for (uint64_t k = 0; k < sets; k++)
			load[k] = 0;
		for (int i = 0; i < N; i++)
			load[lines[i] % sets]++;
		for (uint64_t k = 0; k < sets; k++)
			hi = load[k] > hi ? load[k] : hi;
		CHECK(hi <= fair + 1, "2K slices, seed %llu: at most %llu lines in one of %llu sets "
		      "(%llu)", (unsigned long long)seed, (unsigned long long)fair + 1,
		      (unsigned long long)sets, (unsigned long long)hi);
	}
	free(mem);
}

/* X-Ray's stride decomposition <S, n, S_old, r>: pages where they belong. */
static void test_decomposed(void)
{
	struct mp_ref_pages s = {
		.page = PAGE, .line = LINE, .groups = 6, .group_stride = 64 * PAGE,
		.per_group = 3, .page_stride = PAGE, .per_page = 1,
	};
	uint8_t *mem = aligned_alloc(PAGE, mp_ref_pages_span(&s));
	struct mp_rng g;
	uint64_t *e, bad = 0;

	mp_rng_seed(&g, 3);
	e = mp_ref_pages(mem, &s, &g);
	CHECK_EQ_INT(cycle_length(e, 1000), 18, "<S,n,S_old,r> cycle length");
	for (int i = 0; i < 18; i++) {
		uint64_t page = (uint64_t)((uint8_t *)e - mem) / PAGE;

		bad += page % 64 >= 3;
		e = (uint64_t *)(uintptr_t)*e;
	}
	CHECK_EQ_INT(bad, 0, "pages at group * S + m * S_old");
	free(mem);
}

/*
 * Groups at random places: 40 groups of 2 pages among 400 places 4 pages
 * apart, each group whole at its own place, and the places not the first
 * 40 in order (a hashed index must see them scattered).
 */
static void test_random_places(void)
{
	struct mp_ref_pages s = {
		.page = PAGE, .line = LINE, .groups = 40, .group_stride = 4 * PAGE,
		.per_group = 2, .page_stride = PAGE, .per_page = 1, .slots = 400,
	};
	uint8_t *mem = aligned_alloc(PAGE, mp_ref_pages_span(&s));
	uint8_t seen[400][2] = { { 0 } };
	uint64_t *e, bad = 0, beyond = 0, whole = 0;
	struct mp_rng g;

	CHECK_EQ_INT(mp_ref_pages_span(&s), 399 * 4 * PAGE + 2 * PAGE, "random places: span");
	mp_rng_seed(&g, 5);
	e = mp_ref_pages(mem, &s, &g);
	CHECK_EQ_INT(cycle_length(e, 1000), 80, "random places: cycle length");
	for (int i = 0; i < 80; i++) {
		uint64_t page = (uint64_t)((uint8_t *)e - mem) / PAGE;

		bad += page % 4 >= 2;
		seen[page / 4][page % 4 & 1]++;
		e = (uint64_t *)(uintptr_t)*e;
	}
	for (int p = 0; p < 400; p++) {
		whole += seen[p][0] == 1 && seen[p][1] == 1;
		beyond += p >= 40 && seen[p][0];
	}
	CHECK_EQ_INT(bad, 0, "random places: pages at place * S + m * S_old");
	CHECK_EQ_INT(whole, 40, "random places: 40 places, each with its group whole");
	CHECK(beyond >= 30, "random places: %llu of 40 groups beyond the first 40 places",
	      (unsigned long long)beyond);
	free(mem);
}

int main(void)
{
	test_ck();
	test_tnk(1, 300);
	test_tnk(3, 100);
	test_tnk(4, 16);
	for (uint64_t seed = 1; seed <= 8; seed++)
		test_small_slices(seed);
	test_decomposed();
	test_random_places();
	return check_done();
}
