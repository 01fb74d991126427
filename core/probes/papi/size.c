/* SPDX-License-Identifier: MIT */
/*
 * papi_cacheSize (PAPI paper, sections 2 and 3): footprints growing by
 * powers of two, every level's misses counted in the same runs, then for
 * each level "a more refined search" for the footprint where its misses
 * begin.  One element per smallest line (a page for a TLB), in shuffled
 * order.  docs/algorithms.md, "Counter-based probes", PAPI.
 */
#include "core/measure/capacity.h"
#include "core/probes/papi/papi.h"
#include "core/seq/refstring.h"

#define FIRST_FOOTPRINT 1024u
/* Accesses counted per footprint after a priming pass. */
#define SIZE_STEPS 4096u
/*
 * Counted runs of a whole pass: it has n/1024 misses of slack, where noise
 * adds a few lines per disturbance (docs/algorithms.md, "Counter-based
 * probes", PAPI).
 */
#define WHOLE_REPS 2u
/* A footprint fits a level while at most 1/1024 of its accesses miss there. */
#define CLEAN_DIVISOR 1024u
/* The edge is checked again from 1/EDGE_SHIFT_PARTS into the array. */
#define EDGE_SHIFT_PARTS 4u

struct footprint {
	struct papi *p;
	void *start;           /* a shuffled cycle through the footprint */
	uint64_t n;            /* elements */
	uint64_t steps;        /* accesses per counted run */
	unsigned reps;         /* counted runs per pass */
	bool settle;           /* a whole pass: stop once every minimum is clean */
};

/* The cycle walked once from empty sets. */
static enum mp_status prime(struct mp_counter *k, const struct footprint *f)
{
	struct mp_run r = { .op = MP_OP_CHASE, .start = f->start, .steps = f->n,
			    .region = "papi-size" };
	enum mp_status st = mp_counter_flush(k);

	return st == MP_OK ? mp_counter_touch(k, &r, NULL) : st;
}

static bool clean(uint64_t misses, uint64_t steps)
{
	return misses <= steps / CLEAN_DIVISOR;
}

/*
 * A pass: primed, then the minimum over f->reps counted runs of each
 * event's misses; a whole pass (f->settle) stops once every minimum is
 * clean: no further run can make it dirty.
 */
static enum mp_status counts(struct mp_counter *k, void *footprint, uint32_t events,
			     struct mp_sample *min)
{
	struct footprint *f = footprint;
	struct mp_run r = { .op = MP_OP_CHASE, .start = f->start, .steps = f->steps,
			    .events = events, .region = "papi-size" };
	enum mp_status st = prime(k, f);
	struct mp_sample s;

	*min = (struct mp_sample){ .valid = events };
	for (unsigned e = 0; e < MP_EV_COUNT; e++)
		min->count[e] = UINT64_MAX;
	for (unsigned i = 0, done = 0; i < f->reps && st == MP_OK && !done; i++) {
		st = mp_counter_count(k, &r, &s);
		r.start = s.end;
		min->valid &= s.valid;
		done = 1;        /* every minimum 0 (or clean, settling): none can fall further */
		for (unsigned e = 0; e < MP_EV_COUNT && st == MP_OK; e++) {
			min->count[e] = s.count[e] < min->count[e] ? s.count[e] : min->count[e];
			done &= !(min->valid & MP_EV_BIT(e)) || min->count[e] == 0 ||
				(f->settle && clean(min->count[e], f->steps));
		}
	}
	min->end = r.start;
	return st;
}

static void record(struct papi_level *l, uint64_t bytes, uint64_t misses, uint64_t steps)
{
	if (clean(misses, steps) && bytes > l->clean && (!l->dirty || bytes < l->dirty))
		l->clean = bytes;
	if (!clean(misses, steps) && (!l->dirty || bytes < l->dirty))
		l->dirty = bytes;
}

/* One footprint for the given levels: windows, then a full pass where a window was clean. */
static enum mp_status try_footprint(struct papi *p, struct papi_level *lv, unsigned n,
				    uint64_t bytes, struct mp_curve **curves)
{
	struct footprint f = { p, NULL, bytes / p->elem, 0, MP_COUNTER_REPS, false };
	uint32_t events = 0, whole = 0;
	struct mp_sample min;
	enum mp_status st;

	for (unsigned i = 0; i < n; i++)
		events |= MP_EV_BIT(lv[i].ev);
	f.start = mp_ref_grouped(p->mem.base, f.n * p->elem, p->elem, p->elem, &p->g);
	f.steps = f.n < SIZE_STEPS ? f.n : SIZE_STEPS;
	st = mp_counter_passes(&p->k, counts, &f, events, &min);
	for (unsigned i = 0; i < n && st == MP_OK; i++) {
		struct mp_curve *c = curves ? curves[i] : NULL;
		uint64_t misses = min.count[lv[i].ev];

		if (c)
			mp_curve_add_point(c, (double)bytes, (double)misses / (double)f.steps);
		if (!clean(misses, f.steps) || f.steps == f.n)
			record(&lv[i], bytes, misses, f.steps);
		else    /* a clean window is no proof: a whole pass decides */
			whole |= MP_EV_BIT(lv[i].ev);
	}
	f.steps = f.n;
	f.reps = WHOLE_REPS;
	f.settle = true;
	if (st == MP_OK && whole)
		st = mp_counter_passes(&p->k, counts, &f, whole, &min);
	for (unsigned i = 0; i < n && st == MP_OK && whole; i++)
		if (whole & MP_EV_BIT(lv[i].ev))
			record(&lv[i], bytes, min.count[lv[i].ev], f.n);
	return st;
}

struct refinement {
	struct papi *p;
	struct papi_level *l;
};

/* One footprint of the refinement (an mp_capacity_try_fn). */
static enum mp_status try_one(void *arg, struct mp_capacity *s, uint64_t bytes)
{
	struct refinement *rf = arg;
	enum mp_status st = try_footprint(rf->p, rf->l, 1, bytes, NULL);

	s->clean = rf->l->clean;
	s->dirty = rf->l->dirty;
	return st;
}

/* Bisect one level between its largest clean and smallest dirty footprint. */
static enum mp_status refine(struct papi *p, struct papi_level *l)
{
	struct mp_capacity s = { .clean = l->clean, .dirty = l->dirty, .unit = p->elem };
	struct refinement rf = { p, l };
	enum mp_status st = mp_capacity_refine(&s, try_one, &rf, &l->size);

	l->sure[0] = mp_tally_single((int64_t)l->size);
	return st;
}

/*
 * The edge found again from a quarter into the array: its largest clean
 * and smallest dirty footprint must stay so.  A hashed index whose slice
 * function is not linear fills its slices unevenly by an amount that
 * depends on where contiguous memory starts: there the edge moves, lies
 * below the capacity, and is not told (docs/algorithms.md, "Counter-based
 * probes", hashed sets).
 */
static enum mp_status edge_holds(struct papi *p, struct papi_level *l)
{
	struct papi_level again = { .ev = l->ev, .above = l->above, .level = l->level };
	struct mp_mem whole = p->mem;
	uint64_t from = p->mem.bytes / EDGE_SHIFT_PARTS;
	enum mp_status st;

	from -= from % p->mem.page_bytes;
	if (!from || l->dirty > p->mem.bytes - from)
		return MP_OK;
	p->mem.base += from;
	p->mem.bytes -= from;
	st = try_footprint(p, &again, 1, l->clean, NULL);
	if (st == MP_OK)
		st = try_footprint(p, &again, 1, l->dirty, NULL);
	p->mem = whole;
	l->moved = st == MP_OK && (again.clean != l->clean || again.dirty != l->dirty);
	if (l->moved)
		l->size = 0;
	return st;
}

static bool all_dirty(const struct papi_level *lv, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (!lv[i].dirty)
			return false;
	return true;
}

enum mp_status papi_cache_size(struct papi *p, struct papi_level *lv, unsigned n)
{
	enum mp_status st = MP_OK;
	uint64_t f = FIRST_FOOTPRINT > p->elem ? FIRST_FOOTPRINT : p->elem;

	for (; f <= p->mem.bytes && st == MP_OK && !all_dirty(lv, n); f *= 2)
		st = try_footprint(p, lv, n, f, p->curve);
	for (unsigned i = 0; i < n && st == MP_OK; i++) {
		lv[i].size = 0;
		if (lv[i].dirty && lv[i].clean)
			st = refine(p, &lv[i]);
		if (st == MP_OK && lv[i].size && !lv[i].tlb)
			st = edge_holds(p, &lv[i]);
	}
	return st;
}
