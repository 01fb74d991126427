/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <sys/mman.h>

#include "platform/hosted/map.h"

#define MAP_FLAGS (MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)

int mp_hosted_prot(bool exec)
{
	return PROT_READ | PROT_WRITE | (exec ? PROT_EXEC : 0);
}

/* The mapping at req->at, where that range is free (the kernel takes the hint); else NULL. */
static uint8_t *map_at(const struct mp_hosted_map_req *req)
{
	uint8_t *raw;

	if (!req->at)
		return NULL;
	raw = mmap(req->at, req->bytes, mp_hosted_prot(req->exec), MAP_FLAGS, -1, 0);
	if (raw == (uint8_t *)req->at)
		return raw;
	if (raw != MAP_FAILED)
		munmap(raw, req->bytes);
	return NULL;
}

/* Map align bytes more than asked, then give back what lies before and after the aligned part. */
static uint8_t *map_aligned(const struct mp_hosted_map_req *req)
{
	size_t len = req->bytes + req->align;
	uint8_t *raw = mmap(NULL, len, mp_hosted_prot(req->exec), MAP_FLAGS, -1, 0);
	uint8_t *at;

	if (raw == MAP_FAILED)
		return NULL;
	at = (uint8_t *)(((uintptr_t)raw + req->align - 1) & ~(uintptr_t)(req->align - 1));
	if (at > raw)
		munmap(raw, (size_t)(at - raw));
	if (at + req->bytes < raw + len)
		munmap(at + req->bytes, (size_t)(raw + len - (at + req->bytes)));
	return at;
}

void *mp_hosted_map(const struct mp_hosted_map_req *req)
{
	uint8_t *at = map_at(req);

	if (!at)
		at = map_aligned(req);
	if (at && req->huge)
		madvise(at, req->bytes, MADV_HUGEPAGE);
	return at;
}

void mp_hosted_unmap(void *base, size_t bytes)
{
	if (base)
		munmap(base, bytes);
}
