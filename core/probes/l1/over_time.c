/* SPDX-License-Identifier: MIT */
/*
 * An L1's ways over time (docs/algorithms.md, "L1 data cache", over time).
 * A thread on the core's other SMT context (on a virtual machine, another
 * tenant of the host) holds lines in every set while it runs, so that both
 * algorithms find the ways it leaves: this project's Zen 5 class guest read
 * its 48K 12-way L1D as 40K 10-way in both, back to back, while a busy
 * sibling ran.  Such a thread only takes ways away, so a set that fits
 * once, fits the cache: a set that spills is tried again after rests.  And
 * its lines in a set come and go, so the ways it leaves fit unsteadily:
 * the ways found must be a sharp edge.
 */
#include "core/probes/l1/l1.h"

/* Tries, a rest (about L1_REST_US) apart, that a set must spill in to spill over time. */
#define L1_TRIES 8u
#define L1_REST_US 40000u
/*
 * A sharp edge (mp_l1_edge_over_time): passes of the A lines timed one by
 * one, and the share of them that may be slow (an interrupt's).
 */
#define L1_EDGE_PASSES 1000u
#define L1_EDGE_SLOW 0.05

/*
 * Rest before a try, then empty the caches where the platform can: lines
 * a neighbour left behind can stay for good in a tree-PLRU set ("Stale
 * lines"), and a set that fits would spill there.  False where the
 * platform has nothing to wait for.
 */
static bool rest(struct mp_compact_set *s)
{
	struct mp_platform *p = s->c->p;

	if (!mp_rest_about(p, &s->rng, L1_REST_US))
		return false;
	(void)p->ops->flush_all(p);
	return true;
}

int mp_l1_spills(struct mp_compact_set *s, uint64_t stride, uint64_t n)
{
	struct mp_ref_stride x = mp_ref_xray(stride, n);
	int c = mp_compact_set_compact(s, &x);

	return c < 0 ? -1 : !c;
}

int mp_l1_spills_over_time(struct mp_compact_set *s, uint64_t stride, uint64_t n)
{
	int m = mp_l1_spills(s, stride, n);

	for (unsigned tries = 0; m == 1 && tries < L1_TRIES && rest(s); tries++)
		m = mp_l1_spills(s, stride, n);
	return m;
}

uint64_t mp_l1_grow(struct mp_compact_set *s, uint64_t way, uint64_t ways)
{
	for (unsigned tries = 0; tries < L1_TRIES && ways < MP_COMPACT_SET_MAX_ELEMS;) {
		int m;

		if (!rest(s) || (m = mp_l1_spills(s, way, ways + 1)) < 0)
			break;
		if (m) {
			tries++;
			continue;
		}
		ways++;
		tries = 0;
	}
	return ways;
}

/* The one of the two whose line step runs again, or NULL (mp_l1_lines_over_time). */
static struct mp_l1_found *longer(struct mp_l1_found *x, struct mp_l1_found *g)
{
	if (x->size == MP_NA || x->size != g->size || x->ways != g->ways || x->line == g->line)
		return NULL;
	if (x->line == MP_NA || (g->line != MP_NA && x->line > g->line))
		return x;
	return g;
}

int mp_l1_lines_over_time(struct mp_compact_set *s, struct mp_l1_found *x, struct mp_l1_found *g)
{
	struct mp_l1_found *f;

	for (unsigned tries = 0; tries < L1_TRIES && (f = longer(x, g)) != NULL && rest(s); tries++)
		if ((f == x ? mp_l1_xray_line(s, x) : mp_l1_gap_line(s, g)) < 0)
			return -1;
	return 0;
}

/* One try of mp_l1_edge_over_time: 1 sharp now, 0 not, -1 not timed; *slow as there. */
static int edge_now(struct mp_compact_set *s, uint64_t way, uint64_t ways, double *slow)
{
	struct mp_ref_stride x = mp_ref_xray(way, ways);
	double share = 1.0;
	int m;

	if (mp_compact_set_slow_share(s, &x, L1_EDGE_PASSES, &share) != MP_OK)
		return -1;
	*slow = share < *slow ? share : *slow;
	if (share > L1_EDGE_SLOW)
		return 0;
	m = mp_l1_spills(s, way, ways + 1);
	return m < 0 ? -1 : m;
}

int mp_l1_edge_over_time(struct mp_compact_set *s, uint64_t way, uint64_t ways, double *slow)
{
	int m;

	*slow = 1.0;
	if (s->link.serial)
		return 1;
	m = edge_now(s, way, ways, slow);
	for (unsigned tries = 0; m == 0 && tries < L1_TRIES && rest(s); tries++)
		m = edge_now(s, way, ways, slow);
	return m;
}
