/* SPDX-License-Identifier: MIT */
/*
 * The "evset" probe against every simulated machine as Linux without huge
 * pages sees it: frames scattered and contiguous memory refused, so that
 * compact sets cannot measure a level whose way is larger than a page.
 * After "latency", "l1", "levels" and "compact", every data or unified
 * level below the L1 must have its physical size, line and ways exact, or
 * each not measured (null) with the reason in the probe's message; the
 * test prints which (INFO lines).  The rough copy (noise too) must record
 * nothing wrong; it runs on the models whose probes are quick under noise
 * (rough_models: a sliced xor-hashed L3 among them), the whole program
 * staying within a minute.
 *
 * ./test_probe_evset [model [exact|rough]]: only the models whose path
 * contains it, only that variant.
 */
#include "tests/probes/probe_sim.h"

/* The models whose rough copy is run too (names as in the model files). */
static const char *const rough_models[] = { "itanium2-1500", "pentium-ii-233", "pentium4-2200",
					     "core-i7-4770" };

static bool rough_model(const char *path)
{
	for (size_t i = 0; i < sizeof(rough_models) / sizeof(rough_models[0]); i++)
		if (strstr(path, rough_models[i]))
			return true;
	return false;
}

/* Memory for the pools of the largest levels (four times Ice Lake's 60 MB L3). */
#define EV_ARENA (1ull << 30)

static const struct mp_cache *found(const struct mp_result *r, int32_t level)
{
	for (int32_t i = 0; i < r->ncaches; i++)
		if (r->caches[i].level == level && r->caches[i].type != MP_KIND_INSTRUCTION)
			return &r->caches[i];
	return NULL;
}

static bool right(int64_t got, uint64_t want)
{
	return got == MP_NA || got == (int64_t)want;
}

/* Every value right or null; counts the exact ones into *exact. */
static void check_level(const struct ps_run *s, const struct mp_sim_cache_model *mc,
			const struct mp_probe *ev, int *exact)
{
	const struct mp_cache *got = found(&s->r, mc->level);
	bool all = got && got->size_bytes == (int64_t)mc->size && got->ways == (int64_t)mc->ways &&
		   got->line_bytes == (int64_t)mc->line;

	CHECK(got && right(got->size_bytes, mc->size) && right(got->ways, mc->ways) &&
	      right(got->line_bytes, mc->line),
	      "%s L%d: nothing wrong (size %lld ways %lld line %lld; model %llu %llu %llu)", s->name,
	      (int)mc->level, got ? (long long)got->size_bytes : -2,
	      got ? (long long)got->ways : -2, got ? (long long)got->line_bytes : -2,
	      (unsigned long long)mc->size, (unsigned long long)mc->ways,
	      (unsigned long long)mc->line);
	if (!all)
		CHECK(ev->status != MP_PROBE_OK ? ev->message[0] != '\0'
						 : strstr(ev->message, "not measured") != NULL,
		      "%s L%d: what is missing says why", s->name, (int)mc->level);
	*exact += all;
	printf("INFO %s L%d: %s (method %s)\n", s->name, (int)mc->level,
	       all ? "exact" : "not all measured", got ? mp_method_name(got->method) : "-");
}

static void run(const char *path, int rough)
{
	static int exact, levels;
	struct ps_run s;
	struct mp_probe *ev;
	double t0;

	if (rough != PS_EXACT && !rough_model(path))
		return;
	if (!ps_open(&s, path, rough == PS_EXACT ? PS_EXACT : PS_REFUSED))
		return;
	mp_sim_close(s.p);
	s.model.frames.mode = MP_SIM_FRAMES_SCATTERED;
	s.model.frames.refuse_contiguous = true;
	if (!ps_platform(&s.model, s.name, &s.p, &s.r))
		return;
	if (rough == PS_EXACT)
		strncat(s.name, " (scattered, no contiguous memory)", sizeof(s.name) - strlen(s.name) - 1);
	s.cfg.arena_bytes = EV_ARENA;
	ps_probe_run(&s, "latency", mp_probe_latency);
	ps_probe_run(&s, "l1", mp_probe_l1);
	ps_probe_run(&s, "levels", mp_probe_levels);
	ps_probe_run(&s, "compact", mp_probe_compact);
	t0 = s.wall;
	printf("INFO %s: latency, l1, levels, compact %.2f s\n", s.name, s.wall);
	ev = ps_probe_run(&s, "evset", mp_probe_evset);
	printf("INFO %s: evset %.2f s: %s: %s\n", s.name, s.wall - t0,
	       mp_probe_status_name(ev->status), ev->message);
	for (int32_t level = 2; ps_cache(&s.model, level); level++, levels++)
		check_level(&s, ps_cache(&s.model, level), ev, &exact);
	printf("INFO %s: probes %.2f s; %d of %d levels exact so far\n", s.name, s.wall, exact,
	       levels);
	ps_close(&s);
}

int main(int argc, char **argv)
{
	unsigned variants = PS_ONLY(PS_EXACT) | PS_ONLY(PS_ROUGH);

	if (argc > 2)
		variants = strcmp(argv[2], "rough") == 0 ? PS_ONLY(PS_ROUGH) : PS_ONLY(PS_EXACT);
	return ps_each_model(argc > 1 ? argv[1] : NULL, run, variants);
}
