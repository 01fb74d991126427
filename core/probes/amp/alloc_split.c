/* SPDX-License-Identifier: MIT */
/*
 * AMP 3.4 (write allocation) and 3.6 (split or unified).  Both put lines
 * into the measured level one way (stores; reads), disturb it or not (the
 * other side's accesses), and count what a pass then misses.  The region is
 * half the ways of a few sets, passed with flushers, and the other side's
 * string of 3.6 is aimed at the same sets.  3.6 runs in both directions: a
 * data level disturbed by code, an instruction level by data.
 * docs/algorithms.md, "Counter-based probes", AMP.
 */
#include "core/probe.h"
#include "core/probes/amp/amp.h"

/* Sets tried at once, so that the counts are dozens, not one. */
#define POLICY_SETS 16u
/*
 * 3.4: reads after the stores miss once per line at a no-write-allocate
 * level and hardly at all at one that allocates; 3.6 likewise once the code
 * evicted the data from a unified level.  The midpoint decides.
 */
#define MISS_FRACTION 0.5
/* The chain passes word 0 of each element line, the stores write word 1
 * (a store kernel writes its address: the chain must not be there). */
#define STORE_WORD 8u
/*
 * 3.6: code lines per set, twice its ways and, for a cache, those of the
 * levels above it passes on the way.
 */
#define CODE_FACTOR 2u
#define CODE_PASSES 2u
#define CODE_MAX (POLICY_SETS * 1024u)

static uint64_t code_offs[CODE_MAX];

struct policy_job {
	struct amp_level *l;
	struct amp_chase ch;         /* the elements, with flushers */
	struct amp_chase flush;      /* the flushers alone */
	uint64_t per_set;            /* elements per set */
	uint64_t sets;               /* sets tried at once */
	void *entry;                 /* 3.6: the other side's string, or NULL */
	enum mp_op other;            /* its run: code blocks for a data level, loads for code */
	uint64_t blocks;
};

static uint64_t span_of(const struct amp_level *l)
{
	return l->size / l->ways;
}

static enum mp_status store_all(struct policy_job *j)
{
	struct mp_run r = { .op = MP_OP_STORE_SWEEP, .stride = span_of(j->l), .count = j->per_set,
			    .steps = j->per_set, .region = "amp-write-allocate" };
	enum mp_status st = MP_OK;

	for (uint64_t s = 0; s < j->sets && st == MP_OK; s++) {
		r.start = j->l->a->mem.base + s * j->l->unit + STORE_WORD;
		st = mp_counter_touch(&j->l->a->k, &r, NULL);
	}
	if (st == MP_OK && j->flush.steps)
		st = amp_walk(j->l->a, &j->flush, j->flush.steps);
	return st;
}

static enum mp_status run_other(struct policy_job *j)
{
	struct mp_run r = { .op = j->other, .start = j->entry,
			    .steps = CODE_PASSES * j->blocks, .region = "amp-other-side" };
	enum mp_status st = amp_walk(j->l->a, &j->ch, j->ch.steps);

	return st == MP_OK ? mp_counter_touch(&j->l->a->k, &r, NULL) : st;
}

/*
 * Take the elements out of every cache (clflush), leaving the flushers
 * where the priming pass put them: only the elements may miss in the count.
 * Without a line flush, everything goes and the flushers' first misses
 * are counted too (the probe notes it).
 */
static enum mp_status forget_elements(struct mp_counter *k, struct policy_job *j)
{
	struct mp_platform *p = k->c->p;
	uint64_t span = span_of(j->l);

	for (uint64_t i = 0; i < j->per_set; i++)
		for (uint64_t s = 0; s < j->sets; s++)
			if (p->ops->flush_line(p, j->l->a->mem.base + i * span + s * j->l->unit) != MP_OK)
				return mp_counter_flush(k);
	return MP_OK;
}

/* One measurement: forget the elements, fill one way (stores; reads and code), count a read pass. */
static enum mp_status measure(struct mp_counter *k, void *job, uint64_t *misses)
{
	struct policy_job *j = job;
	enum mp_status st = forget_elements(k, j);

	if (st == MP_OK)
		st = j->entry ? run_other(j) : store_all(j);
	return st == MP_OK ? amp_count(k, &j->ch, misses) : st;
}

static int64_t missed(uint64_t misses, const void *job)
{
	const struct policy_job *j = job;

	return (double)misses > MISS_FRACTION * (double)(j->per_set * j->sets);
}

/* The chains; false when the level's sets are not known or do not fit. */
static bool open_job(struct policy_job *j, struct amp_level *l, const char *region)
{
	j->l = l;
	j->per_set = l->ways / 2 ? l->ways / 2 : 1;
	j->sets = amp_sets(l, POLICY_SETS);
	if (l->ways && l->unit && j->sets > span_of(l) / l->unit)
		j->sets = span_of(l) / l->unit;      /* a fully associative level has one set */
	j->ch = (struct amp_chase){ .ev = l->ev, .region = region, .op = l->a->link.op };
	j->flush = (struct amp_chase){ .region = region, .op = l->a->link.op };
	if (!l->ways || l->size % l->ways || span_of(l) % l->unit)
		return false;
	j->ch.steps = amp_set_chain(l, j->per_set, span_of(l), j->sets, 0, &j->ch.cursor);
	j->flush.steps = amp_flush_chain(l, j->per_set, span_of(l), j->sets,
					 &j->flush.cursor);
	return j->ch.steps != 0;
}

/* Prime the flushers (both chains), then decide. */
static enum mp_status decide(struct policy_job *j, struct mp_tally *t)
{
	struct mp_counter_decision d = { measure, j, missed };
	enum mp_status st = amp_walk(j->l->a, &j->ch, j->ch.steps);

	if (st == MP_OK && j->flush.steps)
		st = amp_walk(j->l->a, &j->flush, j->flush.steps);
	return st == MP_OK ? mp_counter_decide(&j->l->a->k, &d, t) : st;
}

enum mp_status amp_write_allocate(struct amp_level *l, struct mp_tally *t)
{
	struct policy_job j = { 0 };
	enum mp_status st;

	*t = mp_tally_none();
	if (!open_job(&j, l, "amp-write-allocate"))
		return MP_OK;
	st = decide(&j, t);
	if (t->value != MP_NA)
		t->value = t->value ? MP_NO : MP_YES;
	return st;
}

/* ---- 3.6 ---- */

/* The other side: code for a data level, loads for an instruction level. */
static struct mp_linker other_side(const struct amp *a)
{
	return a->link.op == MP_OP_CHASE ? mp_linker_code(a->c->p, 0) : mp_linker_data(a->c->p);
}

/* The other side's string in the measured sets: i span + s unit from the elements' base. */
static enum mp_status build_other(struct policy_job *j, struct mp_mem *other)
{
	struct amp *a = j->l->a;
	struct mp_platform *p = a->c->p;
	struct mp_linker link = other_side(a);
	uint64_t per = CODE_FACTOR * (j->l->ways + (j->l->tlb ? 0 : j->l->above.ways));
	uint64_t span = span_of(j->l), shift;
	struct mp_mem_req req = { .bytes = (per + 1) * span, .align = 4096,
				  .page = j->l->tlb ? j->l->page : MP_PAGE_2M,
				  .exec = link.op == MP_OP_CODE, .contiguous = true };
	enum mp_status st;

	j->blocks = 0;
	j->other = link.op;
	if (per * j->sets > CODE_MAX)
		return MP_UNSUPPORTED;
	st = p->ops->mem_alloc(p, &req, other);
	if (st != MP_OK)
		return st;
	/*
	 * The string falls in the elements' sets wherever it lies (taken
	 * apart: a span that is no power of two, 30M / 12 ways, does not
	 * divide 2^64, so the difference of the bases must not wrap).
	 */
	shift = ((uint64_t)(uintptr_t)a->mem.base % span + span -
		 (uint64_t)(uintptr_t)other->base % span) % span;
	for (uint64_t i = 0; i < per; i++)
		for (uint64_t s = 0; s < j->sets; s++)
			code_offs[j->blocks++] = shift + i * span + s * j->l->unit;
	st = mp_link(&link, other->base, other->bytes, code_offs, j->blocks, &j->entry);
	if (st != MP_OK)
		p->ops->mem_free(p, other);
	return st;
}

enum mp_status amp_unified(struct amp_level *l, struct mp_tally *t)
{
	enum mp_kind own = l->a->link.op == MP_OP_CHASE ? MP_KIND_DATA : MP_KIND_INSTRUCTION;
	struct policy_job j = { 0 };
	struct mp_mem other;
	enum mp_status st;

	*t = mp_tally_none();
	if (!open_job(&j, l, "amp-unified"))
		return MP_OK;
	j.flush.steps = 0;
	st = build_other(&j, &other);
	if (st != MP_OK)
		return st == MP_UNSUPPORTED || st == MP_ENOMEM ? MP_OK : st;
	st = decide(&j, t);
	if (t->value != MP_NA)
		t->value = t->value ? MP_KIND_UNIFIED : own;
	l->a->c->p->ops->mem_free(l->a->c->p, &other);
	return st;
}
