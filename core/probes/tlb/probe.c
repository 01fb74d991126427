/* SPDX-License-Identifier: MIT */
/*
 * The TLB test (Cooper-Xu 3.4): T(1,k), one line in each of k pages, swept
 * over k with the discipline of the multi-level test; its transitions are
 * suspects, each confirmed only if T(2,k), T(3,k) and T(4,k) rise at the
 * same number of pages.  Each confirmed level's entries are refined to the
 * page; its miss penalty is the rise; its page size and associativity come
 * from X-Ray's compact sets (geom.c).  The test runs on base pages and,
 * where the platform maps them, on 2M pages.  docs/algorithms.md, "TLBs".
 */
#include "core/lib/buf.h"
#include "core/measure/footprint.h"
#include "core/measure/steps.h"
#include "core/measure/timing.h"
#include "core/probes/probes.h"
#include "core/probes/tlb/tlb.h"

/* Smallest string of the sweep (Cooper-Xu start their TLB sweep at a few pages). */
#define TLB_MIN_PAGES 4u
/*
 * Largest: TLB_TOP_FACTOR times the largest documented data TLB, at least
 * TLB_TOP_MIN pages and at most half the arena; TLB_TOP_DEFAULT pages when
 * nothing is documented.
 */
#define TLB_TOP_FACTOR 4u
#define TLB_TOP_MIN 2048u
#define TLB_TOP_DEFAULT 16384u
/* Line counts of Cooper-Xu's confirmation strings T(2,k) .. T(4,k). */
#define TLB_CONFIRM_LINES 4u
/* Grid steps between a suspect and the points of its confirmation. */
#define TLB_CONFIRM_AWAY 2
/*
 * A suspect is confirmed when every T(n,k) rises across it, in time, by at
 * least this fraction of T(1,k)'s rise and by more than the noise.
 */
#define TLB_CONFIRM_FRAC 0.5
/*
 * On fetches, T(2, k/2) is flat across a TLB boundary: a rise of this
 * fraction of T(1,k)'s or more has blocks in the step (confirmed_code).
 */
#define TLB_CODE_FLAT_FRAC 0.25
/* Time bound of one T(1,k) sweep. */
#define TLB_BUDGET_S 2.0
#define LARGE_PAGE (2ull << 20)

struct tlb_run {
	struct tlb_ctx *t;
	uint64_t per_page;
};

static struct mp_ref_pages tstring(const struct tlb_ctx *t, uint64_t pages, uint64_t per_page)
{
	struct mp_ref_pages s = {
		.page = t->page, .line = t->line, .groups = pages, .group_stride = t->page,
		.per_group = 1, .page_stride = t->page, .per_page = per_page,
	};

	return s;
}

static enum mp_status build(struct tlb_ctx *t, const struct mp_ref_pages *s, struct mp_chase *ch)
{
	void *start;
	enum mp_status st;

	if (mp_ref_pages_span(s) > t->m->bytes)
		return MP_ENOMEM;
	st = mp_link_pages(&t->link, t->m, s, &t->g, &start);
	*ch = mp_chase_linked(&t->link, start, mp_ref_pages_count(s),
			      t->side == MP_KIND_DATA ? "tlb" : "itlb");
	return st;
}

static enum mp_status tlb_time(struct tlb_ctx *t, const struct mp_ref_pages *s,
			       struct mp_min_rule rule, double *ticks)
{
	struct mp_chase ch;
	enum mp_status st = build(t, s, &ch);

	if (st == MP_OK)
		st = mp_chase_warm(t->c, &ch);
	return st == MP_OK ? mp_chase_min_pass(t->c, &ch, rule, ticks) : st;
}

/*
 * The TLB tests' strings are short, so each takes Cooper-Xu's 25 passes
 * without a new minimum whatever the profile.
 */
enum mp_status mp_tlb_time(struct tlb_ctx *t, const struct mp_ref_pages *s, double *ticks)
{
	return tlb_time(t, s, MP_MIN_PASSES(MP_STABLE_RUNS_FULL), ticks);
}

static enum mp_status t_sample(struct mp_ctx *c, void *arg, const struct mp_sweep *s,
			       uint32_t i, double *ticks, uint32_t *n)
{
	struct tlb_run *r = arg;
	struct mp_ref_pages str = tstring(r->t, s->x[i], r->per_page);
	struct mp_chase ch;
	enum mp_status st = build(r->t, &str, &ch);

	(void)c;
	*n = 0;
	return st == MP_OK ? mp_chase_visit(r->t->c, &ch, true, ticks, n) : st;
}

struct sweep_out {
	struct mp_sweep s;
	struct mp_steps steps;
};

static enum mp_status t1_sweep(struct tlb_ctx *t, uint64_t top, const char *what,
			       struct sweep_out *o)
{
	uint64_t x[MP_SWEEP_MAX];
	double xd[MP_SWEEP_MAX];
	struct tlb_run run = { .t = t, .per_page = 1 };
	uint32_t n = mp_footprint_grid(TLB_MIN_PAGES, top, 1, x, MP_SWEEP_MAX);
	enum mp_status st;

	mp_sweep_init(&o->s, t->c->cfg, x, n);
	o->s.deadline = mp_now(t->c->p) + (uint64_t)(TLB_BUDGET_S * (double)t->c->p->tick_hz);
	st = mp_sweep_run(t->c, &o->s, t_sample, &run, what);
	for (uint32_t i = 0; i < n; i++)
		xd[i] = (double)x[i];
	if (st == MP_OK)
		mp_steps_find(xd, o->s.best, (int32_t)n, MP_STEP_MIN_RISE_TLB, MP_STEP_MIN_FLAT_TLB,
			      &o->steps);
	return st;
}

/*
 * Cooper-Xu's confirmation: do T(2..4, k) rise across the suspect too?
 * They are timed TLB_CONFIRM_AWAY grid steps from it on either side.
 */
static uint64_t confirm_point(const struct sweep_out *o, int32_t k, bool above)
{
	const struct mp_plateau *p = &o->steps.plateau[above ? k + 1 : k];
	int32_t i = above ? p->first + TLB_CONFIRM_AWAY - 1 : p->last - TLB_CONFIRM_AWAY;

	if (above)
		i = i <= p->last ? i : p->last;
	else
		i = i >= p->first ? i : p->first;
	return o->s.x[i < 0 ? 0 : i];
}

/*
 * TLB_BOUNDARY and TLB_BLOCKS (fetches only: blocks rose at the step too)
 * are TLB levels; NOT_TLB, PIECES, BLOCKS, MIXED and UNTOLD are not (the
 * three last on fetches only), and MIXED and UNTOLD may hide one
 * (first_hiding).
 */
enum verdict { TLB_BOUNDARY, TLB_BLOCKS, NOT_TLB, PIECES, BLOCKS, MIXED, UNTOLD };

static bool is_level(enum verdict v)
{
	return v == TLB_BOUNDARY || v == TLB_BLOCKS;
}

/* T(per_page, pages) now: false where it could not be timed. */
static bool time_now(struct tlb_ctx *t, uint64_t pages, uint64_t per_page, double *ticks)
{
	struct mp_ref_pages s = tstring(t, pages, per_page);

	return mp_tlb_time(t, &s, ticks) == MP_OK;
}

/*
 * Does T(1,U), at `up`, rise past `blocks`, what the blocks alone make of
 * it, by a TLB miss and more than the noise?  Then pages rose with the
 * blocks at the step.
 */
static bool pages_too(struct tlb_ctx *t, const struct sweep_out *o, double blocks, double up)
{
	struct tlb_level lv = { .below = blocks, .above = up };

	return !mp_tlb_rise_too_small(t, &lv) && blocks > 0 &&
	       mp_log2(up / blocks) > MP_STEP_NOISE_K * o->steps.noise;
}

/*
 * Fetches (the "itlb" probe): the blocks are held and the pages halved,
 * T(2, k/2) timed at lo, below the step, and at U, the first point of the
 * plateau above it (U <= 2 lo), beside T(1,k) at the same two points, now:
 * a step T(1,k) no longer makes is none (NOT_TLB).  T(2, k/2) stays flat
 * across a TLB boundary (TLB_BOUNDARY), and rises as T(1,k) does across a
 * boundary in blocks (BLOCKS); between the two, both fell at the step: a
 * TLB's mostly (TLB_BLOCKS), else blocks with a TLB miss's rise more on
 * T(1,k) (MIXED).  Where U > 2 lo the two cannot be told apart (UNTOLD).
 * docs/algorithms.md, "Instruction TLBs".
 */
static enum verdict confirmed_code(struct tlb_ctx *t, const struct sweep_out *o, int32_t k)
{
	uint64_t lo = confirm_point(o, k, false), up = o->s.x[o->steps.plateau[k + 1].first];
	double a1, b1, a2, b2;   /* T(1,lo), T(1,U), T(2,lo/2), T(2,U/2) */

	if (up > 2 * lo || lo < TLB_MIN_PAGES)
		return UNTOLD;
	if (!time_now(t, lo, 1, &a1) || !time_now(t, up, 1, &b1) ||
	    !time_now(t, lo / 2, 2, &a2) || !time_now(t, up / 2, 2, &b2) ||
	    mp_log2(b1 / a1) <= MP_STEP_NOISE_K * o->steps.noise)
		return NOT_TLB;
	if (b2 - a2 < TLB_CODE_FLAT_FRAC * (b1 - a1))
		return TLB_BOUNDARY;
	if (b2 - a2 < TLB_CONFIRM_FRAC * (b1 - a1))
		return TLB_BLOCKS;
	return pages_too(t, o, a1 + b2 - a2, b1) ? MIXED : BLOCKS;
}

/*
 * PIECES: on large pages, T(2,k) already misses where T(1,k) fits the
 * first level: the TLB holds pieces of a page rather than pages
 * (docs/algorithms.md, "TLBs", large pages).
 */
static enum verdict confirmed(struct tlb_ctx *t, const struct sweep_out *o, int32_t k)
{
	uint64_t lo = confirm_point(o, k, false), hi = confirm_point(o, k, true);
	double below = o->steps.plateau[k].high;
	double rise1 = o->steps.plateau[k + 1].level - below;

	if (t->side == MP_KIND_INSTRUCTION)
		return confirmed_code(t, o, k);
	for (uint64_t n = 2; n <= TLB_CONFIRM_LINES; n++) {
		struct mp_ref_pages a = tstring(t, lo, n), b = tstring(t, hi, n);
		double ta, tb;

		if (mp_tlb_time(t, &a, &ta) != MP_OK || mp_tlb_time(t, &b, &tb) != MP_OK)
			return NOT_TLB;
		if (n == 2 && k == 0 && t->page >= LARGE_PAGE &&
		    ta - below >= TLB_CONFIRM_FRAC * rise1)
			return PIECES;
		if (tb - ta < TLB_CONFIRM_FRAC * rise1 ||
		    mp_log2(tb / ta) <= MP_STEP_NOISE_K * o->steps.noise)
			return NOT_TLB;
	}
	return TLB_BOUNDARY;
}

/*
 * What a string that fits runs at: within `fit` (log2) of `below` in
 * Cooper-Xu's short windows (mp_tlb_time), or within MP_TLB_LONG_RISE of
 * `strict` in long ones (MP_MIN_LONG), `strict` being the long-window time
 * of the plateau's middle string (settle()).  docs/algorithms.md, "TLBs",
 * entries.
 */
struct fit_rule {
	double below, fit;       /* short windows: the plateau's highest point, the allowance */
	double strict;           /* long windows */
	uint64_t mid;            /* the plateau's middle string */
	/*
	 * The plateau's highest point over its middle, in the sweep; at most
	 * the smallest step the analysis counts (a plateau that rose more
	 * would have been two).
	 */
	double slope;
};

static enum mp_status time_long(struct tlb_ctx *t, const struct mp_ref_pages *s, double *ticks)
{
	return tlb_time(t, s, MP_MIN_LONG(mp_stable_runs(t->c->cfg)), ticks);
}

/* Does T(1, pages) run at the plateau's time now?  -1: it could not be timed. */
static int fits_now(struct tlb_ctx *t, uint64_t pages, const struct fit_rule *f)
{
	struct mp_ref_pages s = tstring(t, pages, 1);
	double tt;

	if (mp_tlb_time(t, &s, &tt) != MP_OK)
		return -1;
	if (mp_log2(tt / f->below) <= f->fit)
		return 1;
	if (time_long(t, &s, &tt) != MP_OK)
		return -1;
	return tt <= f->strict * (1.0 + MP_TLB_LONG_RISE);
}

/*
 * Time the plateau's middle string now, in both windows, and lower `below`
 * and `strict` to what it runs at (carried to the plateau's highest point
 * by the sweep's slope): a neighbour may have lifted the whole sweep.
 */
static void settle(struct tlb_ctx *t, struct fit_rule *f)
{
	struct mp_ref_pages s = tstring(t, f->mid, 1);
	double tt;

	if (mp_tlb_time(t, &s, &tt) == MP_OK && tt * f->slope < f->below)
		f->below = tt * f->slope;
	if (time_long(t, &s, &tt) == MP_OK && tt * f->slope < f->strict)
		f->strict = tt * f->slope;
}

/* The most pages from lo (which fits) below hi that fit now. */
static uint64_t bisect(struct tlb_ctx *t, uint64_t lo, uint64_t hi, const struct fit_rule *f)
{
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		int ok = fits_now(t, mid, f);

		if (ok < 0)
			break;
		if (ok)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static struct fit_rule fit_rule(struct tlb_ctx *t, const struct sweep_out *o, int32_t k)
{
	const struct mp_plateau *p = &o->steps.plateau[k];
	int32_t mid = (p->first + p->last) / 2;
	struct fit_rule f = {
		.below = p->peak, .strict = p->peak, .fit = mp_log2(1.0 + MP_FOOTPRINT_FIT_RISE),
		.mid = o->s.x[mid], .slope = 1.0,
	};

	if (MP_STEP_NOISE_K * o->steps.noise > f.fit)
		f.fit = MP_STEP_NOISE_K * o->steps.noise;
	if (o->s.best[mid] > 0 && p->peak > o->s.best[mid])
		f.slope = p->peak / o->s.best[mid];
	if (f.slope > 1.0 + MP_STEP_MIN_RISE_TLB)
		f.slope = 1.0 + MP_STEP_MIN_RISE_TLB;
	settle(t, &f);
	return f;
}

/* The bound of a search whose level's plateau above is u's: the point after its first. */
static uint64_t bound_of(const struct sweep_out *o, int32_t u)
{
	int32_t above = o->steps.plateau[u].first + 1;

	return o->s.x[above < (int32_t)o->s.n ? above : (int32_t)o->s.n - 1];
}

static uint64_t top_pages(const struct mp_ctx *c, enum mp_kind side, uint64_t page)
{
	uint64_t doc = mp_tlb_documented_entries(c->r, side, page), top = TLB_TOP_DEFAULT;
	uint64_t room = (page >= LARGE_PAGE ? c->cfg->arena_bytes : c->cfg->arena_bytes / 2) / page;

	if (doc)
		top = doc * TLB_TOP_FACTOR > TLB_TOP_MIN ? doc * TLB_TOP_FACTOR : TLB_TOP_MIN;
	return top < room ? top : room;
}

static void record_curve(struct tlb_ctx *t, const struct sweep_out *o, const char *name)
{
	struct mp_curve *cv = mp_result_add_curve(t->c->r, name, "pages",
						  mp_probe_time_unit(t->c));

	for (uint32_t i = 0; cv && i < o->s.n; i++)
		mp_curve_add_point(cv, (double)o->s.x[i], mp_probe_time(t->c, o->s.best[i]));
}

/*
 * Does the confirmed rise of step u belong to the level below it, which
 * holds `entries`?  Yes when the plateau before it ends short of twice
 * those entries (docs/algorithms.md, "TLBs", steps that are one level).
 */
static bool one_level(const struct sweep_out *o, const enum verdict *v, int32_t u,
		      uint64_t entries)
{
	return is_level(v[u]) && o->s.x[o->steps.plateau[u].last] < 2 * entries;
}

/* Step k as a level: its entries as the sweep saw them, and the most it can rise. */
static struct tlb_level step_level(const struct sweep_out *o, int32_t k)
{
	const struct mp_plateau *p = &o->steps.plateau[k];

	return (struct tlb_level){ .entries = o->s.x[p->last], .below = p->high,
				   .above = mp_steps_highest_after(&o->steps, k) };
}

/* Why a step on fetches is no level, said of the first that rises as a TLB miss would. */
static const char *const code_reject[] = {
	[BLOCKS] = "moved with the blocks too (as many blocks on half the pages rose as much): "
		   "a boundary in blocks (a cache, the front end), not a TLB",
	[MIXED] = "moved with the blocks, and rose less on half the pages: a boundary in "
		  "blocks, and perhaps a TLB's at the same place, which is not told",
	[UNTOLD] = "climbs over more than twice its pages: a boundary in blocks cannot be told "
		   "from one in pages",
};

static bool say_rejected(struct tlb_ctx *t, const struct sweep_out *o, int32_t k, enum verdict v)
{
	struct tlb_level lv = step_level(o, k);
	char what[MP_NOTE_LEN];

	if (!code_reject[v] || mp_tlb_rise_too_small(t, &lv))
		return false;
	mp_snprintf(what, sizeof(what), "the step between %llu and %llu pages %s; no level "
		    "recorded there", (unsigned long long)confirm_point(o, k, false),
		    (unsigned long long)o->s.x[o->steps.plateau[k + 1].first], code_reject[v]);
	mp_tlb_note(t, what);
	return true;
}

/* Confirm every step of the curve (Cooper-Xu's T(2..4,k)) into v[]. */
static void confirm_all(struct tlb_ctx *t, const struct sweep_out *o, enum verdict *v)
{
	bool said = false;

	for (int32_t k = 0; k < o->steps.nsteps; k++) {
		mp_progress(t->c->p, "tlb levels", (uint64_t)k,
				       (uint64_t)o->steps.nsteps);
		v[k] = confirmed(t, o, k);
		if (v[k] == PIECES)
			mp_tlb_note(t, "several lines of a page take several entries: the pages are "
				"mapped in smaller pieces underneath (a hypervisor?)");
		if (!said)
			said = say_rejected(t, o, k, v[k]);
	}
}

/*
 * The search for the entries of the level at step k (entries()), its
 * tries over time taken beside the other levels' (joint_tries).
 */
struct search {
	int32_t k, u;            /* the level's step; the step whose plateau above bounds it */
	struct fit_rule f;
	double above;            /* ticks per load on plateau u */
	uint64_t lo, top;        /* fits; the bound */
	uint64_t from;           /* lo when the series of tries began */
	unsigned tries;          /* tries of the series */
	bool open;
};

/*
 * Entries: the most pages that still run at the time of the plateau the
 * rule `f` was made for (its highest point, as in mp_footprint_refine),
 * searched from `lo`, which fits, to the point after plateau u's first,
 * as they fit now.  The first string past the answer is then tried again
 * over time (joint_tries), and where it fits the search goes on above it.
 */
static struct search search_from(struct tlb_ctx *t, const struct sweep_out *o, int32_t u,
				 uint64_t lo, struct fit_rule f)
{
	struct search s = { .u = u, .f = f, .above = o->steps.plateau[u].level,
			    .top = bound_of(o, u) };

	s.lo = bisect(t, lo, s.top, &s.f);
	s.from = s.lo;
	s.open = s.lo + 1 < s.top;
	return s;
}

/* The level at step k: its rule, and its entries as they fit now. */
static struct search search_now(struct tlb_ctx *t, const struct sweep_out *o, int32_t k)
{
	struct search s = search_from(t, o, k + 1, o->s.x[o->steps.plateau[k].last],
				      fit_rule(t, o, k));

	s.k = k;
	return s;
}

/*
 * One try of an open search: does lo + 1 fit now?  Then it goes on above
 * it.  The series of MP_TLB_TRIES tries begins again only once lo has
 * moved past where it began by more than the fit rule's slack: pages
 * within it are what the rule lets pass past the truth, and where a
 * level's time rises slowly past its entries each try would let one more
 * page through (docs/algorithms.md, "TLBs", over time).
 */
static void try_search(struct tlb_ctx *t, struct search *s)
{
	settle(t, &s->f);
	if (fits_now(t, s->lo + 1, &s->f) == 1)
		s->lo = bisect(t, s->lo + 1, s->top, &s->f);
	if (s->lo - s->from > mp_tlb_slack(s->f.below, s->above, s->from)) {
		s->from = s->lo;
		s->tries = 0;
	} else {
		s->tries++;
	}
	s->open = s->lo + 1 < s->top && s->tries < MP_TLB_TRIES;
}

/*
 * The tries over time of every level at once: after each rest, one try of
 * each search still open, so that the levels share the rests (each still
 * has MP_TLB_TRIES tries in a row, a rest apart at least).
 */
static void joint_tries(struct tlb_ctx *t, struct search *s, int32_t n)
{
	for (;;) {
		bool open = false;

		for (int32_t i = 0; i < n; i++)
			open |= s[i].open;
		if (!open || !mp_rest_about(t->c->p, &t->g, MP_TLB_REST_US))
			return;
		for (int32_t i = 0; i < n; i++)
			if (s[i].open)
				try_search(t, &s[i]);
	}
}

/* The entries of one search alone, its tries over time included. */
static uint64_t entries(struct tlb_ctx *t, const struct sweep_out *o, int32_t u, uint64_t lo,
			struct fit_rule *f)
{
	struct search s = search_from(t, o, u, lo, *f);

	joint_tries(t, &s, 1);
	*f = s.f;
	return s.lo;
}

/*
 * Level n from its search: the steps after it that are one level (*u moves
 * past them, their tries taken alone), the times and geometry; whether it
 * is kept.
 */
static bool level_of(struct tlb_ctx *t, const struct sweep_out *o, const enum verdict *v,
		     struct tlb_level *lv, int32_t n, struct search *s, int32_t *u)
{
	*u = s->u;
	lv[n].entries = s->lo;
	while (*u < o->steps.nsteps && one_level(o, v, *u, lv[n].entries))
		lv[n].entries = entries(t, o, ++*u, lv[n].entries, &s->f);
	lv[n].below = o->steps.plateau[s->k].high;
	lv[n].blocks = v[s->k] == TLB_BLOCKS;
	lv[n].above = o->steps.plateau[*u].level;
	mp_tlb_geometry(t, lv, n);
	return mp_tlb_keep(t, &lv[n]);
}

/*
 * Can step k be a level?  Not when even the rise to the highest plateau
 * after it, the most a level at k can reach by taking in the steps above
 * (level_of), is too small for a TLB miss: said, and no search is begun,
 * so that no tries over time are spent on it.
 */
static bool may_be_level(struct tlb_ctx *t, const struct sweep_out *o, int32_t k)
{
	struct tlb_level lv = step_level(o, k);

	return !mp_tlb_too_small(t, &lv);
}

/*
 * The first step on fetches that may hide a TLB level (MIXED, or UNTOLD
 * with a TLB miss's rise): the levels above it cannot be numbered.
 * nsteps where none does.
 */
static int32_t first_hiding(struct tlb_ctx *t, const struct sweep_out *o, const enum verdict *v)
{
	for (int32_t k = 0; k < o->steps.nsteps; k++) {
		struct tlb_level lv = step_level(o, k);

		if ((v[k] == MIXED || v[k] == UNTOLD) && !mp_tlb_rise_too_small(t, &lv))
			return k;
	}
	return o->steps.nsteps;
}

/* The confirmed steps above step h, which may hide a level, are said and not searched. */
static void say_unnumbered(struct tlb_ctx *t, const struct sweep_out *o, const enum verdict *v,
			   int32_t h)
{
	char what[MP_NOTE_LEN];
	int32_t n = 0;

	for (int32_t k = h + 1; k < o->steps.nsteps; k++)
		n += is_level(v[k]);
	if (!n)
		return;
	mp_snprintf(what, sizeof(what), "%d step(s) of pages above %llu pages not recorded: the "
		    "step between %llu and %llu pages may hide a TLB level, so which levels they "
		    "are is not known", (int)n, (unsigned long long)o->s.x[o->steps.plateau[h + 1].first],
		    (unsigned long long)confirm_point(o, h, false),
		    (unsigned long long)o->s.x[o->steps.plateau[h + 1].first]);
	mp_tlb_note(t, what);
}

/*
 * Fetches: does T(1,x) run slower than T(2,x/2), as many blocks on half the
 * pages, by a TLB miss, each of HIDDEN_TRIES times?  Then x pages are past
 * some level's entries.  One try in the Zen 5 guest's busy spells ran T(1,x)
 * 3 cycles slow at 8 to 20 pages now and then, twice in a row once.
 */
#define HIDDEN_TRIES 3u

static bool pages_rose(struct tlb_ctx *t, const struct sweep_out *o, uint64_t x)
{
	for (unsigned i = 0; i < HIDDEN_TRIES; i++) {
		double t1, t2;

		if (!time_now(t, x, 1, &t1) || !time_now(t, x / 2, 2, &t2) ||
		    !pages_too(t, o, t2, t1))
			return false;
	}
	return true;
}

/*
 * Fetches: a TLB level no step showed below step k (in a plateau above a
 * step of blocks, rising less than a step), above the level before, which
 * holds `prev` entries.  Past twice those T(2,x/2) misses that level as
 * T(1,x) does, so pages_rose at an even grid point from there to the
 * step's lo is another level's miss.  The first such point, or 0.
 */
static uint64_t hidden_below(struct tlb_ctx *t, const struct sweep_out *o, int32_t k,
			     uint64_t prev)
{
	uint64_t lo = confirm_point(o, k, false);

	for (uint32_t i = 0; t->side == MP_KIND_INSTRUCTION && i < o->s.n; i++) {
		uint64_t x = o->s.x[i];

		if (x > lo)
			break;
		if (x % 2 == 0 && x > 2 * prev && x / 2 >= TLB_MIN_PAGES && pages_rose(t, o, x))
			return x;
	}
	return 0;
}

static void say_hidden(struct tlb_ctx *t, const struct sweep_out *o, int32_t k, uint64_t x)
{
	char what[MP_NOTE_LEN];

	mp_snprintf(what, sizeof(what), "no level recorded from the step at %llu pages up: at "
		    "%llu pages fetches ran slower than as many blocks on half the pages by a TLB "
		    "miss, a level below the step that no step showed, so which levels they are "
		    "is not known", (unsigned long long)o->s.x[o->steps.plateau[k].last],
		    (unsigned long long)x);
	mp_tlb_note(t, what);
}

/*
 * Measure and record every level the confirmed steps show: each searched
 * now, then the tries over time of all together, then each level in turn.
 * A step that turns out one level with the step before it is not a level
 * of its own (its search is dropped); none above a step that may hide a
 * level is searched, and none from a level below which one hides up is
 * recorded.
 */
static int32_t levels(struct tlb_ctx *t, const struct sweep_out *o)
{
	static struct search s[MP_STEPS_MAX];
	struct tlb_level lv[MP_STEPS_MAX] = { 0 };
	enum verdict v[MP_STEPS_MAX];
	int32_t n = 0, ns = 0, u = 0, hide;

	confirm_all(t, o, v);
	hide = first_hiding(t, o, v);
	say_unnumbered(t, o, v, hide);
	for (int32_t k = 0; k < hide && ns < MP_STEPS_MAX; k++)
		if (is_level(v[k]) && may_be_level(t, o, k))
			s[ns++] = search_now(t, o, k);
	joint_tries(t, s, ns);
	for (int32_t i = 0; i < ns && n < MP_STEPS_MAX; i++) {
		uint64_t x;

		if (s[i].k < u)
			continue;            /* one level with the one before */
		if ((x = hidden_below(t, o, s[i].k, n ? lv[n - 1].entries : 0)) != 0) {
			say_hidden(t, o, s[i].k, x);
			break;
		}
		if (!level_of(t, o, v, lv, n, &s[i], &u))
			continue;
		mp_tlb_record(t, &lv[n], n + 1);
		n++;
	}
	return n;
}

/*
 * Loads for data TLBs; a serial code chain for instruction TLBs, so that
 * every block is fetched, and translated, only once the one before has run
 * (a predicted chain's misses hide behind the front end's run-ahead, and a
 * decoded-op cache serves its short lines untranslated: docs/algorithms.md,
 * "Instruction TLBs").  An element's line holds its whole block.
 */
static struct tlb_ctx side_ctx(struct mp_ctx *c, enum mp_kind side, uint64_t page)
{
	struct tlb_ctx t = { .c = c, .side = side, .page = page, .link = mp_linker_data(c->p) };

	if (side == MP_KIND_INSTRUCTION)
		t.link = mp_linker_serial(c->p);
	t.line = mp_footprint_l1_line_of(c->r, side);
	if (t.line < mp_link_elem(&t.link))
		t.line = mp_link_elem(&t.link);
	mp_rng_seed(&t.g, c->cfg->seed);
	return t;
}

/* The whole test on memory mapped with `want` pages; the number of levels found. */
static int32_t tlb_pass(struct mp_ctx *c, enum mp_kind side, enum mp_page want, uint64_t page,
			const char *name)
{
	static struct sweep_out o;
	uint64_t top = top_pages(c, side, page);
	struct tlb_ctx t = side_ctx(c, side, page);
	struct mp_mem_req req = { .bytes = top * page, .align = 4096, .page = want,
				  .exec = side == MP_KIND_INSTRUCTION };
	struct mp_mem m;
	int32_t n = 0;

	if (top < 2 * TLB_MIN_PAGES || mp_probe_alloc_req(c, &req, &m) != MP_OK)
		return -1;
	t.m = &m;
	if (m.page_bytes != page)
		mp_tlb_note(&t, "pages of this size could not be mapped; not measured");
	else if (t1_sweep(&t, top, name, &o) != MP_OK)
		mp_probe_fail(c, "the platform could not run a chase");
	else {
		record_curve(&t, &o, name);
		n = levels(&t, &o);
		if (o.s.timed_out)
			mp_tlb_note(&t, "some sweep points never settled in the time allowed");
	}
	c->p->ops->mem_free(c->p, &m);
	return n;
}

void mp_tlb_test(struct mp_ctx *c, enum mp_kind side)
{
	bool data = side == MP_KIND_DATA;
	int32_t base = tlb_pass(c, side, MP_PAGE_4K, c->p->page_bytes, data ? "tlb" : "itlb");
	struct mp_buf b;

	if (c->self->status != MP_PROBE_OK)
		return;
	int32_t large = tlb_pass(c, side, MP_PAGE_2M, LARGE_PAGE, data ? "tlb-2M" : "itlb-2M");
	mp_buf_init(&b, c->self->message, sizeof(c->self->message));
	mp_buf_printf(&b, "%d levels for %lluK pages", (int)base,
		      (unsigned long long)(c->p->page_bytes >> 10));
	if (large >= 0)
		mp_buf_printf(&b, ", %d for 2M pages", (int)large);
}

void mp_probe_tlb(struct mp_ctx *c)
{
	mp_tlb_test(c, MP_KIND_DATA);
}
