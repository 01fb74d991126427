/* SPDX-License-Identifier: MIT */
/*
 * The human report: the tables of the papers (caches, TLBs, memory, CPU),
 * what the vendor documents and where the measurement disagrees with it,
 * the probes and the notes.  A value not available prints as "-".
 */
#include <stddef.h>

#include "core/lib/bits.h"
#include "core/lib/str.h"
#include "core/results/report_int.h"
#include "core/results/writers.h"

#define MAX_COLS MP_REPORT_COLS
#define CELL_LEN MP_REPORT_CELL
#define NA "-"

typedef char row_t[MAX_COLS][CELL_LEN];

/* A table: column titles (NULL-terminated) and a function filling row i. */
struct table {
	const char *const *head;
	int32_t nrows;
	void (*row)(const struct mp_result *r, int32_t i, row_t cells);
};

/* ---- cells ---- */

static void cell_int(char *cell, int64_t v)
{
	if (v < 0)
		mp_strlcpy(cell, NA, CELL_LEN);
	else
		mp_snprintf(cell, CELL_LEN, "%lld", (long long)v);
}

static void cell_size(char *cell, int64_t v)
{
	struct mp_buf b;

	mp_buf_init(&b, cell, CELL_LEN);
	if (v < 0)
		mp_buf_puts(&b, NA);
	else
		mp_buf_size(&b, (uint64_t)v);
}

static void cell_double(char *cell, double v, unsigned decimals)
{
	struct mp_buf b;

	mp_buf_init(&b, cell, CELL_LEN);
	if (mp_is_na(v))
		mp_buf_puts(&b, NA);
	else
		mp_buf_double(&b, v, decimals);
}

static void cell_str(char *cell, const char *s)
{
	mp_strlcpy(cell, s && s[0] ? s : NA, CELL_LEN);
}

static void cell_tristate(char *cell, enum mp_tristate t)
{
	cell_str(cell, t == MP_YES ? "yes" : t == MP_NO ? "no" : NA);
}

/* "L2" or "-". */
static void cell_level(char *cell, int32_t level)
{
	if (level < 0)
		cell_str(cell, NA);
	else
		mp_snprintf(cell, CELL_LEN, "L%d", (int)level);
}

/* A value with its unit, or "-". */
static void cell_unit(char *cell, double v, unsigned decimals, const char *unit)
{
	cell_double(cell, v, decimals);
	if (!mp_is_na(v))
		mp_snprintf(cell + mp_strlen(cell), CELL_LEN - mp_strlen(cell), " %s", unit);
}

/* ---- tables ---- */

static size_t ncols(const struct table *t)
{
	size_t n = 0;

	while (t->head[n] && n < MAX_COLS)
		n++;
	return n;
}

static void pad(struct mp_buf *b, char c, size_t n)
{
	while (n--)
		mp_buf_putc(b, c);
}

static void put_line(struct mp_buf *b, const char *const *cells, size_t n, const size_t *width)
{
	mp_buf_puts(b, "  ");
	for (size_t c = 0; c < n; c++) {
		mp_buf_puts(b, cells[c]);
		if (c + 1 < n)
			pad(b, ' ', width[c] + 2 - mp_strlen(cells[c]));
	}
	mp_buf_putc(b, '\n');
}

static void put_rule(struct mp_buf *b, size_t n, const size_t *width)
{
	mp_buf_puts(b, "  ");
	for (size_t c = 0; c < n; c++) {
		pad(b, '-', width[c]);
		if (c + 1 < n)
			pad(b, ' ', 2);
	}
	mp_buf_putc(b, '\n');
}

/* Fill row i and point cells[] at its columns. */
static void fill(const struct table *t, const struct mp_result *r, int32_t i, row_t row,
		 const char **cells)
{
	for (size_t c = 0; c < MAX_COLS; c++) {
		row[c][0] = '\0';
		cells[c] = row[c];
	}
	t->row(r, i, row);
}

static void widths(const struct table *t, const struct mp_result *r, size_t n, size_t *width)
{
	const char *cells[MAX_COLS];
	row_t row;

	for (size_t c = 0; c < n; c++)
		width[c] = mp_strlen(t->head[c]);
	for (int32_t i = 0; i < t->nrows; i++) {
		fill(t, r, i, row, cells);
		for (size_t c = 0; c < n; c++)
			if (mp_strlen(cells[c]) > width[c])
				width[c] = mp_strlen(cells[c]);
	}
}

/* Two passes: measure every column, then print aligned. */
static void put_table(struct mp_buf *b, const struct table *t, const struct mp_result *r)
{
	const char *cells[MAX_COLS];
	size_t width[MAX_COLS], n = ncols(t);
	row_t row;

	if (t->nrows <= 0) {
		mp_buf_puts(b, "  (none)\n");
		return;
	}
	widths(t, r, n, width);
	put_line(b, t->head, n, width);
	put_rule(b, n, width);
	for (int32_t i = 0; i < t->nrows; i++) {
		fill(t, r, i, row, cells);
		put_line(b, cells, n, width);
	}
}

/* ---- measured ---- */

static const char *const cache_head[] = {
	"level", "type", "size", "effective", "line", "ways", "latency(cyc)", "latency(ns)",
	"write-alloc", "replacement", "inclusion", "method", NULL,
};

static void cache_row(const struct mp_result *r, int32_t i, row_t cells)
{
	const struct mp_cache *c = &r->caches[i];

	cell_level(cells[0], c->level);
	cell_str(cells[1], mp_kind_name(c->type));
	cell_size(cells[2], c->size_bytes);
	cell_size(cells[3], c->effective_size_bytes);
	cell_int(cells[4], c->line_bytes);
	cell_int(cells[5], c->ways);
	cell_double(cells[6], c->latency_cycles, 1);
	cell_double(cells[7], c->latency_ns, 2);
	cell_tristate(cells[8], c->write_allocate);
	cell_str(cells[9], mp_replacement_name(c->replacement));
	cell_str(cells[10], mp_inclusion_name(c->inclusion));
	cell_str(cells[11], mp_method_name(c->method));
}

static const char *const tlb_head[] = {
	"level", "type", "entries", "page", "ways", "miss(cyc)", "method", NULL,
};

static void tlb_row(const struct mp_result *r, int32_t i, row_t cells)
{
	const struct mp_tlb *t = &r->tlbs[i];

	cell_level(cells[0], t->level);
	cell_str(cells[1], mp_kind_name(t->type));
	cell_int(cells[2], t->entries);
	cell_size(cells[3], t->page_bytes);
	cell_int(cells[4], t->ways);
	cell_double(cells[5], t->miss_penalty_cycles, 1);
	cell_str(cells[6], mp_method_name(t->method));
}

static void kv(struct mp_buf *b, const char *label, const char *value)
{
	mp_buf_printf(b, "  %-18s%s\n", label, value); /* 18: the longest label and a gap */
}

static void kv_int(struct mp_buf *b, const char *label, int64_t v)
{
	char cell[CELL_LEN];

	cell_int(cell, v);
	kv(b, label, cell);
}

static void kv_double(struct mp_buf *b, const char *label, double v, unsigned decimals)
{
	char cell[CELL_LEN];

	cell_double(cell, v, decimals);
	kv(b, label, cell);
}

static void kv_unit(struct mp_buf *b, const char *label, double v, unsigned decimals,
		    const char *unit)
{
	char cell[CELL_LEN];

	cell_unit(cell, v, decimals, unit);
	kv(b, label, cell);
}

static void put_header(struct mp_buf *b, const struct mp_result *r)
{
	const struct mp_machine *m = &r->machine;

	mp_buf_puts(b, MP_TOOL_NAME " " MP_VERSION " report\n\n");
	kv(b, "platform", r->platform[0] ? r->platform : NA);
	kv(b, "vendor", m->vendor[0] ? m->vendor : NA);
	kv(b, "brand", m->brand[0] ? m->brand : NA);
	kv_int(b, "family", m->family);
	kv_int(b, "model", m->model);
	kv_int(b, "stepping", m->stepping);
}

static void put_measured(struct mp_buf *b, const struct mp_result *r)
{
	const struct table caches = { cache_head, mp_count(r->ncaches, MP_MAX_CACHES), cache_row };
	const struct table tlbs = { tlb_head, mp_count(r->ntlbs, MP_MAX_TLBS), tlb_row };

	mp_buf_puts(b, "\nCaches (measured)\n");
	put_table(b, &caches, r);
	mp_buf_puts(b, "\nTLBs (measured)\n");
	put_table(b, &tlbs, r);
	mp_buf_puts(b, "\nMemory\n");
	kv_double(b, "latency (cycles)", r->memory.latency_cycles, 1);
	kv_double(b, "latency (ns)", r->memory.latency_ns, 2);
	mp_buf_puts(b, "\nCPU\n");
	kv_unit(b, "TSC frequency", r->cpu.tsc_hz / 1e6, 3, "MHz");
	kv_unit(b, "core frequency", r->cpu.core_hz / 1e6, 3, "MHz");
	kv_int(b, "logical CPUs", r->cpu.logical_cpus);
	kv_int(b, "cores", r->cpu.cores);
	kv_int(b, "threads per core", r->cpu.threads_per_core);
}

/* ---- documented, and the comparison ---- */

static const char *const doc_cache_head[] = {
	"level", "type", "size", "line", "ways", "shared-by", NULL,
};

static void doc_cache_row(const struct mp_result *r, int32_t i, row_t cells)
{
	const struct mp_cache *c = &r->documented.caches[i];

	cell_level(cells[0], c->level);
	cell_str(cells[1], mp_kind_name(c->type));
	cell_size(cells[2], c->size_bytes);
	cell_int(cells[3], c->line_bytes);
	cell_int(cells[4], c->ways);
	cell_int(cells[5], c->shared_by);
}

static const char *const doc_tlb_head[] = { "level", "type", "entries", "page", "ways", NULL };

static void doc_tlb_row(const struct mp_result *r, int32_t i, row_t cells)
{
	const struct mp_tlb *t = &r->documented.tlbs[i];

	cell_level(cells[0], t->level);
	cell_str(cells[1], mp_kind_name(t->type));
	cell_int(cells[2], t->entries);
	cell_size(cells[3], t->page_bytes);
	cell_int(cells[4], t->ways);
}

/* A compared field: an int64_t member of struct mp_cache or struct mp_tlb. */
struct field {
	const char *name;
	size_t off;
	bool size;       /* print as a size */
};

static const struct field cache_fields[] = {
	{ "size", offsetof(struct mp_cache, size_bytes), true },
	{ "line", offsetof(struct mp_cache, line_bytes), false },
	{ "ways", offsetof(struct mp_cache, ways), false },
};
#define NCACHE_FIELDS (MP_COUNT_OF(cache_fields))

static const struct field tlb_fields[] = {
	{ "entries", offsetof(struct mp_tlb, entries), false },
	{ "ways", offsetof(struct mp_tlb, ways), false },
};
#define NTLB_FIELDS (MP_COUNT_OF(tlb_fields))

static int64_t field_of(const void *rec, const struct field *f)
{
	return rec ? *(const int64_t *)((const char *)rec + f->off) : MP_NA;
}

/* The measured record a documented one is compared with: caches by level and type. */
static const struct mp_cache *match_cache(const struct mp_result *r, const struct mp_cache *d)
{
	for (int32_t i = 0; i < mp_count(r->ncaches, MP_MAX_CACHES); i++)
		if (r->caches[i].level == d->level && r->caches[i].type == d->type)
			return &r->caches[i];
	return NULL;
}

/* TLBs by level, type and page size. */
static const struct mp_tlb *match_tlb(const struct mp_result *r, const struct mp_tlb *d)
{
	for (int32_t i = 0; i < mp_count(r->ntlbs, MP_MAX_TLBS); i++) {
		const struct mp_tlb *t = &r->tlbs[i];

		if (t->level == d->level && t->type == d->type && t->page_bytes == d->page_bytes)
			return t;
	}
	return NULL;
}

/* One row of the comparison: documented record, field, both values. */
struct cmp {
	const struct field *f;
	int64_t measured;
	int64_t documented;
};

static int32_t ncmp(const struct mp_result *r)
{
	return mp_count(r->documented.ncaches, MP_MAX_CACHES) * (int32_t)NCACHE_FIELDS +
	       mp_count(r->documented.ntlbs, MP_MAX_TLBS) * (int32_t)NTLB_FIELDS;
}

/* "L2 unified", or with a TLB's page size "L1 data TLB 4K". */
static void label_of(char *cell, int32_t level, enum mp_kind type, const int64_t *page_bytes)
{
	const char *kind = mp_kind_name(type);
	struct mp_buf b;

	mp_buf_init(&b, cell, CELL_LEN);
	if (level < 0)
		mp_buf_puts(&b, "L?");
	else
		mp_buf_printf(&b, "L%d", (int)level);
	mp_buf_printf(&b, " %s", kind ? kind : "?");
	if (!page_bytes)
		return;
	mp_buf_puts(&b, " TLB ");
	if (*page_bytes < 0)
		mp_buf_puts(&b, "?");
	else
		mp_buf_size(&b, (uint64_t)*page_bytes);
}

/* Comparison i and a label for its structure. */
static void cmp_at(const struct mp_result *r, int32_t i, struct cmp *c, char *label)
{
	int32_t nc = mp_count(r->documented.ncaches, MP_MAX_CACHES) * (int32_t)NCACHE_FIELDS;

	if (i < nc) {
		const struct mp_cache *d = &r->documented.caches[i / (int32_t)NCACHE_FIELDS];

		c->f = &cache_fields[i % (int32_t)NCACHE_FIELDS];
		c->documented = field_of(d, c->f);
		c->measured = field_of(match_cache(r, d), c->f);
		label_of(label, d->level, d->type, NULL);
	} else {
		const struct mp_tlb *d = &r->documented.tlbs[(i - nc) / (int32_t)NTLB_FIELDS];

		c->f = &tlb_fields[(i - nc) % (int32_t)NTLB_FIELDS];
		c->documented = field_of(d, c->f);
		c->measured = field_of(match_tlb(r, d), c->f);
		label_of(label, d->level, d->type, &d->page_bytes);
	}
}

static const char *verdict(const struct cmp *c)
{
	if (c->documented < 0)
		return c->measured < 0 ? NA : "not documented";
	if (c->measured < 0)
		return "not measured";
	return c->measured == c->documented ? "agrees" : "DISAGREES";
}

static const char *const cmp_head[] = {
	"structure", "field", "measured", "documented", "verdict", NULL,
};

static void cmp_row(const struct mp_result *r, int32_t i, row_t cells)
{
	struct cmp c;

	cmp_at(r, i, &c, cells[0]);
	cell_str(cells[1], c.f->name);
	(c.f->size ? cell_size : cell_int)(cells[2], c.measured);
	(c.f->size ? cell_size : cell_int)(cells[3], c.documented);
	cell_str(cells[4], verdict(&c));
}

static int32_t ndisagree(const struct mp_result *r)
{
	char label[CELL_LEN];
	struct cmp c;
	int32_t n = 0;

	for (int32_t i = 0; i < ncmp(r); i++) {
		cmp_at(r, i, &c, label);
		n += c.measured >= 0 && c.documented >= 0 && c.measured != c.documented;
	}
	return n;
}

static void put_documented(struct mp_buf *b, const struct mp_result *r)
{
	const struct mp_documented *d = &r->documented;
	const struct table caches = { doc_cache_head, mp_count(d->ncaches, MP_MAX_CACHES),
				      doc_cache_row };
	const struct table tlbs = { doc_tlb_head, mp_count(d->ntlbs, MP_MAX_TLBS), doc_tlb_row };
	const struct table cmp = { cmp_head, ncmp(r), cmp_row };
	int32_t n = ndisagree(r);

	mp_buf_printf(b, "\nCaches documented by the vendor (source: %s)\n",
		      d->source[0] ? d->source : NA);
	put_table(b, &caches, r);
	mp_buf_puts(b, "\nTLBs documented by the vendor\n");
	put_table(b, &tlbs, r);
	mp_buf_puts(b, "\nMeasured against documented\n");
	put_table(b, &cmp, r);
	if (n > 0)
		mp_buf_printf(b, "  %d value(s) disagree with the documentation\n", (int)n);
	else if (ncmp(r) > 0)
		mp_buf_puts(b, "  no disagreement where both values are known\n");
}

/* ---- counters, and timing against counters ---- */

static void cell_param(char *cell, enum mp_param p, int64_t v)
{
	if (p == MP_PARAM_WRITE_ALLOCATE)
		cell_tristate(cell, (enum mp_tristate)v);
	else if (mp_param_is_named(p))
		cell_str(cell, mp_param_value_name(p, v));
	else
		(mp_param_is_size(p) ? cell_size : cell_int)(cell, v);
}

static const char *const vote_head[] = { "probe", "parameter", "value", "votes", "runner-up",
					 "", NULL };

/* "5/7", the runner-up with its votes ("8M 2/7"), and UNSTABLE where the vote was split. */
static void vote_row(const struct mp_vote *v, row_t cells)
{
	char value[CELL_LEN];

	cell_str(cells[0], v->probe);
	mp_param_label(cells[1], CELL_LEN, &v->s, v->param);
	cell_param(cells[2], v->param, v->value);
	mp_snprintf(cells[3], CELL_LEN, "%d/%d", (int)v->votes, (int)v->of);
	cell_param(value, v->param, v->runner_up);
	if (v->runner_up_votes > 0)
		mp_snprintf(cells[4], CELL_LEN, "%s %d/%d", value, (int)v->runner_up_votes,
			    (int)v->of);
	else
		cell_str(cells[4], NA);
	cell_str(cells[5], v->stable == MP_NO ? "UNSTABLE" : "");
}

static void counted_row(const struct mp_result *r, int32_t i, row_t cells)
{
	vote_row(&r->counted[i], cells);
}

static void voted_row(const struct mp_result *r, int32_t i, row_t cells)
{
	vote_row(&r->voted[i], cells);
}

static const char *const both_head[] = { "parameter", "timing", "counters", "verdict", NULL };

static const char *both_verdict(const struct mp_comparison *c)
{
	if (c->agree == MP_YES)
		return "agree";
	if (c->agree == MP_NO)
		return "DISAGREE";
	return c->timing == MP_NA ? "counters only" : "timing only";
}

static void both_row(const struct mp_result *r, int32_t i, row_t cells)
{
	const struct mp_comparison *c = &r->comparisons[i];

	mp_param_label(cells[0], CELL_LEN, &c->s, c->param);
	cell_param(cells[1], c->param, c->timing);
	cell_param(cells[2], c->param, c->counters);
	cell_str(cells[3], both_verdict(c));
}

static int32_t unstable_count(const struct mp_result *r)
{
	int32_t n = 0;

	for (int32_t i = 0; i < mp_count(r->nvoted, MP_MAX_VOTED); i++)
		n += r->voted[i].stable == MP_NO;
	return n;
}

static void put_confidence(struct mp_buf *b, const struct mp_result *r)
{
	const struct table voted = { vote_head, mp_count(r->nvoted, MP_MAX_VOTED), voted_row };

	if (voted.nrows == 0)
		return;
	mp_buf_printf(b, "\nConfidence (each timing probe repeated in rounds; votes: rounds that "
			 "found the value; UNSTABLE: under two thirds, %d value(s))\n",
		      (int)unstable_count(r));
	put_table(b, &voted, r);
}

static void put_counters(struct mp_buf *b, const struct mp_result *r)
{
	const struct table counted = { vote_head, mp_count(r->ncounted, MP_MAX_COUNTED),
				       counted_row };
	const struct table both = { both_head, mp_count(r->ncomparisons, MP_MAX_COMPARISONS),
				    both_row };

	mp_buf_puts(b, "\nCounter measurements (votes: how many of the votes chose the value)\n");
	put_table(b, &counted, r);
	if (mp_count(r->ncomparisons, MP_MAX_COMPARISONS) == 0)
		return;
	mp_buf_puts(b, "\nTiming against counters\n");
	put_table(b, &both, r);
}

/* ---- probes and notes ---- */

static const char *const probe_head[] = { "probe", "status", "seconds", "message", NULL };

static void probe_row(const struct mp_result *r, int32_t i, row_t cells)
{
	const struct mp_probe *p = &r->probes[i];

	cell_str(cells[0], p->name);
	cell_str(cells[1], mp_probe_status_name(p->status));
	cell_double(cells[2], p->seconds, 3);
	cell_str(cells[3], p->message);
}

static void put_probes_notes(struct mp_buf *b, const struct mp_result *r)
{
	const struct table probes = { probe_head, mp_count(r->nprobes, MP_MAX_PROBES), probe_row };

	mp_buf_puts(b, "\nProbes\n");
	put_table(b, &probes, r);
	mp_buf_puts(b, "\nNotes\n");
	if (mp_count(r->nnotes, MP_MAX_NOTES) == 0)
		mp_buf_puts(b, "  (none)\n");
	for (int32_t i = 0; i < mp_count(r->nnotes, MP_MAX_NOTES); i++)
		mp_buf_printf(b, "  - %.*s\n", MP_NOTE_LEN, r->notes[i]);
}

/* ---- the instruction side and the CPU ---- */

static const char *const fetch_head[] = { "level", "effective", "line(cyc)", "line(ns)", NULL };

static void fetch_row(const struct mp_result *r, int32_t i, row_t cells)
{
	const struct mp_fetch_level *f = &r->fetch[i];

	cell_level(cells[0], f->level);
	cell_size(cells[1], f->effective_size_bytes);
	cell_double(cells[2], f->line_cycles, 1);
	cell_double(cells[3], f->line_ns, 2);
}

static const char *const op_head[] = { "operation", "bits", "latency(cyc)", "per cycle", NULL };

static void op_row(const struct mp_result *r, int32_t i, row_t cells)
{
	const struct mp_op_timing *o = &r->cpu_timing.ops[i];

	cell_str(cells[0], o->name);
	cell_int(cells[1], o->width_bits);
	cell_double(cells[2], o->latency_cycles, 2);
	cell_double(cells[3], o->throughput, 2);
}

/* "3601.5 - 3650.2 MHz", one value when both are the same, "-" when unknown. */
static void cell_range(char *cell, double lo, double hi)
{
	char a[CELL_LEN], z[CELL_LEN];

	cell_double(a, lo / 1e6, 1);
	cell_double(z, hi / 1e6, 1);
	if (mp_is_na(lo) || lo == hi)
		cell_unit(cell, lo / 1e6, 1, "MHz");
	else
		mp_snprintf(cell, CELL_LEN, "%s - %s MHz", a, z);
}

/* Is `word` one of the space-separated words of `text`? */
static bool has_word(const char *text, const char *word)
{
	size_t n = mp_strlen(word);

	for (const char *p = text; *p;) {
		size_t len = 0;

		while (p[len] && p[len] != ' ')
			len++;
		if (len == n && !mp_strncmp(p, word, n))
			return true;
		p += len + (p[len] == ' ');
	}
	return false;
}

static void doc_clock(char *m, char *d, const struct mp_result *r)
{
	cell_range(m, r->cpu_timing.core_hz_min, r->cpu_timing.core_hz_max);
	cell_range(d, r->documented.cpu.base_hz, r->documented.cpu.max_hz);
}

static void doc_vector(char *m, char *d, const struct mp_result *r)
{
	cell_int(m, r->cpu_timing.vector_bits);
	cell_int(d, r->documented.cpu.vector_bits);
}

static void doc_fma(char *m, char *d, const struct mp_result *r)
{
	const char *f = r->documented.cpu.features;

	cell_tristate(m, r->cpu_timing.fma);
	cell_str(d, f[0] ? (has_word(f, "fma") ? "yes" : "no") : NA);
}

static void doc_registers(char *m, char *d, const struct mp_result *r)
{
	cell_str(m, NA);
	if (r->documented.cpu.gp_registers > 0)
		mp_snprintf(d, CELL_LEN, "%d general, %d vector", (int)r->documented.cpu.gp_registers,
			    (int)r->documented.cpu.vector_registers);
	else
		cell_str(d, NA);
}

static void doc_features(char *m, char *d, const struct mp_result *r)
{
	cell_str(m, NA);
	cell_str(d, r->documented.cpu.features);
}

static const struct {
	const char *what;
	void (*fill)(char *measured, char *documented, const struct mp_result *r);
} cpu_doc_rows[] = {
	{ "core clock (measured), base - max (CPUID 16H)", doc_clock },
	{ "widest vector (bits)", doc_vector },
	{ "FMA", doc_fma },
	{ "registers the ISA gives", doc_registers },
	{ "features", doc_features },
};

static const char *const cpu_doc_head[] = { "", "measured", "documented", NULL };

static void cpu_doc_row(const struct mp_result *r, int32_t i, row_t cells)
{
	cell_str(cells[0], cpu_doc_rows[i].what);
	cpu_doc_rows[i].fill(cells[1], cells[2], r);
}

static void put_instruction_side(struct mp_buf *b, const struct mp_result *r)
{
	const struct table fetch = { fetch_head, mp_count(r->nfetch, MP_MAX_CACHES), fetch_row };
	const struct table ops = { op_head, mp_count(r->cpu_timing.nops, MP_MAX_OPS), op_row };
	const struct table doc = { cpu_doc_head, (int32_t)MP_COUNT_OF(cpu_doc_rows), cpu_doc_row };

	mp_buf_puts(b, "\nInstruction fetch (measured: straight-line code, cost of a line "
		       "fetched from each level)\n");
	put_table(b, &fetch, r);
	mp_buf_printf(b, "\nCPU against documented (clock %s)\n",
		      r->cpu_timing.clock_steady == MP_YES ? "steady over the run"
		      : r->cpu_timing.clock_steady == MP_NO ? "MOVED during the run" : "-");
	put_table(b, &doc, r);
	mp_buf_puts(b, "\nArithmetic (measured; per cycle: throughput, 1 / initiation interval)\n");
	put_table(b, &ops, r);
}

void mp_report_table(struct mp_buf *b, const char *const *head, int32_t nrows,
		     mp_report_row_fn row, const struct mp_result *r)
{
	const struct table t = { head, nrows, row };

	put_table(b, &t, r);
}

void mp_write_report(struct mp_buf *b, const struct mp_result *r)
{
	put_header(b, r);
	mp_write_report_audit(b, r);
	put_measured(b, r);
	mp_write_report_cores(b, r);
	put_confidence(b, r);
	put_instruction_side(b, r);
	put_documented(b, r);
	mp_write_report_sources(b, r);
	put_counters(b, r);
	put_probes_notes(b, r);
}
