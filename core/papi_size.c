/* SPDX-License-Identifier: MIT */
/*
 * papi_cacheSize (PAPI paper, sections 2 and 3): footprints growing by
 * powers of two, every level's misses counted in the same runs ("a sharp
 * increase in the number of cache misses occurs when the cache size is
 * exceeded"), then for each level "a more refined search to pinpoint the
 * exact array size where the change in cache or TLB misses occurs".
 *
 * The paper reads the array at stride one; here every element is one
 * smallest line (a page for a TLB), since the other words of a line only
 * add hits, and the elements come in shuffled order, so that no prefetcher
 * hides a miss.
 */
#include "core/cstring.h"
#include "core/papi.h"

#define FIRST_FOOTPRINT 1024u
/* Accesses counted per footprint after a priming pass. */
#define SIZE_STEPS 4096u
/* A footprint fits a level while at most 1/1024 of its accesses miss there. */
#define CLEAN_DIVISOR 1024u
/* Capacities are multiples of 1/64 of the largest power of two below them
 * (ways x sets x line, sets a power of two, ways below 128); the search
 * stops at a quarter of that and rounds. */
#define GRID_DIVISOR 64u
#define GRID_STOP 4u

struct footprint {
	struct papi *p;
	void *start;
	uint64_t n;            /* elements */
	uint32_t events;
};

/* A shuffled cycle over `bytes`, primed from empty sets. */
static enum mp_status prime(struct papi *p, struct footprint *f, uint64_t bytes)
{
	struct mp_run r = { .op = MP_OP_CHASE, .region = "papi-size" };
	enum mp_status st;

	f->n = bytes / p->elem;
	f->start = mp_cs_grouped(p->mem.base, f->n * p->elem, p->elem, p->elem, &p->g);
	r.start = f->start;
	r.steps = f->n;
	st = mp_cnt_flush(&p->k);
	return st == MP_OK ? mp_cnt_touch(&p->k, &r, NULL) : st;
}

/* The minimum over MP_CNT_REPS counted runs of each event's misses. */
static enum mp_status counts(struct footprint *f, uint64_t steps, uint64_t min[MP_EV_COUNT])
{
	struct mp_run r = { .op = MP_OP_CHASE, .start = f->start, .steps = steps,
			    .events = f->events, .region = "papi-size" };
	enum mp_status st = MP_OK;
	struct mp_sample s;

	for (unsigned e = 0; e < MP_EV_COUNT; e++)
		min[e] = UINT64_MAX;
	for (unsigned i = 0, zero = 0; i < MP_CNT_REPS && st == MP_OK && !zero; i++) {
		st = mp_cnt_count(&f->p->k, &r, &s);
		r.start = s.end;
		zero = 1;        /* every minimum 0: none can fall further */
		for (unsigned e = 0; e < MP_EV_COUNT && st == MP_OK; e++) {
			min[e] = s.count[e] < min[e] ? s.count[e] : min[e];
			zero &= !(f->events & MP_EV_BIT(e)) || min[e] == 0;
		}
	}
	f->start = r.start;
	return st;
}

static bool clean(uint64_t misses, uint64_t steps)
{
	return misses <= steps / CLEAN_DIVISOR;
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
	struct footprint f = { p, NULL, 0, 0 };
	uint64_t min[MP_EV_COUNT], steps;
	enum mp_status st;

	for (unsigned i = 0; i < n; i++)
		f.events |= MP_EV_BIT(lv[i].ev);
	st = prime(p, &f, bytes);
	steps = f.n < SIZE_STEPS ? f.n : SIZE_STEPS;
	if (st == MP_OK)
		st = counts(&f, steps, min);
	f.events = 0;
	for (unsigned i = 0; i < n && st == MP_OK; i++) {
		struct mp_curve *c = curves ? curves[i] : NULL;

		if (c)
			mp_curve_add_point(c, (double)bytes, (double)min[lv[i].ev] / (double)steps);
		if (!clean(min[lv[i].ev], steps) || steps == f.n)
			record(&lv[i], bytes, min[lv[i].ev], steps);
		else    /* a clean window is no proof: a whole pass decides */
			f.events |= MP_EV_BIT(lv[i].ev);
	}
	if (st == MP_OK && f.events)
		st = counts(&f, f.n, min);
	for (unsigned i = 0; i < n && st == MP_OK && f.events; i++)
		if (f.events & MP_EV_BIT(lv[i].ev))
			record(&lv[i], bytes, min[lv[i].ev], f.n);
	return st;
}

static uint64_t grid(const struct papi *p, uint64_t bytes)
{
	uint64_t g = 1;

	while (g <= bytes / 2)
		g *= 2;
	g /= GRID_DIVISOR;
	return g > p->elem ? g - g % p->elem : p->elem;
}

/* Bisect one level between its largest clean and smallest dirty footprint. */
static enum mp_status refine(struct papi *p, struct papi_level *l)
{
	enum mp_status st = MP_OK;
	uint64_t g;

	while (st == MP_OK && l->dirty - l->clean > grid(p, l->clean) / GRID_STOP &&
	       l->dirty - l->clean > p->elem) {
		uint64_t mid = (l->clean + l->dirty) / 2;

		st = try_footprint(p, l, 1, mid - mid % p->elem, NULL);
	}
	g = grid(p, l->clean);
	l->size = (l->clean + g / 2) / g * g;
	l->sure[0] = (struct mp_cnt_tally){ (int64_t)l->size, 1, 1 };
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
	}
	return st;
}
