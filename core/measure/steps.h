/* SPDX-License-Identifier: MIT */
/*
 * Step analysis of a response curve: latency (or any cost) against a size
 * that grows geometrically, piecewise linear in log-log terms: plateaus
 * (one per level of the hierarchy, possibly drifting slowly) joined by
 * steep rises (the transitions).  It finds every transition and the
 * plateau on either side, robust to isolated spikes and to run-to-run
 * noise.  The multi-level cache test and the TLB test both use it
 * (Cooper-Xu section 4: "an automatic, conservative and robust analysis").
 * docs/algorithms.md explains the thresholds.
 */
#ifndef MEMPROBE_CORE_MEASURE_STEPS_H
#define MEMPROBE_CORE_MEASURE_STEPS_H

#include <stdint.h>

#include "core/lib/fmath.h"

/*
 * A rise of the curve counts as steep when it climbs faster than this, in
 * log2(y) per doubling of x: 0.25 is +19% per doubling.  A plateau that
 * drifts slower (a shared last-level cache losing lines to neighbours, a
 * TLB's page walks hitting caches less often) stays one plateau.
 */
#define MP_STEP_MIN_SLOPE 0.25
/*
 * Noise guard: a step also has to climb more than this many times the
 * curve's typical step-to-step change (its median, a robust noise scale).
 */
#define MP_STEP_NOISE_K 3.0
/*
 * A transition must lift the curve by at least a given fraction of the
 * lower plateau (the min_rise argument).  For TLB curves the smallest real
 * step is a first-level TLB miss that hits the second level: one cycle on
 * a four-cycle L1 hit (+25%), so MP_STEP_MIN_RISE_TLB = 10%.  Cache levels
 * are at least twice as slow as the level above (X-Ray 4.5 assumes
 * l_{i+1} >= 2 l_i); MP_STEP_MIN_RISE_CACHE = 50% leaves room for a
 * diluted, gradual step while ignoring the drift of DRAM latency with the
 * footprint.
 */
#define MP_STEP_MIN_RISE_TLB 0.10
#define MP_STEP_MIN_RISE_CACHE 0.50
/*
 * Steep runs separated by fewer flat grid steps than min_flat are one
 * transition.  A cache level spans at least a doubling of the size (X-Ray
 * 4.5: C_{i+1} >= 2 C_i), several sweep points: MP_STEP_MIN_FLAT_CACHE.
 * A TLB curve also shows the cache boundaries of its lines, which may fall
 * a single grid step from a TLB boundary (2048 lines of L1 under a
 * 3072-entry TLB): MP_STEP_MIN_FLAT_TLB.
 */
#define MP_STEP_MIN_FLAT_CACHE 2
#define MP_STEP_MIN_FLAT_TLB 1
/*
 * Where a transition starts: the last point still below this fraction of
 * the step (in log terms) above the lower plateau's local level.  A quarter
 * keeps "the size before the latency begins to rise" (Cooper-Xu's
 * effective capacity) while a gradual rise, as random replacement gives,
 * counts from its first clear step.
 */
#define MP_STEP_EDGE 0.25
#define MP_STEPS_MAX 8

struct mp_plateau {
	int32_t first, last;    /* point indices, inclusive */
	double level;           /* median of its (despiked) points */
	double upper;           /* median of its upper half: less diluted by the level above */
	double high;            /* its despiked value at `last` */
	double peak;            /* its largest despiked value (noise within it) */
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
 * (first = n) when the curve never left the plateau.  Returns nsteps.
 */
int32_t mp_steps_top(const double *x, const double *y, int32_t n, double top, double min_rise,
		     struct mp_steps *out);

#endif
