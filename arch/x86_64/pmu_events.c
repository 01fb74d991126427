/* SPDX-License-Identifier: MIT */
/*
 * Counter registers per architecture and event codes per CPU (pmu.h).
 *
 * Sources:
 *   Intel SDM Vol. 4, Table 2-2 "IA-32 Architectural MSRs"; Vol. 3B,
 *     section "Architectural Performance Monitoring" and its table
 *     "UMask and Event Select Encodings for Pre-Defined Architectural
 *     Performance Events"; model-specific events from Intel's event lists
 *     (perfmon-events.intel.com: skylake_core, icelake_core), which
 *     replaced the SDM's "Performance Monitoring Events" chapter.
 *   AMD APM Vol. 2, section 13.2 "Performance Monitoring Counters"; the
 *     Processor Programming References for family 17h (Zen 1, Zen 2
 *     models), family 19h (Zen 3, Zen 4 models) and family 1Ah (Zen 5
 *     models), section "Core Performance Monitor Counters", event names as
 *     there (PMCxNNN).  The Zen 1 and Zen 5 codes were checked against
 *     Linux's lists of them, tools/perf/pmu-events/arch/x86/amdzen1 and
 *     amdzen5 (cache, memory, l2-cache, load-store, inst-cache,
 *     branch-prediction).
 */
#include "arch/x86_64/pmu.h"
#include "core/lib/bits.h"

/* Intel: IA32_PERFEVTSEL0 186H, IA32_PMC0 0C1H (one apart), IA32_FIXED_CTR0 309H,
 * IA32_FIXED_CTR_CTRL 38DH, IA32_PERF_GLOBAL_CTRL 38FH (fixed and global: version 2). */
const struct mp_pmu_regs mp_pmu_intel_v1 = {
	.name = "intel-arch-v1", .evtsel_msr = 0x186, .ctr_msr = 0xc1, .msr_stride = 1, .max_gp = 8,
};

const struct mp_pmu_regs mp_pmu_intel_v2 = {
	.name = "intel-arch", .evtsel_msr = 0x186, .ctr_msr = 0xc1, .msr_stride = 1, .max_gp = 8,
	.fixed_ctr_msr = 0x309, .fixed_ctrl_msr = 0x38d, .global_ctrl_msr = 0x38f,
};

/* AMD legacy: PerfEvtSel0-3 C001_0000h-C001_0003h, PerfCtr0-3 C001_0004h-C001_0007h. */
const struct mp_pmu_regs mp_pmu_amd_legacy = {
	.name = "amd-legacy", .evtsel_msr = 0xc0010000, .ctr_msr = 0xc0010004, .msr_stride = 1,
	.max_gp = 4,
};

/* CPUID Fn8000_0001 ECX PerfCtrExtCore[23]:
 * PerfEvtSel0-5 C001_0200h + 2n, PerfCtr0-5 C001_0201h + 2n. */
const struct mp_pmu_regs mp_pmu_amd_core_ext = {
	.name = "amd-core-ext", .evtsel_msr = 0xc0010200, .ctr_msr = 0xc0010201, .msr_stride = 2,
	.max_gp = 6,
};

/* CPUID Fn8000_0022 EAX PerfMonV2[0]: the same counters gated by PerfCntGlobalCtl C000_0301h. */
const struct mp_pmu_regs mp_pmu_amd_perfmon_v2 = {
	.name = "amd-perfmon-v2", .evtsel_msr = 0xc0010200, .ctr_msr = 0xc0010201, .msr_stride = 2,
	.max_gp = 6, .global_ctrl_msr = 0xc0000301,
};

#define EV(code, mask) { .valid = true, .event = (code), .umask = (mask) }
#define EV_FIXED(code, mask, ctr) \
	{ .valid = true, .event = (code), .umask = (mask), .fixed = true, .fixed_index = (ctr) }

/*
 * Intel pre-defined architectural events (SDM Vol. 3B, table of
 * architectural events; fixed counters per the table "Association of
 * Fixed-Function Performance Counters with Architectural Performance
 * Events").  "LLC Misses" (2EH/41H) is placed by mp_pmu_choose at the
 * level of the last cache.
 */
static const struct mp_pmu_event intel_arch[MP_EV_COUNT] = {
	[MP_EV_CYCLES] = EV_FIXED(0x3c, 0x00, 1),       /* UnHalted Core Cycles; IA32_FIXED_CTR1 */
	[MP_EV_INSTRUCTIONS] = EV_FIXED(0xc0, 0x00, 0), /* Instructions Retired; IA32_FIXED_CTR0 */
};

/*
 * Skylake, Kaby/Coffee/Comet Lake, Skylake-SP, and Ice/Tiger/Rocket Lake:
 * the same codes in the skylake_core and icelake_core lists.  TLB: STLB_HIT
 * counts first-level misses the second level serves, WALK_COMPLETED the
 * misses in both (all first-level misses are their sum).
 */
static const struct mp_pmu_event intel_skylake[MP_EV_COUNT] = {
	[MP_EV_CYCLES] = EV_FIXED(0x3c, 0x00, 1),       /* CPU_CLK_UNHALTED.THREAD */
	[MP_EV_INSTRUCTIONS] = EV_FIXED(0xc0, 0x00, 0), /* INST_RETIRED.ANY */
	[MP_EV_LOADS] = EV(0xd0, 0x81),                 /* MEM_INST_RETIRED.ALL_LOADS */
	[MP_EV_STORES] = EV(0xd0, 0x82),                /* MEM_INST_RETIRED.ALL_STORES */
	[MP_EV_L1D_MISS] = EV(0xd1, 0x08),              /* MEM_LOAD_RETIRED.L1_MISS */
	[MP_EV_L1I_MISS] = EV(0x83, 0x02),              /* ICACHE_64B.IFTAG_MISS */
	[MP_EV_L2_MISS] = EV(0xd1, 0x10),               /* MEM_LOAD_RETIRED.L2_MISS */
	[MP_EV_L3_MISS] = EV(0xd1, 0x20),               /* MEM_LOAD_RETIRED.L3_MISS */
	[MP_EV_DTLB1_MISS] = EV(0x08, 0x20),            /* DTLB_LOAD_MISSES.STLB_HIT */
	[MP_EV_DTLB2_MISS] = EV(0x08, 0x0e),            /* DTLB_LOAD_MISSES.WALK_COMPLETED */
	[MP_EV_ITLB1_MISS] = EV(0x85, 0x20),            /* ITLB_MISSES.STLB_HIT */
	[MP_EV_ITLB2_MISS] = EV(0x85, 0x0e),            /* ITLB_MISSES.WALK_COMPLETED */
};

/* AMD families 10h and later: BKDGs and PPRs, PMCx076 and PMCx0C0. */
static const struct mp_pmu_event amd_generic[MP_EV_COUNT] = {
	[MP_EV_CYCLES] = EV(0x76, 0x00),       /* PMCx076 CPU clocks not halted (LsNotHaltedCyc) */
	[MP_EV_INSTRUCTIONS] = EV(0xc0, 0x00), /* PMCx0C0 Retired Instructions (ExRetInstr) */
};

/* Zen 1 and Zen 2 (family 17h): the same codes but for L3 and ITLB2 misses. */
#define AMD_ZEN1_ZEN2                                                                            \
	[MP_EV_CYCLES] = EV(0x76, 0x00),       /* PMCx076 LsNotHaltedCyc */                       \
	[MP_EV_INSTRUCTIONS] = EV(0xc0, 0x00), /* PMCx0C0 ExRetInstr */                           \
	[MP_EV_LOADS] = EV(0x29, 0x01),        /* PMCx029 LsDispatch: LdDispatch */               \
	[MP_EV_STORES] = EV(0x29, 0x02),       /* PMCx029 LsDispatch: StoreDispatch */            \
	[MP_EV_L1D_MISS] = EV(0x60, 0xe0),     /* PMCx060 L2RequestG1: RdBlkL, RdBlkX, LsRdBlkC_S */ \
	[MP_EV_L1I_MISS] = EV(0x60, 0x10),     /* PMCx060 L2RequestG1: CacheableIcRead */          \
	[MP_EV_L2_MISS] = EV(0x64, 0x09),      /* PMCx064 L2CacheReqStat: LsRdBlkC, IcFillMiss */ \
	[MP_EV_DTLB1_MISS] = EV(0x45, 0xff),   /* PMCx045 LsL1DTlbMiss: all */                    \
	[MP_EV_DTLB2_MISS] = EV(0x45, 0xf0),   /* PMCx045 LsL1DTlbMiss: the L2 DTLB misses too */ \
	[MP_EV_ITLB1_MISS] = EV(0x84, 0x00)    /* PMCx084 BpL1TlbMissL2Hit */

/*
 * Zen 1 (family 17h, models 00h-2Fh).  L1D miss: PMCx060 L2RequestG1, the
 * L2 requests of data cache misses (prefetches included).  No L3 miss:
 * the core counts no fill by its source (PMCx043 is not listed for Zen 1);
 * the L3's misses are on the L3's own counters (L3PMC), not a core's.
 */
static const struct mp_pmu_event amd_zen1[MP_EV_COUNT] = {
	AMD_ZEN1_ZEN2,
	[MP_EV_ITLB2_MISS] = EV(0x85, 0x00),   /* PMCx085 BpL1TlbMissL2Miss (no unit mask) */
};

/*
 * Zen 2 (family 17h, models 30h and later).  L3 miss: PMCx043
 * LsRefillsFromSys, demand fills from DRAM (0x08, 0x40) or a remote cache
 * (0x10): beyond the local CCX.
 */
static const struct mp_pmu_event amd_zen2[MP_EV_COUNT] = {
	AMD_ZEN1_ZEN2,
	[MP_EV_L3_MISS] = EV(0x43, 0x58),      /* PMCx043 LsRefillsFromSys: 08, 10, 40 */
	[MP_EV_ITLB2_MISS] = EV(0x85, 0x07),   /* PMCx085 BpL1TlbMissL2Miss: 4K, 2M, 1G */
};

/*
 * Zen 3, Zen 4 (family 19h) and Zen 5 (family 1Ah): Zen 5 keeps every code
 * and unit mask below.  L1I miss: PMCx18E IcTagHitMiss, an extended event
 * code.  L3 miss: PMCx043 LsDmndFillsFromSys, demand fills from another
 * CCX's cache (0x04 near, 0x10 far) or DRAM/IO (0x08, 0x40); Zen 5's fills
 * from extension memory (0x80) are left out.
 */
static const struct mp_pmu_event amd_zen3_to_zen5[MP_EV_COUNT] = {
	[MP_EV_CYCLES] = EV(0x76, 0x00),       /* PMCx076 LsNotHaltedCyc */
	[MP_EV_INSTRUCTIONS] = EV(0xc0, 0x00), /* PMCx0C0 ExRetInstr */
	[MP_EV_LOADS] = EV(0x29, 0x01),        /* PMCx029 LsDispatch: LdDispatch */
	[MP_EV_STORES] = EV(0x29, 0x02),       /* PMCx029 LsDispatch: StoreDispatch */
	[MP_EV_L1D_MISS] = EV(0x60, 0xe0),     /* PMCx060 L2RequestG1: RdBlkL, RdBlkX, LsRdBlkC_S */
	[MP_EV_L1I_MISS] = EV(0x18e, 0x18),    /* PMCx18E IcTagHitMiss: IcMiss */
	[MP_EV_L2_MISS] = EV(0x64, 0x09),      /* PMCx064 L2CacheReqStat: LsRdBlkC, IcFillMiss */
	[MP_EV_L3_MISS] = EV(0x43, 0x5c),      /* PMCx043 LsDmndFillsFromSys: 04, 08, 10, 40 */
	[MP_EV_DTLB1_MISS] = EV(0x45, 0xff),   /* PMCx045 LsL1DTlbMiss: all */
	[MP_EV_DTLB2_MISS] = EV(0x45, 0xf0),   /* PMCx045 LsL1DTlbMiss: the L2 DTLB misses too */
	[MP_EV_ITLB1_MISS] = EV(0x84, 0x00),   /* PMCx084 BpL1TlbMissL2TlbHit */
	[MP_EV_ITLB2_MISS] = EV(0x85, 0x0f),   /* PMCx085 BpL1TlbMissL2TlbMiss: all */
};

#define INTEL_SKL(model) { "intel-skylake", MP_X86_INTEL, 6, (model), (model), intel_skylake }

/* First match wins; the fallbacks (family -1) last. */
const struct mp_pmu_table mp_pmu_tables[] = {
	INTEL_SKL(0x4e), INTEL_SKL(0x5e), INTEL_SKL(0x55), INTEL_SKL(0x8e), INTEL_SKL(0x9e),
	INTEL_SKL(0xa5), INTEL_SKL(0xa6),                                   /* Skylake cores */
	INTEL_SKL(0x7d), INTEL_SKL(0x7e), INTEL_SKL(0x6a), INTEL_SKL(0x6c), /* Sunny Cove */
	INTEL_SKL(0x8c), INTEL_SKL(0x8d), INTEL_SKL(0xa7),                  /* Willow, Cypress */
	{ "amd-zen1", MP_X86_AMD, 0x17, 0x00, 0x2f, amd_zen1 },
	{ "amd-zen2", MP_X86_AMD, 0x17, 0x30, 0xff, amd_zen2 },
	{ "amd-zen3-zen4", MP_X86_AMD, 0x19, 0x00, 0xff, amd_zen3_to_zen5 },
	{ "amd-zen5", MP_X86_AMD, 0x1a, 0x00, 0xff, amd_zen3_to_zen5 },
	{ "intel-architectural", MP_X86_INTEL, -1, 0, 0, intel_arch },
	{ "amd-generic", MP_X86_AMD, -1, 0, 0, amd_generic },
};

const size_t mp_pmu_ntables = MP_COUNT_OF(mp_pmu_tables);
