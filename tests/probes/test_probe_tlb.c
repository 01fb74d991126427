/* SPDX-License-Identifier: MIT */
/*
 * The "tlb" probe against every simulated machine: every data (or unified)
 * TLB level of the base page size, and of 2M pages where the model maps
 * them and the arena holds a sweep past the level, found with its exact
 * entries, page size and ways.  On the rough copies (noise, scattered
 * frames) the first level is checked again, exactly; with a neighbour that
 * holds a few entries of every TLB half the time, every level is.
 */
#include "tests/probes/probe_sim.h"

#define LARGE (2ull << 20)
/* A level is in reach when a sweep to this many times its entries fits the arena. */
/*
 * With a neighbour, levels of at least this many times the entries it
 * holds are checked (this VM's neighbour held a few of 64), their entries
 * only: the retries over time are for the entries; a page size or ways
 * measured while the neighbour ran may be off.
 */
#define NB_LEVEL_FACTOR 16u

static const struct mp_tlb *measured(const struct mp_result *r, int32_t level, uint64_t page)
{
	for (int32_t i = 0; i < r->ntlbs; i++)
		if (r->tlbs[i].level == level && (uint64_t)r->tlbs[i].page_bytes == page)
			return &r->tlbs[i];
	return NULL;
}

static void check_tlb(const struct ps_run *s, const struct mp_sim_tlb_model *t, uint64_t base,
		      int rough)
{
	const struct mp_tlb *got = measured(&s->r, t->level, t->page);

	if ((rough == PS_ROUGH && t->level > 1) ||
	    (rough == PS_NEIGHBOUR && t->entries < NB_LEVEL_FACTOR * PS_NB_ENTRIES))
		return;
	if (!ps_tlb_in_reach(s, t, base)) {
		printf("INFO %s: %s (%llu entries of %llu) is beyond the arena\n", s->name, t->name,
		       (unsigned long long)t->entries, (unsigned long long)t->page);
		return;
	}
	if (!got) {
		CHECK(0, "%s: %s (L%d, page %llu) measured", s->name, t->name, (int)t->level,
		      (unsigned long long)t->page);
		return;
	}
	CHECK(got->entries == (int64_t)t->entries &&
	      (got->ways == (int64_t)t->ways || rough == PS_NEIGHBOUR),
	      "%s: %s entries %lld ways %lld, model %llu ways %llu", s->name, t->name,
	      (long long)got->entries, (long long)got->ways, (unsigned long long)t->entries,
	      (unsigned long long)t->ways);
}

static void one(const char *path, int rough)
{
	struct ps_run s;
	uint64_t base;

	if (!ps_open(&s, path, rough))
		return;
	base = mp_sim_base_page(mp_sim_of(s.p));
	ps_probe(&s, "tlb", mp_probe_tlb);
	for (int i = 0; i < s.model.ntlbs; i++) {
		const struct mp_sim_tlb_model *t = &s.model.tlbs[i];

		if (t->type == MP_KIND_INSTRUCTION || (t->page != base && t->page != LARGE))
			continue;
		check_tlb(&s, t, base, rough);
	}
	printf("INFO %s: tlb in %.1f s\n", s.name, s.wall);
	ps_close(&s);
}

int main(int argc, char **argv)
{
	return ps_each_model(argc > 1 ? argv[1] : NULL, one,
			     PS_UPTO(PS_ROUGH) | PS_ONLY(PS_NEIGHBOUR));
}
