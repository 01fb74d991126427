/* SPDX-License-Identifier: MIT */
/*
 * The platform "linux-x86_64": the suite in a Linux process.  The TSC for
 * time, perf_event counters where the kernel has them, transparent huge
 * pages (and hugetlbfs 1G pages where reserved) for large-page memory,
 * physical addresses from /proc/self/pagemap where readable (root), the
 * process pinned to the CPU it started on, and the other CPUs its
 * affinity allows by threads pinned there (cpus.c).  Interrupts cannot be masked
 * and caches not flushed whole from user space: those answer
 * "unsupported".
 */
#ifndef MEMPROBE_PLATFORM_LINUX_PLATFORM_H
#define MEMPROBE_PLATFORM_LINUX_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

#include "arch/x86_64/x86.h"
#include "core/platform.h"

#define MP_LINUX_PLATFORM "linux-x86_64"

/* Calibrate the clocks, open the counters; NULL when out of memory. */
struct mp_platform *mp_linux_open(const struct mp_output *out);
void mp_linux_close(struct mp_platform *p);

/*
 * The logical CPUs (cpus.c): os[i] is the kernel's number of the seam's
 * CPU i, os[0] the CPU the process started on.
 */
#define MP_LINUX_MAX_CPUS 1024
struct mp_linux_cpus {
	uint32_t n, selected;
	int os[MP_LINUX_MAX_CPUS];
};

/* The CPUs the process may run on; call before pinning it. */
void mp_linux_cpus_open(struct mp_linux_cpus *c);
enum mp_status mp_linux_cpu_info(struct mp_linux_cpus *c, uint32_t cpu, struct mp_cpu_info *out);
enum mp_status mp_linux_cpu_select(struct mp_linux_cpus *c, uint32_t cpu);
/* The seam's cpu_home: OS CPU of `cpu` and of CPU 0 swap places in the list. */
enum mp_status mp_linux_cpu_home(struct mp_linux_cpus *c, uint32_t cpu);
enum mp_status mp_linux_run_beside(struct mp_linux_cpus *c, const struct mp_x86_pmc *pmc,
				   const struct mp_run *r, struct mp_sample *out, uint32_t other,
				   const struct mp_run *load);
enum mp_status mp_linux_pingpong(struct mp_linux_cpus *c, uint32_t a, uint32_t b, void *line,
				 uint64_t rounds, struct mp_sample *out);

/* Counters through perf_event_open (perf.c); pmc->events is 0 when none, and `why` says why. */
void mp_linux_perf_open(struct mp_x86_pmc *pmc, char *why, size_t why_len);
void mp_linux_perf_close(struct mp_x86_pmc *pmc);

#endif
