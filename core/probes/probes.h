/* SPDX-License-Identifier: MIT */
/* The probes' entry points; their table is in core/suite.c. */
#ifndef MEMPROBE_CORE_PROBES_PROBES_H
#define MEMPROBE_CORE_PROBES_PROBES_H

#include "core/probe.h"

void mp_probe_latency(struct mp_ctx *c);
void mp_probe_amp(struct mp_ctx *c);
void mp_probe_papi(struct mp_ctx *c);
void mp_probe_l1(struct mp_ctx *c);
void mp_probe_compact(struct mp_ctx *c);
void mp_probe_evset(struct mp_ctx *c);
void mp_probe_levels(struct mp_ctx *c);
void mp_probe_tlb(struct mp_ctx *c);
void mp_probe_policy(struct mp_ctx *c);
void mp_probe_icache(struct mp_ctx *c);
void mp_probe_itlb(struct mp_ctx *c);
void mp_probe_cpu(struct mp_ctx *c);
void mp_probe_cores(struct mp_ctx *c);
void mp_probe_c2c(struct mp_ctx *c);

#endif
