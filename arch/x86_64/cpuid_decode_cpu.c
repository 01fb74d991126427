/* SPDX-License-Identifier: MIT */
/*
 * What CPUID documents of the processor itself (struct mp_cpu_doc): the
 * frequencies of leaf 16H, the arithmetic feature flags the "cpu" probe's
 * kernels use, the widest vector they give, and the registers the ISA
 * gives (X-Ray 3.5 measured those; on x86-64 the ISA fixes them).
 */
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/isa.h"
#include "core/lib/bits.h"
#include "core/lib/buf.h"

/* Processor Frequency Information (Intel SDM Vol. 2A, CPUID leaf 16H): EAX
 * base, EBX maximum, ECX bus (reference) frequency in MHz, bits 15:0; 0
 * where not enumerated.  AMD processors have no leaf 16H. */
#define LEAF_FREQUENCY 0x16u
#define MHZ 1e6
#define MHZ_MASK 0xffffu
/*
 * 16 general registers and 16 XMM/YMM registers in 64-bit mode, 32 ZMM
 * registers with AVX-512 (SDM Vol. 1, 3.4.1.1 "General-Purpose Registers
 * in 64-Bit Mode"; 15.1, the AVX-512 register set); SSE2 gives 128 bits.
 */
#define GP_REGISTERS 16
#define VECTOR_REGISTERS 16
#define SSE2_BITS 128

/* CPUID leaf 01H EDX bit 26 (SDM Vol. 2A): SSE2, on every x86-64 processor. */
#define MP_X86_EDX1_SSE2 (1u << 26)

static const struct {
	uint32_t leaf;
	int reg;
	uint32_t bit;
	const char *name;
	int32_t vector_bits;       /* the width it gives, 0: none */
	int32_t registers;         /* vector registers with it, 0: no change */
} features[] = {
	{ 0x1u, MP_EDX, MP_X86_EDX1_SSE2, "sse2", SSE2_BITS, 0 },
	{ 0x1u, MP_ECX, MP_X86_ECX1_SSE41, "sse4.1", 0, 0 },
	{ 0x1u, MP_ECX, MP_X86_ECX1_AVX, "avx", 256, 0 },
	{ 0x7u, MP_EBX, MP_X86_EBX7_AVX2, "avx2", 0, 0 },
	{ 0x1u, MP_ECX, MP_X86_ECX1_FMA, "fma", 0, 0 },
	{ 0x7u, MP_EBX, MP_X86_EBX7_AVX512F, "avx512f", 512, 32 },
};

static bool has(const struct mp_cpuid *c, unsigned i)
{
	uint32_t r[4];

	return mp_cpuid_leaf(c, features[i].leaf, 0, r) && (r[features[i].reg] & features[i].bit);
}

static double mhz(uint32_t v)
{
	return v & MHZ_MASK ? (double)(v & MHZ_MASK) * MHZ : mp_na_double();
}

void mp_cpuid_cpu_doc(const struct mp_cpuid *c, struct mp_cpu_doc *d)
{
	struct mp_buf b;
	uint32_t r[4];

	mp_cpu_doc_init(d);
	if (mp_cpuid_leaf(c, LEAF_FREQUENCY, 0, r)) {
		d->base_hz = mhz(r[MP_EAX]);
		d->max_hz = mhz(r[MP_EBX]);
		d->bus_hz = mhz(r[MP_ECX]);
	}
	d->gp_registers = GP_REGISTERS;
	d->vector_registers = VECTOR_REGISTERS;
	mp_buf_init(&b, d->features, sizeof(d->features));
	for (unsigned i = 0; i < MP_COUNT_OF(features); i++) {
		if (!has(c, i))
			continue;
		mp_buf_printf(&b, "%s%s", b.len ? " " : "", features[i].name);
		if (features[i].vector_bits > d->vector_bits)
			d->vector_bits = features[i].vector_bits;
		if (features[i].registers)
			d->vector_registers = features[i].registers;
	}
}
