/* SPDX-License-Identifier: MIT */
/* One-set replacement policy simulations (core/policy_sim.h). */
#include "core/policy_sim.h"
#include "core/str.h"

bool mp_pset_supports(enum mp_replacement policy, uint32_t ways)
{
	if (ways == 0 || ways > MP_PSET_MAX_WAYS)
		return false;
	if (policy == MP_REPL_PLRU)
		return (ways & (ways - 1)) == 0;
	return policy == MP_REPL_LRU || policy == MP_REPL_FIFO;
}

void mp_pset_init(struct mp_pset *s, uint32_t ways, enum mp_replacement policy, bool exclusive)
{
	mp_memset(s, 0, sizeof(*s));
	s->ways = ways;
	s->policy = policy;
	s->exclusive = exclusive;
}

static int find(const struct mp_pset *s, uint32_t block)
{
	for (uint32_t w = 0; w < s->ways; w++)
		if (s->valid[w] && s->block[w] == block)
			return (int)w;
	return -1;
}

bool mp_pset_holds(const struct mp_pset *s, uint32_t block)
{
	return find(s, block) >= 0;
}

/*
 * Tree PLRU over ways leaves: internal node i (1-based heap order) has
 * children 2i and 2i+1; its bit says which half holds the next victim
 * (0: left).  Touching a way points every node on its path away from it.
 */
static void plru_touch(struct mp_pset *s, uint32_t way)
{
	uint32_t node = 1, lo = 0, span = s->ways;

	while (span > 1) {
		uint32_t half = span / 2;
		bool right = way >= lo + half;

		s->bit[node] = right ? 0 : 1;
		node = 2 * node + (right ? 1 : 0);
		lo += right ? half : 0;
		span = half;
	}
}

static uint32_t plru_victim(const struct mp_pset *s)
{
	uint32_t node = 1, lo = 0, span = s->ways;

	while (span > 1) {
		uint32_t half = span / 2;

		lo += s->bit[node] ? half : 0;
		node = 2 * node + s->bit[node];
		span = half;
	}
	return lo;
}

static uint32_t oldest(const struct mp_pset *s)
{
	uint32_t v = 0;

	for (uint32_t w = 1; w < s->ways; w++)
		if (s->stamp[w] < s->stamp[v])
			v = w;
	return v;
}

static uint32_t victim(const struct mp_pset *s)
{
	for (uint32_t w = 0; w < s->ways; w++)
		if (!s->valid[w])
			return w;
	return s->policy == MP_REPL_PLRU ? plru_victim(s) : oldest(s);
}

static void touch(struct mp_pset *s, uint32_t way, bool fill)
{
	s->clock++;
	if (s->policy == MP_REPL_PLRU)
		plru_touch(s, way);
	else if (fill || s->policy == MP_REPL_LRU)
		s->stamp[way] = s->clock;
}

bool mp_pset_access(struct mp_pset *s, uint32_t block)
{
	int w = find(s, block);
	bool hit = w >= 0;

	if (hit && !s->exclusive) {
		touch(s, (uint32_t)w, false);
		return true;
	}
	if (!hit)
		w = (int)victim(s);
	s->block[w] = block;
	s->valid[w] = true;
	touch(s, (uint32_t)w, true);
	return hit;
}
