/* SPDX-License-Identifier: MIT */
/*
 * The logical CPUs of a multi-core model (docs/simulator.md, "Multi-core
 * models").  One CPU is selected at a time: accesses go down its paths and
 * count in its counters, while the machine's clock runs on across
 * selections.  A run beside another CPU's load interleaves the two in
 * simulated time: each has its own clock from the common start, and the
 * one behind runs next, so a shared instance sees both footprints as they
 * would arrive and a private one sees only its own CPU's.  A ping-pong is
 * not simulated access by access: a transfer of the line costs what the
 * model says a coherent write costs (transfer_cycles).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/simint.h"

/* Steps of the measured run between two turns of the load: its resolution in time. */
#define BESIDE_QUANTUM 4u

/* A new instance u goes on the list of every level below it on c's path. */
static int add_above(struct sim_cpu *c, struct sim_cache *u)
{
	for (int i = 0; i < c->ncaches; i++) {
		struct sim_cache *b = c->cache[i];

		if (b->m.level <= u->m.level || !sim_shares_path(u, b))
			continue;
		if (b->nups == b->cap_ups) {
			int cap = b->cap_ups ? 2 * b->cap_ups : 4;
			struct sim_cache **ups = realloc(b->ups, (size_t)cap * sizeof(*ups));

			if (!ups)
				return -1;
			b->ups = ups;
			b->cap_ups = cap;
		}
		b->ups[b->nups++] = u;
	}
	return 0;
}

/*
 * Make the sets of the instances CPU c uses that no CPU made before, and put
 * each on the inclusion lists of the levels below it (in the model's order).
 */
int sim_cpu_build(struct sim_cpu *c)
{
	if (c->built)
		return 0;
	for (int i = 0; i < c->ncaches; i++) {
		struct sim_cache *in = c->cache[i];
		unsigned shift = (unsigned)__builtin_ctzll(in->m.line);

		if (in->a.key)
			continue;
		if (sim_sets_init(&in->a, in->m.size / in->m.line, in->m.ways, shift,
				  in->m.replacement, in->m.seed, false) < 0 ||
		    add_above(c, in) < 0)
			return -1;
		if (in->m.index == MP_SIM_INDEX_HASH)
			sim_slice_init(&in->slice, &in->a, &in->m);
	}
	for (int i = 0; i < c->ntlbs; i++) {
		struct sim_tlb *t = c->tlb[i];
		unsigned shift = (unsigned)__builtin_ctzll(t->m.page);

		if (t->a.key)
			continue;
		if (sim_sets_init(&t->a, t->m.entries, t->m.ways, shift, t->m.replacement,
				  t->m.seed, true) < 0)
			return -1;
		if (t->m.hashed)
			sim_tlb_hash_init(t);
	}
	c->built = true;
	return 0;
}

uint32_t mp_sim_cpus(const struct mp_sim *s)
{
	return s->ncpus;
}

uint32_t mp_sim_selected(const struct mp_sim *s)
{
	return (uint32_t)(s->cur - s->cpu);
}

bool mp_sim_select(struct mp_sim *s, uint32_t cpu)
{
	struct sim_cpu *c;

	if (cpu >= s->ncpus)
		return false;
	c = &s->cpu[cpu];
	if (sim_cpu_build(c) < 0)
		return false;
	s->cur = c;
	s->path = c->path;
	s->count = c->count;
	return true;
}

uint64_t mp_sim_count_all(const struct mp_sim *s, enum mp_event e)
{
	uint64_t n = 0;

	if (e == MP_EV_CYCLES)
		return s->cycles;
	for (uint32_t k = 0; k < s->ncpus; k++)
		n += s->cpu[k].count[e];
	return n;
}

/* The last cache level of a CPU's data path, or NULL. */
static const struct sim_cache *last_level(const struct sim_cpu *c)
{
	return c->path[0].n ? c->path[0].c[c->path[0].n - 1] : NULL;
}

bool mp_sim_cpu_info(const struct mp_sim *s, uint32_t cpu, struct mp_cpu_info *out)
{
	const struct sim_cpu *c;
	const struct sim_cache *llc;

	if (cpu >= s->ncpus)
		return false;
	c = &s->cpu[cpu];
	llc = last_level(c);
	*out = (struct mp_cpu_info){
		.apic_id = cpu,
		.package = 0,
		.die = MP_CPU_UNKNOWN,
		.cluster = llc ? mp_sim_instance(&s->model, llc->m.cpu, llc->m.shared, c->type,
						 c->core_in_type)
			       : MP_CPU_UNKNOWN,
		.core = c->core,
		.thread = c->thread,
	};
	snprintf(out->type, sizeof(out->type), "%s", s->model.types[c->type].name);
	return true;
}

/* Perform up to `n` more steps of a run on the selected CPU. */
static bool turn(const struct mp_sim_stepper *st, uint64_t n)
{
	return st->step(st->ctx, n);
}

bool mp_sim_beside(struct mp_sim *s, uint64_t steps, const struct mp_sim_stepper *run,
		   uint32_t other, const struct mp_sim_stepper *load)
{
	uint32_t me = mp_sim_selected(s);
	uint64_t mine, theirs;
	bool ok = true;

	if (other == me || other >= s->ncpus || !mp_sim_select(s, other))
		return false;
	mp_sim_select(s, me);
	mine = theirs = s->cycles;
	while (ok && steps) {
		uint64_t n = steps < BESIDE_QUANTUM ? steps : BESIDE_QUANTUM;

		ok = turn(run, n);
		steps -= n;
		mine = s->cycles;
		mp_sim_select(s, other);
		s->cycles = theirs;
		/* the load catches up; a turn that takes no time ends its catching up */
		while (ok && theirs < mine) {
			ok = turn(load, BESIDE_QUANTUM);
			if (s->cycles == theirs)
				break;
			theirs = s->cycles;
		}
		mp_sim_select(s, me);
		s->cycles = mine;
	}
	return ok;
}

/*
 * One transfer of a written line from CPU a to CPU b: the requester misses
 * its private levels and reaches the nearest instance both share (their L1
 * for SMT siblings), and the owner's copy is invalidated through that same
 * instance before the write completes: twice its latency.  CPUs that share
 * no cache meet at memory: twice the memory latency.
 */
static uint64_t transfer_cycles(const struct mp_sim *s, const struct sim_cpu *a,
				const struct sim_cpu *b)
{
	const struct sim_path *pa = &a->path[0], *pb = &b->path[0];

	for (int i = 0; i < pa->n; i++)
		for (int j = 0; j < pb->n; j++)
			if (pa->c[i] == pb->c[j])
				return 2ull * pa->c[i]->m.latency;
	return 2ull * s->memory_latency;
}

bool mp_sim_pingpong(struct mp_sim *s, uint32_t a, uint32_t b, uint64_t va, uint64_t rounds,
		     uint64_t *cycles)
{
	if (a == b || a >= s->ncpus || b >= s->ncpus || !sim_vm_find(s, va))
		return false;
	*cycles = rounds * 2 * transfer_cycles(s, &s->cpu[a], &s->cpu[b]);
	s->cycles += *cycles;
	return true;
}
