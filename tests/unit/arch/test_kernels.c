/* SPDX-License-Identifier: MIT */
/*
 * The x86 measurement kernels: the chase's inner loop is exactly eight
 * dependent loads, and every kernel does what the seam promises.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include "arch/x86_64/x86.h"
#include "core/seq/refstring.h"
#include "tests/check.h"

static const uint8_t chase_load[] = { 0x48, 0x8b, 0x00 }; /* mov (%rax),%rax */

static int count_loads_in_a_row(const uint8_t *code, size_t n)
{
	int best = 0, run = 0;

	for (size_t i = 0; i + 3 <= n; ) {
		if (memcmp(code + i, chase_load, 3) == 0) {
			run++;
			i += 3;
		} else {
			run = 0;
			i++;
		}
		if (run > best)
			best = run;
	}
	return best;
}

static void test_chase_loop_instructions(void)
{
	CHECK_EQ_INT(count_loads_in_a_row((const uint8_t *)(uintptr_t)mp_x86_chase, 64), 8,
		     "chase: unrolled loop of eight dependent loads");
}

static void test_chase_follows_cycle(void)
{
	static uint64_t cells[256] __attribute__((aligned(64)));
	struct mp_rng g;
	void *start, *p;

	mp_rng_seed(&g, 7);
	start = mp_ref_cycle((uint8_t *)cells, 32, 64, &g);
	p = start;
	for (int i = 0; i < 13; i++)
		p = *(void **)p;
	CHECK(mp_x86_chase(start, 13) == p, "chase: 13 steps end where 13 loads end");
	CHECK(mp_x86_chase(start, 32) == start, "chase: a whole cycle returns to the start");
}

static void test_sweeps(void)
{
	static uint64_t cells[64];
	struct mp_run r = { .op = MP_OP_STORE_SWEEP, .start = cells, .stride = 16,
			    .count = 8, .steps = 20 };
	struct mp_sample s;
	int ok = 1;

	CHECK(mp_x86_run(NULL, &r, &s) == MP_OK, "store sweep runs");
	for (int i = 0; i < 64; i++)
		ok &= (i % 2 == 0 && i < 16) ? cells[i] == (uint64_t)(uintptr_t)&cells[i]
					     : cells[i] == 0;
	CHECK(ok, "store sweep: stores exactly base + i*stride for i < count");
	r.op = MP_OP_LOAD_SWEEP;
	r.count = 0;
	CHECK(mp_x86_run(NULL, &r, &s) == MP_EIO, "sweep with count 0 is refused");
}

static void *exec_map(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(p != MAP_FAILED, "executable memory");
	return p == MAP_FAILED ? NULL : p;
}

static void test_code_chain(void)
{
	uint64_t offs[] = { 0, 4096, 128, 8192 };
	struct mp_mem m = { .bytes = 3 * 4096 };
	struct mp_code c = { offs, 4, MP_X86_CODE_BLOCK_MIN, false };
	struct mp_run r = { .op = MP_OP_CODE, .steps = 1001 };
	struct mp_sample s;

	m.base = exec_map(m.bytes);
	CHECK(mp_x86_code_build(&m, &c, &r.start) == MP_OK, "code chain built");
	CHECK(r.start == m.base, "code chain starts at the first block");
	CHECK(mp_x86_run(NULL, &r, &s) == MP_OK, "code chain runs 1001 blocks and returns");
	CHECK(s.end == m.base + 4096, "1001 blocks of 4 end before block 1 (4096)");
	r.start = s.end;
	r.steps = 2;
	mp_x86_run(NULL, &r, &s);
	CHECK(s.end == m.base + 8192, "and go on from there: two more end before block 3");
	offs[1] = m.bytes - MP_X86_CODE_BLOCK_MIN + 1;
	CHECK(mp_x86_code_build(&m, &c, &r.start) == MP_EIO,
	      "a block that does not fit is refused");
	c.block_bytes = MP_X86_CODE_BLOCK_MIN - 1;
	offs[1] = 4096;
	CHECK(mp_x86_code_build(&m, &c, &r.start) == MP_EIO, "a block under the tail is refused");
	munmap(m.base, m.bytes);
}

/* Long blocks: every byte before the tail is NOPs the processor runs through. */
static void test_long_blocks(void)
{
	uint64_t offs[] = { 64, 8192 + 100 };
	struct mp_mem m = { .bytes = 4 * 4096 };
	struct mp_code c = { offs, 2, 1000, false };
	struct mp_run r = { .op = MP_OP_CODE, .steps = 777 };
	struct mp_sample s;
	int nops = 1;

	m.base = exec_map(m.bytes);
	CHECK(mp_x86_code_build(&m, &c, &r.start) == MP_OK, "long blocks built");
	for (uint64_t i = 0; i + 9 <= 1000 - MP_X86_CODE_BLOCK_MIN; i += 9)
		nops &= m.base[64 + i] == 0x66 && m.base[64 + i + 1] == 0x0f;
	CHECK(nops, "the padding is 9-byte NOPs");
	CHECK(mp_x86_run(NULL, &r, &s) == MP_OK && s.end == m.base + 8192 + 100,
	      "777 blocks of 2 end before block 1");
	munmap(m.base, m.bytes);
}

/*
 * A serial chain: one-byte NOPs, then the return the return stack gets
 * wrong; it runs and continues as a predicted chain does, and refuses a
 * block under a line's worth.
 */
static void test_serial_chain(void)
{
	uint64_t offs[] = { 0, 4096 + 64, 192 };
	struct mp_mem m = { .bytes = 2 * 4096 };
	struct mp_code c = { offs, 3, MP_X86_CODE_SERIAL_MIN, true };
	struct mp_run r = { .op = MP_OP_CODE, .steps = 1000 };
	struct mp_sample s;
	int nops = 1;

	m.base = exec_map(m.bytes);
	CHECK(mp_x86_code_build(&m, &c, &r.start) == MP_OK, "serial chain built");
	for (uint64_t i = 0; i < MP_X86_CODE_SERIAL_MIN - 30; i++)
		nops &= m.base[4096 + 64 + i] == 0x90;
	CHECK(nops, "a serial block's padding is one-byte NOPs");
	CHECK(mp_x86_run(NULL, &r, &s) == MP_OK && s.end == m.base + 4096 + 64,
	      "1000 serial blocks of 3 end before block 1");
	r.start = s.end;
	r.steps = 2;
	CHECK(mp_x86_run(NULL, &r, &s) == MP_OK && s.end == m.base,
	      "and go on from there: two more end before block 0");
	c.block_bytes = MP_X86_CODE_SERIAL_MIN - 1;
	CHECK(mp_x86_code_build(&m, &c, &r.start) == MP_EIO, "a serial block under 64 bytes is refused");
	munmap(m.base, m.bytes);
}

/* The TSC's rate against the monotonic clock over 50 ms. */
static double tsc_hz(void)
{
	struct timespec t0, t1, pause = { 0, 50000000 };
	uint64_t c0, c1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	c0 = mp_x86_tsc_begin();
	nanosleep(&pause, NULL);
	c1 = mp_x86_tsc_end();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(c1 - c0) /
	       ((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
}

/*
 * The core clock measured with the TSC's real rate: within a factor of 4 of
 * that rate (an invariant TSC runs at the nominal clock; turbo and power
 * saving move the core by less), and scaled with the rate it is given.
 */
static void test_core_hz(void)
{
	double tsc = tsc_hz();
	double hz = (double)mp_x86_core_hz((uint64_t)tsc);
	double half = (double)mp_x86_core_hz((uint64_t)(tsc / 2));

	CHECK(hz > tsc / 4 && hz < tsc * 4, "core clock %.0f MHz within 4x of the TSC's %.0f MHz",
	      hz / 1e6, tsc / 1e6);
	CHECK(half > hz / 3 && half < hz * 2 / 3, "a timer half as fast gives half the clock (%.0f MHz)",
	      half / 1e6);
}

/* Ticks of one walk of a chain of n lines. */
static uint64_t walk(void *start, uint64_t n)
{
	uint64_t t0 = mp_x86_tsc_begin();

	mp_x86_chase(start, n);
	return mp_x86_tsc_end() - t0;
}

/*
 * A flushed line comes from memory: a walk after flushing every line
 * (CLFLUSHOPT here, waited for by the timed region's fence) is many times
 * slower than the same walk from the L1.  The least of several tries each.
 */
static void test_flush_line(void)
{
	enum { LINES = 256 };
	static uint64_t cells[LINES * 8] __attribute__((aligned(64)));
	uint64_t hot = UINT64_MAX, cold = UINT64_MAX;
	struct mp_rng g;
	void *start;

	mp_rng_seed(&g, 3);
	start = mp_ref_cycle((uint8_t *)cells, LINES, 64, &g);
	for (int k = 0; k < 20; k++) {
		uint64_t t;

		walk(start, LINES);
		t = walk(start, LINES);
		hot = t < hot ? t : hot;
		for (int i = 0; i < LINES; i++)
			mp_x86_flush_line(&cells[i * 8]);
		t = walk(start, LINES);
		cold = t < cold ? t : cold;
	}
	CHECK(cold > 4 * hot,
	      "flush: a walk of flushed lines is over 4 times slower (%llu, %llu ticks)",
	      (unsigned long long)cold, (unsigned long long)hot);
}

int main(void)
{
	test_flush_line();
	test_chase_loop_instructions();
	test_chase_follows_cycle();
	test_sweeps();
	test_code_chain();
	test_long_blocks();
	test_serial_chain();
	test_core_hz();
	return check_done();
}
