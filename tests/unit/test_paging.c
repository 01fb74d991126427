/* SPDX-License-Identifier: MIT */
/*
 * The identity-map builder, checked through the walker: every mapped page
 * translates to itself with the right size and flags, the addresses around
 * each range are unmapped, errors are reported, and IA32_PAT values decode.
 * The tables live in this process's memory; their addresses stand in for
 * physical ones, as they would under UEFI's identity map.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "arch/x86_64/paging.h"
#include "tests/check.h"

#define K4 MP_PAGE_BYTES_4K
#define M2 MP_PAGE_BYTES_2M
#define G1 MP_PAGE_BYTES_1G

struct pool {
	uint8_t *mem;
	unsigned used, cap;
};

static uint64_t *pool_alloc(void *arg)
{
	struct pool *p = arg;

	if (p->used == p->cap)
		return NULL;
	return (uint64_t *)(p->mem + 4096ull * p->used++);
}

static void pool_init(struct pool *p, unsigned pages)
{
	p->mem = aligned_alloc(4096, 4096ull * pages);
	p->used = 0;
	p->cap = pages;
}

struct range {
	uint64_t base, bytes, page;
};

/*
 * Ranges and the tables they need: a PML4 (1); 4K pages at 0x1000 in the
 * first 2 MB (PDPT, PD, PT: 3); 4K pages across the 2 MB boundaries at
 * 4 MB (two more PTs: 2); 2M pages from 0x40600000 (PDPT index 1: a PD, 1);
 * two 1G pages at 4 GB (leaves in the first PDPT: 0); one 1G page at the
 * top of the lower half (PML4 index 255: a PDPT, 1).  8 tables.
 */
static const struct range ranges[] = {
	{ 0x1000, 64 * K4, K4 },
	{ 0x3ff000, 3 * K4, K4 },
	{ 0x40600000, 5 * M2, M2 },
	{ 4 * G1, 2 * G1, G1 },
	{ MP_PT_IDENTITY_LIMIT - G1, G1, G1 },
};
#define RANGES (sizeof(ranges) / sizeof(ranges[0]))
#define TABLES 8

static bool mapped(uint64_t va)
{
	for (unsigned i = 0; i < RANGES; i++)
		if (va >= ranges[i].base && va - ranges[i].base < ranges[i].bytes)
			return true;
	return false;
}

/* One page: its first, middle and last byte translate to themselves with the leaf's flags. */
static bool page_ok(const uint64_t *root, uint64_t va, uint64_t page)
{
	const uint64_t must = MP_PTE_P | MP_PTE_RW | MP_PTE_A | MP_PTE_D;
	const uint64_t never = MP_PTE_US | MP_PTE_G | MP_PTE_XD | MP_PTE_PWT | MP_PTE_PCD;
	const uint64_t offsets[] = { 0, page / 2 + 8, page - 1 };
	struct mp_pt_walk w;

	for (unsigned i = 0; i < 3; i++) {
		uint64_t a = va + offsets[i];

		if (!mp_pt_walk(root, a, &w) || w.phys != a || w.page_bytes != page)
			return false;
		if ((w.entry & must) != must || (w.entry & never) != 0)
			return false;
		if (((w.entry & MP_PTE_PS) != 0) != (page != K4))
			return false;
		if (mp_pt_pat_index(w.entry, page) != 0)
			return false;
	}
	return true;
}

static void test_walk_all(const struct mp_pt *pt)
{
	for (unsigned i = 0; i < RANGES; i++) {
		const struct range *r = &ranges[i];
		uint64_t bad = 0, pages = 0;

		for (uint64_t va = r->base; va < r->base + r->bytes; va += r->page, pages++)
			if (!page_ok(pt->root, va, r->page))
				bad++;
		CHECK(bad == 0, "range %u (%llu pages of %llu B at 0x%llx): %llu pages wrong", i,
		      (unsigned long long)pages, (unsigned long long)r->page,
		      (unsigned long long)r->base, (unsigned long long)bad);
	}
}

static void test_unmapped(const struct mp_pt *pt)
{
	struct mp_pt_walk w;
	uint64_t probes[2 * RANGES + 5];
	unsigned n = 0;

	for (unsigned i = 0; i < RANGES; i++) {
		probes[n++] = ranges[i].base - 1;
		probes[n++] = ranges[i].base + ranges[i].bytes;
	}
	probes[n++] = 0;                         /* page 0 */
	probes[n++] = 2 * G1;                    /* a PDPT entry never used */
	probes[n++] = 0xffff800000000000ull;     /* canonical, upper half */
	probes[n++] = 0x0000800000000000ull;     /* not canonical */
	probes[n++] = 0x0001000000001000ull;     /* not canonical; bits 47:0 are mapped 0x1000 */
	for (unsigned i = 0; i < n; i++) {
		if (mapped(probes[i]))
			continue; /* the end of one range is the start of none here, but be sure */
		CHECK(!mp_pt_walk(pt->root, probes[i], &w), "0x%llx is unmapped",
		      (unsigned long long)probes[i]);
	}
}

static void test_errors(struct mp_pt *pt)
{
	struct pool small;
	struct mp_pt tiny;

	CHECK_EQ_INT(mp_pt_map(pt, 0x40600000, 5 * M2, M2), MP_OK,
		     "mapping a range again the same way");
	CHECK_EQ_INT(mp_pt_map(pt, 0x1000, 8 * K4, 8 * K4), MP_UNSUPPORTED, "8 KB pages");
	CHECK_EQ_INT(mp_pt_map(pt, 0x100000, M2, M2), MP_EIO, "2M page at a 1 MB address");
	CHECK_EQ_INT(mp_pt_map(pt, 0x200000, M2 / 2, M2), MP_EIO, "1 MB of 2M pages");
	CHECK_EQ_INT(mp_pt_map(pt, 0, M2, M2), MP_EIO, "2M page over a 4K page table");
	CHECK_EQ_INT(mp_pt_map(pt, 4 * G1 + K4, K4, K4), MP_EIO, "4K page inside a 1G page");
	CHECK_EQ_INT(mp_pt_map(pt, 0x40600000, K4, K4), MP_EIO, "4K page inside a 2M page");
	CHECK_EQ_INT(mp_pt_map(pt, MP_PT_IDENTITY_LIMIT, G1, G1), MP_EIO, "beyond the lower half");
	CHECK_EQ_INT(mp_pt_map(pt, MP_PT_IDENTITY_LIMIT - G1, 2 * G1, G1), MP_EIO,
		     "range running past the lower half");
	CHECK_EQ_INT(pt->tables, TABLES, "failed calls took no tables");

	pool_init(&small, 3);
	CHECK_EQ_INT(mp_pt_init(&tiny, pool_alloc, &small), MP_OK, "3-page pool: root");
	CHECK_EQ_INT(mp_pt_map(&tiny, 0, K4, K4), MP_ENOMEM,
		     "3-page pool: a 4K page needs 4 tables");
	free(small.mem);
}

/*
 * A 2M leaf written by hand with PAT (bit 12) and PWT set, PAT index 5:
 * bit 12 is not part of a large page's frame address.
 */
static void test_walk_large_pat(void)
{
	static uint64_t pml4[512] __attribute__((aligned(4096)));
	static uint64_t pdpt[512] __attribute__((aligned(4096)));
	static uint64_t pd[512] __attribute__((aligned(4096)));
	struct mp_pt_walk w;

	pml4[0] = (uint64_t)(uintptr_t)pdpt | MP_PTE_P | MP_PTE_RW;
	pdpt[0] = (uint64_t)(uintptr_t)pd | MP_PTE_P | MP_PTE_RW;
	pd[3] = 3 * M2 | MP_PTE_P | MP_PTE_RW | MP_PTE_PS | MP_PTE_PAT_BIG | MP_PTE_PWT;
	CHECK(mp_pt_walk(pml4, 3 * M2 + 0x234, &w) && w.phys == 3 * M2 + 0x234 &&
	      w.page_bytes == M2 && mp_pt_pat_index(w.entry, w.page_bytes) == 5,
	      "2M leaf with PAT bit 12: phys 0x%llx want 0x%llx, PAT index %u want 5",
	      (unsigned long long)w.phys, (unsigned long long)(3 * M2 + 0x234),
	      mp_pt_pat_index(w.entry, w.page_bytes));
}

/* PAT index bits: PWT, PCD, and PAT at bit 7 of a PTE or bit 12 of a large leaf. */
static void test_pat_index(void)
{
	CHECK_EQ_INT(mp_pt_pat_index(MP_PTE_PWT, K4), 1, "PAT index: PWT");
	CHECK_EQ_INT(mp_pt_pat_index(MP_PTE_PCD, K4), 2, "PAT index: PCD");
	CHECK_EQ_INT(mp_pt_pat_index(MP_PTE_PAT_4K, K4), 4, "PAT index: bit 7 of a PTE");
	CHECK_EQ_INT(mp_pt_pat_index(MP_PTE_PS, M2), 0, "PAT index: PS of a 2M leaf is not PAT");
	CHECK_EQ_INT(mp_pt_pat_index(MP_PTE_PS | MP_PTE_PAT_BIG | MP_PTE_PWT, G1), 5,
		     "PAT index: bit 12 and PWT of a 1G leaf");
}

/*
 * IA32_PAT values: the power-on default (WB WT UC- UC WB WT UC- UC), the
 * value Linux programs (WB WC UC- UC WB WP UC- WT), and invalid entries.
 */
static void test_pat(void)
{
	static const enum mp_memtype power_on[8] = {
		MP_MT_WB, MP_MT_WT, MP_MT_UC_MINUS, MP_MT_UC,
		MP_MT_WB, MP_MT_WT, MP_MT_UC_MINUS, MP_MT_UC,
	};
	static const enum mp_memtype linux_pat[8] = {
		MP_MT_WB, MP_MT_WC, MP_MT_UC_MINUS, MP_MT_UC,
		MP_MT_WB, MP_MT_WP, MP_MT_UC_MINUS, MP_MT_WT,
	};
	char n[64];

	for (unsigned i = 0; i < 8; i++) {
		snprintf(n, sizeof(n), "power-on PAT entry %u", i);
		CHECK_EQ_INT(mp_pat_entry(MP_PAT_POWER_ON, i), power_on[i], n);
		snprintf(n, sizeof(n), "Linux PAT entry %u", i);
		CHECK_EQ_INT(mp_pat_entry(0x0407050600070106ull, i), linux_pat[i], n);
	}
	CHECK(mp_pat_index0_is_wb(MP_PAT_POWER_ON), "power-on PAT: entry 0 is WB");
	CHECK(!mp_pat_index0_is_wb(0x0007040600070400ull), "PAT with entry 0 UC: not WB");
	CHECK(!mp_pat_index0_is_wb(0x0007040600070401ull), "PAT with entry 0 WC: not WB");
	CHECK_EQ_INT(mp_pat_entry(0x02, 0), MP_MT_INVALID, "PAT type 2 is reserved");
	CHECK_EQ_INT(mp_pat_entry(0x0e, 0), MP_MT_INVALID, "PAT entry with reserved bit 3");
	CHECK_EQ_INT(mp_pat_entry(MP_PAT_POWER_ON, 8), MP_MT_INVALID, "PAT has 8 entries");
	CHECK_EQ_STR(mp_memtype_name(MP_MT_UC_MINUS), "UC-", "memory type name");
	CHECK_EQ_STR(mp_memtype_name(MP_MT_WB), "WB", "memory type name");
}

int main(void)
{
	struct pool pool;
	struct mp_pt pt;
	enum mp_status st = MP_OK;

	pool_init(&pool, 64);
	CHECK_EQ_INT(mp_pt_init(&pt, pool_alloc, &pool), MP_OK, "empty map");
	for (unsigned i = 0; i < RANGES && st == MP_OK; i++)
		st = mp_pt_map(&pt, ranges[i].base, ranges[i].bytes, ranges[i].page);
	CHECK_EQ_INT(st, MP_OK, "mapping every range");
	CHECK_EQ_INT(pt.tables, TABLES, "tables used");
	CHECK((uintptr_t)pt.root % 4096 == 0, "root is page aligned");
	test_walk_all(&pt);
	test_unmapped(&pt);
	test_errors(&pt);
	test_walk_large_pat();
	test_pat_index();
	test_pat();
	free(pool.mem);
	return check_done();
}
