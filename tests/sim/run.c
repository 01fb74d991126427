/* SPDX-License-Identifier: MIT */
/*
 * The seam's operations as loops over sim_access(): the loop a probe asks
 * the platform to run, one simulated access per element.  Each access
 * counts one instruction, as a pointer chase or an unrolled sweep has one
 * memory instruction per element (the loop overhead is not modelled).
 */
#include "tests/sim/simint.h"

/*
 * Dependent loads: the next address is read from host memory at this one.
 * The host fetches each element's line while the simulator works on the one
 * before (a prefetch never faults; the read itself waits until the address
 * is known to be mapped), and after a miss also the simulator's rows the
 * next access will read.
 */
bool mp_sim_chase(struct mp_sim *s, void *start, uint64_t steps, void **end)
{
	int l1 = s->path[0].l1_level;
	void *p = start;
	uint64_t i;

	for (i = 0; i < steps; i++) {
		int level = sim_access(s, (uint64_t)(uintptr_t)p, MP_SIM_LOAD);

		if (sim_unlikely(level < 0))
			break;
		p = *(void *const *)p;
		__builtin_prefetch(p);
		if (level != l1)
			sim_prefetch_next(s, &s->path[0], (uint64_t)(uintptr_t)p);
	}
	s->count[MP_EV_LOADS] += i;
	s->count[MP_EV_INSTRUCTIONS] += i;
	*end = p;
	return i == steps;
}

bool mp_sim_sweep(struct mp_sim *s, uint64_t base, uint64_t stride, uint64_t count,
		  uint64_t steps, enum mp_sim_kind kind)
{
	uint64_t i, k = 0;

	if (!count)
		return steps == 0;
	for (i = 0; i < steps; i++) {
		if (sim_unlikely(sim_access(s, base + k * stride, kind) < 0))
			break;
		if (++k == count)
			k = 0;
	}
	s->count[kind == MP_SIM_STORE ? MP_EV_STORES : MP_EV_LOADS] += i;
	s->count[MP_EV_INSTRUCTIONS] += i;
	return i == steps;
}

/* Instruction fetch of a chain of code blocks: one line fetched per block. */
bool mp_sim_fetch_chain(struct mp_sim *s, const uint64_t *blocks, uint64_t n, uint64_t steps)
{
	uint64_t i, k = 0;

	if (!n)
		return steps == 0;
	for (i = 0; i < steps; i++) {
		if (sim_unlikely(sim_access(s, blocks[k], MP_SIM_FETCH) < 0))
			break;
		if (++k == n)
			k = 0;
	}
	s->count[MP_EV_INSTRUCTIONS] += i;
	return i == steps;
}
