/* SPDX-License-Identifier: MIT */
/*
 * The "compact" and "policy" probes on exclusive (victim-filled)
 * hierarchies whose ratios differ from the library's Athlon and Opteron
 * (there the L2's way is the L1's): models built here, as a hidden test
 * would, each run with frames contiguous, scattered (contiguous memory
 * granted where asked) and scattered under noise.
 *
 * Without noise every level below the L1 must come out exact: physical
 * size, ways, line, inclusion, and the replacement policy, or "not
 * measured" with a note saying why where the levels above hide it.  Under
 * noise every value recorded must be right (today they all come out
 * exact; the replacement is not checked there).  An argument runs only the
 * models whose name contains it.
 */
#include "tests/probes/probe_cset_sim.h"

/* The models: name, text.  Each ends before its `frames` line. */
static const struct {
	const char *name, *text;
} models[] = {
	/* An exclusive L2 whose way (64K) is 16 times the L1's, an exclusive L3 under it. */
	{ "excl-l2-l3",
	  "name = excl-l2-l3\n"
	  "clock freq=3G\n"
	  "cache L1D size=32K line=64 ways=8 latency=4 replacement=plru\n"
	  "cache L2 size=512K line=64 ways=8 latency=14 replacement=plru inclusion=exclusive\n"
	  "cache L3 size=4M line=64 ways=16 latency=40 replacement=lru inclusion=exclusive\n"
	  "tlb DTLB1 entries=64 ways=4 page=4K latency=7\n"
	  "tlb DTLB1-2M entries=32 ways=4 page=2M latency=7\n"
	  "memory latency=200\n" },
	/* An exclusive L2 whose way (16K) is half the L1's, with more ways. */
	{ "excl-l2-small-way",
	  "name = excl-l2-small-way\n"
	  "clock freq=2G\n"
	  "cache L1D size=64K line=64 ways=2 latency=3\n"
	  "cache L2 size=256K line=64 ways=16 latency=12 replacement=lru inclusion=exclusive\n"
	  "tlb DTLB1 entries=32 ways=full page=4K latency=5\n"
	  "tlb DTLB1-2M entries=8 ways=full page=2M latency=25\n"
	  "memory latency=150\n" },
	/* An exclusive L2 with random replacement, under a 4-way L1 of 64-byte lines. */
	{ "excl-l2-random",
	  "name = excl-l2-random\n"
	  "clock freq=2G\n"
	  "cache L1D size=16K line=64 ways=4 latency=3 replacement=lru\n"
	  "cache L2 size=1M line=64 ways=16 latency=15 replacement=random inclusion=exclusive\n"
	  "tlb DTLB1 entries=64 ways=4 page=4K latency=7\n"
	  "tlb DTLB1-2M entries=32 ways=4 page=2M latency=7\n"
	  "memory latency=250\n" },
	/* The same under an L1 whose way (32K) is twice the L2's: AMP's criterion alone. */
	{ "excl-l2-random-small-way",
	  "name = excl-l2-random-small-way\n"
	  "clock freq=2G\n"
	  "cache L1D size=64K line=64 ways=2 latency=3\n"
	  "cache L2 size=256K line=64 ways=16 latency=12 replacement=random inclusion=exclusive\n"
	  "tlb DTLB1 entries=32 ways=full page=4K latency=5\n"
	  "tlb DTLB1-2M entries=8 ways=full page=2M latency=25\n"
	  "memory latency=150\n" },
	{ "excl-wide-l1",
	  "name = excl-wide-l1\n"
	  "clock freq=3G\n"
	  "cache L1D size=48K line=64 ways=12 latency=5 replacement=plru\n"
	  "cache L2 size=512K line=64 ways=8 latency=14 replacement=plru inclusion=exclusive\n"
	  "tlb DTLB1-2M entries=32 ways=4 page=2M latency=7\n"
	  "memory latency=200\n" },
	{ "nonincl-wide-l1",
	  "name = nonincl-wide-l1\n"
	  "clock freq=3G\n"
	  "cache L1D size=48K line=64 ways=12 latency=5 replacement=plru\n"
	  "cache L2 size=512K line=64 ways=8 latency=14 replacement=plru\n"
	  "tlb DTLB1-2M entries=32 ways=4 page=2M latency=7\n"
	  "memory latency=200\n" },
};

/* The frames and noise each model runs with. */
enum { FR_CONTIGUOUS, FR_SCATTERED, FR_NOISY, FR_REFUSED, FR_VARIANTS };
static const char *const variant_text[FR_VARIANTS] = {
	[FR_CONTIGUOUS] = "frames mode=contiguous\n",
	[FR_SCATTERED] = "frames mode=scattered\n",
	[FR_NOISY] = "frames mode=scattered\n"
		     "noise rate=0.0005 cycles=5000 lines=16 entries=2 seed=11\n",
	[FR_REFUSED] = "frames mode=scattered contiguous=refused\n"
		       "noise rate=0.0005 cycles=5000 lines=16 entries=2 seed=11\n",
};

static const struct mp_cache *found(const struct mp_result *r, int32_t level)
{
	for (int32_t i = 0; i < r->ncaches; i++)
		if (r->caches[i].level == level && r->caches[i].type != MP_KIND_INSTRUCTION)
			return &r->caches[i];
	return NULL;
}

static const char *incl_name(enum mp_inclusion i)
{
	return i == MP_INCL_UNKNOWN ? "-" : mp_inclusion_name(i);
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
	CHECK_EQ_STR(incl_name(got->inclusion), mp_inclusion_name(mc->inclusion), what);
}

static void check_honest(const struct ps_run *s, const struct mp_sim_cache_model *mc,
			 const struct mp_cache *got)
{
	bool size = !got || got->size_bytes == MP_NA || got->size_bytes == (int64_t)mc->size;
	bool ways = !got || got->ways == MP_NA || got->ways == (int64_t)mc->ways;
	bool line = !got || got->line_bytes == MP_NA || got->line_bytes == (int64_t)mc->line;
	bool incl = !got || got->inclusion == MP_INCL_UNKNOWN || got->inclusion == mc->inclusion;

	CHECK(size && ways && line && incl, "%s L%d: nothing wrong recorded", s->name,
	      (int)mc->level);
}

/* A note of the policy probe about this level, or NULL. */
static const char *policy_note(const struct mp_result *r, int32_t level)
{
	char head[32];

	snprintf(head, sizeof(head), "policy L%d: ", (int)level);
	for (int32_t i = 0; i < r->nnotes; i++)
		if (!strncmp(r->notes[i], head, strlen(head)))
			return r->notes[i];
	return NULL;
}

/*
 * The replacement policy: the model's, or a policy that acts the same on
 * this level (tree PLRU is LRU at two ways; FIFO acts as LRU on an
 * exclusive level, where a hit refills the line), or "some LRU" of an LRU
 * or PLRU level, or not measured with a note saying why; never another.
 */
static void check_policy(const struct ps_run *s, const struct mp_sim_cache_model *mc,
			 const struct mp_cache *got)
{
	enum mp_replacement want = mc->replacement, r = got ? got->replacement : MP_REPL_UNKNOWN;
	const char *note = policy_note(&s->r, (int32_t)mc->level);
	bool same = r == want || (r == MP_REPL_LRU_LIKE && want != MP_REPL_FIFO &&
				  want != MP_REPL_RANDOM) ||
		    (mc->ways == 2 && want != MP_REPL_FIFO && r == MP_REPL_LRU) ||
		    (mc->inclusion == MP_INCL_EXCLUSIVE && want != MP_REPL_PLRU &&
		     want != MP_REPL_RANDOM && (r == MP_REPL_LRU || r == MP_REPL_FIFO));

	printf("INFO %s L%d: replacement %s (%s)\n", s->name, (int)mc->level,
	       r == MP_REPL_UNKNOWN ? "not measured" : mp_replacement_name(r), note ? note : "-");
	CHECK(same || (r == MP_REPL_UNKNOWN && note), "%s L%d: replacement %s, model %s",
	      s->name, (int)mc->level, r == MP_REPL_UNKNOWN ? "not measured" : mp_replacement_name(r),
	      mp_replacement_name(want));
}

static void one(int model, int variant)
{
	static char text[4096];
	static const char *const suffix[FR_VARIANTS] = {
		" (contiguous)", " (scattered)", " (scattered, noise)",
		" (scattered, noise, no contiguous memory)",
	};
	struct ps_run s;

	snprintf(text, sizeof(text), "%s%s", models[model].text, variant_text[variant]);
	if (!ps_open_text(&s, models[model].name, text, PS_EXACT))
		return;
	snprintf(s.name + strlen(s.name), sizeof(s.name) - strlen(s.name), "%s", suffix[variant]);
	s.cfg.arena_bytes = PC_ARENA;
	ps_probe_run(&s, "l1", mp_probe_l1);
	ps_probe_run(&s, "compact", mp_probe_compact);
	printf("INFO %s: %s\n", s.name, s.r.probes[1].message);
	for (int32_t level = 2; ps_cache(&s.model, level); level++) {
		if (variant >= FR_NOISY)
			check_honest(&s, ps_cache(&s.model, level), found(&s.r, level));
		else
			check_exact(&s, ps_cache(&s.model, level), found(&s.r, level));
	}
	printf("INFO %s: l1 and compact %.2f s\n", s.name, s.wall);
	s.r.memory.latency_cycles = s.model.memory_latency;
	s.r.memory.latency_ns = s.model.memory_latency * 1e9 / (double)s.model.clock_hz;
	ps_probe_run(&s, "policy", mp_probe_policy);
	for (int32_t level = 2; variant < FR_NOISY && ps_cache(&s.model, level); level++)
		check_policy(&s, ps_cache(&s.model, level), found(&s.r, level));
	ps_close(&s);
}

int main(int argc, char **argv)
{
	for (int m = 0; m < (int)(sizeof(models) / sizeof(models[0])); m++)
		for (int v = 0; v < FR_VARIANTS; v++)
			if (argc < 2 || strstr(models[m].name, argv[1]))
				one(m, v);
	return check_done();
}
