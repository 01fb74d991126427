/* SPDX-License-Identifier: MIT */
/*
 * Intel leaf 02H: one-byte cache and TLB descriptors (Intel SDM Vol. 2A,
 * CPUID, "INPUT EAX = 02H: TLB/Cache/Prefetch Information Returned in EAX,
 * EBX, ECX, EDX" and Table 3-12 "Encoding of CPUID Leaf 2 Descriptors").
 * A register holds descriptors when its bit 31 is 0; EAX[7:0] is a count
 * (always 01H), not a descriptor.  0FFH sends caches to leaf 04H and 0FEH
 * TLBs to leaf 18H; the dispatcher (cpuid_decode_doc.c) decides that by
 * which leaves exist, so both are absent from the table.  So are 40H (no
 * further cache), the trace caches 70H-72H (sized in micro-ops, not bytes)
 * and the prefetch descriptors 0F0H/0F1H.
 */
#include "arch/x86_64/cpuid_int.h"
#include "core/lib/bits.h"


enum { CACHE, TLB };
/* Page sizes; "4M" pages are held as 2M pages under PAE and 4-level paging. */
enum { P4K = 1, P2M = 2, P1G = 4 };
enum { ANY, XEON_MP_F6, NOT_XEON_MP_F6 };
#define FULL 0xffff /* fully associative */
#define D MP_KIND_DATA
#define I MP_KIND_INSTRUCTION
#define U MP_KIND_UNIFIED

/*
 * TLB level: 1 for the SDM's "Data TLB0", "uTLB" and every instruction
 * TLB, 2 for "Data TLB1" and "Shared 2nd-Level TLB", 0 for a data TLB the
 * SDM names without a level ("Data TLB", "DTLB"): it is the second level
 * when it shares a page size with an explicit first-level data TLB in the
 * list (Atom's 59H, Silvermont's 0A0H micro-TLB), else the first (Nehalem's
 * 03H beside the 2M-only 5AH).  0A0H counts as explicit: Silvermont and
 * Goldmont, which report it, place it in front of their DTLB (Intel
 * Optimization Reference Manual, Silvermont and Goldmont chapters).  A
 * descriptor is one structure, so all its page sizes get one level.
 */
struct desc {
	uint8_t code, what, level, kind;
	uint16_t ways, line; /* ways 0: not documented */
	uint32_t size;       /* cache KB, or TLB entries */
	uint8_t pages, cond;
};

#define C(code, lvl, kind, kb, ways, line) { code, CACHE, lvl, kind, ways, line, kb, 0, ANY }
#define T(code, lvl, kind, pages, entries, ways) \
	{ code, TLB, lvl, kind, ways, 0, entries, pages, ANY }

/* Intel SDM Vol. 2A, Table 3-12 "Encoding of CPUID Leaf 2 Descriptors". */
static const struct desc table[] = {
	T(0x01, 1, I, P4K, 32, 4),
	T(0x02, 1, I, P2M, 2, FULL),
	T(0x03, 0, D, P4K, 64, 4),
	T(0x04, 0, D, P2M, 8, 4),
	T(0x05, 2, D, P2M, 32, 4),
	C(0x06, 1, I, 8, 4, 32),
	C(0x08, 1, I, 16, 4, 32),
	C(0x09, 1, I, 32, 4, 64),
	C(0x0a, 1, D, 8, 2, 32),
	T(0x0b, 1, I, P2M, 4, 4),
	C(0x0c, 1, D, 16, 4, 32),
	C(0x0d, 1, D, 16, 4, 64),
	C(0x0e, 1, D, 24, 6, 64),
	C(0x1d, 2, U, 128, 2, 64),
	C(0x21, 2, U, 256, 8, 64),
	C(0x22, 3, U, 512, 4, 64),
	C(0x23, 3, U, 1024, 8, 64),
	C(0x24, 2, U, 1024, 16, 64),
	C(0x25, 3, U, 2048, 8, 64),
	C(0x29, 3, U, 4096, 8, 64),
	C(0x2c, 1, D, 32, 8, 64),
	C(0x30, 1, I, 32, 8, 64),
	C(0x41, 2, U, 128, 4, 32),
	C(0x42, 2, U, 256, 4, 32),
	C(0x43, 2, U, 512, 4, 32),
	C(0x44, 2, U, 1024, 4, 32),
	C(0x45, 2, U, 2048, 4, 32),
	C(0x46, 3, U, 4096, 4, 64),
	C(0x47, 3, U, 8192, 8, 64),
	C(0x48, 2, U, 3072, 12, 64),
	/* 49H: the L3 on Xeon MP family 0FH model 06H, the L2 everywhere else. */
	{ 0x49, CACHE, 3, U, 16, 64, 4096, 0, XEON_MP_F6 },
	{ 0x49, CACHE, 2, U, 16, 64, 4096, 0, NOT_XEON_MP_F6 },
	C(0x4a, 3, U, 6144, 12, 64),
	C(0x4b, 3, U, 8192, 16, 64),
	C(0x4c, 3, U, 12288, 12, 64),
	C(0x4d, 3, U, 16384, 16, 64),
	C(0x4e, 2, U, 6144, 24, 64),
	T(0x4f, 1, I, P4K, 32, 0),
	T(0x50, 1, I, P4K | P2M, 64, 0),
	T(0x51, 1, I, P4K | P2M, 128, 0),
	T(0x52, 1, I, P4K | P2M, 256, 0),
	T(0x55, 1, I, P2M, 7, FULL),
	T(0x56, 1, D, P2M, 16, 4),
	T(0x57, 1, D, P4K, 16, 4),
	T(0x59, 1, D, P4K, 16, FULL),
	T(0x5a, 1, D, P2M, 32, 4),
	T(0x5b, 0, D, P4K | P2M, 64, 0),
	T(0x5c, 0, D, P4K | P2M, 128, 0),
	T(0x5d, 0, D, P4K | P2M, 256, 0),
	C(0x60, 1, D, 16, 8, 64),
	T(0x61, 1, I, P4K, 48, FULL),
	/* 63H: 2M/4M pages, and a separate array for 1G pages. */
	T(0x63, 0, D, P2M, 32, 4),
	T(0x63, 0, D, P1G, 4, 4),
	T(0x64, 0, D, P4K, 512, 4),
	C(0x66, 1, D, 8, 4, 64),
	C(0x67, 1, D, 16, 4, 64),
	C(0x68, 1, D, 32, 4, 64),
	T(0x6a, 1, D, P4K, 64, 8),
	T(0x6b, 0, D, P4K, 256, 8),
	T(0x6c, 0, D, P2M, 128, 8),
	T(0x6d, 0, D, P1G, 16, FULL),
	T(0x76, 1, I, P2M, 8, FULL),
	C(0x78, 2, U, 1024, 4, 64),
	C(0x79, 2, U, 128, 8, 64),
	C(0x7a, 2, U, 256, 8, 64),
	C(0x7b, 2, U, 512, 8, 64),
	C(0x7c, 2, U, 1024, 8, 64),
	C(0x7d, 2, U, 2048, 8, 64),
	C(0x7f, 2, U, 512, 2, 64),
	C(0x80, 2, U, 512, 8, 64),
	C(0x82, 2, U, 256, 8, 32),
	C(0x83, 2, U, 512, 8, 32),
	C(0x84, 2, U, 1024, 8, 32),
	C(0x85, 2, U, 2048, 8, 32),
	C(0x86, 2, U, 512, 4, 64),
	C(0x87, 2, U, 1024, 8, 64),
	T(0xa0, 1, D, P4K, 32, FULL),
	T(0xb0, 1, I, P4K, 128, 4),
	T(0xb1, 1, I, P2M, 8, 4), /* "2M pages, 4-way, 8 entries or 4M pages, 4-way, 4 entries" */
	T(0xb2, 1, I, P4K, 64, 4),
	T(0xb3, 0, D, P4K, 128, 4),
	T(0xb4, 2, D, P4K, 256, 4),
	T(0xb5, 1, I, P4K, 64, 8),
	T(0xb6, 1, I, P4K, 128, 8),
	T(0xba, 2, D, P4K, 64, 4),
	T(0xc0, 0, D, P4K | P2M, 8, 4),
	T(0xc1, 2, U, P4K | P2M, 1024, 8),
	T(0xc2, 0, D, P4K | P2M, 16, 4),
	/* C3H: 4K/2M pages, "also 1GBbyte pages, 4-way, 16 entries". */
	T(0xc3, 2, U, P4K | P2M, 1536, 6),
	T(0xc3, 2, U, P1G, 16, 4),
	T(0xc4, 0, D, P2M, 32, 4),
	T(0xca, 2, U, P4K, 512, 4),
	C(0xd0, 3, U, 512, 4, 64),
	C(0xd1, 3, U, 1024, 4, 64),
	C(0xd2, 3, U, 2048, 4, 64),
	C(0xd6, 3, U, 1024, 8, 64),
	C(0xd7, 3, U, 2048, 8, 64),
	C(0xd8, 3, U, 4096, 8, 64),
	C(0xdc, 3, U, 1536, 12, 64),
	C(0xdd, 3, U, 3072, 12, 64),
	C(0xde, 3, U, 6144, 12, 64),
	C(0xe2, 3, U, 2048, 16, 64),
	C(0xe3, 3, U, 4096, 16, 64),
	C(0xe4, 3, U, 8192, 16, 64),
	C(0xea, 3, U, 12288, 24, 64),
	C(0xeb, 3, U, 18432, 24, 64),
	C(0xec, 3, U, 24576, 24, 64),
};

static const int64_t page_bytes[] = { (int64_t)MP_PAGE_BYTES_4K, (int64_t)MP_PAGE_BYTES_2M, (int64_t)MP_PAGE_BYTES_1G };

static bool cond_holds(const struct mp_cpuid *c, const struct desc *e)
{
	bool xeon_mp = c->family == 0xf && c->model == 6;

	return e->cond == ANY || (e->cond == XEON_MP_F6) == xeon_mp;
}

/* The descriptor bytes, zero (null) descriptors left out; returns how many. */
static size_t leaf2_bytes(const struct mp_cpuid *c, uint8_t out[16])
{
	uint32_t r[4];
	size_t n = 0;

	if (!mp_cpuid_leaf(c, 2, 0, r))
		return 0;
	for (unsigned i = 0; i < 4; i++) {
		if (r[i] & 0x80000000u)
			continue;
		for (unsigned b = i == MP_EAX ? 1 : 0; b < 4; b++)
			if (mp_bits(r[i], 8 * b, 8) != 0)
				out[n++] = (uint8_t)mp_bits(r[i], 8 * b, 8);
	}
	return n;
}

/* Is an explicit first-level data TLB for any of these page sizes among the descriptors? */
static bool explicit_l1(const struct mp_cpuid *c, const uint8_t *d, size_t n, uint8_t pages)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < MP_COUNT_OF(table); k++) {
			const struct desc *e = &table[k];

			if (e->code == d[i] && cond_holds(c, e) && e->what == TLB && e->kind == D &&
			    e->level == 1 && (e->pages & pages))
				return true;
		}
	return false;
}

static void add_cache(struct mp_cpuid_list *l, const struct desc *e)
{
	int64_t size = (int64_t)e->size * MP_KB;
	struct mp_cache_rec r = {
		.level = e->level,
		.kind = (enum mp_kind)e->kind,
		.size = size,
		.line = e->line,
		.ways = e->ways == FULL ? size / e->line : e->ways ? e->ways : MP_NA,
		.shared_by = MP_NA,
		.inclusion = MP_INCL_UNKNOWN,
	};

	mp_cl_cache(l, MP_SRC_2, r);
}

static void add_tlbs(const struct mp_cpuid *c, struct mp_cpuid_list *l, const struct desc *e,
		     const uint8_t *d, size_t n)
{
	int32_t level = e->level ? e->level : explicit_l1(c, d, n, e->pages) ? 2 : 1;

	for (unsigned p = 0; p < MP_COUNT_OF(page_bytes); p++) {
		uint8_t bit = (uint8_t)(1u << p);
		struct mp_tlb_rec r = {
			.level = level,
			.kind = (enum mp_kind)e->kind,
			.page = page_bytes[p],
			.entries = e->size,
			.ways = e->ways == FULL ? (int64_t)e->size : e->ways ? e->ways : MP_NA,
		};

		if (e->pages & bit)
			mp_cl_tlb(l, MP_SRC_2, r, MP_MERGE_LARGER);
	}
}

bool mp_cpuid_leaf2(const struct mp_cpuid *c, bool want_caches, bool want_tlbs,
		    struct mp_cpuid_list *l)
{
	uint8_t d[16];
	size_t n = leaf2_bytes(c, d);
	bool any = false;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < MP_COUNT_OF(table); k++) {
			const struct desc *e = &table[k];

			if (e->code != d[i] || !cond_holds(c, e))
				continue;
			if (e->what == CACHE && want_caches)
				add_cache(l, e);
			else if (e->what == TLB && want_tlbs)
				add_tlbs(c, l, e, d, n);
			else
				continue;
			any = true;
		}
	return any;
}
