/* SPDX-License-Identifier: MIT */
/*
 * The seam's operations as loops over sim_access(): the loop a probe asks
 * the platform to run, one simulated access per element.  Each access
 * counts one instruction, as a pointer chase or an unrolled sweep has one
 * memory instruction per element (the loop overhead is not modelled).
 */
#include "sim/simint.h"

/*
 * Dependent loads: the next address is read from host memory at this one.
 * The loop runs one element ahead of the simulation: it reads the next
 * address first (once this one is known to be mapped), has the host fetch
 * that element's line, and after a miss also the simulator's rows the next
 * access will read, so that those host misses overlap with this access's
 * simulation.
 */
bool mp_sim_chase(struct mp_sim *s, void *start, uint64_t steps, void **end)
{
	struct sim_path *d = &s->path[0];
	bool missed = false;
	void *p = start;
	uint64_t i;

	for (i = 0; i < steps; i++) {
		uint64_t va = (uint64_t)(uintptr_t)p;
		void *next;

		if (sim_unlikely(!sim_vm_mapped(s, va)))
			break;
		next = *(void *const *)p;
		__builtin_prefetch(next);
		if (missed)
			sim_prefetch_next(s, d, (uint64_t)(uintptr_t)next);
		missed = sim_access(s, va, MP_SIM_LOAD) != d->l1_level;
		p = next;
	}
	s->count[MP_EV_LOADS] += i;
	s->count[MP_EV_INSTRUCTIONS] += i;
	*end = p;
	return i == steps;
}

/* Independent accesses at a stride; after a miss the next one's rows are fetched early. */
bool mp_sim_sweep(struct mp_sim *s, uint64_t base, uint64_t stride, uint64_t count,
		  uint64_t steps, enum mp_sim_kind kind)
{
	struct sim_path *d = &s->path[0];
	uint64_t i, k = 0;

	if (!count)
		return steps == 0;
	for (i = 0; i < steps; i++) {
		int level = sim_access(s, base + k * stride, kind);

		if (sim_unlikely(level < 0))
			break;
		if (++k == count)
			k = 0;
		if (level != d->l1_level)
			sim_prefetch_next(s, d, base + k * stride);
	}
	s->count[kind == MP_SIM_STORE ? MP_EV_STORES : MP_EV_LOADS] += i;
	s->count[MP_EV_INSTRUCTIONS] += i;
	return i == steps;
}

/*
 * Does the decoded-op cache deliver this fetch line?  It is filled by
 * every line it misses (LRU), and a hit costs its latency alone.
 */
static bool opcache_delivers(struct mp_sim *s, uint64_t window)
{
	struct sim_sets *a = &s->opcache;
	uint64_t set = sim_sets_index(a, window);
	int64_t e = sim_sets_find(a, set * a->stride, window, window);

	if (e < 0) {
		sim_sets_fill(a, set, window, window, 0);
		return false;
	}
	sim_sets_touch(a, set * a->stride, (uint64_t)e);
	s->cycles += s->model.opcache.latency;
	return true;
}

/*
 * Every line of the first fetch-side cache that [va, va + bytes) spans;
 * false if unmapped.  A serial chain's lines never come from the
 * decoded-op cache (struct mp_code.serial).
 */
static bool fetch_block(struct mp_sim *s, uint64_t va, uint64_t bytes, bool serial)
{
	uint64_t line = s->cur->fetch_line;
	bool ops = s->opcache.key && !serial;

	for (uint64_t a = va & ~(line - 1); a < va + bytes; a += line) {
		if (ops && opcache_delivers(s, a / line))
			continue;
		if (sim_unlikely(sim_access(s, a, MP_SIM_FETCH) < 0))
			return false;
	}
	return true;
}

bool mp_sim_fetch_chain(struct mp_sim *s, void *start, uint64_t steps, void **end)
{
	const struct mp_sim_block *b = start;
	uint64_t i;

	for (i = 0; i < steps; i++) {
		uint64_t va = (uint64_t)(uintptr_t)b;

		if (sim_unlikely(!sim_vm_mapped(s, va)) || !b->bytes ||
		    b->bytes > MP_SIM_BLOCK_MAX || !fetch_block(s, va, b->bytes, b->serial))
			break;
		b = (const struct mp_sim_block *)(uintptr_t)b->next;
	}
	s->count[MP_EV_INSTRUCTIONS] += i;
	*end = (void *)(uintptr_t)b;
	return i == steps;
}

bool mp_sim_kernel(struct mp_sim *s, const struct mp_kernel *k, uint64_t steps)
{
	int w = mp_sim_width_index(k->width);
	const struct mp_sim_op *op;
	double dep, issue;

	if (w < 0 || k->op >= MP_ARITH_COUNT || !k->chains || k->ops % k->chains)
		return false;
	op = &s->model.ops[k->op][w];
	if (!op->set)
		return false;
	dep = (double)(k->ops / k->chains) * op->latency;
	issue = (double)k->ops / op->throughput;
	s->cycles += (uint64_t)((double)steps * (dep > issue ? dep : issue) + 0.5);
	s->count[MP_EV_INSTRUCTIONS] += steps * k->ops;
	return true;
}
