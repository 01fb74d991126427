/* SPDX-License-Identifier: MIT */
/*
 * The counter probes ("amp", "papi") against every simulated machine with
 * --method counters: for every data or unified cache level the exact size,
 * line and ways, its write allocation; for every data TLB level of every
 * page size the platform maps, its exact entries and page size.  Each value
 * is checked against the model's own parsed parameters, never a constant.
 */
#include <sys/prctl.h>

#include "tests/unit/counter_sim.h"

/*
 * The probes under test, each recording under its own name.  PAPI's
 * cacheBlock cannot tell the associativity where the level above holds
 * case 3's elements (its model has no level above): there a missing value
 * is allowed, a wrong one never.
 */
static const char *const probes[] = { "amp", "papi" };
#define NPROBES (sizeof(probes) / sizeof(probes[0]))

static void cs_check_ways(const struct cs_run *s, const char *probe,
			  const struct mp_structure *st, int64_t want)
{
	if (!strcmp(probe, "papi") && !cs_find(s, probe, st, MP_PARAM_WAYS))
		return;
	cs_check(s, probe, st, MP_PARAM_WAYS, want);
}

static void check_cache(const struct cs_run *s, const char *probe,
			const struct mp_sim_cache_model *c)
{
	struct mp_structure st = { c->level, c->type, false, MP_NA };

	cs_check(s, probe, &st, MP_PARAM_SIZE, (int64_t)c->size);
	cs_check(s, probe, &st, MP_PARAM_LINE, (int64_t)c->line);
	cs_check_ways(s, probe, &st, (int64_t)c->ways);
	if (!strcmp(probe, "amp"))
		cs_check(s, probe, &st, MP_PARAM_WRITE_ALLOCATE, c->write_allocate ? MP_YES : MP_NO);
}

static void check_tlb(const struct cs_run *s, const char *probe, const struct mp_sim_tlb_model *t)
{
	struct mp_structure st = { t->level, t->type, true, (int64_t)t->page };

	cs_check(s, probe, &st, MP_PARAM_ENTRIES, (int64_t)t->entries);
	cs_check(s, probe, &st, MP_PARAM_PAGE, (int64_t)t->page);
	cs_check_ways(s, probe, &st, (int64_t)t->ways);
}

static void one(const char *path)
{
	struct cs_run s;

	if (!cs_open(&s, path, MP_METHOD_COUNTERS, "amp,papi"))
		return;
	cs_suite(&s);
	for (unsigned p = 0; p < NPROBES; p++) {
		CHECK(cs_probe_status(&s, probes[p]) == MP_PROBE_OK, "%s: probe %s ok", s.name,
		      probes[p]);
		for (int i = 0; i < s.model.ncaches; i++)
			if (cs_counted_cache(&s.model, &s.model.caches[i]))
				check_cache(&s, probes[p], &s.model.caches[i]);
		for (int i = 0; i < s.model.ntlbs; i++)
			if (cs_counted_tlb(&s.model, &s.model.tlbs[i]))
				check_tlb(&s, probes[p], &s.model.tlbs[i]);
	}
	CHECK(s.wall < CS_MODEL_SECONDS, "%s: counter suite in %.1f s (limit %.0f s)", s.name,
	      s.wall, CS_MODEL_SECONDS);
	cs_close(&s);
}

int main(int argc, char **argv)
{
	static char paths[CS_MAX_MODELS][CS_PATH];
	int n = argc > 1 ? argc - 1 : cs_models(paths);

	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	CHECK(n > 0, "model files found in %s", CS_MODELS_DIR);
	for (int i = 0; i < n; i++)
		one(argc > 1 ? argv[i + 1] : paths[i]);
	return check_done();
}
