/* SPDX-License-Identifier: MIT */
/*
 * Where the suite runs (core/place.c) on the simulator: a machine of two
 * cores whose first has a flickering neighbour on its L1D (two ways held
 * for good, a third now and then: tests/probes/l1_neighbour.h's shape),
 * the second none.  With start_cpu = quietest the suite moves to the
 * second core, says so, and the l1 probe measures the L1 exactly there;
 * with start_cpu = first it stays and records no L1 (the neighbour's
 * edge is not sharp).  Without a neighbour nothing moves.
 */
#include "core/place.h"
#include "tests/probes/l1_neighbour.h"
#include "tests/probes/notes.h"

static const char two_cores[] =
	"name = two-cores\nclock freq=3G\n"
	"cache L1D size=32K line=64 ways=8 latency=4 replacement=lru\n"
	"cache L2 size=1M line=64 ways=16 latency=14 replacement=lru\n"
	"tlb DTLB1 entries=64 ways=4 page=4K latency=7\n"
	"memory latency=200\ncpu cores=2 threads=1\n";

static const struct mp_cache *l1_of(struct mp_result *r)
{
	return mp_result_find_cache(r, 1, MP_KIND_DATA);
}

/* The machine, the flickering neighbour beside CPU 0 alone where `busy`. */
static int open_two(struct ps_run *s, bool busy, enum mp_start start)
{
	if (!ps_open_text(s, "two-cores", two_cores, PS_EXACT))
		return 0;
	s->cfg.start_cpu = start;
	if (!busy)
		return 1;
	mp_sim_close(s->p);
	s->full.neighbour = (typeof(s->full.neighbour)){
		.ways = NB_WAYS, .level = 1, .on = flickering.on, .off = flickering.off, .every = 8,
		.extra = flickering.extra, .extra_on = flickering.extra_on,
		.extra_off = flickering.extra_off, .cpu = 0, .one_cpu = true,
	};
	snprintf(s->name, sizeof(s->name), "two-cores (neighbour beside CPU 0)");
	return ps_platform(&s->full, s->name, &s->p, &s->r);
}

/* The APIC ID of the seam's CPU `cpu`, or -1. */
static long apic_of(struct mp_platform *p, uint32_t cpu)
{
	struct mp_cpu_info i;

	return p->ops->cpu_info(p, cpu, &i) == MP_OK ? (long)i.apic_id : -1;
}

static void quietest_moves(void)
{
	struct ps_run s;
	const struct mp_cache *l1;

	if (!open_two(&s, true, MP_START_QUIETEST))
		return;
	mp_place(s.p, &s.cfg, &s.r);
	CHECK(ps_note(&s.r, "start_cpu: the suite runs on the CPU of APIC ID 1") != NULL,
	      "%s: the suite moves to the quiet core, and says so", s.name);
	CHECK(apic_of(s.p, 0) == 1 && apic_of(s.p, 1) == 0,
	      "%s: the quiet core is CPU 0 now, the first CPU 1", s.name);
	ps_probe(&s, "l1", mp_probe_l1);
	l1 = l1_of(&s.r);
	CHECK(l1 && l1->size_bytes == 32768 && l1->ways == 8 && l1->line_bytes == 64,
	      "%s: the L1 exact on the quiet core (%lld/%lld-way)", s.name,
	      l1 ? (long long)l1->size_bytes : -1LL, l1 ? (long long)l1->ways : -1LL);
	ps_close(&s);
}

static void first_stays(void)
{
	struct ps_run s;
	const struct mp_cache *l1;

	if (!open_two(&s, true, MP_START_FIRST))
		return;
	mp_place(s.p, &s.cfg, &s.r);
	CHECK(ps_note(&s.r, "start_cpu") == NULL, "%s, start_cpu first: no move", s.name);
	ps_probe_run(&s, "l1", mp_probe_l1);
	l1 = l1_of(&s.r);
	CHECK(!l1 || l1->size_bytes == MP_NA, "%s, start_cpu first: no L1 size recorded beside "
	      "the neighbour (%lld)", s.name, l1 ? (long long)l1->size_bytes : -1LL);
	ps_close(&s);
}

static void quiet_machine_stays(void)
{
	struct ps_run s;

	if (!open_two(&s, false, MP_START_QUIETEST))
		return;
	mp_place(s.p, &s.cfg, &s.r);
	CHECK(ps_note(&s.r, "start_cpu") == NULL, "%s: no neighbour, no move", s.name);
	CHECK(s.p->ops->cpu_home(s.p, 1) == MP_OK && apic_of(s.p, 0) == 1 && apic_of(s.p, 1) == 0 &&
	      s.p->ops->cpu_home(s.p, 1) == MP_OK && apic_of(s.p, 0) == 0 && apic_of(s.p, 1) == 1,
	      "%s: cpu_home swaps CPU 0 and the one named, and back", s.name);
	ps_close(&s);
}

int main(void)
{
	quietest_moves();
	first_stays();
	quiet_machine_stays();
	return check_done();
}
