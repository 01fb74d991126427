/* SPDX-License-Identifier: MIT */
/*
 * Intel leaf 18H, deterministic address translation parameters (Intel SDM
 * Vol. 2A, CPUID, "Deterministic Address Translation Parameters Main Leaf"
 * and sub-leaves):
 *   subleaf 0 EAX: the highest subleaf
 *   EBX[0..3] page sizes 4K, 2M, 4M, 1G; EBX[31:16] ways; ECX sets
 *   EDX[4:0] type: 0 invalid subleaf, 1 data, 2 instruction, 3 unified,
 *     4 load only, 5 store only
 *   EDX[7:5] level (from 1), EDX[8] fully associative
 * Each subleaf is one structure of ways * sets entries.  Structures of one
 * level, kind and page size add up (Ice Lake reports two second-level
 * structures for 4K pages).  Load-only TLBs are the data TLBs the probes'
 * loads see; store-only ones are left out.  4M pages are held as 2M pages.
 */
#include "arch/x86_64/cpuid_int.h"
#include "core/lib/bits.h"

#define LEAF 0x18
#define MAX_SUBLEAF 64

static const enum mp_kind kinds[] = {
	[0] = MP_KIND_UNKNOWN, [1] = MP_KIND_DATA,  [2] = MP_KIND_INSTRUCTION,
	[3] = MP_KIND_UNIFIED, [4] = MP_KIND_DATA, [5] = MP_KIND_UNKNOWN,
};

/* EBX bit -> page size; 2M and 4M make one record. */
static const struct {
	uint32_t mask;
	int64_t bytes;
} pages[] = {
	{ 1u << 0, (int64_t)MP_PAGE_BYTES_4K },
	{ (1u << 1) | (1u << 2), (int64_t)MP_PAGE_BYTES_2M },
	{ 1u << 3, (int64_t)MP_PAGE_BYTES_1G },
};

static void add_structure(struct mp_cpuid_list *l, const uint32_t r[4])
{
	uint32_t type = mp_bits(r[MP_EDX], 0, 5);
	int64_t ways = mp_bits(r[MP_EBX], 16, 16), sets = r[MP_ECX];

	if (type >= MP_COUNT_OF(kinds) || kinds[type] == MP_KIND_UNKNOWN)
		return;
	for (unsigned p = 0; p < MP_COUNT_OF(pages); p++) {
		struct mp_tlb_rec rec = {
			.level = (int32_t)mp_bits(r[MP_EDX], 5, 3),
			.kind = kinds[type],
			.page = pages[p].bytes,
			.entries = ways * sets,
			.ways = mp_bits(r[MP_EDX], 8, 1) ? ways * sets : ways,
		};

		if (r[MP_EBX] & pages[p].mask)
			mp_cl_tlb(l, MP_SRC_18, rec, MP_MERGE_SUM);
	}
}

bool mp_cpuid_leaf18(const struct mp_cpuid *c, struct mp_cpuid_list *l)
{
	uint32_t r[4], max;

	if (!mp_cpuid_leaf(c, LEAF, 0, r))
		return false;
	max = r[MP_EAX] < MAX_SUBLEAF ? r[MP_EAX] : MAX_SUBLEAF;
	for (uint32_t sub = 0; sub <= max; sub++) {
		if (sub > 0)
			mp_cpuid_leaf(c, LEAF, sub, r);
		add_structure(l, r);
	}
	return (l->sources & MP_SRC_18) != 0;
}
