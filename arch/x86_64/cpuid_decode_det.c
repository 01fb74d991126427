/* SPDX-License-Identifier: MIT */
/*
 * Deterministic cache parameters: Intel leaf 04H and AMD Fn8000_001D, which
 * share one layout (Intel SDM Vol. 2A, CPUID, "Deterministic Cache
 * Parameters Leaf"; AMD APM Vol. 3, Appendix E, Fn8000_001D "Cache Topology
 * Information"):
 *   EAX[4:0] type (0 none left, 1 data, 2 instruction, 3 unified)
 *   EAX[7:5] level, EAX[9] fully associative,
 *   EAX[25:14] logical processors sharing the cache, less one
 *     (Intel: addressable IDs, an upper bound, see mp_cpuid_intel_sharing;
 *     AMD: the count)
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

/*
 * Intel's field is the number of APIC IDs reserved for the CPUs sharing the
 * cache, an upper bound whose power of two gives the width of the cache's
 * ID bits (SDM Vol. 2A, CPUID leaf 04H, EAX[25:14] and its notes).  Leaf 0BH
 * gives each level's width (EAX[4:0], the shift to the next level's ID) and
 * its logical CPUs (EBX[15:0]): a cache no wider than a level is shared by
 * that level's CPUs when the widths are equal, else by 2^width of them
 * (SDM Vol. 3A, "Multiple-Processor Management", "Hierarchical Mapping of
 * Shared Resources").  A 4-core, 8-thread Skylake's L3 field of 16 gives 8.
 */
int32_t mp_cpuid_intel_sharing(const struct mp_cpuid *c, uint32_t ids)
{
	uint32_t r[4], w = mp_cpuid_width(ids), last = 0;

	for (uint32_t sub = 0; sub < MAX_SUBLEAF && mp_cpuid_leaf(c, 0xb, sub, r); sub++) {
		uint32_t shift = mp_bits(r[MP_EAX], 0, 5), cpus = mp_bits(r[MP_EBX], 0, 16);

		if (mp_bits(r[MP_ECX], 8, 8) == 0 || cpus == 0)
			break;
		last = cpus;
		if (w == shift)
			return (int32_t)cpus;
		if (w < shift)
			return (int32_t)((1u << w) < cpus ? 1u << w : cpus);
	}
	return last ? (int32_t)last : MP_NA;
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
		struct mp_cache_rec rec = det_record(r);
		int32_t sharing = leaf == 4 ? mp_cpuid_intel_sharing(c, (uint32_t)rec.shared_by) : MP_NA;

		if (sharing != MP_NA)
			rec.shared_by = sharing;
		mp_cl_cache(l, src, rec);
		any = true;
	}
	return any;
}
