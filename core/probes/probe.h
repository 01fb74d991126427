/* SPDX-License-Identifier: MIT */
/* The probes, and the helpers they share. */
#ifndef MEMPROBE_CORE_PROBES_PROBE_H
#define MEMPROBE_CORE_PROBES_PROBE_H

#include "core/suite.h"

/* Probe entry points (their table is in core/suite.c). */
void mp_probe_latency(struct mp_ctx *c);
void mp_probe_amp(struct mp_ctx *c);
void mp_probe_papi(struct mp_ctx *c);
void mp_probe_l1(struct mp_ctx *c);
void mp_probe_compact(struct mp_ctx *c);
void mp_probe_levels(struct mp_ctx *c);
void mp_probe_tlb(struct mp_ctx *c);
void mp_probe_policy(struct mp_ctx *c);

/*
 * Allocate probe memory; on failure the probe is marked failed with a
 * message saying what was asked for.
 */
enum mp_status mp_probe_alloc(struct mp_ctx *c, uint64_t bytes, enum mp_page page,
			      struct mp_mem *m);

/*
 * The same on 2M pages, physically contiguous where the platform can give
 * it (then a physically indexed level sees the memory as one run of sets,
 * as bare metal's identity map does; scattered frames make its sets depend
 * on where the pages fall), else whatever it gives; m->contiguous tells.
 */
enum mp_status mp_probe_alloc_contig(struct mp_ctx *c, uint64_t bytes, struct mp_mem *m);

/* Mark this probe failed / unsupported with a reason (first reason wins). */
void mp_probe_fail(struct mp_ctx *c, const char *why);
void mp_probe_unsupported(struct mp_ctx *c, const char *why);

/* Times in a curve: cycles where the platform knows its core clock, else ns. */
const char *mp_probe_time_unit(const struct mp_ctx *c);
double mp_probe_time(const struct mp_ctx *c, double ticks);

#endif
