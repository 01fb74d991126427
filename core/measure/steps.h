/* SPDX-License-Identifier: MIT */
/*
 * Step analysis of a response curve: a cost against a size that grows
 * geometrically, piecewise linear in log-log terms: plateaus (one per
 * level, possibly drifting slowly) joined by steep rises (the transitions).
 * It finds every transition and the plateau on either side, robust to
 * spikes and noise; the multi-level cache test and the TLB test use it.
 * docs/algorithms.md, "Multi-level caches", step analysis, gives the
 * thresholds.
 */
#ifndef MEMPROBE_CORE_MEASURE_STEPS_H
#define MEMPROBE_CORE_MEASURE_STEPS_H

#include <stdint.h>

#include "core/lib/fmath.h"

/* A rise counts as steep above this slope, in log2(y) per doubling of x. */
#define MP_STEP_MIN_SLOPE 0.25
/*
 * Noise guard: a steep step also climbs more than this many times the
 * curve's median step-to-step change.
 */
#define MP_STEP_NOISE_K 3.0
/*
 * Least rise of a transition, as a fraction of the lower plateau (the
 * min_rise argument): for TLB curves and for cache curves.
 */
#define MP_STEP_MIN_RISE_TLB 0.10
#define MP_STEP_MIN_RISE_CACHE 0.50
/*
 * Steep runs separated by fewer flat grid steps than min_flat are one
 * transition: for cache curves and for TLB curves.
 */
#define MP_STEP_MIN_FLAT_CACHE 2
#define MP_STEP_MIN_FLAT_TLB 1
/*
 * Where a transition starts: the last point still below this fraction of
 * the step (in log terms) above the lower plateau's local level.
 */
#define MP_STEP_EDGE 0.25
#define MP_STEPS_MAX 8

struct mp_plateau {
	int32_t first, last;    /* point indices, inclusive */
	double level;           /* median of its (despiked) points */
	double upper;           /* median of its upper half: less diluted by the level above */
	double high;            /* its despiked value at `last` */
	double peak;            /* its largest despiked value (noise within it) */
	double noise;           /* median |log2 ratio| of its neighbouring points */
};

struct mp_steps {
	int32_t nsteps;                              /* transitions found */
	struct mp_plateau plateau[MP_STEPS_MAX + 1]; /* plateau i is below transition i */
	double noise;                                /* median |log2 ratio| of neighbours */
};

/*
 * Analyse n points (x ascending, y > 0).  Returns the number of
 * transitions; transition i lies between point plateau[i].last and point
 * plateau[i + 1].first.
 */
int32_t mp_steps_find(const double *x, const double *y, int32_t n, double min_rise,
		      int32_t min_flat, struct mp_steps *out);

/*
 * Add the curve's known asymptote `top` (a level measured directly, such
 * as memory latency): when the last plateau lies min_rise or more below
 * it, the curve's climb out of that plateau, even if it has not reached
 * `top` within the range, is one more transition.  Its upper plateau has
 * level `top` and holds the points after the climb started; it is empty
 * (first = n) when the curve never left the plateau.  The climb starts
 * after the last point within MP_STEP_EDGE of the step above the median of
 * the plateau's lower half: a climb the curve ends in is part of its last
 * plateau and lifts the whole plateau's median.  Returns nsteps.
 */
int32_t mp_steps_top(const double *x, const double *y, int32_t n, double top, double min_rise,
		     struct mp_steps *out);

/*
 * The highest plateau level after transition k: the most a level whose
 * boundary is transition k can reach by taking in the transitions above.
 */
double mp_steps_highest_after(const struct mp_steps *st, int32_t k);

#endif
