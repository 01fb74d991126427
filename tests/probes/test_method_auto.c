/* SPDX-License-Identifier: MIT */
/*
 * The default method, auto (core/suite.c): with counters the platform
 * offers, timing and counters both run and are compared; on a platform
 * whose counters all failed their self-check (it offers no event), timing
 * runs alone, and a note says which it was.
 */
#include "tests/probes/counter_sim.h"

static const char small[] =
	"name = small\n"
	"clock freq=1G\n"
	"cache L1D size=8K line=32 ways=2 latency=2 replacement=lru\n"
	"cache L2 size=64K line=32 ways=4 latency=10 replacement=lru\n"
	"tlb DTLB1 entries=16 ways=4 page=4K latency=5\n"
	"memory latency=60\n";

static const struct mp_platform_ops *sim_ops;
static struct mp_platform_ops silent_ops;

/* A platform with no counter left after its self-check. */
static uint32_t no_events(struct mp_platform *p)
{
	(void)p;
	return 0;
}

static bool has_note(const struct cs_run *s, const char *text)
{
	for (int32_t i = 0; i < s->r.nnotes; i++)
		if (strcmp(s->r.notes[i], text) == 0)
			return true;
	return false;
}

static void test_with_counters(void)
{
	struct cs_run s;

	if (!cs_open_text(&s, "small", small, MP_METHOD_AUTO, "latency,amp"))
		return;
	cs_suite(&s);
	CHECK(cs_probe_status(&s, "latency") == MP_PROBE_OK && cs_probe_status(&s, "amp") == MP_PROBE_OK,
	      "auto with counters: the timing and the counter probe both ran");
	CHECK(s.r.ncomparisons > 0, "auto with counters: timing and counters compared (%d)",
	      (int)s.r.ncomparisons);
	CHECK(has_note(&s, "method auto: counters passed their self-check: timing and counters "
			   "(both)"), "auto with counters: the note says so");
	cs_close(&s);
}

static void test_without_counters(void)
{
	struct cs_run s;

	if (!cs_open_text(&s, "small", small, MP_METHOD_AUTO, "latency,amp"))
		return;
	sim_ops = s.p->ops;
	silent_ops = *sim_ops;
	silent_ops.events = no_events;
	s.p->ops = &silent_ops;
	cs_suite(&s);
	CHECK(cs_probe_status(&s, "latency") == MP_PROBE_OK &&
		      cs_probe_status(&s, "amp") == MP_PROBE_SKIPPED,
	      "auto without counters: timing alone, the counter probe skipped");
	CHECK(has_note(&s, "method auto: no counter passed its self-check: timing alone"),
	      "auto without counters: the note says so");
	s.p->ops = sim_ops;
	cs_close(&s);
}

int main(void)
{
	test_with_counters();
	test_without_counters();
	return check_done();
}
