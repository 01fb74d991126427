/* SPDX-License-Identifier: MIT */
/*
 * The documented sources in the report, each record beside its source's
 * name (caches, TLBs, the package), and the verdicts table: every fact with
 * the sources grouped by the value they give, the measured value and the
 * verdict.
 */
#include "core/lib/str.h"
#include "core/results/audit.h"
#include "core/results/report_int.h"

#define NA "-"

typedef char cells_t[MP_REPORT_COLS][MP_REPORT_CELL];

static int32_t source_count(const struct mp_result *r)
{
	return mp_count(r->audit.nsources, MP_MAX_SOURCES);
}

static int32_t records_of(const struct mp_source *s, bool tlb)
{
	return tlb ? mp_count(s->ntlbs, MP_MAX_TLBS) : mp_count(s->ncaches, MP_MAX_CACHES);
}

static int32_t total_records(const struct mp_result *r, bool tlb)
{
	int32_t n = 0;

	for (int32_t i = 0; i < source_count(r); i++)
		n += records_of(&r->audit.sources[i], tlb);
	return n;
}

/* Record k over every source's table: the source, and *at its index there. */
static const struct mp_source *locate(const struct mp_result *r, int32_t k, bool tlb, int32_t *at)
{
	for (int32_t i = 0; i < source_count(r); i++) {
		const struct mp_source *s = &r->audit.sources[i];

		if (k < records_of(s, tlb)) {
			*at = k;
			return s;
		}
		k -= records_of(s, tlb);
	}
	return NULL;
}

static void put(char *cell, enum mp_fact f, int64_t v)
{
	mp_fact_value(cell, MP_TEXT_LEN, f, v);
}

static void put_level(char *cell, int32_t level, enum mp_kind type, char *type_cell)
{
	const char *kind = mp_kind_name(type);

	mp_snprintf(cell, MP_TEXT_LEN, "L%d", (int)level);
	mp_strlcpy(type_cell, kind ? kind : NA, MP_TEXT_LEN);
}

static const char *const cache_head[] = {
	"source", "level", "type", "size", "covers", "line", "ways", "shared-by", "inclusion",
	"write-alloc", NULL,
};

static void cache_row(const struct mp_result *r, int32_t i, cells_t cells)
{
	int32_t at = 0;
	const struct mp_source *s = locate(r, i, false, &at);
	const struct mp_doc_cache *c = &s->caches[at];

	mp_strlcpy(cells[0], s->name, MP_TEXT_LEN);
	put_level(cells[1], c->level, c->type, cells[2]);
	put(cells[3], MP_FACT_SIZE, c->size_bytes);
	mp_strlcpy(cells[4], c->size_bytes == MP_NA ? NA : mp_scope_name(c->scope), MP_TEXT_LEN);
	put(cells[5], MP_FACT_LINE, c->line_bytes);
	put(cells[6], MP_FACT_WAYS, c->ways);
	put(cells[7], MP_FACT_SHARED_BY, c->shared_by);
	put(cells[8], MP_FACT_INCLUSION, c->inclusion);
	put(cells[9], MP_FACT_WRITE_ALLOCATE, c->write_allocate);
}

static const char *const tlb_head[] = { "source", "level", "type", "entries", "page", "ways", NULL };

static void tlb_row(const struct mp_result *r, int32_t i, cells_t cells)
{
	int32_t at = 0;
	const struct mp_source *s = locate(r, i, true, &at);
	const struct mp_tlb *t = &s->tlbs[at];

	mp_strlcpy(cells[0], s->name, MP_TEXT_LEN);
	put_level(cells[1], t->level, t->type, cells[2]);
	put(cells[3], MP_FACT_ENTRIES, t->entries);
	put(cells[4], MP_FACT_SIZE, t->page_bytes);
	put(cells[5], MP_FACT_TLB_WAYS, t->ways);
}

static const char *const verdict_head[] = { "fact", "documented", "measured", "verdict", NULL };

static const char *verdict_word(const struct mp_verdict *v)
{
	if (v->sources_agree == MP_NO)
		return v->measured_agrees == MP_NO ? "DISAGREE (sources, measured)"
						   : "DISAGREE (sources)";
	if (v->measured_agrees == MP_NO)
		return "DISAGREE (measured)";
	if (v->sources_agree == MP_YES || v->measured_agrees == MP_YES)
		return "agree";
	return "one value";
}

static void verdict_row(const struct mp_result *r, int32_t i, cells_t cells)
{
	const struct mp_verdict *v = &r->audit.verdicts[i];
	struct mp_buf b;

	mp_verdict_label(cells[0], MP_TEXT_LEN, v);
	mp_buf_init(&b, cells[1], MP_TEXT_LEN);
	mp_verdict_groups(&b, r, v);
	put(cells[2], v->fact, v->measured);
	mp_strlcpy(cells[3], verdict_word(v), MP_TEXT_LEN);
}

void mp_write_report_sources(struct mp_buf *b, const struct mp_result *r)
{
	mp_buf_puts(b, "\nCaches by documented source (covers: one cache, or the package's together)\n");
	mp_report_table(b, cache_head, total_records(r, false), cache_row, r);
	mp_buf_puts(b, "\nTLBs by documented source\n");
	mp_report_table(b, tlb_head, total_records(r, true), tlb_row, r);
	mp_buf_puts(b, "\nVerdicts (package totals compared as one cache's size)\n");
	mp_report_table(b, verdict_head, mp_count(r->audit.nverdicts, MP_MAX_VERDICTS), verdict_row,
			r);
}
