/* SPDX-License-Identifier: MIT */
/*
 * The "sim" platform: the seam of core/platform.h over the simulator.
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
 *   log(), progress(), sink()  as the Linux command does (host/): stderr, and
 *                files in the directory given at creation (none: dropped).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "host/host.h"
#include "tests/sim/sim.h"

struct chain {
	void *entry;
	uint64_t *block;
	uint64_t n;
	uint8_t *lo, *hi;      /* the memory it lives in */
};

struct host_map {
	void *addr;
	size_t len;
};

struct simp {
	struct mp_platform p;
	struct mp_sim *sim;
	char *files;
	bool quiet;
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

static uint64_t page_wanted(enum mp_page page)
{
	static const uint64_t bytes[] = { 0, 4096, 2ull << 20, 1ull << 30 };

	return page <= MP_PAGE_1G ? bytes[page] : 0;
}

/*
 * Host memory aligned to `align`: an anonymous mapping trimmed at both ends,
 * on huge pages where the host allows (a host TLB miss per simulated access
 * would cost more than the simulation).
 */
static void *host_alloc(size_t len, size_t align, struct host_map *hm)
{
	uint8_t *raw = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uint8_t *at;

	if (raw == MAP_FAILED)
		return NULL;
	at = (uint8_t *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
	if (at > raw)
		munmap(raw, (size_t)(at - raw));
	if (at + len < raw + len + align)
		munmap(at + len, (size_t)(raw + len + align - (at + len)));
	madvise(at, len, MADV_HUGEPAGE);
	hm->addr = at;
	hm->len = len;
	return at;
}

static enum mp_status sp_mem_alloc(struct mp_platform *p, const struct mp_mem_req *req,
				   struct mp_mem *out)
{
	struct mp_sim *s = me(p)->sim;
	uint64_t page = mp_sim_page_size(s, page_wanted(req->page));
	uint64_t align = req->align > page ? req->align : page;
	uint64_t len = (req->bytes + page - 1) & ~(page - 1);
	struct host_map *hm = calloc(1, sizeof(*hm));
	uint8_t *base;

	memset(out, 0, sizeof(*out));
	if (!hm || !req->bytes || (align & (align - 1)))
		return free(hm), MP_ENOMEM;
	base = host_alloc(len, align, hm);
	if (!base || !mp_sim_map(s, (uint64_t)(uintptr_t)base, len, page, req->contiguous)) {
		if (base)
			munmap(base, len);
		free(hm);
		return MP_ENOMEM;
	}
	out->base = base;
	out->bytes = req->bytes;
	mp_sim_translate(s, (uint64_t)(uintptr_t)base, &out->phys);
	out->page_bytes = page;
	out->contiguous = mp_sim_contiguous(s, (uint64_t)(uintptr_t)base);
	out->handle = hm;
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
	struct host_map *hm = m->handle;

	if (!hm)
		return;
	drop_chains(me(p), hm->addr, (uint8_t *)hm->addr + hm->len);
	mp_sim_unmap(me(p)->sim, (uint64_t)(uintptr_t)hm->addr);
	munmap(hm->addr, hm->len);
	free(hm);
	m->handle = NULL;
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
		p->ops->log(p, MP_LOG_ERROR, "sim: a run touched memory the platform did not map");
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

/* The suite announces each probe as "probe NAME: ..."; misses are counted under it. */
static void sp_log(struct mp_platform *p, enum mp_log_level lvl, const char *msg)
{
	char name[MP_NAME_LEN];
	size_t n;

	host_log(p->name, lvl, msg);
	if (strncmp(msg, "probe ", 6))
		return;
	n = strcspn(msg + 6, ": ");
	if (n == 0 || n >= sizeof(name))
		return;
	memcpy(name, msg + 6, n);
	name[n] = '\0';
	mp_sim_set_probe(me(p)->sim, name);
}

static void sp_progress(struct mp_platform *p, const char *what, uint64_t done, uint64_t total)
{
	host_progress(me(p)->quiet, what, done, total);
}

static enum mp_status sp_sink(struct mp_platform *p, const char *name, const char *data,
			      size_t len)
{
	struct simp *sp = me(p);

	if (!sp->files)
		return MP_OK;
	return host_results_write(sp->files, name, data, len);
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
	.log = sp_log,
	.rest = sp_rest,
	.progress = sp_progress,
	.sink = sp_sink,
};

struct mp_platform *mp_sim_platform_new(const struct mp_sim_model *m, const char *files,
					bool explain, bool quiet)
{
	struct simp *sp = calloc(1, sizeof(*sp));

	if (!sp)
		return NULL;
	sp->sim = mp_sim_new(m);
	sp->files = files ? strdup(files) : NULL;
	if (!sp->sim || (files && !sp->files)) {
		mp_sim_free(sp->sim);
		free(sp->files);
		free(sp);
		return NULL;
	}
	mp_sim_explain(sp->sim, explain);
	sp->quiet = quiet;
	sp->p.name = "sim";
	sp->p.tick_hz = m->clock_hz;
	sp->p.core_hz = m->clock_hz;
	sp->p.page_bytes = mp_sim_base_page(sp->sim);
	sp->p.ops = &sim_ops;
	sp->p.priv = sp;
	return &sp->p;
}

void mp_sim_platform_free(struct mp_platform *p)
{
	struct simp *sp;

	if (!p)
		return;
	sp = me(p);
	for (int i = 0; i < sp->nchains; i++)
		free(sp->chains[i].block);
	free(sp->chains);
	mp_sim_free(sp->sim);
	free(sp->files);
	free(sp);
}

struct mp_sim *mp_sim_of(struct mp_platform *p)
{
	return me(p)->sim;
}
