/* SPDX-License-Identifier: MIT */
/*
 * The TLB test's shared parts (core/probes/tlb/probe.c: the T(1,k) sweep,
 * confirmation and entries; fetch.c: what differs on fetches; geom.c: page
 * size and associativity; record.c: the records and notes).
 */
#ifndef MEMPROBE_CORE_PROBES_TLB_TLB_H
#define MEMPROBE_CORE_PROBES_TLB_TLB_H

#include "core/measure/link.h"
#include "core/measure/steps.h"
#include "core/measure/timing.h"
#include "core/probe.h"
#include "core/seq/refstring.h"

/* Smallest string of the sweep (Cooper-Xu start their TLB sweep at a few pages). */
#define MP_TLB_MIN_PAGES 4u
/*
 * A suspect is confirmed when every T(n,k) rises across it, in time, by at
 * least this fraction of T(1,k)'s rise and by more than the noise; on
 * fetches, when T(2,k/2) rises by less than it (fetch.c).
 */
#define MP_TLB_CONFIRM_FRAC 0.5

/*
 * A compact-set test (X-Ray 4.2) on a TLB: a string is "compact" for the
 * level under test while its time stays below the level's fitting time
 * plus this fraction of the level's miss penalty (docs/algorithms.md,
 * "TLBs", page size).
 */
#define MP_TLB_COMPACT_FRAC 0.25
/*
 * Tries over time of a count a neighbour on the core may have lowered (the
 * first string past a level's entries, one way more in a set), rests of
 * about MP_TLB_REST_US apart (mp_rest_about; docs/algorithms.md, "TLBs",
 * over time).
 */
#define MP_TLB_TRIES 10u
#define MP_TLB_REST_US 50000u
/* The rise a string that fits may show in long windows (docs/algorithms.md, "TLBs", entries). */
#define MP_TLB_LONG_RISE 0.04

/*
 * Pages a string may hold past what a level holds (`entries`) and still fit
 * by the search's rule for long windows: misses that lift its time by no
 * more than MP_TLB_LONG_RISE, each costing the miss penalty (`above` less
 * `below`, ticks per load) over the string's loads.  A count that much
 * over the truth is the rule's slack, not a finding.
 */
uint64_t mp_tlb_slack(double below, double above, uint64_t entries);

/*
 * The test runs on either side of the processor: data TLBs with loads
 * (probe "tlb"), instruction TLBs with fetches of a serial code chain
 * (probe "itlb"): the same strings, linked by `link`.
 */
struct tlb_ctx {
	struct mp_ctx *c;
	struct mp_mem *m;
	struct mp_linker link;   /* loads, or serial code blocks */
	enum mp_kind side;       /* MP_KIND_DATA or MP_KIND_INSTRUCTION */
	uint64_t page;           /* page size the memory is mapped with */
	uint64_t line;           /* element spacing: the L1 line of that side */
	struct mp_rng g;
};

/* What the test knows of one TLB level; 0 where not (yet) measured. */
struct tlb_level {
	uint64_t entries;
	double below, above;     /* ticks per load: fitting, and missing this level only */
	double noise;            /* relative noise of the curve (log2 units) */
	uint64_t page_bytes;
	uint64_t ways;
};

/* Minimum ticks per load of a fresh string s (single-point discipline); MP_ENOMEM if
 * it does not fit the memory. */
enum mp_status mp_tlb_time(struct tlb_ctx *t, const struct mp_ref_pages *s, double *ticks);
/* T(per_page, pages), per_page lines in each of `pages` pages, timed now: false where
 * it could not be. */
bool mp_tlb_time_now(struct tlb_ctx *t, uint64_t pages, uint64_t per_page, double *ticks);

/* The T(1,k) sweep and the steps found in it (probe.c). */
struct tlb_sweep {
	struct mp_sweep s;
	struct mp_steps steps;
};

/* The point of step k's confirmation below it, or (above) in the plateau above it. */
uint64_t mp_tlb_confirm_point(const struct tlb_sweep *o, int32_t k, bool above);
/* Step k as a level: its entries as the sweep saw them, and the most it can rise. */
struct tlb_level mp_tlb_step_level(const struct tlb_sweep *o, int32_t k);

/*
 * What the confirmation says of a step.  TLB_BOUNDARY is a TLB level;
 * NOT_TLB, PIECES, BLOCKS, MIXED and UNTOLD are not (the three last on
 * fetches only), and MIXED and UNTOLD may hide one (mp_tlb_first_hiding).
 */
enum tlb_verdict { TLB_BOUNDARY, NOT_TLB, PIECES, BLOCKS, MIXED, UNTOLD };

static inline bool mp_tlb_is_level(enum tlb_verdict v)
{
	return v == TLB_BOUNDARY;
}

/*
 * The test on fetches (fetch.c; docs/algorithms.md, "Instruction TLBs"):
 * step k's confirmation; the note of a step rejected (true where said);
 * the first step that may hide a level (nsteps where none does) and the
 * note of the steps above it, which are not searched; and whether a level
 * no step showed lies below step k, past twice the `prev` entries of the
 * level before (said: no level is recorded from step k up).
 */
enum tlb_verdict mp_tlb_confirmed_code(struct tlb_ctx *t, const struct tlb_sweep *o, int32_t k);
bool mp_tlb_say_rejected(struct tlb_ctx *t, const struct tlb_sweep *o, int32_t k,
			 enum tlb_verdict v);
int32_t mp_tlb_first_hiding(struct tlb_ctx *t, const struct tlb_sweep *o,
			    const enum tlb_verdict *v);
void mp_tlb_say_unnumbered(struct tlb_ctx *t, const struct tlb_sweep *o,
			   const enum tlb_verdict *v, int32_t h);
bool mp_tlb_hidden_below(struct tlb_ctx *t, const struct tlb_sweep *o, int32_t k, uint64_t prev);

/* Page size and ways of level i (X-Ray 4.6); levels 0 .. i-1 are known. */
void mp_tlb_geometry(struct tlb_ctx *t, struct tlb_level *lv, int32_t i);

/* Largest documented TLB of the side for this page size (0: none) (record.c). */
uint64_t mp_tlb_documented_entries(const struct mp_result *r, enum mp_kind side, uint64_t page);
/* Level `level` into the result (a unified level both sides found: once). */
void mp_tlb_record(struct tlb_ctx *t, const struct tlb_level *lv, int32_t level);
/*
 * Is a confirmed level kept?  Not where its rise is too small for a TLB
 * miss, nor where its page test found less than a page: on loads a cache
 * boundary, on fetches a count the blocks may have made (each said).
 */
bool mp_tlb_keep(struct tlb_ctx *t, const struct tlb_level *lv);
/*
 * Is the rise from lv's `below` to its `above` too small for a TLB miss
 * (docs/algorithms.md, "TLBs", miss penalty)?  mp_tlb_too_small also says
 * so in a note, at lv's entries (and no level is recorded).
 */
bool mp_tlb_rise_too_small(struct tlb_ctx *t, const struct tlb_level *lv);
bool mp_tlb_too_small(struct tlb_ctx *t, const struct tlb_level *lv);
/* A note of the test, prefixed "TLB 4K: " or "ITLB 4K: ". */
void mp_tlb_note(const struct tlb_ctx *t, const char *what);

/*
 * The whole test on one side (MP_KIND_DATA: probe "tlb"; MP_KIND_INSTRUCTION:
 * probe "itlb"): base pages, then 2M pages where the platform maps them;
 * the levels go into the result, the counts into the probe's message.
 */
void mp_tlb_test(struct mp_ctx *c, enum mp_kind side);

#endif
