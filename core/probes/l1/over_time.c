/* SPDX-License-Identifier: MIT */
/*
 * An L1's ways over time (docs/algorithms.md, "L1 data cache", over time).
 * A thread on the core's other SMT context (on a virtual machine, another
 * tenant of the host) holds lines in every set while it runs, so that both
 * algorithms find the ways it leaves: this project's Zen 5 class guest read
 * its 48K 12-way L1D as 40K 10-way in both, back to back, while a busy
 * sibling ran.  Such a thread only takes ways away, so A + 1 lines a way
 * apart that fit once, fit the cache: the set one line past the answer is
 * tried again after each rest, and where it fits the answer grows by a way
 * and its series of tries begins again.
 */
#include "core/probes/l1/l1.h"

/*
 * Tries in a row, a rest apart, that the set past the answer must spill in.
 * Each rest is drawn between half and one and a half times L1_REST_US, so
 * that the tries cannot keep step with a neighbour that runs in a period.
 */
#define L1_TRIES 8u
#define L1_REST_US 40000u

/* 1: <way, n> spills, 0: it fits, -1: not timed. */
static int spills(struct mp_compact_set *s, uint64_t way, uint64_t n)
{
	struct mp_ref_stride x = mp_ref_xray(way, n);
	int c = mp_compact_set_compact(s, &x);

	return c < 0 ? -1 : !c;
}

/* The ways of f, grown while the set one line past them fits at a later moment. */
static void grow(struct mp_compact_set *s, struct mp_l1_found *f)
{
	uint64_t way = (uint64_t)(f->size / f->ways);

	for (unsigned tries = 0; tries < L1_TRIES && f->ways < MP_COMPACT_SET_MAX_ELEMS;) {
		int m;

		if (!mp_rest(s->c->p, (uint32_t)(L1_REST_US / 2 + mp_rng_below(&s->rng, L1_REST_US))))
			return;
		if ((m = spills(s, way, (uint64_t)f->ways + 1)) < 0)
			return;
		if (m) {
			tries++;
			continue;
		}
		f->ways++;
		f->size += (int64_t)way;
		tries = 0;
	}
}

static bool has_geometry(const struct mp_l1_found *f)
{
	return f->size != MP_NA && f->ways != MP_NA && f->ways > 0;
}

void mp_l1_over_time(struct mp_compact_set *s, struct mp_l1_found *x, struct mp_l1_found *g)
{
	bool same = x->size == g->size && x->ways == g->ways;

	if (has_geometry(x))
		grow(s, x);
	if (same && has_geometry(g)) {
		g->size = x->size;
		g->ways = x->ways;
	} else if (has_geometry(g)) {
		grow(s, g);
	}
}
