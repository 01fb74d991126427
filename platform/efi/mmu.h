/* SPDX-License-Identifier: MIT */
/*
 * Our page tables for the measurements, and the CR3 discipline around
 * them (docs/uefi.md, "Page tables and CR3").
 *
 * At open the firmware's top-level table (PML4) is copied into a table of
 * ours: every address translates as under the firmware's CR3.  Mapping an
 * arena block gives it identity pages of the size the probe asked for;
 * arch/x86_64/paging.c copies the firmware's lower tables on the way down
 * instead of writing into them, so the firmware's own tables never change.
 * The session loads our CR3 (mp_efi_mmu_enter) and gives the firmware its
 * own back around every firmware call and at the end (mp_efi_mmu_leave).
 *
 * The tables come from a pool of pages taken from the firmware at open,
 * large enough to map the whole arena with 4 KB pages.
 */
#ifndef MEMPROBE_PLATFORM_EFI_MMU_H
#define MEMPROBE_PLATFORM_EFI_MMU_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/paging.h"
#include "core/platform.h"
#include "platform/efi/arena.h"

struct mp_efi_mmu {
	bool ready;               /* our tables exist */
	bool loaded;              /* CR3 holds ours */
	bool has_1g;              /* CPUID: 1 GB pages */
	bool write_back;          /* PAT entry 0 and the MTRRs make the arena WB */
	uint64_t fw_cr3, our_cr3;
	struct mp_pt pt;
	uint64_t pool, pool_pages, pool_used;
	char why[96];             /* not ready, or not write-back: why */
};

/*
 * Check the arena's memory type and make our tables; says what it found
 * in p's log.  False (and m->why) when memprobe must keep the firmware's
 * tables: 5-level paging, PCIDs, or no memory for tables.
 */
bool mp_efi_mmu_open(struct mp_platform *p, struct mp_efi_mmu *m, const struct mp_cpuid *c,
		     const struct mp_efi_arena *a);

/* Map an arena block with pages of page_bytes (4 KB, 2 MB, 1 GB), in effect at once. */
enum mp_status mp_efi_mmu_map(struct mp_efi_mmu *m, const uint8_t *base, uint64_t bytes,
			      uint64_t page_bytes);

/* The smallest page mapping [base, base + bytes) in the tables CR3 holds; 4096 if unknown. */
uint64_t mp_efi_mmu_page_of(const uint8_t *base, uint64_t bytes);

/* Load our tables / the firmware's (each does nothing when already so). */
void mp_efi_mmu_enter(struct mp_efi_mmu *m);
void mp_efi_mmu_leave(struct mp_efi_mmu *m);

/* The firmware's tables, and the pool back to the firmware. */
void mp_efi_mmu_close(struct mp_efi_mmu *m);

#endif
