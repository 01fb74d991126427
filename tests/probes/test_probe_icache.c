/* SPDX-License-Identifier: MIT */
/*
 * The "icache" probe against every simulated machine: the L1 instruction
 * cache's exact size, line and ways (the gap test and X-Ray agreeing on
 * code), its fetch latency, and the fetch levels: the first one's
 * effective capacity is the L1I's, each level's line cost its model
 * latency.  A model without an L1I (the Pentium 4's trace cache is not
 * modelled) must record none and say that fetches meet the L2 first.  On
 * the rough copies (noise, scattered frames) the L1I is checked again,
 * exactly where the data L1 test is exact too.  Under the L1 neighbours of
 * test_probe_l1 (tests/probes/l1_neighbour.h) the L1I is exact where one
 * leaves three quarters of its ways now and then, and nothing wrong is
 * recorded where one never leaves.
 */
#include "tests/probes/l1_neighbour.h"
#include "tests/probes/notes.h"

static const struct mp_sim_cache_model *l1i_of(const struct mp_sim_model *m)
{
	for (int i = 0; i < m->ncaches; i++)
		if (m->caches[i].level == 1 && m->caches[i].type == MP_KIND_INSTRUCTION)
			return &m->caches[i];
	return NULL;
}

static const struct mp_cache *recorded(const struct mp_result *r)
{
	for (int32_t i = 0; i < r->ncaches; i++)
		if (r->caches[i].level == 1 && r->caches[i].type == MP_KIND_INSTRUCTION)
			return &r->caches[i];
	return NULL;
}

static void check_l1i(const struct ps_run *s, const struct mp_sim_cache_model *mc)
{
	const struct mp_cache *got = recorded(&s->r);

	CHECK(got && got->size_bytes == (int64_t)mc->size && got->line_bytes == (int64_t)mc->line &&
	      got->ways == (int64_t)mc->ways,
	      "%s: L1I %lld/%lld/%lld-way, model %llu/%llu/%llu-way", s->name,
	      got ? (long long)got->size_bytes : -1LL, got ? (long long)got->line_bytes : -1LL,
	      got ? (long long)got->ways : -1LL, (unsigned long long)mc->size,
	      (unsigned long long)mc->line, (unsigned long long)mc->ways);
	CHECK(got && ps_within(got->latency_cycles, mc->latency, 0.10),
	      "%s: L1I fetch hit %.2f cycles, model %u", s->name, got ? got->latency_cycles : -1.0,
	      mc->latency);
}

/* The first fetch level is the L1I, its effective capacity the L1I's, its line cost its latency. */
static void check_fetch(const struct ps_run *s, const struct mp_sim_cache_model *mc)
{
	const struct mp_fetch_level *f = s->r.nfetch ? &s->r.fetch[0] : NULL;

	CHECK(f && f->level == 1 && f->effective_size_bytes == (int64_t)mc->size &&
	      ps_within(f->line_cycles, mc->latency, 0.05),
	      "%s: fetch level 1: %lld bytes, %.2f cycles a line; model %llu, %u", s->name,
	      f ? (long long)f->effective_size_bytes : -1LL, f ? f->line_cycles : -1.0,
	      (unsigned long long)mc->size, mc->latency);
	CHECK(s->r.nfetch >= 2, "%s: the L2 as fetches see it (%d fetch levels)", s->name,
	      (int)s->r.nfetch);
}

static void one(const char *path, int rough)
{
	const struct mp_sim_cache_model *mc;
	struct ps_run s;

	if (!ps_open(&s, path, rough))
		return;
	mc = l1i_of(&s.model);
	ps_probe(&s, "icache", mp_probe_icache);
	if (!mc) {
		CHECK(!recorded(&s.r) && ps_note(&s.r, "no L1 instruction cache"),
		      "%s: no L1I in the model: none recorded, and said", s.name);
	} else if (rough && (mc->replacement == MP_REPL_FIFO || mc->replacement == MP_REPL_RANDOM)) {
		const struct mp_cache *got = recorded(&s.r);

		printf("INFO %s: a %s L1I under noise may not be told (the data L1 test's limit)\n",
		       s.name, mp_replacement_name(mc->replacement));
		CHECK(!got || got->size_bytes == MP_NA || got->size_bytes == (int64_t)mc->size,
		      "%s: no wrong L1I size recorded", s.name);
	} else {
		check_l1i(&s, mc);
		if (!rough)
			check_fetch(&s, mc);
	}
	printf("INFO %s: icache in %.2f s\n", s.name, s.wall);
	ps_close(&s);
}

/*
 * A decoded-op cache in front of the L1I, as on the Granite Rapids guest
 * (512 lines of 16 ways, 1 cycle a line; a 64K 16-way L1I of 5): the
 * serial chains see the L1I alone, the straight-line sweep's faster step at
 * the op cache's 32K is a note, and the fetch levels are numbered from the
 * L1I's step.
 */
static const char *const opcache_model =
	"name = opcache-in-front\n"
	"clock freq=3.0G\n"
	"cache L1D size=48K line=64 ways=12 latency=5 replacement=lru\n"
	"cache L1I size=64K line=64 ways=16 latency=5 replacement=lru\n"
	"cache L2 size=2M line=64 ways=16 latency=16 replacement=lru\n"
	"tlb DTLB1 entries=64 ways=4 page=4K latency=7\n"
	"tlb DTLB1-2M entries=32 ways=4 page=2M latency=7\n"
	"tlb ITLB1 entries=256 ways=8 page=4K latency=7\n"
	"tlb ITLB1-2M entries=32 ways=full page=2M latency=7\n"
	"memory latency=300\n"
	"opcache windows=512 ways=16 latency=1\n";

static void opcache_in_front(void)
{
	struct ps_run s;
	const struct mp_fetch_level *f;

	if (!ps_open_text(&s, "opcache-in-front", opcache_model, PS_EXACT))
		return;
	ps_probe(&s, "icache", mp_probe_icache);
	check_l1i(&s, l1i_of(&s.model));
	check_fetch(&s, l1i_of(&s.model));
	CHECK(ps_note(&s.r, "decoded-op cache"), "%s: the op cache's step is a note", s.name);
	for (int32_t i = 0; i < s.r.nfetch; i++) {
		f = &s.r.fetch[i];
		CHECK(f->effective_size_bytes != 32768, "%s: no fetch level of the op cache's 32K "
		      "(level %d: %lld)", s.name, (int)f->level, (long long)f->effective_size_bytes);
	}
	printf("INFO %s: icache in %.2f s\n", s.name, s.wall);
	ps_close(&s);
}

/* The L1I recorded is the model's, or none (the neighbour left too few ways for too short). */
static void check_honest(const struct ps_run *s, const struct mp_sim_cache_model *mc)
{
	const struct mp_cache *got = recorded(&s->r);

	printf("INFO %s: %s\n", s->name, s->r.probes[0].message);
	ps_check_no_wrong(s, "L1I", mc, got);
}

/* Each model's L1I under a neighbour: exact where it leaves 3/4 of the ways half the time. */
static void under(const char *path, const struct l1_neighbour *nb)
{
	const struct mp_sim_cache_model *mc;
	struct ps_run s;

	if (!open_neighbour(&s, path, nb))
		return;
	mc = l1i_of(&s.model);
	if (mc && nb == &half_time && mc->ways >= 4 * NB_WAYS) {
		ps_probe(&s, "icache", mp_probe_icache);
		check_l1i(&s, mc);
	} else if (mc) {
		ps_probe_run(&s, "icache", mp_probe_icache);
		check_honest(&s, mc);
	}
	printf("INFO %s: icache in %.2f s\n", s.name, s.wall);
	ps_close(&s);
}

static void half_time_neighbour(const char *path, int variant)
{
	(void)variant;
	under(path, &half_time);
}

static void flickering_neighbour(const char *path, int variant)
{
	(void)variant;
	under(path, &flickering);
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "opcache-in-front"))
		opcache_in_front();
	if (argc < 2 || !strcmp(argv[1], "neighbours")) {
		ps_each_model(NULL, half_time_neighbour, PS_ONLY(PS_EXACT));
		ps_each_model(NULL, flickering_neighbour, PS_ONLY(PS_EXACT));
	}
	return ps_each_model(argc > 1 ? argv[1] : NULL, one, PS_UPTO(PS_ROUGH));
}
