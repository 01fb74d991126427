/* SPDX-License-Identifier: MIT */
/*
 * CR3, the root of the page tables (Intel SDM Vol. 3A, section 4.5, Table
 * 4-12 "Use of CR3 with 4-Level Paging and 5-Level Paging and CR4.PCIDE =
 * 0": bits 51:12 the PML4 address, bit 3 PWT, bit 4 PCD).  Writing CR3
 * drops every non-global TLB entry (section 4.10.4.1); our tables set no G
 * bit, so loading them leaves no stale translation of ours behind.  Ring 0
 * only: the UEFI application calls these, the Linux command never does.
 */
#ifndef MEMPROBE_ARCH_X86_64_CR_H
#define MEMPROBE_ARCH_X86_64_CR_H

#include <stdint.h>

static inline uint64_t mp_x86_read_cr3(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

/*
 * CR4 bits that change what CR3 holds (SDM Vol. 3A, section 2.5, "Control
 * Registers"): LA57 (bit 12) means 5-level paging, CR3 points to a PML5;
 * PCIDE (bit 17) means CR3 bits 11:0 are a PCID.  Our tables are 4-level
 * and carry no PCID.
 */
#define MP_CR4_LA57 (1ull << 12)
#define MP_CR4_PCIDE (1ull << 17)

static inline uint64_t mp_x86_read_cr4(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

/* CR4.OSXSAVE (bit 18, SDM Vol. 3A, 2.5): XGETBV/XSETBV allowed, XCR0 in effect. */
#define MP_CR4_OSXSAVE (1ull << 18)

static inline void mp_x86_write_cr4(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

/* XSETBV (SDM Vol. 2C): set extended control register xcr; CR4.OSXSAVE first. */
static inline void mp_x86_xsetbv(uint32_t xcr, uint64_t v)
{
	__asm__ volatile("xsetbv" : : "c"(xcr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

/* Load tables (an mp_pt root, PWT = PCD = 0: the walk reads them write-back). */
static inline void mp_x86_write_cr3(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

#endif
