/* SPDX-License-Identifier: MIT */
#include "arch/x86_64/isa.h"
#include "arch/x86_64/x86.h"

#define LEAF_FEATURES 0x1u
#define LEAF_EXT_FEATURES 0x7u
/* Processor Extended State Enumeration (SDM Vol. 2A, CPUID leaf 0DH, sub-leaf 0):
 * EAX the XCR0 bits the CPU supports (low half). */
#define LEAF_XSTATE 0xdu

static bool all(uint64_t v, uint64_t bits)
{
	return (v & bits) == bits;
}

void mp_x86_isa_read(const struct mp_cpuid *c, uint64_t xcr0, struct mp_x86_isa *out)
{
	uint32_t f1[4], f7[4];
	bool ymm, zmm;

	mp_cpuid_leaf(c, LEAF_FEATURES, 0, f1);
	mp_cpuid_leaf(c, LEAF_EXT_FEATURES, 0, f7);
	ymm = (f1[MP_ECX] & MP_X86_ECX1_OSXSAVE) && all(xcr0, MP_XCR0_SSE | MP_XCR0_AVX);
	zmm = ymm && all(xcr0, MP_XCR0_AVX512);
	*out = (struct mp_x86_isa){
		.sse41 = f1[MP_ECX] & MP_X86_ECX1_SSE41,
		.avx = ymm && (f1[MP_ECX] & MP_X86_ECX1_AVX),
		.fma = ymm && (f1[MP_ECX] & MP_X86_ECX1_AVX) && (f1[MP_ECX] & MP_X86_ECX1_FMA),
	};
	out->avx2 = out->avx && (f7[MP_EBX] & MP_X86_EBX7_AVX2);
	out->avx512f = out->avx && zmm && (f7[MP_EBX] & MP_X86_EBX7_AVX512F);
}

bool mp_x86_isa_has_xsave(const struct mp_cpuid *c)
{
	uint32_t f1[4];

	return mp_cpuid_leaf(c, LEAF_FEATURES, 0, f1) && (f1[MP_ECX] & MP_X86_ECX1_XSAVE);
}

uint64_t mp_x86_isa_xcr0(const struct mp_cpuid *c)
{
	uint32_t f1[4];

	if (!mp_cpuid_leaf(c, LEAF_FEATURES, 0, f1) || !(f1[MP_ECX] & MP_X86_ECX1_OSXSAVE))
		return 0;
	return mp_x86_xgetbv(0);
}

uint64_t mp_x86_isa_xcr0_all(const struct mp_cpuid *c)
{
	uint32_t x[4];

	if (!mp_cpuid_leaf(c, LEAF_XSTATE, 0, x))
		return MP_XCR0_X87 | MP_XCR0_SSE;
	return x[MP_EAX] & (MP_XCR0_X87 | MP_XCR0_SSE | MP_XCR0_AVX | MP_XCR0_AVX512);
}
