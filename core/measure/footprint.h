/* SPDX-License-Identifier: MIT */
/*
 * The multi-level cache test's response curve (Cooper-Xu 3.3): C(k) timed
 * over a range of footprints k with the sweep discipline (timing.h), then
 * the step analysis (steps.h).  docs/algorithms.md, "Multi-level caches".
 */
#ifndef MEMPROBE_CORE_MEASURE_FOOTPRINT_H
#define MEMPROBE_CORE_MEASURE_FOOTPRINT_H

#include "core/measure/steps.h"
#include "core/measure/timing.h"

/* Element spacing when no line is known: the smallest line of the modelled and the x86 caches. */
#define MP_FOOTPRINT_DEFAULT_LINE 64u

/*
 * Element spacing on the L1's line: as the "l1" probe measured it, else as
 * documented, else MP_FOOTPRINT_DEFAULT_LINE.
 */
uint64_t mp_footprint_l1_line(struct mp_result *r);
/* The same for either side: the L1 data or the L1 instruction cache's line. */
uint64_t mp_footprint_l1_line_of(struct mp_result *r, enum mp_kind side);
/*
 * Footprints: each power of two and three points evenly between
 * (2^k x 1, 1.25, 1.5, 1.75), Cooper-Xu's sample points.
 */
#define MP_FOOTPRINT_PER_DOUBLING 4u
/* Above MP_FOOTPRINT_COARSE_BYTES only 2^k x 1 and 1.5 are swept. */
#define MP_FOOTPRINT_COARSE_BYTES (8ull << 20)
/* Cooper-Xu's lower bound for the whole multi-level test. */
#define MP_FOOTPRINT_MIN_BYTES 1024u
/* Fit tests while refining a transition: each halves the bracket. */
#define MP_FOOTPRINT_REFINE_STEPS 3u
/*
 * Fit tests of footprints of more than MP_WINDOW_STEPS lines time one pass
 * after the warming walk; shorter ones take the minimum of passes until
 * mp_stable_runs() bring no new one.
 */

struct mp_ck {
	/* What to sweep: set by the caller. */
	uint64_t lo, hi;                 /* footprint range */
	uint64_t line;                   /* element spacing: the longest line of the levels */
	uint64_t fine_line;              /* spacing up to fine_upto bytes: the L1's line */
	uint64_t fine_upto;
	uint64_t row;                    /* bytes of a row of C(k): see MP_FOOTPRINT_ROW_PAGES */
	uint64_t cold_above;             /* no warming walk above this footprint; 0: always */
	double budget_s;                 /* time bound of the sweep; 0: none */
	/*
	 * The time per access the curve cannot exceed (memory latency): the
	 * sweep ends past the first footprint that reaches it (mp_sweep_reach),
	 * and so does the curve.  0: none.
	 */
	double ceiling;
	/*
	 * Fetches instead of loads (m executable): every row one straight block
	 * of code_row bytes (AMP 3.8's straight-line code), the rows in shuffled
	 * order; line and fine_line are code_row then.  0: loads.
	 */
	uint64_t code_row;
	/* What it found. */
	uint32_t n;
	uint64_t bytes[MP_SWEEP_MAX];
	double ticks[MP_SWEEP_MAX];      /* minimum ticks per load */
	uint32_t runs[MP_SWEEP_MAX];     /* runs each footprint took */
	uint32_t sweeps;
	double memory;                   /* memory latency in ticks (mp_footprint_memory), NaN: unknown */
	struct mp_steps steps;           /* the analysis of ticks[] */
	bool timed_out;                  /* some points never settled */
};

/*
 * Rows of C(k): half the reach of the first-level data TLB, or
 * MP_FOOTPRINT_ROW_PAGES pages when its entries are not documented
 * (docs/algorithms.md, "Multi-level caches").
 */
#define MP_FOOTPRINT_ROW_PAGES 16u


/* The smallest footprint of the grid at or above x. */
uint64_t mp_footprint_grid_ceil(uint64_t x, uint64_t line);

/* The footprints of the grid in [lo, hi]; returns how many (at most max). */
uint32_t mp_footprint_grid(uint64_t lo, uint64_t hi, uint64_t line, uint64_t *out, uint32_t max);

/*
 * Sweep C(k) over the grid footprints of [k->lo, k->hi] through memory m
 * (at least hi bytes) and analyse the curve.  Each visit empties the
 * caches where the platform can, builds a fresh string, walks it once to
 * warm the caches (not above cold_above) and times whole passes.
 */
enum mp_status mp_footprint_sweep(struct mp_ctx *c, struct mp_mem *m, const char *what,
			   struct mp_ck *k);
/*
 * The largest footprint in (k.bytes[plateau.last], k.bytes[plateau.last+1])
 * that still runs at the level of plateau i, found by halving the bracket
 * MP_FOOTPRINT_REFINE_STEPS times: the effective capacity of level i + 1.
 * A footprint, timed by the sweep's rule for its length, fits while its
 * time stays within MP_FOOTPRINT_FIT_RISE, or three times the noise scale
 * (the plateau's or the curve's, the larger), of the plateau's highest
 * point; one larger than cold_above cannot fit and is not measured.
 */
#define MP_FOOTPRINT_FIT_RISE 0.01
enum mp_status mp_footprint_refine(struct mp_ctx *c, struct mp_mem *m, const struct mp_ck *k,
			    int32_t i, uint64_t *bytes);

/* Analyse k's curve again (after points were added to it). */
void mp_footprint_analyse(struct mp_ck *k);

/* Append b's points (all above a's) to a; false when they do not fit. */
bool mp_footprint_append(struct mp_ck *a, const struct mp_ck *b);

/*
 * Memory latency measured directly: the minimum over passes over lines
 * spread over the first row of m (one every MP_FOOTPRINT_MEMORY_GAP lines,
 * at most MP_FOOTPRINT_MEMORY_LINES), each flushed from every cache first.
 * MP_UNSUPPORTED when the platform cannot flush a line.
 */
#define MP_FOOTPRINT_MEMORY_GAP 4u
#define MP_FOOTPRINT_MEMORY_LINES 4096u
enum mp_status mp_footprint_memory(struct mp_ctx *c, struct mp_mem *m, const struct mp_ck *k,
			    double *ticks);

/* Ticks of one level as cycles and nanoseconds (NaN where unknown). */
void mp_footprint_latency(const struct mp_platform *p, double ticks, double *cycles, double *ns);

#endif
