/* SPDX-License-Identifier: MIT */
/*
 * AMP 3.1 (line or page size from the miss rate) and 3.2 (capacity by
 * doubling, then 25% steps), refined to the exact footprint where misses
 * begin (the PAPI paper's "more refined search", section 3).
 */
#include "core/measure/capacity.h"
#include "core/probes/amp/amp.h"
#include "core/seq/refstring.h"

/*
 * 3.1: a row of the array read cold, 8-byte words in shuffled groups of
 * 4096 bytes (docs/algorithms.md, "Counter-based probes", AMP).
 */
#define ROW_BYTES (64u << 10)
#define ROW_STRIDE 8u
#define ROW_GROUP 4096u
/* 3.10: for a TLB, TLB_ROW_PAGES pages, TLB_ROW_PER_PAGE accesses each. */
#define TLB_ROW_PAGES 32u
#define TLB_ROW_PER_PAGE 64u

/* 3.2: MIN_CACHE_SIZE, and the first TLB hypothesis in entries. */
#define MIN_CACHE_SIZE 1024u
#define MIN_TLB_ENTRIES 4u
/* 3.2: a footprint fails when its miss rate exceeds this fraction of one miss per line. */
#define FAIL_FRACTION 0.80
/* 3.2: between the last pass and the first failure, steps of 25%. */
#define STEP_PARTS 4u
/* Counted accesses per measurement of a large footprint, after a full priming pass. */
#define WINDOW_STEPS 4096u
/*
 * Refinement: a footprint fits when at most 1/CLEAN_DIVISOR of its accesses
 * miss (docs/algorithms.md, "Capacity grid").
 */
#define CLEAN_DIVISOR 1024u

uint64_t amp_pow2_round(double x)
{
	double p = 1.0;

	/* 2^(e + 1/2) <= x  <=>  x^2 >= 2 (2^e)^2 */
	while (x * x >= 2.0 * p * p)
		p *= 2.0;
	return (uint64_t)p;
}

enum mp_status amp_walk(struct amp *a, struct amp_chase *ch, uint64_t steps)
{
	struct mp_run r = { .op = ch->op, .start = ch->cursor, .steps = steps,
			    .region = ch->region };
	struct mp_sample s;
	enum mp_status st = mp_counter_touch(&a->k, &r, &s);

	if (st == MP_OK)
		ch->cursor = s.end;
	return st;
}

/* The misses of ch->ev in ch->steps accesses, after the preparation (NULL: none). */
static enum mp_status count_after(struct mp_counter *k, mp_counter_prep_fn prep, struct amp_chase *ch,
				  uint64_t *misses)
{
	struct mp_run r = { .op = ch->op, .start = ch->cursor, .steps = ch->steps,
			    .events = MP_EV_BIT(ch->ev), .region = ch->region };
	struct mp_sample s;
	enum mp_status st = mp_counter_count_all(k, prep, NULL, &r, &s);

	if (st != MP_OK)
		return st;
	ch->cursor = s.end;
	*misses = s.count[ch->ev];
	return MP_OK;
}

enum mp_status amp_count(struct mp_counter *k, void *chase, uint64_t *misses)
{
	return count_after(k, NULL, chase, misses);
}

enum mp_status amp_count_cold(struct mp_counter *k, void *chase, uint64_t *misses)
{
	return count_after(k, mp_counter_prep_flush, chase, misses);
}

/* ---- 3.1 ---- */

struct row {
	uint64_t bytes, stride, group;
};

static struct row row_of(const struct amp_level *l)
{
	uint64_t page = l->a->mem.page_bytes;

	if (l->tlb)
		return (struct row){ TLB_ROW_PAGES * page, page / TLB_ROW_PER_PAGE, page };
	return (struct row){ ROW_BYTES, l->a->word, ROW_GROUP };
}

struct unit_job {
	struct amp_chase ch;
	uint64_t stride;
};

/* The rounding formula of 3.1: stride x 2^floor(log2(1 / miss rate) + 0.5). */
static int64_t unit_of(uint64_t misses, const void *job)
{
	const struct unit_job *j = job;

	if (!misses)
		return MP_NA;
	return (int64_t)(j->stride * amp_pow2_round((double)j->ch.steps / (double)misses));
}

enum mp_status amp_unit(struct amp_level *l, struct mp_tally *t)
{
	struct row w = row_of(l);
	struct unit_job j = { { .steps = w.bytes / w.stride, .ev = l->ev, .region = "amp-unit",
				.op = l->a->link.op }, w.stride };
	struct mp_counter_decision d = { amp_count_cold, &j.ch, unit_of };

	t->value = MP_NA;
	if (w.bytes > l->a->mem.bytes || w.stride < l->a->word ||
	    mp_link_grouped(&l->a->link, &l->a->mem, w.bytes, w.stride, w.group, &l->a->g,
			    &j.ch.cursor) != MP_OK)
		return MP_OK;
	d.arg = &j;
	return mp_counter_decide(&l->a->k, &d, t);
}

void amp_weakest(struct mp_tally *acc, const struct mp_tally *t)
{
	if (acc->of == 0 || t->votes < acc->votes) {
		acc->votes = t->votes;
		acc->of = t->of;
	}
}

/* ---- 3.2 ---- */

/* What the footprints tried so far say: the largest that fit, the smallest that did not. */
struct search {
	struct mp_capacity cap;
	struct mp_tally sure;    /* the least sure decision */
};

enum fit { FITS = 0, SOME_MISS, FAILS };

static int64_t fit_of(uint64_t misses, const void *chase)
{
	const struct amp_chase *ch = chase;

	if ((double)misses > FAIL_FRACTION * (double)ch->steps)
		return FAILS;
	return misses > ch->steps / CLEAN_DIVISOR ? SOME_MISS : FITS;
}

/* One footprint: a shuffled cycle of its lines (pages), primed, then decided. */
static enum mp_status try_footprint(struct amp_level *l, uint64_t bytes, struct search *s,
				    bool *fails)
{
	uint64_t n = bytes / l->unit;
	struct amp_chase ch = { .ev = l->ev, .region = "amp-capacity", .op = l->a->link.op };
	struct mp_counter_decision d = { amp_count, &ch, fit_of };
	struct mp_tally t;
	enum mp_status st = mp_link_grouped(&l->a->link, &l->a->mem, n * l->unit, l->unit,
					    l->unit, &l->a->g, &ch.cursor);

	if (st != MP_OK)
		return st;
	ch.steps = n < WINDOW_STEPS ? n : WINDOW_STEPS;
	/* From empty sets (AMP 3.1 step 1): a pseudo-LRU set that keeps stale
	 * lines may never take all of a working set it could hold. */
	st = mp_counter_flush(&l->a->k);
	if (st == MP_OK)
		st = amp_walk(l->a, &ch, n);
	if (st == MP_OK)
		st = mp_counter_decide(&l->a->k, &d, &t);
	if (st != MP_OK)
		return st;
	amp_weakest(&s->sure, &t);
	*fails = t.value == FAILS;
	if (t.value == FITS && bytes > s->cap.clean)
		s->cap.clean = bytes;
	if (t.value != FITS && bytes < s->cap.dirty)
		s->cap.dirty = bytes;
	return MP_OK;
}

uint64_t amp_grid(const struct amp_level *l, uint64_t bytes)
{
	return mp_capacity_grid(bytes, l->unit);
}

struct refinement {
	struct amp_level *l;
	struct search *s;
};

/* One footprint of the refinement (an mp_capacity_try_fn). */
static enum mp_status try_one(void *arg, struct mp_capacity *cap, uint64_t bytes)
{
	struct refinement *rf = arg;
	bool fails;

	(void)cap;      /* rf->s->cap itself */
	return try_footprint(rf->l, bytes, rf->s, &fails);
}

static uint64_t first_hypothesis(const struct amp_level *l)
{
	return l->tlb ? MIN_TLB_ENTRIES * l->unit
		      : (MIN_CACHE_SIZE > l->unit ? MIN_CACHE_SIZE : l->unit);
}

/* Doubling until a footprint fails: pass = the last that did not. */
static enum mp_status double_up(struct amp_level *l, struct search *s, uint64_t *pass,
				uint64_t *fail)
{
	uint64_t f = first_hypothesis(l);
	bool fails = false;
	enum mp_status st = MP_OK;

	*pass = 0;
	while (st == MP_OK && f <= l->a->mem.bytes) {
		st = try_footprint(l, f, s, &fails);
		if (fails)
			break;
		*pass = f;
		f *= 2;
	}
	*fail = fails ? f : 0;
	return st;
}

enum mp_status amp_boundary(struct amp_level *l, struct mp_tally *t)
{
	struct search s = { { 0, UINT64_MAX, l->unit }, mp_tally_none() };
	struct refinement rf = { l, &s };
	uint64_t size;
	uint64_t pass, fail;
	bool fails = false;
	enum mp_status st = double_up(l, &s, &pass, &fail);

	for (unsigned q = 1; st == MP_OK && fail && q < STEP_PARTS && !fails; q++) {
		uint64_t f = pass + (fail - pass) / STEP_PARTS * q;

		st = try_footprint(l, f - f % l->unit, &s, &fails);
	}
	*t = s.sure;
	t->value = MP_NA;
	if (st != MP_OK || !fail)
		return st;
	if (s.cap.clean == 0 || s.cap.dirty == UINT64_MAX)
		return t->value = (int64_t)pass, MP_OK;
	st = mp_capacity_refine(&s.cap, try_one, &rf, &size);
	t->value = (int64_t)size;
	t->votes = s.sure.votes;
	t->of = s.sure.of;
	return st;
}
