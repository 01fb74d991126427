/* SPDX-License-Identifier: MIT */
/*
 * Checking, programming and reading the counters (arch/x86_64/pmc.h), in
 * the order of Intel SDM Vol. 3B, "Architectural Performance Monitoring",
 * and AMD APM Vol. 2, section 13.2: stop (global control 0, or every event
 * select 0 where there is none), write each event select and zero its
 * counter, set the fixed-counter control, start with the global control.
 */
#include "arch/x86_64/pmc.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"

#define NO_ARCH_PERFMON "CPUID leaf 0AH reports no architectural performance monitoring"
#define NO_VENDOR_PMU "no performance counters known for this CPU's vendor"

/* Count in every ring: the UEFI application and the firmware run in ring 0 (OS). */
#define COUNT_IN (MP_PMU_OS | MP_PMU_USR)

static const char *const event_names[MP_EV_COUNT] = {
	[MP_EV_CYCLES] = "cycles",       [MP_EV_INSTRUCTIONS] = "instructions",
	[MP_EV_LOADS] = "loads",         [MP_EV_STORES] = "stores",
	[MP_EV_L1D_MISS] = "L1D-miss",   [MP_EV_L1I_MISS] = "L1I-miss",
	[MP_EV_L2_MISS] = "L2-miss",     [MP_EV_L3_MISS] = "L3-miss",
	[MP_EV_L4_MISS] = "L4-miss",     [MP_EV_DTLB1_MISS] = "DTLB1-miss",
	[MP_EV_DTLB2_MISS] = "DTLB2-miss", [MP_EV_ITLB1_MISS] = "ITLB1-miss",
	[MP_EV_ITLB2_MISS] = "ITLB2-miss",
};

const char *mp_pmc_event_name(enum mp_event e)
{
	return (unsigned)e < MP_EV_COUNT ? event_names[e] : "?";
}

static bool rd(const struct mp_pmc *k, uint32_t msr, uint64_t *v)
{
	*v = 0;
	return k->io.read(k->io.arg, msr, v);
}

static bool wr(const struct mp_pmc *k, uint32_t msr, uint64_t v)
{
	return k->io.write(k->io.arg, msr, v);
}

static uint32_t ngp(const struct mp_pmc *k)
{
	return k->pmu.ngp < MP_PMC_GP_MAX ? k->pmu.ngp : MP_PMC_GP_MAX;
}

static uint32_t nfixed(const struct mp_pmc *k)
{
	return k->pmu.nfixed < MP_PMC_FIXED_MAX ? k->pmu.nfixed : MP_PMC_FIXED_MAX;
}

/* Everything off; false when the global control (the one way to start) faults. */
static bool stop(const struct mp_pmc *k)
{
	const struct mp_pmu_regs *o = k->pmu.ops;
	bool ok = !o->global_ctrl_msr || wr(k, o->global_ctrl_msr, 0);

	for (uint32_t i = 0; i < ngp(k); i++)
		wr(k, mp_pmu_evtsel_msr(&k->pmu, i), 0);
	if (o->fixed_ctrl_msr)
		wr(k, o->fixed_ctrl_msr, 0);
	return ok;
}

static bool start(const struct mp_pmc *k, uint32_t gp, uint32_t fixed)
{
	const struct mp_pmu_regs *o = k->pmu.ops;

	if (o->fixed_ctrl_msr && !wr(k, o->fixed_ctrl_msr, mp_pmu_fixed_ctrl(fixed, COUNT_IN)))
		return false;
	return !o->global_ctrl_msr || wr(k, o->global_ctrl_msr, mp_pmu_global_ctrl(gp, fixed));
}

static void save(struct mp_pmc *k)
{
	const struct mp_pmu_regs *o = k->pmu.ops;

	for (uint32_t i = 0; i < ngp(k); i++)
		rd(k, mp_pmu_evtsel_msr(&k->pmu, i), &k->sel[i]);
	if (o->fixed_ctrl_msr)
		rd(k, o->fixed_ctrl_msr, &k->fixed_ctrl);
	if (o->global_ctrl_msr)
		rd(k, o->global_ctrl_msr, &k->global_ctrl);
	k->saved = true;
}

/* Program general counter i with `sel`: it must take the value and read it back. */
static bool program_gp(const struct mp_pmc *k, uint32_t i, uint64_t sel)
{
	uint32_t sel_msr = mp_pmu_evtsel_msr(&k->pmu, i);
	uint64_t back;

	return wr(k, sel_msr, 0) && wr(k, mp_pmu_ctr_msr(&k->pmu, i), 0) && wr(k, sel_msr, sel) &&
	       rd(k, sel_msr, &back) && back == sel;
}

/* The event that shows a counter counting: cycles, or instructions where CPUID hides cycles. */
static const struct mp_pmu_event *probe_event(const struct mp_pmc *k)
{
	const struct mp_pmu_event *e = &k->pmu.events[MP_EV_CYCLES];

	return e->valid ? e : &k->pmu.events[MP_EV_INSTRUCTIONS];
}

static bool counted(const struct mp_pmc *k, uint32_t msr, void (*work)(void))
{
	uint64_t n;

	work();
	return rd(k, msr, &n) && n > 0;
}

static bool gp_counts(const struct mp_pmc *k, uint32_t i, void (*work)(void))
{
	const struct mp_pmu_event *e = probe_event(k);
	bool ok = e->valid && program_gp(k, i, mp_pmu_evtsel(e, COUNT_IN)) &&
		  start(k, 1u << i, 0) && counted(k, mp_pmu_ctr_msr(&k->pmu, i), work);

	stop(k);
	return ok;
}

static bool fixed_counts(const struct mp_pmc *k, uint32_t j, void (*work)(void))
{
	uint32_t msr = mp_pmu_fixed_ctr_msr(&k->pmu, j);
	uint64_t back;
	bool ok = msr && wr(k, msr, 0) && start(k, 0, 1u << j) &&
		  rd(k, k->pmu.ops->fixed_ctrl_msr, &back) &&
		  back == mp_pmu_fixed_ctrl(1u << j, COUNT_IN) && counted(k, msr, work);

	stop(k);
	return ok;
}

/* Does a general counter that passed take this event's select value (left disabled)? */
static bool select_ok(const struct mp_pmc *k, const struct mp_pmu_event *e)
{
	uint32_t i = (uint32_t)__builtin_ctz(k->gp_ok);
	bool ok = program_gp(k, i, mp_pmu_evtsel(e, COUNT_IN) & ~MP_PMU_SEL_EN);

	wr(k, mp_pmu_evtsel_msr(&k->pmu, i), 0);
	return ok;
}

static bool offered(const struct mp_pmc *k, const struct mp_pmu_event *e)
{
	if (!e->valid)
		return false;
	if (e->fixed && (k->fixed_ok & (1u << e->fixed_index)))
		return true;
	return k->gp_ok && select_ok(k, e);
}

static uint32_t none(struct mp_pmc *k, const char *why)
{
	mp_snprintf(k->why, sizeof(k->why), "%s%s%s", k->pmu.ops ? k->pmu.ops->name : "",
		    k->pmu.ops ? ": " : "", why);
	k->events = 0;
	return 0;
}

uint32_t mp_pmc_open(struct mp_pmc *k, const struct mp_pmu_cpu *cpu, const struct mp_msr_io *io,
		     void (*work)(void))
{
	mp_memset(k, 0, sizeof(*k));
	k->io = *io;
	if (!mp_pmu_choose(cpu, &k->pmu))
		return none(k, cpu->vendor == MP_X86_INTEL ? NO_ARCH_PERFMON : NO_VENDOR_PMU);
	save(k);
	if (!stop(k))
		return none(k, "the global control MSR faulted");
	for (uint32_t i = 0; i < ngp(k); i++)
		k->gp_ok |= gp_counts(k, i, work) ? 1u << i : 0;
	for (uint32_t j = 0; j < nfixed(k); j++)
		k->fixed_ok |= fixed_counts(k, j, work) ? 1u << j : 0;
	for (unsigned e = 0; e < MP_EV_COUNT; e++)
		k->events |= offered(k, &k->pmu.events[e]) ? MP_EV_BIT(e) : 0;
	if (!k->events)
		return none(k, "no counter took an event select and counted");
	return k->events;
}

/* Place each wanted event: its fixed counter, else the next free general counter. */
static uint32_t place(struct mp_pmc *k, uint32_t want, uint32_t *gp, uint32_t *fixed)
{
	uint32_t placed = 0, free_gp = k->gp_ok;

	*gp = *fixed = 0;
	for (unsigned e = 0; e < MP_EV_COUNT; e++) {
		const struct mp_pmu_event *ev = &k->pmu.events[e];
		uint32_t f = 1u << ev->fixed_index;

		k->place[e] = MP_PMC_NONE;
		if (!(want & MP_EV_BIT(e)))
			continue;
		if (ev->fixed && (k->fixed_ok & f) && !(*fixed & f)) {
			*fixed |= f;
			k->place[e] = (int8_t)(MP_PMC_FIXED + ev->fixed_index);
		} else if (free_gp) {
			uint32_t i = (uint32_t)__builtin_ctz(free_gp);

			free_gp &= ~(1u << i);
			*gp |= 1u << i;
			k->place[e] = (int8_t)i;
		} else {
			continue;
		}
		placed |= MP_EV_BIT(e);
	}
	return placed;
}

/* The counter register of a place. */
static uint32_t counter_msr(const struct mp_pmc *k, int p)
{
	if (p >= MP_PMC_FIXED)
		return mp_pmu_fixed_ctr_msr(&k->pmu, (uint32_t)(p - MP_PMC_FIXED));
	return mp_pmu_ctr_msr(&k->pmu, (uint32_t)p);
}

/* Event e on its place: a general counter's select and zero, or a fixed counter's zero. */
static bool program(const struct mp_pmc *k, unsigned e)
{
	int p = k->place[e];

	if (p >= MP_PMC_FIXED)
		return wr(k, counter_msr(k, p), 0);
	return program_gp(k, (uint32_t)p, mp_pmu_evtsel(&k->pmu.events[e], COUNT_IN));
}

uint32_t mp_pmc_arm(struct mp_pmc *k, uint32_t want)
{
	uint32_t gp, fixed, armed;

	want &= k->events;
	if (want == k->asked)
		return k->armed;
	stop(k);
	armed = place(k, want, &gp, &fixed);
	for (unsigned e = 0; e < MP_EV_COUNT; e++)
		if ((armed & MP_EV_BIT(e)) && !program(k, e))
			armed &= ~MP_EV_BIT(e);
	k->asked = want;
	k->armed = start(k, gp, fixed) ? armed : 0;
	return k->armed;
}

void mp_pmc_read(struct mp_pmc *k, uint32_t want, uint64_t out[MP_EV_COUNT])
{
	for (unsigned e = 0; e < MP_EV_COUNT; e++)
		if (want & k->armed & MP_EV_BIT(e))
			rd(k, counter_msr(k, k->place[e]), &out[e]);
}

void mp_pmc_close(struct mp_pmc *k)
{
	const struct mp_pmu_regs *o = k->pmu.ops;

	if (!k->saved)
		return;
	stop(k);
	for (uint32_t i = 0; i < ngp(k); i++)
		wr(k, mp_pmu_evtsel_msr(&k->pmu, i), k->sel[i]);
	if (o->fixed_ctrl_msr)
		wr(k, o->fixed_ctrl_msr, k->fixed_ctrl);
	if (o->global_ctrl_msr)
		wr(k, o->global_ctrl_msr, k->global_ctrl);
	k->saved = false;
	k->asked = k->armed = 0;
}

static uint32_t backend_arm(void *arg, uint32_t want)
{
	return mp_pmc_arm(arg, want);
}

static void backend_read(void *arg, uint32_t want, uint64_t out[MP_EV_COUNT])
{
	mp_pmc_read(arg, want, out);
}

void mp_pmc_backend(struct mp_pmc *k, struct mp_x86_pmc *out)
{
	out->events = k->events;
	out->arm = backend_arm;
	out->read = backend_read;
	out->arg = k;
}
