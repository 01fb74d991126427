/* SPDX-License-Identifier: MIT */
#include "core/lib/str.h"
#include "platform/efi/arena.h"
#include "platform/efi/fw.h"

#define PAGE_BYTES 4096ull

static uint64_t align_up(uint64_t v, uint64_t align)
{
	return (v + align - 1) & ~(align - 1);
}

static bool take_aligned(struct mp_efi_arena *a, uint64_t bytes, uint64_t align)
{
	uint64_t fw_bytes = bytes + align - PAGE_BYTES, addr;

	if (mp_fw_pages_alloc(fw_bytes, &addr) != MP_FW_OK)
		return false;
	a->fw_addr = addr;
	a->fw_bytes = fw_bytes;
	a->base = (uint8_t *)(uintptr_t)align_up(addr, align);
	a->bytes = bytes;
	a->n = 0;
	return true;
}

bool mp_efi_arena_take(struct mp_efi_arena *a, uint64_t want)
{
	mp_memset(a, 0, sizeof(*a));
	want = align_up(want < MP_EFI_ARENA_MIN ? MP_EFI_ARENA_MIN : want, PAGE_BYTES);
	for (uint64_t bytes = want; bytes >= MP_EFI_ARENA_MIN; bytes /= 2) {
		if (take_aligned(a, bytes, MP_EFI_ARENA_ALIGN))
			return true;
		if (take_aligned(a, bytes, PAGE_BYTES))
			return true;
	}
	return false;
}

void mp_efi_arena_give_back(struct mp_efi_arena *a)
{
	if (a->fw_bytes)
		mp_fw_pages_free(a->fw_addr, a->fw_bytes);
	mp_memset(a, 0, sizeof(*a));
}

static void insert(struct mp_efi_arena *a, unsigned at, uint64_t off, uint64_t bytes)
{
	for (unsigned i = a->n; i > at; i--)
		a->live[i] = a->live[i - 1];
	a->live[at].off = off;
	a->live[at].bytes = bytes;
	a->n++;
}

uint8_t *mp_efi_arena_alloc(struct mp_efi_arena *a, uint64_t bytes, uint64_t align)
{
	uint64_t from = 0, base = (uintptr_t)a->base;

	if (a->n == MP_EFI_ARENA_SLOTS || bytes == 0)
		return NULL;
	align = align < PAGE_BYTES ? PAGE_BYTES : align;
	for (unsigned i = 0; i <= a->n; i++) {
		uint64_t start = align_up(base + from, align) - base;
		uint64_t end = i < a->n ? a->live[i].off : a->bytes;

		if (start <= end && end - start >= bytes) {
			insert(a, i, start, bytes);
			return a->base + start;
		}
		if (i < a->n)
			from = a->live[i].off + a->live[i].bytes;
	}
	return NULL;
}

void mp_efi_arena_free(struct mp_efi_arena *a, const uint8_t *p)
{
	for (unsigned i = 0; i < a->n; i++) {
		if (a->base + a->live[i].off != p)
			continue;
		for (a->n--; i < a->n; i++)
			a->live[i] = a->live[i + 1];
		return;
	}
}
