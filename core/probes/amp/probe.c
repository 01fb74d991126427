/* SPDX-License-Identifier: MIT */
/*
 * The "amp" probe: every cache level whose misses the platform counts (L1D
 * to L4) and every data TLB level (DTLB1, DTLB2, for each page size the
 * platform maps), measured with AMP's algorithms (core/probes/amp/amp.h), every value
 * voted on.  Level by level from the top, so that each knows what the
 * levels above hold.
 */
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/probes/amp/amp.h"
#include "core/probes/probes.h"

/* What one level's votes decided, recorded once its type is known. */
struct decided {
	struct mp_tally t[MP_PARAM_COUNT];
	bool have[MP_PARAM_COUNT];
};

/* "cache", "DTLB"; on the instruction side "icache", "ITLB". */
static const char *kind_word(const struct amp_level *l)
{
	static const char *const words[2][2] = { { "cache", "DTLB" }, { "icache", "ITLB" } };

	return words[l->a->link.op == MP_OP_CODE][l->tlb];
}

static void note(struct amp *a, const struct amp_level *l, const char *what)
{
	char text[MP_NOTE_LEN];

	mp_snprintf(text, sizeof(text), "amp: L%d %s: %s", (int)l->level, kind_word(l), what);
	mp_result_add_note(a->c->r, text);
}

typedef enum mp_status (*algorithm)(struct amp_level *l, struct mp_tally *t);

/* Say what one algorithm decided, and what it cost. */
static void tell(const struct amp_level *l, enum mp_param p, const struct mp_tally *t,
		 uint64_t accesses)
{
	mp_logf(l->a->c->p, MP_LOG_INFO, "amp: L%d %s %s: %lld (%d/%d votes, %llu accesses)",
		(int)l->level, kind_word(l), mp_param_name(p),
		(long long)t->value, (int)t->votes, (int)t->of, (unsigned long long)accesses);
}

/* Run one algorithm; true when it decided and the counter stayed sane. */
static bool vote(struct amp_level *l, algorithm f, enum mp_param p, struct decided *d)
{
	uint64_t before = l->a->k.accesses;
	enum mp_status st = f(l, &d->t[p]);

	tell(l, p, &d->t[p], l->a->k.accesses - before);
	if (st != MP_OK && st != MP_ENOMEM)
		mp_probe_fail(l->a->c, "the platform could not run an experiment");
	d->have[p] = st == MP_OK && d->t[p].value != MP_NA && mp_counter_has(&l->a->k, l->ev);
	return d->have[p];
}

static void record(struct amp *a, const struct amp_level *l, enum mp_kind type,
		   const struct decided *d)
{
	struct mp_structure s = { l->level, type, l->tlb, l->tlb ? (int64_t)a->mem.page_bytes
								 : MP_NA };

	for (int p = 0; p < MP_PARAM_COUNT; p++) {
		struct mp_vote *c;

		if (!d->have[p])
			continue;
		c = mp_result_add_counted(a->c->r, "amp", &s, (enum mp_param)p);
		if (!c)
			return;
		mp_vote_from(c, &d->t[p]);
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
	if (amp_settle_size(l, &ok) != MP_OK || !ok) {
		note(l->a, l, "no associativity explains where its misses begin: capacity not told");
		d->have[size] = false;
		return true;
	}
	d->t[size].value = (int64_t)(l->tlb ? l->size / l->unit : l->size);
	if (l->exclusive)
		note(l->a, l, "its misses begin only when it and the levels above are full (an "
				 "exclusive or non-inclusive level): capacity from 3.3");
	return true;
}

/*
 * A data L1 counts data misses; below it, and at every instruction level,
 * 3.6 tells one side's structure from a unified one: data, code, data again
 * for a data level; code, data, code again for an instruction level.
 */
static enum mp_kind level_type(struct amp_level *l)
{
	bool code = l->a->link.op == MP_OP_CODE;
	struct mp_tally t;

	if (l->level == 1 && !code)
		return MP_KIND_DATA;
	if (l->ways && l->assoc != l->ways)
		note(l->a, l, "3.6 aims at one set, and 3.3's is several or not told: type assumed");
	else if (amp_unified(l, &t) == MP_OK && t.value != MP_NA)
		return (enum mp_kind)t.value;
	else
		note(l->a, l, "the other side could not run between the passes (3.6): type assumed");
	return code ? MP_KIND_INSTRUCTION : l->tlb ? MP_KIND_DATA : MP_KIND_UNIFIED;
}

/*
 * In memory that is not physically contiguous the capacity and the ways
 * are measured again in the other half of the array, and kept only if the
 * frames there tell the same (docs/algorithms.md, "Counter-based probes",
 * frames).
 */
static bool frames_agree(struct amp_level *l)
{
	struct amp *a = l->a;
	struct mp_mem whole = a->mem;
	struct mp_tally t;
	uint64_t size = l->size, ways = l->ways, assoc = l->assoc, half = whole.bytes / 2;
	bool ok = false;

	if (whole.contiguous || l->tlb)
		return true;
	half -= half % whole.page_bytes;
	a->mem.base += half;
	a->mem.bytes -= half;
	if (amp_boundary(l, &t) == MP_OK && t.value != MP_NA) {
		l->boundary = (uint64_t)t.value;
		ok = amp_settle_size(l, &ok) == MP_OK && ok && l->size == size &&
		     amp_ways(l, &t) == MP_OK && l->ways == ways && l->assoc == assoc;
	}
	a->mem = whole;
	l->size = size;
	l->ways = ways;
	l->assoc = assoc;
	if (!ok)
		note(a, l, "memory not physically contiguous and its sets depend on the frames: "
			   "capacity and ways not told");
	return ok;
}

/*
 * What 3.3's set turned out to be when it is not one set (docs/algorithms.md,
 * "Counter-based probes", hashed sets).
 */
static void tell_split(const struct amp_level *l)
{
	char text[MP_NOTE_LEN];

	if (l->assoc == l->ways)
		return;
	if (l->assoc)
		mp_snprintf(text, sizeof(text), "3.3's set of %llu lines is %llu sets of %llu ways "
			    "(slices of a hashed index, or sets its stride joined): "
			    "replacement not told", (unsigned long long)l->ways,
			    (unsigned long long)(l->ways / l->assoc), (unsigned long long)l->assoc);
	else
		mp_snprintf(text, sizeof(text), "3.3's set of %llu lines is no one set: one line "
			    "more overfilled neither it nor one slice of a hashed index: ways and "
			    "capacity (which 3.3 settled) not told", (unsigned long long)l->ways);
	note(l->a, l, text);
}

/* One level, every parameter; its values go into the result. */
static bool measure_level(struct amp_level *l)
{
	struct decided d = { 0 };
	enum mp_param size = l->tlb ? MP_PARAM_ENTRIES : MP_PARAM_SIZE;

	if (!unit_and_size(l, &d))
		return false;
	if (d.have[size]) {
		vote(l, amp_ways, MP_PARAM_WAYS, &d);
		if (l->ways)
			tell_split(l);
		d.have[size] = l->assoc || !l->ways;
	}
	if (l->ways && !frames_agree(l)) {
		d.have[size] = d.have[MP_PARAM_WAYS] = false;
		l->ways = 0;
	}
	if (!l->tlb && l->ways && l->a->link.op == MP_OP_CHASE) {
		vote(l, amp_write_allocate, MP_PARAM_WRITE_ALLOCATE, &d);
		if (l->assoc == l->ways)
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

static struct amp amp;

/* Loads for the data levels, code blocks (as short as the platform makes them) for instructions. */
static void set_side(struct amp *a, bool code)
{
	a->link = code ? mp_linker_code(a->c->p, 0) : mp_linker_data(a->c->p);
	a->word = mp_link_elem(&a->link);
}

/* The levels of one kind, top down: the caches, or the TLBs of one page size, of one
 * side (an mp_counter_levels_fn). */
static unsigned measure_levels(void *probe, const struct mp_counter_pass *pass)
{
	struct amp *a = probe;
	struct amp_above up = { 0, 0, 0, MP_EV_COUNT };
	unsigned done = 0;

	set_side(a, pass->code);
	for (unsigned i = 0; i < mp_counter_nlevels && a->c->self->status == MP_PROBE_OK; i++) {
		struct amp_level l = { .a = a, .ev = mp_counter_levels[i].ev, .tlb = pass->tlb,
				       .level = mp_counter_levels[i].level, .page = pass->page,
				       .above = up };

		if (mp_counter_levels[i].tlb != pass->tlb || mp_counter_levels[i].code != pass->code ||
		    !mp_counter_has(&a->k, l.ev))
			continue;
		mp_progress(a->c->p, "amp", i, mp_counter_nlevels);
		if (!measure_level(&l))
			continue;
		pass_down(&l, &up);
		done++;
	}
	return done;
}


void mp_probe_amp(struct mp_ctx *c)
{
	mp_memset(&amp, 0, sizeof(amp));
	amp.c = c;
	mp_rng_seed(&amp.g, c->cfg->seed);
	mp_counter_probe(&amp.k, c, &amp.mem, measure_levels, &amp, true);
}
