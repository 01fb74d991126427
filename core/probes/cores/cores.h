/* SPDX-License-Identifier: MIT */
/*
 * The multi-core probes (docs/algorithms.md, "Every core"): the topology of
 * the logical CPUs (topology.c), each core type measured on one of its CPUs
 * and the sharing of every data cache level measured (types.c, sharing.c),
 * and the core-to-core latency of a cache line (c2c.c).  They reach the
 * other CPUs only through the seam's optional cpu_* operations, run_beside
 * and pingpong (core/platform.h); where a platform lacks them the run is a
 * single-CPU run and a note says so.
 */
#ifndef MEMPROBE_CORE_PROBES_CORES_CORES_H
#define MEMPROBE_CORE_PROBES_CORES_CORES_H

#include <stdbool.h>
#include <stdint.h>

#include "core/probe.h"

/* The logical CPUs as the platform describes them (cpus.c). */
struct mp_cpus {
	uint32_t total;          /* the platform's count */
	uint32_t n;              /* described: total, at most MP_MAX_CPUS */
	uint32_t usable;         /* CPUs 0 .. usable-1 may run probes (the `cores` key) */
	bool described;          /* cpu_info gave every one's package and core */
	struct mp_cpu_info info[MP_MAX_CPUS];
};

/*
 * Do the multi-core probes measure in this run?  They time, so with method
 * counters they do not: the probe is marked skipped, as the suite marks a
 * timing probe (they are not in the suite's timing class, whose probes are
 * repeated in rounds: they vote or take minima themselves).
 */
bool mp_cores_timed(struct mp_ctx *c);

/* Read the platform's CPUs into one table (shared by the probes; valid until the next read). */
const struct mp_cpus *mp_cpus_read(struct mp_platform *p, const struct mp_config *cfg);

/*
 * The topology (topology.c): every logical CPU read and counted into
 * r->topology, before the probes run; notes say when the platform offers
 * one CPU, more than the tables hold, or does not describe every CPU.
 */
void mp_cores_topology(struct mp_platform *p, const struct mp_config *cfg, struct mp_result *r);

/* Do two CPUs share a core (same package and core, both known)? */
bool mp_cpu_same_core(const struct mp_cpu_info *a, const struct mp_cpu_info *b);

/* Fill r->topology: distinct packages and cores, and logical CPUs, among the described. */
void mp_cpus_topology(const struct mp_cpus *s, struct mp_topology *t);

/*
 * Group the described CPUs into r->core_types by their type (the platform's
 * name for the kind of core), in order of their first CPU: the boot CPU's
 * group comes first.  Types beyond MP_MAX_CORE_TYPES are left out, each
 * named in a note.
 */
void mp_cpus_group(const struct mp_cpus *s, struct mp_result *r);

/* A core type's first usable CPU, or MP_CPU_UNKNOWN. */
uint32_t mp_core_type_first(const struct mp_cpus *s, const struct mp_core_type *t);

/*
 * The CPUs the core-to-core matrix covers, ascending, at most `max`: every
 * usable CPU when there are no more than `max`, else a sample covering
 * every relation to CPU 0 (its SMT sibling, a core of its cluster, the first
 * CPU of every other cluster and die, of every other package), the first
 * CPU of each core type, and from each of those the cores 1, 2, 4, 8, ...
 * further on (in and out of any cluster that shares a cache), in that order
 * of priority.  Returns how many.
 */
uint32_t mp_cpus_sample(const struct mp_cpus *s, const struct mp_result *r, uint32_t *out,
			uint32_t max);

/*
 * Measure which logical CPUs share each data and unified cache level of
 * core type t (sharing.c), on its first usable CPU: the cache's shared_by,
 * or MP_NA with a note where it could not be measured.
 */
void mp_sharing_measure(struct mp_ctx *c, const struct mp_cpus *s, struct mp_core_type *t,
			double memory_cycles);

#endif
