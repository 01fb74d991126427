/* SPDX-License-Identifier: MIT */
/*
 * The multi-level cache test's response curve (Cooper-Xu 3.3): Cooper-Xu's
 * C(k) reference string timed over a range of footprints k with the sweep
 * discipline of core/measure/timing.h, then the step analysis of core/measure/steps.h.
 * The "latency" probe runs it over a small range, the "levels" probe over
 * the whole hierarchy.
 */
#ifndef MEMPROBE_CORE_MEASURE_FOOTPRINT_H
#define MEMPROBE_CORE_MEASURE_FOOTPRINT_H

#include "core/measure/steps.h"
#include "core/measure/timing.h"

/*
 * Element spacing.  Cooper-Xu use the L1 line.  Where a lower level has
 * longer lines (128 bytes under a 64-byte L1: Itanium 2, POWER, Apple), two
 * elements share its line, and inside a row the second comes round while
 * the first still holds the line there: a level's plateau would sit half a
 * level too low.  So the footprints of the L1 and just above it (up to
 * fine_upto) are built on the L1's line and the larger ones on the longest
 * line of the hierarchy.  When no line is known: one per 64 bytes, the
 * smallest line of the modelled and the x86 caches.
 */
#define MP_FOOTPRINT_DEFAULT_LINE 64u

/*
 * Element spacing on the L1's line: as the "l1" probe measured it, else as
 * documented, else MP_FOOTPRINT_DEFAULT_LINE.  A longer spacing than the
 * L1's line would leave sets of it unused, and strings the L1 should hold
 * would not fit.
 */
uint64_t mp_footprint_l1_line(struct mp_result *r);
/* The same for either side: the L1 data or the L1 instruction cache's line. */
uint64_t mp_footprint_l1_line_of(struct mp_result *r, enum mp_kind side);
/*
 * Footprints: Cooper-Xu's sample points, each power of two with three
 * points evenly spaced before the next (2^k x 1, 1.25, 1.5, 1.75).  They
 * hit 48K, 96K, 1.25M, 3M, 6M, 24M, the common sizes that are not powers
 * of two.
 */
#define MP_FOOTPRINT_PER_DOUBLING 4u
/*
 * Above MP_FOOTPRINT_COARSE_BYTES only the powers of two and the midpoints
 * (2^k x 1, 1.5) are swept: only a shared last level lives there, every
 * point costs a walk of many megabytes, and the refinement brings the
 * wider bracket (1.5 instead of 1.25) within a few percent.
 */
#define MP_FOOTPRINT_COARSE_BYTES (8ull << 20)
/* Cooper-Xu's lower bound for the whole multi-level test. */
#define MP_FOOTPRINT_MIN_BYTES 1024u
/* Fit tests while refining a transition: each halves the bracket (AMP 3.2
 * and X-Ray refine between the last fit and the first failure). */
#define MP_FOOTPRINT_REFINE_STEPS 3u
/*
 * A fit test of a footprint of more than MP_WINDOW_STEPS lines times one
 * pass after the warming walk, not the minimum of several: such a pass
 * spans many windows, so a disturbance moves it little, and each costs a
 * walk of the whole footprint (seconds at the last level of a large
 * machine in the simulator).  Shorter footprints take the minimum of
 * passes until mp_stable_runs() bring no new one.
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
 * Rows of C(k).  Cooper-Xu walk one page (a row) at a time, every line of
 * it in shuffled order, so that a pass takes one TLB miss per page however
 * large the footprint.  A row of many pages keeps that property as long as
 * the first-level data TLB holds the whole row, and it walks a run of
 * neighbouring lines far less often: an adjacent-line prefetcher then finds
 * little to fetch ahead, and a pseudo-LRU set is not fed the same lines in
 * the same order page after page (which on a tree PLRU makes a footprint
 * just over the capacity look like it fits).  So a row is half the reach of
 * the first-level data TLB (MP_FOOTPRINT_ROW_PAGES pages when its entries are not
 * documented, fewer than any data TLB we know of has).
 */
#define MP_FOOTPRINT_ROW_PAGES 16u


/* The smallest footprint of the grid at or above x. */
uint64_t mp_footprint_grid_ceil(uint64_t x, uint64_t line);

/* The footprints of the grid in [lo, hi]; returns how many (at most max). */
uint32_t mp_footprint_grid(uint64_t lo, uint64_t hi, uint64_t line, uint64_t *out, uint32_t max);

/*
 * Sweep C(k) over the grid footprints of [k->lo, k->hi] through memory m
 * (at least hi bytes) and analyse the curve.  Each visit empties the
 * caches where the platform can, builds a fresh string (Cooper-Xu 3.3:
 * "recreating the reference string at each size and trial"), walks it once
 * to warm the caches (not above cold_above) and times whole passes.
 */
enum mp_status mp_footprint_sweep(struct mp_ctx *c, struct mp_mem *m, const char *what,
			   struct mp_ck *k);
/*
 * The largest footprint in (k.bytes[plateau.last], k.bytes[plateau.last+1])
 * that still runs at the level of plateau i, found by halving the bracket
 * MP_FOOTPRINT_REFINE_STEPS times: the effective capacity of level i + 1 ("the
 * amount of memory ... an application can use before the access latency
 * begins to rise", Cooper-Xu section 1).  A footprint still fits while its
 * time stays within MP_FOOTPRINT_FIT_RISE, or three times the curve's noise scale,
 * of the plateau's highest point (on a clean plateau its last; on a noisy
 * one the noise within it, which a single pass of a long footprint shows
 * as much as the sweep's points did): a few lines too many in a few sets
 * of an LRU cache already cost more than that.  A footprint larger
 * than cold_above (all the documented caches together) cannot fit and is
 * not measured.
 */
#define MP_FOOTPRINT_FIT_RISE 0.01
enum mp_status mp_footprint_refine(struct mp_ctx *c, struct mp_mem *m, const struct mp_ck *k,
			    int32_t i, uint64_t *bytes);

/* Analyse k's curve again (after points were added to it). */
void mp_footprint_analyse(struct mp_ck *k);

/* Append b's points (all above a's) to a; false when they do not fit. */
bool mp_footprint_append(struct mp_ck *a, const struct mp_ck *b);

/*
 * Memory latency measured directly: a pass over lines spread over the
 * first row of m (one every MP_FOOTPRINT_MEMORY_GAP lines, so an adjacent-line
 * prefetcher fetches none of them ahead; at most MP_FOOTPRINT_MEMORY_LINES), each
 * flushed from every cache first (flush_line), so every load goes to
 * memory and none misses the TLB; the minimum over passes by the
 * single-point discipline.  A C(k) curve approaches memory latency only
 * slowly past the last level when that level does not replace in LRU
 * order, so the curve alone cannot give it.  MP_UNSUPPORTED when the
 * platform cannot flush a line.
 */
#define MP_FOOTPRINT_MEMORY_GAP 4u
#define MP_FOOTPRINT_MEMORY_LINES 4096u
enum mp_status mp_footprint_memory(struct mp_ctx *c, struct mp_mem *m, const struct mp_ck *k,
			    double *ticks);

/* Ticks of one level as cycles and nanoseconds (NaN where unknown). */
void mp_footprint_latency(const struct mp_platform *p, double ticks, double *cycles, double *ns);

#endif
