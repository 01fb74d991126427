/* SPDX-License-Identifier: MIT */
/*
 * The "policy" probe against every simulated machine: write allocation of
 * every data or unified level, and its replacement policy: random
 * identified as random, and lru, plru and fifo told apart where the probe
 * can reach the sets one by one and a sequence can tell them (see right()).  The probe reads the sizes, ways,
 * lines, latencies and inclusion that "l1", "levels" and "compact" measure;
 * here they come from the model, so that this test checks this probe only.
 * A hashed level is measured by eviction sets (method eviction-sets), whose
 * sets no stride reaches: its replacement must be "not measured", noted.
 */
#include "tests/probes/probe_sim.h"
#include "tests/probes/notes.h"

static void fill(struct ps_run *s)
{
	const struct mp_sim_model *m = &s->model;
	double ns = 1e9 / (double)m->clock_hz;

	for (int32_t level = 1; ps_cache(m, level); level++) {
		const struct mp_sim_cache_model *mc = ps_cache(m, level);
		struct mp_cache *c = mp_result_add_cache(&s->r);

		c->level = level;
		c->type = mc->type;
		c->size_bytes = (int64_t)mc->size;
		c->line_bytes = (int64_t)mc->line;
		c->ways = (int64_t)mc->ways;
		c->latency_cycles = mc->latency;
		c->latency_ns = mc->latency * ns;
		c->inclusion = mc->inclusion;
		c->method = mc->index == MP_SIM_INDEX_HASH ? MP_METHOD_EVSETS : MP_METHOD_TIMING;
	}
	s->r.memory.latency_cycles = m->memory_latency;
	s->r.memory.latency_ns = m->memory_latency * ns;
}

/*
 * Is what the probe says right?  Random must be found exactly.  Among the
 * others the probe may say only "some LRU" (lru-like, never of a FIFO
 * level) where it could not reach the sets one by one, and it cannot tell policies that behave
 * alike: tree PLRU is LRU at two ways; FIFO acts as LRU on an exclusive
 * level, where a hit refills the line.
 */
static int right(const struct mp_sim_cache_model *mc, enum mp_replacement got)
{
	enum mp_replacement want = mc->replacement;

	if (want == MP_REPL_RANDOM || got == MP_REPL_RANDOM)
		return got == want;
	if (got == MP_REPL_LRU_LIKE)
		return want == MP_REPL_LRU || want == MP_REPL_PLRU;
	if (mc->ways == 2 && want != MP_REPL_FIFO)
		return got == MP_REPL_LRU || got == MP_REPL_PLRU;
	if (mc->inclusion == MP_INCL_EXCLUSIVE && want != MP_REPL_PLRU)
		return got == MP_REPL_LRU || got == MP_REPL_FIFO;
	return got == want;
}

/* Did the probe note why a level's sets were out of its reach? */
static bool noted(const struct mp_result *r, int32_t level)
{
	char want[48];

	snprintf(want, sizeof(want), "policy L%d: sets not reachable", (int)level);
	return ps_note(r, want) != NULL;
}

static void one(const char *path, int rough)
{
	struct ps_run s;

	if (!ps_open(&s, path, rough))
		return;
	fill(&s);
	ps_probe(&s, "policy", mp_probe_policy);
	for (int32_t i = 0; i < s.r.ncaches; i++) {
		const struct mp_cache *c = &s.r.caches[i];
		const struct mp_sim_cache_model *mc = ps_cache(&s.model, c->level);
		const char *want = mp_replacement_name(mc->replacement);
		const char *got = mp_replacement_name(c->replacement);

		CHECK(c->write_allocate == (mc->write_allocate ? MP_YES : MP_NO),
		      "%s: L%d write allocate %d, model %d", s.name, (int)c->level,
		      (int)c->write_allocate, (int)mc->write_allocate);
		if (mc->ways < 2) {
			printf("INFO %s: L%d is direct mapped, no replacement to tell (%s)\n",
			       s.name, (int)c->level, got ? got : "unknown");
			continue;
		}
		if (mc->index == MP_SIM_INDEX_HASH) {
			CHECK(c->replacement == MP_REPL_UNKNOWN && noted(&s.r, c->level),
			      "%s: L%d (hashed) replacement %s, not measured with its reason",
			      s.name, (int)c->level, got ? got : "unknown");
			continue;
		}
		CHECK(right(mc, c->replacement), "%s: L%d replacement %s, model %s", s.name,
		      (int)c->level, got ? got : "unknown", want ? want : "?");
	}
	printf("INFO %s: policy in %.1f s\n", s.name, s.wall);
	ps_close(&s);
}

/*
 * A next-line prefetcher at the L1 brings some of AMP's lines back in some
 * sets: the test then loses a line in some sets only, as random
 * replacement does, but in the same sets every run.  Tree PLRU, so the
 * probe may say plru, lru-like or "not measured" with its reason, never
 * random.
 */
static const char prefetched[] =
	"name = next-line\nclock freq=3.0G\n"
	"cache L1D size=48K line=64 ways=12 latency=5 replacement=plru\n"
	"cache L2 size=2M line=64 ways=16 latency=16 replacement=plru\n"
	"memory latency=300\nprefetch kind=next-line level=1 degree=1\n";

static void next_line(void)
{
	struct ps_run s;

	if (!ps_open_text(&s, "next-line prefetcher", prefetched, PS_EXACT))
		return;
	fill(&s);
	ps_probe(&s, "policy", mp_probe_policy);
	for (int32_t i = 0; i < s.r.ncaches; i++) {
		const struct mp_cache *c = &s.r.caches[i];
		const char *got = mp_replacement_name(c->replacement);

		CHECK(c->replacement == MP_REPL_UNKNOWN
			      ? ps_note(&s.r, "in the same sets every run") != NULL
			      : right(ps_cache(&s.model, c->level), c->replacement),
		      "%s: L%d replacement %s: plru, lru-like or not measured with its reason",
		      s.name, (int)c->level, got ? got : "not measured");
	}
	ps_close(&s);
}

int main(int argc, char **argv)
{
	if (argc == 1 || strstr("next-line", argv[1]) != NULL)
		next_line();
	return ps_each_model(argc > 1 ? argv[1] : NULL, one, PS_UPTO(PS_EXACT));
}
