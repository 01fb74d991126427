/* SPDX-License-Identifier: MIT */
/*
 * The memory type the MTRRs give an address (Intel SDM Vol. 3A, "Memory
 * Type Range Registers (MTRRs)", section 13.11, 11.11 before the 2023
 * editions).  Our page-table leaves select PAT entry 0; when that entry is
 * WB, the MTRRs' type is the effective type (same volume, table "Effective
 * Page-Level Memory Types for Pentium III and More Recent Processor
 * Families"), so the UEFI application checks that they say WB for the
 * whole arena.  Pure decoding: the registers are read through an
 * mp_msr_io.
 */
#ifndef MEMPROBE_ARCH_X86_64_MTRR_H
#define MEMPROBE_ARCH_X86_64_MTRR_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86_64/msr.h"
#include "arch/x86_64/paging.h"

/* Variable ranges read at most (IA32_MTRRCAP.VCNT is 8 or 10 on the CPUs we know). */
#define MP_MTRR_VAR_MAX 32u
/* Fixed-range MTRRs: one 64K, two 16K and eight 4K registers, 8 ranges each. */
#define MP_MTRR_FIXED_REGS 11u

/* MSRs (SDM Vol. 4, Table 2-2). */
#define MP_MSR_MTRRCAP 0xfeu
#define MP_MSR_MTRR_DEF_TYPE 0x2ffu
#define MP_MSR_MTRR_PHYSBASE0 0x200u  /* PHYSBASEn = 200H + 2n, PHYSMASKn = 201H + 2n */

struct mp_mtrr {
	uint64_t cap;          /* IA32_MTRRCAP: VCNT 7:0, FIX bit 8 */
	uint64_t def_type;     /* IA32_MTRR_DEF_TYPE: type 7:0, FE bit 10, E bit 11 */
	uint64_t fixed[MP_MTRR_FIXED_REGS];
	uint32_t nvar;
	uint64_t base[MP_MTRR_VAR_MAX], mask[MP_MTRR_VAR_MAX];
	uint32_t phys_bits;    /* MAXPHYADDR: CPUID 80000008H EAX[7:0], 36 without the leaf */
};

/* Read every MTRR the CPU has; false when one of them faulted. */
bool mp_mtrr_read(struct mp_mtrr *m, const struct mp_msr_io *io, uint32_t phys_bits);

/* The MTRR memory type of one address; MP_MT_INVALID where the SDM leaves it undefined. */
enum mp_memtype mp_mtrr_type(const struct mp_mtrr *m, uint64_t addr);

/* The one type of every 4 KB page of [base, base + bytes), or MP_MT_INVALID when they differ. */
enum mp_memtype mp_mtrr_range_type(const struct mp_mtrr *m, uint64_t base, uint64_t bytes);

#endif
