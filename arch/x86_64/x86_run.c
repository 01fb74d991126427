/* SPDX-License-Identifier: MIT */
/* The seam operations shared by the bare-metal and Linux platforms. */
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/x86.h"

/* Dependent adds timed for the core-clock estimate: long enough that the
 * TSC's granularity and the call overhead vanish (under 1 ms at 4 GHz). */
#define CORE_HZ_ADDS 2000000u

static void pmc_read(const struct mp_x86_pmc *pmc, uint32_t want, uint64_t out[MP_EV_COUNT])
{
	if (pmc && want)
		pmc->read(pmc->arg, want, out);
}

static enum mp_status run_kernel(const struct mp_run *r, struct mp_sample *s)
{
	switch (r->op) {
	case MP_OP_CHASE:
		s->end = mp_x86_chase(r->start, r->steps);
		return MP_OK;
	case MP_OP_LOAD_SWEEP:
		mp_x86_load_sweep(r->start, r->stride, r->count, r->steps);
		return MP_OK;
	case MP_OP_STORE_SWEEP:
		mp_x86_store_sweep(r->start, r->stride, r->count, r->steps);
		return MP_OK;
	case MP_OP_CODE:
		s->end = mp_x86_code_run(r->start, r->steps);
		return MP_OK;
	case MP_OP_KERNEL:
		if (r->steps)
			mp_x86_kernel_run(r->start, r->steps);
		return MP_OK;
	default:
		return MP_UNSUPPORTED;
	}
}

enum mp_status mp_x86_run(const struct mp_x86_pmc *pmc, const struct mp_run *r,
			  struct mp_sample *s)
{
	uint32_t want = pmc ? (r->events & pmc->events) : 0;
	uint64_t before[MP_EV_COUNT] = { 0 };
	uint64_t after[MP_EV_COUNT] = { 0 };
	enum mp_status st;
	uint64_t t0, t1;

	if ((r->op == MP_OP_LOAD_SWEEP || r->op == MP_OP_STORE_SWEEP) && r->count == 0)
		return MP_EIO;
	if (want && pmc->arm)
		want = pmc->arm(pmc->arg, want);
	pmc_read(pmc, want, before);
	t0 = mp_x86_tsc_begin();
	st = run_kernel(r, s);
	t1 = mp_x86_tsc_end();
	pmc_read(pmc, want, after);
	s->ticks = t1 - t0;
	s->valid = want;
	for (unsigned e = 0; e < MP_EV_COUNT; e++)
		s->count[e] = (want & MP_EV_BIT(e)) ? after[e] - before[e] : 0;
	return st;
}

static bool has_clflushopt(void)
{
	static int has = -1;

	if (has < 0) {
		struct mp_cpuid c;

		mp_cpuid_open(&c, mp_cpuid_hw, NULL);
		has = mp_cpuid_has_clflushopt(&c);
	}
	return has;
}

enum mp_status mp_x86_flush_line(const void *addr)
{
	if (has_clflushopt())
		mp_x86_clflushopt(addr);
	else
		mp_x86_clflush(addr);
	return MP_OK;
}

uint64_t mp_x86_core_hz(uint64_t tick_hz)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 5; i++) {
		uint64_t t0 = mp_x86_tsc_begin();

		mp_x86_add_chain(CORE_HZ_ADDS);
		uint64_t t = mp_x86_tsc_end() - t0;
		if (t < best)
			best = t;
	}
	if (best == 0)
		return 0;
	return (uint64_t)((double)CORE_HZ_ADDS * (double)tick_hz / (double)best);
}
