/* SPDX-License-Identifier: MIT */
/* Choosing counter registers and events from CPUID, and the values to write (pmu.h). */
#include "arch/x86_64/cpuid_int.h"
#include "arch/x86_64/pmu.h"
#include "core/lib/str.h"

/*
 * CPUID.0AH (Intel SDM Vol. 2A, CPUID, "Architectural Performance
 * Monitoring Leaf"): EAX[7:0] version, EAX[15:8] general counters per
 * logical processor, EAX[23:16] their width, EAX[31:24] length of the EBX
 * vector, whose bit i set means architectural event i is not available;
 * EDX[4:0] fixed counters and EDX[12:5] their width (version 2 on).
 */
enum { ARCH_CYCLES = 0, ARCH_INSTRUCTIONS = 1, ARCH_LLC_MISSES = 4 };

/* LLC Misses, 2EH/41H (SDM Vol. 3B, pre-defined architectural events). */
static const struct mp_pmu_event llc_misses = { .valid = true, .event = 0x2e, .umask = 0x41 };

/* AMD counters are 48 bits wide (APM Vol. 2, section 13.2). */
#define AMD_COUNTER_BITS 48

static bool arch_event(const uint32_t a[4], unsigned bit)
{
	return bit < mp_bits(a[MP_EAX], 24, 8) && !mp_bits(a[MP_EBX], bit, 1);
}

static bool intel_counters(const struct mp_pmu_cpu *cpu, struct mp_pmu *p)
{
	const uint32_t *a = cpu->leaf_0a;

	p->version = mp_bits(a[MP_EAX], 0, 8);
	if (p->version == 0)
		return false;
	p->ops = p->version >= 2 ? &mp_pmu_intel_v2 : &mp_pmu_intel_v1;
	p->ngp = mp_bits(a[MP_EAX], 8, 8);
	p->gp_bits = mp_bits(a[MP_EAX], 16, 8);
	if (p->version >= 2) {
		p->nfixed = mp_bits(a[MP_EDX], 0, 5);
		p->fixed_bits = mp_bits(a[MP_EDX], 5, 8);
	}
	return true;
}

/*
 * AMD (APM Vol. 3, Appendix E): Fn8000_0022 EAX[0] PerfMonV2 with EBX[3:0]
 * NumPerfCtrCore; else Fn8000_0001 ECX[23] PerfCtrExtCore, six counters;
 * else the four legacy counters.
 */
static bool amd_counters(const struct mp_pmu_cpu *cpu, struct mp_pmu *p)
{
	if (mp_bits(cpu->ext22_eax, 0, 1)) {
		p->ops = &mp_pmu_amd_perfmon_v2;
		p->version = 2;
		p->ngp = mp_bits(cpu->ext22_ebx, 0, 4);
	} else {
		p->ops = mp_bits(cpu->ext1_ecx, 23, 1) ? &mp_pmu_amd_core_ext : &mp_pmu_amd_legacy;
		p->version = 1;
		p->ngp = p->ops->max_gp;
	}
	p->gp_bits = AMD_COUNTER_BITS;
	return true;
}

/*
 * Intel: the architectural events CPUID.0AH:EBX marks absent go (a
 * hypervisor may hide them); on the architectural table LLC Misses counts
 * misses of the last documented cache level.
 */
static void intel_events(const struct mp_pmu_cpu *cpu, struct mp_pmu *p, bool fallback)
{
	const uint32_t *a = cpu->leaf_0a;

	if (fallback && arch_event(a, ARCH_LLC_MISSES) && cpu->llc_level >= 2 &&
	    cpu->llc_level <= 4)
		p->events[MP_EV_L2_MISS + (cpu->llc_level - 2)] = llc_misses;
	if (!arch_event(a, ARCH_CYCLES))
		p->events[MP_EV_CYCLES].valid = false;
	if (!arch_event(a, ARCH_INSTRUCTIONS))
		p->events[MP_EV_INSTRUCTIONS].valid = false;
}

static const struct {
	bool (*counters)(const struct mp_pmu_cpu *, struct mp_pmu *);
	void (*events)(const struct mp_pmu_cpu *, struct mp_pmu *, bool fallback);
} vendors[] = {
	[MP_X86_OTHER] = { NULL, NULL },
	[MP_X86_INTEL] = { intel_counters, intel_events },
	[MP_X86_AMD] = { amd_counters, NULL },
};

static const struct mp_pmu_table *find_table(const struct mp_pmu_cpu *cpu)
{
	for (size_t i = 0; i < mp_pmu_ntables; i++) {
		const struct mp_pmu_table *t = &mp_pmu_tables[i];

		if (t->vendor != cpu->vendor)
			continue;
		if (t->family == -1 || (t->family == cpu->family && cpu->model >= t->model_lo &&
					cpu->model <= t->model_hi))
			return t;
	}
	return NULL;
}

bool mp_pmu_choose(const struct mp_pmu_cpu *cpu, struct mp_pmu *out)
{
	const struct mp_pmu_table *t;

	mp_memset(out, 0, sizeof(*out));
	if (!vendors[cpu->vendor].counters || !vendors[cpu->vendor].counters(cpu, out))
		goto none;
	if (out->ngp > out->ops->max_gp)
		out->ngp = out->ops->max_gp;
	t = find_table(cpu);
	if (t) {
		mp_memcpy(out->events, t->events, sizeof(out->events));
		out->table = t->name;
	}
	if (vendors[cpu->vendor].events)
		vendors[cpu->vendor].events(cpu, out, !t || t->family == -1);
	for (int e = 0; e < MP_EV_COUNT; e++)
		if (out->events[e].fixed && out->events[e].fixed_index >= out->nfixed)
			out->events[e].fixed = false; /* no such fixed counter: use a general one */
	if (out->ngp == 0 && out->nfixed == 0)
		goto none;
	return true;
none:
	mp_memset(out, 0, sizeof(*out));
	return false;
}

uint32_t mp_pmu_events_mask(const struct mp_pmu *p)
{
	uint32_t mask = 0;

	for (int e = 0; e < MP_EV_COUNT; e++)
		if (p->ops && p->events[e].valid)
			mask |= MP_EV_BIT(e);
	return mask;
}

void mp_pmu_cpu_read(const struct mp_cpuid *c, struct mp_pmu_cpu *out)
{
	struct mp_documented d;
	uint32_t r[4];

	out->vendor = c->vendor;
	out->family = c->family;
	out->model = c->model;
	mp_cpuid_leaf(c, 0xa, 0, out->leaf_0a);
	mp_cpuid_leaf(c, 0x80000001u, 0, r);
	out->ext1_ecx = r[MP_ECX];
	mp_cpuid_leaf(c, 0x80000022u, 0, r);
	out->ext22_eax = r[MP_EAX];
	out->ext22_ebx = r[MP_EBX];
	mp_cpuid_documented(c, &d);
	out->llc_level = MP_NA;
	for (int32_t i = 0; i < d.ncaches; i++)
		if (d.caches[i].level > out->llc_level)
			out->llc_level = d.caches[i].level;
}

uint64_t mp_pmu_evtsel(const struct mp_pmu_event *e, unsigned flags)
{
	return (uint64_t)(e->event & 0xff) | (uint64_t)e->umask << 8 |
	       (flags & MP_PMU_USR ? MP_PMU_SEL_USR : 0) | (flags & MP_PMU_OS ? MP_PMU_SEL_OS : 0) |
	       MP_PMU_SEL_EN | (uint64_t)((e->event >> 8) & 0xf) << MP_PMU_SEL_EVENT_HI_SHIFT;
}

/*
 * IA32_FIXED_CTR_CTRL (SDM Vol. 3B, Figure "Layout of IA32_FIXED_CTR_CTRL
 * MSR"): four bits per fixed counter i at bit 4i, bit 0 counting in ring 0
 * (OS), bit 1 above ring 0 (USR); AnyThread and PMI stay clear.
 */
uint64_t mp_pmu_fixed_ctrl(uint32_t fixed_mask, unsigned flags)
{
	uint64_t field = (flags & MP_PMU_OS ? 1u : 0u) | (flags & MP_PMU_USR ? 2u : 0u), v = 0;

	for (unsigned i = 0; i < 16; i++)
		if (fixed_mask & (1u << i))
			v |= field << (4 * i);
	return v;
}

/*
 * IA32_PERF_GLOBAL_CTRL (SDM Vol. 3B, Figure "Layout of
 * IA32_PERF_GLOBAL_CTRL MSR"): bit i enables IA32_PMCi, bit 32 + i
 * IA32_FIXED_CTRi.  AMD's PerfCntGlobalCtl has the general counters only.
 */
uint64_t mp_pmu_global_ctrl(uint32_t gp_mask, uint32_t fixed_mask)
{
	return (uint64_t)gp_mask | (uint64_t)fixed_mask << 32;
}

uint32_t mp_pmu_evtsel_msr(const struct mp_pmu *p, uint32_t i)
{
	return p->ops->evtsel_msr + i * p->ops->msr_stride;
}

uint32_t mp_pmu_ctr_msr(const struct mp_pmu *p, uint32_t i)
{
	return p->ops->ctr_msr + i * p->ops->msr_stride;
}

uint32_t mp_pmu_fixed_ctr_msr(const struct mp_pmu *p, uint32_t i)
{
	return p->ops->fixed_ctr_msr ? p->ops->fixed_ctr_msr + i : 0;
}
