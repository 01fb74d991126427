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
#include "core/lib/fmath.h"
#include "core/probes/l1/l1.h"

/* Tries, a rest (about L1_REST_US) apart, that a set must spill in to spill over time. */
#define L1_TRIES 8u
#define L1_REST_US 40000u
/*
 * A sharp edge (mp_l1_edge_over_time): L1_EDGE_PASSES passes of the A
 * lines timed one by one, in MP_STEADY_SPANS spans.  A span fits where its
 * share of slow passes is at most the baseline's plus L1_EDGE_SLOW and
 * L1_EDGE_ERRORS standard errors of the difference (the simulator's rough
 * noise slows some 40% of passes, interrupts on hardware well under 1%),
 * is held where it is within as much of all, and is mixed between.
 */
#define L1_EDGE_PASSES 2000u
#define L1_EDGE_SLOW 0.02
#define L1_EDGE_ERRORS 4.0

enum span { SPAN_FITS, SPAN_MIXED, SPAN_HELD };

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

/* How far a span's share of slow passes may stray from the baseline's, or from all. */
static double slack(const struct mp_steadiness *m)
{
	double p = m->noise, n = m->span_passes ? m->span_passes : 1;

	return L1_EDGE_SLOW + L1_EDGE_ERRORS *
	       mp_sqrt(p * (1.0 - p) * (1.0 / n + 1.0 / (n * MP_STEADY_SPANS)));
}

static enum span span_of(const struct mp_steadiness *m, unsigned j)
{
	double d = slack(m);

	if (m->slow[j] <= m->noise + d)
		return SPAN_FITS;
	return m->slow[j] >= 1.0 - d ? SPAN_HELD : SPAN_MIXED;
}

/*
 * The A lines' spans judged: unsteady where more than one is mixed (where
 * another thread's phase begins or ends, one span is mixed; where its
 * lines come and go, many), held where none fits, else sharp so far.
 * *slow: the share of slow passes beyond the baseline's.
 */
static enum mp_l1_edge judge(const struct mp_steadiness *m, double *slow)
{
	unsigned count[SPAN_HELD + 1] = { 0 };

	for (unsigned j = 0; j < MP_STEADY_SPANS; j++)
		count[span_of(m, j)]++;
	*slow = mp_steadiness_excess(m);
	if (count[SPAN_MIXED] > 1)
		return MP_L1_EDGE_UNSTEADY;
	return count[SPAN_FITS] ? MP_L1_EDGE_SHARP : MP_L1_EDGE_HELD;
}

/* One try of mp_l1_edge_over_time. */
static enum mp_l1_edge edge_now(struct mp_compact_set *s, uint64_t way, uint64_t ways,
				double *slow)
{
	struct mp_ref_stride x = mp_ref_xray(way, ways);
	struct mp_steadiness m;
	enum mp_l1_edge e;
	int spills;

	if (mp_compact_set_steadiness(s, &x, L1_EDGE_PASSES, &m) != MP_OK)
		return MP_L1_EDGE_UNTIMED;
	if ((e = judge(&m, slow)) != MP_L1_EDGE_SHARP)
		return e;
	spills = mp_l1_spills(s, way, ways + 1);
	if (spills < 0)
		return MP_L1_EDGE_UNTIMED;
	return spills ? MP_L1_EDGE_SHARP : MP_L1_EDGE_MORE;
}

/* The first try that is not held, tries after rests while held (L1_TRIES at most). */
static enum mp_l1_edge first_unheld(struct mp_compact_set *s, uint64_t way, uint64_t ways,
				    double *slow)
{
	enum mp_l1_edge e = edge_now(s, way, ways, slow);

	for (unsigned tries = 0; e == MP_L1_EDGE_HELD && tries < L1_TRIES && rest(s); tries++)
		e = edge_now(s, way, ways, slow);
	return e;
}

enum mp_l1_edge mp_l1_edge_over_time(struct mp_compact_set *s, uint64_t way, uint64_t ways,
				     double *slow)
{
	enum mp_l1_edge e;

	*slow = 1.0;
	e = first_unheld(s, way, ways, slow);
	if (e == MP_L1_EDGE_SHARP && rest(s))
		e = first_unheld(s, way, ways, slow);
	return e;
}
