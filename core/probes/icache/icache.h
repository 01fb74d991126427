/* SPDX-License-Identifier: MIT */
/*
 * Probe "icache" (core/probes/icache/probe.c: the first level fetches meet,
 * its size, ways and line; fetch.c: every level as straight-line code sees
 * it).  docs/algorithms.md, "Instruction caches".
 */
#ifndef MEMPROBE_CORE_PROBES_ICACHE_ICACHE_H
#define MEMPROBE_CORE_PROBES_ICACHE_ICACHE_H

#include "core/probe.h"

/*
 * The levels straight-line code runs at (the fetch sweep): their effective
 * capacities and the cost of a line fetched from each go into the result's
 * fetch table, level numbers from `first` (1, or the level the first fetch
 * structure was found to be).  m is executable memory of at least the
 * sweep's top.  Returns the levels found, -1 when the platform failed a run.
 */
int32_t mp_icache_fetch_levels(struct mp_ctx *c, struct mp_mem *m, int32_t first);

/* The top of the fetch sweep for this machine (what the memory must hold). */
uint64_t mp_icache_fetch_top(const struct mp_ctx *c);

#endif
