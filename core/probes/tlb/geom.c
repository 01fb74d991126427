/* SPDX-License-Identifier: MIT */
/*
 * TLB page size and associativity by X-Ray's compact sets (4.6): a TLB is
 * a cache whose block is a page.  Every string keeps its loads L1 hits
 * where it can and is compared with a reference string of as many
 * elements; for a level below the first, each element becomes a group of
 * pages (4.5.1).  docs/algorithms.md, "TLBs".
 */
#include "core/measure/timing.h"
#include "core/probes/tlb/tlb.h"

/* Strides tried for the page size: from one line up to this many times the mapping's page. */
#define PAGE_PROBE_FACTOR 2u
/* Pages of the associativity probe: 1.5 times what a stride's sets would hold. */
#define WAYS_PROBE_NUM 3u
#define WAYS_PROBE_DEN 2u
/* Elements of the page-size string: the level's entries and half again, so that it fits
 * the level at half the page size and overflows it at the page size. */
#define PAGE_PROBE_NUM 3u
#define PAGE_PROBE_DEN 2u

/* n groups of r pages; the r pages of a group are consecutive, the groups `stride` apart. */
static struct mp_ref_pages set_of(const struct tlb_ctx *t, uint64_t stride, uint64_t n, uint64_t r)
{
	struct mp_ref_pages s = {
		.page = t->page, .line = t->line, .groups = n, .group_stride = stride,
		.per_group = r, .page_stride = t->page, .per_page = 1,
	};

	return s;
}

/* Pages per group that make the levels above level i miss: more pages than they hold. */
static uint64_t pages_per_group(const struct tlb_level *lv, int32_t i, uint64_t n)
{
	uint64_t up = i > 0 ? lv[i - 1].entries : 0;

	return up ? (up + 1 + n - 1) / n : 1;
}

/*
 * Does `test` run within `frac` of level i's miss penalty of `ref`?  1 yes,
 * 0 no, -1 not timed.
 */
static int fits_as(struct tlb_ctx *t, const struct tlb_level *lv, int32_t i,
		   const struct mp_ref_pages *test, const struct mp_ref_pages *ref, double frac)
{
	double tt, tr;

	if (mp_tlb_time(t, test, &tt) != MP_OK || mp_tlb_time(t, ref, &tr) != MP_OK)
		return -1;
	return tt <= tr + frac * (lv[i].above - lv[i].below);
}

/*
 * Is <stride, n> compact for level i?  Against the reference: the same
 * number of pages, consecutive, which level i holds (n * r <= entries).
 */
static int compact(struct tlb_ctx *t, const struct tlb_level *lv, int32_t i, uint64_t stride,
		   uint64_t n)
{
	uint64_t r = pages_per_group(lv, i, n);
	struct mp_ref_pages test = set_of(t, stride, n, r), ref = set_of(t, r * t->page, n, r);

	if (r * t->page > stride)
		return -1;
	return fits_as(t, lv, i, &test, &ref, MP_TLB_COMPACT_FRAC);
}

/*
 * Associativity and sets (X-Ray theorem 1): 1.5 E / 2^j pages at a stride
 * of 2^j pages; the first compact j gives s = 2^(j-1), the largest compact
 * count at a stride of s pages is A, and E = s A.  j = 1 compact: fully
 * associative, A = E.  docs/algorithms.md, "TLBs", associativity.
 */
static uint64_t largest_compact(struct tlb_ctx *t, const struct tlb_level *lv, int32_t i,
				uint64_t stride, uint64_t hi)
{
	uint64_t lo = 0;                 /* compact; hi is not */

	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		int ok = compact(t, lv, i, stride, mid);

		if (ok < 0)
			return 0;
		if (ok)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Every power-of-two stride fitting says fully associative to X-Ray, but a
 * set index hashed over the page number spreads every stride evenly too.
 * Pages at random places tell the two apart: as many as the entries (in
 * groups, below the first level) at random places among SCATTER_POOL times
 * as many (or as the memory holds) fit a fully associative level as well
 * as consecutive ones do, while a hashed one gets more than its ways in
 * about two sets of five (a binomial count around the ways), and a set
 * cycled through more pages than its ways misses on every one of them:
 * some 40% of the accesses.
 * Between that and none, an eighth of the miss penalty leaves room for
 * noise either side, where the reference itself may sit at the level's
 * edge (a neighbour's entries: on this session's guest the random pages
 * cost a fifth of the penalty more there).  The places are drawn
 * SCATTER_DRAWS times, and each draw must fit: where the sweep's edge
 * came out low, a hashed level gets fewer sets over its ways (this
 * guest's hashed 4K STLB: 0.3 to 0.6 of the penalty more at 1924 to 2074
 * pages, and "fully associative" at 1782 and 1962 pages in 2 bench runs
 * of 20 with one draw).
 * 1 fits, 0 does not, -1 not timed (or no room for the places).
 */
#define SCATTER_POOL 8u
#define SCATTER_FRAC 0.125
#define SCATTER_DRAWS 3u

static int scattered_fits(struct tlb_ctx *t, const struct tlb_level *lv, int32_t i)
{
	uint64_t n = lv[i].entries, r = pages_per_group(lv, i, n);
	struct mp_ref_pages ref = set_of(t, r * t->page, n, r), test = ref;
	uint64_t room = t->m->bytes / (r * t->page);
	int f = 1;

	test.slots = room < SCATTER_POOL * n ? room : SCATTER_POOL * n;
	if (test.slots <= n)
		return -1;
	for (unsigned k = 0; k < SCATTER_DRAWS && f == 1; k++)
		f = fits_as(t, lv, i, &test, &ref, SCATTER_FRAC);
	return f;
}

/* How the associativity test ended: measured, or why not (the note's text). */
enum ways_end { WAYS_MEASURED, WAYS_UNTIMED, WAYS_NO_STRIDE, WAYS_UNEXPLAINED, WAYS_HASHED,
		WAYS_ENDS };

static const char *const ways_why[WAYS_ENDS] = {
	[WAYS_UNTIMED] = "a string could not be timed",
	[WAYS_NO_STRIDE] = "no power-of-two stride made its pages fit",
	[WAYS_UNEXPLAINED] = "the sets and ways the strides gave do not make its entries (an "
			     "index hashed over the page number spreads strided pages unevenly)",
	[WAYS_HASHED] = "every power-of-two stride fits, but pages at random places do not: "
			"the set index is hashed over the page number (the entries are the "
			"sweep's edge, to a few percent)",
};

static enum ways_end fully_associative(struct tlb_ctx *t, struct tlb_level *lv, int32_t i)
{
	int f = scattered_fits(t, lv, i);

	if (f == 1)
		lv[i].ways = lv[i].entries;
	return f == 1 ? WAYS_MEASURED : f == 0 ? WAYS_HASHED : WAYS_UNTIMED;
}

uint64_t mp_tlb_slack(double below, double above, uint64_t entries)
{
	double penalty = above - below;

	return penalty > 0 ? (uint64_t)(MP_TLB_LONG_RISE * below * (double)entries / penalty) : 0;
}

/*
 * A neighbour on the core that holds a way of every set while the largest
 * compact count is searched lowers it by one, and sets x ways with it (the
 * simulator's neighbour: 11 of skylake-smt's 12 STLB ways).  Where sets x
 * ways falls short of the entries the level held at some time (the
 * search's tries over time) by more than the search's slack, one way more
 * is tried again over time, as the entries were.
 */
static uint64_t ways_later(struct tlb_ctx *t, const struct tlb_level *lv, int32_t i,
			   uint64_t sets, uint64_t a)
{
	if (a * sets + mp_tlb_slack(lv[i].below, lv[i].above, lv[i].entries) >= lv[i].entries)
		return a;
	for (unsigned k = 0; a * sets < lv[i].entries && k < MP_TLB_TRIES &&
			     mp_rest_about(t->c->p, &t->g, MP_TLB_REST_US); k++) {
		if (compact(t, lv, i, t->page * sets, a + 1) == 1) {
			a++;
			k = 0;
		}
	}
	return a;
}

static enum ways_end sets_and_ways(struct tlb_ctx *t, struct tlb_level *lv, int32_t i)
{
	uint64_t e = lv[i].entries;

	for (uint64_t j = 1; (e >> j) >= 1; j++) {
		uint64_t sets = 1ull << (j - 1), a;
		uint64_t n = (e * WAYS_PROBE_NUM / WAYS_PROBE_DEN) >> j;
		int ok = compact(t, lv, i, t->page << j, n);

		if (ok < 0)
			return WAYS_UNTIMED;
		if (!ok)
			continue;
		if (sets == 1)
			return fully_associative(t, lv, i);
		a = largest_compact(t, lv, i, t->page * sets, 2 * e / sets + 1);
		a = a ? ways_later(t, lv, i, sets, a) : 0;
		if (!a || (a * sets) * 10 < e * 9 || (a * sets) * 9 > e * 10)
			return WAYS_UNEXPLAINED;
		lv[i].ways = a;
		lv[i].entries = a * sets;
		return WAYS_MEASURED;
	}
	return WAYS_NO_STRIDE;
}

/* The ways, or a note of why not. */
static void ways(struct tlb_ctx *t, struct tlb_level *lv, int32_t i)
{
	enum ways_end end = sets_and_ways(t, lv, i);
	char text[MP_NOTE_LEN];

	if (end == WAYS_MEASURED)
		return;
	mp_snprintf(text, sizeof(text), "L%d ways not measured: %s", (int)(i + 1),
		    ways_why[end]);
	mp_tlb_note(t, text);
}

/*
 * Page size: N = 1.5 E elements, one in each of N slices of s bytes, fit
 * level i at s = B / 2 and overflow it at s = B.  A stride fits while its
 * time stays under the level's fitting time plus MP_TLB_COMPACT_FRAC of its
 * miss penalty.  The mapping's page is tried first; otherwise the search
 * goes down or up from there to the smallest stride that overflows, one
 * line at least, PAGE_PROBE_FACTOR pages at most.  docs/algorithms.md,
 * "TLBs", page size.
 */
static int fits(struct tlb_ctx *t, const struct tlb_level *lv, int32_t i, uint64_t s)
{
	struct mp_ref_pages str = {
		.page = s, .line = t->line, .group_stride = s, .per_group = 1, .page_stride = s,
		.per_page = 1, .groups = lv[i].entries * PAGE_PROBE_NUM / PAGE_PROBE_DEN,
	};
	double tt;

	if (s < t->line || mp_tlb_time(t, &str, &tt) != MP_OK)
		return -1;
	return tt < lv[i].below + MP_TLB_COMPACT_FRAC * (lv[i].above - lv[i].below);
}

static void page_size(struct tlb_ctx *t, struct tlb_level *lv, int32_t i)
{
	uint64_t s = t->page / 2;
	int half = fits(t, lv, i, s), whole = fits(t, lv, i, t->page);

	if (half == 1 && whole == 0) {
		lv[i].page_bytes = t->page;
		return;
	}
	if (half == 0) {
		while (s > t->line && fits(t, lv, i, s / 2) == 0)
			s /= 2;
		lv[i].page_bytes = s;
		return;
	}
	for (s = 2 * t->page; whole == 1 && s <= t->page * PAGE_PROBE_FACTOR; s *= 2) {
		int ok = fits(t, lv, i, s);

		if (ok == 0)
			lv[i].page_bytes = s;
		if (ok != 1)
			return;
	}
}

void mp_tlb_geometry(struct tlb_ctx *t, struct tlb_level *lv, int32_t i)
{
	page_size(t, lv, i);
	ways(t, lv, i);
}
