/* SPDX-License-Identifier: MIT */
/*
 * The timing discipline every timing probe uses.
 *
 * A chase is timed in bounded windows (interrupts masked where the platform
 * can), repeated until its minimum has not improved for a number of runs,
 * and the minimum is kept: interference only ever adds time (Cooper-Xu
 * 3.1, lmbench).  A chase continues from where the previous window ended,
 * so a long cycle is walked whole even when one window covers only part.
 */
#ifndef MEMPROBE_CORE_MEASURE_H
#define MEMPROBE_CORE_MEASURE_H

#include "core/suite.h"

/*
 * Runs without a new minimum before the minimum is accepted.  Cooper-Xu
 * used 25 (section 3.1); the quick profile trades some noise resistance
 * for time.
 */
#define MP_STABLE_RUNS_FULL 25u
#define MP_STABLE_RUNS_QUICK 6u
/* A measurement gives up improving after this many runs, stable or not. */
#define MP_MAX_RUNS 400u
/*
 * Loads per timed window.  At a memory latency of ~300 ns this keeps a
 * window near 5 ms: short enough that masked interrupts starve no firmware
 * timer, long enough that the timer's granularity is < 0.1% of it.
 */
#define MP_WINDOW_STEPS 16384u

struct mp_chase {
	void *cursor;          /* where the next window starts */
	uint64_t length;       /* elements in the cycle */
	const char *region;    /* name for the simulator's causes of misses */
};

/* Walk the whole cycle once, untimed, so that the timed runs see steady state. */
enum mp_status mp_chase_warm(struct mp_ctx *c, struct mp_chase *ch);

/* Minimum ticks per access over repeated windows. */
enum mp_status mp_chase_min(struct mp_ctx *c, struct mp_chase *ch, double *ticks_per_access);

/* Conversions; NaN when the platform does not know the clock. */
double mp_ticks_to_cycles(const struct mp_platform *p, double ticks);
double mp_cycles_to_ns(const struct mp_platform *p, double cycles);
double mp_ticks_to_ns(const struct mp_platform *p, double ticks);

/* Seconds since `t0` (a value of mp_now). */
double mp_seconds_since(struct mp_platform *p, uint64_t t0);

#endif
