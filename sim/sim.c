/* SPDX-License-Identifier: MIT */
/*
 * Building the simulated machine from a model, and the simulator's public
 * queries.  Every cache and tlb line of the model has instances (one per
 * group of cores sharing it); every logical CPU a path through the
 * instances of its core (sim/cpus.c selects one).  Each kind of access (data, instruction fetch) gets a path: the
 * caches that serve it in level order, and for each page size the TLBs that
 * map it in level order.  Counters follow the levels: a miss in a level-1
 * cache is an L1D or L1I miss by the kind of access, a miss in a level-2
 * cache an L2 miss, and so on to L4; a miss in a level-1 TLB a DTLB1 or
 * ITLB1 miss, in a level-2 TLB a DTLB2 or ITLB2 miss.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/simint.h"

/* A fetch's unit where no cache serves instructions: the smallest line of the library. */
#define FETCH_LINE_DEFAULT 32u

static unsigned log2_of(uint64_t n)
{
	unsigned s = 0;

	while ((1ull << s) < n)
		s++;
	return s;
}

static bool serves(enum mp_kind type, int path)
{
	return type == MP_KIND_UNIFIED || type == (path ? MP_KIND_INSTRUCTION : MP_KIND_DATA);
}

static int8_t cache_event(int level, int path)
{
	static const int8_t ev[] = { -1, MP_EV_L1D_MISS, MP_EV_L2_MISS, MP_EV_L3_MISS,
				     MP_EV_L4_MISS };

	if (level < 1 || level > 4)
		return -1;
	return level == 1 && path ? MP_EV_L1I_MISS : ev[level];
}

static int8_t tlb_event(int level, int path)
{
	static const int8_t ev[2][3] = { { -1, MP_EV_DTLB1_MISS, MP_EV_DTLB2_MISS },
					 { -1, MP_EV_ITLB1_MISS, MP_EV_ITLB2_MISS } };

	return level >= 1 && level <= 2 ? ev[path][level] : -1;
}

static void build_tlb_paths(struct mp_sim *s, struct sim_cpu *cpu, int path)
{
	struct sim_path *p = &cpu->path[path];

	for (int pg = 0; pg < s->npages; pg++) {
		struct sim_tlbpath *tp = &p->tlb[pg];

		for (int lvl = 1; lvl <= MP_SIM_MAX_LEVEL; lvl++)
			for (int i = 0; i < cpu->ntlbs; i++) {
				struct sim_tlb *t = cpu->tlb[i];

				if (t->m.level != lvl || !serves(t->m.type, path) ||
				    t->m.page != s->page_bytes[pg])
					continue;
				tp->ev[tp->n] = tlb_event(lvl, path);
				tp->t[tp->n++] = t;
			}
	}
}

static void build_path(struct mp_sim *s, struct sim_cpu *cpu, int path)
{
	struct sim_path *p = &cpu->path[path];

	p->pf = -1;
	for (int lvl = 1; lvl <= MP_SIM_MAX_LEVEL; lvl++)
		for (int i = 0; i < cpu->ncaches; i++) {
			struct sim_cache *c = cpu->cache[i];

			if (c->m.level != lvl || !serves(c->m.type, path))
				continue;
			if (p->n && !p->c[p->n - 1]->below)
				p->c[p->n - 1]->below = c;
			if (!path && s->model.prefetch.kind != MP_SIM_PF_NONE &&
			    s->model.prefetch.level == lvl && p->pf < 0)
				p->pf = p->n;
			p->ev[p->n] = cache_event(lvl, path);
			p->c[p->n++] = c;
		}
	build_tlb_paths(s, cpu, path);
	if (p->n) {
		p->l1_latency = p->c[0]->m.latency;
		p->l1_level = p->c[0]->m.level;
		p->l1_physical = p->c[0]->m.physical;
	}
	p->tlb1 = p->tlb[0].n ? &p->tlb[0].t[0]->a : NULL;
}

static void collect_pages(struct mp_sim *s)
{
	const struct mp_sim_model *m = &s->model;

	for (int i = 0; i < m->ntlbs; i++)
		if (sim_vm_page_index(s, m->tlbs[i].page) < 0 && s->npages < SIM_MAX_PAGES)
			s->page_bytes[s->npages++] = m->tlbs[i].page;
	if (!s->npages)
		s->page_bytes[s->npages++] = 4096;
	/* smallest first: it is the base page */
	for (int i = 1; i < s->npages; i++)
		for (int j = i; j > 0 && s->page_bytes[j] < s->page_bytes[j - 1]; j--) {
			uint64_t t = s->page_bytes[j];

			s->page_bytes[j] = s->page_bytes[j - 1];
			s->page_bytes[j - 1] = t;
		}
	for (int i = 0; i < s->npages; i++)
		s->page_shift[i] = log2_of(s->page_bytes[i]);
}

/* Where each cache and tlb line's instances start in mp_sim.cache[] and .tlb[]. */
struct firsts {
	uint32_t cache[MP_SIM_MAX_CACHES];
	uint32_t tlb[MP_SIM_MAX_TLBS];
};

static int make_instances(struct mp_sim *s, struct firsts *f)
{
	const struct mp_sim_model *m = &s->model;
	uint32_t nc = 0, nt = 0;

	for (int i = 0; i < m->ncaches; i++) {
		f->cache[i] = nc;
		nc += mp_sim_instances(m, m->caches[i].cpu, m->caches[i].shared);
	}
	for (int i = 0; i < m->ntlbs; i++) {
		f->tlb[i] = nt;
		nt += mp_sim_instances(m, m->tlbs[i].cpu, m->tlbs[i].shared);
	}
	s->cache = calloc(nc ? nc : 1, sizeof(*s->cache));
	s->tlb = calloc(nt ? nt : 1, sizeof(*s->tlb));
	if (!s->cache || !s->tlb)
		return -1;
	for (int i = 0; i < m->ncaches; i++)
		for (uint32_t k = f->cache[i]; k < (i + 1 < m->ncaches ? f->cache[i + 1] : nc); k++)
			s->cache[k] = (struct sim_cache){ .m = m->caches[i], .idx = i, .lo = UINT32_MAX };
	for (int i = 0; i < m->ntlbs; i++)
		for (uint32_t k = f->tlb[i]; k < (i + 1 < m->ntlbs ? f->tlb[i + 1] : nt); k++)
			s->tlb[k].m = m->tlbs[i];
	s->ncaches = (int)nc;
	s->ntlbs = (int)nt;
	return 0;
}

/* The instances CPU c uses (in the model's order of lines) and its paths through them. */
static void attach(struct mp_sim *s, struct sim_cpu *c, const struct firsts *f)
{
	const struct mp_sim_model *m = &s->model;

	for (int i = 0; i < m->ncaches; i++) {
		const struct mp_sim_cache_model *cm = &m->caches[i];
		struct sim_cache *in;

		if (!mp_sim_type_has(m, c->type, cm->cpu))
			continue;
		in = &s->cache[f->cache[i] + mp_sim_instance(m, cm->cpu, cm->shared, c->type,
							    c->core_in_type)];
		in->lo = c->core < in->lo ? c->core : in->lo;
		in->hi = c->core + 1 > in->hi ? c->core + 1 : in->hi;
		c->cache[c->ncaches++] = in;
	}
	for (int i = 0; i < m->ntlbs; i++) {
		const struct mp_sim_tlb_model *tm = &m->tlbs[i];

		if (mp_sim_type_has(m, c->type, tm->cpu))
			c->tlb[c->ntlbs++] = &s->tlb[f->tlb[i] + mp_sim_instance(
				m, tm->cpu, tm->shared, c->type, c->core_in_type)];
	}
	build_path(s, c, 0);
	build_path(s, c, 1);
	c->fetch_line = c->path[1].n ? c->path[1].c[0]->m.line : FETCH_LINE_DEFAULT;
}

/* Logical CPUs in the order of cpu lines, cores, threads. */
static int make_cpus(struct mp_sim *s, const struct firsts *f)
{
	const struct mp_sim_model *m = &s->model;
	uint32_t n = 0, core = 0;

	s->ncpus = mp_sim_model_cpus(m);
	s->cpu = calloc(s->ncpus, sizeof(*s->cpu));
	if (!s->cpu)
		return -1;
	for (int t = 0; t < m->ntypes; t++)
		for (uint32_t k = 0; k < m->types[t].cores; k++, core++)
			for (uint32_t h = 0; h < m->types[t].threads; h++) {
				struct sim_cpu *c = &s->cpu[n++];

				c->type = t;
				c->core = core;
				c->core_in_type = k;
				c->thread = h;
				attach(s, c, f);
			}
	return 0;
}

/*
 * The slow path for every access when explaining (the shadows see every
 * reference) and on the data path when a stride prefetcher watches level 1.
 */
static void set_slow(struct mp_sim *s)
{
	for (uint32_t k = 0; k < s->ncpus; k++) {
		struct sim_path *path = s->cpu[k].path;

		path[0].slow = s->causes != NULL ||
			       (s->model.prefetch.kind == MP_SIM_PF_STRIDE && path[0].pf == 0);
		path[1].slow = s->causes != NULL;
		for (int i = 0; i < 2; i++) {
			struct sim_path *p = &path[i];

			p->l1 = p->n && !p->slow ? &p->c[0]->a : NULL;
		}
	}
}

struct mp_sim *mp_sim_new(const struct mp_sim_model *m)
{
	struct mp_sim *s = calloc(1, sizeof(*s));
	struct firsts f;

	if (!s)
		return NULL;
	s->model = *m;
	s->memory_latency = m->memory_latency;
	collect_pages(s);
	if (sim_map_init(&s->frame_owner, 1024) < 0 || make_instances(s, &f) < 0 ||
	    make_cpus(s, &f) < 0) {
		mp_sim_free(s);
		return NULL;
	}
	for (int i = 0; i < s->ncaches; i++) {
		struct sim_cache *c = &s->cache[i];

		c->victims_matter = c->m.inclusion == MP_INCL_INCLUSIVE ||
				    (c->below && c->below->m.inclusion == MP_INCL_EXCLUSIVE);
	}
	for (int i = 0; i < s->cpu[0].ncaches; i++)
		s->cpu[0].cache[i]->explained = true;
	set_slow(s);
	if (!mp_sim_select(s, 0)) {
		mp_sim_free(s);
		return NULL;
	}
	if (m->opcache.windows &&
	    sim_sets_init(&s->opcache, m->opcache.windows, m->opcache.ways, 0, MP_REPL_LRU,
			  m->noise.seed, false) < 0) {
		mp_sim_free(s);
		return NULL;
	}
	s->noise_rng = sim_seed(m->noise.seed);
	s->extra_rng = sim_seed(SIM_EXTRA_SEED);
	sim_events_start(s);
	return s;
}

struct mp_sim *mp_sim_from_text(const char *text, char *err, size_t err_len)
{
	struct mp_sim_model m;
	struct mp_sim *s;

	if (mp_sim_model_parse(&m, "model", text, strlen(text), err, err_len) < 0)
		return NULL;
	s = mp_sim_new(&m);
	if (!s)
		snprintf(err, err_len, "model: out of memory");
	return s;
}

void mp_sim_free(struct mp_sim *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nregions; i++)
		if (s->region[i].bytes)
			mp_sim_unmap(s, s->region[i].va);
	for (int i = 0; i < s->ncaches; i++) {
		sim_sets_free(&s->cache[i].a);
		free(s->cache[i].ups);
	}
	for (int i = 0; i < s->ntlbs; i++)
		sim_sets_free(&s->tlb[i].a);
	if (s->opcache.key)
		sim_sets_free(&s->opcache);
	sim_causes_free(s->causes);
	sim_map_free(&s->frame_owner);
	free(s->cache);
	free(s->tlb);
	free(s->cpu);
	free(s);
}

const struct mp_sim_model *mp_sim_model(const struct mp_sim *s)
{
	return &s->model;
}

void mp_sim_explain(struct mp_sim *s, bool on)
{
	if (on && !s->causes)
		s->causes = sim_causes_new(s);
	if (!on) {
		sim_causes_free(s->causes);
		s->causes = NULL;
	}
	set_slow(s);
}

int mp_sim_access(struct mp_sim *s, uint64_t va, enum mp_sim_kind kind)
{
	static const enum mp_event ev[] = { MP_EV_LOADS, MP_EV_STORES, MP_EV_INSTRUCTIONS };
	int level = sim_access(s, va, kind);

	if (level >= 0) {
		s->count[ev[kind]]++;
		if (kind != MP_SIM_FETCH)
			s->count[MP_EV_INSTRUCTIONS]++;
	}
	return level;
}

/* The selected CPU's instance of the named cache, or NULL. */
static struct sim_cache *cache_named(struct mp_sim *s, const char *name)
{
	for (int i = 0; i < s->cur->ncaches; i++)
		if (!strcmp(s->cur->cache[i]->m.name, name))
			return s->cur->cache[i];
	return NULL;
}

bool mp_sim_holds(struct mp_sim *s, const char *name, uint64_t va)
{
	struct sim_cache *c = cache_named(s, name);
	uint64_t pa;

	if (!mp_sim_translate(s, va, &pa))
		return false;
	if (c) {
		uint64_t key = pa >> c->a.shift;
		uint64_t ikey = c->m.physical ? key : va >> c->a.shift;

		return sim_sets_find(&c->a, sim_sets_index(&c->a, ikey) * c->a.stride, key,
				     ikey) >= 0;
	}
	for (int i = 0; i < s->cur->ntlbs; i++) {
		struct sim_tlb *t = s->cur->tlb[i];
		uint64_t vpn = va >> t->a.shift;

		if (!strcmp(t->m.name, name))
			return sim_sets_find(&t->a, sim_sets_index(&t->a, vpn) * t->a.stride, vpn,
					     vpn) >= 0;
	}
	return false;
}

bool mp_sim_locate(struct mp_sim *s, const char *name, uint64_t va, uint64_t *slice,
		   uint64_t *set)
{
	struct sim_cache *c = cache_named(s, name);
	uint64_t pa, set_all, per_slice;

	if (!c || !mp_sim_translate(s, va, &pa))
		return false;
	set_all = sim_sets_index(&c->a, c->m.physical ? pa >> c->a.shift : va >> c->a.shift);
	per_slice = c->a.nsets / c->m.slices;
	*slice = set_all / per_slice;
	*set = set_all % per_slice;
	return true;
}

uint64_t mp_sim_cycles(const struct mp_sim *s)
{
	return s->cycles;
}

void mp_sim_spend(struct mp_sim *s, uint64_t cycles)
{
	s->cycles += cycles;
}

bool mp_sim_rest(struct mp_sim *s, uint64_t us)
{
	if (!sim_has_neighbour(&s->model))
		return false;
	mp_sim_spend(s, us * s->model.clock_hz / 1000000u);
	return true;
}

uint64_t mp_sim_count(const struct mp_sim *s, enum mp_event e)
{
	return e == MP_EV_CYCLES ? s->cycles : s->count[e];
}

uint32_t mp_sim_events(const struct mp_sim *s)
{
	uint32_t mask = MP_EV_BIT(MP_EV_CYCLES) | MP_EV_BIT(MP_EV_INSTRUCTIONS) |
			MP_EV_BIT(MP_EV_LOADS) | MP_EV_BIT(MP_EV_STORES);

	for (int path = 0; path < 2; path++) {
		const struct sim_path *p = &s->path[path];

		for (int i = 0; i < p->n; i++)
			if (p->ev[i] >= 0)
				mask |= MP_EV_BIT(p->ev[i]);
		for (int pg = 0; pg < s->npages; pg++)
			for (int i = 0; i < p->tlb[pg].n; i++)
				if (p->tlb[pg].ev[i] >= 0)
					mask |= MP_EV_BIT(p->tlb[pg].ev[i]);
	}
	return mask;
}

void mp_sim_flush_line(struct mp_sim *s, uint64_t va)
{
	uint64_t pa;

	if (!mp_sim_translate(s, va, &pa))
		return;
	for (int i = 0; i < s->ncaches; i++) {
		struct sim_cache *c = &s->cache[i];
		uint64_t mask = c->m.line - 1;

		if (c->a.key)
			sim_cache_remove(s, c, va & ~mask, pa & ~mask, SIM_LEFT_FLUSHED);
	}
	if (s->opcache.key) {
		uint64_t w = va / s->cur->fetch_line, set = sim_sets_index(&s->opcache, w);
		int64_t e = sim_sets_find(&s->opcache, set * s->opcache.stride, w, w);

		if (e >= 0)
			sim_sets_drop(&s->opcache, (uint64_t)e);
	}
}

void mp_sim_flush_all(struct mp_sim *s)
{
	for (int i = 0; i < s->ncaches; i++)
		if (s->cache[i].a.key)
			sim_sets_clear(&s->cache[i].a);
	for (int i = 0; i < s->ntlbs; i++)
		if (s->tlb[i].a.key)
			sim_sets_clear(&s->tlb[i].a);
	if (s->opcache.key)
		sim_sets_clear(&s->opcache);
	for (uint32_t k = 0; k < s->ncpus; k++)
		memset(&s->cpu[k].pf, 0, sizeof(s->cpu[k].pf));
	if (s->causes)
		sim_causes_reset(s);
}
