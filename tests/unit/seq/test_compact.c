/* SPDX-License-Identifier: MIT */
/* The compact-set reference strings (core/seq/compact.c). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/seq/refstring.h"
#include "tests/check.h"

#define MEM_BYTES (1u << 22)

static uint8_t *mem;
static uint64_t offs[4096];

/* Offsets in chain order, read back by walking the cycle from start. */
static uint64_t walk(void *start, uint64_t max, uint64_t *out)
{
	uint64_t *e = start, n = 0;

	do {
		out[n++] = (uint64_t)((uint8_t *)e - mem);
		e = (uint64_t *)(uintptr_t)*e;
	} while (e != start && n < max);
	return e == start ? n : 0;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Is the set of offsets exactly the expected one? */
static int same_set(uint64_t *got, const uint64_t *want, uint64_t n)
{
	qsort(got, n, sizeof(*got), cmp);
	for (uint64_t i = 0; i < n; i++)
		if (got[i] != want[i])
			return 0;
	return 1;
}

static void test_gap(void)
{
	struct mp_ref_stride g = mp_ref_gap(5, 4096, 64);
	uint64_t want[] = { 0, 4096, 8192, 12288, 16448 }, got[8];
	struct mp_rng r;

	mp_rng_seed(&r, 3);
	CHECK_EQ_INT(mp_ref_stride_count(&g), 5, "G(5,4K,64) elements");
	CHECK_EQ_INT(mp_ref_stride_span(&g), 16456, "G(5,4K,64) span");
	CHECK_EQ_INT(walk(mp_ref_stride_chain(mem, &g, offs, &r), 8, got), 5, "G cycle length");
	CHECK(same_set(got, want, 5), "G(5,4K,64): 0, k, 2k, 3k and the last moved by o");
}

static void test_block(void)
{
	struct mp_ref_stride b = mp_ref_xray_block(4096, 4, 64);
	uint64_t want[] = { 0, 4096, 8192, 12288, 16448, 20544, 24640, 28736 }, got[16];
	struct mp_rng r;

	mp_rng_seed(&r, 4);
	CHECK_EQ_INT(walk(mp_ref_stride_chain(mem, &b, offs, &r), 16, got), 8, "<C/A,2A,b> length");
	CHECK(same_set(got, want, 8), "<4K,8,64>: the second half moved by b");
}

/* Groups are visited whole, each group's elements together. */
static void test_groups(void)
{
	struct mp_ref_stride x = { 65536, 6, 6, 0, 4, 4096, 0 };
	uint64_t got[32], n;
	int whole = 1;
	struct mp_rng r;

	mp_rng_seed(&r, 5);
	n = walk(mp_ref_stride_chain(mem, &x, offs, &r), 32, got);
	CHECK_EQ_INT(n, 24, "<64K,6,4K,4> has 24 elements");
	for (uint64_t i = 0; i < n; i++)
		whole &= got[i] % 65536 / 4096 == got[i / 6 * 6] % 65536 / 4096;
	CHECK(whole, "every group of <S,n,S_old,r> is visited in one run");
	for (uint64_t i = 0; i < n; i++)
		whole &= got[i] % 4096 == 0 && got[i] / 65536 < 6 && got[i] % 65536 < 4 * 4096;
	CHECK(whole, "elements at g * S_old + e * S");
}

/*
 * Chunks of 2: the groups take turns in one order, two elements each, so
 * that every group's next chunk comes after the other three groups' chunks.
 */
static void test_chunks(void)
{
	struct mp_ref_stride x = { 65536, 7, 7, 0, 4, 4096, 2 };
	uint64_t got[32], n, seen[4] = { 0 };
	int turns = 1, all = 1;
	struct mp_rng r;

	mp_rng_seed(&r, 6);
	n = walk(mp_ref_stride_chain(mem, &x, offs, &r), 32, got);
	CHECK_EQ_INT(n, 28, "<64K,7,4K,4> in chunks of 2 has 28 elements");
	for (uint64_t i = 0; i < n; i++) {
		uint64_t round = i < 24 ? i / 8 : 3, at = i < 24 ? i % 8 / 2 : i - 24;
		uint64_t first = round < 3 ? round * 8 + at * 2 : 24 + at;

		turns &= got[i] % 65536 / 4096 == got[first] % 65536 / 4096;
		turns &= got[i] % 65536 / 4096 == got[at * 2] % 65536 / 4096;
		seen[got[i] % 65536 / 4096] |= 1ull << (got[i] / 65536);
	}
	CHECK(turns, "groups take turns in one order, a chunk of 2 each (the last round 1)");
	for (int g = 0; g < 4; g++)
		all &= seen[g] == 0x7f;
	CHECK(all, "every group's 7 elements visited once");
}

static void test_evict(void)
{
	uint64_t n = mp_ref_evict_order(4096, 2, 8, 9, 131072, 0, offs, &(struct mp_rng){ 9 });
	uint64_t x = 0, y = 0, gap = 0, worst = 0;

	CHECK_EQ_INT(n, 25, "eviction string: 2 lines x 8 words + 9 lines");
	for (uint64_t i = 0; i < n; i++) {
		bool is_x = offs[i] % 131072 >= 4096 && offs[i] % 131072 < 4096 + 64;

		x += is_x;
		y += !is_x && offs[i] % 131072 == 0 && offs[i] / 131072 >= 2;
		gap = is_x ? 0 : gap + 1;
		worst = gap > worst ? gap : worst;
	}
	CHECK(x == 16 && y == 9, "16 x words (moved by xoff) and 9 lines from 2 * stride on");
	CHECK(worst <= 1, "x words spread evenly: at most one line between them (got %llu)",
	      (unsigned long long)worst);
	n = mp_ref_evict_order(0, 0, 8, 9, 131072, 64, offs, &(struct mp_rng){ 9 });
	y = 0;
	for (uint64_t i = 0; i < n; i++)
		y += offs[i] % 131072 == 64;
	CHECK(n == 9 && y == 9, "no x lines: the 9 y lines alone, moved by yoff");
}

static void test_twin(void)
{
	uint64_t in[300], out[300], lines = 0, pages = 1;
	int ok = 1;

	for (uint64_t i = 0; i < 300; i++)
		in[i] = (i * 7919 % 300) * 8192 + 512;
	mp_ref_twin(in, 300, 4096, 64, 8, out);
	for (uint64_t i = 0; i < 300; i++) {
		ok &= out[i] / 4096 == in[i] / 4096;
		lines += out[i] % 4096 / 64 == i % 64;
		pages += i && out[i] / 4096 != out[i - 1] / 4096;
	}
	CHECK(ok, "the twin visits the same pages in the same order");
	CHECK_EQ_INT(lines, 300, "element i of the twin sits on line i mod (page / line)");
	CHECK_EQ_INT(pages, 300, "every element on its own page here");
}

/* Code blocks of 32 bytes: a twin of 200 on one page puts 64 lines x 2 slots, none overlapping. */
static void test_twin_blocks(void)
{
	uint64_t in[128], out[128];
	int apart = 1;

	for (uint64_t i = 0; i < 128; i++)
		in[i] = 4096 * 3 + i * 32;
	mp_ref_twin(in, 128, 4096, 64, 32, out);
	for (uint64_t i = 0; i < 128; i++)
		for (uint64_t j = 0; j < i; j++)
			apart &= out[i] - out[j] >= 32 && out[j] - out[i] >= 32;
	CHECK(apart, "twin slots of 32-byte blocks never overlap");
	CHECK(out[64] == 4096 * 3 + 32 && out[1] == 4096 * 3 + 64,
	      "element 64 takes the second slot of line 0");
}

int main(void)
{
	mem = aligned_alloc(4096, MEM_BYTES);
	test_gap();
	test_block();
	test_groups();
	test_chunks();
	test_evict();
	test_twin();
	test_twin_blocks();
	free(mem);
	return check_done();
}
