/* SPDX-License-Identifier: MIT */
/*
 * The "sim" platform: the seam of core/platform.h over the simulator (sim/).
 *
 *   now()        simulated cycles; tick_hz = core_hz = the model's clock.
 *   mem_alloc()  real host memory (the chase reads its pointers), mapped in
 *                the simulator at its host address with the page size asked
 *                for when a TLB of the model maps it, else the base page.
 *   run()        every access simulated; counters are exact.  A model with
 *                `pmu counters=N` counts only the first N events asked that
 *                it has, lowest first, as a PMU with N counters arms them.
 *   flush_*()    act on the simulated caches (and TLBs for flush_all).
 *   irq_mask()   succeeds; the noise model keeps running, since it stands
 *                for what firmware and the OS do regardless.
 *   rest()       simulated time passes where the model has a neighbour;
 *                nothing else would notice.
 *   code_build() records the block addresses; MP_OP_CODE fetches one line
 *                at each block's address in turn.
 *   probe_*()    misses are counted under the probe that runs (--explain).
 */
#include <stdlib.h>
#include <string.h>

#include "platform/hosted/map.h"
#include "platform/sim/platform.h"

struct chain {
	void *entry;
	uint64_t *block;
	uint64_t n;
	uint8_t *lo, *hi;      /* the memory it lives in */
};

struct simp {
	struct mp_platform p;
	struct mp_sim *sim;
	struct chain *chains;
	int nchains;
};

static struct simp *me(struct mp_platform *p)
{
	return p->priv;
}

static uint64_t sp_now(struct mp_platform *p)
{
	return mp_sim_cycles(me(p)->sim);
}

/*
 * Host memory mapped in the simulator at its host address.  The host side
 * is asked for huge pages whatever the model maps: a host TLB miss per
 * simulated access would cost more than the simulation.
 */
static enum mp_status sp_mem_alloc(struct mp_platform *p, const struct mp_mem_req *req,
				   struct mp_mem *out)
{
	struct mp_sim *s = me(p)->sim;
	uint64_t page = mp_sim_page_size(s, mp_page_bytes(req->page));
	struct mp_hosted_map_req m = {
		.bytes = (req->bytes + page - 1) & ~(page - 1),
		.align = req->align > page ? req->align : page,
		.huge = true,
	};
	uint8_t *base;

	memset(out, 0, sizeof(*out));
	if (!req->bytes || (m.align & (m.align - 1)))
		return MP_ENOMEM;
	base = mp_hosted_map(&m);
	if (!base || !mp_sim_map(s, (uint64_t)(uintptr_t)base, m.bytes, page, req->contiguous)) {
		mp_hosted_unmap(base, m.bytes);
		return MP_ENOMEM;
	}
	out->base = base;
	out->bytes = m.bytes;
	mp_sim_translate(s, (uint64_t)(uintptr_t)base, &out->phys);
	out->page_bytes = page;
	out->contiguous = mp_sim_contiguous(s, (uint64_t)(uintptr_t)base);
	return MP_OK;
}

static void drop_chains(struct simp *sp, const uint8_t *lo, const uint8_t *hi)
{
	for (int i = 0; i < sp->nchains;) {
		if (sp->chains[i].lo >= lo && sp->chains[i].hi <= hi) {
			free(sp->chains[i].block);
			sp->chains[i] = sp->chains[--sp->nchains];
		} else {
			i++;
		}
	}
}

static void sp_mem_free(struct mp_platform *p, struct mp_mem *m)
{
	if (!m->base)
		return;
	drop_chains(me(p), m->base, m->base + m->bytes);
	mp_sim_unmap(me(p)->sim, (uint64_t)(uintptr_t)m->base);
	mp_hosted_unmap(m->base, m->bytes);
	m->base = NULL;
}

static struct chain *find_chain(struct simp *sp, const void *entry)
{
	for (int i = 0; i < sp->nchains; i++)
		if (sp->chains[i].entry == entry)
			return &sp->chains[i];
	return NULL;
}

/* The chain starting at entry: the old one emptied, or a new slot. */
static struct chain *chain_slot(struct simp *sp, void *entry)
{
	struct chain *c = find_chain(sp, entry);

	if (c) {
		free(c->block);
		return c;
	}
	c = realloc(sp->chains, (size_t)(sp->nchains + 1) * sizeof(*c));
	if (!c)
		return NULL;
	sp->chains = c;
	c = &c[sp->nchains++];
	c->entry = entry;
	return c;
}

static bool do_run(struct simp *sp, const struct mp_run *r, struct mp_sample *out)
{
	const struct chain *c;

	switch (r->op) {
	case MP_OP_CHASE:
		return mp_sim_chase(sp->sim, r->start, r->steps, &out->end);
	case MP_OP_LOAD_SWEEP:
	case MP_OP_STORE_SWEEP:
		return mp_sim_sweep(sp->sim, (uint64_t)(uintptr_t)r->start, r->stride, r->count,
				    r->steps,
				    r->op == MP_OP_STORE_SWEEP ? MP_SIM_STORE : MP_SIM_LOAD);
	case MP_OP_CODE:
		c = find_chain(sp, r->start);
		return c && mp_sim_fetch_chain(sp->sim, c->block, c->n, r->steps);
	default:
		return false;
	}
}

/* The events a run counts: those asked that the model has, at most `counters` of them. */
static uint32_t counted(const struct mp_sim *s, uint32_t asked)
{
	uint32_t left = asked & mp_sim_events(s), armed = 0, n = mp_sim_model(s)->counters;

	if (!n)
		return left;
	for (; left && n; n--) {
		armed |= left & -left;        /* the lowest event left */
		left &= left - 1;
	}
	return armed;
}

static enum mp_status sp_run(struct mp_platform *p, const struct mp_run *r, struct mp_sample *out)
{
	struct simp *sp = me(p);
	uint64_t before[MP_EV_COUNT];

	memset(out, 0, sizeof(*out));
	if (r->op >= MP_OP_COUNT)
		return MP_UNSUPPORTED;
	for (int e = 0; e < MP_EV_COUNT; e++)
		before[e] = mp_sim_count(sp->sim, (enum mp_event)e);
	mp_sim_set_region(sp->sim, r->region);
	if (!do_run(sp, r, out)) {
		mp_log(p, MP_LOG_ERROR, "sim: a run touched memory the platform did not map");
		return MP_EIO;
	}
	out->valid = counted(sp->sim, r->events);
	out->ticks = mp_sim_count(sp->sim, MP_EV_CYCLES) - before[MP_EV_CYCLES];
	for (int e = 0; e < MP_EV_COUNT; e++)
		if (out->valid & MP_EV_BIT(e))
			out->count[e] = mp_sim_count(sp->sim, (enum mp_event)e) - before[e];
	return MP_OK;
}

static uint32_t sp_events(struct mp_platform *p)
{
	return mp_sim_events(me(p)->sim);
}

static enum mp_status sp_flush_line(struct mp_platform *p, const void *addr)
{
	mp_sim_flush_line(me(p)->sim, (uint64_t)(uintptr_t)addr);
	return MP_OK;
}

static enum mp_status sp_flush_all(struct mp_platform *p)
{
	mp_sim_flush_all(me(p)->sim);
	return MP_OK;
}

static enum mp_status sp_irq_mask(struct mp_platform *p)
{
	(void)p;
	return MP_OK;
}

static void sp_irq_unmask(struct mp_platform *p)
{
	(void)p;
}

static bool sp_rest(struct mp_platform *p, uint32_t us)
{
	return mp_sim_rest(me(p)->sim, us);
}

static enum mp_status sp_code_build(struct mp_platform *p, struct mp_mem *m,
				    const uint64_t *offsets, uint64_t n, void **entry)
{
	struct chain *c;

	if (!n || !m->base)
		return MP_EIO;
	for (uint64_t i = 0; i < n; i++)
		if (offsets[i] >= m->bytes)
			return MP_EIO;
	c = chain_slot(me(p), m->base + offsets[0]);
	if (!c)
		return MP_ENOMEM;
	c->block = malloc(n * sizeof(*c->block));
	c->n = c->block ? n : 0;
	c->lo = m->base;
	c->hi = m->base + m->bytes;
	if (!c->block)
		return MP_ENOMEM;
	for (uint64_t i = 0; i < n; i++)
		c->block[i] = (uint64_t)(uintptr_t)(m->base + offsets[i]);
	*entry = c->entry;
	return MP_OK;
}

static void sp_probe_begin(struct mp_platform *p, const char *name)
{
	mp_sim_set_probe(me(p)->sim, name);
}

static void sp_probe_end(struct mp_platform *p, const char *name)
{
	(void)name;
	mp_sim_set_probe(me(p)->sim, NULL);
}

static const struct mp_platform_ops sim_ops = {
	.now = sp_now,
	.mem_alloc = sp_mem_alloc,
	.mem_free = sp_mem_free,
	.run = sp_run,
	.events = sp_events,
	.flush_line = sp_flush_line,
	.flush_all = sp_flush_all,
	.irq_mask = sp_irq_mask,
	.irq_unmask = sp_irq_unmask,
	.code_build = sp_code_build,
	.rest = sp_rest,
	.probe_begin = sp_probe_begin,
	.probe_end = sp_probe_end,
};

struct mp_platform *mp_sim_open(const struct mp_sim_model *m, const struct mp_output *out)
{
	struct simp *sp = calloc(1, sizeof(*sp));

	if (!sp)
		return NULL;
	sp->sim = mp_sim_new(m);
	if (!sp->sim) {
		free(sp);
		return NULL;
	}
	sp->p = (struct mp_platform){
		.name = MP_SIM_PLATFORM,
		.tick_hz = m->clock_hz,
		.core_hz = m->clock_hz,
		.page_bytes = mp_sim_base_page(sp->sim),
		.ops = &sim_ops,
		.out = out,
		.priv = sp,
	};
	return &sp->p;
}

void mp_sim_close(struct mp_platform *p)
{
	struct simp *sp;

	if (!p)
		return;
	sp = me(p);
	for (int i = 0; i < sp->nchains; i++)
		free(sp->chains[i].block);
	free(sp->chains);
	mp_sim_free(sp->sim);
	free(sp);
}

struct mp_sim *mp_sim_of(struct mp_platform *p)
{
	return me(p)->sim;
}
