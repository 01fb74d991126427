/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 measurement kernels and the parts of the platform seam that
 * the bare-metal and Linux platforms share: running a reference string,
 * flushing a line, building a chain of code blocks.
 */
#ifndef MEMPROBE_ARCH_X86_64_X86_H
#define MEMPROBE_ARCH_X86_64_X86_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86_64/isa.h"
#include "core/platform.h"

/* Kernels (kernels.S).  Each is a fixed instruction sequence: see the file. */
uint64_t mp_x86_tsc_begin(void);  /* lfence; rdtsc: nothing earlier is still running */
uint64_t mp_x86_tsc_end(void);    /* lfence; rdtsc; lfence: everything earlier has finished */
void *mp_x86_chase(void *start, uint64_t steps);
void mp_x86_load_sweep(const void *base, uint64_t stride, uint64_t count, uint64_t steps);
void mp_x86_store_sweep(void *base, uint64_t stride, uint64_t count, uint64_t steps);
/* Run `steps` blocks of a chain from entry; the block after the last one run. */
void *mp_x86_code_run(void *entry, uint64_t steps);
/* Run an arithmetic kernel for steps > 0 iterations. */
void mp_x86_kernel_run(void *entry, uint64_t steps);
/* CPUID as a serializing instruction: after writing code, before running it. */
void mp_x86_serialize(void);
/* XGETBV: extended control register xcr (only where CPUID says OSXSAVE). */
uint64_t mp_x86_xgetbv(uint32_t xcr);
/* `n` dependent register additions: n core cycles on every x86-64 core. */
void mp_x86_add_chain(uint64_t n);
void mp_x86_clflush(const void *addr);
void mp_x86_clflushopt(const void *addr);

/*
 * A counter backend: the Linux command reads perf_event counters, the UEFI
 * application programs MSRs (arch/x86_64/pmc.h).  `arm`, where there is
 * one, makes the counters count `want` (a subset of `events`) before a run
 * and returns the events it could arrange: fewer when they outnumber the
 * counters; without it every event counts all the time.  `read` fills
 * out[e] for every event e in `want` (a subset of what arm returned).
 */
struct mp_x86_pmc {
	uint32_t events;
	uint32_t (*arm)(void *arg, uint32_t want);
	void (*read)(void *arg, uint32_t want, uint64_t out[MP_EV_COUNT]);
	void *arg;
};

/* The shared seam operations; pmc may be NULL (no counters). */
enum mp_status mp_x86_run(const struct mp_x86_pmc *pmc, const struct mp_run *r,
			  struct mp_sample *s);
/*
 * CLFLUSHOPT where the CPU has it: flushes overlap instead of each waiting
 * for the last (on this guest 22 ticks a line against 170 to 420), and the
 * next timed run's mfence (mp_x86_tsc_begin) waits for them all; else
 * CLFLUSH and MFENCE.
 */
enum mp_status mp_x86_flush_line(const void *addr);
/* Code generation (code.c, arith.c): the seam's code_build and kernel_build. */
#define MP_X86_CODE_BLOCK_MIN 17u       /* the tail of a block: see code.c */
#define MP_X86_CODE_SERIAL_MIN 64u      /* a serial block: a line of 44 instructions (code.c) */
enum mp_status mp_x86_code_build(struct mp_mem *m, const struct mp_code *c, void **entry);
enum mp_status mp_x86_kernel_build(const struct mp_x86_isa *isa, struct mp_mem *m,
				   const struct mp_kernel *k, void **entry);
/* Fill `bytes` at `at` with the recommended multi-byte NOPs; returns bytes. */
uint64_t mp_x86_nop_fill(uint8_t *at, uint64_t bytes);
/* The rel32 at `at` that takes an instruction ending at `from` to `to`. */
void mp_x86_put_rel32(uint8_t *at, const uint8_t *from, const uint8_t *to);

/* A spin-wait hint (SDM Vol. 2B, PAUSE): the waiting thread leaves its core's sibling the
 * pipeline and does not flood the memory order buffer. */
static inline void mp_x86_pause(void)
{
	__asm__ volatile("pause");
}

/*
 * Two logical CPUs at once (mp.c), for the seam's run_beside and pingpong:
 * the platform puts one function on each CPU (a pinned thread, an AP) and
 * these do the rest through words in shared memory.
 *
 * run_beside: `other` runs mp_x86_beside_load, which performs `load` over
 * and over until told to stop; the measuring CPU runs mp_x86_beside_run,
 * which waits until the load has started, performs `r`, then stops the
 * load and waits until it has.
 */
struct mp_x86_beside {
	const struct mp_run *load;
	volatile uint32_t state;       /* enum in mp.c: idle, loading, stop asked, stopped */
	enum mp_status load_status;    /* the first failed load's, else MP_OK */
	uint64_t loads;                /* load runs performed */
};

void mp_x86_beside_load(struct mp_x86_beside *b);
enum mp_status mp_x86_beside_run(struct mp_x86_beside *b, const struct mp_x86_pmc *pmc,
				 const struct mp_run *r, struct mp_sample *s);

/*
 * pingpong: each of the two CPUs runs mp_x86_pingpong_side, `first` on a;
 * they meet, then take turns on *line as the seam says, and a times the
 * rounds (ticks).
 */
struct mp_x86_pingpong {
	uint64_t *line;
	uint64_t rounds;
	uint64_t ticks;
	volatile uint32_t arrived;
};

void mp_x86_pingpong_side(struct mp_x86_pingpong *pp, bool first);

/* Core clock in Hz, from a timed dependent-add chain (0 if the timer is too coarse). */
uint64_t mp_x86_core_hz(uint64_t tick_hz);

#endif
