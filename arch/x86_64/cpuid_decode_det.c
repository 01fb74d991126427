/* SPDX-License-Identifier: MIT */
/*
 * Deterministic cache parameters: Intel leaf 04H and AMD Fn8000_001D, which
 * share one layout (Intel SDM Vol. 2A, CPUID, "Deterministic Cache
 * Parameters Leaf"; AMD APM Vol. 3, Appendix E, Fn8000_001D "Cache Topology
 * Information"):
 *   EAX[4:0] type (0 none left, 1 data, 2 instruction, 3 unified)
 *   EAX[7:5] level, EAX[9] fully associative,
 *   EAX[25:14] logical processors sharing the cache, less one
 *     (Intel: addressable IDs, an upper bound; AMD: the count)
 *   EBX[11:0] line size, EBX[21:12] partitions, EBX[31:22] ways, ECX sets,
 *     each less one; size = ways * partitions * line * sets
 *   EDX[1] inclusive of the lower levels
 */
#include "arch/x86_64/cpuid_int.h"
#include "core/lib/bits.h"

#define MAX_SUBLEAF 16

static const enum mp_kind det_kind[] = {
	MP_KIND_UNKNOWN, MP_KIND_DATA, MP_KIND_INSTRUCTION, MP_KIND_UNIFIED,
};

static struct mp_cache_rec det_record(const uint32_t r[4])
{
	int64_t line = mp_bits(r[MP_EBX], 0, 12) + 1;
	int64_t parts = mp_bits(r[MP_EBX], 12, 10) + 1;
	int64_t ways = mp_bits(r[MP_EBX], 22, 10) + 1;
	int64_t sets = (int64_t)r[MP_ECX] + 1;
	struct mp_cache_rec c = {
		.level = (int32_t)mp_bits(r[MP_EAX], 5, 3),
		.kind = det_kind[mp_bits(r[MP_EAX], 0, 5)],
		.size = ways * parts * line * sets,
		.line = line,
		.ways = ways,
		.shared_by = (int32_t)mp_bits(r[MP_EAX], 14, 12) + 1,
		.inclusion = mp_bits(r[MP_EDX], 1, 1) ? MP_INCL_INCLUSIVE : MP_INCL_UNKNOWN,
	};

	if (mp_bits(r[MP_EAX], 9, 1))
		c.ways = c.size / line; /* fully associative: ways = lines */
	return c;
}

bool mp_cpuid_det_caches(const struct mp_cpuid *c, uint32_t leaf, struct mp_cpuid_list *l)
{
	uint32_t src = leaf == 4 ? MP_SRC_4 : MP_SRC_8000001D;
	uint32_t r[4];
	bool any = false;

	for (uint32_t sub = 0; sub < MAX_SUBLEAF && mp_cpuid_leaf(c, leaf, sub, r); sub++) {
		uint32_t type = mp_bits(r[MP_EAX], 0, 5);

		if (type == 0)
			break;
		if (type >= MP_COUNT_OF(det_kind))
			continue; /* reserved type */
		mp_cl_cache(l, src, det_record(r));
		any = true;
	}
	return any;
}
