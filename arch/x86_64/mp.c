/* SPDX-License-Identifier: MIT */
/*
 * Two logical CPUs at once: a load beside a measured run, and a ping-pong
 * on one line (x86.h).  The CPUs talk through words in shared memory with
 * the compiler's atomic builtins; on x86-64 an aligned 32- or 64-bit load
 * or store is atomic and stores are seen in program order by other
 * processors (SDM Vol. 3A, 9.1.1 "Guaranteed Atomic Operations" and 9.2.2
 * "Memory Ordering in P6 and More Recent Processor Families"), so acquire
 * and release cost no fence here.  Each wait spins with PAUSE.
 */
#include "arch/x86_64/x86.h"

enum { B_IDLE = 0, B_LOADING, B_STOP, B_STOPPED };

static uint32_t load32(const volatile uint32_t *w)
{
	return __atomic_load_n(w, __ATOMIC_ACQUIRE);
}

static void store32(volatile uint32_t *w, uint32_t v)
{
	__atomic_store_n(w, v, __ATOMIC_RELEASE);
}

static void wait32(const volatile uint32_t *w, uint32_t v)
{
	while (load32(w) != v)
		mp_x86_pause();
}

void mp_x86_beside_load(struct mp_x86_beside *b)
{
	struct mp_sample s;

	b->load_status = MP_OK;
	b->loads = 0;
	store32(&b->state, B_LOADING);
	while (load32(&b->state) == B_LOADING) {
		enum mp_status st = mp_x86_run(NULL, b->load, &s);

		if (st != MP_OK && b->load_status == MP_OK)
			b->load_status = st;
		b->loads++;
	}
	store32(&b->state, B_STOPPED);
}

enum mp_status mp_x86_beside_run(struct mp_x86_beside *b, const struct mp_x86_pmc *pmc,
				 const struct mp_run *r, struct mp_sample *s)
{
	enum mp_status st;

	wait32(&b->state, B_LOADING);
	st = mp_x86_run(pmc, r, s);
	store32(&b->state, B_STOP);
	wait32(&b->state, B_STOPPED);
	if (st == MP_OK && (b->load_status != MP_OK || b->loads == 0))
		st = MP_EIO;
	return st;
}

/* Wait until *line holds v. */
static void wait64(uint64_t *line, uint64_t v)
{
	while (__atomic_load_n(line, __ATOMIC_ACQUIRE) != v)
		mp_x86_pause();
}

void mp_x86_pingpong_side(struct mp_x86_pingpong *pp, bool first)
{
	uint64_t t0 = 0;

	__atomic_add_fetch(&pp->arrived, 1, __ATOMIC_ACQ_REL);
	wait32(&pp->arrived, 2);
	if (first)
		t0 = mp_x86_tsc_begin();
	for (uint64_t i = 0; i < pp->rounds; i++) {
		uint64_t odd = 2 * i + 1;

		if (first) {
			__atomic_store_n(pp->line, odd, __ATOMIC_RELEASE);
			wait64(pp->line, odd + 1);
		} else {
			wait64(pp->line, odd);
			__atomic_store_n(pp->line, odd + 1, __ATOMIC_RELEASE);
		}
	}
	if (first)
		pp->ticks = mp_x86_tsc_end() - t0;
}
