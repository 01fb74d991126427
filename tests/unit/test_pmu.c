/* SPDX-License-Identifier: MIT */
/*
 * PMU tables and choices: event select encodings bit by bit, MSR
 * addresses, which events each table has, and what mp_pmu_choose makes of
 * the recorded CPUs (tests/unit/cpuid_records.h).
 */
#include <stdio.h>

#include "arch/x86_64/pmu.h"
#include "tests/check.h"
#include "tests/unit/cpuid_records.h"

#define BIT(n) (1ull << (n))
#define ALL_BUT_L4 ((MP_EV_BIT(MP_EV_COUNT) - 1) & ~MP_EV_BIT(MP_EV_L4_MISS))
#define CORE_EVENTS (MP_EV_BIT(MP_EV_CYCLES) | MP_EV_BIT(MP_EV_INSTRUCTIONS))

static uint64_t field(uint64_t v, unsigned lo, unsigned n)
{
	return (v >> lo) & ((1ull << n) - 1);
}

/* Intel MEM_LOAD_RETIRED.L3_MISS (D1H/20H), user and kernel. */
static void test_evtsel_intel(void)
{
	const struct mp_pmu_event e = { .valid = true, .event = 0xd1, .umask = 0x20 };
	uint64_t v = mp_pmu_evtsel(&e, MP_PMU_USR | MP_PMU_OS);

	CHECK_EQ_INT(field(v, 0, 8), 0xd1, "evtsel: event select bits 7:0");
	CHECK_EQ_INT(field(v, 8, 8), 0x20, "evtsel: unit mask bits 15:8");
	CHECK_EQ_INT(field(v, 16, 1), 1, "evtsel: USR bit 16");
	CHECK_EQ_INT(field(v, 17, 1), 1, "evtsel: OS bit 17");
	CHECK_EQ_INT(field(v, 18, 4), 0, "evtsel: edge, pin control, interrupt, any thread clear");
	CHECK_EQ_INT(field(v, 22, 1), 1, "evtsel: EN bit 22");
	CHECK_EQ_INT(field(v, 23, 9), 0, "evtsel: invert and counter mask clear");
	CHECK_EQ_INT(field(v, 32, 32), 0, "evtsel: nothing above bit 31 for an 8-bit event");
	CHECK_EQ_INT(v, 0x4320d1, "evtsel: D1H/20H USR|OS");
}

/* AMD PMCx18E umask 18H (an extended event), user only; Intel cycles, kernel only. */
static void test_evtsel_amd(void)
{
	const struct mp_pmu_event ic = { .valid = true, .event = 0x18e, .umask = 0x18 };
	const struct mp_pmu_event cyc = { .valid = true, .event = 0x3c, .umask = 0x00 };
	uint64_t v = mp_pmu_evtsel(&ic, MP_PMU_USR);

	CHECK_EQ_INT(field(v, 0, 8), 0x8e, "AMD evtsel: EventSelect[7:0] in bits 7:0");
	CHECK_EQ_INT(field(v, 32, 4), 0x1, "AMD evtsel: EventSelect[11:8] in bits 35:32");
	CHECK_EQ_INT(field(v, 8, 8), 0x18, "AMD evtsel: unit mask");
	CHECK(field(v, 16, 1) == 1 && field(v, 17, 1) == 0, "AMD evtsel: USR without OS");
	CHECK_EQ_INT(v, 0x10041188eull, "AMD evtsel: PMCx18E/18H USR");
	CHECK_EQ_INT(mp_pmu_evtsel(&cyc, MP_PMU_OS), 0x42003c, "evtsel: 3CH/00H OS only");
}

static void test_control_values(void)
{
	CHECK_EQ_INT(mp_pmu_fixed_ctrl(0x3, MP_PMU_USR | MP_PMU_OS), 0x33,
		     "fixed ctrl: counters 0 and 1, OS (bit 0) and USR (bit 1) each");
	CHECK_EQ_INT(mp_pmu_fixed_ctrl(0x4, MP_PMU_OS), 0x100, "fixed ctrl: counter 2 OS, bit 8");
	CHECK_EQ_INT(mp_pmu_fixed_ctrl(0x7, MP_PMU_USR), 0x222, "fixed ctrl: counters 0-2 USR");
	CHECK_EQ_INT(mp_pmu_global_ctrl(0xf, 0x7), 0x000000070000000full,
		     "global ctrl: PMC0-3 in bits 3:0, fixed 0-2 in bits 34:32");
	CHECK_EQ_INT(mp_pmu_global_ctrl(0x3f, 0), 0x3f, "global ctrl: AMD six counters");
}

/* The choice for one recorded CPU. */
struct want {
	bool ok;
	const struct mp_pmu_ops *ops;
	const char *table;
	unsigned version, ngp, gp_bits, nfixed, fixed_bits;
	uint32_t events;
};

static bool choose(struct cpu_rec *rec, struct mp_pmu *p)
{
	struct mp_cpuid c;
	struct mp_pmu_cpu cpu;

	mp_cpuid_open(&c, rec_cpuid, rec);
	mp_pmu_cpu_read(&c, &cpu);
	return mp_pmu_choose(&cpu, p);
}

static void check_choice(struct cpu_rec *rec, const struct want *w, struct mp_pmu *p)
{
	bool ok = choose(rec, p);

	CHECK(ok == w->ok && p->ops == w->ops, "%s: ops %s want %s", rec->name,
	      p->ops ? p->ops->name : "none", w->ops ? w->ops->name : "none");
	CHECK(p->version == w->version && p->ngp == w->ngp && p->gp_bits == w->gp_bits &&
	      p->nfixed == w->nfixed && p->fixed_bits == w->fixed_bits,
	      "%s: version %u, %u x %u-bit general, %u x %u-bit fixed; want %u, %u x %u, %u x %u",
	      rec->name, p->version, p->ngp, p->gp_bits, p->nfixed, p->fixed_bits, w->version,
	      w->ngp, w->gp_bits, w->nfixed, w->fixed_bits);
	CHECK_EQ_STR(p->table ? p->table : "none", w->table, rec->name);
	CHECK(mp_pmu_events_mask(p) == w->events, "%s: events 0x%x want 0x%x", rec->name,
	      mp_pmu_events_mask(p), w->events);
	CHECK_EQ_INT(rec->past_max, 0, "no leaf read above the maximum");
}

static void test_intel_choices(void)
{
	struct cpu_rec skl = CPU_REC("skylake", rec_skl), icl = CPU_REC("icelake", rec_icl);
	struct cpu_rec core2 = CPU_REC("core2", rec_q6600), atom = CPU_REC("atom", rec_atom);
	struct cpu_rec p4 = CPU_REC("p4", rec_p4);
	struct mp_pmu p;

	/* 0AH: EAX 07300404H (v4, 4 x 48), EDX 603H (3 x 48). */
	check_choice(&skl, &(struct want){ true, &mp_pmu_intel_v2, "intel-skylake", 4, 4, 48, 3, 48,
					   ALL_BUT_L4 }, &p);
	CHECK(p.events[MP_EV_CYCLES].fixed && p.events[MP_EV_CYCLES].fixed_index == 1 &&
	      p.events[MP_EV_INSTRUCTIONS].fixed && p.events[MP_EV_INSTRUCTIONS].fixed_index == 0,
	      "skylake: cycles on IA32_FIXED_CTR1, instructions on IA32_FIXED_CTR0");
	CHECK(p.events[MP_EV_L3_MISS].event == 0xd1 && p.events[MP_EV_L3_MISS].umask == 0x20,
	      "skylake: L3 miss is MEM_LOAD_RETIRED.L3_MISS");
	CHECK_EQ_INT(mp_pmu_evtsel_msr(&p, 3), 0x189, "IA32_PERFEVTSEL3");
	CHECK_EQ_INT(mp_pmu_ctr_msr(&p, 3), 0xc4, "IA32_PMC3");
	CHECK_EQ_INT(mp_pmu_fixed_ctr_msr(&p, 2), 0x30b, "IA32_FIXED_CTR2");
	CHECK(p.ops->fixed_ctrl_msr == 0x38d && p.ops->global_ctrl_msr == 0x38f,
	      "IA32_FIXED_CTR_CTRL 38DH, IA32_PERF_GLOBAL_CTRL 38FH");
	/* 0AH: EAX 08300805H (v5, 8 x 48), EDX 8604H (4 x 48); model 7EH shares Skylake's codes. */
	check_choice(&icl, &(struct want){ true, &mp_pmu_intel_v2, "intel-skylake", 5, 8, 48, 4, 48,
					   ALL_BUT_L4 }, &p);
	/* 0AH: EAX 07280202H (v2, 2 x 40), EDX 503H (3 x 40); the last cache is L2. */
	check_choice(&core2, &(struct want){ true, &mp_pmu_intel_v2, "intel-architectural", 2, 2,
					     40, 3, 40,
					     CORE_EVENTS | MP_EV_BIT(MP_EV_L2_MISS) }, &p);
	CHECK(p.events[MP_EV_L2_MISS].event == 0x2e && p.events[MP_EV_L2_MISS].umask == 0x41,
	      "core2: L2 miss is the architectural LLC Misses 2EH/41H");
	/* 0AH: EAX 07280203H (v3, 2 x 40), EDX 2501H (1 fixed): cycles go to a general counter. */
	check_choice(&atom, &(struct want){ true, &mp_pmu_intel_v2, "intel-architectural", 3, 2, 40,
					    1, 40, CORE_EVENTS | MP_EV_BIT(MP_EV_L2_MISS) }, &p);
	CHECK(!p.events[MP_EV_CYCLES].fixed && p.events[MP_EV_INSTRUCTIONS].fixed,
	      "atom: one fixed counter, instructions only");
	/* Highest basic leaf 2: no leaf 0AH, no architectural counters. */
	check_choice(&p4, &(struct want){ false, NULL, "none", 0, 0, 0, 0, 0, 0 }, &p);
}

static void test_amd_choices(void)
{
	struct cpu_rec zen4 = CPU_REC("zen4", rec_zen4), zen2 = CPU_REC("zen2", rec_zen2);
	struct cpu_rec k10 = CPU_REC("k10", rec_k10), vm = CPU_REC("vm", rec_vm);
	struct mp_pmu p;

	/* Fn8000_0022 EAX bit 0 (PerfMonV2), EBX[3:0] = 6. */
	check_choice(&zen4, &(struct want){ true, &mp_pmu_amd_perfmon_v2, "amd-zen3-zen4", 2, 6, 48,
					    0, 0, ALL_BUT_L4 }, &p);
	CHECK_EQ_INT(mp_pmu_evtsel_msr(&p, 5), 0xc001020a, "PerfEvtSel5 C001_020Ah");
	CHECK_EQ_INT(mp_pmu_ctr_msr(&p, 5), 0xc001020b, "PerfCtr5 C001_020Bh");
	CHECK_EQ_INT(p.ops->global_ctrl_msr, 0xc0000301, "PerfCntGlobalCtl C000_0301h");
	CHECK_EQ_INT(p.events[MP_EV_L1I_MISS].event, 0x18e, "zen4: L1I miss is PMCx18E");
	/* Fn8000_0001 ECX 75C237FFH: PerfCtrExtCore; family 17H model 71H. */
	check_choice(&zen2, &(struct want){ true, &mp_pmu_amd_core_ext, "amd-zen2", 1, 6, 48, 0, 0,
					    ALL_BUT_L4 }, &p);
	CHECK(p.events[MP_EV_L3_MISS].event == 0x43 && p.events[MP_EV_L3_MISS].umask == 0x58,
	      "zen2: L3 miss is PMCx043 umask 58H");
	/* ECX 000037FFH: legacy counters; family 10H has the generic table. */
	check_choice(&k10, &(struct want){ true, &mp_pmu_amd_legacy, "amd-generic", 1, 4, 48, 0, 0,
					   CORE_EVENTS }, &p);
	CHECK_EQ_INT(mp_pmu_evtsel_msr(&p, 3), 0xc0010003, "legacy PerfEvtSel3 C001_0003h");
	CHECK_EQ_INT(mp_pmu_ctr_msr(&p, 3), 0xc0010007, "legacy PerfCtr3 C001_0007h");
	CHECK_EQ_INT(mp_pmu_fixed_ctr_msr(&p, 0), 0, "AMD: no fixed counters");
	/* This VM hides PerfCtrExtCore (ECX 004003F3H): legacy registers, Zen 3 codes. */
	check_choice(&vm, &(struct want){ true, &mp_pmu_amd_legacy, "amd-zen3-zen4", 1, 4, 48, 0, 0,
					  ALL_BUT_L4 }, &p);
}

/* CPUID.0AH EBX and EAX[31:24] as a hypervisor may set them: events go. */
static void test_arch_availability(void)
{
	struct mp_cpuid c;
	struct cpu_rec rec = CPU_REC("skylake", rec_skl);
	struct mp_pmu_cpu cpu;
	struct mp_pmu p;

	mp_cpuid_open(&c, rec_cpuid, &rec);
	mp_pmu_cpu_read(&c, &cpu);
	cpu.leaf_0a[MP_EBX] = BIT(0);
	mp_pmu_choose(&cpu, &p);
	CHECK_EQ_INT(mp_pmu_events_mask(&p), ALL_BUT_L4 & ~MP_EV_BIT(MP_EV_CYCLES),
		     "EBX bit 0 set: no core cycles");
	cpu.leaf_0a[MP_EBX] = 0;
	cpu.leaf_0a[MP_EAX] &= 0x00ffffffu;
	mp_pmu_choose(&cpu, &p);
	CHECK_EQ_INT(mp_pmu_events_mask(&p), ALL_BUT_L4 & ~CORE_EVENTS,
		     "EBX vector length 0: no architectural event");
	cpu.vendor = MP_X86_OTHER;
	CHECK(!mp_pmu_choose(&cpu, &p) && p.ops == NULL && mp_pmu_events_mask(&p) == 0,
	      "other vendors: no counters");
}

/* Every table: cycles and instructions; model tables every event but L4; codes fit. */
static void test_tables(void)
{
	int fallbacks[3] = { 0, 0, 0 };

	for (size_t i = 0; i < mp_pmu_ntables; i++) {
		const struct mp_pmu_table *t = &mp_pmu_tables[i];
		uint32_t have = 0, too_wide = 0;
		uint16_t limit = t->vendor == MP_X86_AMD ? 0xfff : 0xff;

		for (int e = 0; e < MP_EV_COUNT; e++) {
			if (!t->events[e].valid)
				continue;
			have |= MP_EV_BIT(e);
			too_wide |= t->events[e].event > limit ? MP_EV_BIT(e) : 0;
		}
		CHECK((have & CORE_EVENTS) == CORE_EVENTS, "%s: cycles and instructions", t->name);
		CHECK(t->family == -1 || have == ALL_BUT_L4, "%s (family %d): events 0x%x", t->name,
		      (int)t->family, have);
		CHECK(too_wide == 0, "%s: event codes fit the vendor's select field", t->name);
		if (t->family == -1)
			fallbacks[t->vendor]++;
		else
			CHECK(fallbacks[t->vendor] == 0, "%s: listed before its vendor's fallback",
			      t->name);
	}
	CHECK(fallbacks[MP_X86_INTEL] == 1 && fallbacks[MP_X86_AMD] == 1,
	      "one fallback table per vendor");
}

int main(void)
{
	test_evtsel_intel();
	test_evtsel_amd();
	test_control_values();
	test_intel_choices();
	test_amd_choices();
	test_arch_availability();
	test_tables();
	return check_done();
}
