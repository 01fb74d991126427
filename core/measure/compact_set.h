/* SPDX-License-Identifier: MIT */
/*
 * The compact-set test (X-Ray 4.2): is a set of addresses able to live in
 * one cache level at once?  A set is timed as a pointer chase in shuffled
 * order and compared with the time per access of a set known to be compact
 * at that level (the level's baseline): much slower means that some of its
 * accesses miss there.  The L1 probe (gap test and X-Ray) and the
 * lower-level probe (stride-decomposed compact sets) both decide this way.
 *
 * Where the memory comes in small pages, a set spread over many pages also
 * pays for TLB misses, which would read as cache misses.  Such a set is
 * timed a second time as its TLB twin (mp_ref_twin: the same pages in the
 * same order, every access an L1 hit); what the twin costs beyond an L1
 * hit is the TLB's share and is taken off.
 */
#ifndef MEMPROBE_CORE_MEASURE_COMPACT_SET_H
#define MEMPROBE_CORE_MEASURE_COMPACT_SET_H

#include "core/measure/link.h"
#include "core/probe.h"
#include "core/seq/refstring.h"

/*
 * A set is compact when its time per access is within this fraction of the
 * baseline's.  The weakest signal a decision rests on is one cache set
 * holding A+1 of the lines: LRU, tree-PLRU and FIFO then miss on every one
 * of them, random replacement on about 2/(A+2) (33% at 4 ways, 11% at 16),
 * and a miss costs at least one more hit time (X-Ray 4.5 assumes each level
 * at least twice as slow as the one above), so the weakest signal is above
 * 20%.  Interference on a shared host can add nearly as much to a set that
 * fits (a full 8-way L1 set has been timed 18% above its baseline in
 * bursts): the threshold sits between the two.
 */
#define MP_COMPACT_SET_MISS_REL 0.15
/*
 * Runs without a new minimum before a set's time is accepted: Cooper-Xu's
 * 25 (3.1).  A "not compact" verdict is then measured again, MP_COMPACT_SET_ROUNDS
 * times in all, with four times the patience and a fresh shuffle, offset
 * and baseline each time, and stands only if every round finds it:
 * interference only ever adds time, so a real miss survives and a burst of
 * noise does not (on a shared host a full L1 set can look 10% slow in
 * one round of 200, in bursts a few rounds long).
 */
#define MP_COMPACT_SET_STABLE 25u
#define MP_COMPACT_SET_CONFIRM_STABLE 100u
#define MP_COMPACT_SET_ROUNDS 3u
/*
 * Every round places the set at a fresh random offset in the memory, a
 * multiple of MP_COMPACT_SET_SHIFT_UNIT.  A line of our own (stack, code, the
 * timing loop) that sits in one cache set turns a full set of the test
 * into an over-full one; another offset moves the test to other sets.  And
 * in a physically indexed cache the set lands on other frames: a cache
 * indexed modulo its sets sees the same shape anywhere in contiguous
 * memory, while memory that only looks contiguous (a virtual machine's
 * guest frames) gives each offset a different answer.  The unit is a
 * multiple of every line size (the largest known is 256 bytes), so moving
 * a set keeps its shape in lines and sets.
 */
#define MP_COMPACT_SET_SHIFT_UNIT 512u
/*
 * Sets spread over at most this many pages are not twinned: every data TLB
 * of the machines in the papers and in the model library holds at least
 * four pages in any one of its sets.
 */
#define MP_COMPACT_SET_TWIN_MIN_PAGES 4u
/* Elements the largest set may have (scratch for offsets: 2 x 128 KB). */
#define MP_COMPACT_SET_MAX_ELEMS 16384u

struct mp_compact_set {
	struct mp_ctx *c;
	struct mp_linker link;  /* loads (data), or fetches of code blocks */
	uint64_t elem;          /* the least distance between two elements (mp_link_elem) */
	uint8_t *mem;           /* page-aligned memory the sets are built in */
	uint64_t bytes;
	uint64_t page;          /* its page size */
	struct mp_rng rng;
	const char *region;     /* reference-string name for the simulator */
	struct mp_ref_stride known; /* the baseline: a set known to be compact here */
	double base_ticks;      /* its time per access, last measured; NaN: none yet */
	double base_min;        /* the least of those: the level's hit time */
	double l1_ticks;        /* per access, an L1 hit; NaN: no TLB twins */
	uint64_t twin_line;     /* L1 line bytes, for the twins */
	uint64_t twin_max;      /* elements a twin may have and still fit the L1 */
	unsigned stable;        /* runs without a new minimum, for mp_compact_set_time */
	uint64_t shift;         /* where the sets start in mem, for mp_compact_set_time */
};

/* A tester of loads over memory m; no twins until set. */
void mp_compact_set_init(struct mp_compact_set *s, struct mp_ctx *c, const struct mp_mem *m,
		  const char *region, struct mp_ref_stride known);
/* Make it a tester of fetches: every set a chain of code blocks (m executable). */
void mp_compact_set_code(struct mp_compact_set *s, uint64_t block);

/* Time the baseline set again: base_ticks. */
enum mp_status mp_compact_set_baseline(struct mp_compact_set *s);

/* Minimum ticks per access of the set, TLB share taken off where twinned. */
enum mp_status mp_compact_set_time(struct mp_compact_set *s, const struct mp_ref_stride *shape, double *ticks);

/*
 * Move the sets to a random offset at which `span` bytes still fit (a
 * multiple of MP_COMPACT_SET_SHIFT_UNIT); shift 0 puts them back.
 */
void mp_compact_set_place(struct mp_compact_set *s, uint64_t span);

/*
 * A visiting order of the caller's own (at most MP_COMPACT_SET_MAX_ELEMS offsets
 * into the memory, from the shift): fill mp_compact_set_order(), then time n of it.
 */
uint64_t *mp_compact_set_order(struct mp_compact_set *s);
enum mp_status mp_compact_set_time_order(struct mp_compact_set *s, uint64_t n, double *ticks);

/*
 * Is the set compact at the baseline's level?  Each round times the
 * baseline, then the set, right after it (the clock of a shared host
 * drifts).  1 yes, 0 no, -1 when the platform failed a run, -2 when the
 * set does not fit the memory or the scratch.
 */
int mp_compact_set_compact(struct mp_compact_set *s, const struct mp_ref_stride *shape);

#endif
