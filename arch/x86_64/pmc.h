/* SPDX-License-Identifier: MIT */
/*
 * The counters by MSR, for ring 0 (the UEFI application): the chosen PMU
 * (pmu.h) checked register by register, then programmed and read for the
 * runs, as the counter backend of arch/x86_64/x86.h.  Every access goes
 * through an mp_msr_io, the fault-safe instructions on bare metal (msr.h)
 * and a fake register file in the tests.
 *
 * Opening checks each counter before offering its events: its event
 * select must take a value without a fault and read it back (emulators
 * such as QEMU under TCG ignore writes to MSRs they lack and read them as
 * zero), and with the cycles event enabled it must count across some work.
 * An event is offered when a counter that passed can count it and, for a
 * general counter, its event select value is accepted too.
 */
#ifndef MEMPROBE_ARCH_X86_64_PMC_H
#define MEMPROBE_ARCH_X86_64_PMC_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86_64/msr.h"
#include "arch/x86_64/pmu.h"
#include "arch/x86_64/x86.h"

/* General counters handled: Intel's architectural maximum (CPUID.0AH:EAX[15:8] is 8 bits,
 * but no CPU has more than 8 per logical processor; pmu_events.c caps at max_gp). */
#define MP_PMC_GP_MAX 8u
#define MP_PMC_FIXED_MAX 4u
/* A counted event's place: a general counter index, or MP_PMC_FIXED + fixed counter index. */
#define MP_PMC_FIXED 16
#define MP_PMC_NONE (-1)

struct mp_pmc {
	struct mp_pmu pmu;
	struct mp_msr_io io;
	uint32_t gp_ok;            /* general counters that passed */
	uint32_t fixed_ok;         /* fixed counters that passed */
	uint32_t events;           /* MP_EV_BIT mask offered */
	uint32_t asked, armed;     /* the last arm() request and what it got */
	int8_t place[MP_EV_COUNT]; /* where each armed event counts */
	char why[128];             /* no events: the reason */
	/* the registers as the firmware left them, put back by mp_pmc_close */
	bool saved;
	uint64_t sel[MP_PMC_GP_MAX], fixed_ctrl, global_ctrl;
};

/*
 * Choose and check the counters of this CPU; `work` runs some thousand
 * instructions and cycles between two counter reads.  Returns the events
 * offered (also in k->events); 0 with k->why saying why.
 */
uint32_t mp_pmc_open(struct mp_pmc *k, const struct mp_pmu_cpu *cpu, const struct mp_msr_io *io,
		     void (*work)(void));

/*
 * Program the counters for `want` (a subset of k->events) unless they
 * already count it.  Returns the events armed: in enum order, each on its
 * fixed counter where it has one, else on the next general counter; the
 * events beyond the counters are left out.
 */
uint32_t mp_pmc_arm(struct mp_pmc *k, uint32_t want);

/* The armed events of `want`: their counters' values. */
void mp_pmc_read(struct mp_pmc *k, uint32_t want, uint64_t out[MP_EV_COUNT]);

/* Stop counting and put back the firmware's registers. */
void mp_pmc_close(struct mp_pmc *k);

/* The backend for mp_x86_run. */
void mp_pmc_backend(struct mp_pmc *k, struct mp_x86_pmc *out);

/* A short name of an event for messages ("L1D-miss"). */
const char *mp_pmc_event_name(enum mp_event e);

#endif
