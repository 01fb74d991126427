/* SPDX-License-Identifier: MIT */
/*
 * Which arithmetic the generated kernels (arch/x86_64/arith.c) may use: a
 * feature counts only when the CPU has it (CPUID) and its register state is
 * enabled (XCR0, set by the OS, or on bare metal by us: mp_x86_isa_enable).
 */
#ifndef MEMPROBE_ARCH_X86_64_ISA_H
#define MEMPROBE_ARCH_X86_64_ISA_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86_64/cpuid.h"

struct mp_x86_isa {
	bool sse41;     /* PMULLD */
	bool avx;       /* VEX-encoded 256-bit floating point, and FMA's encoding */
	bool avx2;      /* 256-bit integer */
	bool fma;
	bool avx512f;   /* EVEX-encoded 512-bit */
};

/*
 * CPUID feature flags (Intel SDM Vol. 2A, CPUID leaf 01H ECX and leaf 07H
 * EBX; AMD APM Vol. 3, Fn0000_0001_ECX and Fn0000_0007_EBX, same bits).
 */
#define MP_X86_ECX1_FMA (1u << 12)
#define MP_X86_ECX1_SSE41 (1u << 19)
#define MP_X86_ECX1_XSAVE (1u << 26)
#define MP_X86_ECX1_OSXSAVE (1u << 27)
#define MP_X86_ECX1_AVX (1u << 28)
#define MP_X86_EBX7_AVX2 (1u << 5)
#define MP_X86_EBX7_AVX512F (1u << 16)

/*
 * XCR0 state components (SDM Vol. 1, "XSAVE-Supported Features and
 * State-Component Bitmaps"): x87 0, SSE 1, AVX 2, AVX-512 opmask 5,
 * ZMM_Hi256 6, Hi16_ZMM 7.
 */
#define MP_XCR0_X87 (1ull << 0)
#define MP_XCR0_SSE (1ull << 1)
#define MP_XCR0_AVX (1ull << 2)
#define MP_XCR0_AVX512 (7ull << 5)

/* The usable features, from the CPUID leaves and the XCR0 value in effect. */
void mp_x86_isa_read(const struct mp_cpuid *c, uint64_t xcr0, struct mp_x86_isa *out);

/* Does the CPU have XSAVE (and so XCR0)? */
bool mp_x86_isa_has_xsave(const struct mp_cpuid *c);

/* XCR0 as the CPU has it now (XGETBV), 0 where CPUID says no OSXSAVE. */
uint64_t mp_x86_isa_xcr0(const struct mp_cpuid *c);

/* The XCR0 that enables every state component the CPU supports (CPUID leaf 0DH). */
uint64_t mp_x86_isa_xcr0_all(const struct mp_cpuid *c);

#endif
