/* SPDX-License-Identifier: MIT */
/*
 * Our own identity map for the measurements: 4-level x86-64 page tables
 * (Intel SDM Vol. 3A, section 4.5 "4-Level Paging and 5-Level Paging")
 * built into pages the caller hands out, a walker that translates through
 * any such tables, and the IA32_PAT decoding that confirms the memory type.
 * Pure: no CR3, no MSR (arch/x86_64/cr.h and efi/ do those).
 *
 * The map may start empty or as a copy of another map's top level (the
 * firmware's): mp_pt_map then gives a range our pages and leaves every
 * other address translating as before, copying the other map's tables
 * along the way instead of writing into them, and splitting its large
 * pages where a range cuts one.
 *
 * Memory type: every leaf has PWT = PCD = PAT = 0, PAT index 0.  With the
 * power-on IA32_PAT (entry 0 = WB, kept by UEFI firmware) a page of type WB
 * takes the MTRRs' type for its address (SDM Vol. 3A, "Selecting Memory
 * Types for Pentium III and More Recent Processor Families", effective
 * types for PAT WB), and the firmware's MTRRs make RAM write-back.  So the
 * caller checks IA32_PAT entry 0 with mp_pat_index0_is_wb() and the MTRRs
 * with arch/x86_64/mtrr.h (docs/cpu.md).
 */
#ifndef MEMPROBE_ARCH_X86_64_PAGING_H
#define MEMPROBE_ARCH_X86_64_PAGING_H

#include <stdbool.h>
#include <stdint.h>

#include "core/platform.h"

/* Paging-structure entry bits (SDM Vol. 3A, Tables 4-15 to 4-20). */
#define MP_PTE_P (1ull << 0)        /* present */
#define MP_PTE_RW (1ull << 1)       /* writable */
#define MP_PTE_US (1ull << 2)       /* user accessible */
#define MP_PTE_PWT (1ull << 3)      /* page-level write-through: PAT index bit 0 */
#define MP_PTE_PCD (1ull << 4)      /* page-level cache disable: PAT index bit 1 */
#define MP_PTE_A (1ull << 5)        /* accessed */
#define MP_PTE_D (1ull << 6)        /* dirty (leaf entries only) */
#define MP_PTE_PS (1ull << 7)       /* PDPTE/PDE: maps a 1 GB / 2 MB page */
#define MP_PTE_PAT_4K (1ull << 7)   /* PTE: PAT index bit 2 */
#define MP_PTE_G (1ull << 8)        /* global */
/* Bit 9 is ignored by the processor in every entry of 4-level paging (same tables):
 * set on the entries mp_pt wrote, so it knows its own tables and pages from a copied map's. */
#define MP_PTE_OURS (1ull << 9)
#define MP_PTE_PAT_BIG (1ull << 12) /* 1 GB / 2 MB leaf: PAT index bit 2 */
#define MP_PTE_XD (1ull << 63)      /* execute disable */
#define MP_PTE_ADDR 0x000ffffffffff000ull /* bits 51:12, the next table or the 4 KB frame */

#define MP_PT_ENTRIES 512
/* Identity maps stay in the lower canonical half of the 48-bit space. */
#define MP_PT_IDENTITY_LIMIT (1ull << 47)

/*
 * One 4 KB-aligned page for a table, or NULL when out of memory.  The page
 * must be identity-mapped where the tables are built (UEFI: "the
 * processor's ... paging mode is enabled and any memory space defined by
 * the UEFI memory map is identity mapped", UEFI spec 2.10, 2.3.4): its
 * address is the physical address the parent entry stores.
 */
typedef uint64_t *(*mp_pt_alloc_fn)(void *arg);

struct mp_pt {
	uint64_t *root;        /* the PML4: its address goes into CR3 */
	mp_pt_alloc_fn alloc;
	void *arg;
	uint64_t tables;       /* pages taken from alloc */
	uint64_t *spare;       /* our tables a larger page replaced, chained through entry 0 */
};

/* An empty map (a zeroed PML4); MP_ENOMEM when alloc fails. */
enum mp_status mp_pt_init(struct mp_pt *pt, mp_pt_alloc_fn alloc, void *arg);

/*
 * A map that translates every address as the 4-level tables at `root` do:
 * a PML4 holding a copy of root's entries.  Their tables are never written;
 * mp_pt_map copies the ones it must change.
 */
enum mp_status mp_pt_init_copy(struct mp_pt *pt, mp_pt_alloc_fn alloc, void *arg,
			       const uint64_t *root);

/*
 * Identity-map [base, base + bytes) with pages of page_bytes (4 KB, 2 MB or
 * 1 GB): present, writable, supervisor, executable, PAT index 0, accessed
 * and dirty set so that no walk during a measurement writes an entry back.
 * Whatever mapped the range before is replaced; every address outside it
 * keeps its frame and flags (a large page the range cuts becomes a table
 * of smaller pages of the same frames and flags; our tables a larger page
 * replaces are kept for reuse).  base and bytes must be multiples of the
 * page size and end below MP_PT_IDENTITY_LIMIT.  1 GB pages need
 * mp_cpuid_has_1g_pages().  The caller reloads CR3 if the map is in use.
 *   MP_OK, MP_ENOMEM (alloc failed), MP_UNSUPPORTED (page size),
 *   MP_EIO (misaligned or out of range)
 */
enum mp_status mp_pt_map(struct mp_pt *pt, uint64_t base, uint64_t bytes, uint64_t page_bytes);

/* A translation: the physical address, the page it lies in, the leaf entry. */
struct mp_pt_walk {
	uint64_t phys;
	uint64_t page_bytes;
	uint64_t entry;
};

/* Translate virt through the tables at root; false when unmapped or non-canonical. */
bool mp_pt_walk(const uint64_t *root, uint64_t virt, struct mp_pt_walk *out);

/* PAT index of a leaf entry: PAT << 2 | PCD << 1 | PWT
 * (SDM Vol. 3A, "Selecting a Memory Type from the PAT"). */
unsigned mp_pt_pat_index(uint64_t entry, uint64_t page_bytes);

/*
 * Memory types of IA32_PAT entries (SDM Vol. 3A, "IA32_PAT MSR", table
 * "Memory Types That Can Be Encoded With PAT"); 2, 3 and 8-255 reserved.
 */
enum mp_memtype {
	MP_MT_INVALID = -1,
	MP_MT_UC = 0,
	MP_MT_WC = 1,
	MP_MT_WT = 4,
	MP_MT_WP = 5,
	MP_MT_WB = 6,
	MP_MT_UC_MINUS = 7,
};

#define MP_MSR_IA32_PAT 0x277u
/* IA32_PAT at power-up and reset: WB, WT, UC-, UC, WB, WT, UC-, UC (SDM Vol. 3A, same section). */
#define MP_PAT_POWER_ON 0x0007040600070406ull

/* The memory type of entry index (0-7) of a PAT value: byte index, bits 2:0. */
enum mp_memtype mp_pat_entry(uint64_t pat, unsigned index);
/* Does PAT entry 0, the one our leaves select, give write-back? */
bool mp_pat_index0_is_wb(uint64_t pat);
const char *mp_memtype_name(enum mp_memtype t);

#endif
