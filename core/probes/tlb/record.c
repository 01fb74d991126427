/* SPDX-License-Identifier: MIT */
/*
 * What the TLB test records (core/probes/tlb/tlb.h): a level's record, its
 * type as documented for the test's side, a unified level found from both
 * sides once, the rises that are no TLB, and the notes.
 */
#include "core/lib/buf.h"
#include "core/probes/tlb/tlb.h"

/* Largest documented TLB of the test's side for this page size (0: none). */
uint64_t mp_tlb_documented_entries(const struct mp_result *r, enum mp_kind side, uint64_t page)
{
	uint64_t big = 0;

	for (int32_t i = 0; i < r->documented.ntlbs && i < MP_MAX_TLBS; i++) {
		const struct mp_tlb *d = &r->documented.tlbs[i];

		if (mp_kind_serves(d->type, side) && (uint64_t)d->page_bytes == page &&
		    d->entries > 0 && (uint64_t)d->entries > big)
			big = (uint64_t)d->entries;
	}
	return big;
}

static enum mp_kind documented_type(const struct mp_result *r, enum mp_kind side, int32_t level,
				    uint64_t page)
{
	for (int32_t i = 0; i < r->documented.ntlbs && i < MP_MAX_TLBS; i++) {
		const struct mp_tlb *d = &r->documented.tlbs[i];

		if (d->level == level && mp_kind_serves(d->type, side) &&
		    (uint64_t)d->page_bytes == page)
			return d->type;
	}
	return side;
}

/* The record of this level, type and page an earlier test made (a unified level), or NULL. */
static const struct mp_tlb *measured(const struct mp_result *r, int32_t level,
				     enum mp_kind type, uint64_t page)
{
	for (int32_t i = 0; i < mp_count(r->ntlbs, MP_MAX_TLBS); i++)
		if (r->tlbs[i].level == level && r->tlbs[i].type == type &&
		    (uint64_t)r->tlbs[i].page_bytes == page)
			return &r->tlbs[i];
	return NULL;
}

/* A unified level both tests found is recorded once; a second answer that differs is said. */
static bool seen_before(struct tlb_ctx *t, const struct tlb_level *lv, int32_t level,
			enum mp_kind type)
{
	const struct mp_tlb *was = measured(t->c->r, level, type, lv->page_bytes);
	char what[MP_NOTE_LEN];

	if (!was)
		return false;
	if (was->entries != (int64_t)lv->entries) {
		mp_snprintf(what, sizeof(what), "L%d unified: %llu entries from this side, %lld "
			    "from the other; the first kept", (int)level,
			    (unsigned long long)lv->entries, (long long)was->entries);
		mp_tlb_note(t, what);
	}
	return true;
}

void mp_tlb_record(struct tlb_ctx *t, const struct tlb_level *lv, int32_t level)
{
	enum mp_kind type = documented_type(t->c->r, t->side, level, t->page);
	struct mp_tlb *rec;

	if (seen_before(t, lv, level, type) || !(rec = mp_result_add_tlb(t->c->r)))
		return;
	rec->level = level;
	rec->type = type;
	rec->entries = (int64_t)lv->entries;
	rec->page_bytes = lv->page_bytes ? (int64_t)lv->page_bytes : MP_NA;
	rec->ways = lv->ways ? (int64_t)lv->ways : MP_NA;
	rec->miss_penalty_cycles = mp_ticks_to_cycles(t->c->p, lv->above - lv->below);
	rec->method = MP_METHOD_TIMING;
}

/*
 * A confirmed rise whose "page" is smaller than the pages the memory is
 * mapped with is a cache boundary that passed the confirmation: said, not
 * recorded (docs/algorithms.md, "TLBs", page size).
 */
static void not_tlb(struct tlb_ctx *t, const struct tlb_level *lv)
{
	char what[MP_NOTE_LEN];

	mp_snprintf(what, sizeof(what), "a rise at %llu pages repeats every %llu bytes, less "
		    "than a page: a cache boundary, not a TLB level; not recorded",
		    (unsigned long long)lv->entries, (unsigned long long)lv->page_bytes);
	mp_tlb_note(t, what);
}

/*
 * X-Ray's page test says "less than a page".  On loads that is a cache
 * boundary (not_tlb); on fetches the blocks disturbed it, and the count
 * may be theirs too: not recorded, said in a note (docs/algorithms.md,
 * "Instruction TLBs").  Where blocks rose at the level's step as well,
 * the Zen 3 guest recorded 63 and 65 entries so; where they did not (the
 * confirmation's T(2,k/2) flat in the moment it was timed), 55, in two
 * rounds of four, for CPUID's 64.  No level of the simulator's library has
 * its page test disturbed.
 */
static void say_disturbed(struct tlb_ctx *t, const struct tlb_level *lv)
{
	char what[MP_NOTE_LEN];

	if (t->side == MP_KIND_DATA) {
		not_tlb(t, lv);
		return;
	}
	mp_snprintf(what, sizeof(what), "%llu entries: X-Ray's page test was disturbed by the "
		    "blocks (a \"page\" of %llu bytes): the count may be theirs too; not recorded",
		    (unsigned long long)lv->entries, (unsigned long long)lv->page_bytes);
	mp_tlb_note(t, what);
}

void mp_tlb_note(const struct tlb_ctx *t, const char *what)
{
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	mp_buf_init(&b, text, sizeof(text));
	mp_buf_puts(&b, t->side == MP_KIND_DATA ? "TLB " : "ITLB ");
	mp_buf_size(&b, t->page);
	mp_buf_printf(&b, ": %s", what);
	mp_result_add_note(t->c->r, text);
}

/*
 * The smallest rise a TLB level makes, in cycles per access
 * (docs/algorithms.md, "TLBs", miss penalty).
 */
#define TLB_MIN_PENALTY_CYCLES 0.4

static double rise_cycles(struct tlb_ctx *t, const struct tlb_level *lv)
{
	return mp_ticks_to_cycles(t->c->p, lv->above - lv->below);
}

bool mp_tlb_rise_too_small(struct tlb_ctx *t, const struct tlb_level *lv)
{
	double cycles = rise_cycles(t, lv);

	return !mp_is_na(cycles) && cycles < TLB_MIN_PENALTY_CYCLES;
}

bool mp_tlb_too_small(struct tlb_ctx *t, const struct tlb_level *lv)
{
	char what[MP_NOTE_LEN];

	if (!mp_tlb_rise_too_small(t, lv))
		return false;
	mp_snprintf(what, sizeof(what), "a rise at %llu pages of %.2f cycles per access, under "
		    "the %.1f a TLB miss costs: not a TLB level; not recorded",
		    (unsigned long long)lv->entries, rise_cycles(t, lv), TLB_MIN_PENALTY_CYCLES);
	mp_tlb_note(t, what);
	return true;
}

bool mp_tlb_keep(struct tlb_ctx *t, const struct tlb_level *lv)
{
	if (mp_tlb_too_small(t, lv))
		return false;
	if (lv->page_bytes && lv->page_bytes < t->page) {
		say_disturbed(t, lv);
		return false;
	}
	return true;
}
