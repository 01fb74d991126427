/* SPDX-License-Identifier: MIT */
/*
 * Core performance counters by MSR, as data and pure functions: which
 * registers a CPU has (struct mp_pmu_regs, one per counter architecture),
 * which event codes count memprobe's events (per vendor, family and model
 * tables, pmu_events.c), and the values to write.  Nothing here touches an
 * MSR: efi/ does, behind its #GP handler.
 *
 * Sequence for the caller (Intel SDM Vol. 3B, chapter "Performance
 * Monitoring", section "Architectural Performance Monitoring"; AMD APM
 * Vol. 2, section 13.2 "Performance Monitoring Counters"):
 *   global control 0 (when there is one); write each event select
 *   (mp_pmu_evtsel) and zero its counter; fixed control
 *   (mp_pmu_fixed_ctrl); global control (mp_pmu_global_ctrl) to start;
 *   read the counters; global control 0 to stop.
 */
#ifndef MEMPROBE_ARCH_X86_64_PMU_H
#define MEMPROBE_ARCH_X86_64_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/x86_64/cpuid.h"
#include "core/platform.h"

/* One event: its select code and unit mask, and the Intel fixed counter that also counts it. */
struct mp_pmu_event {
	bool valid;
	uint16_t event;      /* 8 bits on Intel, 12 on AMD (bits 11:8 go to MSR bits 35:32) */
	uint8_t umask;
	bool fixed;          /* an Intel fixed counter counts it: */
	uint8_t fixed_index; /*   IA32_FIXED_CTR<fixed_index> */
};

/* An event table and the CPUs it is for (pmu_events.c). */
struct mp_pmu_table {
	const char *name;
	enum mp_x86_vendor vendor;
	int32_t family, model_lo, model_hi;        /* family -1: the vendor's fallback */
	const struct mp_pmu_event *events;         /* MP_EV_COUNT entries */
};

extern const struct mp_pmu_table mp_pmu_tables[];
extern const size_t mp_pmu_ntables;

/* The registers of one counter architecture. */
struct mp_pmu_regs {
	const char *name;
	uint32_t evtsel_msr;      /* event select of counter 0 */
	uint32_t ctr_msr;         /* counter 0 */
	uint32_t msr_stride;      /* from counter i to i + 1 */
	uint32_t max_gp;          /* counters when CPUID does not tell */
	uint32_t fixed_ctr_msr;   /* IA32_FIXED_CTR0, 0: none */
	uint32_t fixed_ctrl_msr;  /* IA32_FIXED_CTR_CTRL, 0: none */
	uint32_t global_ctrl_msr; /* IA32_PERF_GLOBAL_CTRL / PerfCntGlobalCtl, 0: none */
};

extern const struct mp_pmu_regs mp_pmu_intel_v1, mp_pmu_intel_v2, mp_pmu_amd_legacy,
	mp_pmu_amd_core_ext, mp_pmu_amd_perfmon_v2;

/* The CPUID values the choice depends on (mp_pmu_cpu_read fills it). */
struct mp_pmu_cpu {
	enum mp_x86_vendor vendor;
	int32_t family, model;
	uint32_t leaf_0a[4];   /* Intel architectural performance monitoring, zeros when absent */
	uint32_t ext1_ecx;     /* CPUID 80000001H ECX */
	uint32_t ext22_eax;    /* CPUID 80000022H EAX, EBX (AMD PerfMonV2) */
	uint32_t ext22_ebx;
	int32_t llc_level;     /* level of the last documented cache, MP_NA */
};

/* What this CPU's counters are. */
struct mp_pmu {
	const struct mp_pmu_regs *ops;
	const char *table;     /* name of the event table used */
	uint32_t version;      /* Intel CPUID.0AH:EAX[7:0]; AMD 1, or 2 with PerfMonV2 */
	uint32_t ngp, gp_bits; /* general counters and their width */
	uint32_t nfixed, fixed_bits;
	struct mp_pmu_event events[MP_EV_COUNT];
};

void mp_pmu_cpu_read(const struct mp_cpuid *c, struct mp_pmu_cpu *out);

/* Choose ops and events; false (and out->ops NULL) when there are no usable counters. */
bool mp_pmu_choose(const struct mp_pmu_cpu *cpu, struct mp_pmu *out);

/* MP_EV_BIT mask of the events the chosen table can count. */
uint32_t mp_pmu_events_mask(const struct mp_pmu *p);

/* Privilege levels to count in. */
enum { MP_PMU_USR = 1u << 0, MP_PMU_OS = 1u << 1 };

/* Event select fields (SDM Vol. 3B, Figure "Layout of IA32_PERFEVTSELx MSRs";
 * APM Vol. 2, PerfEvtSeln). */
#define MP_PMU_SEL_USR (1ull << 16)
#define MP_PMU_SEL_OS (1ull << 17)
#define MP_PMU_SEL_EN (1ull << 22)
#define MP_PMU_SEL_EVENT_HI_SHIFT 32 /* AMD EventSelect[11:8] */

/* Event select value: event, unit mask, USR/OS as asked, enabled. */
uint64_t mp_pmu_evtsel(const struct mp_pmu_event *e, unsigned flags);
/* IA32_FIXED_CTR_CTRL enabling the fixed counters in fixed_mask. */
uint64_t mp_pmu_fixed_ctrl(uint32_t fixed_mask, unsigned flags);
/* Global control enabling general counters gp_mask and fixed counters fixed_mask. */
uint64_t mp_pmu_global_ctrl(uint32_t gp_mask, uint32_t fixed_mask);

uint32_t mp_pmu_evtsel_msr(const struct mp_pmu *p, uint32_t i);
uint32_t mp_pmu_ctr_msr(const struct mp_pmu *p, uint32_t i);
uint32_t mp_pmu_fixed_ctr_msr(const struct mp_pmu *p, uint32_t i);

#endif
