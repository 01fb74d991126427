/* SPDX-License-Identifier: MIT */
/*
 * Internal to the CPUID decoders (cpuid_decode*.c): a collector larger than
 * the result's tables, where each leaf decoder drops its records, and the
 * decoders themselves.
 */
#ifndef MEMPROBE_ARCH_X86_64_CPUID_INT_H
#define MEMPROBE_ARCH_X86_64_CPUID_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/x86_64/cpuid.h"
#include "core/platform.h"
#include "core/results/result.h"

#define MP_KB 1024ll

/* The leaves that can give records, in the order `source` names them. */
enum mp_cpuid_src {
	MP_SRC_4 = 1u << 0,
	MP_SRC_8000001D = 1u << 1,
	MP_SRC_2 = 1u << 2,
	MP_SRC_18 = 1u << 3,
	MP_SRC_80000005 = 1u << 4,
	MP_SRC_80000006 = 1u << 5,
	MP_SRC_80000019 = 1u << 6,
};

struct mp_cache_rec {
	int32_t level;
	enum mp_kind kind;
	int64_t size, line, ways;  /* ways: MP_NA when not documented */
	int32_t shared_by;         /* MP_NA when not documented */
	enum mp_inclusion inclusion;
};

struct mp_tlb_rec {
	int32_t level;
	enum mp_kind kind;
	int64_t page, entries, ways;
};

/* Two records of one level, kind and page size: */
enum mp_tlb_merge {
	MP_MERGE_LARGER, /* are two descriptions of one structure: keep the larger */
	MP_MERGE_SUM,    /* are separate structures: their entries add up */
};

#define MP_CL_CACHES 16
#define MP_CL_TLBS 32

struct mp_cpuid_list {
	int32_t ncaches, ntlbs, dropped;
	struct mp_cache caches[MP_CL_CACHES];
	struct mp_tlb tlbs[MP_CL_TLBS];
	uint32_t sources;       /* MP_SRC_* of the leaves that gave a record */
	int32_t package_cpus;   /* logical CPUs in the package, MP_NA: caps shared_by */
	uint32_t only;          /* MP_SRC_* whose records are kept; 0: every leaf's */
};

void mp_cl_cache(struct mp_cpuid_list *l, uint32_t src, struct mp_cache_rec r);
void mp_cl_tlb(struct mp_cpuid_list *l, uint32_t src, struct mp_tlb_rec r, enum mp_tlb_merge m);
/* Sort, keep what fits (docs/cpu.md), write `source`; returns the number dropped. */
int32_t mp_cl_finish(struct mp_cpuid_list *l, struct mp_documented *d);

/* Field bits [lo, lo + n) of a register. */
static inline uint32_t mp_bits(uint32_t v, unsigned lo, unsigned n)
{
	return (v >> lo) & (n >= 32 ? 0xffffffffu : ((1u << n) - 1));
}

/* Bits of an APIC ID that number n things: the smallest w with 2^w >= n. */
static inline uint32_t mp_cpuid_width(uint32_t n)
{
	uint32_t w = 0;

	while (w < 31 && (1u << w) < n)
		w++;
	return w;
}

/*
 * The decoders.  Each adds the records its leaves document and returns
 * whether it found any.
 */
bool mp_cpuid_det_caches(const struct mp_cpuid *c, uint32_t leaf, struct mp_cpuid_list *l);
bool mp_cpuid_leaf2(const struct mp_cpuid *c, bool want_caches, bool want_tlbs,
		    struct mp_cpuid_list *l);
bool mp_cpuid_leaf18(const struct mp_cpuid *c, struct mp_cpuid_list *l);
bool mp_cpuid_amd_caches(const struct mp_cpuid *c, struct mp_cpuid_list *l);
bool mp_cpuid_amd_tlbs(const struct mp_cpuid *c, struct mp_cpuid_list *l);

/* CPUID.80000001H:ECX.TopologyExtensions[bit 22] (AMD APM Vol. 3, Appendix E, Fn8000_0001). */
bool mp_cpuid_amd_topoext(const struct mp_cpuid *c);

/*
 * Logical CPUs sharing a cache whose leaf 04H sharing field is `ids`
 * (EAX[25:14] + 1), from the widths of leaf 0BH's levels; MP_NA without
 * leaf 0BH (cpuid_decode_det.c).
 */
int32_t mp_cpuid_intel_sharing(const struct mp_cpuid *c, uint32_t ids);

#endif
