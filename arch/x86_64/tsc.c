/* SPDX-License-Identifier: MIT */
#include "arch/x86_64/tsc.h"

/* Time Stamp Counter and Core Crystal Clock Information Leaf (Intel SDM
 * Vol. 2A, CPUID leaf 15H): TSC = crystal (ECX, Hz) * EBX / EAX; a zero in
 * any of them means "not enumerated". */
#define LEAF_TSC_CRYSTAL 0x15u
/* Invariant TSC: CPUID.80000007H:EDX[8] (Intel SDM Vol. 3B, "Invariant TSC"
 * in the Time-Stamp Counter section; AMD APM Vol. 3, Fn8000_0007_EDX
 * TscInvariant). */
#define LEAF_POWER_MGMT 0x80000007u
#define EDX_TSC_INVARIANT (1u << 8)

uint64_t mp_x86_tsc_hz_cpuid(const struct mp_cpuid *c)
{
	uint32_t r[4];

	if (!mp_cpuid_leaf(c, LEAF_TSC_CRYSTAL, 0, r) || !r[MP_EAX] || !r[MP_EBX] || !r[MP_ECX])
		return 0;
	return (uint64_t)r[MP_ECX] * r[MP_EBX] / r[MP_EAX];
}

bool mp_x86_tsc_invariant(const struct mp_cpuid *c)
{
	uint32_t r[4];

	return mp_cpuid_leaf(c, LEAF_POWER_MGMT, 0, r) && (r[MP_EDX] & EDX_TSC_INVARIANT);
}
