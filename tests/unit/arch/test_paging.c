/* SPDX-License-Identifier: MIT */
/*
 * The identity-map builder, checked through the walker: every mapped page
 * translates to itself with the right size and flags, the addresses around
 * each range are unmapped, errors are reported, a range mapped again with
 * another page size replaces what was there and leaves its neighbours as
 * they were, a map copied from another (the firmware's) changes none of
 * that map's tables, and IA32_PAT and MTRR values decode.  The tables live
 * in this process's memory; their addresses stand in for physical ones, as
 * they would under UEFI's identity map.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86_64/mtrr.h"
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
	const uint64_t must = MP_PTE_P | MP_PTE_RW | MP_PTE_A | MP_PTE_D | MP_PTE_OURS;
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
	CHECK_EQ_INT(mp_pt_map(pt, MP_PT_IDENTITY_LIMIT, G1, G1), MP_EIO, "beyond the lower half");
	CHECK_EQ_INT(mp_pt_map(pt, MP_PT_IDENTITY_LIMIT - G1, 2 * G1, G1), MP_EIO,
		     "range running past the lower half");
	CHECK_EQ_INT(pt->tables, TABLES, "failed calls and a repeated mapping took no tables");

	pool_init(&small, 3);
	CHECK_EQ_INT(mp_pt_init(&tiny, pool_alloc, &small), MP_OK, "3-page pool: root");
	CHECK_EQ_INT(mp_pt_map(&tiny, 0, K4, K4), MP_ENOMEM,
		     "3-page pool: a 4K page needs 4 tables");
	free(small.mem);
}

/* The page size va translates to itself with, 0 when it does not. */
static uint64_t page_at(const uint64_t *root, uint64_t va)
{
	struct mp_pt_walk w;

	return mp_pt_walk(root, va, &w) && w.phys == va ? w.page_bytes : 0;
}

static unsigned spare_tables(const struct mp_pt *pt)
{
	unsigned n = 0;

	for (const uint64_t *t = pt->spare; t; t = (const uint64_t *)(uintptr_t)t[0])
		n++;
	return n;
}

/* Every page of [base, base + bytes) is ours with pages of `page`. */
static bool range_ok(const uint64_t *root, uint64_t base, uint64_t bytes, uint64_t page)
{
	for (uint64_t va = base; va < base + bytes; va += page)
		if (!page_ok(root, va, page))
			return false;
	return true;
}

/*
 * Mapping over our own pages with another size: a large page cut by a
 * range becomes a table of smaller pages, a table under a new large page
 * is kept and used again by the next call that needs one.
 */
static void test_replace(void)
{
	struct pool pool;
	struct mp_pt pt;

	pool_init(&pool, 16);
	mp_pt_init(&pt, pool_alloc, &pool);
	mp_pt_map(&pt, 0, 2 * M2, M2);
	CHECK_EQ_INT(mp_pt_map(&pt, M2 + 2 * K4, 3 * K4, K4), MP_OK,
		     "replace: 4K pages in a 2M page");
	CHECK(range_ok(pt.root, M2, M2, K4) && range_ok(pt.root, 0, M2, M2),
	      "replace: the cut 2M page is 512 4K pages, the one before is untouched");
	CHECK_EQ_INT(pt.tables, 4, "replace: one page table for the split");
	CHECK_EQ_INT(mp_pt_map(&pt, M2, M2, M2), MP_OK, "replace: a 2M page over a page table");
	CHECK(range_ok(pt.root, 0, 2 * M2, M2) && spare_tables(&pt) == 1,
	      "replace: 2M pages again, the page table kept");
	CHECK_EQ_INT(mp_pt_map(&pt, 4 * M2, K4, K4), MP_OK, "replace: a 4K page elsewhere");
	CHECK(pt.tables == 4 && spare_tables(&pt) == 0, "replace: it took the kept table");
	CHECK_EQ_INT(mp_pt_map(&pt, 0, G1, G1), MP_OK, "replace: a 1G page over all of them");
	CHECK(range_ok(pt.root, 0, G1, G1) && spare_tables(&pt) == 2,
	      "replace: one 1G page; its page directory and page table kept");
	CHECK_EQ_INT(mp_pt_map(&pt, 3 * M2, 2 * K4, K4), MP_OK, "replace: 4K pages in the 1G page");
	CHECK(page_at(pt.root, 0) == M2 && range_ok(pt.root, 3 * M2, M2, K4) &&
	      page_at(pt.root, 4 * M2) == M2 && page_at(pt.root, G1 - 1) == M2,
	      "replace: the 1G page split into 2M pages, one of them into 4K pages");
	CHECK(pt.tables == 4 && spare_tables(&pt) == 0, "replace: no table taken from the pool");
	free(pool.mem);
}

/* Leaf attributes that must survive a copy or a split: flags and PAT index. */
#define ATTRS (MP_PTE_P | MP_PTE_RW | MP_PTE_US | MP_PTE_PWT | MP_PTE_PCD | MP_PTE_A | \
	       MP_PTE_D | MP_PTE_G | MP_PTE_XD)

static bool same_translation(const uint64_t *a, const uint64_t *b, uint64_t va)
{
	struct mp_pt_walk x, y;
	bool in_a = mp_pt_walk(a, va, &x), in_b = mp_pt_walk(b, va, &y);

	if (!in_a || !in_b)
		return in_a == in_b;
	return x.phys == y.phys && (x.entry & ATTRS) == (y.entry & ATTRS) &&
	       mp_pt_pat_index(x.entry, x.page_bytes) == mp_pt_pat_index(y.entry, y.page_bytes);
}

/* A firmware-like map: 1G, 2M and 4K pages with flags of all kinds, a hole, a second PML4 slot. */
static uint64_t fw_pml4[512] __attribute__((aligned(4096)));
static uint64_t fw_pdpt[512] __attribute__((aligned(4096)));
static uint64_t fw_pdpt_hi[512] __attribute__((aligned(4096)));
static uint64_t fw_pd[512] __attribute__((aligned(4096)));
static uint64_t fw_pt[512] __attribute__((aligned(4096)));

static void build_firmware_map(void)
{
	const uint64_t rw = MP_PTE_P | MP_PTE_RW;

	fw_pml4[0] = (uintptr_t)fw_pdpt | rw | MP_PTE_A;
	fw_pml4[1] = (uintptr_t)fw_pdpt_hi | rw;
	fw_pdpt_hi[0] = (1ull << 39) | rw | MP_PTE_PS;
	fw_pdpt[0] = rw | MP_PTE_PS | MP_PTE_G | MP_PTE_A | MP_PTE_D | MP_PTE_PAT_BIG | MP_PTE_PWT;
	fw_pdpt[1] = (uintptr_t)fw_pd | rw | MP_PTE_A;
	fw_pdpt[3] = 3 * G1 | rw | MP_PTE_PS | MP_PTE_PCD | MP_PTE_PWT | MP_PTE_PAT_BIG;
	for (unsigned i = 0; i < 512; i++)
		fw_pd[i] = (G1 + i * M2) | rw | MP_PTE_PS | MP_PTE_XD | MP_PTE_A | MP_PTE_D;
	fw_pd[5] = (uintptr_t)fw_pt | rw | MP_PTE_A;
	for (unsigned i = 0; i < 512; i++)
		fw_pt[i] = (G1 + 5 * M2 + i * K4) | rw | MP_PTE_XD | MP_PTE_PAT_4K;
	fw_pt[7] = 0;
}

/* Ours: 4K pages inside the firmware's 1G page, 2M pages over its 2M ones, 4K in its PT. */
static const struct range over_fw[] = {
	{ 256 << 20, 16 * K4, K4 },
	{ G1 + 8 * M2, 8 * M2, M2 },
	{ G1 + 5 * M2 + 16 * K4, 3 * K4, K4 },
};
#define OVER_FW (sizeof(over_fw) / sizeof(over_fw[0]))

static bool in_over_fw(uint64_t va)
{
	for (unsigned i = 0; i < OVER_FW; i++)
		if (va >= over_fw[i].base && va - over_fw[i].base < over_fw[i].bytes)
			return true;
	return false;
}

/* Every 2 MB of the first 4 GB, every 4 KB of the split regions: unchanged unless ours. */
static unsigned differences(const uint64_t *root)
{
	static const uint64_t fine[] = { 256 << 20, G1 + 5 * M2 };
	unsigned bad = 0;

	for (uint64_t va = 0; va < 4 * G1; va += M2 / 2)
		bad += !in_over_fw(va) && !same_translation(root, fw_pml4, va);
	for (unsigned i = 0; i < 2; i++)
		for (uint64_t va = fine[i]; va < fine[i] + M2; va += K4)
			bad += !in_over_fw(va) && !same_translation(root, fw_pml4, va);
	bad += !same_translation(root, fw_pml4, (1ull << 39) + 12345);
	return bad;
}

static void test_copy(void)
{
	static uint64_t before[5][512];
	uint64_t *fw[5] = { fw_pml4, fw_pdpt, fw_pdpt_hi, fw_pd, fw_pt };
	struct pool pool;
	struct mp_pt pt;
	enum mp_status st = MP_OK;
	unsigned changed = 0;

	build_firmware_map();
	for (unsigned i = 0; i < 5; i++)
		memcpy(before[i], fw[i], sizeof(before[i]));
	pool_init(&pool, 16);
	CHECK_EQ_INT(mp_pt_init_copy(&pt, pool_alloc, &pool, fw_pml4), MP_OK, "copy: the root");
	CHECK_EQ_INT(differences(pt.root), 0, "copy: translates as the firmware's map");
	for (unsigned i = 0; i < OVER_FW && st == MP_OK; i++)
		st = mp_pt_map(&pt, over_fw[i].base, over_fw[i].bytes, over_fw[i].page);
	CHECK_EQ_INT(st, MP_OK, "copy: our ranges mapped");
	for (unsigned i = 0; i < OVER_FW; i++)
		CHECK(range_ok(pt.root, over_fw[i].base, over_fw[i].bytes, over_fw[i].page),
		      "copy: range %u ours", i);
	CHECK_EQ_INT(differences(pt.root), 0, "copy: everything else translates as before");
	for (unsigned i = 0; i < 5; i++)
		changed += memcmp(before[i], fw[i], sizeof(before[i])) != 0;
	CHECK_EQ_INT(changed, 0, "copy: no table of the firmware's written");
	/* root, PDPT copy, PD split from 1G, PT split from 2M, PD copy, PT copy */
	CHECK_EQ_INT(pt.tables, 6, "copy: tables");
	free(pool.mem);
}

/* MSRs of a fake CPU for mp_mtrr_read. */
struct mtrr_msrs {
	uint32_t msr[32];
	uint64_t val[32];
	unsigned n, reads;
	uint32_t faulty;
};

static bool mtrr_read(void *arg, uint32_t msr, uint64_t *v)
{
	struct mtrr_msrs *m = arg;

	m->reads++;
	for (unsigned i = 0; i < m->n; i++)
		if (m->msr[i] == msr && msr != m->faulty) {
			*v = m->val[i];
			return true;
		}
	return false;
}

#define FIX_WB 0x0606060606060606ull
#define PHYS36 ((1ull << 36) - 1)
#define VALID (1ull << 11)

/*
 * A PC's layout: default UC; [0, 4G) WB with [3G, 4G) UC on top (the PCI
 * hole); [4G, 8G) WB; fixed ranges WB below A0000H, UC for VGA, WP for
 * the ROMs from C0000H.
 */
static void mtrr_pc(struct mtrr_msrs *m)
{
	static const uint32_t msr[] = { 0xfe, 0x2ff, 0x200, 0x201, 0x202, 0x203, 0x204, 0x205,
					0x250, 0x258, 0x259, 0x268, 0x269, 0x26a, 0x26b, 0x26c,
					0x26d, 0x26e, 0x26f };
	const uint64_t val[] = { 0x503, 0xc00, 0x6, (PHYS36 & ~(4 * G1 - 1)) | VALID,
				 3 * G1, (PHYS36 & ~(G1 - 1)) | VALID, 4 * G1 | 6,
				 (PHYS36 & ~(4 * G1 - 1)) | VALID, FIX_WB, FIX_WB, 0,
				 0x0505050505050505ull, 0x0505050505050505ull,
				 0x0505050505050505ull, 0x0505050505050505ull,
				 0x0505050505050505ull, 0x0505050505050505ull,
				 0x0505050505050505ull, 0x0505050505050505ull };

	memset(m, 0, sizeof(*m));
	m->n = sizeof(msr) / sizeof(msr[0]);
	memcpy(m->msr, msr, sizeof(msr));
	memcpy(m->val, val, sizeof(val));
}

static void test_mtrr(void)
{
	struct mtrr_msrs f;
	struct mp_msr_io io = { mtrr_read, NULL, &f };
	struct mp_mtrr m;

	mtrr_pc(&f);
	CHECK(mp_mtrr_read(&m, &io, 36) && m.nvar == 3 && f.reads == 2 + 6 + 11,
	      "mtrr: CAP, DEF_TYPE, 3 variable pairs, 11 fixed registers read (%u)", f.reads);
	CHECK_EQ_INT(mp_mtrr_type(&m, 0x1000), MP_MT_WB, "mtrr: 4K is WB (64K fixed range)");
	CHECK_EQ_INT(mp_mtrr_type(&m, 0xa8000), MP_MT_UC, "mtrr: A8000H is UC (16K fixed range)");
	CHECK_EQ_INT(mp_mtrr_type(&m, 0xf9000), MP_MT_WP, "mtrr: F9000H is WP (4K fixed range)");
	CHECK_EQ_INT(mp_mtrr_type(&m, 0x100000), MP_MT_WB, "mtrr: 1M is WB (variable)");
	CHECK_EQ_INT(mp_mtrr_type(&m, 3 * G1 + K4), MP_MT_UC, "mtrr: WB and UC overlap: UC");
	CHECK_EQ_INT(mp_mtrr_type(&m, 5 * G1), MP_MT_WB, "mtrr: 5G is WB");
	CHECK_EQ_INT(mp_mtrr_type(&m, 9 * G1), MP_MT_UC, "mtrr: 9G: no range, the default UC");
	CHECK_EQ_INT(mp_mtrr_type(&m, (1ull << 36) + 0x1000), MP_MT_WB,
		     "mtrr: bits above MAXPHYADDR are not compared");
	CHECK_EQ_INT(mp_mtrr_range_type(&m, 256 << 20, 256 << 20), MP_MT_WB,
		     "mtrr: 256M at 256M is WB throughout");
	CHECK_EQ_INT(mp_mtrr_range_type(&m, 3 * G1 - 2 * K4, 4 * K4), MP_MT_INVALID,
		     "mtrr: a range across the PCI hole is mixed");
	m.base[1] = 3 * G1 | 4;
	CHECK_EQ_INT(mp_mtrr_type(&m, 3 * G1), MP_MT_WT, "mtrr: WB and WT overlap: WT");
	m.base[1] = 3 * G1 | 1;
	CHECK_EQ_INT(mp_mtrr_type(&m, 3 * G1), MP_MT_INVALID, "mtrr: WB and WC overlap: undefined");
	m.def_type = 0x800;
	CHECK_EQ_INT(mp_mtrr_type(&m, 0xa8000), MP_MT_WB, "mtrr: fixed ranges off: variable WB");
	m.def_type = 0x406;
	CHECK_EQ_INT(mp_mtrr_type(&m, 5 * G1), MP_MT_UC, "mtrr: MTRRs off (E clear): UC");
	f.faulty = 0x203;
	CHECK(!mp_mtrr_read(&m, &io, 36), "mtrr: a faulting MTRR fails the read");
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
	test_replace();
	test_copy();
	test_mtrr();
	test_walk_large_pat();
	test_pat_index();
	test_pat();
	free(pool.mem);
	return check_done();
}
