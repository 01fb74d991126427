/* SPDX-License-Identifier: MIT */
/*
 * The counter probes within the suite:
 *   - method both on a machine that misleads timing but not counters (an
 *     L2 no faster than the L3 behind it: latency shows one level where
 *     there are two): the disagreement is in comparisons[] and the notes,
 *     and the counters' value, the model's, is the one kept;
 *   - the method setting skips the probes of the other method;
 *   - a platform that counts nothing: the counter probes are unsupported,
 *     the suite finishes;
 *   - a counter that reports more misses than accesses, or does not grow
 *     with the work, is distrusted and its level left to timing.
 */
#include <sys/prctl.h>

#include "tests/probes/counter_sim.h"
#include "tests/probes/notes.h"

/* L2 and L3 hit in the same time: timing sees L1, then one level of 4M. */
static const char flat_l2[] =
	"name = flat-l2\n"
	"clock freq=3G\n"
	"cache L1D size=32K line=64 ways=8 latency=4 replacement=lru\n"
	"cache L1I size=32K line=64 ways=8 latency=4 replacement=lru\n"
	"cache L2 size=256K line=64 ways=8 latency=40 replacement=lru\n"
	"cache L3 size=4M line=64 ways=16 latency=40 replacement=lru\n"
	"tlb DTLB1 entries=64 ways=4 page=4K latency=7\n"
	"memory latency=200\n";

static const struct mp_comparison *comparison(const struct mp_result *r, int32_t level,
					      enum mp_param p)
{
	for (int32_t i = 0; i < r->ncomparisons; i++)
		if (!r->comparisons[i].s.tlb && r->comparisons[i].s.level == level &&
		    r->comparisons[i].param == p)
			return &r->comparisons[i];
	return NULL;
}

static const char *message_of(const struct cs_run *s, const char *probe)
{
	for (int32_t i = 0; i < s->r.nprobes; i++)
		if (!strcmp(s->r.probes[i].name, probe))
			return s->r.probes[i].message;
	return "";
}

static void test_both(void)
{
	struct cs_run s;
	const struct mp_comparison *c;
	const struct mp_cache *l2;

	if (!cs_open_text(&s, "flat-l2", flat_l2, MP_METHOD_BOTH, NULL))
		return;
	cs_suite(&s);
	c = comparison(&s.r, 2, MP_PARAM_SIZE);
	CHECK(c && c->agree == MP_NO && c->counters == (int64_t)s.model.caches[2].size,
	      "both: L2 size disagrees, counters %lld = model %llu, timing %lld",
	      c ? (long long)c->counters : -1LL, (unsigned long long)s.model.caches[2].size,
	      c ? (long long)c->timing : -1LL);
	CHECK(ps_note(&s.r, "L2 unified size: timing"), "both: the disagreement is a note");
	c = comparison(&s.r, 1, MP_PARAM_SIZE);
	CHECK(c && c->agree == MP_YES, "both: L1 size agrees");
	l2 = mp_result_find_cache(&s.r, 2, MP_KIND_UNIFIED);
	CHECK(l2 && l2->size_bytes == (int64_t)s.model.caches[2].size &&
	      l2->method == MP_METHOD_COUNTERS, "both: caches[] keeps the counters' L2 size");
	cs_close(&s);
}

static void test_methods(void)
{
	struct cs_run s;

	if (!cs_open_text(&s, "flat-l2", flat_l2, MP_METHOD_TIMING, "latency,amp,papi"))
		return;
	cs_suite(&s);
	CHECK(cs_probe_status(&s, "amp") == MP_PROBE_SKIPPED &&
	      !strcmp(message_of(&s, "amp"), "method is timing"), "timing: amp skipped (%s)",
	      message_of(&s, "amp"));
	CHECK(s.r.ncounted == 0 && s.r.ncomparisons == 0, "timing: nothing counted, no comparison");
	cs_close(&s);
	if (!cs_open_text(&s, "flat-l2", flat_l2, MP_METHOD_COUNTERS, "latency,amp"))
		return;
	cs_suite(&s);
	CHECK(cs_probe_status(&s, "latency") == MP_PROBE_SKIPPED &&
	      !strcmp(message_of(&s, "latency"), "method is counters"),
	      "counters: latency skipped (%s)", message_of(&s, "latency"));
	CHECK(cs_probe_status(&s, "amp") == MP_PROBE_OK, "counters: amp ran");
	CHECK(s.r.ncaches > 0 && s.r.caches[0].method == MP_METHOD_COUNTERS,
	      "counters: caches[] from the counters alone");
	cs_close(&s);
}

/* ---- a platform whose counters misbehave ---- */

enum fault { NO_EVENTS, TOO_MANY, NO_GROWTH };

static enum fault fault;
static struct mp_platform_ops faulty_ops;
static const struct mp_platform_ops *sim_ops;

static uint32_t faulty_events(struct mp_platform *p)
{
	return fault == NO_EVENTS ? 0 : sim_ops->events(p);
}

static enum mp_status faulty_run(struct mp_platform *p, const struct mp_run *r,
				 struct mp_sample *out)
{
	enum mp_status st = sim_ops->run(p, r, out);

	if (fault == TOO_MANY && (out->valid & MP_EV_BIT(MP_EV_L1D_MISS)))
		out->count[MP_EV_L1D_MISS] = r->steps + 1;
	if (fault == NO_GROWTH && (out->valid & MP_EV_BIT(MP_EV_L2_MISS)))
		out->count[MP_EV_L2_MISS] = 5;
	return st;
}

static int open_faulty(struct cs_run *s, enum fault f, enum mp_method method)
{
	if (!cs_open_text(s, "flat-l2", flat_l2, method, "latency,amp,papi"))
		return 0;
	fault = f;
	sim_ops = s->p->ops;
	faulty_ops = *sim_ops;
	faulty_ops.events = faulty_events;
	faulty_ops.run = faulty_run;
	s->p->ops = &faulty_ops;
	cs_suite(s);
	s->p->ops = sim_ops;
	return 1;
}

static void test_no_events(void)
{
	struct cs_run s;

	if (!open_faulty(&s, NO_EVENTS, MP_METHOD_BOTH))
		return;
	CHECK(cs_probe_status(&s, "amp") == MP_PROBE_UNSUPPORTED &&
	      strstr(message_of(&s, "amp"), "counts no cache or TLB miss events"),
	      "no events: amp unsupported (%s)", message_of(&s, "amp"));
	CHECK(cs_probe_status(&s, "papi") == MP_PROBE_UNSUPPORTED, "no events: papi unsupported");
	CHECK(cs_probe_status(&s, "latency") == MP_PROBE_OK, "no events: timing still ran");
	CHECK(s.r.nprobes == (int32_t)mp_nprobes, "no events: the suite finished (%d of %u probes)",
	      (int)s.r.nprobes, mp_nprobes);
	cs_close(&s);
}

/* A data or unified cache level the counters measured (AMP counts the L1I on fetches too). */
static int counted_level(const struct mp_result *r, int32_t level)
{
	for (int32_t i = 0; i < r->ncounted; i++)
		if (!r->counted[i].s.tlb && r->counted[i].s.level == level &&
		    r->counted[i].s.type != MP_KIND_INSTRUCTION)
			return 1;
	return 0;
}

static void test_insane(void)
{
	struct cs_run s;

	if (!open_faulty(&s, TOO_MANY, MP_METHOD_COUNTERS))
		return;
	CHECK(ps_note(&s.r, "L1D miss counter is unreliable (more misses than accesses)"),
	      "too many misses: the L1D counter is distrusted");
	CHECK(!counted_level(&s.r, 1) && counted_level(&s.r, 2),
	      "too many misses: L1 left to timing, L2 still counted");
	cs_close(&s);
	if (!open_faulty(&s, NO_GROWTH, MP_METHOD_COUNTERS))
		return;
	CHECK(ps_note(&s.r, "L2 miss counter is unreliable (its count does not grow"),
	      "no growth: the L2 counter is distrusted");
	CHECK(counted_level(&s.r, 1) && !counted_level(&s.r, 2), "no growth: L2 left to timing");
	cs_close(&s);
}

int main(void)
{
	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	test_both();
	test_methods();
	test_no_events();
	test_insane();
	return check_done();
}
