/* SPDX-License-Identifier: MIT */
/*
 * Probe "evset": a level measured (core/probes/evset/run.h), settled
 * against what compact sets recorded, described in the probe's message
 * and noted with the method its values come from.
 */
#include "core/lib/buf.h"
#include "core/probes/evset/run.h"

/* Did compact sets measure the level (size, ways and line)? */
static bool compact_measured(const struct mp_cache *rec)
{
	return rec && rec->size_bytes > 0 && rec->ways > 0 && rec->line_bytes > 0;
}

static bool agree(const struct mp_cache *rec, const struct level *lv)
{
	return (!lv->ways || rec->ways == (int64_t)lv->ways) &&
	       (!lv->line || rec->line_bytes == (int64_t)lv->line) &&
	       (!lv->size || rec->size_bytes == (int64_t)lv->size);
}

static int64_t or_na(uint64_t v)
{
	return v ? (int64_t)v : MP_NA;
}

static void record(struct mp_cache *rec, const struct level *lv)
{
	rec->size_bytes = or_na(lv->size);
	rec->ways = or_na(lv->ways);
	rec->line_bytes = or_na(lv->line);
	rec->method = MP_METHOD_EVSETS;
}

/*
 * Exclusive by its sets (exclusion.c), where nothing else said what its
 * inclusion is; where compact sets said otherwise, a note (theirs stands).
 */
static void record_exclusive(struct mp_ctx *c, struct mp_cache *rec, const struct level *lv)
{
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	if (!lv->exclusive || rec->inclusion == MP_INCL_EXCLUSIVE)
		return;
	if (rec->inclusion == MP_INCL_UNKNOWN) {
		rec->inclusion = MP_INCL_EXCLUSIVE;
		return;
	}
	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "evset: L%d: its sets hold as many lines as its ways and those above "
		      "together (exclusive); compact sets found it %s, and stand", (int)lv->level,
		      mp_inclusion_name(rec->inclusion));
	mp_result_add_note(c->r, text);
}

/* The level in the probe's message: what was measured, what not and why. */
void evset_describe(struct mp_buf *b, const struct level *lv)
{
	mp_buf_printf(b, "%sL%d ", b->len ? "; " : "", (int)lv->level);
	if (!lv->ways && lv->line) {
		mp_buf_printf(b, "%llu B line; ways and size not measured: %s",
			      (unsigned long long)lv->line, lv->why);
		return;
	}
	if (!lv->ways) {
		mp_buf_printf(b, "not measured: %s", lv->why);
		return;
	}
	if (lv->size) {
		mp_buf_size(b, lv->size);
		mp_buf_putc(b, ' ');
	}
	mp_buf_printf(b, "%llu-way", (unsigned long long)lv->ways);
	if (lv->line)
		mp_buf_printf(b, " %llu B", (unsigned long long)lv->line);
	if (lv->exclusive)
		mp_buf_puts(b, " exclusive");
	if (!lv->line)
		mp_buf_puts(b, "; line not measured");
	if (lv->why)
		mp_buf_printf(b, "; size not measured: %s", lv->why);
}

/* The classes a count found, all of them (some by a conflict set) or not. */
static void put_classes(struct mp_buf *b, const struct level *lv)
{
	if (lv->classes)
		mp_buf_printf(b, "; %llu congruence classes at a page offset",
			      (unsigned long long)lv->classes);
	if (lv->classes && lv->conflict)
		mp_buf_printf(b, " (%llu of them by a conflict set: the count had too little time)",
			      (unsigned long long)lv->conflict);
	if (!lv->classes && lv->counted)
		mp_buf_printf(b, "; %llu congruence classes counted%s before the count stopped",
			      (unsigned long long)lv->counted,
			      lv->within ? " among the lines of the victim's class above" : "");
}

/* The method the level's values come from, and why, in a note. */
void evset_note_method(struct run *rn, const struct level *lv, const char *method)
{
	uint64_t page = rn->m.page_bytes;
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "evset: L%d: %s", (int)lv->level, method);
	if (lv->sharing > 1)
		mp_buf_printf(&b, "; lines of %llu of a page's %llu line offsets share each set",
			      (unsigned long long)lv->sharing, (unsigned long long)(page / lv->line));
	put_classes(&b, lv);
	if (lv->alone)
		mp_buf_puts(&b, "; its ways rest on the victim's minimal set alone "
				"(no second class's set bore them out)");
	mp_result_add_note(rn->c->r, text);
}

static void note_disagree(struct mp_ctx *c, const struct mp_cache *rec, const struct level *lv)
{
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "evset: L%d: eviction sets found %llu-way, %llu B lines, ", (int)lv->level,
		      (unsigned long long)lv->ways, (unsigned long long)lv->line);
	mp_buf_size(&b, lv->size);
	mp_buf_printf(&b, "; compact sets in contiguous memory found %lld-way, %lld B lines, ",
		      (long long)rec->ways, (long long)rec->line_bytes);
	mp_buf_size(&b, (uint64_t)rec->size_bytes);
	mp_buf_puts(&b, ", and stand");
	mp_result_add_note(c->r, text);
}

/* Which method the level's values come from, and why; the record updated. */
const char *evset_settle(struct run *rn, struct mp_cache *rec, const struct level *lv)
{
	record_exclusive(rn->c, rec, lv);
	if (rn->contiguous && compact_measured(rec)) {
		if (lv->ways && !agree(rec, lv))
			note_disagree(rn->c, rec, lv);
		return lv->ways ? (agree(rec, lv) ? "compact sets and eviction sets agree"
						  : "compact sets stand; eviction sets disagree")
				: "compact sets stand";
	}
	/* A whole record is not traded for one without a size that agrees with it. */
	if (lv->ways && !lv->size && compact_measured(rec) && agree(rec, lv))
		return "the record stands; eviction sets agree on ways and line, size not measured";
	if (lv->ways)
		record(rec, lv);
	if (!lv->ways && lv->line && rec->line_bytes <= 0) {
		rec->line_bytes = (int64_t)lv->line;
		rec->method = MP_METHOD_EVSETS;
	}
	if (!rn->contiguous)
		return "eviction sets: memory is not physically contiguous";
	return "eviction sets: compact sets did not measure it";
}
