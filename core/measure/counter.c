/* SPDX-License-Identifier: MIT */
#include "core/lib/bits.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/measure/counter.h"
#include "core/measure/link.h"
#include "core/probe.h"
#include "core/seq/refstring.h"

/* The overhead array (AMP 2.2). */
#define OVERHEAD_BYTES 1024u
#define OVERHEAD_RUNS 8u
/*
 * Emptying the caches without a flush instruction: AMP 3.1 step 1
 * (docs/algorithms.md, "Counter-based probes", the middle layer).
 */
#define EVICT_BYTES (64ull << 20)
#define EVICT_PASSES 2u
#define EVICT_STRIDE 64u
/*
 * The sanity check (AMP 3.1's errata): a cold read of SANE_BYTES and of
 * twice as much; the second count must be at least SANE_GROWTH times the first.
 */
#define SANE_BYTES (256u << 10)
#define SANE_STRIDE 64u
#define SANE_GROWTH 1.5
#define SANE_GROUP 4096u

static const enum mp_event miss_events[] = {
	MP_EV_L1D_MISS, MP_EV_L2_MISS, MP_EV_L3_MISS, MP_EV_L4_MISS, MP_EV_DTLB1_MISS,
	MP_EV_DTLB2_MISS, MP_EV_L1I_MISS, MP_EV_ITLB1_MISS, MP_EV_ITLB2_MISS,
};
#define NMISS (MP_COUNT_OF(miss_events))

const struct mp_counter_level mp_counter_levels[] = {
	{ MP_EV_L1D_MISS, 1, false, false }, { MP_EV_L2_MISS, 2, false, false },
	{ MP_EV_L3_MISS, 3, false, false },  { MP_EV_L4_MISS, 4, false, false },
	{ MP_EV_DTLB1_MISS, 1, true, false }, { MP_EV_DTLB2_MISS, 2, true, false },
	{ MP_EV_L1I_MISS, 1, false, true }, { MP_EV_ITLB1_MISS, 1, true, true },
	{ MP_EV_ITLB2_MISS, 2, true, true },
};
const unsigned mp_counter_nlevels = MP_COUNT_OF(mp_counter_levels);

static const char *const event_names[MP_EV_COUNT] = {
	[MP_EV_L1D_MISS] = "L1D miss", [MP_EV_L2_MISS] = "L2 miss", [MP_EV_L3_MISS] = "L3 miss",
	[MP_EV_L4_MISS] = "L4 miss", [MP_EV_DTLB1_MISS] = "DTLB1 miss",
	[MP_EV_DTLB2_MISS] = "DTLB2 miss", [MP_EV_L1I_MISS] = "L1I miss",
	[MP_EV_ITLB1_MISS] = "ITLB1 miss", [MP_EV_ITLB2_MISS] = "ITLB2 miss",
};

static void say(struct mp_counter *k, const char *fmt, const char *a, const char *b)
{
	char text[MP_NOTE_LEN];

	mp_snprintf(text, sizeof(text), fmt, a, b);
	mp_log(k->c->p, MP_LOG_WARN, text);
	mp_result_add_note(k->c->r, text);
}

static void distrust(struct mp_counter *k, enum mp_event e, const char *why)
{
	if (!(k->events & MP_EV_BIT(e)))
		return;
	k->events &= ~MP_EV_BIT(e);
	k->insane |= MP_EV_BIT(e);
	say(k, "the %s counter is unreliable (%s); its levels are left to timing",
	    event_names[e], why);
}

enum mp_status mp_counter_touch(struct mp_counter *k, const struct mp_run *r, struct mp_sample *s)
{
	struct mp_run run = *r;
	struct mp_sample mine;

	run.events = 0;
	k->runs++;
	k->accesses += r->steps;
	return mp_run(k->c->p, &run, s ? s : &mine);
}

/* More misses than accesses cannot be (AMP 3.1: the UltraSPARC read-miss errata). */
static void check_bounds(struct mp_counter *k, const struct mp_run *r, const struct mp_sample *s)
{
	for (unsigned i = 0; i < NMISS; i++)
		if ((k->events & s->valid & MP_EV_BIT(miss_events[i])) &&
		    s->count[miss_events[i]] > r->steps)
			distrust(k, miss_events[i], "more misses than accesses");
}

enum mp_status mp_counter_count(struct mp_counter *k, const struct mp_run *r, struct mp_sample *s)
{
	enum mp_status st;

	mp_memset(s, 0, sizeof(*s));
	k->runs++;
	k->accesses += r->steps;
	k->counted++;
	st = mp_run(k->c->p, r, s);
	if (st != MP_OK)
		return st;
	check_bounds(k, r, s);
	for (unsigned e = 0; e < MP_EV_COUNT; e++) {
		uint64_t v = (s->valid & MP_EV_BIT(e)) ? s->count[e] : 0;

		s->count[e] = v > k->overhead[e] ? v - k->overhead[e] : 0;
	}
	return MP_OK;
}

/* ---- passes ---- */

static uint32_t lowest(uint32_t events)
{
	return events & (~events + 1);
}

/* Asked alone and not counted: the platform cannot count it after all. */
static void never_counted(struct mp_counter *k, uint32_t event)
{
	for (unsigned i = 0; i < NMISS; i++)
		if (event == MP_EV_BIT(miss_events[i]))
			distrust(k, miss_events[i], "it is never counted, even asked alone");
}

/* The counts of `got` from one pass. */
static void take(struct mp_sample *s, const struct mp_sample *pass, uint32_t got)
{
	for (unsigned e = 0; e < MP_EV_COUNT; e++)
		if (got & MP_EV_BIT(e))
			s->count[e] = pass->count[e];
	s->valid |= got;
	s->ticks = pass->ticks;
	s->end = pass->end;
}

/*
 * All events left are asked for together; when none of them comes back
 * counted (a platform that schedules them as one group), the lowest is
 * asked alone, then the rest together again.
 */
enum mp_status mp_counter_passes(struct mp_counter *k, mp_counter_pass_fn f, void *arg, uint32_t events,
			     struct mp_sample *s)
{
	enum mp_status st = MP_OK;
	uint32_t left = events;
	bool alone = false;

	mp_memset(s, 0, sizeof(*s));
	while (left && st == MP_OK) {
		uint32_t ask = alone ? lowest(left) : left, got;
		struct mp_sample pass;

		st = f(k, arg, ask, &pass);
		got = st == MP_OK ? pass.valid & ask : 0;
		take(s, &pass, got);
		left &= ~got;
		if (st == MP_OK && !got && ask == lowest(ask)) {
			never_counted(k, ask);
			left &= ~ask;
		}
		alone = !got && ask != lowest(ask);
	}
	return st;
}

struct count_job {
	mp_counter_prep_fn prep;
	void *arg;
	const struct mp_run *r;
};

static enum mp_status count_pass(struct mp_counter *k, void *job, uint32_t events,
				 struct mp_sample *s)
{
	const struct count_job *j = job;
	struct mp_run r = *j->r;
	enum mp_status st = j->prep ? j->prep(k, j->arg) : MP_OK;

	r.events = events;
	return st == MP_OK ? mp_counter_count(k, &r, s) : st;
}

enum mp_status mp_counter_count_all(struct mp_counter *k, mp_counter_prep_fn prep, void *arg,
				const struct mp_run *r, struct mp_sample *s)
{
	struct count_job j = { prep, arg, r };

	return mp_counter_passes(k, count_pass, &j, r->events, s);
}

enum mp_status mp_counter_flush(struct mp_counter *k)
{
	struct mp_run r = { .op = MP_OP_LOAD_SWEEP, .start = k->evict.base,
			    .stride = EVICT_STRIDE, .region = "amp-evict" };

	if (k->can_flush && k->c->p->ops->flush_all(k->c->p) == MP_OK)
		return MP_OK;
	k->can_flush = false;
	if (!k->evict.base) {
		uint64_t bytes = EVICT_BYTES < k->c->cfg->arena_bytes / 4 ? EVICT_BYTES
									  : k->c->cfg->arena_bytes / 4;

		if (mp_probe_alloc(k->c, bytes, MP_PAGE_4K, &k->evict) != MP_OK)
			return MP_ENOMEM;
	}
	r.start = k->evict.base;
	r.count = k->evict.bytes / EVICT_STRIDE;
	r.steps = r.count * EVICT_PASSES;
	return mp_counter_touch(k, &r, NULL);
}

enum mp_status mp_counter_prep_flush(struct mp_counter *k, void *unused)
{
	(void)unused;
	return mp_counter_flush(k);
}

enum mp_status mp_counter_min(struct mp_counter *k, mp_counter_measure_fn f, void *arg,
			  uint64_t *min)
{
	uint64_t best = UINT64_MAX, v;

	for (unsigned i = 0; i < MP_COUNTER_REPS && best > 0; i++) {
		enum mp_status st = f(k, arg, &v);

		if (st != MP_OK)
			return st;
		if (v < best)
			best = v;
	}
	*min = best;
	return MP_OK;
}

enum mp_status mp_counter_vote(struct mp_counter *k, mp_counter_vote_fn f, void *arg,
			   struct mp_tally *t)
{
	int64_t votes[MP_COUNTER_VOTES], v;
	unsigned n = 0;

	for (unsigned i = 0; i < MP_COUNTER_VOTES; i++) {
		enum mp_status st = f(k, arg, &v);

		if (st != MP_OK)
			return st;
		if (v != MP_NA)
			votes[n++] = v;
	}
	mp_tally_count(votes, n, t);
	return MP_OK;
}

static enum mp_status decision_vote(struct mp_counter *k, void *decision, int64_t *vote)
{
	const struct mp_counter_decision *d = decision;
	uint64_t min;
	enum mp_status st = mp_counter_min(k, d->measure, d->arg, &min);

	*vote = st == MP_OK ? d->classify(min, d->arg) : MP_NA;
	return st;
}

enum mp_status mp_counter_decide(struct mp_counter *k, const struct mp_counter_decision *d,
			     struct mp_tally *t)
{
	return mp_counter_vote(k, decision_vote, (void *)d, t);
}

/* ---- the array ---- */

#define ARRAY_PARTS 4u
#define ARRAY_SHARE 3u
#define ARRAY_ALIGN (2ull << 20)

static const enum mp_page page_kinds[MP_COUNTER_PAGE_KINDS] = { MP_PAGE_4K, MP_PAGE_2M, MP_PAGE_1G };

enum mp_page mp_counter_page_kind(unsigned kind)
{
	return kind < MP_COUNTER_PAGE_KINDS ? page_kinds[kind] : MP_PAGE_ANY;
}

static uint64_t array_bytes(const struct mp_counter *k, uint64_t page)
{
	uint64_t bytes = k->c->cfg->arena_bytes / ARRAY_PARTS * ARRAY_SHARE;

	if (page && bytes > (uint64_t)MP_COUNTER_TLB_PAGES * page)
		bytes = (uint64_t)MP_COUNTER_TLB_PAGES * page;
	return bytes - bytes % (page ? page : ARRAY_ALIGN);
}

static enum mp_status array_alloc(struct mp_counter *k, uint64_t bytes, uint64_t align,
				  enum mp_page page, bool exec, struct mp_mem *m)
{
	struct mp_mem_req req = { .bytes = bytes, .align = align, .page = page, .contiguous = true,
				  .exec = exec };

	return k->c->p->ops->mem_alloc(k->c->p, &req, m);
}

enum mp_status mp_counter_array(struct mp_counter *k, bool exec, struct mp_mem *m)
{
	enum mp_status st = array_alloc(k, array_bytes(k, 0), ARRAY_ALIGN, MP_PAGE_2M, exec, m);

	if (st != MP_OK)
		mp_probe_fail(k->c, "could not allocate the array (three quarters of the arena)");
	return st;
}

bool mp_counter_array_pages(struct mp_counter *k, unsigned kind, bool exec, const uint64_t *seen,
			    unsigned nseen, struct mp_mem *m)
{
	struct mp_platform *p = k->c->p;
	uint64_t page;

	if (array_alloc(k, 4096, 4096, page_kinds[kind], exec, m) != MP_OK)
		return false;
	page = m->page_bytes;
	p->ops->mem_free(p, m);
	for (unsigned j = 0; j < nseen; j++)
		if (seen[j] == page)
			return false;
	return array_bytes(k, page) >= page &&
	       array_alloc(k, array_bytes(k, page), page, page_kinds[kind], exec, m) == MP_OK &&
	       m->page_bytes == page;
}

/* ---- opening: overhead and sanity ---- */

/* AMP 2.2's preparation: the array read into the cache. */
static enum mp_status warm(struct mp_counter *k, void *run)
{
	return mp_counter_touch(k, run, NULL);
}

/* The minimum count of each event over OVERHEAD_RUNS (k->overhead is still 0: raw counts). */
static enum mp_status measure_overhead(struct mp_counter *k, struct mp_mem *m)
{
	struct mp_run r = { .op = MP_OP_LOAD_SWEEP, .start = m->base, .stride = 8,
			    .count = OVERHEAD_BYTES / 8, .steps = OVERHEAD_BYTES / 8,
			    .events = k->events, .region = "amp-overhead" };
	uint64_t min[MP_EV_COUNT];
	enum mp_status st = MP_OK;

	for (unsigned e = 0; e < MP_EV_COUNT; e++)
		min[e] = UINT64_MAX;
	for (unsigned i = 0; i < OVERHEAD_RUNS && st == MP_OK; i++) {
		struct mp_sample s;

		st = mp_counter_count_all(k, warm, &r, &r, &s);
		for (unsigned e = 0; e < MP_EV_COUNT && st == MP_OK; e++)
			min[e] = s.count[e] < min[e] ? s.count[e] : min[e];
	}
	for (unsigned e = 0; e < MP_EV_COUNT && st == MP_OK; e++)
		k->overhead[e] = min[e];
	return st;
}

/* Cold misses of `events` over `bytes` (flushed first): loads, or fetches of code blocks. */
static enum mp_status cold_counts(struct mp_counter *k, const struct mp_linker *link,
				  struct mp_mem *m, uint64_t bytes, uint32_t events,
				  struct mp_sample *s)
{
	struct mp_run r = { .op = link->op, .steps = bytes / SANE_STRIDE, .events = events,
			    .region = "amp-sanity" };
	struct mp_rng g;
	enum mp_status st;

	mp_rng_seed(&g, k->c->cfg->seed);
	st = mp_link_grouped(link, m, bytes, SANE_STRIDE, SANE_GROUP, &g, &r.start);
	return st == MP_OK ? mp_counter_count_all(k, mp_counter_prep_flush, NULL, &r, s) : st;
}

/* The side's events (loads: data; fetches: code) must grow with the footprint. */
static enum mp_status check_growth(struct mp_counter *k, const struct mp_linker *link,
				   uint32_t events)
{
	struct mp_mem_req req = { .bytes = 2 * SANE_BYTES, .align = 4096, .page = MP_PAGE_4K,
				  .exec = link->op == MP_OP_CODE };
	struct mp_sample one, two;
	struct mp_mem m;
	enum mp_status st;

	if (!(k->events & events))
		return MP_OK;
	if (mp_probe_alloc_req(k->c, &req, &m) != MP_OK)
		return MP_ENOMEM;
	st = cold_counts(k, link, &m, SANE_BYTES, k->events & events, &one);
	if (st == MP_OK)
		st = cold_counts(k, link, &m, 2 * SANE_BYTES, k->events & events, &two);
	for (unsigned i = 0; i < NMISS && st == MP_OK; i++) {
		enum mp_event e = miss_events[i];

		if ((k->events & events & MP_EV_BIT(e)) &&
		    (one.count[e] == 0 || (double)two.count[e] < SANE_GROWTH * (double)one.count[e]))
			distrust(k, e, "its count does not grow with the work");
	}
	k->c->p->ops->mem_free(k->c->p, &m);
	return st;
}

enum mp_status mp_counter_open(struct mp_counter *k, struct mp_ctx *c)
{
	struct mp_linker data = mp_linker_data(c->p), code = mp_linker_code(c->p, 0);
	struct mp_mem m;
	enum mp_status st;

	mp_memset(k, 0, sizeof(*k));
	k->c = c;
	k->can_flush = true;
	k->events = c->p->ops->events(c->p) &
		    (MP_COUNTER_CACHE_EVENTS | MP_COUNTER_TLB_EVENTS | MP_COUNTER_CODE_EVENTS);
	if (!k->events)
		return MP_UNSUPPORTED;
	if (mp_probe_alloc(c, OVERHEAD_BYTES, MP_PAGE_4K, &m) != MP_OK)
		return MP_ENOMEM;
	st = measure_overhead(k, &m);
	c->p->ops->mem_free(c->p, &m);
	if (st == MP_OK)
		st = check_growth(k, &data, MP_COUNTER_CACHE_EVENTS | MP_COUNTER_TLB_EVENTS);
	if (st == MP_OK && c->p->ops->code_build)
		st = check_growth(k, &code, MP_COUNTER_CODE_EVENTS);
	if (st == MP_OK && !k->events)
		return MP_UNSUPPORTED;
	return st;
}

void mp_counter_close(struct mp_counter *k)
{
	if (k->evict.base)
		k->c->p->ops->mem_free(k->c->p, &k->evict);
	k->evict.base = NULL;
}
