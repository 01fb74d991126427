/* SPDX-License-Identifier: MIT */
/*
 * Probe "evset", level by level: what its files share.  The library of
 * eviction sets is evset.h (mp_evset_*); the probe's own functions are
 * evset_*, by file:
 *
 *   probe.c      the run: its memory, its victim, the levels in turn
 *   pool.c       a level's candidates: how many pages, which lines
 *   calibrate.c  the tester: the threshold between this level and the next
 *   tail.c       the tail: lines that take the victim out of the levels above
 *   geometry.c   the victim's minimal set: the ways and the line
 *   exclusion.c  whether the level is exclusive of the ones above
 *   size.c       the congruence classes at a page offset: the size
 *   measure.c    one level measured, and whether its geometry holds up
 *   report.c     the level recorded, described and noted
 *
 * docs/algorithms.md, "Eviction sets", derives every figure.
 */
#ifndef MEMPROBE_CORE_PROBES_EVSET_RUN_H
#define MEMPROBE_CORE_PROBES_EVSET_RUN_H

#include "core/lib/buf.h"
#include "core/probes/evset/evset.h"

/* Tries of a victim per test (the tester's, until calibrate.c fits them). */
#define EVSET_TRIALS 2u
/* The tail: this many times the most ways above. */
#define EVSET_TAIL_FACTOR 2u
/* Times a minimal set is tested again before it is believed (evset_evicts_mostly). */
#define EVSET_RECHECKS 3u
/* Victims the first level measured may take (measure.c, another_victim). */
#define EVSET_VICTIMS 3u
/* The level above's minimal set and tail: congruence there picks the tail here. */
#define UPPER_SET MP_EVSET_MAX_WAYS
#define UPPER_TAIL 512u

/* What one level is measured with, and what it gave. */
struct level {
	int32_t level;
	double lat, next;       /* its latency and the next level's (or memory's), ticks */
	double after;           /* the latency of the level after the next (NaN: none) */
	uint64_t up_ways;       /* the most ways of any level above */
	uint64_t pages;         /* pages its pool is taken from */
	uint64_t n;             /* candidates in the pool */
	bool within;            /* the pool holds only lines congruent with the victim above */
	bool tailed;            /* its sets are found only with a tail (a victim level) */
	bool inpage;            /* its tail lies beside the victim in the pages (calibrate.c) */
	bool doubt;             /* the count found sets of another size than the ways */
	bool alone;             /* no second class bore the ways out: they rest on the victim's set */
	bool missed;            /* documented, not found by "levels": lat from the victim (calibrate.c) */
	bool exclusive;         /* exclusive of the levels above, by its sets (exclusion.c) */
	uint64_t ways, line, size;
	uint64_t classes;       /* its classes at a page offset, once a count completed */
	uint64_t counted;       /* the classes a count found, complete or not (within: above's one) */
	uint64_t conflict;      /* of its classes, those a conflict set found (mp_evset_conflict) */
	uint64_t sharing;       /* line offsets in a page whose lines share the victim's sets */
	const char *why;        /* what is not measured, and why */
};

/* The lines of a level's tail: EVSET_TAIL_FACTOR times the most ways above. */
static inline uint64_t evset_tail_lines(const struct level *lv)
{
	return EVSET_TAIL_FACTOR * lv->up_ways;
}

/* The level above's tester and minimal set, for the level below. */
struct upper {
	struct mp_evset e;
	uint64_t set[UPPER_SET];
	uint64_t m;             /* 0: none (the L1, or a level not measured) */
	uint64_t classes;       /* its classes at a page offset, all of them; 0: not counted */
	uint64_t sharing;       /* its line offsets sharing a set (struct level) */
	uint64_t tail[UPPER_TAIL];
};

/* The memory and what every level shares. */
struct run {
	struct mp_ctx *c;
	struct mp_mem m;
	uint64_t x;             /* the victim: a line near the end of the usual pools (probe.c) */
	uint64_t usual;         /* pages of the largest level's pool (probe.c) */
	uint64_t l1_way, l1_ways;
	struct mp_evset_hit hit;        /* ticks of a one-load run that hits the L1 */
	double l1_lat;          /* the L1's latency, ticks */
	bool contiguous;        /* the platform gives physically contiguous memory */
	struct upper up;
	/* Tables of MP_EVSET_MAX_POOL lines (probe.c's, too large for a stack): */
	uint64_t *pool;         /* the level's candidates, n of them */
	uint64_t *set;          /* the victim's minimal set, ways lines */
	uint64_t *tail;         /* the tester's tail */
};

/*
 * Ticks a one-load run reads where its load takes `lat` ticks: the L1
 * hit's mean read less the L1's latency, plus `lat`.
 */
static inline double evset_read_of(const struct run *rn, double lat)
{
	return rn->hit.mean - rn->l1_lat + lat;
}

/* pool.c */
uint64_t evset_arena_pages(const struct run *rn);
bool evset_pool_grows(const struct mp_ctx *c);
uint64_t evset_pool_pages(const struct run *rn, int32_t level, uint64_t effective,
			  uint64_t page);
bool evset_more_pages(const struct run *rn, struct level *lv, uint64_t times);
bool evset_double_pool(const struct run *rn, struct level *lv, const struct mp_evset *e);
/* May the level's pool grow: does the profile let it, and the arena hold more pages? */
bool evset_pool_may_grow(const struct run *rn, const struct level *lv);
/* The pool taken from num / den times the pages, as the profile and arena let it: did it grow? */
bool evset_grow_pool(const struct run *rn, struct level *lv, uint64_t num, uint64_t den);
int evset_pool_of(struct run *rn, struct level *lv);
void evset_pool_without(struct run *rn, struct level *lv, const uint64_t *s, uint64_t n);
int evset_above(struct run *rn, const struct level *lv, uint64_t y);

/* calibrate.c */
double evset_seconds(const struct mp_ctx *c);
uint64_t evset_deadline(const struct run *rn);
void evset_tester(struct run *rn, struct level *lv, struct mp_evset *e);
int evset_calibrated(struct run *rn, struct level *lv, struct mp_evset *e);

/* tail.c */
extern const char *const evset_find_why[];
/* What a tail is picked with (tail.c, picks[]). */
enum evset_by {
	EVSET_BY_PREFIX,        /* the shortest evicting prefix of the pool */
	EVSET_BY_SET,           /* a minimal set that held up */
	EVSET_BY_UNHELD,        /* a set found that did not hold up */
};
int evset_pick_tail(struct run *rn, struct mp_evset *e, struct level *lv, const uint64_t *by,
		    uint64_t nby, enum evset_by kind, uint64_t *into, uint64_t *nt);
int evset_tail_of(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t p,
		  uint64_t *nt);
bool evset_inpage_fits(const struct run *rn, const struct level *lv);
uint64_t evset_inpage_lines(const struct run *rn, const struct level *lv, uint64_t *buf);

/* geometry.c */
/* Why a level's set is a lower level's: the same for any victim (measure.c). */
extern const char evset_past_next[];
int evset_evicts_mostly(struct mp_evset *e, uint64_t x, const uint64_t *s, uint64_t m);
int evset_geometry(struct run *rn, struct mp_evset *e, struct level *lv);
int evset_corroborate(struct run *rn, struct mp_evset *e, struct level *lv, uint64_t m);
void evset_keep_upper(struct run *rn, const struct mp_evset *e, const struct level *lv);

/* exclusion.c */
int evset_exclusion(struct run *rn, struct mp_evset *e, struct level *lv);

/* size.c */
void evset_counts_forgotten(void);
int evset_size(struct run *rn, struct mp_evset *e, struct level *lv, bool *borne);

/* measure.c */
void evset_searches_forgotten(void);
int evset_measure(struct run *rn, struct level *lv);

/* report.c */
const char *evset_settle(struct run *rn, struct mp_cache *rec, const struct level *lv);
void evset_note_method(struct run *rn, const struct level *lv, const char *method);
void evset_describe(struct mp_buf *b, const struct level *lv);

#endif
