/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <sys/mman.h>

#include "platform/hosted/map.h"

/* Map align bytes more than asked, then give back what lies before and after the aligned part. */
void *mp_hosted_map(const struct mp_hosted_map_req *req)
{
	int prot = PROT_READ | PROT_WRITE | (req->exec ? PROT_EXEC : 0);
	size_t len = req->bytes + req->align;
	uint8_t *raw = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uint8_t *at;

	if (raw == MAP_FAILED)
		return NULL;
	at = (uint8_t *)(((uintptr_t)raw + req->align - 1) & ~(uintptr_t)(req->align - 1));
	if (at > raw)
		munmap(raw, (size_t)(at - raw));
	if (at + req->bytes < raw + len)
		munmap(at + req->bytes, (size_t)(raw + len - (at + req->bytes)));
	if (req->huge)
		madvise(at, req->bytes, MADV_HUGEPAGE);
	return at;
}

void mp_hosted_unmap(void *base, size_t bytes)
{
	if (base)
		munmap(base, bytes);
}
