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

/*
 * One TLB register: the data TLB in bits [31:16], the instruction TLB in
 * [15:0]; in each half the ways code takes the top assoc_bits and the
 * entries the bits below.
 *   Fn8000_0005 EBX: L1 4K TLBs, EAX: L1 2M/4M TLBs ([31:24] ways, [23:16] entries);
 *   Fn8000_0006 EBX: L2 4K TLBs, EAX: L2 2M/4M TLBs ([31:28] ways, [27:16] entries);
 *   Fn8000_0019 EAX: L1 1G TLBs, EBX: L2 1G TLBs (Fn8000_0006's layout).
 */
static const struct tlb_reg {
	uint32_t leaf, src;
	uint8_t reg, assoc_bits, level;
	int64_t page;
} tlb_regs[] = {
	{ 0x80000005, MP_SRC_80000005, MP_EBX, 8, 1, (int64_t)MP_PAGE_BYTES_4K },
	{ 0x80000005, MP_SRC_80000005, MP_EAX, 8, 1, (int64_t)MP_PAGE_BYTES_2M },
	{ 0x80000006, MP_SRC_80000006, MP_EBX, 4, 2, (int64_t)MP_PAGE_BYTES_4K },
	{ 0x80000006, MP_SRC_80000006, MP_EAX, 4, 2, (int64_t)MP_PAGE_BYTES_2M },
	{ 0x80000019, MP_SRC_80000019, MP_EAX, 4, 1, (int64_t)MP_PAGE_BYTES_1G },
	{ 0x80000019, MP_SRC_80000019, MP_EBX, 4, 2, (int64_t)MP_PAGE_BYTES_1G },
};

/* The two halves of a TLB register, by the bit each starts at. */
static const struct {
	unsigned lo;
	enum mp_kind kind;
} tlb_halves[] = { { 16, MP_KIND_DATA }, { 0, MP_KIND_INSTRUCTION } };

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

/* The register a field lives in, where the CPU has its leaf. */
static bool field_reg(const struct mp_cpuid *c, uint32_t leaf, uint8_t reg, uint32_t *v)
{
	uint32_t r[4];

	if (!mp_cpuid_leaf(c, leaf, 0, r))
		return false;
	*v = r[reg];
	return true;
}

static struct mp_tlb_rec tlb_of(const struct tlb_reg *t, uint32_t v, unsigned half)
{
	uint32_t h = mp_bits(v, tlb_halves[half].lo, 16), entry_bits = 16u - t->assoc_bits;
	int64_t entries = mp_bits(h, 0, entry_bits);
	int64_t ways = ways_of(mp_bits(h, entry_bits, t->assoc_bits), t->assoc_bits, entries);

	return (struct mp_tlb_rec){ t->level, tlb_halves[half].kind, t->page, entries, ways };
}

static bool cache_of(const struct mp_cpuid *c, const struct cache_field *f,
		     struct mp_cache_rec *rec)
{
	uint32_t v;

	if (!field_reg(c, f->leaf, f->reg, &v))
		return false;
	int64_t size = mp_bits(v, f->size_lo, f->size_n) * f->unit;
	int64_t line = mp_bits(v, 0, 8);
	int64_t ways = line ? ways_of(mp_bits(v, f->assoc_lo, f->assoc_n), f->assoc_n, size / line)
			    : 0;

	*rec = (struct mp_cache_rec){ f->level, f->kind, size, line, ways, MP_NA, MP_INCL_UNKNOWN };
	return size != 0 && ways != 0;
}

bool mp_cpuid_amd_tlbs(const struct mp_cpuid *c, struct mp_cpuid_list *l)
{
	bool any = false;
	uint32_t v;

	for (size_t i = 0; i < MP_COUNT_OF(tlb_regs); i++) {
		if (!field_reg(c, tlb_regs[i].leaf, tlb_regs[i].reg, &v))
			continue;
		for (unsigned h = 0; h < MP_COUNT_OF(tlb_halves); h++) {
			struct mp_tlb_rec rec = tlb_of(&tlb_regs[i], v, h);

			if (rec.entries == 0 || rec.ways == 0)
				continue;
			mp_cl_tlb(l, tlb_regs[i].src, rec, MP_MERGE_LARGER);
			any = true;
		}
	}
	return any;
}

bool mp_cpuid_amd_caches(const struct mp_cpuid *c, struct mp_cpuid_list *l)
{
	struct mp_cache_rec rec;
	bool any = false;

	for (size_t i = 0; i < MP_COUNT_OF(cache_fields); i++) {
		if (!cache_of(c, &cache_fields[i], &rec))
			continue;
		mp_cl_cache(l, cache_fields[i].src, rec);
		any = true;
	}
	return any;
}
