/* SPDX-License-Identifier: MIT */
/* One-set replacement policy simulations (core/probes/policy/set_model.h). */
#include "core/lib/str.h"
#include "core/probes/policy/set_model.h"

bool mp_set_model_supports(enum mp_replacement policy, uint32_t ways)
{
	if (ways == 0 || ways > MP_SET_MODEL_MAX_WAYS)
		return false;
	return policy == MP_REPL_LRU || policy == MP_REPL_PLRU || policy == MP_REPL_FIFO;
}

void mp_set_model_init(struct mp_set_model *s, uint32_t ways, enum mp_replacement policy, bool exclusive)
{
	mp_memset(s, 0, sizeof(*s));
	s->ways = ways;
	s->policy = policy;
	s->exclusive = exclusive;
}

static int find(const struct mp_set_model *s, uint32_t block)
{
	for (uint32_t w = 0; w < s->ways; w++)
		if (s->valid[w] && s->block[w] == block)
			return (int)w;
	return -1;
}

bool mp_set_model_holds(const struct mp_set_model *s, uint32_t block)
{
	return find(s, block) >= 0;
}

/*
 * Tree PLRU: a binary tree over the next power of two of leaves, heap
 * numbered from 1 (leaf l is node l + 2^depth).  A node's bit names the
 * half that holds the next victim (1: the right one); touching a way points
 * every node on its path at the other half.  With fewer ways than leaves
 * the victim walk turns away from a half that holds no way (as the
 * simulator does, sim/sets.c).
 */
static uint32_t depth(const struct mp_set_model *s)
{
	uint32_t d = 0;

	while ((1u << d) < s->ways)
		d++;
	return d;
}

static void plru_touch(struct mp_set_model *s, uint32_t way)
{
	uint32_t d = depth(s), node = way + (1u << d);

	for (uint32_t i = 0; i < d; i++) {
		s->bit[node >> 1] = (node & 1) ? 0 : 1;
		node >>= 1;
	}
}

static uint32_t plru_victim(const struct mp_set_model *s)
{
	uint32_t d = depth(s), leaves = 1u << d, node = 1;

	for (uint32_t i = 1; i <= d; i++) {
		uint32_t child = 2 * node + s->bit[node];

		if ((child << (d - i)) - leaves >= s->ways)
			child ^= 1;
		node = child;
	}
	return node - leaves;
}

static uint32_t oldest(const struct mp_set_model *s)
{
	uint32_t v = 0;

	for (uint32_t w = 1; w < s->ways; w++)
		if (s->stamp[w] < s->stamp[v])
			v = w;
	return v;
}

static uint32_t victim(const struct mp_set_model *s)
{
	for (uint32_t w = 0; w < s->ways; w++)
		if (!s->valid[w])
			return w;
	return s->policy == MP_REPL_PLRU ? plru_victim(s) : oldest(s);
}

static void touch(struct mp_set_model *s, uint32_t way, bool fill)
{
	s->clock++;
	if (s->policy == MP_REPL_PLRU)
		plru_touch(s, way);
	else if (fill || s->policy == MP_REPL_LRU)
		s->stamp[way] = s->clock;
}

bool mp_set_model_access(struct mp_set_model *s, uint32_t block)
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
