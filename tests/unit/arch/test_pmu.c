/* SPDX-License-Identifier: MIT */
/*
 * PMU tables and choices: event select encodings bit by bit, MSR
 * addresses, which events each table has, and what mp_pmu_choose makes of
 * the recorded CPUs (tests/unit/arch/cpuid_records.h).  Then the MSR backend
 * (arch/x86_64/pmc.c) against a fake register file: counters that work,
 * counters an emulator ignores (QEMU under TCG), MSRs that fault.
 */
#include <stdio.h>
#include <string.h>

#include "arch/x86_64/pmc.h"
#include "arch/x86_64/pmu.h"
#include "tests/check.h"
#include "tests/unit/arch/cpuid_records.h"

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
	const struct mp_pmu_regs *ops;
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

/* The Zen 2 record as another family and model: the table and its events for that CPU. */
static void choose_as(int32_t family, int32_t model, struct mp_pmu *p)
{
	struct mp_cpuid c;
	struct cpu_rec rec = CPU_REC("zen2", rec_zen2);
	struct mp_pmu_cpu cpu;

	mp_cpuid_open(&c, rec_cpuid, &rec);
	mp_pmu_cpu_read(&c, &cpu);
	cpu.family = family;
	cpu.model = model;
	mp_pmu_choose(&cpu, p);
}

static int has_event(const struct mp_pmu *p, enum mp_event e, uint16_t code, uint8_t umask)
{
	return p->events[e].valid && p->events[e].event == code && p->events[e].umask == umask;
}

/* Zen 1 (17h, models 00h-2Fh) and Zen 5 (1Ah): their cache and TLB miss events. */
static void test_zen1_zen5(void)
{
	struct mp_pmu p;

	choose_as(0x17, 0x01, &p);
	CHECK_EQ_STR(p.table, "amd-zen1", "17h model 01h: zen1");
	CHECK(mp_pmu_events_mask(&p) == (ALL_BUT_L4 & ~MP_EV_BIT(MP_EV_L3_MISS)),
	      "zen1: every event but L3 and L4 misses (0x%x)", mp_pmu_events_mask(&p));
	CHECK(has_event(&p, MP_EV_L1D_MISS, 0x60, 0xe0), "zen1: L1D miss is PMCx060 umask E0H");
	CHECK(has_event(&p, MP_EV_L2_MISS, 0x64, 0x09), "zen1: L2 miss is PMCx064 umask 09H");
	CHECK(has_event(&p, MP_EV_DTLB1_MISS, 0x45, 0xff) &&
	      has_event(&p, MP_EV_DTLB2_MISS, 0x45, 0xf0), "zen1: DTLB misses are PMCx045 FFH, F0H");
	CHECK(has_event(&p, MP_EV_ITLB2_MISS, 0x85, 0x00), "zen1: ITLB2 miss is PMCx085, no mask");
	choose_as(0x17, 0x2f, &p);
	CHECK_EQ_STR(p.table, "amd-zen1", "17h model 2Fh: zen1");
	choose_as(0x17, 0x30, &p);
	CHECK_EQ_STR(p.table, "amd-zen2", "17h model 30h: zen2");
	choose_as(0x1a, 0x44, &p);
	CHECK_EQ_STR(p.table, "amd-zen5", "1Ah model 44h: zen5");
	CHECK_EQ_INT(mp_pmu_events_mask(&p), ALL_BUT_L4, "zen5: every event but L4 misses");
	CHECK(has_event(&p, MP_EV_L1D_MISS, 0x60, 0xe0) && has_event(&p, MP_EV_L2_MISS, 0x64, 0x09),
	      "zen5: L1D, L2 misses are PMCx060 E0H, PMCx064 09H");
	CHECK(has_event(&p, MP_EV_L3_MISS, 0x43, 0x5c), "zen5: L3 miss is PMCx043 umask 5CH");
	CHECK(has_event(&p, MP_EV_DTLB1_MISS, 0x45, 0xff) &&
	      has_event(&p, MP_EV_DTLB2_MISS, 0x45, 0xf0), "zen5: DTLB misses are PMCx045 FFH, F0H");
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

/* What a model table counts: every event but L4, and Zen 1 no L3 (its L3 has its own counters). */
static uint32_t table_events(const struct mp_pmu_table *t)
{
	return strcmp(t->name, "amd-zen1") ? ALL_BUT_L4 : ALL_BUT_L4 & ~MP_EV_BIT(MP_EV_L3_MISS);
}

/* Every table: cycles and instructions; model tables their events (table_events); codes fit. */
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
		CHECK(t->family == -1 || have == table_events(t), "%s (family %d): events 0x%x", t->name,
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

/*
 * A fake PMU: the registers of the PMU mp_pmu_choose picks for the CPU.
 * FAKE_REAL keeps what is written, and an enabled counter grows by 1000 in
 * fake_work and by 5 at every read; FAKE_IGNORE drops writes and reads 0
 * (QEMU under TCG); FAKE_FAULT has no MSR at all.  `broken` always faults.
 */
enum fake_mode { FAKE_REAL, FAKE_IGNORE, FAKE_FAULT };

#define FAKE_REGS 64
#define EVTSEL_EN (1ull << 22)

struct fake {
	enum fake_mode mode;
	struct mp_pmu pmu;
	uint32_t broken;
	uint32_t msr[FAKE_REGS];
	uint64_t val[FAKE_REGS];
	unsigned n, writes;
};

static struct fake *fake_now;

static bool fake_known(const struct fake *f, uint32_t msr)
{
	const struct mp_pmu_regs *o = f->pmu.ops;

	for (uint32_t i = 0; i < f->pmu.ngp; i++)
		if (msr == mp_pmu_evtsel_msr(&f->pmu, i) || msr == mp_pmu_ctr_msr(&f->pmu, i))
			return true;
	for (uint32_t i = 0; i < f->pmu.nfixed; i++)
		if (msr == mp_pmu_fixed_ctr_msr(&f->pmu, i))
			return true;
	return msr && (msr == o->fixed_ctrl_msr || msr == o->global_ctrl_msr);
}

static uint64_t *fake_reg(struct fake *f, uint32_t msr)
{
	for (unsigned i = 0; i < f->n; i++)
		if (f->msr[i] == msr)
			return &f->val[i];
	f->msr[f->n] = msr;
	f->val[f->n] = 0;
	return &f->val[f->n++];
}

static bool fake_enabled(struct fake *f, uint32_t msr)
{
	const struct mp_pmu_regs *o = f->pmu.ops;
	uint64_t global = o->global_ctrl_msr ? *fake_reg(f, o->global_ctrl_msr) : ~0ull;

	for (uint32_t i = 0; i < f->pmu.ngp; i++)
		if (msr == mp_pmu_ctr_msr(&f->pmu, i))
			return (*fake_reg(f, mp_pmu_evtsel_msr(&f->pmu, i)) & EVTSEL_EN) &&
			       (global & BIT(i));
	for (uint32_t i = 0; i < f->pmu.nfixed; i++)
		if (msr == mp_pmu_fixed_ctr_msr(&f->pmu, i))
			return (*fake_reg(f, o->fixed_ctrl_msr) >> (4 * i) & 3) &&
			       (global & BIT(32 + i));
	return false;
}

static bool fake_read(void *arg, uint32_t msr, uint64_t *v)
{
	struct fake *f = arg;

	if (f->mode == FAKE_FAULT || msr == f->broken || !fake_known(f, msr))
		return false;
	if (f->mode == FAKE_REAL && fake_enabled(f, msr))
		*fake_reg(f, msr) += 5;
	*v = f->mode == FAKE_REAL ? *fake_reg(f, msr) : 0;
	return true;
}

static bool fake_write(void *arg, uint32_t msr, uint64_t v)
{
	struct fake *f = arg;

	if (f->mode == FAKE_FAULT || msr == f->broken || !fake_known(f, msr))
		return false;
	f->writes++;
	if (f->mode == FAKE_REAL)
		*fake_reg(f, msr) = v;
	return true;
}

static void fake_work(void)
{
	for (unsigned i = 0; i < fake_now->n; i++)
		if (fake_now->mode == FAKE_REAL && fake_enabled(fake_now, fake_now->msr[i]))
			fake_now->val[i] += 1000;
}

/* Open the backend for a recorded CPU against a fake in `mode`. */
static uint32_t pmc_for(struct cpu_rec *rec, struct fake *f, enum fake_mode mode,
			struct mp_pmc *k)
{
	struct mp_msr_io io = { fake_read, fake_write, f };
	struct mp_pmu_cpu cpu;
	struct mp_cpuid c;

	f->mode = mode;
	mp_cpuid_open(&c, rec_cpuid, rec);
	mp_pmu_cpu_read(&c, &cpu);
	mp_pmu_choose(&cpu, &f->pmu);
	fake_now = f;
	return mp_pmc_open(k, &cpu, &io, fake_work);
}

#define EV(e) MP_EV_BIT(MP_EV_##e)
#define MISSES (EV(L1D_MISS) | EV(L2_MISS) | EV(L3_MISS) | EV(DTLB1_MISS) | EV(DTLB2_MISS))

/*
 * Skylake: 4 general and 3 fixed counters, all working.  Seven events on
 * six counters: cycles and instructions on their fixed counters, the
 * misses on PMC0-3 in enum order, DTLB2 left out.
 */
static void test_pmc_intel(void)
{
	struct cpu_rec skl = CPU_REC("skylake", rec_skl);
	struct fake f = { .n = 0 };
	struct mp_pmc k;
	uint64_t out[MP_EV_COUNT] = { 0 };
	uint32_t events, armed, writes;

	*fake_reg(&f, 0x38f) = 0x70000000full; /* IA32_PERF_GLOBAL_CTRL as at reset */
	*fake_reg(&f, 0x186) = 0x1234;         /* something the firmware left */
	events = pmc_for(&skl, &f, FAKE_REAL, &k); /* once: open saves the registers */
	CHECK_EQ_INT(events, ALL_BUT_L4, "pmc skylake: every event");
	CHECK(k.gp_ok == 0xf && k.fixed_ok == 0x7, "pmc skylake: PMC0-3 and FIXED_CTR0-2 count");
	armed = mp_pmc_arm(&k, CORE_EVENTS | MISSES);
	CHECK_EQ_INT(armed, CORE_EVENTS | (MISSES & ~EV(DTLB2_MISS)),
		     "pmc skylake: seven events on six counters, DTLB2 left out");
	CHECK(*fake_reg(&f, 0x186) == mp_pmu_evtsel(&k.pmu.events[MP_EV_L1D_MISS], 3) &&
	      *fake_reg(&f, 0x189) == mp_pmu_evtsel(&k.pmu.events[MP_EV_DTLB1_MISS], 3),
	      "pmc skylake: L1D miss in IA32_PERFEVTSEL0, DTLB1 in IA32_PERFEVTSEL3");
	CHECK(*fake_reg(&f, 0x38d) == 0x33 && *fake_reg(&f, 0x38f) == 0x30000000full,
	      "pmc skylake: fixed 0 and 1 on (38DH = 33H), global 3_0000000FH: 0x%llx 0x%llx",
	      (unsigned long long)*fake_reg(&f, 0x38d), (unsigned long long)*fake_reg(&f, 0x38f));
	writes = f.writes;
	CHECK_EQ_INT(mp_pmc_arm(&k, CORE_EVENTS | MISSES), armed, "pmc: the same request again");
	CHECK_EQ_INT(f.writes, writes, "pmc: armed already, no MSR written");
	fake_work();
	out[MP_EV_DTLB2_MISS] = 77;
	mp_pmc_read(&k, armed | EV(DTLB2_MISS), out);
	CHECK(out[MP_EV_CYCLES] > 1000 && out[MP_EV_L3_MISS] > 1000 && out[MP_EV_DTLB2_MISS] == 77,
	      "pmc read: the armed events' counters, nothing for the others");
	mp_pmc_close(&k);
	CHECK(*fake_reg(&f, 0x38f) == 0x70000000full && *fake_reg(&f, 0x186) == 0x1234 &&
	      *fake_reg(&f, 0x38d) == 0, "pmc close: the firmware's registers back");
}

/* Zen 2: six general counters, no fixed ones, no global control. */
static void test_pmc_amd(void)
{
	struct cpu_rec zen2 = CPU_REC("zen2", rec_zen2), k10 = CPU_REC("k10", rec_k10);
	struct fake f = { .n = 0 }, g = { .n = 0 };
	struct mp_pmc k;

	CHECK_EQ_INT(pmc_for(&zen2, &f, FAKE_REAL, &k), ALL_BUT_L4, "pmc zen2: every event");
	CHECK_EQ_INT(k.gp_ok, 0x3f, "pmc zen2: six counters");
	CHECK_EQ_INT(mp_pmc_arm(&k, CORE_EVENTS | MISSES), CORE_EVENTS | (MISSES & ~EV(DTLB2_MISS)),
		     "pmc zen2: the first six events");
	CHECK_EQ_INT(*fake_reg(&f, 0xc0010200), mp_pmu_evtsel(&k.pmu.events[MP_EV_CYCLES], 3),
		     "pmc zen2: cycles in PerfEvtSel0");
	mp_pmc_close(&k);
	CHECK_EQ_INT(pmc_for(&k10, &g, FAKE_REAL, &k), CORE_EVENTS,
		     "pmc k10: cycles and instructions");
}

/* What answers "unsupported": counters an emulator ignores, MSRs that fault, no leaf 0AH. */
static void test_pmc_none(void)
{
	struct cpu_rec vm = CPU_REC("vm", rec_vm), skl = CPU_REC("skylake", rec_skl);
	struct cpu_rec p4 = CPU_REC("p4", rec_p4);
	struct fake f = { .n = 0 };
	struct mp_pmc k;

	CHECK_EQ_INT(pmc_for(&vm, &f, FAKE_IGNORE, &k), 0, "pmc: writes ignored, reads 0: none");
	CHECK(strstr(k.why, "amd-legacy: no counter took an event select") != NULL, "why: %s",
	      k.why);
	CHECK_EQ_INT(mp_pmc_arm(&k, CORE_EVENTS), 0, "pmc: nothing to arm");
	CHECK_EQ_INT(pmc_for(&skl, &f, FAKE_FAULT, &k), 0, "pmc: every MSR faults: none");
	CHECK(strstr(k.why, "global control MSR faulted") != NULL, "why: %s", k.why);
	CHECK_EQ_INT(pmc_for(&p4, &f, FAKE_REAL, &k), 0, "pmc p4: no leaf 0AH: none");
	CHECK(strstr(k.why, "CPUID leaf 0AH reports no") != NULL, "why: %s", k.why);
}

/* One general counter faults: the others carry the events. */
static void test_pmc_broken(void)
{
	struct cpu_rec skl = CPU_REC("skylake", rec_skl);
	struct fake f = { .broken = 0x188 }; /* IA32_PERFEVTSEL2 */
	struct mp_pmc k;

	CHECK_EQ_INT(pmc_for(&skl, &f, FAKE_REAL, &k), ALL_BUT_L4, "pmc: PERFEVTSEL2 faults");
	CHECK_EQ_INT(k.gp_ok, 0xb, "pmc: PMC0, 1 and 3 pass");
	CHECK_EQ_INT(mp_pmc_arm(&k, MISSES), MISSES & ~(EV(DTLB1_MISS) | EV(DTLB2_MISS)),
		     "pmc: three misses on three counters");
	CHECK_EQ_INT(k.place[MP_EV_L3_MISS], 3, "pmc: L3 miss skips PMC2 for PMC3");
}

/* The backend under mp_x86_run (a real sweep on this machine): valid is what was armed. */
static void test_pmc_run(void)
{
	static uint64_t buf[512];
	struct cpu_rec skl = CPU_REC("skylake", rec_skl);
	struct fake f = { .n = 0 };
	struct mp_x86_pmc be;
	struct mp_sample s;
	struct mp_run r = { .op = MP_OP_LOAD_SWEEP, .start = buf, .stride = 64, .count = 64,
			    .steps = 1000, .events = EV(L1D_MISS) | EV(L4_MISS) };
	struct mp_pmc k;

	pmc_for(&skl, &f, FAKE_REAL, &k);
	mp_pmc_backend(&k, &be);
	CHECK_EQ_INT(be.events, ALL_BUT_L4, "backend: events");
	CHECK_EQ_INT(mp_x86_run(&be, &r, &s), MP_OK, "backend: a sweep runs");
	CHECK(s.valid == EV(L1D_MISS) && s.count[MP_EV_L1D_MISS] == 5,
	      "backend: L1D miss counted (one read later: +5), L4 not offered: valid 0x%x",
	      s.valid);
}

int main(void)
{
	test_evtsel_intel();
	test_evtsel_amd();
	test_control_values();
	test_intel_choices();
	test_amd_choices();
	test_zen1_zen5();
	test_arch_availability();
	test_tables();
	test_pmc_intel();
	test_pmc_amd();
	test_pmc_none();
	test_pmc_broken();
	test_pmc_run();
	return check_done();
}
