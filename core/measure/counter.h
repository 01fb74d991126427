/* SPDX-License-Identifier: MIT */
/*
 * Measuring with performance counters: AMP's middle layer (Coleman and
 * Davidson, section 2) over the seam's counted runs: the counters' overhead
 * subtracted, every value voted on (MP_COUNTER_VOTES votes, each from the
 * minimum of MP_COUNTER_REPS measurements), unreliable counters detected,
 * events a PMU cannot count at once counted in further passes.
 * docs/algorithms.md, "Counter-based probes", the middle layer.
 */
#ifndef MEMPROBE_CORE_MEASURE_COUNTER_H
#define MEMPROBE_CORE_MEASURE_COUNTER_H

#include "core/probe.h"
#include "core/measure/vote.h"

/* AMP 2.2: "8 reliable votes" from 64 measurements. */
#define MP_COUNTER_VOTES 8u
#define MP_COUNTER_REPS 8u

/* The events a cache or TLB level is measured with. */
#define MP_COUNTER_CACHE_EVENTS                                                        \
	(MP_EV_BIT(MP_EV_L1D_MISS) | MP_EV_BIT(MP_EV_L2_MISS) | MP_EV_BIT(MP_EV_L3_MISS) | \
	 MP_EV_BIT(MP_EV_L4_MISS))
#define MP_COUNTER_TLB_EVENTS (MP_EV_BIT(MP_EV_DTLB1_MISS) | MP_EV_BIT(MP_EV_DTLB2_MISS))
/* The instruction side (AMP 3.7-3.9, 3.10): counted on fetches of code blocks. */
#define MP_COUNTER_CODE_EVENTS                                                           \
	(MP_EV_BIT(MP_EV_L1I_MISS) | MP_EV_BIT(MP_EV_ITLB1_MISS) | MP_EV_BIT(MP_EV_ITLB2_MISS))

struct mp_counter {
	struct mp_ctx *c;
	uint32_t events;               /* miss events counted and found sane */
	uint32_t insane;               /* counted, but found unreliable */
	uint64_t overhead[MP_EV_COUNT];/* subtracted from every count (2.2) */
	uint64_t runs;                 /* seam runs made, counted or not */
	uint64_t accesses;             /* accesses those runs made */
	uint64_t counted;              /* measurements taken */
	struct mp_mem evict;           /* AMP 3.1 step 1 when flush_all is missing */
	bool can_flush;
};

/*
 * Check which miss events the platform counts, measure their overhead and
 * their sanity.  MP_UNSUPPORTED when no cache or TLB miss event is usable.
 */
enum mp_status mp_counter_open(struct mp_counter *k, struct mp_ctx *c);
void mp_counter_close(struct mp_counter *k);

/* A run for its effect on the caches only (priming, flushing, storing); s may be NULL. */
enum mp_status mp_counter_touch(struct mp_counter *k, const struct mp_run *r, struct mp_sample *s);
/*
 * One counted run of r->events: s->valid the events the platform counted
 * in it (a PMU arms only as many as it has counters), s->count[] less the
 * overhead (0 where not valid), and s->end.
 */
enum mp_status mp_counter_count(struct mp_counter *k, const struct mp_run *r, struct mp_sample *s);
/* Empty every cache and TLB: flush_all, else AMP 3.1 step 1 (read a large array). */
enum mp_status mp_counter_flush(struct mp_counter *k);

/*
 * A counted measurement of `events` in passes: one pass prepares (flushes,
 * primes) and counts what it is asked for; a pass that leaves events
 * uncounted is followed by another, prepared again, for the rest, until
 * each event is counted or, asked alone, still is not: an event the
 * platform said it counts is then distrusted.  s holds each event's count
 * from the pass that counted it; s->ticks and s->end are the last pass's.
 */
typedef enum mp_status (*mp_counter_pass_fn)(struct mp_counter *k, void *arg, uint32_t events,
					 struct mp_sample *s);
enum mp_status mp_counter_passes(struct mp_counter *k, mp_counter_pass_fn f, void *arg, uint32_t events,
			     struct mp_sample *s);

/* The common measurement: a preparation (NULL: none), then mp_counter_count of r, in passes. */
typedef enum mp_status (*mp_counter_prep_fn)(struct mp_counter *k, void *arg);
enum mp_status mp_counter_count_all(struct mp_counter *k, mp_counter_prep_fn prep, void *arg,
				const struct mp_run *r, struct mp_sample *s);
/* mp_counter_flush as a preparation. */
enum mp_status mp_counter_prep_flush(struct mp_counter *k, void *unused);

/* One measurement: its own preparation, then one count. */
typedef enum mp_status (*mp_counter_measure_fn)(struct mp_counter *k, void *arg,
					    uint64_t *count);
/* The minimum of MP_COUNTER_REPS measurements (a zero ends the series early: nothing is lower). */
enum mp_status mp_counter_min(struct mp_counter *k, mp_counter_measure_fn f, void *arg,
			  uint64_t *min);

/* One vote: a whole determination of a value from minimums. */
typedef enum mp_status (*mp_counter_vote_fn)(struct mp_counter *k, void *arg, int64_t *vote);

/* MP_COUNTER_VOTES votes; a vote that fails (MP_NA) is not cast. */
enum mp_status mp_counter_vote(struct mp_counter *k, mp_counter_vote_fn f, void *arg,
			   struct mp_tally *t);

/*
 * A decision (AMP 2.2's "each measurement is actually a sequence of
 * repeated measurements, followed by a voting scheme"): each vote
 * classifies the minimum of MP_COUNTER_REPS measurements; MP_COUNTER_VOTES votes.
 */
struct mp_counter_decision {
	mp_counter_measure_fn measure;
	void *arg;
	int64_t (*classify)(uint64_t min, const void *arg);  /* MP_NA: no vote */
};

enum mp_status mp_counter_decide(struct mp_counter *k, const struct mp_counter_decision *d,
			     struct mp_tally *t);

/*
 * "The array" (AMP 3) a counter probe works in: three quarters of the
 * arena, for the caches on 2M pages where the platform has them, 2M
 * aligned; for the TLBs on each page size the platform maps (kind i of
 * MP_COUNTER_PAGE_KINDS, false when it maps no size not already in seen[]),
 * at most MP_COUNTER_TLB_PAGES pages.
 */
#define MP_COUNTER_PAGE_KINDS 3u
#define MP_COUNTER_TLB_PAGES 16384u
enum mp_status mp_counter_array(struct mp_counter *k, bool exec, struct mp_mem *m);
bool mp_counter_array_pages(struct mp_counter *k, unsigned kind, bool exec, const uint64_t *seen,
			    unsigned nseen, struct mp_mem *m);
enum mp_page mp_counter_page_kind(unsigned kind);

/* The levels the counters measure, by the event that counts their misses. */
struct mp_counter_level {
	enum mp_event ev;
	int32_t level;
	bool tlb;
	bool code;           /* an instruction level: measured on fetches */
};

extern const struct mp_counter_level mp_counter_levels[];
extern const unsigned mp_counter_nlevels;

/*
 * A counter probe's frame, shared by AMP and PAPI: open the counters (the
 * probe is unsupported where the platform counts no miss event), measure
 * the caches on the cache array (mp_counter_array), then the data TLBs on
 * an array of each page size the platform maps (mp_counter_array_pages);
 * with `code`, then the instruction levels the same way on executable
 * arrays; close, and say in the probe's message how many levels were
 * measured.  `measure` gets the array in *array and returns the levels it
 * measured.
 */
struct mp_counter_pass {
	bool tlb;
	bool code;           /* instruction levels, on fetches of code blocks in the array */
	enum mp_page page;
};
typedef unsigned (*mp_counter_levels_fn)(void *probe, const struct mp_counter_pass *pass);
void mp_counter_probe(struct mp_counter *k, struct mp_ctx *c, struct mp_mem *array,
		      mp_counter_levels_fn measure, void *probe, bool code);

/* Is the event counted and sane? */
static inline bool mp_counter_has(const struct mp_counter *k, enum mp_event e)
{
	return (k->events & MP_EV_BIT(e)) != 0;
}

#endif
