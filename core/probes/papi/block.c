/* SPDX-License-Identifier: MIT */
/*
 * papi_cacheBlock (PAPI paper, section 2): a footprint N, strides s
 * growing by powers of two, a constant number of accesses.  With N larger
 * than the capacity C, line b and associativity a:
 *   1. s < b:           one miss every b/s accesses;
 *   2. b <= s < N/a:    one miss every access;
 *   3. N/a <= s <= N:   N/s <= a elements fit in one set: no misses.
 * The line (or page) is the first stride of case 2, the associativity
 * N / s at the first stride of case 3, with N = 2C.  The accesses of one
 * stride come in shuffled groups of max(s, 4096) bytes (a page for a TLB).
 * docs/algorithms.md, "Counter-based probes", PAPI.
 */
#include "core/lib/bits.h"
#include "core/measure/link.h"
#include "core/measure/overfill.h"
#include "core/probes/papi/papi.h"
#include "core/seq/refstring.h"

/* Accesses counted per stride ("the total number of iterations is held constant"). */
#define BLOCK_STEPS 4096u
/* Case 2: at least 0.80 misses per access (as AMP 3.2's threshold). */
#define CASE2_FRACTION 0.80
/* Case 3: at most 1/16 of the accesses miss. */
#define CASE3_DIVISOR 16u
/* Cache groups: no line is larger than 4096 bytes. */
#define CACHE_GROUP 4096u
/* Priming passes over a chain short enough to be walked whole. */
#define PRIME_PASSES 2u

struct block_job {
	struct papi *p;
	enum mp_event ev;
	enum mp_event above;
	void *start;
	uint64_t steps;
	uint64_t above_misses;       /* the level above's, in the last run */
};

/* The misses of the level and of the level above, after the preparation (NULL: none). */
static enum mp_status count_after(struct mp_counter *k, mp_counter_prep_fn prep, struct block_job *j,
				  uint64_t *misses)
{
	struct mp_run r = { .op = MP_OP_CHASE, .start = j->start, .steps = j->steps,
			    .events = MP_EV_BIT(j->ev), .region = "papi-block" };
	struct mp_sample s;
	enum mp_status st;

	if (j->above < MP_EV_COUNT)
		r.events |= MP_EV_BIT(j->above);
	st = mp_counter_count_all(k, prep, NULL, &r, &s);
	if (st == MP_OK)
		j->start = s.end;
	*misses = st == MP_OK ? s.count[j->ev] : 0;
	j->above_misses = st == MP_OK && j->above < MP_EV_COUNT ? s.count[j->above] : j->steps;
	return st;
}

static enum mp_status count(struct mp_counter *k, void *job, uint64_t *misses)
{
	return count_after(k, NULL, job, misses);
}

/* From cold: flushed, then BLOCK_STEPS accesses of a fresh chain (cases 1 and 2 hold cold). */
static enum mp_status count_cold(struct mp_counter *k, void *job, uint64_t *misses)
{
	return count_after(k, mp_counter_prep_flush, job, misses);
}

static uint64_t group_of(const struct papi *p, const struct papi_level *l, uint64_t s)
{
	uint64_t g = l->tlb ? p->mem.page_bytes : CACHE_GROUP;

	return s > g ? s : g;
}

/*
 * Misses per access at stride s over n bytes (n = 0: as many bytes as the
 * accesses need, from cold), and the level above's.
 */
static enum mp_status rate_at(struct papi *p, struct papi_level *l, uint64_t s, uint64_t n,
			      double *rate, double *above)
{
	struct block_job j = { p, l->ev, l->above, NULL, BLOCK_STEPS, 0 };
	uint64_t g = group_of(p, l, s), misses;
	bool whole = n && n / s <= BLOCK_STEPS;
	enum mp_status st;

	if (!n) {        /* cold: as many accesses as the array holds, up to BLOCK_STEPS */
		n = (BLOCK_STEPS * s + g - 1) / g * g;
		n = n < p->mem.bytes ? n : p->mem.bytes - p->mem.bytes % g;
		j.steps = n / s;
	}
	if (n > p->mem.bytes || !j.steps)
		return MP_ENOMEM;
	j.start = mp_ref_grouped(p->mem.base, n, s, g, &p->g);
	st = whole ? mp_counter_flush(&p->k) : MP_OK;
	if (st == MP_OK && whole) {
		struct mp_run r = { .op = MP_OP_CHASE, .start = j.start,
				    .steps = PRIME_PASSES * (n / s), .region = "papi-block" };
		st = mp_counter_touch(&p->k, &r, NULL);
	}
	if (st == MP_OK)
		st = mp_counter_min(&p->k, whole ? count : count_cold, &j, &misses);
	*rate = (double)misses / (double)j.steps;
	*above = (double)j.above_misses / (double)j.steps;
	return st;
}

static void sure_once(struct mp_tally *t, int64_t value)
{
	/* PAPI does not vote: the counts "exhibit little or no variability". */
	*t = mp_tally_single(value);
}

enum mp_status papi_unit(struct papi *p, struct papi_level *l)
{
	uint64_t first = l->tlb ? p->mem.page_bytes / MP_REF_MAX_GROUP : 8;
	uint64_t last = l->tlb ? 4 * p->mem.page_bytes : CACHE_GROUP;
	enum mp_status st = MP_OK;
	double rate = 0, above;

	l->unit = 0;
	for (uint64_t s = first; s <= last && st == MP_OK && !l->unit; s *= 2) {
		st = rate_at(p, l, s, 0, &rate, &above);
		if (st == MP_OK && rate >= CASE2_FRACTION)
			l->unit = s;
	}
	sure_once(&l->sure[1], l->unit ? (int64_t)l->unit : MP_NA);
	return st == MP_ENOMEM ? MP_OK : st;
}

enum verdict { NOT_A = 0, IS_A, UNTOLD };

/*
 * Case 3 begins at N/a: a elements N/a apart fit, 2a elements N/2a apart
 * thrash.  When those 2a do not thrash but the level above holds them,
 * they never reached the level: a is not told.
 */
static enum mp_status case3_at(struct papi *p, struct papi_level *l, uint64_t a,
			       enum verdict *v)
{
	uint64_t n = 2 * l->size;
	double rate, above;
	enum mp_status st;

	*v = NOT_A;
	if (n % (2 * a) || (n / (2 * a)) % l->unit)
		return MP_OK;
	st = rate_at(p, l, n / a, n, &rate, &above);
	if (st != MP_OK || rate * CASE3_DIVISOR > 1.0)
		return st;
	st = rate_at(p, l, n / (2 * a), n, &rate, &above);
	if (st == MP_OK)
		*v = rate >= CASE2_FRACTION ? IS_A : above < CASE2_FRACTION ? UNTOLD : NOT_A;
	return st;
}

/*
 * The refined search: powers-of-two strides find N/s = a' where the way
 * span is a'/a times a power of two; a way span with an odd factor q
 * (a set count that is not a power of two) shows as a' = a q.  The
 * smallest a' / q (q odd) whose case 3 begins at N / (a' / q) is the
 * associativity; one that cannot be told leaves it unknown.
 */
static enum mp_status refine_ways(struct papi *p, struct papi_level *l, uint64_t coarse)
{
	enum mp_status st = MP_OK;
	enum verdict v = NOT_A;

	for (uint64_t a = 1; a <= coarse && st == MP_OK && v == NOT_A; a++)
		if (coarse % a == 0 && (coarse / a) % 2 == 1) {
			st = case3_at(p, l, a, &v);
			l->ways = v == IS_A ? a : 0;
		}
	return st;
}

/* ---- one set, or several (docs/algorithms.md, "Counter-based probes", hashed sets) ---- */

/* Elements of an overfill (static: core has no allocator). */
#define OVERFILL_MAX 4096u

static uint64_t offs[OVERFILL_MAX];

struct overfill_job {
	struct papi *p;
	struct papi_level *l;
	uint64_t c, gap;
};

/* c elements `gap` apart without elements [lo, hi), shuffled and primed: still missing? */
static enum mp_status still_miss(void *job, uint64_t lo, uint64_t hi, bool *miss)
{
	struct overfill_job *j = job;
	struct mp_linker link = mp_linker_data(j->p->c->p);
	struct block_job b = { j->p, j->l->ev, MP_EV_COUNT, NULL, 0, 0 };
	uint64_t n = 0, min = 0;
	enum mp_status st;

	*miss = false;
	for (uint64_t i = 0; i < j->c && j->c <= OVERFILL_MAX; i++)
		if (i < lo || i >= hi)
			offs[n++] = i * j->gap;
	mp_ref_shuffle_strideless(offs, n, &j->p->g);
	if (!n || j->c * j->gap > j->p->mem.bytes ||
	    mp_link(&link, j->p->mem.base, j->p->mem.bytes, offs, n, &b.start) != MP_OK)
		return MP_ENOMEM;
	b.steps = n;
	st = mp_counter_flush(&j->p->k);
	if (st == MP_OK) {
		struct mp_run r = { .op = MP_OP_CHASE, .start = b.start, .steps = PRIME_PASSES * n,
				    .region = "papi-block" };
		st = mp_counter_touch(&j->p->k, &r, NULL);
	}
	if (st == MP_OK)
		st = mp_counter_min(&j->p->k, count, &b, &min);
	*miss = min > 0;
	return st;
}

/*
 * Case 3 began at a: are the a elements N/a apart one set of a ways, or
 * the sets of several slices of a hashed index (mp_overfill_assoc)?  One
 * element more, then, where the a were spread unevenly over the slices,
 * the 2a elements N/2a apart and one more.  PAPI has no flushers: a level
 * above that holds some elements hides them, and the associativity is not
 * told.
 */
static enum mp_status true_assoc(struct papi *p, struct papi_level *l, uint64_t a)
{
	const struct mp_overfill fills[] = { { a, 1, true }, { 2 * a, 1, true } };
	uint64_t n = 2 * l->size;
	enum mp_status st = MP_OK;
	bool missed = false;

	l->ways = 0;
	for (unsigned i = 0; i < MP_COUNT_OF(fills) && st == MP_OK && !missed; i++) {
		struct overfill_job j = { p, l, fills[i].fill + fills[i].more, n / fills[i].fill };

		if ((n / fills[i].fill) % l->unit)
			continue;
		st = mp_overfill_assoc(&fills[i], a, still_miss, &j, &l->ways, &missed);
		if (st == MP_ENOMEM)         /* beyond the array or the table: the next one */
			st = MP_OK;
	}
	l->seen = l->ways == a ? 0 : a;
	if (!l->ways)
		l->why = "one element more did not show case 3's set as one set, nor as slices "
			 "of a hashed index: associativity not told";
	return st;
}

/*
 * The first stride of case 3.  Its misses stop either because the N/s
 * elements fit the level's set, or because the level above holds them and
 * they no longer reach it: the drop counts only when the level above
 * still misses (its set thrashed); otherwise the associativity is not told
 * (the paper's model has no level above; AMP's flushers measure it).
 */
enum mp_status papi_ways(struct papi *p, struct papi_level *l)
{
	uint64_t n = 2 * l->size, coarse = 0;
	enum mp_status st = MP_OK;
	double rate, above;
	bool ended = false;

	l->ways = l->seen = 0;
	l->why = "the level above held case 3's elements: no associativity";
	if (!l->size || !l->unit || n > p->mem.bytes)
		return MP_OK;
	for (uint64_t s = 2 * l->unit; s <= n && st == MP_OK && !ended; s *= 2) {
		st = rate_at(p, l, s, n, &rate, &above);
		ended = st == MP_OK && rate * CASE3_DIVISOR <= 1.0;
		if (ended && above >= CASE2_FRACTION)
			coarse = n / s;
	}
	if (st == MP_OK && coarse)
		st = refine_ways(p, l, coarse);
	if (st == MP_OK && l->ways)
		st = true_assoc(p, l, l->ways);
	sure_once(&l->sure[2], l->ways ? (int64_t)l->ways : MP_NA);
	return st == MP_ENOMEM ? MP_OK : st;
}
