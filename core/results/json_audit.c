/* SPDX-License-Identifier: MIT */
/*
 * The audit in result.json: `sources` (each documented source with what it
 * says) and `verdicts` (each fact as every source and the measurement give
 * it).  docs/results.md, "sources" and "verdicts".
 */
#include "core/results/audit.h"
#include "core/results/json_int.h"

static void j_fact(struct jw *w, const char *key, enum mp_fact f, int64_t v)
{
	if (mp_fact_is_bool(f))
		j_tristate(w, key, v == MP_NA ? MP_UNKNOWN : (enum mp_tristate)v);
	else if (mp_fact_is_name(f))
		j_name(w, key, mp_inclusion_name((enum mp_inclusion)v));
	else
		j_int(w, key, v);
}

static void write_doc_cache(struct jw *w, const struct mp_doc_cache *c)
{
	j_open(w, NULL, '{');
	j_int(w, "level", c->level);
	j_name(w, "type", mp_kind_name(c->type));
	j_int(w, "size_bytes", c->size_bytes);
	j_name(w, "size_covers", c->size_bytes == MP_NA ? NULL : mp_scope_name(c->scope));
	j_int(w, "line_bytes", c->line_bytes);
	j_int(w, "ways", c->ways);
	j_int(w, "shared_by", c->shared_by);
	j_name(w, "inclusion", mp_inclusion_name(c->inclusion));
	j_tristate(w, "write_allocate", c->write_allocate);
	j_close(w, '}');
}

static void write_source(struct jw *w, const struct mp_source *s)
{
	j_open(w, NULL, '{');
	j_str(w, "name", s->name, sizeof(s->name), false);
	j_name(w, "status", mp_source_status_name(s->status));
	j_str(w, "message", s->message, sizeof(s->message), true);
	j_open(w, "caches", '[');
	for (int32_t i = 0; i < mp_count(s->ncaches, MP_MAX_CACHES); i++)
		write_doc_cache(w, &s->caches[i]);
	j_close(w, ']');
	j_open(w, "tlbs", '[');
	for (int32_t i = 0; i < mp_count(s->ntlbs, MP_MAX_TLBS); i++)
		mp_json_tlb(w, &s->tlbs[i], false);
	j_close(w, ']');
	j_open(w, "package", '{');
	j_int(w, "logical_cpus", s->logical_cpus);
	j_int(w, "cores", s->cores);
	j_int(w, "threads_per_core", s->threads_per_core);
	j_close(w, '}');
	j_close(w, '}');
}

static enum mp_tristate agrees(int64_t a, int64_t b)
{
	if (a == MP_NA || b == MP_NA)
		return MP_UNKNOWN;
	return a == b ? MP_YES : MP_NO;
}

/* One source's value in a verdict: what it states, as compared, and against the measurement. */
static void write_documented(struct jw *w, const struct mp_verdict *v, const struct mp_source *s,
			     int32_t i)
{
	j_open(w, NULL, '{');
	j_str(w, "source", s->name, sizeof(s->name), false);
	j_fact(w, "value", v->fact, v->value[i]);
	j_fact(w, "stated", v->fact, v->stated[i]);
	j_tristate(w, "agrees_with_measured", agrees(v->value[i], v->measured));
	j_close(w, '}');
}

static void write_verdict(struct jw *w, const struct mp_result *r, const struct mp_verdict *v)
{
	char label[MP_TEXT_LEN];

	mp_verdict_label(label, sizeof(label), v);
	j_open(w, NULL, '{');
	j_str(w, "parameter", label, sizeof(label), false);
	j_fact(w, "measured", v->fact, v->measured);
	j_tristate(w, "sources_agree", v->sources_agree);
	j_tristate(w, "measured_agrees", v->measured_agrees);
	j_open(w, "documented", '[');
	for (int32_t i = 0; i < mp_count(r->audit.nsources, MP_MAX_SOURCES); i++)
		if (v->stated[i] != MP_NA)
			write_documented(w, v, &r->audit.sources[i], i);
	j_close(w, ']');
	j_close(w, '}');
}

void mp_write_json_audit(struct jw *w, const struct mp_result *r)
{
	j_open(w, "sources", '[');
	for (int32_t i = 0; i < mp_count(r->audit.nsources, MP_MAX_SOURCES); i++)
		write_source(w, &r->audit.sources[i]);
	j_close(w, ']');
	j_open(w, "verdicts", '[');
	for (int32_t i = 0; i < mp_count(r->audit.nverdicts, MP_MAX_VERDICTS); i++)
		write_verdict(w, r, &r->audit.verdicts[i]);
	j_close(w, ']');
}
