/* SPDX-License-Identifier: MIT */
/*
 * The multi-level cache test's response curve (Cooper-Xu 3.3): Cooper-Xu's
 * C(k) reference string timed over a range of footprints k with the sweep
 * discipline of core/measure.h, then the step analysis of core/analysis.h.
 * The "latency" probe runs it over a small range, the "levels" probe over
 * the whole hierarchy.
 */
#ifndef MEMPROBE_CORE_CKSWEEP_H
#define MEMPROBE_CORE_CKSWEEP_H

#include "core/analysis.h"
#include "core/measure.h"

/*
 * Element spacing when the L1 line is not known yet: one per 64 bytes, the
 * smallest line of the modelled and the x86 caches; a longer line only
 * lets two elements share it, which makes the curve rise at the same
 * footprint (Cooper-Xu use the L1 line measured first).
 */
#define MP_CK_DEFAULT_LINE 64u
/*
 * Footprints: Cooper-Xu's sample points, each power of two with three
 * points evenly spaced before the next (2^k x 1, 1.25, 1.5, 1.75).  They
 * hit 48K, 96K, 1.25M, 3M, 6M, 24M, the common sizes that are not powers
 * of two.
 */
#define MP_CK_PER_DOUBLING 4u
/* Cooper-Xu's lower bound for the whole multi-level test. */
#define MP_CK_MIN_BYTES 1024u
/* Fit tests while refining a transition: each halves the bracket (AMP 3.2
 * and X-Ray refine between the last fit and the first failure). */
#define MP_CK_REFINE_STEPS 4u

struct mp_ck {
	/* What to sweep: set by the caller. */
	uint64_t lo, hi;                 /* footprint range */
	uint64_t line;                   /* element spacing */
	uint64_t cold_above;             /* no warming walk above this footprint; 0: always */
	double budget_s;                 /* time bound of the sweep; 0: none */
	/* What it found. */
	uint32_t n;
	uint64_t bytes[MP_SWEEP_MAX];
	double ticks[MP_SWEEP_MAX];      /* minimum ticks per load */
	uint32_t runs[MP_SWEEP_MAX];     /* runs each footprint took */
	uint32_t sweeps;
	struct mp_steps steps;           /* the analysis of ticks[] */
	bool timed_out;                  /* some points never settled */
};

/*
 * Memory mapped with pages this large or larger is walked as one shuffled
 * set (mp_ref_ck with a row of the whole footprint): a first-level data
 * TLB of 64 2M entries maps 128M, more than any footprint we sweep.
 */
#define MP_CK_LARGE_PAGE (2ull << 20)

/* The footprints of the grid in [lo, hi]; returns how many (at most max). */
uint32_t mp_ck_grid(uint64_t lo, uint64_t hi, uint64_t line, uint64_t *out, uint32_t max);

/*
 * Sweep C(k) over the grid footprints of [k->lo, k->hi] through memory m
 * (at least hi bytes) and analyse the curve.  Each run builds a fresh
 * string (Cooper-Xu 3.3: "recreating the reference string at each size and
 * trial"), walks it once to warm the caches, and times one window.
 */
enum mp_status mp_ck_sweep(struct mp_ctx *c, struct mp_mem *m, const char *what,
			   struct mp_ck *k);
/*
 * The largest footprint in (k.bytes[plateau.last], k.bytes[plateau.last+1])
 * that still runs at the level of plateau i, found by halving the bracket
 * MP_CK_REFINE_STEPS times: the effective capacity of level i + 1 ("the
 * amount of memory ... an application can use before the access latency
 * begins to rise", Cooper-Xu section 1).  A footprint still fits while its
 * time stays within MP_CK_FIT_RISE, or three times the curve's noise scale,
 * of the plateau's time at its last point: one line too many in one set of
 * an LRU cache already costs more than that.
 */
#define MP_CK_FIT_RISE 0.03
enum mp_status mp_ck_refine(struct mp_ctx *c, struct mp_mem *m, const struct mp_ck *k,
			    int32_t i, uint64_t *bytes);

/*
 * Memory latency measured directly: a pass over lines spread over all of m
 * (one per MP_CK_MEMORY_SLICE bytes, at most MP_WINDOW_STEPS of them), each
 * flushed from every cache first (flush_line), so every load goes to
 * memory; the minimum over passes by the single-point discipline.  A C(k)
 * curve approaches memory latency only slowly past the last level when
 * that level does not replace in LRU order, so the curve alone cannot give
 * it.  MP_UNSUPPORTED when the platform cannot flush a line.
 */
#define MP_CK_MEMORY_SLICE 4096u
enum mp_status mp_ck_memory(struct mp_ctx *c, struct mp_mem *m, uint64_t line, double *ticks);

/* Ticks of one level as cycles and nanoseconds (NaN where unknown). */
void mp_ck_latency(const struct mp_platform *p, double ticks, double *cycles, double *ns);

#endif
