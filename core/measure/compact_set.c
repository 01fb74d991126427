/* SPDX-License-Identifier: MIT */
#include "core/measure/compact_set.h"
#include "core/measure/timing.h"

/* Scratch for a set's visiting order and for its twin. */
static uint64_t order[MP_COMPACT_SET_MAX_ELEMS];
static uint64_t twin[MP_COMPACT_SET_MAX_ELEMS];

void mp_compact_set_init(struct mp_compact_set *s, struct mp_ctx *c, const struct mp_mem *m,
		  const char *region, struct mp_ref_stride known)
{
	*s = (struct mp_compact_set){
		.c = c, .link = mp_linker_data(c->p), .elem = sizeof(uint64_t), .mem = m->base, .bytes = m->bytes, .page = m->page_bytes,
		.region = region, .known = known, .base_ticks = mp_na_double(),
		.base_min = mp_na_double(), .l1_ticks = mp_na_double(), .stable = MP_COMPACT_SET_STABLE,
		.least = MP_SHORT_WINDOW_STEPS,
	};
	mp_rng_seed(&s->rng, c->cfg->seed);
}

void mp_compact_set_code(struct mp_compact_set *s, struct mp_linker code)
{
	s->link = code;
	s->least = code.serial ? MP_COMPACT_SET_SERIAL_STEPS : s->least;
	s->elem = mp_link_elem(&s->link);
}

/*
 * Take a timed chain's lines out of every cache, so that none is left over
 * in a set the next chain uses (docs/algorithms.md, "Timing discipline",
 * stale lines).  Where the platform cannot flush a line, nothing is done.
 */
static void flush_chain(struct mp_compact_set *s, const uint8_t *base, const uint64_t *offs,
			uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (s->c->p->ops->flush_line(s->c->p, base + offs[i]) != MP_OK)
			return;
}

/* What is measured on a linked and warmed chain, into out. */
typedef enum mp_status (*chain_fn)(struct mp_compact_set *s, struct mp_chase *ch, void *out);

/* Link the chain through base + offs[0 .. n), warm it, measure it by fn, then flush it. */
static enum mp_status on_chain(struct mp_compact_set *s, uint8_t *base, const uint64_t *offs,
			       uint64_t n, chain_fn fn, void *out)
{
	void *start = NULL;
	enum mp_status st = mp_link(&s->link, base, s->bytes - (uint64_t)(base - s->mem), offs,
				    n, &start);
	struct mp_chase ch = mp_chase_linked(&s->link, start, n, s->region);

	if (st == MP_OK)
		st = mp_chase_warm(s->c, &ch);
	if (st == MP_OK)
		st = fn(s, &ch, out);
	flush_chain(s, base, offs, n);
	return st;
}

/* A chain's least ticks per access, by MP_MIN_WHOLE(s->stable) in passes of s->least loads. */
static enum mp_status least_time(struct mp_compact_set *s, struct mp_chase *ch, void *out)
{
	struct mp_min_rule rule = MP_MIN_WHOLE(s->stable);

	rule.least = s->least;
	return mp_chase_min_pass(s->c, ch, rule, out);
}

static enum mp_status time_chain(struct mp_compact_set *s, uint8_t *base, const uint64_t *offs,
				 uint64_t n, double *ticks)
{
	return on_chain(s, base, offs, n, least_time, ticks);
}

/*
 * mp_compact_set_steadiness's count over `passes` passes: those over
 * `limit` ticks per access, in each of MP_STEADY_SPANS spans of them.
 */
struct slow_count {
	double limit;
	unsigned passes;
	unsigned slow[MP_STEADY_SPANS];
};

static enum mp_status count_slow(struct mp_compact_set *s, struct mp_chase *ch, void *out)
{
	struct slow_count *k = out;
	enum mp_status st = MP_OK;

	for (unsigned i = 0; i < k->passes && st == MP_OK; i++) {
		double t = 0.0;

		st = mp_chase_pass(s->c, ch, &t);
		k->slow[(uint64_t)i * MP_STEADY_SPANS / k->passes] += t > k->limit;
	}
	return st;
}

/* Pages the visiting order touches, at most. */
static uint64_t pages_of(const struct mp_compact_set *s, uint64_t n)
{
	uint64_t top = 0;

	for (uint64_t i = 0; i < n; i++)
		top = order[i] > top ? order[i] : top;
	return n < top / s->page + 1 ? n : top / s->page + 1;
}

static bool wants_twin(const struct mp_compact_set *s, uint64_t n)
{
	return !mp_is_na(s->l1_ticks) && n <= s->twin_max &&
	       pages_of(s, n) > MP_COMPACT_SET_TWIN_MIN_PAGES;
}

/* What the TLB adds per access to a chase in this visiting order: 0 where it is not twinned. */
static enum mp_status tlb_share(struct mp_compact_set *s, uint64_t n, double *extra)
{
	double t = 0.0;
	enum mp_status st;

	*extra = 0.0;
	if (!wants_twin(s, n))
		return MP_OK;
	/* The pages are the memory's: offsets from its (page-aligned) start. */
	for (uint64_t i = 0; i < n; i++)
		twin[i] = s->shift + order[i];
	mp_ref_twin(twin, n, s->page, s->twin_line, s->elem, twin);
	st = time_chain(s, s->mem, twin, n, &t);
	*extra = st == MP_OK && t > s->l1_ticks ? t - s->l1_ticks : 0.0;
	return st;
}

/* Time the chain through order[0 .. n) (from mem + shift), then its twin. */
static enum mp_status time_order(struct mp_compact_set *s, uint64_t n, double *ticks)
{
	double extra = 0.0;
	enum mp_status st = time_chain(s, s->mem + s->shift, order, n, ticks);

	if (st == MP_OK)
		st = tlb_share(s, n, &extra);
	*ticks -= extra;
	return st;
}

/* Is the shape too big for the memory (from the shift) or the scratch? */
static bool too_big(const struct mp_compact_set *s, const struct mp_ref_stride *shape)
{
	uint64_t n = mp_ref_stride_count(shape);

	return n == 0 || n > MP_COMPACT_SET_MAX_ELEMS ||
	       s->shift + mp_ref_stride_span(shape) > s->bytes;
}

enum mp_status mp_compact_set_time(struct mp_compact_set *s, const struct mp_ref_stride *shape, double *ticks)
{
	if (too_big(s, shape))
		return MP_ENOMEM;
	mp_ref_stride_order(shape, order, &s->rng);
	return time_order(s, mp_ref_stride_count(shape), ticks);
}

uint64_t *mp_compact_set_order(struct mp_compact_set *s)
{
	(void)s;
	return order;
}

enum mp_status mp_compact_set_time_order(struct mp_compact_set *s, uint64_t n, double *ticks)
{
	for (uint64_t i = 0; i < n; i++)
		if (s->shift + order[i] + sizeof(uint64_t) > s->bytes)
			return MP_ENOMEM;
	return time_order(s, n, ticks);
}

enum mp_status mp_compact_set_baseline(struct mp_compact_set *s)
{
	enum mp_status st = mp_compact_set_time(s, &s->known, &s->base_ticks);

	if (st == MP_OK && !(s->base_ticks >= s->base_min))
		s->base_min = s->base_ticks;
	return st;
}

void mp_compact_set_place(struct mp_compact_set *s, uint64_t span)
{
	uint64_t room = span < s->bytes ? (s->bytes - span) / MP_COMPACT_SET_SHIFT_UNIT : 0;

	s->shift = room ? mp_rng_below(&s->rng, room) * MP_COMPACT_SET_SHIFT_UNIT : 0;
}

static enum mp_status time_baseline(struct mp_compact_set *s, double *base)
{
	enum mp_status st;

	s->stable = MP_COMPACT_SET_STABLE;
	st = mp_compact_set_baseline(s);
	*base = s->base_ticks;
	return st;
}

/*
 * A fresh baseline, then the set right after it; 1 compact.  *moved: a
 * serial chain's baseline, timed again after the set, moved meanwhile.
 */
static int round_once(struct mp_compact_set *s, const struct mp_ref_stride *shape, unsigned stable,
		      bool *moved)
{
	double t = 0.0, base, after;
	enum mp_status st = time_baseline(s, &base);

	/* A serial tester's baseline is the L1I's hit set: its twins compare with this round's. */
	if (st == MP_OK && s->link.serial && !mp_is_na(s->l1_ticks))
		s->l1_ticks = base;
	if (st == MP_OK) {
		s->stable = stable;
		mp_compact_set_place(s, mp_ref_stride_span(shape));
		st = mp_compact_set_time(s, shape, &t);
		s->shift = 0;
	}
	*moved = false;
	if (st == MP_OK && s->link.serial && (st = time_baseline(s, &after)) == MP_OK)
		*moved = !mp_same_time(s->c->p, base, after, MP_SAME_REL);
	if (st != MP_OK)
		return st == MP_ENOMEM ? -2 : -1;
	return t <= base * (1.0 + MP_COMPACT_SET_MISS_REL);
}

/* Count `passes` passes of the shape, at the shift, against `limit` (plus what its TLB twin adds). */
static enum mp_status count_over(struct mp_compact_set *s, const struct mp_ref_stride *shape,
				 double limit, struct slow_count *k)
{
	uint64_t n = mp_ref_stride_count(shape);
	double extra = 0.0;
	enum mp_status st = too_big(s, shape) ? MP_ENOMEM : MP_OK;

	if (st == MP_OK) {
		mp_ref_stride_order(shape, order, &s->rng);
		st = tlb_share(s, n, &extra);
	}
	k->limit = limit + extra;
	if (st == MP_OK)
		st = on_chain(s, s->mem + s->shift, order, n, count_slow, k);
	return st;
}

enum mp_status mp_compact_set_steadiness(struct mp_compact_set *s, const struct mp_ref_stride *shape,
					 unsigned passes, struct mp_steadiness *out)
{
	struct slow_count own = { .passes = passes }, set = { .passes = passes };
	double base = 0.0, limit;
	unsigned noisy = 0;
	enum mp_status st = time_baseline(s, &base);

	limit = base * (1.0 + MP_COMPACT_SET_MISS_REL);
	if (st == MP_OK)
		st = count_over(s, &s->known, limit, &own);
	mp_compact_set_place(s, mp_ref_stride_span(shape));
	if (st == MP_OK)
		st = count_over(s, shape, limit, &set);
	s->shift = 0;
	out->span_passes = passes / MP_STEADY_SPANS;
	for (unsigned j = 0; j < MP_STEADY_SPANS; j++) {
		noisy += own.slow[j];
		out->slow[j] = passes ? (double)set.slow[j] * MP_STEADY_SPANS / passes : 0.0;
	}
	out->noise = passes ? (double)noisy / passes : 0.0;
	return st;
}

double mp_steadiness_excess(const struct mp_steadiness *m)
{
	double sum = 0.0;

	for (unsigned j = 0; j < MP_STEADY_SPANS; j++)
		sum += m->slow[j] / MP_STEADY_SPANS;
	return sum > m->noise ? sum - m->noise : 0.0;
}

/* One round, timed again while its baseline moved (MP_COMPACT_SET_RETIMES times at most). */
static int round_trip(struct mp_compact_set *s, const struct mp_ref_stride *shape, unsigned stable)
{
	bool moved = true;
	int c = 0;

	for (unsigned k = 0; k < MP_COMPACT_SET_RETIMES && moved && c >= 0; k++)
		c = round_once(s, shape, stable, &moved);
	return c;
}

/* A serial set: the verdict of most of MP_COMPACT_SET_SERIAL_ROUNDS rounds. */
static int majority(struct mp_compact_set *s, const struct mp_ref_stride *shape)
{
	unsigned yes = 0, no = 0, need = MP_COMPACT_SET_SERIAL_ROUNDS / 2 + 1;

	while (yes < need && no < need) {
		int c = round_trip(s, shape, yes + no ? MP_COMPACT_SET_CONFIRM_STABLE :
					     MP_COMPACT_SET_STABLE);

		if (c < 0)
			return c;
		yes += c == 1;
		no += c == 0;
	}
	return yes >= need;
}

int mp_compact_set_compact(struct mp_compact_set *s, const struct mp_ref_stride *shape)
{
	int c;

	if (s->link.serial)
		return majority(s, shape);
	c = round_trip(s, shape, MP_COMPACT_SET_STABLE);
	for (unsigned round = 1; round < MP_COMPACT_SET_ROUNDS && c == 0; round++)
		c = round_trip(s, shape, MP_COMPACT_SET_CONFIRM_STABLE);
	return c;
}
