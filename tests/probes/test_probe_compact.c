/* SPDX-License-Identifier: MIT */
/*
 * The "compact" probe against every simulated machine: after the "l1"
 * probe, every data or unified level below the L1 with the size, line,
 * ways and inclusion the model file gives it (read with the simulator's
 * own parser).  The probe runs without "levels" here, finding the levels
 * itself, so that this test checks it alone.
 *
 * Bare metal (frames contiguous): every level exact, except where the
 * model itself makes it impossible, which the test names on an INFO line
 * and then checks that nothing wrong was recorded:
 *  - an L1 with random replacement (Cortex-A9): it does not keep the line
 *    the back-invalidation test watches, so inclusion stays unknown.
 *
 * An exclusive level whose way is the L1's (Athlon MP: 32 KB both) is
 * exact too: together they act as one set of both ways (X-Ray measured
 * 576 KB, 18-way there, 5.2.2), and the probe splits its own share off;
 * the combined capacity is its effective size.  Exclusive hierarchies of
 * other ratios: test_probe_exclusive.c.  An argument runs only the models
 * whose file name contains it.
 *
 * Rough copy (noise, scattered frames, contiguous memory granted where
 * asked): every value recorded must be right, and a level not measured
 * must say why.
 */
#include "core/lib/str.h"
#include "tests/probes/probe_cset_sim.h"

/* Issue 4's tolerance for latencies (the baseline set hits this level). */
#define LATENCY_TOL 0.10

static const struct mp_cache *found(const struct mp_result *r, int32_t level)
{
	for (int32_t i = 0; i < r->ncaches; i++)
		if (r->caches[i].level == level && r->caches[i].type != MP_KIND_INSTRUCTION)
			return &r->caches[i];
	return NULL;
}

/* Why the lower levels of this model cannot be exact on bare metal, or NULL. */
static const char *limitation(const struct mp_sim_model *m)
{
	if (ps_cache(m, 1)->replacement == MP_REPL_RANDOM)
		return "random L1: inclusion cannot be told";
	return NULL;
}

static void check_exact(const struct ps_run *s, const struct mp_sim_cache_model *mc,
			const struct mp_cache *got)
{
	char what[PS_PATH + 16];

	snprintf(what, sizeof(what), "%s L%d", s->name, (int)mc->level);
	CHECK(got != NULL, "%s recorded", what);
	if (!got)
		return;
	CHECK_EQ_INT(got->size_bytes, mc->size, what);
	CHECK_EQ_INT(got->line_bytes, mc->line, what);
	CHECK_EQ_INT(got->ways, mc->ways, what);
	CHECK_EQ_STR(got->inclusion == MP_INCL_UNKNOWN ? "-" : mp_inclusion_name(got->inclusion),
		     mp_inclusion_name(mc->inclusion), what);
	CHECK(ps_within(got->latency_cycles, mc->latency, LATENCY_TOL),
	      "%s: latency %.1f cycles, model %u", what, got->latency_cycles, mc->latency);
	if (mc->inclusion == MP_INCL_EXCLUSIVE && mc->level == 2)
		CHECK(got->effective_size_bytes == (int64_t)(mc->size + ps_cache(&s->model, 1)->size),
		      "%s: combined capacity as the effective size (%lld)", what,
		      (long long)got->effective_size_bytes);
}

/* Every value recorded is right; what is missing is NA. */
static void check_honest(const struct ps_run *s, const struct mp_sim_cache_model *mc,
			 const struct mp_cache *got, const char *why)
{
	bool size = !got || got->size_bytes == MP_NA || got->size_bytes == (int64_t)mc->size;
	bool ways = !got || got->ways == MP_NA || got->ways == (int64_t)mc->ways;
	bool line = !got || got->line_bytes == MP_NA || got->line_bytes == (int64_t)mc->line;
	bool incl = !got || got->inclusion == MP_INCL_UNKNOWN || got->inclusion == mc->inclusion;

	printf("INFO %s L%d: %s: %s\n", s->name, (int)mc->level, why, s->r.probes[1].message);
	CHECK(size && ways && line && incl, "%s L%d: nothing wrong recorded", s->name,
	      (int)mc->level);
}

static void check_levels(const struct ps_run *s, int rough)
{
	for (int32_t level = 2; ps_cache(&s->model, level); level++) {
		const struct mp_sim_cache_model *mc = ps_cache(&s->model, level);
		const struct mp_cache *got = found(&s->r, level);
		const char *why = limitation(&s->model);

		why = why || !rough ? why : "rough copy";

		if (why)
			check_honest(s, mc, got, why);
		else
			check_exact(s, mc, got);
	}
	CHECK(found(&s->r, 2 + (int32_t)(s->model.ncaches)) == NULL,
	      "%s: no level beyond the model's", s->name);
}

static void run(const char *path, int rough)
{
	struct ps_run s;

	if (!pc_open(&s, path, rough))
		return;
	ps_probe_run(&s, "l1", mp_probe_l1);
	if (rough)
		ps_probe_run(&s, "compact", mp_probe_compact);
	else
		ps_probe(&s, "compact", mp_probe_compact);
	check_levels(&s, rough);
	printf("INFO %s: l1 and compact probes %.2f s\n", s.name, s.wall);
	CHECK(s.wall < PS_MODEL_SECONDS, "%s: l1 and compact within %.0f s", s.name,
	      PS_MODEL_SECONDS);
	ps_close(&s);
}

int main(int argc, char **argv)
{
	return ps_each_model(argc > 1 ? argv[1] : NULL, run, PS_UPTO(PS_ROUGH));
}
