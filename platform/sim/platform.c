/* SPDX-License-Identifier: MIT */
/*
 * The "sim" platform: the seam of core/platform.h over the simulator (sim/).
 *
 *   now()        simulated cycles; tick_hz = core_hz = the model's clock.
 *   mem_alloc()  real host memory (the chase reads its pointers), mapped in
 *                the simulator at its host address with the page size asked
 *                for when a TLB of the model maps it, else the base page.
 *                The host addresses follow from the order of the requests
 *                alone (from SIM_VA_BASE up), not from the host's address
 *                space randomisation: the model's identity frames make them
 *                physical, and a hashed index's answers depend on them.
 *   run()        every access simulated; counters are exact.  A model with
 *                `pmu counters=N` counts only the first N events asked that
 *                it has, lowest first, as a PMU with N counters arms them.
 *   flush_*()    act on the simulated caches (and TLBs for flush_all).
 *   irq_mask()   succeeds; the noise model keeps running, since it stands
 *                for what firmware and the OS do regardless.
 *   rest()       simulated time passes where the model has a neighbour;
 *                nothing else would notice.
 *   code_build() writes at each block its successor and length (struct
 *                mp_sim_block); MP_OP_CODE follows them, fetching every line
 *                each block spans.  A serial chain is the same chain: the
 *                model's fetches never run ahead, nor skip a line.
 *   kernel_build() writes the kernel's description at the entry; MP_OP_KERNEL
 *                takes the time the model's `op` lines give it.
 *   probe_*()    misses are counted under the probe that runs (--explain).
 *   cpu_*()      the model's logical CPUs (cpu lines, cores, threads in
 *                order); a selected CPU's runs take its path through the
 *                caches and TLBs, on the machine's one clock.
 *   run_beside() the run and the other CPU's load interleaved in simulated
 *                time (sim/cpus.c); the sample is the run's alone.
 *   pingpong()   ticks from the model's cost of a transfer; no counts.
 */
#include <stdlib.h>
#include <string.h>

#include "platform/hosted/map.h"
#include "platform/sim/platform.h"

struct simp {
	struct mp_platform p;
	struct mp_sim *sim;
	uint64_t next;           /* where the next mapping goes, when free */
	uint32_t order[MP_SIM_MAX_CPUS]; /* the simulator's CPU of each seam number (cpu_home) */
};

/* The first mapping's host address: far from what the host maps by itself. */
#define SIM_VA_BASE (1ull << 44)

/* What kernel_build leaves at the entry for run(): a tag and the kernel. */
#define KERNEL_TAG 0x6b65726e656c4d50ull
struct kernel_rec {
	uint64_t tag;
	struct mp_kernel k;
};

static struct simp *me(struct mp_platform *p)
{
	return p->priv;
}

/*
 * The platform's clock: the cycles, read in the model's steps (a TSC that
 * advances by 26 at once, as AMD's, or by 24 and 25 in turn, 24.45 on the
 * average: docs/simulator.md), each step's reading rounded down to a
 * cycle.  A timed run spends the model's clock_read cycles more, the
 * clock's own reading (measured).  The counters' cycles stay exact.
 */
static uint64_t stepped(const struct simp *sp, uint64_t cycles)
{
	uint64_t x100 = mp_sim_model(sp->sim)->clock_step_x100;

	return cycles * 100 / x100 * x100 / 100;
}

static uint64_t sp_now(struct mp_platform *p)
{
	return stepped(me(p), mp_sim_cycles(me(p)->sim));
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
	me(p)->next = (me(p)->next + m.align - 1) & ~(uint64_t)(m.align - 1);
	m.at = (void *)(uintptr_t)me(p)->next;
	me(p)->next += m.bytes;
	base = mp_hosted_map(&m);
	if (!base || !mp_sim_map(s, (uint64_t)(uintptr_t)base, m.bytes, page, req->contiguous)) {
		mp_hosted_unmap(base, m.bytes);
		return MP_ENOMEM;
	}
	out->base = base;
	out->bytes = m.bytes;
	mp_sim_translate(s, (uint64_t)(uintptr_t)base, &out->phys);
	out->page_bytes = page;
	out->frame_bytes = mp_sim_frame_bytes(s, (uint64_t)(uintptr_t)base);
	out->contiguous = mp_sim_contiguous(s, (uint64_t)(uintptr_t)base);
	return MP_OK;
}

static void sp_mem_free(struct mp_platform *p, struct mp_mem *m)
{
	if (!m->base)
		return;
	mp_sim_unmap(me(p)->sim, (uint64_t)(uintptr_t)m->base);
	mp_hosted_unmap(m->base, m->bytes);
	m->base = NULL;
}

static bool run_kernel(struct simp *sp, const struct mp_run *r, uint64_t n)
{
	const struct kernel_rec *k = r->start;
	uint64_t pa;

	return mp_sim_translate(sp->sim, (uint64_t)(uintptr_t)r->start, &pa) &&
	       k->tag == KERNEL_TAG && mp_sim_kernel(sp->sim, &k->k, n);
}

/*
 * A run in progress: where it stands, so that it can go on a few steps at a
 * time (a run beside another CPU's) as well as all at once.
 */
struct cursor {
	struct simp *sp;
	const struct mp_run *r;
	void *at;              /* CHASE, CODE: the next element or block */
	uint64_t k;            /* SWEEP: the next element's index */
};

static bool sweep_steps(struct cursor *c, uint64_t n)
{
	const struct mp_run *r = c->r;
	uint64_t base = (uint64_t)(uintptr_t)r->start, first, rest;
	enum mp_sim_kind kind = r->op == MP_OP_STORE_SWEEP ? MP_SIM_STORE : MP_SIM_LOAD;

	if (!r->count)
		return n == 0;
	first = n < r->count - c->k ? n : r->count - c->k;
	rest = n - first;
	if (!mp_sim_sweep(c->sp->sim, base + c->k * r->stride, r->stride, r->count - c->k, first,
			  kind) ||
	    (rest && !mp_sim_sweep(c->sp->sim, base, r->stride, r->count, rest, kind)))
		return false;
	c->k = (c->k + n) % r->count;
	return true;
}

/* `n` more steps of the cursor's run on the selected CPU; false on a fault. */
static bool steps(void *ctx, uint64_t n)
{
	struct cursor *c = ctx;

	switch (c->r->op) {
	case MP_OP_CHASE:
		return mp_sim_chase(c->sp->sim, c->at, n, &c->at);
	case MP_OP_LOAD_SWEEP:
	case MP_OP_STORE_SWEEP:
		return sweep_steps(c, n);
	case MP_OP_CODE:
		return mp_sim_fetch_chain(c->sp->sim, c->at, n, &c->at);
	case MP_OP_KERNEL:
		return run_kernel(c->sp, c->r, n);
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

/*
 * Perform r on the selected CPU by `go` (alone, or beside another CPU's
 * load): its sample from the CPU's own counters, which the other CPU's
 * accesses do not touch.
 */
static enum mp_status measured(struct mp_platform *p, const struct mp_run *r,
			       struct mp_sample *out, bool (*go)(struct cursor *c, void *arg),
			       void *arg)
{
	struct simp *sp = me(p);
	struct cursor c = { .sp = sp, .r = r, .at = r->start };
	uint64_t before[MP_EV_COUNT];

	memset(out, 0, sizeof(*out));
	if (r->op >= MP_OP_COUNT)
		return MP_UNSUPPORTED;
	for (int e = 0; e < MP_EV_COUNT; e++)
		before[e] = mp_sim_count(sp->sim, (enum mp_event)e);
	mp_sim_set_region(sp->sim, r->region);
	if (!go(&c, arg)) {
		mp_log(p, MP_LOG_ERROR, "sim: a run touched memory the platform did not map");
		return MP_EIO;
	}
	if (r->op == MP_OP_CHASE || r->op == MP_OP_CODE)
		out->end = c.at;
	mp_sim_spend(sp->sim, mp_sim_model(sp->sim)->clock_read);
	out->valid = counted(sp->sim, r->events);
	out->ticks = stepped(sp, mp_sim_count(sp->sim, MP_EV_CYCLES)) -
		     stepped(sp, before[MP_EV_CYCLES]);
	for (int e = 0; e < MP_EV_COUNT; e++)
		if (out->valid & MP_EV_BIT(e))
			out->count[e] = mp_sim_count(sp->sim, (enum mp_event)e) - before[e];
	return MP_OK;
}

static bool alone(struct cursor *c, void *arg)
{
	(void)arg;
	return steps(c, c->r->steps);
}

static enum mp_status sp_run(struct mp_platform *p, const struct mp_run *r, struct mp_sample *out)
{
	return measured(p, r, out, alone, NULL);
}

/* The load beside a run: performed over and over, from where it stands. */
struct beside {
	uint32_t other;
	struct cursor load;
};

static bool next_to(struct cursor *c, void *arg)
{
	struct beside *b = arg;
	struct mp_sim_stepper run = { steps, c }, load = { steps, &b->load };

	return mp_sim_beside(c->sp->sim, c->r->steps, &run, b->other, &load);
}

/* The simulator's CPU of the seam's `cpu` (cpu itself past the model's CPUs). */
static uint32_t sim_cpu(struct mp_platform *p, uint32_t cpu)
{
	return cpu < mp_sim_cpus(me(p)->sim) ? me(p)->order[cpu] : cpu;
}

static enum mp_status sp_run_beside(struct mp_platform *p, const struct mp_run *r,
				    struct mp_sample *out, uint32_t other,
				    const struct mp_run *load)
{
	struct mp_sim *s = me(p)->sim;
	uint32_t o = sim_cpu(p, other);
	struct beside b = { o, { .sp = me(p), .r = load, .at = load->start } };

	memset(out, 0, sizeof(*out));
	if (o == mp_sim_selected(s) || o >= mp_sim_cpus(s) || load->op >= MP_OP_COUNT)
		return MP_UNSUPPORTED;
	return measured(p, r, out, next_to, &b);
}

static uint32_t sp_cpu_count(struct mp_platform *p)
{
	return mp_sim_cpus(me(p)->sim);
}

static enum mp_status sp_cpu_info(struct mp_platform *p, uint32_t cpu, struct mp_cpu_info *out)
{
	return mp_sim_cpu_info(me(p)->sim, sim_cpu(p, cpu), out) ? MP_OK : MP_EIO;
}

static enum mp_status sp_cpu_select(struct mp_platform *p, uint32_t cpu)
{
	struct mp_sim *s = me(p)->sim;

	if (cpu >= mp_sim_cpus(s))
		return MP_UNSUPPORTED;
	return mp_sim_select(s, sim_cpu(p, cpu)) ? MP_OK : MP_ENOMEM;
}

static enum mp_status sp_cpu_home(struct mp_platform *p, uint32_t cpu)
{
	uint32_t *o = me(p)->order, was = o[0];

	if (cpu >= mp_sim_cpus(me(p)->sim))
		return MP_UNSUPPORTED;
	o[0] = o[cpu];
	o[cpu] = was;
	return sp_cpu_select(p, 0);
}

static enum mp_status sp_pingpong(struct mp_platform *p, uint32_t a, uint32_t b, void *line,
				  uint64_t rounds, struct mp_sample *out)
{
	struct mp_sim *s = me(p)->sim;

	memset(out, 0, sizeof(*out));
	if (a == b || a >= mp_sim_cpus(s) || b >= mp_sim_cpus(s))
		return MP_UNSUPPORTED;
	a = sim_cpu(p, a);
	b = sim_cpu(p, b);
	return mp_sim_pingpong(s, a, b, (uint64_t)(uintptr_t)line, rounds, &out->ticks) ? MP_OK
											 : MP_EIO;
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

/* Every block inside the memory, at least a record long, none overlapping its successor. */
static bool blocks_fit(const struct mp_mem *m, const struct mp_code *c)
{
	if (!c->n || !m->base || c->block_bytes < sizeof(struct mp_sim_block) ||
	    c->block_bytes > MP_SIM_BLOCK_MAX)
		return false;
	for (uint64_t i = 0; i < c->n; i++)
		if (c->offsets[i] > m->bytes || m->bytes - c->offsets[i] < c->block_bytes)
			return false;
	return true;
}

static enum mp_status sp_code_build(struct mp_platform *p, struct mp_mem *m,
				    const struct mp_code *c, void **entry)
{
	(void)p;
	if (!blocks_fit(m, c))
		return MP_EIO;
	for (uint64_t i = 0; i < c->n; i++) {
		struct mp_sim_block b = {
			.next = (uint64_t)(uintptr_t)(m->base + c->offsets[(i + 1) % c->n]),
			.bytes = (uint32_t)c->block_bytes,
			.serial = c->serial,
		};

		memcpy(m->base + c->offsets[i], &b, sizeof(b));
	}
	*entry = m->base + c->offsets[0];
	return MP_OK;
}

static enum mp_status sp_kernel_build(struct mp_platform *p, struct mp_mem *m,
				      const struct mp_kernel *k, void **entry)
{
	const struct mp_sim_model *mod = mp_sim_model(me(p)->sim);
	int w = mp_sim_width_index(k->width);
	struct kernel_rec rec = { KERNEL_TAG, *k };

	if (!k->chains || !k->ops || k->ops % k->chains || k->op >= MP_ARITH_COUNT)
		return MP_EIO;
	if (w < 0 || !mod->ops[k->op][w].set || k->chains > MP_SIM_MAX_CHAINS)
		return MP_UNSUPPORTED;
	if (!m->base || m->bytes < sizeof(rec))
		return MP_EIO;
	memcpy(m->base, &rec, sizeof(rec));
	*entry = m->base;
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
	.kernel_build = sp_kernel_build,
	.rest = sp_rest,
	.probe_begin = sp_probe_begin,
	.probe_end = sp_probe_end,
	.cpu_count = sp_cpu_count,
	.cpu_info = sp_cpu_info,
	.cpu_select = sp_cpu_select,
	.cpu_home = sp_cpu_home,
	.run_beside = sp_run_beside,
	.pingpong = sp_pingpong,
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
	sp->next = SIM_VA_BASE;
	for (uint32_t i = 0; i < MP_SIM_MAX_CPUS; i++)
		sp->order[i] = i;
	sp->p = (struct mp_platform){
		.name = MP_SIM_PLATFORM,
		.tick_hz = m->clock_hz,
		.core_hz = m->clock_hz,
		.page_bytes = mp_sim_base_page(sp->sim),
		.code_block_min = sizeof(struct mp_sim_block),
		.code_serial_min = sizeof(struct mp_sim_block),
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
	mp_sim_free(sp->sim);
	free(sp);
}

struct mp_sim *mp_sim_of(struct mp_platform *p)
{
	return me(p)->sim;
}
