/* SPDX-License-Identifier: MIT */
/*
 * Which leaves describe the caches and TLBs, per vendor:
 *   Intel: caches from leaf 04H, else leaf 02H descriptors; TLBs from leaf
 *     18H, else leaf 02H descriptors.
 *   AMD: caches from Fn8000_001D (with TopologyExtensions), else
 *     Fn8000_0005/6; TLBs from Fn8000_0005, Fn8000_0006, Fn8000_0019.
 * Other vendors: nothing (an empty `source`).
 */
#include "arch/x86_64/cpuid_int.h"
#include "core/lib/str.h"

static void intel(const struct mp_cpuid *c, struct mp_cpuid_list *l)
{
	bool caches = mp_cpuid_det_caches(c, 4, l);
	bool tlbs = mp_cpuid_leaf18(c, l);

	if (!caches || !tlbs)
		mp_cpuid_leaf2(c, !caches, !tlbs, l);
}

static void amd(const struct mp_cpuid *c, struct mp_cpuid_list *l)
{
	if (!(mp_cpuid_amd_topoext(c) && mp_cpuid_det_caches(c, 0x8000001d, l)))
		mp_cpuid_amd_caches(c, l);
	mp_cpuid_amd_tlbs(c, l);
}

static void (*const decoders[])(const struct mp_cpuid *, struct mp_cpuid_list *) = {
	[MP_X86_INTEL] = intel,
	[MP_X86_AMD] = amd,
};

int32_t mp_cpuid_documented(const struct mp_cpuid *c, struct mp_documented *d)
{
	struct mp_cpuid_list l;
	struct mp_cpu cpu;

	mp_memset(&l, 0, sizeof(l));
	mp_cpuid_topology(c, &cpu);
	l.package_cpus = cpu.logical_cpus;
	if (decoders[c->vendor])
		decoders[c->vendor](c, &l);
	return mp_cl_finish(&l, d);
}
