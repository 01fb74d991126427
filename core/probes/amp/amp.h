/* SPDX-License-Identifier: MIT */
/*
 * AMP (Coleman and Davidson, "Automatic Memory Hierarchy
 * Characterization"), shared by the algorithm files of core/probes/amp/
 * and its probe.c.  A level is a cache (unit: the line) or a TLB (unit: the
 * page; its size is entries x page, AMP 3.10).  Each algorithm is one vote
 * function; the probe votes on it MP_COUNTER_VOTES times
 * (core/measure/counter.h).  docs/algorithms.md, "Counter-based probes".
 */
#ifndef MEMPROBE_CORE_PROBES_AMP_AMP_H
#define MEMPROBE_CORE_PROBES_AMP_AMP_H

#include "core/lib/rng.h"
#include "core/measure/counter.h"
#include "core/measure/link.h"

/* The structures above the measured one on its path (caches above a cache, TLBs above a TLB). */
struct amp_above {
	uint64_t span;       /* largest way span (size / ways) above; 0: nothing above */
	uint64_t ways;       /* largest associativity above */
	uint64_t held;       /* bytes the levels above keep: where their misses began */
	enum mp_event ev;    /* miss event of the level directly above (MP_EV_COUNT: none) */
};

struct amp_level {
	struct amp *a;
	enum mp_event ev;
	bool tlb;
	int32_t level;
	enum mp_page page;   /* pages of the memory it is measured on */
	uint64_t unit;       /* line or page bytes (3.1, 3.10) */
	uint64_t boundary;   /* footprint where its misses begin (3.2) */
	uint64_t size;       /* capacity in bytes (TLB: entries x page) */
	uint64_t ways;       /* 3.3's: the elements of one set as strides reach them */
	uint64_t assoc;      /* the true associativity: ways, or a hashed index's slices'; 0: not told */
	bool exclusive;      /* holds only what the levels above do not (a victim cache) */
	struct amp_above above;
};

/*
 * The probe's state on one side of the processor: data levels are measured
 * with pointer chases through the array, instruction levels (AMP 3.7-3.9,
 * 3.10) with chains of code blocks built in it (then executable): the same
 * strings, linked by `link`.
 */
struct amp {
	struct mp_counter k;
	struct mp_ctx *c;
	struct mp_mem mem;   /* "the array" (AMP 3) */
	struct mp_linker link;
	uint64_t word;       /* the least distance between elements: 8, or a code block's */
	struct mp_rng g;
};

/* Rounded power of two: 2^floor(log2(x) + 0.5) (AMP 3.1's rounding), x >= 1. */
uint64_t amp_pow2_round(double x);

/* A chase over a chain built in a->mem: counted or not, continuing from where it stopped. */
struct amp_chase {
	void *cursor;
	uint64_t steps;      /* per counted run */
	enum mp_event ev;
	const char *region;
	enum mp_op op;       /* loads (MP_OP_CHASE) or fetches (MP_OP_CODE): the amp's link.op */
};

enum mp_status amp_walk(struct amp *a, struct amp_chase *ch, uint64_t steps);
/* mp_counter_measure_fn over a struct amp_chase: the misses of ch->ev in ch->steps accesses. */
enum mp_status amp_count(struct mp_counter *k, void *chase, uint64_t *misses);
/* The same, flushing every cache and TLB first (a cold pass). */
enum mp_status amp_count_cold(struct mp_counter *k, void *chase, uint64_t *misses);

/*
 * The capacity grid at `bytes`, in the level's units (size.c;
 * docs/algorithms.md, "Capacity grid").
 */
uint64_t amp_grid(const struct amp_level *l, uint64_t bytes);

/* A result decided by several decisions is as sure as the least sure of them. */
void amp_weakest(struct mp_tally *acc, const struct mp_tally *t);

/* The algorithms; each sets t->value (MP_NA when it cannot decide) and its tally. */
enum mp_status amp_unit(struct amp_level *l, struct mp_tally *t);            /* 3.1 */
enum mp_status amp_boundary(struct amp_level *l, struct mp_tally *t);        /* 3.2 */
/* 3.3 (l->ways), and the true associativity (l->assoc, the value in t) */
enum mp_status amp_ways(struct amp_level *l, struct mp_tally *t);
enum mp_status amp_write_allocate(struct amp_level *l, struct mp_tally *t);  /* 3.4 */
enum mp_status amp_replacement(struct amp_level *l, struct mp_tally *t);     /* 3.5 */
enum mp_status amp_unified(struct amp_level *l, struct mp_tally *t);         /* 3.6 */

/*
 * From the boundary to the capacity: a victim cache's misses begin only when
 * it and the levels above are full.  Sets l->size, l->exclusive; *ok false
 * when no capacity explains the associativity experiment (3.3).
 */
enum mp_status amp_settle_size(struct amp_level *l, bool *ok);

/*
 * Flushers: lines (pages) that share the set of every level above with an
 * element at a multiple of the measured level's way span, but not its set
 * in the measured level, so that the element's next access reaches the
 * measured level (docs/algorithms.md, "Counter-based probes", the middle
 * layer).
 */
uint64_t amp_flushers(const struct amp_level *l);

/*
 * The chain of an experiment on whole sets: n elements `gap` bytes apart in
 * each of `sets` neighbouring sets (element i of set s at i gap + s unit;
 * i outer), each followed by its flushers.  Returns its length (0: it does
 * not fit) and its start.  `word` (< AMP_WORDS) is the word of each
 * element's line the chain passes through, so that chains may share
 * elements; amp_flush_chain is the flushers of one more group alone.
 */
#define AMP_WORDS 4u
/* How many neighbouring sets an experiment may use (at most `want`): the
 * flushers of one set must stay out of the others' sets. */
uint64_t amp_sets(const struct amp_level *l, uint64_t want);
uint64_t amp_set_chain(const struct amp_level *l, uint64_t n, uint64_t gap, uint64_t sets,
		       unsigned word, void **start);
uint64_t amp_flush_chain(const struct amp_level *l, uint64_t n, uint64_t gap, uint64_t sets,
			 void **start);
/* Flusher j of group t of set s, for n elements gap apart (a chain passes each once). */
uint64_t amp_flusher(const struct amp_level *l, uint64_t n, uint64_t gap, uint64_t s, uint64_t t,
		     uint64_t j);

#endif
