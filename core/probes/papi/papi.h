/* SPDX-License-Identifier: MIT */
/*
 * The PAPI cache and TLB benchmarks (Dongarra, Moore, Mucci, Seymour and
 * You, "Accurate Cache and TLB Characterization Using Hardware Counters"),
 * shared by the files of core/probes/papi/: cacheSize (size.c) gives the
 * capacities, cacheBlock (block.c) the line (or page) and the
 * associativity.  docs/algorithms.md, "Counter-based probes", PAPI.
 */
#ifndef MEMPROBE_CORE_PROBES_PAPI_PAPI_H
#define MEMPROBE_CORE_PROBES_PAPI_PAPI_H

#include "core/lib/rng.h"
#include "core/measure/counter.h"

#define PAPI_MAX_LEVELS 4u

struct papi_level {
	enum mp_event ev;
	enum mp_event above;   /* the level above's event, MP_EV_COUNT: none */
	int32_t level;
	bool tlb;
	uint64_t clean;        /* cacheSize: the largest footprint without misses */
	uint64_t dirty;        /* and the smallest with; 0: none yet */
	uint64_t size;         /* bytes (a TLB: entries x page) */
	bool moved;            /* the edge moved with where the footprint starts: no size */
	uint64_t unit;         /* line or page, from cacheBlock */
	uint64_t ways;
	const char *why;       /* why no ways were told (cacheBlock), or NULL */
	uint64_t seen;         /* case 3's associativity, where it is no one set (else 0) */
	struct mp_tally sure[3];   /* size, unit, ways: how sure */
};

struct papi {
	struct mp_counter k;
	struct mp_ctx *c;
	struct mp_mem mem;     /* the array */
	struct mp_rng g;
	uint64_t elem;         /* cacheSize's element: the smallest line (a TLB's: the page) */
	struct mp_curve *curve[PAPI_MAX_LEVELS];
};

/* cacheSize over the n levels at once, then each refined; 0 sizes where none was found. */
enum mp_status papi_cache_size(struct papi *p, struct papi_level *lv, unsigned n);
/* cacheBlock for one level: the line or page (case 1 to 2) with no capacity known. */
enum mp_status papi_unit(struct papi *p, struct papi_level *l);
/* cacheBlock at N = 2 x size: the associativity (case 2 to 3). */
enum mp_status papi_ways(struct papi *p, struct papi_level *l);

#endif
