/* SPDX-License-Identifier: MIT */
/*
 * AMD's cache and TLB leaves (AMD APM Vol. 3, Appendix E, "Obtaining
 * Processor Information Via the CPUID Instruction"; the family 17h/19h PPRs
 * give the same fields):
 *   Fn8000_0005 L1 caches and L1 TLBs, Fn8000_0006 L2/L3 caches and L2
 *   TLBs, Fn8000_0019 1 GB page TLBs.
 * 2M/4M TLB fields count 2M entries (a 4M page takes two): reported as 2M.
 */
#include "arch/x86_64/cpuid_int.h"
#include "core/lib/bits.h"


#define FULL (-2)
#define FROM_1D (-3)

/*
 * 4-bit associativity of Fn8000_0006 and Fn8000_0019 (APM Vol. 3, Appendix
 * E, Fn8000_0006, "L2/L3 Cache and TLB Associativity Field Encoding").  The
 * current APM reads some codes as ranges (5h 6-7 ways, 6h 8-15, 8h 16-31,
 * Ah 32-47 ...); their lower bound is the way count the older APM gave, and
 * what is reported.  9h: "determine from Fn8000_001D" (no way count here);
 * 0h: disabled (no record); 7h: reserved.
 */
static const int16_t assoc4[16] = {
	[0x0] = 0,  [0x1] = 1,  [0x2] = 2,  [0x3] = 3,  [0x4] = 4,   [0x5] = 6,
	[0x6] = 8,  [0x7] = 0,  [0x8] = 16, [0x9] = FROM_1D, [0xa] = 32, [0xb] = 48,
	[0xc] = 64, [0xd] = 96, [0xe] = 128, [0xf] = FULL,
};

/*
 * Ways from an associativity field, given the structure's entries (TLB) or
 * lines (cache): 0 when disabled or reserved, MP_NA when not told.  8-bit
 * fields are Fn8000_0005's: 00h reserved, 01h direct mapped, 02h-FEh that
 * many ways, FFh fully associative.
 */
static int64_t ways_of(uint32_t code, unsigned width, int64_t units)
{
	int64_t w = width == 8 ? (code == 0xff ? FULL : (int64_t)code) : assoc4[code & 0xf];

	return w == FULL ? units : w == FROM_1D ? MP_NA : w;
}

/* One TLB: which field of which register. */
static const struct tlb_field {
	uint32_t leaf, src;
	uint8_t reg, assoc_lo, assoc_n, entries_lo, entries_n, level;
	enum mp_kind kind;
	int64_t page;
} tlb_fields[] = {
	/* Fn8000_0005 EBX: L1 4K TLBs, EAX: L1 2M/4M TLBs;
	 * data [31:24] ways, [23:16] entries; instruction [15:8], [7:0]. */
	{ 0x80000005, MP_SRC_80000005, MP_EBX, 24, 8, 16, 8, 1, MP_KIND_DATA, (int64_t)MP_PAGE_BYTES_4K },
	{ 0x80000005, MP_SRC_80000005, MP_EBX, 8, 8, 0, 8, 1, MP_KIND_INSTRUCTION, (int64_t)MP_PAGE_BYTES_4K },
	{ 0x80000005, MP_SRC_80000005, MP_EAX, 24, 8, 16, 8, 1, MP_KIND_DATA, (int64_t)MP_PAGE_BYTES_2M },
	{ 0x80000005, MP_SRC_80000005, MP_EAX, 8, 8, 0, 8, 1, MP_KIND_INSTRUCTION, (int64_t)MP_PAGE_BYTES_2M },
	/* Fn8000_0006 EBX: L2 4K TLBs, EAX: L2 2M/4M TLBs;
	 * data [31:28] ways, [27:16] entries; instruction [15:12], [11:0]. */
	{ 0x80000006, MP_SRC_80000006, MP_EBX, 28, 4, 16, 12, 2, MP_KIND_DATA, (int64_t)MP_PAGE_BYTES_4K },
	{ 0x80000006, MP_SRC_80000006, MP_EBX, 12, 4, 0, 12, 2, MP_KIND_INSTRUCTION, (int64_t)MP_PAGE_BYTES_4K },
	{ 0x80000006, MP_SRC_80000006, MP_EAX, 28, 4, 16, 12, 2, MP_KIND_DATA, (int64_t)MP_PAGE_BYTES_2M },
	{ 0x80000006, MP_SRC_80000006, MP_EAX, 12, 4, 0, 12, 2, MP_KIND_INSTRUCTION, (int64_t)MP_PAGE_BYTES_2M },
	/* Fn8000_0019 EAX: L1 1G TLBs, EBX: L2 1G TLBs; same layout as Fn8000_0006. */
	{ 0x80000019, MP_SRC_80000019, MP_EAX, 28, 4, 16, 12, 1, MP_KIND_DATA, (int64_t)MP_PAGE_BYTES_1G },
	{ 0x80000019, MP_SRC_80000019, MP_EAX, 12, 4, 0, 12, 1, MP_KIND_INSTRUCTION, (int64_t)MP_PAGE_BYTES_1G },
	{ 0x80000019, MP_SRC_80000019, MP_EBX, 28, 4, 16, 12, 2, MP_KIND_DATA, (int64_t)MP_PAGE_BYTES_1G },
	{ 0x80000019, MP_SRC_80000019, MP_EBX, 12, 4, 0, 12, 2, MP_KIND_INSTRUCTION, (int64_t)MP_PAGE_BYTES_1G },
};

/* One cache: size field and its unit, associativity field. */
static const struct cache_field {
	uint32_t leaf, src;
	uint8_t reg, size_lo, size_n, assoc_lo, assoc_n, level;
	enum mp_kind kind;
	int64_t unit;
} cache_fields[] = {
	/* Fn8000_0005 ECX/EDX: L1 data/instruction, [31:24] KB, [23:16] ways, [7:0] line. */
	{ 0x80000005, MP_SRC_80000005, MP_ECX, 24, 8, 16, 8, 1, MP_KIND_DATA, MP_KB },
	{ 0x80000005, MP_SRC_80000005, MP_EDX, 24, 8, 16, 8, 1, MP_KIND_INSTRUCTION, MP_KB },
	/* Fn8000_0006 ECX: L2, [31:16] KB, [15:12] ways, [7:0] line. */
	{ 0x80000006, MP_SRC_80000006, MP_ECX, 16, 16, 12, 4, 2, MP_KIND_UNIFIED, MP_KB },
	/* Fn8000_0006 EDX: L3, [31:18] in 512 KB units, [15:12] ways, [7:0] line. */
	{ 0x80000006, MP_SRC_80000006, MP_EDX, 18, 14, 12, 4, 3, MP_KIND_UNIFIED, 512 * MP_KB },
};

bool mp_cpuid_amd_tlbs(const struct mp_cpuid *c, struct mp_cpuid_list *l)
{
	bool any = false;

	for (size_t i = 0; i < MP_COUNT_OF(tlb_fields); i++) {
		const struct tlb_field *f = &tlb_fields[i];
		uint32_t r[4];

		if (!mp_cpuid_leaf(c, f->leaf, 0, r))
			continue;
		int64_t entries = mp_bits(r[f->reg], f->entries_lo, f->entries_n);
		uint32_t code = mp_bits(r[f->reg], f->assoc_lo, f->assoc_n);
		int64_t ways = ways_of(code, f->assoc_n, entries);
		struct mp_tlb_rec rec = { f->level, f->kind, f->page, entries, ways };

		if (entries == 0 || ways == 0)
			continue;
		mp_cl_tlb(l, f->src, rec, MP_MERGE_LARGER);
		any = true;
	}
	return any;
}

bool mp_cpuid_amd_caches(const struct mp_cpuid *c, struct mp_cpuid_list *l)
{
	bool any = false;

	for (size_t i = 0; i < MP_COUNT_OF(cache_fields); i++) {
		const struct cache_field *f = &cache_fields[i];
		uint32_t r[4];

		if (!mp_cpuid_leaf(c, f->leaf, 0, r))
			continue;
		int64_t size = mp_bits(r[f->reg], f->size_lo, f->size_n) * f->unit;
		int64_t line = mp_bits(r[f->reg], 0, 8);
		uint32_t code = mp_bits(r[f->reg], f->assoc_lo, f->assoc_n);
		int64_t ways = line ? ways_of(code, f->assoc_n, size / line) : 0;
		struct mp_cache_rec rec = {
			f->level, f->kind, size, line, ways, MP_NA, MP_INCL_UNKNOWN,
		};

		if (size == 0 || ways == 0)
			continue;
		mp_cl_cache(l, f->src, rec);
		any = true;
	}
	return any;
}
