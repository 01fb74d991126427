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
 * staying within a minute.  A few levels must be exact at a second seed
 * too (required).
 *
 * ./test_probe_evset [model [exact|rough]]: only the models whose path
 * contains it, only that variant.
 */
#include "tests/probes/notes.h"
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

static const char *incl_name(enum mp_inclusion i)
{
	const char *name = mp_inclusion_name(i);

	return name ? name : "not measured";
}

/* The level's inclusion the model's, or not measured? */
static bool incl_right(const struct mp_cache *got, const struct mp_sim_cache_model *mc)
{
	return got->inclusion == MP_INCL_UNKNOWN || got->inclusion == mc->inclusion;
}

/* Are the level's size, ways and line all the model's? */
static bool exact_level(const struct mp_cache *got, const struct mp_sim_cache_model *mc)
{
	return got && mc && got->size_bytes == (int64_t)mc->size &&
	       got->ways == (int64_t)mc->ways && got->line_bytes == (int64_t)mc->line;
}

/* Every value right or null; counts the exact ones into *exact. */
static void check_level(const struct ps_run *s, const struct mp_sim_cache_model *mc,
			const struct mp_probe *ev, int *exact)
{
	const struct mp_cache *got = found(&s->r, mc->level);
	bool all = exact_level(got, mc);

	CHECK(got && right(got->size_bytes, mc->size) && right(got->ways, mc->ways) &&
	      right(got->line_bytes, mc->line) && incl_right(got, mc),
	      "%s L%d: nothing wrong (size %lld ways %lld line %lld %s; model %llu %llu %llu %s)",
	      s->name, (int)mc->level, got ? (long long)got->size_bytes : -2,
	      got ? (long long)got->ways : -2, got ? (long long)got->line_bytes : -2,
	      got ? incl_name(got->inclusion) : "-", (unsigned long long)mc->size,
	      (unsigned long long)mc->ways, (unsigned long long)mc->line,
	      incl_name(mc->inclusion));
	if (!all)
		CHECK(ev->status != MP_PROBE_OK ? ev->message[0] != '\0'
						 : strstr(ev->message, "not measured") != NULL,
		      "%s L%d: what is missing says why", s->name, (int)mc->level);
	*exact += all;
	printf("INFO %s L%d: %s (method %s)\n", s->name, (int)mc->level,
	       all ? "exact" : "not all measured", got ? mp_method_name(got->method) : "-");
}

/* Reopen s's model with frames scattered and contiguous memory refused. */
static int scattered(struct ps_run *s, int rough)
{
	mp_sim_close(s->p);
	s->model.frames.mode = MP_SIM_FRAMES_SCATTERED;
	s->model.frames.refuse_contiguous = true;
	if (!ps_platform(&s->model, s->name, &s->p, &s->r))
		return 0;
	if (rough == PS_EXACT)
		strncat(s->name, " (scattered, no contiguous memory)",
			sizeof(s->name) - strlen(s->name) - 1);
	s->cfg.arena_bytes = EV_ARENA;
	return 1;
}

/* The probes evset builds on, "compact" too or not. */
static void evset_inputs(struct ps_run *s, bool compact)
{
	ps_probe_run(s, "latency", mp_probe_latency);
	ps_probe_run(s, "l1", mp_probe_l1);
	ps_probe_run(s, "levels", mp_probe_levels);
	if (compact)
		ps_probe_run(s, "compact", mp_probe_compact);
}

/*
 * The probes evset builds on (compact too, or not), then evset at the
 * seed: its record, its simulated seconds in *took.
 */
static struct mp_probe *evset_timed(struct ps_run *s, uint64_t seed, bool compact, double *took)
{
	struct mp_probe *ev;
	double t0;

	s->cfg.seed = seed;
	evset_inputs(s, compact);
	t0 = (double)mp_now(s->p) / (double)s->p->tick_hz;
	ev = ps_probe_run(s, "evset", mp_probe_evset);
	*took = (double)mp_now(s->p) / (double)s->p->tick_hz - t0;
	printf("INFO %s, seed %llu: evset %.2f simulated s: %s\n", s->name,
	       (unsigned long long)seed, *took, ev->message);
	return ev;
}

/*
 * A model (its text, name) on scattered frames, evset at seeds 1 to
 * `seeds`: the level ("what" in the checks) never wrong at any (each
 * value exact or not measured), and exact at `least` of them at least
 * (an exclusive level: found exclusive too, core/probes/evset/exclusion.c).
 */
static void exact_at_seeds(const char *name, const char *text, int32_t level, uint64_t seeds,
			   uint64_t least, const char *what)
{
	uint64_t exact = 0;
	double took;

	for (uint64_t seed = 1; seed <= seeds; seed++) {
		const struct mp_sim_cache_model *mc;
		const struct mp_cache *got;
		struct ps_run s;
		struct mp_probe *ev;

		if (!ps_open_text(&s, name, text, PS_EXACT) || !scattered(&s, PS_EXACT))
			return;
		ev = evset_timed(&s, seed, true, &took);
		got = found(&s.r, level);
		mc = ps_cache(&s.model, level);
		CHECK(got && mc && right(got->size_bytes, mc->size) && right(got->ways, mc->ways) &&
		      right(got->line_bytes, mc->line) && incl_right(got, mc),
		      "%s, seed %llu: %s never wrong (%s; inclusion %s)", s.name,
		      (unsigned long long)seed, what, ev->message,
		      got ? incl_name(got->inclusion) : "-");
		exact += exact_level(got, mc) &&
			 (mc->inclusion != MP_INCL_EXCLUSIVE || got->inclusion == MP_INCL_EXCLUSIVE);
		ps_close(&s);
	}
	CHECK(exact >= least, "%s: %s exact at %llu of seeds 1 to %llu (at least %llu)", name, what,
	      (unsigned long long)exact, (unsigned long long)seeds, (unsigned long long)least);
}

/* The probes evset builds on, then evset; its record. */
static struct mp_probe *probes(struct ps_run *s)
{
	struct mp_probe *ev;
	double t0;

	evset_inputs(s, true);
	t0 = s->wall;
	printf("INFO %s: latency, l1, levels, compact %.2f s\n", s->name, s->wall);
	ev = ps_probe_run(s, "evset", mp_probe_evset);
	printf("INFO %s: evset %.2f s: %s: %s\n", s->name, s->wall - t0,
	       mp_probe_status_name(ev->status), ev->message);
	return ev;
}

/*
 * An L1 whose way is smaller than a page (Power9's 4K under 64K pages):
 * the L2's candidates at the victim's page offset may all share its L2
 * set, so its tail lies inside the pages; its ways and line must come from
 * eviction sets.
 */
static void small_l1_way(const struct ps_run *s)
{
	const struct mp_sim_cache_model *l1 = ps_cache(&s->model, 1), *l2 = ps_cache(&s->model, 2);
	const struct mp_cache *got = found(&s->r, 2);

	if (!l1 || !l2 || l1->size / l1->ways >= s->p->page_bytes)
		return;
	CHECK(got && got->method == MP_METHOD_EVSETS && got->ways == (int64_t)l2->ways &&
	      got->line_bytes == (int64_t)l2->line,
	      "%s: L1 way %llu B under %lluK pages: the L2's ways and line by eviction sets "
	      "(method %s, ways %lld, line %lld)",
	      s->name, (unsigned long long)(l1->size / l1->ways),
	      (unsigned long long)(s->p->page_bytes >> 10), got ? mp_method_name(got->method) : "-",
	      got ? (long long)got->ways : -2, got ? (long long)got->line_bytes : -2);
}

/*
 * Power3's 128-way L1 leaves its L2's ways hard to bear out: its count
 * takes a tail inside the pages and its 512 classes at an offset do not
 * fit the quick profile's time, and a second class's tail would take 256
 * lines of the victim's class.  A note must say either how many classes
 * the count found (their sets bore the ways out) or that the ways rest on
 * the victim's set alone.
 */
static void ways_noted(const struct ps_run *s, const char *path)
{
	const struct mp_cache *got = found(&s->r, 2);

	if (!strstr(path, "power3-375") || !got || got->ways <= 0)
		return;
	CHECK(ps_note(&s->r, "L2: eviction sets") &&
	      (ps_note(&s->r, "congruence classes") ||
	       ps_note(&s->r, "minimal set alone")),
	      "%s: a note says what bore the L2's ways out (classes counted, or the victim's "
	      "minimal set alone)", s->name);
}

/* The run's L3 recorded exclusive (core/probes/evset/exclusion.c). */
static void l3_exclusive(const struct ps_run *s)
{
	const struct mp_cache *got = found(&s->r, 3);

	CHECK(got && got->inclusion == MP_INCL_EXCLUSIVE, "%s: the victim L3 exclusive by its sets (%s)",
	      s->name, got ? incl_name(got->inclusion) : "no record");
}

/*
 * Library models whose victim L3 evset finds exclusive on scattered frames,
 * where compact sets cannot say.
 */
static void exclusive_by_sets(const struct ps_run *s, const char *path, int rough)
{
	static const char *const models[] = { "zen4.model", "power9.model" };

	if (rough != PS_EXACT)
		return;
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (strstr(path, models[i]))
			l3_exclusive(s);
}

static void run(const char *path, int rough)
{
	static int exact, levels;
	struct ps_run s;
	struct mp_probe *ev;

	if (rough != PS_EXACT && !rough_model(path))
		return;
	if (!ps_open(&s, path, rough == PS_EXACT ? PS_EXACT : PS_REFUSED) || !scattered(&s, rough))
		return;
	ev = probes(&s);
	for (int32_t level = 2; ps_cache(&s.model, level); level++, levels++)
		check_level(&s, ps_cache(&s.model, level), ev, &exact);
	small_l1_way(&s);
	ways_noted(&s, path);
	exclusive_by_sets(&s, path, rough);
	printf("INFO %s: probes %.2f s; %d of %d levels exact so far\n", s.name, s.wall, exact,
	       levels);
	ps_close(&s);
}

/*
 * Victim caches, as AMD's L3 (a level filled only by the L2's victims):
 * its minimal sets are found only with a tail, which the probe picks with
 * a set found with a stand-in tail, and its classes are counted with a
 * class's lines as the tail (docs/algorithms.md, "Eviction sets").  Two
 * hierarchies of no model in the library: the L3's ways and line exact by
 * eviction sets, its size exact or not measured (victim-b's is exact;
 * victim-a's count stops at "a class has too few candidates in the pool"),
 * and both exclusive by their sets (victim-b's pool gives 35 of the 36
 * class lines the test once wanted, and it was not tested then).
 */
static const struct {
	const char *text;
	bool exclusive;         /* found exclusive by its sets (exclusion.c) */
} victim_models[] = {
	{ "name = victim-a\nclock freq=3.0G\n"
	  "cache L1D size=32K line=64 ways=8 latency=4 replacement=plru\n"
	  "cache L2 size=512K line=64 ways=8 latency=12 replacement=plru inclusion=inclusive\n"
	  "cache L3 size=16M line=64 ways=16 latency=40 replacement=plru inclusion=exclusive "
	  "index=hash slices=4 hash=random seed=5\n"
	  "memory latency=250\nframes mode=scattered seed=11\n", true },
	{ "name = victim-b\nclock freq=2.0G\n"
	  "cache L1D size=48K line=64 ways=12 latency=5 replacement=plru\n"
	  "cache L2 size=2M line=64 ways=16 latency=14 replacement=plru inclusion=inclusive\n"
	  "cache L3 size=24M line=64 ways=12 latency=45 replacement=plru inclusion=exclusive "
	  "index=hash slices=8 hash=random seed=7\n"
	  "memory latency=300\nframes mode=scattered seed=12\n", true },
};

/*
 * A victim L3 of 20 ways over an 8-way L2, with 128-byte lines and few L3
 * classes among the lines one L2 class holds (POWER9's, without noise):
 * the stand-in tail holds lines of the victim's class now and then, so
 * the L3 is exact or not measured for that reason, never put down to a
 * noisy host on a model without noise.
 */
static void victim_stand_in(void)
{
	static const char *const text =
		"name = victim-c\nclock freq=3.8G\n"
		"cache L1D size=32K line=128 ways=8 latency=4 replacement=plru write=no-allocate\n"
		"cache L1I size=32K line=128 ways=8 latency=4 replacement=plru\n"
		"cache L2 size=512K line=128 ways=8 latency=13 replacement=plru "
		"inclusion=inclusive\n"
		"cache L3 size=10M line=128 ways=20 latency=32 replacement=plru "
		"inclusion=exclusive\n"
		"tlb DTLB1 entries=64 ways=full page=64K latency=10\n"
		"tlb TLB entries=1024 ways=4 page=64K latency=40 type=unified\n"
		"memory latency=350\nprefetch kind=stride level=2 degree=4\n"
		"frames mode=scattered seed=9\n";
	struct ps_run s;
	struct mp_probe *ev;
	const struct mp_cache *got;

	if (!ps_open_text(&s, "victim", text, PS_EXACT) || !scattered(&s, PS_EXACT))
		return;
	ev = probes(&s);
	got = found(&s.r, 3);
	CHECK(got && ((got->size_bytes == 10 << 20 && got->ways == 20 && got->line_bytes == 128) ||
		      (got->ways == MP_NA && strstr(ev->message, "no set found with a stand-in one held up"))),
	      "victim-c: the L3 exact, or not measured for its stand-in tail (%s)", ev->message);
	ps_close(&s);
}

/*
 * Victim L3s with four L3 classes to an L2 class, hierarchies of no model
 * in the library, each on scattered frames at seeds 1 to 8: the L3 never
 * wrong, and exact at `least` seeds at least (exact_at_seeds).
 */
static const struct {
	const char *name, *text;
	uint64_t least;
} victim_hierarchies[] = {
	/*
	 * victim-k, a 12-way L3 under a 4-way L2: the tail the victim's set is
	 * found with may hold lines of its class, each taking a way, or as many
	 * of one other class as the ways; picked again with that set, it holds
	 * neither (core/probes/evset/geometry.c, tail_round).  Without the tail
	 * picked again it came out 11-way at seed 8 (a wrong value), and was not
	 * measured at seeds 2 and 5.
	 */
	{ "victim-k",
	  "name = victim-k\nclock freq=3.1G\n"
	  "cache L1D size=48K line=64 ways=12 latency=5 replacement=lru\n"
	  "cache L2 size=512K line=64 ways=4 latency=12 replacement=lru inclusion=inclusive\n"
	  "cache L3 size=6M line=64 ways=12 latency=38 replacement=lru inclusion=exclusive\n"
	  "memory latency=260\nframes mode=scattered seed=22\n",
	  8 },
	/*
	 * victim-o, a 16-way L3 under a 16-way L2 (made after the change was
	 * designed): the tail picked with a stand-in's set holds about a quarter
	 * of lines of the victim's class, and the sets found with it do not
	 * hold up; the tail is picked again with such a set, and the set looked
	 * for again with it, in rounds, until it holds up with a tail picked
	 * with it (geometry.c, settled_set).  With one round and a held set
	 * only, it was not measured at seed 2; with a set of the last round
	 * taken unless it held up with a tail picked with it, it came out
	 * 14-way there.
	 */
	{ "victim-o",
	  "name = victim-o\nclock freq=2.8G\n"
	  "cache L1D size=32K line=64 ways=8 latency=4 replacement=lru\n"
	  "cache L2 size=2M line=64 ways=16 latency=15 replacement=plru inclusion=inclusive\n"
	  "cache L3 size=8M line=64 ways=16 latency=45 replacement=plru inclusion=exclusive\n"
	  "memory latency=280\nframes mode=scattered seed=41\n",
	  5 },
	/*
	 * victim-n, a 16-way L3 under an 8-way L2 (made before the change was
	 * designed): a tail picked with a set that did not hold up takes a
	 * candidate only when four tests running do not evict it (tail.c,
	 * picks[]); with two tests it was exact at 6 seeds, its tails keeping
	 * lines of the victim's class round after round.
	 */
	{ "victim-n",
	  "name = victim-n\nclock freq=3.2G\n"
	  "cache L1D size=48K line=64 ways=12 latency=5 replacement=plru\n"
	  "cache L2 size=512K line=64 ways=8 latency=13 replacement=plru inclusion=inclusive\n"
	  "cache L3 size=4M line=64 ways=16 latency=40 replacement=plru inclusion=exclusive\n"
	  "memory latency=260\nframes mode=scattered seed=37\n",
	  7 },
};

static void victim_hierarchies_exact(void)
{
	for (size_t i = 0; i < sizeof(victim_hierarchies) / sizeof(victim_hierarchies[0]); i++)
		exact_at_seeds(victim_hierarchies[i].name, victim_hierarchies[i].text, 3, 8,
			       victim_hierarchies[i].least, "the victim L3");
}

/*
 * Library models whose L1 way spans pages (the Opteron's 64K 2-way L1, the
 * UltraSPARC's 16K direct-mapped one) on contiguous frames, as on bare
 * metal: the L2's pool keeps the victim's L1 colour, whose classes are the
 * L2's over the colours (core/probes/evset/size.c, colour_classes).
 * Eviction sets must agree with compact sets on the L2; the UltraSPARC's
 * came out 256K for 512K before, and the Opteron's 128K for 1M once its
 * count completed.
 */
static void colour_contiguous(const char *filter)
{
	static const char *const models[] = { "opteron-240", "ultrasparc-i-167" };

	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		char path[PS_PATH];
		struct ps_run s;
		struct mp_probe *ev;

		if (filter && !strstr(models[i], filter))
			continue;
		snprintf(path, sizeof(path), "%s/%s.model", PS_MODELS_DIR, models[i]);
		if (!ps_open(&s, path, PS_EXACT))
			continue;
		ev = probes(&s);
		CHECK(ps_note(&s.r, "evset: L2: compact sets and eviction sets agree") != NULL,
		      "%s (contiguous frames): eviction sets agree with compact sets on the L2 (%s)",
		      s.name, ev->message);
		ps_close(&s);
	}
}

static void victim_caches(void)
{
	for (size_t i = 0; i < sizeof(victim_models) / sizeof(victim_models[0]); i++) {
		struct ps_run s;
		const struct mp_cache *got;

		if (!ps_open_text(&s, "victim", victim_models[i].text, PS_EXACT) ||
		    !scattered(&s, PS_EXACT))
			continue;
		probes(&s);
		got = found(&s.r, 3);
		CHECK(got && right(got->size_bytes, ps_cache(&s.model, 3)->size) &&
		      got->ways == (int64_t)ps_cache(&s.model, 3)->ways && got->line_bytes == 64 &&
		      got->method == MP_METHOD_EVSETS,
		      "%s: the victim L3's ways and line by eviction sets, its size right or not "
		      "measured (size %lld ways %lld line %lld)",
		      s.name, got ? (long long)got->size_bytes : -2, got ? (long long)got->ways : -2,
		      got ? (long long)got->line_bytes : -2);
		if (victim_models[i].exclusive)
			l3_exclusive(&s);
		ps_close(&s);
	}
}

/*
 * An L2 whose index folds upper bits into the bits inside the page (bits
 * 16 and 17 into 10 and 11), as this project's AMD EPYC guest's (Zen 5
 * class) does: the lines of one page offset fall in 64 classes, 4 times
 * as many as a plain 1M 16-way L2 gives them, and lines of 4 line offsets
 * in a page (0, 1K, 2K, 3K) share each set.  Its size is the classes x 64
 * offsets / 4 x the ways x the line: 1M, where the classes x the page x
 * the ways is 4M.  The L3 below is counted within the L2's class, which
 * holds lines of one offset only: its size is not measured, and says why.
 */
static void folded_index(void)
{
	static const char *const text =
		"name = folded\nclock freq=3.0G\n"
		"cache L1D size=48K line=64 ways=12 latency=4 replacement=plru\n"
		"cache L2 size=1M line=64 ways=16 latency=14 replacement=plru inclusion=inclusive "
		"index=hash slices=64 hash=xor:10400,20800,1000,2000,4000,8000\n"
		"cache L3 size=16M line=64 ways=16 latency=50 replacement=plru\n"
		"memory latency=300\nframes mode=scattered seed=4\n";
	struct ps_run s;
	struct mp_probe *ev;
	const struct mp_cache *l2, *l3;

	if (!ps_open_text(&s, "folded", text, PS_EXACT) || !scattered(&s, PS_EXACT))
		return;
	ev = probes(&s);
	l2 = found(&s.r, 2);
	l3 = found(&s.r, 3);
	CHECK(l2 && l2->size_bytes == 1 << 20 && l2->ways == 16 && l2->line_bytes == 64,
	      "folded: the L2 1M 16-way 64 B (%s)", ev->message);
	CHECK(ps_note(&s.r, "lines of 4 of a page's 64 line offsets share each set") != NULL,
	      "folded: a note says that 4 line offsets share each L2 set");
	CHECK(l3 && l3->size_bytes == MP_NA &&
	      strstr(ev->message, "the level above's sets take lines of several page offsets"),
	      "folded: the L3's size not measured, and why (%s)", ev->message);
	ps_close(&s);
}

/*
 * An L2 that evicts a line picked at random, under an LRU L1 (measure.c,
 * sparing): in two passes a set of its ways takes the victim only now and
 * then, and tests of two passes find no set; tests of 32 find its 512K
 * 8-way 64 B at seeds 1 and 2, and a note says which passes it took.
 */
static void random_l2(void)
{
	static const char *const text =
		"name = random-l2\nclock freq=2G\n"
		"cache L1D size=32K line=64 ways=8 latency=4\n"
		"cache L2 size=512K line=64 ways=8 latency=14 replacement=random seed=3\n"
		"memory latency=200\nframes mode=scattered seed=5\n";
	struct ps_run s;

	exact_at_seeds("random-l2", text, 2, 2, 2, "the random L2");
	if (!ps_open_text(&s, "random-l2", text, PS_EXACT) || !scattered(&s, PS_EXACT))
		return;
	probes(&s);
	CHECK(ps_note(&s.r, "with 32, its sets evict the victim") != NULL,
	      "random-l2: a note says the sets took 32 passes");
	ps_close(&s);
}

/*
 * The folded index of folded_index under a random replacement, not
 * inclusive of the L1 (a 256K 8-way L2, bits 16 and 17 folded into 9 and
 * 10: lines of 4 line offsets share each set, 32 classes at an offset).
 * Its lines stay in the L1 once loaded, so a line at another offset
 * reaches the L2 only where a tail moved there takes it out of the L1 at
 * every pass, and the victim's set only where its own tail does: with the
 * moved tail alone, the set's lines met the L2 in its first pass, which a
 * random replacement evicts the victim in about two tries of three, no
 * offset was found to share, and the L2 came out 1M (4M for a 512K with
 * 8 sharing; size.c, offset_congruent).  Exact at seeds 1 to 4.
 */
static void random_folded(void)
{
	static const char *const text =
		"name = random-folded\nclock freq=2G\n"
		"cache L1D size=32K line=64 ways=8 latency=4\n"
		"cache L2 size=256K line=64 ways=8 latency=14 replacement=random seed=3 "
		"index=hash slices=64 hash=xor:10200,20400,800,1000,2000,4000\n"
		"memory latency=200\nframes mode=scattered seed=5\n";

	exact_at_seeds("random-folded", text, 2, 4, 4, "the random folded L2");
}

/*
 * A physically indexed L1 whose way spans two pages, on scattered frames:
 * X-Ray's sets give other answers elsewhere in memory, so the l1 probe
 * records no geometry, and evset measures the L1 first (two classes at a
 * page offset: probe.c, levels; measure.c, l1_spans_pages), then the L2
 * under it.  Before, evset needed the l1 probe's L1 and measured nothing.
 */
static void physical_l1(void)
{
	static const char *const text =
		"name = physical-l1\nclock freq=2G\n"
		"cache L1D size=32K line=64 ways=4 latency=4 index=physical\n"
		"cache L2 size=1M line=64 ways=16 latency=16\n"
		"memory latency=200\nframes mode=scattered seed=7\n";
	const struct mp_cache *l1, *l2;
	struct mp_probe *ev;
	struct ps_run s;

	if (!ps_open_text(&s, "physical-l1", text, PS_EXACT) || !scattered(&s, PS_EXACT))
		return;
	ev = probes(&s);
	l1 = found(&s.r, 1);
	l2 = found(&s.r, 2);
	CHECK(l1 && l1->size_bytes == 32 << 10 && l1->ways == 4 && l1->line_bytes == 64 &&
	      l1->method == MP_METHOD_EVSETS, "physical-l1: the L1 32K 4-way 64 B by eviction sets "
	      "(%s)", ev->message);
	CHECK(l2 && l2->size_bytes == 1 << 20 && l2->ways == 16 && l2->line_bytes == 64,
	      "physical-l1: the L2 1M 16-way 64 B under it (%s)", ev->message);
	ps_close(&s);
}

/*
 * Under an L1 no record has the geometry of, the L2 exact by eviction
 * sets, and a note saying where the L1's ways and way came from.
 */
static void l2_under_unrecorded_l1(const struct ps_run *s, const struct mp_probe *ev,
				   const char *from)
{
	const struct mp_sim_cache_model *mc = ps_cache(&s->model, 2);
	const struct mp_cache *l2 = found(&s->r, 2);

	CHECK(exact_level(l2, mc) && l2->method == MP_METHOD_EVSETS,
	      "%s, seed %llu: the L2 exact by eviction sets under an unrecorded L1 (%s)", s->name,
	      (unsigned long long)s->cfg.seed, ev->message);
	CHECK(ps_note(&s->r, from), "%s, seed %llu: a note says where the L1's ways came from (%s)",
	      s->name, (unsigned long long)s->cfg.seed, from);
}

/*
 * No L1 in the documentation: evset then looks for the L1 whatever its way
 * (probe.c, l1_within_page), as where nothing documents the machine.
 */
static void undocument_l1(struct ps_run *s)
{
	for (int32_t k = 0; k < s->r.documented.ncaches; k++)
		if (s->r.documented.caches[k].level == 1)
			s->r.documented.caches[k].level = 0;
}

/*
 * An L1 of a page a way (32K 8-way) whose last two ways a thread sharing
 * the core never leaves, on scattered frames: the l1 probe refuses it (no
 * sharp edge).  Where the documentation gives the L1 its way of a page,
 * evset does not look for it (probe.c, l1_within_page) and says so; where
 * nothing documents it, evset looks for it and must not record what the
 * thread leaves (24K 6-way): its lines at a page offset are of one class,
 * the l1 probe's to measure (measure.c, l1_spans_pages).  Either way its
 * ways and way size the L2's tails, and the L2 must be exact (it was not
 * measured before: the levels below stopped at an L1 unrecorded).
 */
static void busy_l1(void)
{
	static const char *const text =
		"name = busy-l1\nclock freq=2G\n"
		"cache L1D size=32K line=64 ways=8 latency=4\n"
		"cache L2 size=1M line=64 ways=16 latency=16\n"
		"memory latency=200\nframes mode=scattered seed=7\n"
		"neighbour ways=2 level=1 on=1099511627776 off=1 extra=1 extra_on=2048 "
		"extra_off=6144\n";
	static const struct {
		bool documented;
		const char *why, *from;
	} cases[] = {
		{ true, "L1 not measured: the documentation gives it a way of a page or less",
		  "from the documentation" },
		{ false, "L1 not measured: its lines at a page offset are of one class",
		  "from its minimal set here" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct mp_cache *l1;
		struct mp_probe *ev;
		struct ps_run s;

		if (!ps_open_text(&s, "busy-l1", text, PS_EXACT) || !scattered(&s, PS_EXACT))
			return;
		if (!cases[i].documented)
			undocument_l1(&s);
		ev = probes(&s);
		l1 = found(&s.r, 1);
		CHECK(l1 && l1->size_bytes == MP_NA && l1->ways == MP_NA,
		      "busy-l1: no L1 geometry recorded (%s)", ev->message);
		CHECK(strstr(ev->message, cases[i].why), "busy-l1: evset says why its L1 is not "
		      "recorded: \"%s\" (%s)", cases[i].why, ev->message);
		l2_under_unrecorded_l1(&s, ev, cases[i].from);
		ps_close(&s);
	}
}

/*
 * An L1 that neither the l1 probe (not run here) nor eviction sets measure
 * (random replacement and a thread sharing the core that takes 3 ways
 * every 5000 cycles): the L2's tails take the documentation's L1 (its way
 * a page: evset does not look for it, busy_l1), and the L2 must be exact
 * at three seeds (not measured before).  The documentation must be taken
 * at one seed at least (before evset left such an L1 alone, eviction sets
 * found its set at seed 2 once their timed loads came after drawn waits:
 * test.c, dither).
 */
static void unmeasured_l1(void)
{
	static const char *const text =
		"name = unmeasured-l1\nclock freq=2G\n"
		"cache L1D size=32K line=64 ways=8 latency=4 replacement=random\n"
		"cache L2 size=1M line=64 ways=16 latency=16\n"
		"memory latency=200\nframes mode=scattered seed=7\n"
		"neighbour ways=3 level=1 on=5000 off=5000\n";

	int documented = 0;

	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct mp_probe *ev;
		struct ps_run s;

		if (!ps_open_text(&s, "unmeasured-l1", text, PS_EXACT) || !scattered(&s, PS_EXACT))
			return;
		s.cfg.seed = seed;
		ps_probe_run(&s, "latency", mp_probe_latency);
		ps_probe_run(&s, "levels", mp_probe_levels);
		ev = ps_probe_run(&s, "evset", mp_probe_evset);
		CHECK(!found(&s.r, 1) || found(&s.r, 1)->ways == MP_NA,
		      "unmeasured-l1, seed %llu: no L1 ways recorded (%s)",
		      (unsigned long long)seed, ev->message);
		l2_under_unrecorded_l1(&s, ev, "no record has its geometry");
		documented += ps_note(&s.r, "from the documentation (no record") != NULL;
		ps_close(&s);
	}
	CHECK(documented >= 1, "unmeasured-l1: the L1's ways from the documentation at %d of 3 seeds",
	      documented);
}

/*
 * A last level shared with others, as on a virtual machine: "levels" finds
 * a small part of it (here its effective size cut to a 64th), so the pool
 * taken from its effective size holds too few lines per class.  In the
 * full profile the pool grows until the whole of it evicts the victim, as
 * far as the arena goes: with the test's arena the 32M 16-way L3 is exact;
 * with an arena of 16M it is not measured, the message says the pool is
 * too small for the documented size, and a note that it takes about 32M /
 * 4K = 8192 pages.  The quick profile leaves the growth to the full one,
 * and says so.
 */
/*
 * thin-a, a 4M 4-way L2 (256 classes at a page offset), of which "levels"
 * sees 1.9M on scattered frames: its pool of 2048 pages gives a class
 * some 8 candidates, and a class of no more than its 4 ways cannot be
 * found.  The full profile's count stops on the thin pool, takes it from
 * as many more pages as its classes want, and counts again
 * (core/probes/evset/classes.c, thin).  Without, the full profile did not
 * measure its size at seeds 1 to 3 ("a class has too few candidates in
 * the pool to evict its own").  The quick profile's pool does not grow:
 * never wrong there.
 */
static void thin_pool(void)
{
	static const char *const text =
		"name = thin-a\nclock freq=3.0G\n"
		"cache L1D size=32K line=64 ways=8 latency=4 replacement=lru\n"
		"cache L2 size=4M line=64 ways=4 latency=14 replacement=lru\n"
		"memory latency=200\nframes mode=scattered seed=4\n";
	static const enum mp_profile profiles[] = { MP_PROFILE_QUICK, MP_PROFILE_FULL };

	for (uint64_t seed = 1; seed <= 3; seed++)
		for (unsigned i = 0; i < 2; i++) {
			const struct mp_sim_cache_model *mc;
			const struct mp_cache *got;
			struct ps_run s;
			struct mp_probe *ev;
			double took;

			if (!ps_open_text(&s, "thin-a", text, PS_EXACT) || !scattered(&s, PS_EXACT))
				return;
			s.cfg.profile = profiles[i];
			ev = evset_timed(&s, seed, false, &took);
			got = found(&s.r, 2);
			mc = ps_cache(&s.model, 2);
			if (profiles[i] == MP_PROFILE_FULL)
				CHECK(exact_level(got, mc), "thin-a, seed %llu: the full profile's L2 "
				      "exact, its pool grown (%s)", (unsigned long long)seed, ev->message);
			else
				CHECK(got && mc && right(got->size_bytes, mc->size) &&
				      right(got->ways, mc->ways), "thin-a, seed %llu: the quick "
				      "profile's L2 never wrong (%s)", (unsigned long long)seed, ev->message);
			ps_close(&s);
		}
}

static struct mp_probe *shared_run(struct ps_run *s, enum mp_profile profile, uint64_t arena)
{
	static const char *const text =
		"name = shared-l3\nclock freq=3.0G\n"
		"cache L1D size=32K line=64 ways=8 latency=4 replacement=plru\n"
		"cache L2 size=256K line=64 ways=8 latency=12 replacement=plru\n"
		"cache L3 size=32M line=64 ways=16 latency=40 replacement=plru\n"
		"memory latency=250\nframes mode=scattered seed=3\n";
	struct mp_cache *l3;

	if (!ps_open_text(s, "shared", text, PS_EXACT) || !scattered(s, PS_EXACT))
		return NULL;
	if (arena)
		s->cfg.arena_bytes = arena;
	s->cfg.profile = profile;
	evset_inputs(s, true);
	l3 = (struct mp_cache *)found(&s->r, 3);
	CHECK(l3 != NULL, "shared: levels finds the L3");
	if (l3)
		l3->effective_size_bytes /= 64;
	return ps_probe_run(s, "evset", mp_probe_evset);
}

static void shared_last_level(void)
{
	struct ps_run s;
	struct mp_probe *ev;
	const struct mp_cache *l3;

	if ((ev = shared_run(&s, MP_PROFILE_FULL, 0)) != NULL) {
		l3 = found(&s.r, 3);
		CHECK(l3 && l3->size_bytes == 32 << 20 && l3->ways == 16 && l3->line_bytes == 64,
		      "shared, full profile: the L3 exact, its pool grown (%s)", ev->message);
		ps_close(&s);
	}
	if ((ev = shared_run(&s, MP_PROFILE_QUICK, 0)) != NULL) {
		l3 = found(&s.r, 3);
		CHECK(l3 && l3->ways == MP_NA && strstr(ev->message, "(the full profile grows it)"),
		      "shared, quick profile: the L3 not measured, and the full profile named (%s)",
		      ev->message);
		ps_close(&s);
	}
	if ((ev = shared_run(&s, MP_PROFILE_FULL, 16 << 20)) == NULL)
		return;
	l3 = found(&s.r, 3);
	CHECK(l3 && l3->ways == MP_NA &&
	      strstr(ev->message, "L3 not measured: its pool is too small for the documented size"),
	      "shared, an arena of 16M: the L3 is not measured, its pool too small (%s)",
	      ev->message);
	CHECK(ps_note(&s.r, "takes ~8192 pages") != NULL,
	      "shared, an arena of 16M: a note says how many pages it takes");
	ps_close(&s);
}

/*
 * A last level whose replacement spares the victim now and then, as this
 * project's AMD EPYC guest's L3 does: LRU whose fills go to the LRU end
 * one time in 32 (sim/sets.c, bimodal), under a guest-like hierarchy.  A
 * set of the ways then evicts the victim in only some tests, so a minimal
 * set comes out a line or more larger, in every class alike: a count
 * bears it out.  At seed 13 the L3 came out 17-way so, before the victim's
 * set a line short was tested where a count bore the ways out too (core/
 * probes/evset/measure.c, a_line_short); at seed 3 its line came out 16
 * bytes while the line went by the victim's set, which spared it (the line
 * goes by a flush now: core/probes/evset/test.c, mp_evset_line).  At seed
 * 5 the ways and line are measured.  Nothing may be wrong; the L2
 * (tree-PLRU) must be exact.
 */
static void bimodal_last_level(void)
{
	static const char *const text =
		"name = bimodal-l3\nclock freq=3.0G\n"
		"cache L1D size=48K line=64 ways=12 latency=5 replacement=plru\n"
		"cache L2 size=1M line=64 ways=16 latency=14 replacement=plru inclusion=inclusive\n"
		"cache L3 size=32M line=64 ways=16 latency=50 replacement=bimodal "
		"inclusion=exclusive index=hash slices=8 hash=random\n"
		"memory latency=300\n";
	static const uint64_t seeds[] = { 3, 5, 13 };

	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		struct ps_run s;
		struct mp_probe *ev;
		int exact = 0;

		if (!ps_open_text(&s, "bimodal", text, PS_EXACT) || !scattered(&s, PS_EXACT))
			continue;
		snprintf(s.name, sizeof(s.name), "bimodal L3, seed %llu",
			 (unsigned long long)seeds[i]);
		s.cfg.seed = seeds[i];
		s.cfg.profile = MP_PROFILE_FULL;
		ev = probes(&s);
		check_level(&s, ps_cache(&s.model, 2), ev, &exact);
		check_level(&s, ps_cache(&s.model, 3), ev, &exact);
		CHECK(exact_level(found(&s.r, 2), ps_cache(&s.model, 2)), "%s: L2 exact", s.name);
		ps_close(&s);
	}
}

/*
 * Levels that must come out exact at a seed besides the default one (the
 * seed draws the victims, the pool's order and the reductions' groups).
 * Ice Lake-SP's L3 (40 slices, hash=random, 12 ways under a 20-way L2):
 * its count takes a tail from the classes it counted once its sets come
 * out larger than the ways; without that tail, at this seed, its last
 * classes were left too few candidates and its size was not measured.
 * Zen 4's victim L3: its tail is picked with a set found with a stand-in
 * tail, the next candidates where one does not hold up; with one stand-in
 * it was not measured at this seed.  The P5's direct-mapped L2: the
 * victim's time out of the L1 alone is the median over a few groups of
 * candidates; at this seed the first group held a line of its L2 set.
 * Ice Lake-SP's L3 on contiguous frames (as the model is, bare metal): its
 * evicting prefix is past every class's threshold, and the tail's pick
 * with it gives up once it has evicted as many candidates as the tail
 * wants; testing every candidate against it took 1.4 of the level's 3 s at
 * this seed, and the count ran out of time.  Frames scattered unless said.
 */
static const struct {
	const char *model;
	int32_t level;
	uint64_t seed;
	bool contiguous;
} required[] = {
	{ "icelake-sp", 3, 2, false }, { "zen4", 3, 3, false }, { "p5-133", 2, 3, false },
	{ "icelake-sp", 3, 1, true },
};

static void required_exact(const char *filter)
{
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		char path[PS_PATH];
		struct ps_run s;
		const struct mp_sim_cache_model *mc;
		const struct mp_cache *got;

		if (filter && !strstr(required[i].model, filter))
			continue;
		snprintf(path, sizeof(path), "%s/%s.model", PS_MODELS_DIR, required[i].model);
		if (!ps_open(&s, path, PS_EXACT) ||
		    (!required[i].contiguous && !scattered(&s, PS_EXACT)))
			continue;
		s.cfg.seed = required[i].seed;
		probes(&s);
		mc = ps_cache(&s.model, required[i].level);
		got = found(&s.r, required[i].level);
		CHECK(exact_level(got, mc), "%s, seed %llu, L%d exact (size %lld ways %lld line %lld)",
		      s.name, (unsigned long long)required[i].seed, (int)required[i].level,
		      got ? (long long)got->size_bytes : -2, got ? (long long)got->ways : -2,
		      got ? (long long)got->line_bytes : -2);
		ps_close(&s);
	}
}

/*
 * Stresses of the test a model does not have by itself, at a seed each;
 * nothing may be wrong.
 *  - A thread sharing the L2 that holds a way of every set it uses, 2^26
 *    cycles of every 2^27 (an SMT sibling on a virtual machine's host): a
 *    minimal set found while it runs is a way short, and so may be every
 *    class's set counted meanwhile.  Before the victim's set was tested
 *    again over time once the count was done, the Core i7's L2 came out
 *    7-way for 8 at seeds 1 and 6.  At seed 6 the L2 must be exact: while
 *    the neighbour ran, any line of another page offset took the place of
 *    one of the victim's set, until that set without the line had to stop
 *    evicting the victim as well, and the offsets sharing a set came out
 *    8 (32K) or not a power of two.  At seed 1 the L3 must be exact:
 *    the L2's set a line short evicted the victim in most tests while the
 *    neighbour ran, as under a replacement that spares the victim now and
 *    then, and the L2's ways were undone, and the L3 with them (it is
 *    counted within the L2's classes), until that set was tested again
 *    later (core/probes/evset/measure.c, stops_later).  (The line under such
 *    a neighbour: tests/sim/test_command.c.)
 *  - A neighbour that fills every L2 set it uses for 10^5 cycles of every
 *    4.1 x 10^6 (a host's thread thrashing the cache now and then): for a
 *    while every victim reads evicted.  When a count took a new class for
 *    one counted before on one test's word, one way, it lost the class
 *    and its candidates with it, and the L2 came out 224K for 256K (7 of
 *    8 classes) at seed 1, as this project's AMD EPYC guest's 1M L2 came
 *    out 1008K once.  The L2 must be exact.
 *  - A clock that reads in steps of many cycles (AMD's TSC: 26 ticks, 10
 *    ns): a victim that stays in the level reads slower than the threshold
 *    in a share of the tries, and with two tries a test the Core i7's L2
 *    came out 128K for 256K and Skylake's 128K for 256K.  With the tries
 *    fitted to that share, nothing is wrong.  The L3s of Zen 4 and
 *    Skylake must be exact: their pools, the candidates congruent in the
 *    L2, were kept with one try each (Zen 4's took 6001 candidates for
 *    986, and the time bound passed), and with one try fewer than a test
 *    (Skylake's held candidates of no class, and its size was lost).
 *    Skylake at seed 2 and Zen 4 at seed 1 lost a class each (L2 240K
 *    and 992K) while the tries came from the share of slow reads seen,
 *    not from its upper bound.
 */
struct neighbour {
	const char *what;
	uint32_t ways;          /* of every L2 set it uses */
	uint64_t on, off;       /* cycles */
	uint32_t every;         /* of our accesses */
};

static const struct neighbour way_held = { "an L2 way held by a neighbour", 1, 1ull << 26,
					   1ull << 26, 8 };
static const struct neighbour bursts = { "the L2 filled by a neighbour in bursts", 8, 100000,
					 4000000, 1 };

static const struct {
	const char *model;
	uint64_t seed;
	const struct neighbour *nb;     /* NULL: none */
	uint32_t step;          /* the clock's step in cycles; 0: every cycle */
	int32_t exact;          /* a level that must be exact; 0: none */
} stressed[] = {
	{ "core-i7-4770", 1, &way_held, 0, 3 }, { "core-i7-4770", 6, &way_held, 0, 2 },
	{ "core-i7-4770", 1, &bursts, 0, 2 },
	{ "core-i7-4770", 1, NULL, 26, 0 }, { "skylake-smt", 1, NULL, 30, 3 },
	{ "zen4", 2, NULL, 40, 3 }, { "skylake-smt", 2, NULL, 30, 0 }, { "zen4", 1, NULL, 40, 0 },
};

static bool stress_wanted(size_t i, const char *filter)
{
	return !filter || strstr(stressed[i].model, filter) ||
	       strstr(stressed[i].nb ? "neighbour" : "clock", filter);
}

static void stress(struct ps_run *s, size_t i)
{
	const struct neighbour *nb = stressed[i].nb;

	if (nb) {
		s->model.neighbour.ways = nb->ways;
		s->model.neighbour.level = 2;
		s->model.neighbour.on = nb->on;
		s->model.neighbour.off = nb->off;
		s->model.neighbour.every = nb->every;
	}
	if (stressed[i].step)
		s->model.clock_step_x100 = 100 * stressed[i].step;
}

static void stressed_runs(const char *filter)
{
	for (size_t i = 0; i < sizeof(stressed) / sizeof(stressed[0]); i++) {
		char path[PS_PATH];
		struct ps_run s;
		struct mp_probe *ev;
		int exact = 0;

		if (!stress_wanted(i, filter))
			continue;
		snprintf(path, sizeof(path), "%s/%s.model", PS_MODELS_DIR, stressed[i].model);
		if (!ps_open(&s, path, PS_EXACT))
			continue;
		stress(&s, i);
		if (!scattered(&s, PS_EXACT))
			continue;
		if (stressed[i].nb)
			snprintf(s.name, sizeof(s.name), "%s, %s, seed %llu", stressed[i].model,
				 stressed[i].nb->what, (unsigned long long)stressed[i].seed);
		else
			snprintf(s.name, sizeof(s.name), "%s, a clock in steps of %u cycles, seed %llu",
				 stressed[i].model, stressed[i].step,
				 (unsigned long long)stressed[i].seed);
		s.cfg.seed = stressed[i].seed;
		ev = probes(&s);
		for (int32_t level = 2; ps_cache(&s.model, level); level++)
			check_level(&s, ps_cache(&s.model, level), ev, &exact);
		if (stressed[i].exact)
			CHECK(exact_level(found(&s.r, stressed[i].exact),
					  ps_cache(&s.model, stressed[i].exact)),
			      "%s: L%d exact", s.name, (int)stressed[i].exact);
		ps_close(&s);
	}
}

/*
 * A clock in steps of 21 cycles, and a timed run that spends 49 cycles
 * reading it, with this project's AMD guest "Turin-like" latencies in its
 * TSC's ticks (its TSC moves by 21 at once, an L1 hit reads 42 or 63):
 * the victim left in the L2 reads 42 or 63, 63 in most tries, and out of
 * it 84 or 105, while the latencies put the threshold at 57.  With every
 * try of a test asked to read slow, the L2's ways and size were lost at
 * seeds 1 to 6 ("its minimal set a line short evicted the victim in most
 * tests"), as on that guest.  With the tries put to a vote at their
 * median read, both levels came out exact at seeds 1 to 3.  The threshold
 * now starts from the hit's mean read (evset_tester), above the L2's
 * reads and below the L3's, and no vote is needed: both levels must be
 * exact at seeds 1 to 3.
 */
static void coarse_clock(void)
{
	static const char *const text =
		"name = coarse-guest\nclock freq=2.1G step=21 read=49\n"
		"cache L1D size=32K line=64 ways=8 latency=3 replacement=plru\n"
		"cache L1I size=32K line=64 ways=8 latency=3 replacement=plru\n"
		"cache L2 size=512K line=64 ways=8 latency=9 replacement=plru inclusion=inclusive\n"
		"cache L3 size=8M line=64 ways=16 latency=44 replacement=plru inclusion=exclusive\n"
		"tlb DTLB1 entries=64 ways=full page=4K latency=7\n"
		"tlb DTLB2 entries=2048 ways=16 page=4K latency=20\n"
		"memory latency=200\n";

	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct ps_run s;
		struct mp_probe *ev;

		if (!ps_open_text(&s, "coarse-guest", text, PS_EXACT) || !scattered(&s, PS_EXACT))
			return;
		s.cfg.seed = seed;
		ev = probes(&s);
		for (int32_t level = 2; level <= 3; level++)
			CHECK(exact_level(found(&s.r, level), ps_cache(&s.model, level)),
			      "%s, seed %llu: L%d exact (%s)", s.name, (unsigned long long)seed,
			      (int)level, ev->message);
		ps_close(&s);
	}
}

/* This project's Zen 3 guest's levels and TLBs, as a model's lines (its L3 an 8M victim cache). */
#define ZEN3_LEVELS                                                                          \
	"cache L1D size=32K line=64 ways=8 latency=3 replacement=plru\n"                     \
	"cache L1I size=32K line=64 ways=8 latency=3 replacement=plru\n"                     \
	"cache L2 size=512K line=64 ways=8 latency=9 replacement=plru inclusion=inclusive\n" \
	"cache L3 size=8M line=64 ways=16 latency=34 replacement=plru inclusion=exclusive\n" \
	"tlb DTLB1 entries=64 ways=full page=4K latency=7\n"                                 \
	"tlb DTLB2 entries=2048 ways=16 page=4K latency=20\n"                                \
	"memory latency=285\n"

/*
 * An adjacent-line prefetcher at the L2 (sim/prefetch.c, adjacent: a miss
 * there fetches the other line of its 128-byte pair), on scattered
 * frames, at seeds 1 to 4: the L2 and the L3 below it (exclusive) exact
 * every time.  With the line told by the victim's minimal set rather than
 * by the victim's line flushed (core/probes/evset/test.c, mp_evset_line),
 * the set's pairs filled the moved victim's set and the L2 came out with
 * 128-byte lines for 64 at seeds 3 and 4, as this project's AMD guest's
 * L3 did in one full run of ten; with lines whose place in the victim's
 * set was their pair's counted as sharing its sets (size.c, pair_apart),
 * 256K for 512K at all four.
 */
static void adjacent_line(void)
{
	static const char text[] =
		"name = adjacent-l2\nclock freq=2G\n" ZEN3_LEVELS "prefetch kind=adjacent level=2\n";
	int exact = 0;
	double took;

	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct ps_run s;
		struct mp_probe *ev;

		if (!ps_open_text(&s, "adjacent-l2", text, PS_EXACT) || !scattered(&s, PS_EXACT))
			return;
		ev = evset_timed(&s, seed, true, &took);
		for (int32_t level = 2; level <= 3; level++)
			check_level(&s, ps_cache(&s.model, level), ev, &exact);
		l3_exclusive(&s);
		ps_close(&s);
	}
	CHECK(exact == 8, "adjacent-l2: L2 and L3 exact at seeds 1 to 4 (%d of 8)", exact);
}

/*
 * This project's Zen 3 guest: a TSC of 2.445 GHz updated at 100 MHz, so
 * in steps of 24 and 25 in turn, and a timed run of some 61 ticks: an L1
 * hit reads 49 or 73, the victim in the L2 73 or 74, out of it 98 and now
 * and then 73 (its L3 hit some 25 ticks, a step, above the L2's).  With
 * the threshold from the hit's least read (49: 64) and every try of a test
 * asked to read slow, the L2 was lost at seeds 1 to 6 ("its minimal set a
 * line short evicted the victim now and then"), as in most runs on the
 * guest.  With the threshold from the hit's mean and the medians, and a
 * vote where the victim out of the level reads fast now and then
 * (calibrate.c, fit_misses), the L2 never wrong and exact at 4 of the 6
 * seeds; with the timed loads after drawn waits (test.c, dither: the
 * simulated clock has no jitter, and tries of one length kept the phase,
 * so that their reads were not independent), at 5, which it must be.
 */
static const char coarse_zen3[] =
	"name = coarse-zen3\nclock freq=2.445G step=24.45 read=61\n" ZEN3_LEVELS;

static void stepped_clock(void)
{
	exact_at_seeds("coarse-zen3", coarse_zen3, 2, 6, 5, "the L2 under a clock in steps of 24.45");
}

/*
 * The same guest where the l1 probe recorded nothing (not run here).  With
 * the L1 documented (32K 8-way: a way of a page) evset leaves it alone
 * (busy_l1), says so, and the L2 and L3 must be exact at seeds 1 to 3.
 * With nothing documenting it, evset measures the L1 itself (at seed 1),
 * whose hit and the L2's (6 cycles apart) read alike on a clock in steps
 * of 24.45, so its threshold told the L2's hits from the L3's.  Without
 * the check that a minimal set leaves the victim in the next level
 * (geometry.c, past_next), the L1 came out 512K 8-way (the L2's) at seeds
 * 1 to 3, and the L2 8M 16-way (the L3's) at seed 1, as on the guest in a
 * full run whose l1 probe failed.  The L1 must record no geometry and say
 * why (the levels below then have no L1 ways to take, and nothing wrong).
 */
static const struct mp_probe *coarse_l1_run(struct ps_run *s, uint64_t seed, bool documented)
{
	if (!ps_open_text(s, "coarse-zen3", coarse_zen3, PS_EXACT) || !scattered(s, PS_EXACT))
		return NULL;
	snprintf(s->name, sizeof(s->name), "coarse-zen3 without l1%s, seed %llu",
		 documented ? "" : " or its documentation", (unsigned long long)seed);
	s->cfg.seed = seed;
	s->cfg.profile = MP_PROFILE_QUICK;
	if (!documented)
		undocument_l1(s);
	ps_probe_run(s, "latency", mp_probe_latency);
	ps_probe_run(s, "levels", mp_probe_levels);
	return ps_probe_run(s, "evset", mp_probe_evset);
}

static void coarse_l1_says(const struct ps_run *s, const struct mp_probe *ev, const char *why)
{
	const struct mp_cache *l1 = found(&s->r, 1);

	CHECK(!l1 || (l1->size_bytes == MP_NA && l1->ways == MP_NA),
	      "%s: no L1 geometry recorded (%s)", s->name, ev->message);
	CHECK(strstr(ev->message, why) != NULL, "%s: evset says why its L1 is not recorded: "
	      "\"%s\" (%s)", s->name, why, ev->message);
}

static void coarse_l1(void)
{
	const struct mp_probe *ev;
	struct ps_run s;
	int exact = 0;

	for (uint64_t seed = 1; seed <= 3; seed++) {
		if (!(ev = coarse_l1_run(&s, seed, true)))
			return;
		coarse_l1_says(&s, ev, "L1 not measured: the documentation gives it a way of a "
				       "page or less");
		for (int32_t level = 2; level <= 3; level++)
			check_level(&s, ps_cache(&s.model, level), ev, &exact);
		ps_close(&s);
	}
	CHECK(exact == 6, "coarse-zen3 without l1: L2 and L3 exact at seeds 1 to 3 (%d of 6)", exact);
	if (!(ev = coarse_l1_run(&s, 1, false)))
		return;
	coarse_l1_says(&s, ev, "L1 not measured: its minimal set takes the victim past the next "
			       "level");
	for (int32_t level = 2; level <= 3; level++)
		ps_check_no_wrong(&s, "L2 or L3", ps_cache(&s.model, level), found(&s.r, level));
	ps_close(&s);
}

/*
 * The model `text`'s quick profile on scattered frames at a seed, and
 * levels 2 and 3 checked (check_level, exact ones added to *exact): 1 run,
 * s left open, 0 not run.
 */
static int quick_levels(struct ps_run *s, const char *name, const char *text, uint64_t seed,
			int *exact)
{
	struct mp_probe *ev;

	if (!ps_open_text(s, name, text, PS_EXACT) || !scattered(s, PS_EXACT))
		return 0;
	snprintf(s->name, sizeof(s->name), "%s, seed %llu", name, (unsigned long long)seed);
	s->cfg.seed = seed;
	s->cfg.profile = MP_PROFILE_QUICK;
	ev = probes(s);
	for (int32_t level = 2; level <= 3; level++)
		check_level(s, ps_cache(&s->model, level), ev, exact);
	return 1;
}

/*
 * This project's AMD guest's L2 as the count sees it (64 classes at a
 * page offset: a 4M 16-way L2 here, without its folded index), on a coarse
 * clock, with a thread sharing the L2 that holds one of its ways 2^26
 * cycles of every 2^27.  The quick profile's count stops by its pace after
 * a few classes, all of whose sets a run of that thread may cover, and
 * then bears out ways one short.  With the victim's set tested once after
 * a stopped count, and over time only 50 ms apart (the neighbour's period
 * at 2.6 GHz), the L2 came out 15-way at seed 8 of 1 to 8 here (at seeds 2
 * and 4 under memprobe-sim, two rounds); tested over time at drawn rests
 * (core/probes/evset/measure.c, still_evicts), nothing is wrong at any of
 * the eight.  Later changes moved every seed's course: with the victim's
 * set tested once again, none of seeds 1 to 8 comes out 15-way now (tried),
 * and seed 8 took 160 s here.  At seed 1 the count still stops by its pace
 * and the set tested over time stops evicting the victim, so the L2 is not
 * measured (tested once, its 16 ways stood, the size not measured): nothing
 * may be wrong there.
 */
static void stopped_count(void)
{
	static const char *const text =
		"name = stopped-count\nclock freq=2.6G step=21 read=49\n"
		"cache L1D size=48K line=64 ways=12 latency=3 replacement=plru\n"
		"cache L1I size=32K line=64 ways=8 latency=3 replacement=plru\n"
		"cache L2 size=4M line=64 ways=16 latency=9 replacement=plru inclusion=inclusive\n"
		"cache L3 size=32M line=64 ways=16 latency=44 replacement=plru inclusion=exclusive\n"
		"tlb DTLB1 entries=64 ways=full page=4K latency=7\n"
		"tlb DTLB2 entries=2048 ways=16 page=4K latency=20\n"
		"memory latency=200\n"
		"neighbour on=67108864 off=67108864 ways=1 level=2 every=8\n";

	struct ps_run s;
	int exact = 0;

	if (quick_levels(&s, "stopped-count", text, 1, &exact))
		ps_close(&s);
}

/*
 * A model of this project's AMD guest whose L2 and L3 hits read alike
 * now and then (a coarse clock, and an L3 a step slower than the L2, as
 * there): the quick profile's count of its L2's 64 classes at a page
 * offset takes 13 to 16 tries a test and would pass its time bound, and
 * the classes it has no time for are counted by a conflict set.  Before,
 * the L2's size was not measured at seed 2.
 */
static void overlap_count(void)
{
	static const char *const text =
		"name = overlap-count\nclock freq=2.6G step=21 read=43\n"
		"cache L1D size=48K line=64 ways=12 latency=3 replacement=plru\n"
		"cache L1I size=32K line=64 ways=8 latency=3 replacement=plru\n"
		"cache L2 size=4M line=64 ways=16 latency=10 replacement=plru inclusion=inclusive\n"
		"cache L3 size=32M line=64 ways=16 latency=34 replacement=plru inclusion=exclusive\n"
		"tlb DTLB1 entries=64 ways=full page=4K latency=7\n"
		"tlb DTLB2 entries=2048 ways=16 page=4K latency=20\n"
		"memory latency=200\n";

	struct ps_run s;
	int exact = 0;

	if (!quick_levels(&s, "overlap-count", text, 2, &exact))
		return;
	CHECK(exact == 2, "%s: both levels exact (%d)", s.name, exact);
	CHECK(ps_note(&s.r, "of them by a conflict set") != NULL,
	      "%s: the L2's classes the count had no time for came from a conflict set", s.name);
	ps_close(&s);
}

/* The result without its record of data level `level` (as where "levels" missed it). */
static void drop_level(struct mp_result *r, int32_t level)
{
	int32_t k = 0;

	for (int32_t i = 0; i < r->ncaches; i++)
		if (r->caches[i].level != level || r->caches[i].type == MP_KIND_INSTRUCTION)
			r->caches[k++] = r->caches[i];
	r->ncaches = k;
}

/*
 * "levels" missed the L3 (a busy spell on this project's AMD guest did so
 * in 2 full runs of 4), and the whole pool takes the victim out of the L3
 * too: with memory's latency as the next, the L2's threshold (the
 * geometric mean of the L2's and memory's latencies) lay above the L3
 * hit, and a set that evicted the victim from the L2 alone read as none.
 * The L2 must be exact (its size was not measured).
 */
static void missed_level(void)
{
	static const char *const text =
		"name = missed-level\nclock freq=2.6G\n"
		"cache L1D size=32K line=64 ways=8 latency=3 replacement=plru\n"
		"cache L1I size=32K line=64 ways=8 latency=3 replacement=plru\n"
		"cache L2 size=512K line=64 ways=8 latency=10 replacement=plru inclusion=inclusive\n"
		"cache L3 size=1M line=64 ways=16 latency=34 replacement=plru inclusion=exclusive\n"
		"memory latency=300\n";

	struct ps_run s;
	struct mp_probe *ev;

	if (!ps_open_text(&s, "missed-level", text, PS_EXACT) || !scattered(&s, PS_EXACT))
		return;
	s.cfg.profile = MP_PROFILE_QUICK;
	evset_inputs(&s, true);
	drop_level(&s.r, 3);
	ev = ps_probe_run(&s, "evset", mp_probe_evset);
	CHECK(exact_level(found(&s.r, 2), ps_cache(&s.model, 2)), "%s: L2 exact (%s)", s.name,
	      ev->message);
	ps_close(&s);
}

/*
 * The probes evset builds on, the level's record dropped, then evset: the
 * level must come out exact, with the note that says where it was looked
 * for.  s is closed.
 */
static void dropped_exact(struct ps_run *s, int32_t level)
{
	struct mp_probe *ev;
	char note[64];

	evset_inputs(s, true);
	drop_level(&s->r, level);
	ev = ps_probe_run(s, "evset", mp_probe_evset);
	snprintf(note, sizeof(note), "evset: L%d: \"levels\" did not find it", (int)level);
	CHECK(exact_level(found(&s->r, level), ps_cache(&s->model, level)) &&
	      ps_note(&s->r, note) != NULL, "%s: L%d, its record dropped, exact and noted (%s)",
	      s->name, (int)level, ev->message);
	ps_close(s);
}

/* A plain three-level model on scattered frames (documented_only, unknown_latency). */
static const char *const plain_l3 =
	"name = plain-l3\nclock freq=2.6G\n"
	"cache L1D size=32K line=64 ways=8 latency=4\n"
	"cache L2 size=256K line=64 ways=8 latency=12 inclusion=inclusive\n"
	"cache L3 size=4M line=64 ways=16 latency=40\n"
	"memory latency=250\nframes mode=scattered seed=3\n";

/*
 * Levels "levels" did not find, looked for where the documentation has
 * them (probe.c, missed_level), as their records dropped: the simulated
 * P5's direct-mapped 256K L2 on scattered frames (which "levels" misses on
 * some frames: pages of one colour send a few kilobytes of C(k) to memory,
 * and the curve reaches memory's latency at 12K), and an L3.  Both exact,
 * with a note; before, evset needed "levels" to find them.
 */
static void documented_only(void)
{
	char path[PS_PATH];
	struct ps_run s;

	snprintf(path, sizeof(path), "%s/p5-133.model", PS_MODELS_DIR);
	if (!ps_open(&s, path, PS_EXACT) || !scattered(&s, PS_EXACT))
		return;
	dropped_exact(&s, 2);
	if (!ps_open_text(&s, "plain-l3", plain_l3, PS_EXACT) || !scattered(&s, PS_EXACT))
		return;
	dropped_exact(&s, 3);
}

/*
 * A thread that holds one or two ways of a single L2 set, in spans of a
 * few thousand cycles: a class found in such a span has a set a line or
 * two short, which seldom evicts the class's other candidates, so it took
 * none from the pool, and the class was counted again later with a whole
 * set: 1152K for the 1M L2 at seed 2 (and the L3, counted within it, 9M;
 * memprobe-sim's two rounds at its seed 1 gave 1088K and 1152K).  A class
 * whose short set took no other candidate is set aside (classes.c,
 * next_class).
 */
static void hot_set(void)
{
	static const char *const text =
		"name = hot-set\nclock freq=3.5G\n"
		"cache L1D size=48K line=64 ways=12 latency=4 replacement=plru\n"
		"cache L2 size=1M line=64 ways=16 latency=14 replacement=plru inclusion=inclusive\n"
		"cache L3 size=8M line=64 ways=16 latency=50 replacement=plru inclusion=exclusive\n"
		"memory latency=400\nframes mode=scattered seed=1\n"
		"neighbour ways=1 level=2 set=128 on=17179869184 off=1024 extra=1 "
		"extra_on=4000 extra_off=8000\n";

	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct ps_run s;
		struct mp_probe *ev;
		const struct mp_cache *got;
		const struct mp_sim_cache_model *mc;

		if (!ps_open_text(&s, "hot-set", text, PS_EXACT) || !scattered(&s, PS_EXACT))
			return;
		s.cfg.profile = MP_PROFILE_QUICK;
		s.cfg.seed = seed;
		evset_inputs(&s, false);
		ev = ps_probe_run(&s, "evset", mp_probe_evset);
		got = found(&s.r, 2);
		mc = ps_cache(&s.model, 2);
		CHECK(exact_level(got, mc), "%s, seed %llu: the L2 exact (%s)", s.name,
		      (unsigned long long)seed, ev->message);
		ps_close(&s);
	}
}

/*
 * "levels" voted the L3's capacity but not its latency (a full run on
 * this project's AMD guest did so): the L2's next latency is the first
 * known below it, memory's here.  Before, the L2 was not looked for
 * ("no level below the L1 has ... the latencies"), and the L3 with it.
 */
static void unknown_latency(void)
{
	struct ps_run s;
	struct mp_probe *ev;
	struct mp_cache *l3;

	if (!ps_open_text(&s, "plain-l3", plain_l3, PS_EXACT) || !scattered(&s, PS_EXACT))
		return;
	evset_inputs(&s, true);
	l3 = mp_result_find_cache(&s.r, 3, MP_KIND_UNIFIED);
	CHECK(l3 != NULL, "%s: levels found the L3", s.name);
	if (l3)
		l3->latency_ns = mp_na_double();
	ev = ps_probe_run(&s, "evset", mp_probe_evset);
	CHECK(exact_level(found(&s.r, 2), ps_cache(&s.model, 2)),
	      "%s: the L3's latency unknown, the L2 exact (%s)", s.name, ev->message);
	ps_close(&s);
}

/*
 * Does evset's message give the model's L2 ways and line (its first part,
 * up to the first ';': "L2 [size ]W-way L B")?  Its record may hold
 * another probe's values (compact sets, where they stand).
 */
static bool l2_part_has(const char *message, const struct mp_sim_cache_model *l2)
{
	char want[64], part[MP_TEXT_LEN];
	size_t n = strcspn(message, ";");

	snprintf(part, sizeof(part), "%.*s", (int)n, message);
	snprintf(want, sizeof(want), " %llu-way %llu B", (unsigned long long)l2->ways,
		 (unsigned long long)l2->line);
	return strncmp(part, "L2 ", 3) == 0 && strstr(part, want) != NULL;
}

/*
 * A neighbour whose line lies in one L2 set and which touches it before
 * each of our accesses there (a thread spinning on one line), for every
 * set the victims at the pool's page offset may fall in: evset must give
 * the Core i7's L2 ways and line whichever it is, and nothing wrong.
 * Under tree-PLRU that line can keep the victim's half of its set from
 * being replaced: where it is the first victim's set (448 here), the
 * whole pool does not slow the victim, the level is lost at once, and the
 * probe takes another victim (core/probes/evset/measure.c, another_victim;
 * without it the L2 was not measured there).  Where it is another class's
 * set, the count cannot evict that class's victims, and the L2's size is
 * not measured (a stated reason).
 */
static void hot_line(const char *filter)
{
	char path[PS_PATH];

	if (filter && !strstr("hot", filter))
		return;
	snprintf(path, sizeof(path), "%s/core-i7-4770.model", PS_MODELS_DIR);
	for (uint64_t k = 0; ; k++) {
		const struct mp_sim_cache_model *l2;
		struct ps_run s;
		struct mp_probe *ev;
		uint64_t set;
		int exact = 0;

		if (!ps_open(&s, path, PS_EXACT))
			return;
		l2 = ps_cache(&s.model, 2);
		set = k * (mp_sim_model_base_page(&s.model) / l2->line);  /* same page offset */
		if (set >= mp_sim_cache_sets(l2)) {
			ps_close(&s);
			return;
		}
		s.model.neighbour.ways = 1;
		s.model.neighbour.level = 2;
		s.model.neighbour.on = 1ull << 40;
		s.model.neighbour.off = 1;
		s.model.neighbour.every = 1;
		s.model.neighbour.set = (uint32_t)set;
		s.model.neighbour.one_set = true;
		if (!scattered(&s, PS_EXACT))
			return;
		snprintf(s.name, sizeof(s.name), "core-i7-4770, a neighbour's line in L2 set %llu",
			 (unsigned long long)set);
		ev = probes(&s);
		for (int32_t level = 2; ps_cache(&s.model, level); level++)
			check_level(&s, ps_cache(&s.model, level), ev, &exact);
		CHECK(l2_part_has(ev->message, l2), "%s: evset measured the L2's ways and line (%s)",
		      s.name, ev->message);
		ps_close(&s);
	}
}

/*
 * A level's search keeps the quick profile's time bound (3 s a level):
 * evset must end within twice it.  Power3 with contiguous frames at seed
 * 2: its tail (256 lines, twice its 128-way L1) was looked for among the
 * whole pool with a 4096-line prefix of it, each candidate's test
 * traversing that prefix, and evset took 29 s.  A 4-way L2 under a 32-way
 * L1 (its way 512 B) at seed 2: the tail moved to each page offset in
 * turn filled that offset's classes, every candidate read slow and was
 * tested alone, and the offsets sharing a set took 12 s.
 */
static const char wide_b[] = "name = wide-b\nclock freq=1G\n"
			     "cache L1D size=16K line=64 ways=32 latency=3\n"
			     "cache L2 size=256K line=64 ways=4 latency=14\n"
			     "memory latency=120\n";

static void time_bound(const char *filter)
{
	char path[PS_PATH];
	struct ps_run s;
	double took;

	if (filter && !strstr("power3-375", filter) && !strstr("bound", filter))
		return;
	snprintf(path, sizeof(path), "%s/power3-375.model", PS_MODELS_DIR);
	if (ps_open(&s, path, PS_EXACT)) {
		evset_timed(&s, 2, true, &took);
		CHECK(took < 6.0, "%s, seed 2: evset within twice its level's time bound (%.2f s)",
		      s.name, took);
		ps_close(&s);
	}
	for (uint64_t seed = 1; seed <= 3; seed++) {
		int exact = 0;
		struct mp_probe *ev;

		if (!ps_open_text(&s, "wide-b", wide_b, PS_EXACT) || !scattered(&s, PS_EXACT))
			return;
		ev = evset_timed(&s, seed, false, &took);
		check_level(&s, ps_cache(&s.model, 2), ev, &exact);
		CHECK(took < 6.0, "%s, seed %llu: evset within twice its level's time bound (%.2f s)",
		      s.name, (unsigned long long)seed, took);
		ps_close(&s);
	}
}

/*
 * An L1 of more ways than the L2, its way smaller than a page (Power3's
 * 128-way FIFO L1 over a 4-way L2, here of 32 classes at a page offset):
 * a set without a tail must hold the L1's ways, and the seeded count's tail
 * no more than a class's candidates, so the count takes a tail inside the
 * pages (core/probes/evset/size.c, inpage_count).  The L2 must be exact
 * at three seeds; without that tail its size was not measured ("a set
 * larger than a class's may hold another class's ways").
 */
static void wide_l1(const char *filter)
{
	static const char text[] =
		"name = wide-a\nclock freq=1G\n"
		"cache L1D size=64K line=128 ways=128 latency=2 replacement=fifo\n"
		"cache L2 size=512K line=128 ways=4 latency=17\n"
		"memory latency=136\n";

	if (filter && !strstr("wide", filter))
		return;
	exact_at_seeds("wide-a", text, 2, 3, 3, "the L2 under a 128-way L1");
}

/*
 * A count of classes that ran out of time in one round of the probe is
 * not run again in its later rounds (core/probes/evset/size.c, ran_out),
 * and a first round counts again.  The Core i7 at a fortieth of its
 * clock: its L3's count cannot end in the quick profile's time, while its
 * ways and line are found well within it, and its L2 is measured whole.
 * (At a twentieth its L2's count ran out, until each line offset's
 * screen took only a share of the pool: now all is measured there.)
 */
static struct mp_probe *evset_round(struct ps_run *s, const struct mp_result *before,
				    unsigned round)
{
	struct mp_ctx c = { .p = s->p, .cfg = &s->cfg, .r = &s->r, .round = round };

	s->r = *before;
	c.self = mp_result_add_probe(&s->r, "evset");
	c.self->status = MP_PROBE_OK;
	mp_probe_evset(&c);
	printf("INFO %s, round %u: evset: %s\n", s->name, round + 1, c.self->message);
	return c.self;
}

/*
 * The Core i7 at 1/slower of its clock on scattered frames, the probes
 * evset builds on run: the result before evset in *before.  False when
 * it could not be opened.
 */
static bool slow_i7(struct ps_run *s, uint64_t slower, struct mp_result *before)
{
	char path[PS_PATH];

	snprintf(path, sizeof(path), "%s/core-i7-4770.model", PS_MODELS_DIR);
	if (!ps_open(s, path, PS_EXACT))
		return false;
	s->model.clock_hz /= slower;
	if (!scattered(s, PS_EXACT))
		return false;
	evset_inputs(s, false);
	*before = s->r;
	return true;
}

static void count_once(void)
{
	static const char *const again = "L3 16-way 64 B; size not measured: its count of classes "
					 "ran out of time in an earlier search of the level";
	static const char *const late = "L3 16-way 64 B; size not measured: the time bound passed";
	static struct mp_result before;
	const struct mp_sim_cache_model *l3;
	const struct mp_cache *got;
	struct ps_run s;

	if (!slow_i7(&s, 40, &before))
		return;
	l3 = ps_cache(&s.model, 3);
	CHECK(strstr(evset_round(&s, &before, 0)->message, late),
	      "%s at a fortieth of its clock: the L3's count runs out of time", s.name);
	CHECK(strstr(evset_round(&s, &before, 1)->message, again),
	      "%s: a second round does not count again", s.name);
	got = found(&s.r, 3);
	CHECK(got && l3 && got->ways == (int64_t)l3->ways && got->line_bytes == (int64_t)l3->line,
	      "%s: the second round still finds the L3's ways and line", s.name);
	CHECK(strstr(evset_round(&s, &before, 0)->message, late),
	      "%s: a first round counts again", s.name);
	ps_close(&s);
}

/*
 * A level whose search for a minimal set ran out of time in one round of
 * the probe is not searched again in its later rounds (measure.c,
 * searched_out), and a first round searches again.  The Core i7 at a
 * two-hundredth of its clock: its L3's search runs out of the quick
 * profile's time.  Searched again, the second round took as long again
 * (the probe 12.0 simulated s for 8.0).
 */
static void search_once(void)
{
	static const char *const again = "its search ran out of time in an earlier round";
	static struct mp_result before;
	struct ps_run s;

	if (!slow_i7(&s, 200, &before))
		return;
	CHECK(strstr(evset_round(&s, &before, 0)->message,
		     "L3 not measured: the time bound passed before a minimal set was found"),
	      "%s at a two-hundredth of its clock: the L3's search runs out of time", s.name);
	CHECK(strstr(evset_round(&s, &before, 1)->message, again),
	      "%s: a second round does not search the L3 again", s.name);
	CHECK(!strstr(evset_round(&s, &before, 0)->message, again),
	      "%s: a first round searches again", s.name);
	ps_close(&s);
}

int main(int argc, char **argv)
{
	unsigned variants = PS_ONLY(PS_EXACT) | PS_ONLY(PS_ROUGH);

	if (argc > 2)
		variants = strcmp(argv[2], "rough") == 0 ? PS_ONLY(PS_ROUGH) : PS_ONLY(PS_EXACT);
	if (argc == 1 || strstr("victim", argv[1]) != NULL) {
		victim_caches();
		victim_stand_in();
		victim_hierarchies_exact();
	}
	if (argc == 1 || strstr("shared", argv[1]) != NULL)
		shared_last_level();
	if (argc == 1 || strstr("thin", argv[1]) != NULL)
		thin_pool();
	if (argc == 1 || strstr("bimodal", argv[1]) != NULL)
		bimodal_last_level();
	if (argc == 1 || strstr("adjacent", argv[1]) != NULL)
		adjacent_line();
	if (argc == 1 || strstr("folded", argv[1]) != NULL)
		folded_index();
	if (argc == 1 || strstr("random", argv[1]) != NULL)
		random_l2();
	if (argc == 1 || strstr("random folded", argv[1]) != NULL)
		random_folded();
	if (argc == 1 || strstr("physical l1", argv[1]) != NULL) {
		physical_l1();
		busy_l1();
		unmeasured_l1();
	}
	if (argc == 1 || strstr("rounds", argv[1]) != NULL) {
		count_once();
		search_once();
	}
	required_exact(argc > 1 ? argv[1] : NULL);
	colour_contiguous(argc > 1 ? argv[1] : NULL);
	stressed_runs(argc > 1 ? argv[1] : NULL);
	if (argc == 1 || strstr("coarse clock", argv[1]) != NULL) {
		coarse_clock();
		stepped_clock();
		coarse_l1();
	}
	if (argc == 1 || strstr("stopped count", argv[1]) != NULL)
		stopped_count();
	if (argc == 1 || strstr("overlap count", argv[1]) != NULL)
		overlap_count();
	if (argc == 1 || strstr("missed level", argv[1]) != NULL) {
		missed_level();
		documented_only();
	}
	if (argc == 1 || strstr("unknown latency", argv[1]) != NULL)
		unknown_latency();
	if (argc == 1 || strstr("hot set", argv[1]) != NULL)
		hot_set();
	hot_line(argc > 1 ? argv[1] : NULL);
	time_bound(argc > 1 ? argv[1] : NULL);
	wide_l1(argc > 1 ? argv[1] : NULL);
	return ps_each_model(argc > 1 ? argv[1] : NULL, run, variants);
}
