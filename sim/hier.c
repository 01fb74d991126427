/* SPDX-License-Identifier: MIT */
/*
 * The hierarchy's slow path: a TLB walk, the walk down the cache levels,
 * the fills on the way back up, and what inclusion does with the victims.
 *
 * Fills follow the inclusion of each level towards the levels above it:
 *   inclusive      a line it evicts leaves every level above (back-invalidation);
 *   exclusive      it is not filled on the way in, a hit there moves the line
 *                  up (out of it), and it takes the victims of the level
 *                  directly above it on its path (victim fill);
 *   non-inclusive  none of the above.
 * A store that misses a write=no-allocate level does not fill that level.
 * Timing: the latency of the level that hit, or of memory, plus the latency
 * of every TLB that missed.
 */
#include <math.h>

#include "sim/simint.h"

static void tlb_walk(struct mp_sim *s, struct sim_path *p, uint32_t page, uint64_t va,
		     uint64_t frame)
{
	struct sim_tlbpath *tp = &p->tlb[page];
	int i;

	for (i = 1; i < tp->n; i++) {
		const struct sim_sets *a = &tp->t[i]->a;

		__builtin_prefetch(a->key + sim_sets_index(a, va >> a->shift) * a->stride);
	}
	for (i = 0; i < tp->n; i++) {
		struct sim_sets *a = &tp->t[i]->a;
		uint64_t vpn = va >> a->shift;
		uint64_t first = sim_sets_index(a, vpn) * a->stride;
		int64_t e = sim_sets_find(a, first, vpn, vpn);

		if (e >= 0) {
			sim_sets_touch(a, first, (uint64_t)e);
			break;
		}
		if (tp->ev[i] >= 0)
			s->count[tp->ev[i]]++;
		s->cycles += tp->t[i]->m.latency;
	}
	while (--i >= 0) {
		struct sim_sets *a = &tp->t[i]->a;
		uint64_t vpn = va >> a->shift;

		sim_sets_fill(a, sim_sets_index(a, vpn), vpn, vpn, frame);
	}
}

uint64_t sim_translate(struct mp_sim *s, struct sim_path *p, uint64_t va)
{
	const struct sim_region *r = sim_vm_find(s, va);
	uint64_t pa, offset;

	if (!r)
		return SIM_NONE;
	pa = sim_vm_pa(r, va);
	offset = va & ((1ull << r->shift) - 1);
	/* A TLB entry holds the page's frame, unless the page is made of
	 * smaller frames (frames host=): each access is then translated here. */
	tlb_walk(s, p, r->page, va, r->fshift < r->shift ? SIM_NONE : pa - offset);
	p->page = r->page;
	p->tlb1 = p->tlb[r->page].n ? &p->tlb[r->page].t[0]->a : NULL;
	return pa;
}

/* The number a line is indexed by: its physical or its virtual line. */
static uint64_t ikey_of(const struct sim_cache *c, uint64_t va, uint64_t key)
{
	return c->m.physical ? key : va >> c->a.shift;
}

void sim_cache_remove(struct mp_sim *s, struct sim_cache *c, uint64_t va, uint64_t pa, int why)
{
	uint64_t key = pa >> c->a.shift, ikey = ikey_of(c, va, key);
	int64_t e = sim_sets_find(&c->a, sim_sets_index(&c->a, ikey) * c->a.stride, key, ikey);

	if (e < 0)
		return;
	sim_sets_drop(&c->a, (uint64_t)e);
	if (s->causes)
		sim_causes_left(s, c, va, key, why);
}

/* Remove the line [pa, pa + c's line) from every level above c, on every core it serves. */
static void back_invalidate(struct mp_sim *s, const struct sim_cache *c, uint64_t va,
			    uint64_t pa)
{
	for (int i = 0; i < c->nups; i++) {
		struct sim_cache *up = c->ups[i];
		uint64_t step = up->m.line;
		uint64_t first = pa & ~(step - 1);

		for (uint64_t a = first; a < pa + c->m.line; a += step)
			sim_cache_remove(s, up, va - (pa - a), a, SIM_LEFT_INVALIDATED);
	}
}

static void cache_fill(struct mp_sim *s, struct sim_cache *c, uint64_t va, uint64_t pa);

/* A line left c: inclusion takes it from above, an exclusive level below takes it in. */
static void evicted(struct mp_sim *s, struct sim_cache *c, uint64_t va, uint64_t pa,
		    bool victim_fill)
{
	if (c->m.inclusion == MP_INCL_INCLUSIVE)
		back_invalidate(s, c, va, pa);
	if (victim_fill && c->below && c->below->m.inclusion == MP_INCL_EXCLUSIVE)
		cache_fill(s, c->below, va, pa);
}

/*
 * A line that left c.  Its virtual address (the reverse of the mapping, a
 * hash lookup with scattered frames) is found only when something needs
 * it: inclusion, a victim fill, or the causes of misses.  A line whose
 * mapping is gone keeps its physical address as a stand-in: it matches
 * nothing in a virtually indexed level.
 */
static void line_left(struct mp_sim *s, struct sim_cache *c, uint64_t key, int why,
		      bool victim_fill)
{
	uint64_t pa = key << c->a.shift, va;

	if (!s->causes && !c->victims_matter)
		return;
	if (!sim_vm_va(s, pa, &va))
		va = pa;
	if (s->causes)
		sim_causes_left(s, c, va, key, why);
	evicted(s, c, va, pa, victim_fill);
}

static void cache_fill(struct mp_sim *s, struct sim_cache *c, uint64_t va, uint64_t pa)
{
	uint64_t key = pa >> c->a.shift, ikey = ikey_of(c, va, key);
	uint64_t set = sim_sets_index(&c->a, ikey);
	uint64_t victim;

	if (sim_sets_find(&c->a, set * c->a.stride, key, ikey) >= 0)
		return;
	victim = sim_sets_fill(&c->a, set, key, ikey, 0);
	if (s->causes)
		sim_causes_fill(s, c, va, key);
	if (victim != SIM_NONE)
		line_left(s, c, victim, SIM_LEFT_REPLACED, true);
}

/*
 * Start the host fetching the rows a walk may read, so that their misses
 * overlap: the rows of the line at each level below `from`, and the row of an
 * exclusive level that a victim of the level above it would go to.
 */
static void prefetch_rows(struct sim_path *p, int from, uint64_t va, uint64_t pa)
{
	for (int h = from; h < p->n; h++) {
		const struct sim_cache *c = p->c[h], *b = c->below;
		uint64_t set = sim_sets_index(&c->a, ikey_of(c, va, pa >> c->a.shift)), victim;

		if (h > from)
			__builtin_prefetch(c->a.key + set * c->a.stride);
		if (!b || b->m.inclusion != MP_INCL_EXCLUSIVE || !b->m.physical)
			continue;
		victim = sim_sets_peek(&c->a, set);
		if (victim == SIM_NONE)
			continue;
		set = sim_sets_index(&b->a, (victim << c->a.shift) >> b->a.shift);
		__builtin_prefetch(b->a.key + set * b->a.stride);
	}
}

/*
 * The next access of a run is known before this one is simulated: after a
 * miss, start fetching the rows it will read (its TLB and cache sets below
 * level 1), so that their host misses overlap with this access's work.
 */
void sim_prefetch_next(struct mp_sim *s, struct sim_path *p, uint64_t va)
{
	const struct sim_region *r = s->last_region;
	const struct sim_tlbpath *tp;
	uint64_t pa;

	if (!r || va - r->va >= r->bytes)
		return;
	pa = sim_vm_pa(r, va);
	tp = &p->tlb[r->page];
	for (int i = 1; i < tp->n; i++) {
		const struct sim_sets *a = &tp->t[i]->a;

		__builtin_prefetch(a->key + sim_sets_index(a, va >> a->shift) * a->stride);
	}
	prefetch_rows(p, 0, va, pa);
}

int sim_lookup_from(struct mp_sim *s, struct sim_path *p, int from, uint64_t va, uint64_t pa,
		    bool demand)
{
	int h;

	prefetch_rows(p, from, va, pa);
	for (h = from; h < p->n; h++) {
		struct sim_cache *c = p->c[h];
		uint64_t key = pa >> c->a.shift, ikey = ikey_of(c, va, key);
		uint64_t first = sim_sets_index(&c->a, ikey) * c->a.stride;
		int64_t e = sim_sets_find(&c->a, first, key, ikey);

		if (e >= 0) {
			sim_sets_touch(&c->a, first, (uint64_t)e);
			if (demand && s->causes)
				sim_causes_hit(s, c, key);
			return h;
		}
		if (!demand)
			continue;
		if (p->ev[h] >= 0)
			s->count[p->ev[h]]++;
		if (s->causes)
			sim_causes_miss(s, c, va, key);
	}
	return h;
}

static bool fills(const struct sim_cache *c, bool store)
{
	return c->m.inclusion != MP_INCL_EXCLUSIVE && (!store || c->m.write_allocate);
}

/* Bring the line found at position h (p->n: memory) into positions lo .. h-1. */
void sim_fill_range(struct mp_sim *s, struct sim_path *p, int lo, int h, uint64_t va,
		    uint64_t pa, bool store)
{
	bool any = false;

	for (int i = lo; i < h; i++)
		any = any || fills(p->c[i], store);
	if (any && h < p->n && p->c[h]->m.inclusion == MP_INCL_EXCLUSIVE)
		sim_cache_remove(s, p->c[h], va, pa, SIM_LEFT_MOVED);
	for (int i = h - 1; i >= lo; i--)
		if (fills(p->c[i], store))
			cache_fill(s, p->c[i], va, pa);
}

int sim_walk(struct mp_sim *s, struct sim_path *p, uint64_t va, uint64_t pa,
	     enum mp_sim_kind kind)
{
	int h;

	if (s->causes)
		sim_causes_access(s);
	h = sim_lookup_from(s, p, 0, va, pa, true);
	s->cycles += h < p->n ? p->c[h]->m.latency : s->memory_latency;
	sim_fill_range(s, p, 0, h, va, pa, kind == MP_SIM_STORE);
	if (p->pf >= 0 && h >= p->pf)
		sim_prefetch_observe(s, p, va, pa, h == p->pf);
	return h < p->n ? p->c[h]->m.level : 0;
}

/* ---- disturbances and the neighbour ---- */

/* Where the neighbour's pages and lines are: far above any region the simulator maps. */
#define NEIGHBOUR_VA (1ull << 60)
#define NEIGHBOUR_PA (1ull << 58)

/* Accesses up to and including the next disturbance: a geometric gap. */
static uint64_t noise_gap(struct mp_sim *s)
{
	double rate = s->model.noise.rate;
	double u, gap;

	if (rate <= 0)
		return UINT64_MAX;
	u = ((double)(sim_rand(&s->noise_rng) >> 11) + 1.0) / 9007199254740992.0;
	gap = rate >= 1 ? 1 : floor(log(u) / log1p(-rate)) + 1;
	return gap > 1e18 ? (uint64_t)1e18 : (uint64_t)gap;
}

static void evict_random(struct mp_sim *s, struct sim_cache *c)
{
	uint64_t e = sim_sets_entry(&c->a, sim_below(&s->noise_rng, c->a.nsets),
				    (uint32_t)sim_below(&s->noise_rng, c->a.ways));
	uint64_t key = c->a.key[e];

	if (key == SIM_NONE)
		return;
	sim_sets_drop(&c->a, e);
	line_left(s, c, key, SIM_LEFT_NOISE, false);
}

/*
 * Something else ran on the selected CPU: time passes and lines and
 * translations in random sets of its caches and TLBs go.
 */
static void disturb(struct mp_sim *s)
{
	const struct mp_sim_model *m = &s->model;

	s->cycles += m->noise.cycles;
	for (int i = 0; i < s->cur->ncaches; i++)
		for (uint32_t k = 0; k < m->noise.lines; k++)
			evict_random(s, s->cur->cache[i]);
	for (int i = 0; i < s->cur->ntlbs; i++) {
		struct sim_sets *a = &s->cur->tlb[i]->a;

		for (uint32_t k = 0; k < m->noise.tlb_entries; k++)
			sim_sets_drop(a, sim_sets_entry(a, sim_below(&s->noise_rng, a->nsets),
							(uint32_t)sim_below(&s->noise_rng,
									    a->ways)));
	}
}

/*
 * The ways the neighbour holds now: `ways`, and `extra` more in spans of
 * extra_on cycles, apart by gaps drawn between half and one and a half
 * times extra_off (seeded): spans at a fixed period kept step with a
 * chase's passes of a fixed length, and every pass met the extra ways, or
 * none did.
 */
static uint64_t neighbour_ways(struct mp_sim *s)
{
	uint64_t off = s->model.neighbour.extra_off;

	if (!s->model.neighbour.extra)
		return s->model.neighbour.ways;
	while (s->cycles >= s->extra_switch) {
		s->extra_held = !s->extra_held;
		s->extra_switch += s->extra_held ? s->model.neighbour.extra_on :
						   off / 2 + sim_below(&s->extra_rng, off + 1);
	}
	return s->model.neighbour.ways + (s->extra_held ? s->model.neighbour.extra : 0);
}

/*
 * The neighbour's lines: `ways` of its own (neighbour_ways) in the set
 * that the access at va is about to use, in each cache of its `level`
 * (with `set=`, only where that is the set named: a thread whose lines lie
 * in one set), touched or filled under the cache's replacement, as a
 * thread sharing the core that touches every set holds some of each.  Its
 * keys are lines of no region, ways + extra to a set.
 */
static void neighbour_lines(struct mp_sim *s, uint64_t va, enum mp_sim_kind kind)
{
	const struct sim_path *p = &s->path[kind == MP_SIM_FETCH];
	const struct sim_region *r = sim_vm_find(s, va);
	uint64_t pa, ways = neighbour_ways(s);
	uint64_t room = (uint64_t)s->model.neighbour.ways + s->model.neighbour.extra;

	if (!r)
		return;
	pa = sim_vm_pa(r, va);
	for (int h = 0; h < p->n; h++) {
		struct sim_cache *c = p->c[h];
		uint64_t set;

		if ((uint32_t)c->m.level != s->model.neighbour.level)
			continue;
		set = sim_sets_index(&c->a, ikey_of(c, va, pa >> c->a.shift));
		if (s->model.neighbour.one_set && set != s->model.neighbour.set)
			continue;
		for (uint64_t k = 0; k < ways; k++) {
			uint64_t key = (NEIGHBOUR_PA >> c->a.shift) + set * room + k, victim;
			int64_t e = sim_sets_find(&c->a, set * c->a.stride, key, key);

			if (e >= 0) {
				sim_sets_touch(&c->a, set * c->a.stride, (uint64_t)e);
				continue;
			}
			victim = sim_sets_fill(&c->a, set, key, key, 0);
			if (victim != SIM_NONE)
				line_left(s, c, victim, SIM_LEFT_NOISE, true);
		}
	}
}

/*
 * The neighbour's turn: while it runs (the first `on` cycles of every
 * `on + off`) it touches its pages, one entry each in every TLB of the
 * selected CPU, under the TLB's own replacement, and its lines in the
 * set of the access at va (neighbour_lines), as a thread sharing the
 * core would; where `cpu=` names one CPU, only while that CPU is selected.
 */
static void neighbour_turn(struct mp_sim *s, uint64_t va, enum mp_sim_kind kind)
{
	uint64_t on = s->model.neighbour.on, period = on + s->model.neighbour.off;

	if (s->cycles % period >= on ||
	    (s->model.neighbour.one_cpu && mp_sim_selected(s) != s->model.neighbour.cpu))
		return;
	for (int i = 0; i < s->cur->ntlbs; i++) {
		struct sim_sets *a = &s->cur->tlb[i]->a;

		for (uint64_t k = 0; k < s->model.neighbour.entries; k++) {
			uint64_t vpn = (NEIGHBOUR_VA >> a->shift) + k, set = sim_sets_index(a, vpn);
			int64_t e = sim_sets_find(a, set * a->stride, vpn, vpn);

			if (e >= 0)
				sim_sets_touch(a, set * a->stride, (uint64_t)e);
			else
				sim_sets_fill(a, set, vpn, vpn, 0);
		}
	}
	if (s->model.neighbour.ways)
		neighbour_lines(s, va, kind);
}

static void arm(struct mp_sim *s)
{
	s->event_span = s->noise_due < s->neighbour_due ? s->noise_due : s->neighbour_due;
	s->event_left = s->event_span;
}

void sim_events_start(struct mp_sim *s)
{
	s->noise_due = noise_gap(s);
	s->neighbour_due = sim_has_neighbour(&s->model) ? s->model.neighbour.every : UINT64_MAX;
	arm(s);
}

void sim_event(struct mp_sim *s, uint64_t va, enum mp_sim_kind kind)
{
	s->noise_due -= s->event_span;
	s->neighbour_due -= s->event_span;
	if (s->noise_due == 0) {
		disturb(s);
		s->noise_due = noise_gap(s);
	}
	if (s->neighbour_due == 0) {
		neighbour_turn(s, va, kind);
		s->neighbour_due = s->model.neighbour.every;
	}
	arm(s);
}
