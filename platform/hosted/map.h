/* SPDX-License-Identifier: MIT */
/*
 * Memory for the platforms that run inside a Linux process (platform/linux
 * and platform/sim): anonymous mappings at a chosen alignment.
 */
#ifndef MEMPROBE_PLATFORM_HOSTED_MAP_H
#define MEMPROBE_PLATFORM_HOSTED_MAP_H

#include <stdbool.h>
#include <stddef.h>

/* What a mapping is for. */
struct mp_hosted_map_req {
	size_t bytes;          /* a multiple of the system page */
	size_t align;          /* a power of two, at least the system page */
	bool huge;             /* ask for transparent huge pages */
	bool exec;             /* will hold generated code */
	void *at;              /* where to map it, when free (aligned); NULL: anywhere */
};

/*
 * Anonymous memory, not yet touched, at req->align: at req->at when that
 * range is free, else anywhere; NULL when the system has none.
 */
void *mp_hosted_map(const struct mp_hosted_map_req *req);

/* The protection of a mapping: read and write, and execute where it holds code. */
int mp_hosted_prot(bool exec);

/* Give back what mp_hosted_map returned (the same bytes). */
void mp_hosted_unmap(void *base, size_t bytes);

#endif
