/* SPDX-License-Identifier: MIT */
/*
 * The probe arena: one block of pages taken from the firmware at start and
 * handed out to the probes' mem_alloc requests.  The firmware identity maps
 * it, so its physical address is its address and it is contiguous.
 */
#ifndef MEMPROBE_PLATFORM_EFI_ARENA_H
#define MEMPROBE_PLATFORM_EFI_ARENA_H

#include <stdbool.h>
#include <stdint.h>

/* Smallest arena worth running with: the quick latency sweep's 16 MB. */
#define MP_EFI_ARENA_MIN (16ull << 20)
/* Alignment asked for first, so 2 MB pages can back it. */
#define MP_EFI_ARENA_ALIGN (2ull << 20)
/* Allocations alive at once. */
#define MP_EFI_ARENA_SLOTS 32

struct mp_efi_block {
	uint64_t off;
	uint64_t bytes;
};

struct mp_efi_arena {
	uint8_t *base;               /* usable start */
	uint64_t bytes;              /* usable size */
	uint64_t fw_addr, fw_bytes;  /* the firmware's pages, for giving them back */
	unsigned n;                  /* live blocks, sorted by offset */
	struct mp_efi_block live[MP_EFI_ARENA_SLOTS];
};

/*
 * Take `want` bytes (MP_EFI_ARENA_ALIGN aligned if the firmware can),
 * halving down to MP_EFI_ARENA_MIN; false when not even that is free.
 */
bool mp_efi_arena_take(struct mp_efi_arena *a, uint64_t want);
void mp_efi_arena_give_back(struct mp_efi_arena *a);

/* First fit; NULL when no gap is large enough or the table is full. */
uint8_t *mp_efi_arena_alloc(struct mp_efi_arena *a, uint64_t bytes, uint64_t align);
void mp_efi_arena_free(struct mp_efi_arena *a, const uint8_t *p);

#endif
