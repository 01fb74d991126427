/* SPDX-License-Identifier: MIT */
/*
 * What a probe works with (struct mp_ctx: the platform, the configuration,
 * the result it fills and its own status record), and the helpers every
 * probe and measurement discipline uses on it.  Everything below the suite
 * (measure/, probes/) takes this and nothing of the suite itself.
 */
#ifndef MEMPROBE_CORE_PROBE_H
#define MEMPROBE_CORE_PROBE_H

#include "core/config.h"
#include "core/lib/rng.h"
#include "core/platform.h"
#include "core/results/result.h"

struct mp_ctx {
	struct mp_platform *p;
	const struct mp_config *cfg;
	struct mp_result *r;
	struct mp_probe *self;       /* this probe's record: status and message */
	unsigned round;              /* which of its rounds this run is, 0 the first (core/rounds.c) */
};

typedef void (*mp_probe_fn)(struct mp_ctx *ctx);

/*
 * Allocate probe memory; on failure the probe is marked failed with a
 * message saying what was asked for.
 */
enum mp_status mp_probe_alloc(struct mp_ctx *c, uint64_t bytes, enum mp_page page,
			      struct mp_mem *m);
/* The same for any request (executable memory for code, ...). */
enum mp_status mp_probe_alloc_req(struct mp_ctx *c, const struct mp_mem_req *req,
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

/* Conversions; NaN when the platform does not know the clock. */
double mp_ticks_to_cycles(const struct mp_platform *p, double ticks);
double mp_cycles_to_ns(const struct mp_platform *p, double cycles);
double mp_ticks_to_ns(const struct mp_platform *p, double ticks);

/* Seconds since `t0` (a value of mp_now). */
double mp_seconds_since(struct mp_platform *p, uint64_t t0);

/*
 * Rest about `us` microseconds: drawn between half and one and a half
 * times that, so that tries a rest apart cannot keep step with a thread
 * that runs in a period.  False where the platform has nothing to wait for.
 */
bool mp_rest_about(struct mp_platform *p, struct mp_rng *rng, uint32_t us);


#endif
