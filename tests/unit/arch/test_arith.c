/* SPDX-License-Identifier: MIT */
/*
 * The arithmetic kernels (arch/x86_64/arith.c, enc.c): the bytes of one
 * instruction of every encoding form against the SDM's, what is refused,
 * and every kernel this CPU can run runs and returns.
 */
#include <string.h>
#include <sys/mman.h>

#include "arch/x86_64/x86.h"
#include "tests/check.h"

#define MEM_BYTES 8192u
#define LOOP_AT 64u          /* the loop starts at the first 64-byte line after the prologue */

static const struct mp_x86_isa every = { true, true, true, true, true };
static struct mp_mem mem;

/* The first loop instruction of a one-chain, one-op kernel. */
static const uint8_t *first_op(const struct mp_x86_isa *isa, enum mp_arith op, uint32_t width)
{
	struct mp_kernel k = { op, width, 1, 1 };
	void *entry;

	memset(mem.base, 0, mem.bytes);
	if (mp_x86_kernel_build(isa, &mem, &k, &entry) != MP_OK)
		return NULL;
	for (const uint8_t *p = (const uint8_t *)entry + LOOP_AT; p < mem.base + mem.bytes; p++)
		if ((uintptr_t)p % LOOP_AT == 0)
			return p;
	return NULL;
}

static void expect(enum mp_arith op, uint32_t width, const uint8_t *want, size_t n,
		   const char *what)
{
	const uint8_t *got = first_op(&every, op, width);

	CHECK(got && !memcmp(got, want, n), "encoding of %s", what);
}

static void test_encodings(void)
{
	/* SDM Vol. 2: each instruction's opcode; chain register 0, the constant 15. */
	expect(MP_ARITH_INT_ADD, 64, (const uint8_t[]){ 0x48, 0x01, 0xcb }, 3, "add %rcx,%rbx");
	expect(MP_ARITH_INT_MUL, 64, (const uint8_t[]){ 0x48, 0x0f, 0xaf, 0xd9 }, 4,
	       "imul %rcx,%rbx");
	expect(MP_ARITH_INT_DIV, 64, (const uint8_t[]){ 0x48, 0x8b, 0xc3, 0x31, 0xd2, 0x48, 0xf7,
							0xf1 }, 8, "mov %rbx,%rax; xor; div %rcx");
	expect(MP_ARITH_FP_ADD, 64, (const uint8_t[]){ 0xf2, 0x41, 0x0f, 0x58, 0xc7 }, 5,
	       "addsd %xmm15,%xmm0");
	expect(MP_ARITH_FP_MUL, 128, (const uint8_t[]){ 0x66, 0x41, 0x0f, 0x59, 0xc7 }, 5,
	       "mulpd %xmm15,%xmm0");
	expect(MP_ARITH_INT_MUL, 128, (const uint8_t[]){ 0x66, 0x41, 0x0f, 0x38, 0x40, 0xc7 }, 6,
	       "pmulld %xmm15,%xmm0");
	expect(MP_ARITH_FP_FMA, 64, (const uint8_t[]){ 0xc4, 0xc2, 0x81, 0xb9, 0xc7 }, 5,
	       "vfmadd231sd %xmm15,%xmm15,%xmm0");
	expect(MP_ARITH_FP_DIV, 256, (const uint8_t[]){ 0xc4, 0xc1, 0x7d, 0x5e, 0xc7 }, 5,
	       "vdivpd %ymm15,%ymm0,%ymm0");
	expect(MP_ARITH_FP_FMA, 512, (const uint8_t[]){ 0x62, 0xd2, 0x85, 0x48, 0xb8, 0xc7 }, 6,
	       "vfmadd231pd %zmm15,%zmm15,%zmm0");
	expect(MP_ARITH_INT_ADD, 512, (const uint8_t[]){ 0x62, 0xd1, 0x7d, 0x48, 0xfe, 0xc7 }, 6,
	       "vpaddd %zmm15,%zmm0,%zmm0");
}

static void test_refused(void)
{
	const struct mp_x86_isa sse2 = { 0 };
	void *entry;

	CHECK(mp_x86_kernel_build(&every, &mem, &(struct mp_kernel){ MP_ARITH_INT_DIV, 256, 1, 1 },
				  &entry) == MP_UNSUPPORTED, "no vector integer division");
	CHECK(mp_x86_kernel_build(&sse2, &mem, &(struct mp_kernel){ MP_ARITH_FP_FMA, 64, 1, 1 },
				  &entry) == MP_UNSUPPORTED, "no FMA without FMA");
	CHECK(mp_x86_kernel_build(&sse2, &mem, &(struct mp_kernel){ MP_ARITH_FP_ADD, 256, 1, 1 },
				  &entry) == MP_UNSUPPORTED, "no 256 bits without AVX");
	CHECK(mp_x86_kernel_build(&every, &mem, &(struct mp_kernel){ MP_ARITH_FP_ADD, 96, 1, 1 },
				  &entry) == MP_UNSUPPORTED, "no 96-bit vectors");
	CHECK(mp_x86_kernel_build(&every, &mem, &(struct mp_kernel){ MP_ARITH_FP_ADD, 64, 15, 15 },
				  &entry) == MP_UNSUPPORTED, "no more chains than registers");
	CHECK(mp_x86_kernel_build(&every, &mem, &(struct mp_kernel){ MP_ARITH_FP_ADD, 64, 2, 3 },
				  &entry) == MP_EIO, "ops a multiple of chains");
	CHECK(mp_x86_kernel_build(&every, &mem, &(struct mp_kernel){ MP_ARITH_FP_ADD, 64, 8,
								       4096 }, &entry) == MP_EIO,
	      "a kernel larger than its memory is refused");
}

/* Every kernel this CPU has runs and returns, latency and throughput shapes alike. */
static void test_runs(void)
{
	static const uint32_t widths[] = { 64, 128, 256, 512 };
	struct mp_x86_isa isa;
	struct mp_cpuid c;
	unsigned ran = 0, built = 0;

	mp_cpuid_open(&c, mp_cpuid_hw, NULL);
	mp_x86_isa_read(&c, mp_x86_isa_xcr0(&c), &isa);
	for (int op = 0; op < MP_ARITH_COUNT; op++)
		for (unsigned w = 0; w < 4; w++)
			for (uint32_t chains = 1; chains <= 8; chains *= 8) {
				struct mp_kernel k = { op, widths[w], chains, 16 };
				struct mp_run r = { .op = MP_OP_KERNEL, .steps = 1000 };
				struct mp_sample s;

				if (mp_x86_kernel_build(&isa, &mem, &k, &r.start) != MP_OK)
					continue;
				built++;
				ran += mp_x86_run(NULL, &r, &s) == MP_OK && s.ticks > 0;
			}
	CHECK(built >= 2 * 9 && ran == built, "%u of %u kernels this CPU has ran", ran, built);
}

int main(void)
{
	mem.bytes = MEM_BYTES;
	mem.base = mmap(NULL, MEM_BYTES, PROT_READ | PROT_WRITE | PROT_EXEC,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(mem.base != MAP_FAILED, "executable memory");
	test_encodings();
	test_refused();
	test_runs();
	munmap(mem.base, MEM_BYTES);
	return check_done();
}
