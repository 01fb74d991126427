/* SPDX-License-Identifier: MIT */
/*
 * The platform "linux-x86_64": the suite in a Linux process.  The TSC for
 * time, perf_event counters where the kernel has them, transparent huge
 * pages (and hugetlbfs 1G pages where reserved) for large-page memory,
 * physical addresses from /proc/self/pagemap where readable (root), the
 * process pinned to the CPU it started on.  Interrupts cannot be masked
 * and caches not flushed whole from user space: those answer
 * "unsupported".
 */
#ifndef MEMPROBE_PLATFORM_LINUX_PLATFORM_H
#define MEMPROBE_PLATFORM_LINUX_PLATFORM_H

#include <stddef.h>

#include "arch/x86_64/x86.h"
#include "core/platform.h"

#define MP_LINUX_PLATFORM "linux-x86_64"

/* Calibrate the clocks, open the counters; NULL when out of memory. */
struct mp_platform *mp_linux_open(const struct mp_output *out);
void mp_linux_close(struct mp_platform *p);

/* Counters through perf_event_open (perf.c); pmc->events is 0 when none, and `why` says why. */
void mp_linux_perf_open(struct mp_x86_pmc *pmc, char *why, size_t why_len);
void mp_linux_perf_close(struct mp_x86_pmc *pmc);

#endif
