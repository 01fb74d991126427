/* SPDX-License-Identifier: MIT */
/*
 * The counter probes ("amp", "papi") against every simulated machine with
 * --method counters: for every data or unified cache level the exact size,
 * line and ways, its write allocation; for every data TLB level of every
 * page size the platform maps, its exact entries and page size.  AMP also
 * counts the instruction side on fetches of code blocks (3.7-3.10): the L1
 * instruction cache's exact size, line and ways, and every TLB level that
 * serves instructions, its entries, page and ways.  Each value is checked
 * against the model's own parsed parameters, never a constant.  A hashed
 * level (slices) may leave its size and ways "not told", only with the
 * reason in a note of the probe's, or give them marked unstable (split
 * votes).  A model file given as an argument runs
 * that model alone.
 */
#include <sys/prctl.h>

#include "tests/probes/counter_sim.h"

/*
 * The probes under test, each recording under its own name.  PAPI's
 * cacheBlock cannot tell the associativity where the level above holds
 * case 3's elements (its model has no level above): there a missing value
 * is allowed, a wrong one never.
 */
static const char *const probes[] = { "amp", "papi" };
#define NPROBES (sizeof(probes) / sizeof(probes[0]))

/*
 * PAPI's cacheBlock tells the ways only where the level above misses too
 * (docs/algorithms.md, "PAPI"), and its 2a elements thrash a set (miss on
 * 80% of the accesses) only where it does not replace at random.  A first
 * level replacing otherwise has nothing to hide them: there PAPI must
 * measure them.
 */
static int papi_may_lack_ways(const char *probe, const struct cs_run *s,
			      const struct mp_structure *st, enum mp_replacement repl)
{
	return !strcmp(probe, "papi") && (st->level > 1 || repl == MP_REPL_RANDOM) &&
	       !cs_find(s, probe, st, MP_PARAM_WAYS);
}

static void cs_check_ways(const struct cs_run *s, const char *probe,
			  const struct mp_structure *st, enum mp_replacement repl, int64_t want)
{
	if (papi_may_lack_ways(probe, s, st, repl))
		return;
	cs_check(s, probe, st, MP_PARAM_WAYS, want);
}

/* The page size of the probes' array: 2M where the model maps 2M pages, else its base page. */
static uint64_t array_page(const struct mp_sim_model *m)
{
	uint64_t base = UINT64_MAX;

	for (int i = 0; i < m->ntlbs; i++) {
		if (m->tlbs[i].page == (2u << 20))
			return m->tlbs[i].page;
		base = m->tlbs[i].page < base ? m->tlbs[i].page : base;
	}
	return base == UINT64_MAX ? 4096 : base;
}

/*
 * A physically indexed level whose way is larger than a page, in scattered
 * frames where the platform refuses contiguous memory: its sets depend on
 * where the frames fall (no probe can choose them through the seam).  The
 * probes must then say "not told", never give a wrong value.
 */
static int frame_bound(const struct mp_sim_model *m, const struct mp_sim_cache_model *c)
{
	return m->frames.mode == MP_SIM_FRAMES_SCATTERED && m->frames.refuse_contiguous &&
	       c->physical && c->size / c->ways > array_page(m);
}

/* The level above on the data path, or NULL. */
static const struct mp_sim_cache_model *above(const struct mp_sim_model *m,
					      const struct mp_sim_cache_model *c)
{
	for (int i = 0; i < m->ncaches; i++)
		if (m->caches[i].level == c->level - 1 && m->caches[i].type != MP_KIND_INSTRUCTION)
			return &m->caches[i];
	return NULL;
}

/*
 * An exclusive level whose way span equals the level above's: every line
 * of one of its sets shares one set of the level above, so to miss
 * counters the two are one set of both levels' ways (no access can reach
 * one and not the other).  The probes see, and must report, that set.
 */
static int joined(const struct mp_sim_model *m, const struct mp_sim_cache_model *c,
		  int64_t *size, int64_t *ways)
{
	const struct mp_sim_cache_model *u = above(m, c);

	if (c->inclusion != MP_INCL_EXCLUSIVE || !u || u->size / u->ways != c->size / c->ways)
		return 0;
	*size = (int64_t)(c->size + u->size);
	*ways = (int64_t)(c->ways + u->ways);
	return 1;
}

/* Did the probe say, in a note on the level, that a value is not told, and why? */
static int said_why(const struct cs_run *s, const char *probe, const struct mp_structure *st)
{
	char key[64];

	snprintf(key, sizeof(key), "%s: L%d cache: ", probe, (int)st->level);
	for (int32_t i = 0; i < s->r.nnotes; i++)
		if (!strncmp(s->r.notes[i], key, strlen(key)) && strstr(s->r.notes[i], "not told"))
			return 1;
	return 0;
}

/*
 * A hashed level (slices): its size and ways may be "not told", only with
 * the reason in a note, or marked unstable where the votes split (the
 * simulator's balanced hash makes the capacity's edge move with where the
 * array starts), never a wrong value called stable (docs/algorithms.md,
 * "Counter-based probes", hashed sets).
 */
static int hashed(const struct mp_sim_cache_model *c)
{
	return c->slices > 1;
}

static void check_value(const struct cs_run *s, const char *probe, const struct mp_structure *st,
			enum mp_param p, int64_t want, int may_lack)
{
	const struct mp_vote *v = cs_find(s, probe, st, p);

	if (may_lack && v && v->value != want && v->stable == MP_NO) {
		/* Marked unstable: reported as such, kept out of the audit (docs/results.md). */
		printf("# %s: %s L%d %s %lld, marked unstable (%d of %d votes)\n", s->name, probe,
		       (int)st->level, mp_param_name(p), (long long)v->value, (int)v->votes,
		       (int)v->of);
		return;
	}
	if (may_lack && !v) {
		int why = said_why(s, probe, st);

		printf("# %s: %s L%d %s not told%s\n", s->name, probe, (int)st->level,
		       mp_param_name(p), why ? ", with a reason" : "");
		CHECK(why, "%s: %s L%d %s not told: the reason is said", s->name, probe,
		      (int)st->level, mp_param_name(p));
		return;
	}
	cs_check(s, probe, st, p, want);
}

static void check_cache(const struct cs_run *s, const char *probe,
			const struct mp_sim_cache_model *c)
{
	struct mp_structure st = { c->level, c->type, false, MP_NA };
	int64_t size = (int64_t)c->size, ways = (int64_t)c->ways;
	int lack = frame_bound(&s->model, c) || hashed(c);

	if (joined(&s->model, c, &size, &ways))
		printf("# %s: L%d exclusive under a level of the same way span: one set of %lld "
		       "ways, %lld bytes to the counters\n", s->name, (int)c->level,
		       (long long)ways, (long long)size);
	check_value(s, probe, &st, MP_PARAM_SIZE, size, lack);
	cs_check(s, probe, &st, MP_PARAM_LINE, (int64_t)c->line);
	if (papi_may_lack_ways(probe, s, &st, c->replacement))
		return;
	check_value(s, probe, &st, MP_PARAM_WAYS, ways, lack);
	if (!strcmp(probe, "amp"))
		check_value(s, probe, &st, MP_PARAM_WRITE_ALLOCATE, c->write_allocate ? MP_YES : MP_NO,
			    lack);
}

static void check_tlb(const struct cs_run *s, const char *probe, const struct mp_sim_tlb_model *t)
{
	struct mp_structure st = { t->level, t->type, true, (int64_t)t->page };

	cs_check(s, probe, &st, MP_PARAM_ENTRIES, (int64_t)t->entries);
	cs_check(s, probe, &st, MP_PARAM_PAGE, (int64_t)t->page);
	cs_check_ways(s, probe, &st, t->replacement, (int64_t)t->ways);
}

/* An instruction-side value of AMP's: its records carry the type 3.6 found (instruction or unified). */
static const struct mp_vote *find_code(const struct cs_run *s, const struct mp_structure *st,
					  enum mp_param p)
{
	for (int32_t i = 0; i < s->r.ncounted; i++) {
		const struct mp_vote *c = &s->r.counted[i];

		if (!strcmp(c->probe, "amp") && c->param == p && c->s.tlb == st->tlb &&
		    c->s.level == st->level && c->s.type != MP_KIND_DATA &&
		    (!st->tlb || c->s.page_bytes == st->page_bytes) &&
		    (st->tlb || c->s.type == MP_KIND_INSTRUCTION))
			return c;
	}
	return NULL;
}

static void check_code_value(const struct cs_run *s, const struct mp_structure *st,
			     enum mp_param p, int64_t want)
{
	const struct mp_vote *c = find_code(s, st, p);
	char label[MP_TEXT_LEN];

	mp_param_label(label, sizeof(label), st, p);
	CHECK(c && c->value == want, "%s: amp (fetches) %s: got %lld (%d/%d votes), model %lld",
	      s->name, label, c ? (long long)c->value : -1LL, c ? (int)c->votes : 0,
	      c ? (int)c->of : 0, (long long)want);
}

/* The L1 instruction cache and every TLB that serves instructions, counted on fetches. */
static void check_code_side(const struct cs_run *s)
{
	for (int i = 0; i < s->model.ncaches; i++) {
		const struct mp_sim_cache_model *c = &s->model.caches[i];
		struct mp_structure st = { 1, MP_KIND_INSTRUCTION, false, MP_NA };

		if (c->type != MP_KIND_INSTRUCTION || c->level != 1)
			continue;
		check_code_value(s, &st, MP_PARAM_SIZE, (int64_t)c->size);
		check_code_value(s, &st, MP_PARAM_LINE, (int64_t)c->line);
		check_code_value(s, &st, MP_PARAM_WAYS, (int64_t)c->ways);
	}
	for (int i = 0; i < s->model.ntlbs; i++) {
		const struct mp_sim_tlb_model *t = &s->model.tlbs[i];
		struct mp_structure st = { t->level, t->type, true, (int64_t)t->page };

		if (t->type == MP_KIND_DATA || t->level < 1 || t->level > 2)
			continue;
		check_code_value(s, &st, MP_PARAM_ENTRIES, (int64_t)t->entries);
		check_code_value(s, &st, MP_PARAM_PAGE, (int64_t)t->page);
		check_code_value(s, &st, MP_PARAM_WAYS, (int64_t)t->ways);
	}
}

static void check_run(struct cs_run *s)
{
	cs_suite(s);
	for (unsigned p = 0; p < NPROBES; p++) {
		CHECK(cs_probe_status(s, probes[p]) == MP_PROBE_OK, "%s: probe %s ok", s->name,
		      probes[p]);
		for (int i = 0; i < s->model.ncaches; i++)
			if (cs_counted_cache(&s->model, &s->model.caches[i]))
				check_cache(s, probes[p], &s->model.caches[i]);
		for (int i = 0; i < s->model.ntlbs; i++)
			if (cs_counted_tlb(&s->model, &s->model.tlbs[i]))
				check_tlb(s, probes[p], &s->model.tlbs[i]);
	}
	check_code_side(s);
	printf("INFO %s: counter suite in %.1f s (goal %.0f s: make bench)\n", s->name, s->wall,
	       CS_MODEL_SECONDS);
	cs_close(s);
}

static void one(const char *path)
{
	struct cs_run s;

	if (cs_open(&s, path, MP_METHOD_COUNTERS, "amp,papi"))
		check_run(&s);
}

/* A model whose physically indexed L2 spans more than a page, on a platform
 * that cannot give contiguous memory (a VM's huge pages). */
static void refused(void)
{
	static const char path[] = PS_MODELS_DIR "/pentium4-2200.model";
	struct cs_run s;
	char err[256];

	memset(&s, 0, sizeof(s));
	if (mp_sim_model_load(&s.full, path, err, sizeof(err)) != 0) {
		CHECK(0, "%s loads: %s", path, err);
		return;
	}
	s.full.frames.refuse_contiguous = true;
	snprintf(s.name, sizeof(s.name), "%s, contiguous refused", s.full.name);
	if (cs_start(&s, MP_METHOD_COUNTERS, "amp,papi"))
		check_run(&s);
}

int main(int argc, char **argv)
{
	static char paths[PS_MAX_MODELS][CS_PATH];
	int n = argc > 1 ? argc - 1 : ps_models(paths);

	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	CHECK(n > 0, "model files found in %s", PS_MODELS_DIR);
	for (int i = 0; i < n; i++)
		one(argc > 1 ? argv[i + 1] : paths[i]);
	if (argc == 1)
		refused();
	return check_done();
}
