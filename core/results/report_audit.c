/* SPDX-License-Identifier: MIT */
/*
 * The audit at the top of the report: which sources were read, which not
 * and why, and every disagreement in one line with the values and the
 * sources that give them.
 */
#include "core/lib/str.h"
#include "core/results/audit.h"
#include "core/results/report_int.h"

static void put_value(struct mp_buf *b, enum mp_fact f, int64_t v)
{
	char text[MP_TEXT_LEN];

	mp_fact_value(text, sizeof(text), f, v);
	mp_buf_puts(b, text);
}

/* "cpuid 0x80000006 (320M for the package)": a source in a group, with what it stated. */
static void put_source(struct mp_buf *b, const struct mp_result *r, const struct mp_verdict *v,
		       int32_t i)
{
	mp_buf_puts(b, r->audit.sources[i].name);
	if (!(v->converted & (1u << i)) && v->value[i] != MP_NA)
		return;
	mp_buf_puts(b, ": ");
	put_value(b, v->fact, v->stated[i]);
	mp_buf_puts(b, " for the package");
}

/* One group: the sources with the same value as source i, from i on. */
static void put_group(struct mp_buf *b, const struct mp_result *r, const struct mp_verdict *v,
		      int32_t i, bool *done)
{
	int32_t n = mp_count(r->audit.nsources, MP_MAX_SOURCES);
	bool first = true;

	if (v->value[i] == MP_NA)
		mp_buf_puts(b, "not compared");
	else
		put_value(b, v->fact, v->value[i]);
	mp_buf_puts(b, " (");
	for (int32_t j = i; j < n; j++) {
		if (done[j] || v->stated[j] == MP_NA || v->value[j] != v->value[i])
			continue;
		done[j] = true;
		mp_buf_puts(b, first ? "" : ", ");
		put_source(b, r, v, j);
		first = false;
	}
	mp_buf_putc(b, ')');
}

void mp_verdict_groups(struct mp_buf *b, const struct mp_result *r, const struct mp_verdict *v)
{
	bool done[MP_MAX_SOURCES] = { false };
	bool first = true;

	for (int32_t i = 0; i < mp_count(r->audit.nsources, MP_MAX_SOURCES); i++) {
		if (done[i] || v->stated[i] == MP_NA)
			continue;
		mp_buf_puts(b, first ? "" : ", ");
		put_group(b, r, v, i, done);
		first = false;
	}
}

void mp_verdict_describe(struct mp_buf *b, const struct mp_result *r, const struct mp_verdict *v)
{
	mp_verdict_groups(b, r, v);
	mp_buf_puts(b, "; measured ");
	put_value(b, v->fact, v->measured);
}

static void put_sources_read(struct mp_buf *b, const struct mp_result *r)
{
	const struct mp_audit *a = &r->audit;
	bool any = false;

	mp_buf_puts(b, "  sources read: ");
	for (int32_t i = 0; i < mp_count(a->nsources, MP_MAX_SOURCES); i++) {
		if (a->sources[i].status != MP_SOURCE_OK)
			continue;
		mp_buf_printf(b, "%s%s", any ? ", " : "", a->sources[i].name);
		any = true;
	}
	mp_buf_puts(b, any ? "\n" : "none\n");
	for (int32_t i = 0; i < mp_count(a->nsources, MP_MAX_SOURCES); i++) {
		const struct mp_source *s = &a->sources[i];

		if (s->status != MP_SOURCE_OK)
			mp_buf_printf(b, "  not read: %s: %s%s%s\n", s->name,
				      mp_source_status_name(s->status), s->message[0] ? ": " : "",
				      s->message);
	}
}

void mp_write_report_audit(struct mp_buf *b, const struct mp_result *r)
{
	const struct mp_audit *a = &r->audit;
	char label[MP_TEXT_LEN];
	int32_t n = mp_audit_disagreements(r);

	mp_buf_puts(b, "\nAudit: the documented sources against each other and the measurement\n");
	put_sources_read(b, r);
	if (a->nverdicts == 0)
		mp_buf_puts(b, "  nothing judged: no source documents a fact\n");
	else if (n == 0)
		mp_buf_printf(b, "  no disagreement in %d verdicts\n", (int)a->nverdicts);
	else
		mp_buf_printf(b, "  %d disagreement(s) in %d verdicts:\n", (int)n, (int)a->nverdicts);
	for (int32_t i = 0; i < mp_count(a->nverdicts, MP_MAX_VERDICTS); i++) {
		const struct mp_verdict *v = &a->verdicts[i];

		if (!mp_verdict_disagrees(v))
			continue;
		mp_verdict_label(label, sizeof(label), v);
		mp_buf_printf(b, "  - %s: ", label);
		mp_verdict_describe(b, r, v);
		mp_buf_putc(b, '\n');
	}
	if (a->dropped > 0)
		mp_buf_printf(b, "  (%d more facts were not judged: table full)\n", (int)a->dropped);
}
