/* SPDX-License-Identifier: MIT */
/*
 * core/results/verdict.c, audit.c and report_audit.c: the verdicts across
 * sources and against the measurement, package totals compared as one
 * cache's size, sources that could not be read, and the audit at the top of
 * the report.
 */
#include <stdio.h>

#include "core/lib/str.h"
#include "core/results/audit.h"
#include "core/results/writers.h"
#include "tests/check.h"

#define K 1024ll
#define M (1024ll * 1024)

static struct mp_result r;
static char out[1 << 17];

static struct mp_doc_cache *doc(struct mp_source *s, int level, enum mp_kind type, int64_t size,
				enum mp_scope scope, int32_t shared)
{
	struct mp_doc_cache *c = mp_source_add_cache(s);

	c->level = level;
	c->type = type;
	c->size_bytes = size;
	c->scope = scope;
	c->shared_by = shared;
	c->line_bytes = 64;
	return c;
}

static const struct mp_verdict *verdict(int level, enum mp_kind type, enum mp_fact fact)
{
	for (int32_t i = 0; i < r.audit.nverdicts; i++) {
		const struct mp_verdict *v = &r.audit.verdicts[i];

		if (v->s.level == level && v->s.type == type && v->fact == fact && !v->s.tlb)
			return v;
	}
	return NULL;
}

/* A CPUID-like source and an SMBIOS-like one for a 6-core package without SMT. */
static void fill(void)
{
	struct mp_source *a, *b;
	struct mp_cache *m;

	mp_result_init(&r, "test");
	r.cpu.logical_cpus = 6;
	a = mp_audit_add_source(&r, "cpuid 4");
	doc(a, 1, MP_KIND_DATA, 32 * K, MP_SCOPE_ONE, 1)->ways = 8;
	doc(a, 2, MP_KIND_UNIFIED, 256 * K, MP_SCOPE_ONE, 1);
	doc(a, 3, MP_KIND_UNIFIED, 9 * M, MP_SCOPE_ONE, 6);
	b = mp_audit_add_source(&r, "smbios type 7");
	doc(b, 1, MP_KIND_DATA, 192 * K, MP_SCOPE_PACKAGE, MP_NA)->ways = 12;
	doc(b, 2, MP_KIND_UNIFIED, 1536 * K, MP_SCOPE_PACKAGE, MP_NA);
	doc(b, 3, MP_KIND_UNIFIED, 18 * M, MP_SCOPE_PACKAGE, MP_NA);
	doc(b, 4, MP_KIND_UNIFIED, 64 * M, MP_SCOPE_PACKAGE, MP_NA);
	mp_audit_source_missing(&r, "acpi pptt", MP_SOURCE_UNREADABLE, "run as root");
	m = mp_result_add_cache(&r);
	m->level = 1;
	m->type = MP_KIND_DATA;
	m->size_bytes = 32 * K;
	m->ways = 8;
	mp_audit_judge(&r);
}

static void test_verdicts(void)
{
	const struct mp_verdict *v;

	fill();
	v = verdict(2, MP_KIND_UNIFIED, MP_FACT_SIZE);
	CHECK(v && v->value[1] == 256 * K && v->stated[1] == 1536 * K && (v->converted & 2) &&
		      v->sources_agree == MP_YES && !mp_verdict_disagrees(v),
	      "L2: 1536K for the package of 6 is 256K each: agrees");
	v = verdict(3, MP_KIND_UNIFIED, MP_FACT_SIZE);
	CHECK(v && v->value[1] == 18 * M && v->sources_agree == MP_NO && mp_verdict_disagrees(v),
	      "L3 shared by 6 of 6: one cache; 18M against 9M disagrees");
	v = verdict(1, MP_KIND_DATA, MP_FACT_SIZE);
	CHECK(v && v->value[1] == 32 * K && v->measured == 32 * K && v->measured_agrees == MP_YES,
	      "L1 data: 192K over 6 caches is 32K, as measured");
	v = verdict(1, MP_KIND_DATA, MP_FACT_WAYS);
	CHECK(v && v->sources_agree == MP_NO && v->measured == 8 && v->measured_agrees == MP_NO,
	      "L1 data ways: 8 and 12, measured 8: disagreement with both");
	v = verdict(4, MP_KIND_UNIFIED, MP_FACT_SIZE);
	CHECK(v && v->value[1] == MP_NA && v->stated[1] == 64 * M &&
		      v->sources_agree == MP_UNKNOWN && !mp_verdict_disagrees(v),
	      "L4: no sharing known, the package total is not compared");
	v = verdict(1, MP_KIND_DATA, MP_FACT_SHARED_BY);
	CHECK(v && v->sources_agree == MP_UNKNOWN && v->measured_agrees == MP_UNKNOWN,
	      "a fact one source gives and nothing measured: no verdict either way");
	CHECK_EQ_INT(mp_audit_disagreements(&r), 2, "disagreements: L3 size, L1 ways");
	CHECK(r.audit.verdicts[0].s.level == 1 && r.audit.verdicts[0].fact == MP_FACT_SIZE,
	      "verdicts in report order: L1 data size first");
}

/* The sharing the cores probe measured is judged against the documented "shared by". */
static void test_shared_by_measured(void)
{
	const struct mp_verdict *v;
	struct mp_cache *m;

	fill();
	r.caches[0].shared_by = 2;
	m = mp_result_add_cache(&r);
	m->level = 3;
	m->type = MP_KIND_UNIFIED;
	m->shared_by = 6;
	mp_audit_judge(&r);
	v = verdict(1, MP_KIND_DATA, MP_FACT_SHARED_BY);
	CHECK(v && v->measured == 2 && v->measured_agrees == MP_NO && mp_verdict_disagrees(v),
	      "L1 data measured shared by 2, documented 1: disagreement");
	v = verdict(3, MP_KIND_UNIFIED, MP_FACT_SHARED_BY);
	CHECK(v && v->measured == 6 && v->measured_agrees == MP_YES,
	      "L3 measured shared by 6, documented 6: agrees");
}

static void test_unreadable_ignored(void)
{
	fill();
	r.audit.sources[1].status = MP_SOURCE_INVALID;
	mp_audit_judge(&r);
	CHECK(mp_audit_disagreements(&r) == 0 && verdict(4, MP_KIND_UNIFIED, MP_FACT_SIZE) == NULL,
	      "a source that is not ok gives no verdict");
}

static void test_report(void)
{
	const char *line;
	struct mp_buf b;

	fill();
	mp_buf_init(&b, out, sizeof(out));
	mp_write_report(&b, &r);
	CHECK(strstr(out, "Audit") && strstr(out, "Audit") < strstr(out, "Caches (measured)"),
	      "the report opens with the audit, before the tables");
	CHECK(strstr(out, "  - L3 unified size: 9M (cpuid 4), 18M (smbios type 7: 18M for the "
			  "package); measured -\n") != NULL,
	      "the L3 disagreement, with every value and source");
	CHECK(strstr(out, "  - L1 data ways: 8 (cpuid 4), 12 (smbios type 7); measured 8\n") != NULL,
	      "the L1 ways disagreement, with the measurement");
	CHECK(strstr(out, "  not read: acpi pptt: unreadable: run as root\n") != NULL,
	      "the source not read, and why");
	CHECK(strstr(out, "2 disagreement(s)") != NULL, "the count of disagreements");
	line = strstr(out, "\n  L2 unified size ");
	CHECK(line && strstr(line, " 256K (cpuid 4, smbios type 7: 1536K for the package) ") &&
		      strstr(line, " 256K (cpuid 4") < strchr(line + 1, '\n'),
	      "the verdict table groups the sources by value");
}

static void test_full_table(void)
{
	struct mp_source *s;

	mp_result_init(&r, "test");
	for (int i = 0; i < 3; i++) {
		s = mp_audit_add_source(&r, i == 0 ? "a" : i == 1 ? "b" : "c");
		for (int level = 1; level <= MP_MAX_CACHES; level++)
			doc(s, level + 8 * i, (enum mp_kind)(level % 3), level * K, MP_SCOPE_ONE, 1);
		for (int t = 0; t < MP_MAX_TLBS; t++) {
			struct mp_tlb *tlb = mp_source_add_tlb(s);

			tlb->level = t + 1 + 8 * i;
			tlb->type = MP_KIND_DATA;
			tlb->entries = 64;
			tlb->page_bytes = 4096 << (t % 2 * 9);
			tlb->ways = 4;
		}
	}
	mp_audit_judge(&r);
	CHECK(r.audit.nverdicts == MP_MAX_VERDICTS && r.audit.dropped > 0,
	      "more facts than verdicts: the table is full and the rest counted (%d)",
	      (int)r.audit.dropped);
	for (int i = 0; i < MP_MAX_SOURCES; i++)
		mp_audit_add_source(&r, "more");
	CHECK(r.audit.nsources == MP_MAX_SOURCES && r.nnotes == 3 &&
		      strcmp(r.notes[0], "audit: source more left out: more than 12 sources") == 0,
	      "each source past the table is left out with a note");
}

int main(void)
{
	test_verdicts();
	test_shared_by_measured();
	test_unreadable_ignored();
	test_report();
	test_full_table();
	return check_done();
}
