/* SPDX-License-Identifier: MIT */
/*
 * The "itlb" probe against every simulated machine, after the "tlb" probe
 * as in the suite: every TLB that serves instructions, of the base page
 * and of 2M pages where the model maps them and the arena holds a sweep
 * past the level, recorded with its exact entries and ways.  A unified
 * level may come from either probe (both measure it; the first record is
 * kept): where a cache holds as many lines as the TLB has entries (Power3,
 * the Apple-like model) only loads can tell it.  On the rough copies
 * (noise, scattered frames) the first instruction level is checked again,
 * exactly.  And nothing the itlb probe records is a TLB the model does
 * not have.  Each model is measured again with a decoded-op cache in
 * front of its fetches.  A step of the L1I's is said to be no TLB, and
 * one that may hide a TLB level leaves the levels above it unnumbered.
 */
#include "tests/probes/notes.h"
#include "tests/probes/probe_sim.h"

#define LARGE (2ull << 20)

static const struct mp_tlb *measured(const struct mp_result *r, int32_t level, uint64_t page)
{
	for (int32_t i = 0; i < r->ntlbs; i++)
		if (r->tlbs[i].level == level && (uint64_t)r->tlbs[i].page_bytes == page &&
		    r->tlbs[i].type != MP_KIND_DATA)
			return &r->tlbs[i];
	return NULL;
}

static void check_level(const struct ps_run *s, const struct mp_sim_tlb_model *t)
{
	const struct mp_tlb *got = measured(&s->r, t->level, t->page);

	if (!got) {
		CHECK(0, "%s: %s (L%d, page %llu) measured", s->name, t->name, (int)t->level,
		      (unsigned long long)t->page);
		return;
	}
	CHECK(got->entries == (int64_t)t->entries && got->ways == (int64_t)t->ways,
	      "%s: %s entries %lld ways %lld, model %llu ways %llu", s->name, t->name,
	      (long long)got->entries, (long long)got->ways, (unsigned long long)t->entries,
	      (unsigned long long)t->ways);
}

/* Is this record one of the model's TLBs, exactly? */
static int is_model_tlb(const struct ps_run *s, const struct mp_tlb *got)
{
	for (int i = 0; i < s->model.ntlbs; i++) {
		const struct mp_sim_tlb_model *t = &s->model.tlbs[i];

		if (t->level == got->level && (int64_t)t->page == got->page_bytes &&
		    (int64_t)t->entries == got->entries && t->type == got->type)
			return 1;
	}
	return 0;
}

static void no_wrong(const struct ps_run *s, int32_t from)
{
	for (int32_t i = from; i < s->r.ntlbs; i++)
		CHECK(is_model_tlb(s, &s->r.tlbs[i]), "%s: itlb recorded L%d %s %lld entries of "
		      "%lld: a TLB of the model", s->name, (int)s->r.tlbs[i].level,
		      mp_kind_name(s->r.tlbs[i].type), (long long)s->r.tlbs[i].entries,
		      (long long)s->r.tlbs[i].page_bytes);
}

/* The probe after the data test (exact models); the first record it made. */
static int32_t run_itlb(struct ps_run *s, int rough)
{
	int32_t data;

	if (rough == PS_EXACT)
		ps_probe(s, "tlb", mp_probe_tlb);
	data = s->r.ntlbs;
	ps_probe(s, "itlb", mp_probe_itlb);
	return data;
}

/* The probe after the data test, checked against the model. */
static void measure(struct ps_run *s, int rough)
{
	uint64_t base = mp_sim_base_page(mp_sim_of(s->p));
	int32_t data = run_itlb(s, rough);

	for (int i = 0; i < s->model.ntlbs; i++) {
		const struct mp_sim_tlb_model *t = &s->model.tlbs[i];

		if (t->type == MP_KIND_DATA || (t->page != base && t->page != LARGE) ||
		    (rough && (t->level > 1 || t->type != MP_KIND_INSTRUCTION)))
			continue;
		if (ps_tlb_in_reach(s, t, base))
			check_level(s, t);
		else
			printf("INFO %s: %s is beyond the arena\n", s->name, t->name);
	}
	if (rough == PS_EXACT)
		no_wrong(s, data);
	printf("INFO %s: tlb and itlb in %.1f s\n", s->name, s->wall);
}

static void one(const char *path, int rough)
{
	struct ps_run s;

	if (!ps_open(&s, path, rough))
		return;
	measure(&s, rough);
	ps_close(&s);
}

/*
 * The model with a decoded-op cache in front of its fetches, larger than
 * any model's first instruction TLB: a predicted chain's lines come from
 * it without a translation (docs/simulator.md), so only serial chains
 * see the ITLB.  Every level must come out as without it.
 */
#define OPCACHE_WINDOWS 4096u
#define OPCACHE_WAYS 8u

static void behind_opcache(const char *path, int rough)
{
	struct ps_run s;

	if (!ps_open(&s, path, rough))
		return;
	mp_sim_close(s.p);
	s.full.opcache.windows = OPCACHE_WINDOWS;
	s.full.opcache.ways = OPCACHE_WAYS;
	s.full.opcache.latency = 1;
	snprintf(s.name, sizeof(s.name), "%s (op cache in front)", s.full.name);
	if (ps_platform(&s.full, s.name, &s.p, &s.r))
		measure(&s, rough);
	ps_close(&s);
}

/*
 * Steps of the L1I's that the notes must name (docs/algorithms.md,
 * "Instruction TLBs"):
 * - fetch-step: an L1I of 256 lines behind a 32-entry ITLB.  T(1,k)'s
 *   blocks, one a page, fill the L1I at 256 pages, a step that moves with
 *   the blocks (the code confirmation): no TLB, and said to be none; every
 *   level exact.
 * - mixed-step: an L1I of 64 lines, fully associative, at the step of a
 *   64-entry ITLB.  As many blocks on half the pages rise there too, less:
 *   a TLB may fall at the step, so the 512-entry ITLB above it cannot be
 *   numbered.  Neither is recorded (an "L1 ITLB" of 536 entries and 67
 *   ways was), and the note says why.
 * - near-step: an L1I of 56 lines before a 64-entry ITLB whose miss costs
 *   a quarter of the L1I's.  T(1,k) rises at 64 pages (the L1I) and a
 *   little more by 80 (the ITLB), no step of its own: the ITLB is found
 *   only by T(1,k) running slower than T(2,k/2) below the ITLB2's step,
 *   which is then not numbered either (the same wrong "L1" as above was
 *   recorded).
 */
static const struct {
	const char *name, *text, *note, *what;
	bool levels;                 /* every level exact too */
} steps_said[] = {
	{ "fetch-step",
	  "name = fetch-step\nclock freq=1G\n"
	  "cache L1D size=8K line=32 ways=2 latency=2 replacement=lru\n"
	  "cache L1I size=8K line=32 ways=2 latency=2 replacement=lru\n"
	  "cache L2 size=256K line=32 ways=4 latency=10 replacement=lru\n"
	  "tlb DTLB1 entries=64 ways=4 page=4K latency=5\n"
	  "tlb ITLB1 entries=32 ways=4 page=4K latency=5\nmemory latency=60\n",
	  "pages moved with the blocks too", "the L1I's step is said to be no TLB", true },
	{ "mixed-step",
	  "name = mixed-step\nclock freq=1G\n"
	  "cache L1D size=32K line=64 ways=8 latency=4 replacement=lru\n"
	  "cache L1I size=4K line=64 ways=full latency=2 replacement=lru\n"
	  "cache L2 size=1M line=64 ways=8 latency=14 replacement=lru\n"
	  "tlb DTLB1 entries=64 ways=4 page=4K latency=5\n"
	  "tlb ITLB1 entries=64 ways=full page=4K latency=3\n"
	  "tlb ITLB2 entries=512 ways=4 page=4K latency=7 level=2 type=instruction\n"
	  "memory latency=100\n",
	  "may hide a TLB level", "the levels above the L1I's step are said to be unnumbered",
	  false },
	{ "near-step",
	  "name = near-step\nclock freq=1G\n"
	  "cache L1D size=32K line=64 ways=8 latency=4 replacement=lru\n"
	  "cache L1I size=3584 line=64 ways=full latency=2 replacement=lru\n"
	  "cache L2 size=1M line=64 ways=8 latency=14 replacement=lru\n"
	  "tlb DTLB1 entries=64 ways=4 page=4K latency=5\n"
	  "tlb ITLB1 entries=64 ways=full page=4K latency=3\n"
	  "tlb ITLB2 entries=512 ways=4 page=4K latency=30 level=2 type=instruction\n"
	  "memory latency=100\n",
	  "that no step showed", "a level no step showed is said, and none above it numbered",
	  false },
};

static void step_said(unsigned i)
{
	struct ps_run s;

	if (!ps_open_text(&s, steps_said[i].name, steps_said[i].text, PS_EXACT))
		return;
	if (steps_said[i].levels)
		measure(&s, PS_EXACT);
	else
		no_wrong(&s, run_itlb(&s, PS_EXACT));
	CHECK(ps_note(&s.r, steps_said[i].note) != NULL, "%s: %s", s.name, steps_said[i].what);
	ps_close(&s);
}

int main(int argc, char **argv)
{
	for (unsigned i = 0; i < sizeof(steps_said) / sizeof(steps_said[0]); i++)
		if (argc < 2 || !strcmp(argv[1], steps_said[i].name))
			step_said(i);
	ps_each_model(argc > 1 ? argv[1] : NULL, behind_opcache, PS_ONLY(PS_EXACT));
	return ps_each_model(argc > 1 ? argv[1] : NULL, one, PS_UPTO(PS_ROUGH));
}
