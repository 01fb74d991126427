/* SPDX-License-Identifier: MIT */
/*
 * The "amp" probe: every cache level whose misses the platform counts (L1D
 * to L4) and every data TLB level (DTLB1, DTLB2, for each page size the
 * platform maps), measured with AMP's algorithms (core/amp.h), every value
 * voted on.  Level by level from the top, so that each knows what the
 * levels above hold.
 */
#include "core/amp.h"
#include "core/buf.h"
#include "core/probes.h"
#include "core/str.h"

/* "The array" (AMP 3): three quarters of the arena, for the largest
 * footprint tried (3.3 spans twice the capacity). */
#define ARRAY_PARTS 4u
#define ARRAY_SHARE 3u
/* TLB footprints stop at this many pages (no TLB we know has 8K entries). */
#define TLB_MAX_PAGES 16384u

static const struct {
	enum mp_event ev;
	int32_t level;
	bool tlb;
} levels[] = {
	{ MP_EV_L1D_MISS, 1, false }, { MP_EV_L2_MISS, 2, false },
	{ MP_EV_L3_MISS, 3, false },  { MP_EV_L4_MISS, 4, false },
	{ MP_EV_DTLB1_MISS, 1, true }, { MP_EV_DTLB2_MISS, 2, true },
};
#define NLEVELS (sizeof(levels) / sizeof(levels[0]))

/* The page sizes to ask for: the platform maps the nearest it can (the base page first). */
static const enum mp_page tlb_pages[] = { MP_PAGE_4K, MP_PAGE_2M, MP_PAGE_1G };
#define NPAGES (sizeof(tlb_pages) / sizeof(tlb_pages[0]))

/* What one level's votes decided, recorded once its type is known. */
struct decided {
	struct mp_cnt_tally t[MP_PARAM_COUNT];
	bool have[MP_PARAM_COUNT];
};

static void note(struct amp *a, const struct amp_level *l, const char *what)
{
	char text[MP_TEXT_LEN];

	mp_snprintf(text, sizeof(text), "amp: L%d %s: %s", (int)l->level, l->tlb ? "DTLB" : "cache",
		    what);
	mp_result_add_note(a->c->r, text);
}

typedef enum mp_status (*algorithm)(struct amp_level *l, struct mp_cnt_tally *t);

/* Say what one algorithm decided, and what it cost. */
static void tell(const struct amp_level *l, enum mp_param p, const struct mp_cnt_tally *t,
		 uint64_t accesses)
{
	char text[MP_TEXT_LEN];

	mp_snprintf(text, sizeof(text), "amp: L%d %s %s: %lld (%d/%d votes, %llu accesses)",
		    (int)l->level, l->tlb ? "DTLB" : "cache", mp_param_name(p),
		    (long long)t->value, (int)t->votes, (int)t->of, (unsigned long long)accesses);
	mp_log(l->a->c->p, MP_LOG_INFO, text);
}

/* Run one algorithm; true when it decided and the counter stayed sane. */
static bool vote(struct amp_level *l, algorithm f, enum mp_param p, struct decided *d)
{
	uint64_t before = l->a->k.accesses;
	enum mp_status st = f(l, &d->t[p]);

	tell(l, p, &d->t[p], l->a->k.accesses - before);
	if (st != MP_OK && st != MP_ENOMEM)
		mp_probe_fail(l->a->c, "the platform could not run an experiment");
	d->have[p] = st == MP_OK && d->t[p].value != MP_NA && mp_cnt_has(&l->a->k, l->ev);
	return d->have[p];
}

static void record(struct amp *a, const struct amp_level *l, enum mp_kind type,
		   const struct decided *d)
{
	struct mp_structure s = { l->level, type, l->tlb, l->tlb ? (int64_t)a->mem.page_bytes
								 : MP_NA };

	for (int p = 0; p < MP_PARAM_COUNT; p++) {
		struct mp_counted *c;

		if (!d->have[p])
			continue;
		c = mp_result_add_counted(a->c->r, "amp", &s, (enum mp_param)p);
		if (!c)
			return;
		c->value = d->t[p].value;
		c->votes = d->t[p].votes;
		c->of = d->t[p].of;
	}
}

/* 3.1 then 3.2: unit and capacity; false when either is missing. */
static bool unit_and_size(struct amp_level *l, struct decided *d)
{
	enum mp_param size = l->tlb ? MP_PARAM_ENTRIES : MP_PARAM_SIZE;
	bool ok = false;

	if (!vote(l, amp_unit, l->tlb ? MP_PARAM_PAGE : MP_PARAM_LINE, d))
		return note(l->a, l, "no line or page size from the miss rate"), false;
	l->unit = (uint64_t)d->t[l->tlb ? MP_PARAM_PAGE : MP_PARAM_LINE].value;
	if (!vote(l, amp_boundary, size, d))
		return note(l->a, l, "no footprint within the array thrashed it"), false;
	l->boundary = (uint64_t)d->t[size].value;
	if (amp_settle_size(l, &ok) != MP_OK || !ok)
		note(l->a, l, "no associativity explains its capacity; the capacity is its boundary");
	d->t[size].value = (int64_t)(l->tlb ? l->size / l->unit : l->size);
	if (l->exclusive)
		note(l->a, l, "its misses begin only when it and the levels above are full (an "
				 "exclusive or non-inclusive level): capacity from 3.3");
	return true;
}

/* L1 counts data misses; below it, 3.6 tells data from unified. */
static enum mp_kind level_type(struct amp_level *l)
{
	struct mp_cnt_tally t;

	if (l->level == 1)
		return MP_KIND_DATA;
	if (amp_unified(l, &t) == MP_OK && t.value != MP_NA)
		return (enum mp_kind)t.value;
	note(l->a, l, l->tlb ? "no code could run between the reads (3.6): taken as data"
			     : "no code could run between the reads (3.6): taken as unified");
	return l->tlb ? MP_KIND_DATA : MP_KIND_UNIFIED;
}

/* One level, every parameter; its values go into the result. */
static bool measure_level(struct amp_level *l)
{
	struct decided d = { 0 };

	if (!unit_and_size(l, &d))
		return false;
	if (vote(l, amp_ways, MP_PARAM_WAYS, &d))
		l->ways = (uint64_t)d.t[MP_PARAM_WAYS].value;
	if (!l->tlb) {
		vote(l, amp_write_allocate, MP_PARAM_WRITE_ALLOCATE, &d);
		if (l->ways)
			vote(l, amp_replacement, MP_PARAM_REPLACEMENT, &d);
	}
	record(l->a, l, level_type(l), &d);
	return true;
}

/* What the next level down needs to know of this one (its flushers, 3.3). */
static void pass_down(const struct amp_level *l, struct amp_above *up)
{
	uint64_t span = l->ways ? l->size / l->ways : 0;

	up->span = span > up->span ? span : up->span;
	up->ways = l->ways > up->ways ? l->ways : up->ways;
	up->held = l->boundary;
	up->ev = l->ev;
}

/* The levels of one kind (caches, or the TLBs of one page size), top down. */
static unsigned measure_levels(struct amp *a, bool tlb, enum mp_page page)
{
	struct amp_above up = { 0, 0, 0, MP_EV_COUNT };
	unsigned done = 0;

	for (unsigned i = 0; i < NLEVELS && a->c->self->status == MP_PROBE_OK; i++) {
		struct amp_level l = { .a = a, .ev = levels[i].ev, .tlb = tlb,
				       .level = levels[i].level, .page = page, .above = up };

		if (levels[i].tlb != tlb || !mp_cnt_has(&a->k, l.ev))
			continue;
		a->c->p->ops->progress(a->c->p, "amp", i, NLEVELS);
		if (!measure_level(&l))
			continue;
		pass_down(&l, &up);
		done++;
	}
	return done;
}

static uint64_t array_bytes(const struct amp *a, uint64_t page)
{
	uint64_t bytes = a->c->cfg->arena_bytes / ARRAY_PARTS * ARRAY_SHARE;

	if (page && bytes > (uint64_t)TLB_MAX_PAGES * page)
		bytes = (uint64_t)TLB_MAX_PAGES * page;
	return bytes - bytes % (page ? page : 4096);
}

static unsigned measure_caches(struct amp *a)
{
	unsigned n;

	if (!(a->k.events & MP_CNT_CACHE_EVENTS))
		return 0;
	if (mp_probe_alloc(a->c, array_bytes(a, 0), MP_PAGE_2M, &a->mem) != MP_OK)
		return 0;
	n = measure_levels(a, false, MP_PAGE_2M);
	a->c->p->ops->mem_free(a->c->p, &a->mem);
	return n;
}

/* The array for one page size; false when the platform maps no new page size for it. */
static bool open_pages(struct amp *a, unsigned i, uint64_t *seen, unsigned nseen)
{
	struct mp_platform *p = a->c->p;
	struct mp_mem_req req = { .bytes = array_bytes(a, 4096), .align = 4096,
				  .page = tlb_pages[i] };
	uint64_t page;

	if (p->ops->mem_alloc(p, &req, &a->mem) != MP_OK)
		return false;
	for (unsigned j = 0; j < nseen; j++)
		if (seen[j] == a->mem.page_bytes)
			return p->ops->mem_free(p, &a->mem), false;
	/* Now that the page size is known: as many pages as the arena allows. */
	page = a->mem.page_bytes;
	p->ops->mem_free(p, &a->mem);
	req.bytes = array_bytes(a, page);
	req.align = page;
	return req.bytes >= page && p->ops->mem_alloc(p, &req, &a->mem) == MP_OK &&
	       a->mem.page_bytes == page;
}

/* The data TLBs for each page size the platform maps. */
static unsigned measure_tlbs(struct amp *a)
{
	uint64_t seen[NPAGES];
	unsigned n = 0, nseen = 0;

	for (unsigned i = 0; i < NPAGES && (a->k.events & MP_CNT_TLB_EVENTS); i++) {
		if (!open_pages(a, i, seen, nseen))
			continue;
		seen[nseen++] = a->mem.page_bytes;
		n += measure_levels(a, true, tlb_pages[i]);
		a->c->p->ops->mem_free(a->c->p, &a->mem);
	}
	return n;
}

static struct amp amp;

void mp_probe_amp(struct mp_ctx *c)
{
	struct amp *a = &amp;
	enum mp_status st;
	unsigned caches, tlbs;

	mp_memset(a, 0, sizeof(*a));
	a->c = c;
	mp_rng_seed(&a->g, c->cfg->seed);
	st = mp_cnt_open(&a->k, c);
	if (st == MP_UNSUPPORTED)
		return mp_probe_unsupported(c, "the platform counts no cache or TLB miss "
					       "events; the timing probes measure instead");
	if (st != MP_OK)
		return mp_probe_fail(c, "the counters could not be set up");
	caches = measure_caches(a);
	tlbs = measure_tlbs(a);
	mp_cnt_close(&a->k);
	if (c->self->status == MP_PROBE_OK)
		mp_snprintf(c->self->message, sizeof(c->self->message),
			    "%u cache and %u TLB levels, %llu counted runs", caches, tlbs,
			    (unsigned long long)a->k.counted);
}
