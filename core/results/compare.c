/* SPDX-License-Identifier: MIT */
/*
 * The counter probes' values (result.counted[]) and how they meet the
 * timing probes' records: the merge into caches[] and tlbs[], the
 * comparisons[] table and the notes on disagreements (core/results/result.h).
 *
 * Counter values are the direct measure (PAPI paper, section 2: misses are
 * counted, not inferred from time), so where timing and counters disagree
 * the counters' value is kept; the comparison and a note keep timing's.
 */
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/results/result.h"


/* ---- the merge ---- */

/* The timing probes' records as they were before the merge. */
struct before {
	int32_t ncaches, ntlbs;
	struct mp_cache caches[MP_MAX_CACHES];
	struct mp_tlb tlbs[MP_MAX_TLBS];
	bool agreed[MP_MAX_CACHES + MP_MAX_TLBS];
	bool differed[MP_MAX_CACHES + MP_MAX_TLBS];
	bool added[MP_MAX_CACHES + MP_MAX_TLBS];
};

static void *find_record(struct mp_result *r, const struct mp_structure *s, int32_t *idx)
{
	for (int32_t i = 0; !s->tlb && i < mp_count(r->ncaches, MP_MAX_CACHES); i++)
		if (r->caches[i].level == s->level && r->caches[i].type == s->type)
			return *idx = i, &r->caches[i];
	for (int32_t i = 0; s->tlb && i < mp_count(r->ntlbs, MP_MAX_TLBS); i++) {
		const struct mp_tlb *t = &r->tlbs[i];

		if (t->level == s->level && t->type == s->type && t->page_bytes == s->page_bytes)
			return *idx = MP_MAX_CACHES + i, &r->tlbs[i];
	}
	return NULL;
}

/* The record for s, added (and named) when timing made none. */
static void *record_for(struct mp_result *r, const struct mp_structure *s, int32_t *idx)
{
	void *rec = find_record(r, s, idx);

	if (rec)
		return rec;
	if (s->tlb) {
		struct mp_tlb *t = mp_result_add_tlb(r);

		if (!t)
			return NULL;
		t->level = s->level;
		t->type = s->type;
		t->page_bytes = s->page_bytes;
		*idx = MP_MAX_CACHES + (int32_t)(t - r->tlbs);
		return t;
	}
	struct mp_cache *c = mp_result_add_cache(r);

	if (!c)
		return NULL;
	c->level = s->level;
	c->type = s->type;
	*idx = (int32_t)(c - r->caches);
	return c;
}

/* Timing's value of a parameter, from the records as they were. */
static int64_t timing_value(const struct before *b, const struct mp_structure *s, enum mp_param p)
{
	for (int32_t i = 0; !s->tlb && i < b->ncaches; i++)
		if (b->caches[i].level == s->level && b->caches[i].type == s->type)
			return mp_param_get(&b->caches[i], s, p);
	for (int32_t i = 0; s->tlb && i < b->ntlbs; i++) {
		const struct mp_tlb *t = &b->tlbs[i];

		if (t->level == s->level && t->type == s->type && t->page_bytes == s->page_bytes)
			return mp_param_get(t, s, p);
	}
	return MP_NA;
}

/* The counted value that stands for its parameter: the first decided one (AMP runs first). */
static bool is_first(const struct mp_result *r, int32_t i)
{
	const struct mp_vote *c = &r->counted[i];

	for (int32_t j = 0; j < i; j++) {
		const struct mp_vote *d = &r->counted[j];

		if (d->value != MP_NA && d->param == c->param && mp_same_structure(&d->s, &c->s))
			return false;
	}
	return c->value != MP_NA;
}

static void note_pair(struct mp_result *r, const struct mp_structure *s, enum mp_param p,
		      const char *a_name, int64_t a, const char *b_name, int64_t bv,
		      const char *tail)
{
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	mp_param_label(text, sizeof(text), s, p);
	mp_buf_init(&b, text + mp_strlen(text), sizeof(text) - mp_strlen(text));
	mp_buf_printf(&b, ": %s ", a_name);
	mp_param_put(&b, p, a);
	mp_buf_printf(&b, ", %s ", b_name);
	mp_param_put(&b, p, bv);
	mp_buf_puts(&b, tail);
	mp_result_add_note(r, text);
}

static void add_comparison(struct mp_result *r, const struct mp_structure *s, enum mp_param p,
			   int64_t timing, int64_t counters)
{
	struct mp_comparison *c;

	if (r->ncomparisons < 0 || r->ncomparisons >= MP_MAX_COMPARISONS)
		return;
	c = &r->comparisons[r->ncomparisons++];
	c->s = *s;
	c->param = p;
	c->timing = timing;
	c->counters = counters;
	c->agree = timing == MP_NA || counters == MP_NA ? MP_UNKNOWN
			   : timing == counters ? MP_YES : MP_NO;
}

/* A counter probe that disagrees with the one whose value stands says so. */
static void note_probe_disagreements(struct mp_result *r, int32_t i)
{
	const struct mp_vote *c = &r->counted[i];

	for (int32_t j = i + 1; j < mp_count(r->ncounted, MP_MAX_COUNTED); j++) {
		const struct mp_vote *d = &r->counted[j];

		if (d->value != MP_NA && d->value != c->value && d->param == c->param &&
		    mp_same_structure(&d->s, &c->s))
			note_pair(r, &c->s, c->param, c->probe, c->value, d->probe, d->value, "");
	}
}

static void merge_one(struct mp_result *r, struct before *b, int32_t i, bool compare)
{
	const struct mp_vote *c = &r->counted[i];
	int64_t timing = timing_value(b, &c->s, c->param);
	int32_t idx = -1;
	void *rec = record_for(r, &c->s, &idx);

	if (!rec)
		return;
	b->added[idx] = true;
	mp_param_set(rec, &c->s, c->param, c->value);
	if (timing != MP_NA && timing != c->value) {
		b->differed[idx] = true;
		note_pair(r, &c->s, c->param, "timing", timing, "counters", c->value,
			  " (counters kept)");
	}
	b->agreed[idx] = b->agreed[idx] || timing == c->value;
	if (compare)
		add_comparison(r, &c->s, c->param, timing, c->value);
	note_probe_disagreements(r, i);
}

static enum mp_method method_after(enum mp_method was, const struct before *b, int32_t idx)
{
	if (!b->added[idx])
		return was;
	if (b->agreed[idx] && !b->differed[idx])
		return MP_METHOD_BOTH;
	return MP_METHOD_COUNTERS;
}

static bool counted_covers(const struct mp_result *r, const struct mp_structure *s,
			   enum mp_param p)
{
	for (int32_t i = 0; i < mp_count(r->ncounted, MP_MAX_COUNTED); i++)
		if (r->counted[i].value != MP_NA && r->counted[i].param == p &&
		    mp_same_structure(&r->counted[i].s, s))
			return true;
	return false;
}

/* Parameters only timing measured, so that the comparison shows every one. */
static void compare_timing_only(struct mp_result *r, const void *rec, const struct mp_structure *s)
{
	for (int p = 0; p < MP_PARAM_COUNT; p++) {
		int64_t v = mp_param_get(rec, s, (enum mp_param)p);

		if (mp_param_compared(s, (enum mp_param)p) && v != MP_NA &&
		    !counted_covers(r, s, (enum mp_param)p))
			add_comparison(r, s, (enum mp_param)p, v, MP_NA);
	}
}

static void compare_rest(struct mp_result *r, const struct before *b)
{
	for (int32_t i = 0; i < b->ncaches; i++) {
		struct mp_structure s = { b->caches[i].level, b->caches[i].type, false, MP_NA };

		compare_timing_only(r, &b->caches[i], &s);
	}
	for (int32_t i = 0; i < b->ntlbs; i++) {
		struct mp_structure s = { b->tlbs[i].level, b->tlbs[i].type, true,
					  b->tlbs[i].page_bytes };

		compare_timing_only(r, &b->tlbs[i], &s);
	}
}

static struct before snapshot;

void mp_result_reconcile(struct mp_result *r, bool compare)
{
	struct before *b = &snapshot;

	mp_memset(b, 0, sizeof(*b));
	b->ncaches = mp_count(r->ncaches, MP_MAX_CACHES);
	b->ntlbs = mp_count(r->ntlbs, MP_MAX_TLBS);
	mp_memcpy(b->caches, r->caches, sizeof(b->caches));
	mp_memcpy(b->tlbs, r->tlbs, sizeof(b->tlbs));
	r->ncomparisons = 0;
	for (int32_t i = 0; i < mp_count(r->ncounted, MP_MAX_COUNTED); i++)
		if (is_first(r, i))
			merge_one(r, b, i, compare);
	for (int32_t i = 0; i < mp_count(r->ncaches, MP_MAX_CACHES); i++)
		r->caches[i].method = method_after(r->caches[i].method, b, i);
	for (int32_t i = 0; i < mp_count(r->ntlbs, MP_MAX_TLBS); i++)
		r->tlbs[i].method = method_after(r->tlbs[i].method, b, MP_MAX_CACHES + i);
	if (compare)
		compare_rest(r, b);
}
