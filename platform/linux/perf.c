/* SPDX-License-Identifier: MIT */
/*
 * Counters under Linux: perf_event_open(2) with the kernel's generic
 * hardware and cache events.  Each event the kernel accepts becomes
 * available to the probes; the rest are simply absent.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "platform/linux/platform.h"

#define CACHE_EV(cache, op, result)                                             \
	((PERF_COUNT_HW_CACHE_##cache) | (PERF_COUNT_HW_CACHE_OP_##op << 8) |    \
	 (PERF_COUNT_HW_CACHE_RESULT_##result << 16))

/* memprobe events and the generic perf events that count them
 * (include/uapi/linux/perf_event.h).  The kernel's "LL" is the last level,
 * which memprobe reports as L3: on a two-level machine it is the L2. */
static const struct {
	uint32_t type;
	uint64_t config;
} perf_map[MP_EV_COUNT] = {
	[MP_EV_CYCLES] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	[MP_EV_INSTRUCTIONS] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	[MP_EV_LOADS] = { PERF_TYPE_HW_CACHE, CACHE_EV(L1D, READ, ACCESS) },
	[MP_EV_STORES] = { PERF_TYPE_HW_CACHE, CACHE_EV(L1D, WRITE, ACCESS) },
	[MP_EV_L1D_MISS] = { PERF_TYPE_HW_CACHE, CACHE_EV(L1D, READ, MISS) },
	[MP_EV_L1I_MISS] = { PERF_TYPE_HW_CACHE, CACHE_EV(L1I, READ, MISS) },
	[MP_EV_L3_MISS] = { PERF_TYPE_HW_CACHE, CACHE_EV(LL, READ, MISS) },
	[MP_EV_DTLB1_MISS] = { PERF_TYPE_HW_CACHE, CACHE_EV(DTLB, READ, MISS) },
	[MP_EV_ITLB1_MISS] = { PERF_TYPE_HW_CACHE, CACHE_EV(ITLB, READ, MISS) },
};

static int open_event(unsigned e)
{
	struct perf_event_attr a;

	if (perf_map[e].type == 0 && perf_map[e].config == 0 && e != MP_EV_CYCLES)
		return -1;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = perf_map[e].type;
	a.config = perf_map[e].config;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

static void perf_read(void *arg, uint32_t want, uint64_t out[MP_EV_COUNT])
{
	const int *fds = arg;

	for (unsigned e = 0; e < MP_EV_COUNT; e++) {
		if ((want & MP_EV_BIT(e)) && read(fds[e], &out[e], sizeof(out[e])) != sizeof(out[e]))
			out[e] = 0;
	}
}

void mp_linux_perf_open(struct mp_x86_pmc *pmc, char *why, size_t why_len)
{
	int first_errno = 0, *fds = malloc(MP_EV_COUNT * sizeof(*fds));

	pmc->events = 0;
	pmc->read = perf_read;
	pmc->arg = fds;
	if (!fds) {
		snprintf(why, why_len, "no hardware counters: out of memory; timing methods only");
		return;
	}
	for (unsigned e = 0; e < MP_EV_COUNT; e++) {
		fds[e] = open_event(e);
		if (fds[e] >= 0)
			pmc->events |= MP_EV_BIT(e);
		else if (!first_errno)
			first_errno = errno;
	}
	if (pmc->events == 0)
		snprintf(why, why_len,
			 "no hardware counters: perf_event_open refused every event (%s); "
			 "timing methods only", strerror(first_errno ? first_errno : ENOENT));
	else
		why[0] = 0;
}

void mp_linux_perf_close(struct mp_x86_pmc *pmc)
{
	int *fds = pmc->arg;

	for (unsigned e = 0; fds && e < MP_EV_COUNT; e++)
		if (fds[e] >= 0)
			close(fds[e]);
	free(fds);
	pmc->arg = NULL;
	pmc->events = 0;
}
