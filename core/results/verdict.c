/* SPDX-License-Identifier: MIT */
/*
 * The verdicts (core/results/audit.h): one row per fact of each cache, TLB
 * and of the package that some source documents, with every source's value,
 * the measured one, and whether they agree.
 *
 * A size a source states for the whole package (SMBIOS type 7, the L3 of
 * CPUID Fn8000_0006) is compared as one cache's size: the package total
 * divided by the number of such caches in the package, which is the
 * package's logical CPUs over the CPUs sharing one cache (the smallest
 * sharing any source gives for that cache).  Where that number is unknown,
 * or does not divide the total, the value is not compared.
 */
#include "core/lib/bits.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/results/audit.h"

enum owner { CACHE, TLB, PACKAGE };
enum shape { COUNT, SIZE, BOOL, NAME };

#define DC(f) ((int)__builtin_offsetof(struct mp_doc_cache, f))
#define MC(f) ((int)__builtin_offsetof(struct mp_cache, f))
#define TL(f) ((int)__builtin_offsetof(struct mp_tlb, f))
#define SR(f) ((int)__builtin_offsetof(struct mp_source, f))

/* Where each fact lives: in a source's record and in a measured one (-1: never measured). */
static const struct fact {
	const char *name;
	uint8_t owner, shape;
	bool wide;                   /* int64_t; else a 32-bit integer or enum */
	int doc, measured;
	int param;                   /* the enum mp_param a measurement votes on; -1 */
} facts[MP_FACT_COUNT] = {
	[MP_FACT_SIZE] = { "size", CACHE, SIZE, true, DC(size_bytes), MC(size_bytes), MP_PARAM_SIZE },
	[MP_FACT_LINE] = { "line", CACHE, COUNT, true, DC(line_bytes), MC(line_bytes), MP_PARAM_LINE },
	[MP_FACT_WAYS] = { "ways", CACHE, COUNT, true, DC(ways), MC(ways), MP_PARAM_WAYS },
	[MP_FACT_SHARED_BY] = { "shared by", CACHE, COUNT, false, DC(shared_by), MC(shared_by),
			       -1 },
	[MP_FACT_INCLUSION] = { "inclusion", CACHE, NAME, false, DC(inclusion), MC(inclusion),
				MP_PARAM_INCLUSION },
	[MP_FACT_WRITE_ALLOCATE] = { "write allocate", CACHE, BOOL, false, DC(write_allocate),
				     MC(write_allocate), MP_PARAM_WRITE_ALLOCATE },
	[MP_FACT_ENTRIES] = { "entries", TLB, COUNT, true, TL(entries), TL(entries), MP_PARAM_ENTRIES },
	[MP_FACT_TLB_WAYS] = { "ways", TLB, COUNT, true, TL(ways), TL(ways), MP_PARAM_WAYS },
	[MP_FACT_LOGICAL_CPUS] = { "logical CPUs", PACKAGE, COUNT, false, SR(logical_cpus), -1, -1 },
	[MP_FACT_CORES] = { "cores", PACKAGE, COUNT, false, SR(cores), -1, -1 },
	[MP_FACT_THREADS_PER_CORE] = { "threads per core", PACKAGE, COUNT, false,
				       SR(threads_per_core), -1, -1 },
};

static int64_t read_at(const void *rec, int off, bool wide)
{
	int64_t v64;
	int32_t v32;

	if (!rec || off < 0)
		return MP_NA;
	if (wide) {
		mp_memcpy(&v64, (const char *)rec + off, sizeof(v64));
		return v64 < 0 ? MP_NA : v64;
	}
	mp_memcpy(&v32, (const char *)rec + off, sizeof(v32));
	return v32 < 0 ? MP_NA : v32;
}

static enum owner owner_of(const struct mp_structure *k)
{
	return k->level == 0 ? PACKAGE : k->tlb ? TLB : CACHE;
}

static bool same_tlb(const struct mp_tlb *t, const struct mp_structure *k)
{
	return t->level == k->level && t->type == k->type && t->page_bytes == k->page_bytes;
}

/* The record a source has for structure k (the source itself for the package), or NULL. */
static const void *doc_record(const struct mp_source *s, const struct mp_structure *k)
{
	if (s->status != MP_SOURCE_OK)
		return NULL;
	if (owner_of(k) == PACKAGE)
		return s;
	for (int32_t i = 0; !k->tlb && i < mp_count(s->ncaches, MP_MAX_CACHES); i++)
		if (s->caches[i].level == k->level && s->caches[i].type == k->type)
			return &s->caches[i];
	for (int32_t i = 0; k->tlb && i < mp_count(s->ntlbs, MP_MAX_TLBS); i++)
		if (same_tlb(&s->tlbs[i], k))
			return &s->tlbs[i];
	return NULL;
}

static const void *measured_record(const struct mp_result *r, const struct mp_structure *k)
{
	if (owner_of(k) == PACKAGE)
		return NULL;
	for (int32_t i = 0; !k->tlb && i < mp_count(r->ncaches, MP_MAX_CACHES); i++)
		if (r->caches[i].level == k->level && r->caches[i].type == k->type)
			return &r->caches[i];
	for (int32_t i = 0; k->tlb && i < mp_count(r->ntlbs, MP_MAX_TLBS); i++)
		if (same_tlb(&r->tlbs[i], k))
			return &r->tlbs[i];
	return NULL;
}

/* ---- the rows ---- */

static bool same_row(const struct mp_verdict *v, const struct mp_structure *k, enum mp_fact f)
{
	return v->fact == f && v->s.level == k->level && v->s.type == k->type &&
	       v->s.tlb == k->tlb && v->s.page_bytes == k->page_bytes;
}

static void want_row(struct mp_audit *a, const struct mp_structure *k, enum mp_fact f)
{
	for (int32_t i = 0; i < a->nverdicts; i++)
		if (same_row(&a->verdicts[i], k, f))
			return;
	if (a->nverdicts >= MP_MAX_VERDICTS) {
		a->dropped++;
		return;
	}
	a->verdicts[a->nverdicts++] = (struct mp_verdict){ .s = *k, .fact = f };
}

/* A row for every fact the record documents. */
static void rows_of(struct mp_audit *a, const void *rec, const struct mp_structure *k)
{
	for (int f = 0; f < MP_FACT_COUNT; f++)
		if (facts[f].owner == owner_of(k) &&
		    read_at(rec, facts[f].doc, facts[f].wide) != MP_NA)
			want_row(a, k, (enum mp_fact)f);
}

static void rows_of_source(struct mp_audit *a, const struct mp_source *s)
{
	const struct mp_structure package = { 0, MP_KIND_UNKNOWN, false, MP_NA };

	for (int32_t i = 0; i < mp_count(s->ncaches, MP_MAX_CACHES); i++) {
		const struct mp_doc_cache *c = &s->caches[i];
		const struct mp_structure k = { c->level, c->type, false, MP_NA };

		rows_of(a, c, &k);
	}
	for (int32_t i = 0; i < mp_count(s->ntlbs, MP_MAX_TLBS); i++) {
		const struct mp_tlb *t = &s->tlbs[i];
		const struct mp_structure k = { t->level, t->type, true, t->page_bytes };

		rows_of(a, t, &k);
	}
	rows_of(a, s, &package);
}

/* Report order: caches, TLBs, the package; by level, kind, page size, fact. */
static uint32_t row_key(const struct mp_verdict *v)
{
	uint32_t page = v->s.page_bytes <= 0 ? 0 : (uint32_t)__builtin_ctzll((uint64_t)v->s.page_bytes);

	return (uint32_t)owner_of(&v->s) << 28 | (uint32_t)(v->s.level & 0xff) << 20 |
	       (uint32_t)(v->s.type + 1) << 16 | page << 8 | (uint32_t)v->fact;
}

static void sort_rows(struct mp_audit *a)
{
	for (int32_t i = 1; i < a->nverdicts; i++) {
		struct mp_verdict tmp = a->verdicts[i];
		int32_t j = i;

		for (; j > 0 && row_key(&a->verdicts[j - 1]) > row_key(&tmp); j--)
			a->verdicts[j] = a->verdicts[j - 1];
		a->verdicts[j] = tmp;
	}
}

/* ---- the values ---- */

/* Caches of structure k in the package: logical CPUs over the fewest sharing one; 0 unknown. */
static int64_t caches_in_package(const struct mp_result *r, const struct mp_structure *k)
{
	int64_t cpus = r->cpu.logical_cpus, sharing = MP_NA;

	for (int32_t i = 0; i < mp_count(r->audit.nsources, MP_MAX_SOURCES); i++) {
		const struct mp_source *s = &r->audit.sources[i];
		const struct mp_doc_cache *c = doc_record(s, k);

		if (cpus <= 0 && s->status == MP_SOURCE_OK)
			cpus = s->logical_cpus;
		if (c && c->scope == MP_SCOPE_ONE && c->shared_by > 0 &&
		    (sharing == MP_NA || c->shared_by < sharing))
			sharing = c->shared_by;
	}
	return cpus > 0 && sharing > 0 && cpus % sharing == 0 ? cpus / sharing : 0;
}

static void convert_totals(const struct mp_result *r, struct mp_verdict *v)
{
	int64_t n = caches_in_package(r, &v->s);

	for (int32_t i = 0; i < mp_count(r->audit.nsources, MP_MAX_SOURCES); i++) {
		const struct mp_doc_cache *c = doc_record(&r->audit.sources[i], &v->s);

		if (!c || c->scope != MP_SCOPE_PACKAGE || v->stated[i] == MP_NA)
			continue;
		v->value[i] = n > 0 && v->stated[i] % n == 0 ? v->stated[i] / n : MP_NA;
		if (v->value[i] != MP_NA)
			v->converted |= 1u << i;
	}
}

static void judge_row(struct mp_verdict *v, int32_t nsources)
{
	int64_t first = MP_NA;
	int32_t known = 0;
	bool differ = false, off = false;

	for (int32_t i = 0; i < nsources; i++) {
		if (v->value[i] == MP_NA)
			continue;
		if (known++ == 0)
			first = v->value[i];
		differ |= v->value[i] != first;
		off |= v->value[i] != v->measured;
	}
	v->sources_agree = known < 2 ? MP_UNKNOWN : differ ? MP_NO : MP_YES;
	v->measured_agrees = v->measured == MP_NA || known == 0 ? MP_UNKNOWN : off ? MP_NO : MP_YES;
}

static void fill_row(const struct mp_result *r, struct mp_verdict *v)
{
	const struct fact *f = &facts[v->fact];
	int32_t n = mp_count(r->audit.nsources, MP_MAX_SOURCES);

	for (int32_t i = 0; i < MP_MAX_SOURCES; i++) {
		v->stated[i] = i < n ? read_at(doc_record(&r->audit.sources[i], &v->s), f->doc, f->wide)
				     : MP_NA;
		v->value[i] = v->stated[i];
	}
	v->measured = read_at(measured_record(r, &v->s), f->measured, f->wide);
	v->converted = 0;
	if (v->fact == MP_FACT_SIZE)
		convert_totals(r, v);
	judge_row(v, n);
	if (f->param >= 0 && mp_result_unstable(r, &v->s, (enum mp_param)f->param))
		v->measured_agrees = MP_UNKNOWN;   /* a split vote is no disagreement */
}

void mp_audit_judge(struct mp_result *r)
{
	struct mp_audit *a = &r->audit;

	a->nverdicts = 0;
	a->dropped = 0;
	for (int32_t i = 0; i < mp_count(a->nsources, MP_MAX_SOURCES); i++)
		if (a->sources[i].status == MP_SOURCE_OK)
			rows_of_source(a, &a->sources[i]);
	sort_rows(a);
	for (int32_t i = 0; i < a->nverdicts; i++)
		fill_row(r, &a->verdicts[i]);
}

/* ---- reading the verdicts ---- */

bool mp_verdict_disagrees(const struct mp_verdict *v)
{
	return v->sources_agree == MP_NO || v->measured_agrees == MP_NO;
}

int32_t mp_audit_disagreements(const struct mp_result *r)
{
	int32_t n = 0;

	for (int32_t i = 0; i < mp_count(r->audit.nverdicts, MP_MAX_VERDICTS); i++)
		n += mp_verdict_disagrees(&r->audit.verdicts[i]);
	return n;
}

void mp_verdict_label(char *out, size_t n, const struct mp_verdict *v)
{
	const char *name = (unsigned)v->fact < MP_FACT_COUNT ? facts[v->fact].name : "?";
	size_t len;

	if (owner_of(&v->s) == PACKAGE) {
		mp_snprintf(out, n, "package %s", name);
		return;
	}
	mp_structure_label(out, n, &v->s);
	len = mp_strlen(out);
	mp_snprintf(out + len, n - len, " %s", name);
}

bool mp_fact_is_bool(enum mp_fact f)
{
	return (unsigned)f < MP_FACT_COUNT && facts[f].shape == BOOL;
}

bool mp_fact_is_name(enum mp_fact f)
{
	return (unsigned)f < MP_FACT_COUNT && facts[f].shape == NAME;
}

void mp_fact_value(char *out, size_t n, enum mp_fact f, int64_t v)
{
	const char *name = mp_inclusion_name((enum mp_inclusion)v);
	struct mp_buf b;

	mp_buf_init(&b, out, n);
	if (v == MP_NA || (unsigned)f >= MP_FACT_COUNT)
		mp_buf_puts(&b, "-");
	else if (facts[f].shape == SIZE)
		mp_buf_size(&b, (uint64_t)v);
	else if (facts[f].shape == BOOL)
		mp_buf_puts(&b, v ? "yes" : "no");
	else if (facts[f].shape == NAME)
		mp_buf_puts(&b, name ? name : "?");
	else
		mp_buf_i64(&b, v);
}
