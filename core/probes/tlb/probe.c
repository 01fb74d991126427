/* SPDX-License-Identifier: MIT */
/*
 * The TLB test (Cooper-Xu 3.4): T(1,k), one line in each of k pages, swept
 * over k with the discipline of the multi-level test; its transitions are
 * suspects, each confirmed only if T(2,k), T(3,k) and T(4,k) rise at the
 * same number of pages (on fetches as fetch.c says).  Each confirmed
 * level's entries are refined to the page; its miss penalty is the rise;
 * its page size and associativity come from X-Ray's compact sets (geom.c).
 * The test runs on base pages and, where the platform maps them, on 2M
 * pages.  docs/algorithms.md, "TLBs".
 */
#include "core/lib/buf.h"
#include "core/measure/footprint.h"
#include "core/measure/steps.h"
#include "core/measure/timing.h"
#include "core/probes/probes.h"
#include "core/probes/tlb/tlb.h"

/*
 * Largest: TLB_TOP_FACTOR times the largest documented data TLB, at least
 * tlb_top_least[profile] pages and at most half the arena; TLB_TOP_DEFAULT
 * pages when nothing is documented.  The full profile's least is twice the
 * largest second-level TLB known (Zen 5's 4096 entries): a documented size
 * may be short of the truth (this project's Zen 5 class guest's CPUID gives
 * an L2 DTLB of 128 entries, and the sweep to 2048 pages never saw its
 * 4096; test_probe_tlb's "understated-stlb" lost it so).  The quick
 * profile's, Cooper-Xu's 8M of 4K pages, keeps its time: to 16384 pages
 * its two rounds took that guest 1.5 s more, for a level whose plateau
 * above the sweep did not reach in most rounds.
 */
#define TLB_TOP_FACTOR 4u
#define TLB_TOP_DEFAULT 16384u
static const uint64_t tlb_top_least[] = { [MP_PROFILE_QUICK] = 2048, [MP_PROFILE_FULL] = 8192 };
/* Line counts of Cooper-Xu's confirmation strings T(2,k) .. T(4,k). */
#define TLB_CONFIRM_LINES 4u
/* Grid steps between a suspect and the points of its confirmation. */
#define TLB_CONFIRM_AWAY 2
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

bool mp_tlb_time_now(struct tlb_ctx *t, uint64_t pages, uint64_t per_page, double *ticks)
{
	struct mp_ref_pages s = tstring(t, pages, per_page);

	return mp_tlb_time(t, &s, ticks) == MP_OK;
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

static enum mp_status t1_sweep(struct tlb_ctx *t, uint64_t top, const char *what,
			       struct tlb_sweep *o)
{
	uint64_t x[MP_SWEEP_MAX];
	double xd[MP_SWEEP_MAX];
	struct tlb_run run = { .t = t, .per_page = 1 };
	uint32_t n = mp_footprint_grid(MP_TLB_MIN_PAGES, top, 1, x, MP_SWEEP_MAX);
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
uint64_t mp_tlb_confirm_point(const struct tlb_sweep *o, int32_t k, bool above)
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
 * PIECES: on large pages, T(2,k) already misses where T(1,k) fits the
 * first level: the TLB holds pieces of a page rather than pages
 * (docs/algorithms.md, "TLBs", large pages).
 */
static enum tlb_verdict confirmed(struct tlb_ctx *t, const struct tlb_sweep *o, int32_t k)
{
	uint64_t lo = mp_tlb_confirm_point(o, k, false), hi = mp_tlb_confirm_point(o, k, true);
	double below = o->steps.plateau[k].high;
	double rise1 = o->steps.plateau[k + 1].level - below;

	if (t->side == MP_KIND_INSTRUCTION)
		return mp_tlb_confirmed_code(t, o, k);
	for (uint64_t n = 2; n <= TLB_CONFIRM_LINES; n++) {
		double ta, tb;

		if (!mp_tlb_time_now(t, lo, n, &ta) || !mp_tlb_time_now(t, hi, n, &tb))
			return NOT_TLB;
		if (n == 2 && k == 0 && t->page >= LARGE_PAGE &&
		    ta - below >= MP_TLB_CONFIRM_FRAC * rise1)
			return PIECES;
		if (tb - ta < MP_TLB_CONFIRM_FRAC * rise1 ||
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

static struct fit_rule fit_rule(struct tlb_ctx *t, const struct tlb_sweep *o, int32_t k)
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
static uint64_t bound_of(const struct tlb_sweep *o, int32_t u)
{
	int32_t above = o->steps.plateau[u].first + 1;

	return o->s.x[above < (int32_t)o->s.n ? above : (int32_t)o->s.n - 1];
}

static uint64_t top_pages(const struct mp_ctx *c, enum mp_kind side, uint64_t page)
{
	uint64_t doc = mp_tlb_documented_entries(c->r, side, page), top = TLB_TOP_DEFAULT;
	uint64_t room = (page >= LARGE_PAGE ? c->cfg->arena_bytes : c->cfg->arena_bytes / 2) / page;
	uint64_t least = tlb_top_least[c->cfg->profile];

	if (doc)
		top = doc * TLB_TOP_FACTOR > least ? doc * TLB_TOP_FACTOR : least;
	return top < room ? top : room;
}

static void record_curve(struct tlb_ctx *t, const struct tlb_sweep *o, const char *name)
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
static bool one_level(const struct tlb_sweep *o, const enum tlb_verdict *v, int32_t u,
		      uint64_t entries)
{
	return mp_tlb_is_level(v[u]) && o->s.x[o->steps.plateau[u].last] < 2 * entries;
}

/* Step k as a level: its entries as the sweep saw them, and the most it can rise. */
struct tlb_level mp_tlb_step_level(const struct tlb_sweep *o, int32_t k)
{
	const struct mp_plateau *p = &o->steps.plateau[k];

	return (struct tlb_level){ .entries = o->s.x[p->last], .below = p->high,
				   .above = mp_steps_highest_after(&o->steps, k) };
}

/* Confirm every step of the curve (Cooper-Xu's T(2..4,k)) into v[]. */
static void confirm_all(struct tlb_ctx *t, const struct tlb_sweep *o, enum tlb_verdict *v)
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
			said = mp_tlb_say_rejected(t, o, k, v[k]);
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
static struct search search_from(struct tlb_ctx *t, const struct tlb_sweep *o, int32_t u,
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
static struct search search_now(struct tlb_ctx *t, const struct tlb_sweep *o, int32_t k)
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
static uint64_t entries(struct tlb_ctx *t, const struct tlb_sweep *o, int32_t u, uint64_t lo,
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
static bool level_of(struct tlb_ctx *t, const struct tlb_sweep *o, const enum tlb_verdict *v,
		     struct tlb_level *lv, int32_t n, struct search *s, int32_t *u)
{
	*u = s->u;
	lv[n].entries = s->lo;
	while (*u < o->steps.nsteps && one_level(o, v, *u, lv[n].entries))
		lv[n].entries = entries(t, o, ++*u, lv[n].entries, &s->f);
	lv[n].below = o->steps.plateau[s->k].high;
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
static bool may_be_level(struct tlb_ctx *t, const struct tlb_sweep *o, int32_t k)
{
	struct tlb_level lv = mp_tlb_step_level(o, k);

	return !mp_tlb_too_small(t, &lv);
}

/*
 * Measure and record every level the confirmed steps show: each searched
 * now, then the tries over time of all together, then each level in turn.
 * A step that turns out one level with the step before it is not a level
 * of its own (its search is dropped); none above a step that may hide a
 * level is searched, and none from a level below which one hides up is
 * recorded.
 */
static int32_t levels(struct tlb_ctx *t, const struct tlb_sweep *o)
{
	static struct search s[MP_STEPS_MAX];
	struct tlb_level lv[MP_STEPS_MAX] = { 0 };
	enum tlb_verdict v[MP_STEPS_MAX];
	int32_t n = 0, ns = 0, u = 0, hide;

	confirm_all(t, o, v);
	hide = mp_tlb_first_hiding(t, o, v);
	mp_tlb_say_unnumbered(t, o, v, hide);
	for (int32_t k = 0; k < hide && ns < MP_STEPS_MAX; k++)
		if (mp_tlb_is_level(v[k]) && may_be_level(t, o, k))
			s[ns++] = search_now(t, o, k);
	joint_tries(t, s, ns);
	for (int32_t i = 0; i < ns && n < MP_STEPS_MAX; i++) {
		if (s[i].k < u)
			continue;            /* one level with the one before */
		if (mp_tlb_hidden_below(t, o, s[i].k, n ? lv[n - 1].entries : 0))
			break;
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
	static struct tlb_sweep o;
	uint64_t top = top_pages(c, side, page);
	struct tlb_ctx t = side_ctx(c, side, page);
	struct mp_mem_req req = { .bytes = top * page, .align = 4096, .page = want,
				  .exec = side == MP_KIND_INSTRUCTION };
	struct mp_mem m;
	int32_t n = 0;

	if (top < 2 * MP_TLB_MIN_PAGES || mp_probe_alloc_req(c, &req, &m) != MP_OK)
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
