/* SPDX-License-Identifier: MIT */
/*
 * The JSON result file (docs/results.md, docs/result.schema.json): pretty
 * printed with 2-space indentation, members in a fixed order, every value
 * that is not available written as null.
 */
#include "core/lib/str.h"
#include "core/results/json_int.h"
#include "core/results/writers.h"

static void write_machine(struct jw *w, const struct mp_machine *m)
{
	j_open(w, "machine", '{');
	j_str(w, "vendor", m->vendor, sizeof(m->vendor), true);
	j_str(w, "brand", m->brand, sizeof(m->brand), true);
	j_int(w, "family", m->family);
	j_int(w, "model", m->model);
	j_int(w, "stepping", m->stepping);
	j_close(w, '}');
}

static void write_cache(struct jw *w, const struct mp_cache *c)
{
	j_open(w, NULL, '{');
	j_int(w, "level", c->level);
	j_name(w, "type", mp_kind_name(c->type));
	j_int(w, "size_bytes", c->size_bytes);
	j_int(w, "effective_size_bytes", c->effective_size_bytes);
	j_int(w, "line_bytes", c->line_bytes);
	j_int(w, "ways", c->ways);
	j_double(w, "latency_cycles", c->latency_cycles);
	j_double(w, "latency_ns", c->latency_ns);
	j_tristate(w, "write_allocate", c->write_allocate);
	j_name(w, "replacement", mp_replacement_name(c->replacement));
	j_name(w, "inclusion", mp_inclusion_name(c->inclusion));
	j_name(w, "method", mp_method_name(c->method));
	j_int(w, "shared_by", c->shared_by);
	j_close(w, '}');
}

void mp_json_tlb(struct jw *w, const struct mp_tlb *t, bool measured)
{
	j_open(w, NULL, '{');
	j_int(w, "level", t->level);
	j_name(w, "type", mp_kind_name(t->type));
	j_int(w, "entries", t->entries);
	j_int(w, "page_bytes", t->page_bytes);
	j_int(w, "ways", t->ways);
	if (measured) {
		j_double(w, "miss_penalty_cycles", t->miss_penalty_cycles);
		j_name(w, "method", mp_method_name(t->method));
	}
	j_close(w, '}');
}

static void write_caches(struct jw *w, const struct mp_cache *c, int32_t n)
{
	j_open(w, "caches", '[');
	for (int32_t i = 0; i < mp_count(n, MP_MAX_CACHES); i++)
		write_cache(w, &c[i]);
	j_close(w, ']');
}

static void write_tlbs(struct jw *w, const struct mp_tlb *t, int32_t n)
{
	j_open(w, "tlbs", '[');
	for (int32_t i = 0; i < mp_count(n, MP_MAX_TLBS); i++)
		mp_json_tlb(w, &t[i], true);
	j_close(w, ']');
}

/* ---- the instruction side and the CPU (probes icache, cpu; documented by CPUID) ---- */

static void write_ops(struct jw *w, const struct mp_cpu_timing *t)
{
	j_open(w, "ops", '[');
	for (int32_t i = 0; i < mp_count(t->nops, MP_MAX_OPS); i++) {
		j_open(w, NULL, '{');
		j_str(w, "op", t->ops[i].name, sizeof(t->ops[i].name), false);
		j_int(w, "width_bits", t->ops[i].width_bits);
		j_double(w, "latency_cycles", t->ops[i].latency_cycles);
		j_double(w, "throughput_per_cycle", t->ops[i].throughput);
		j_close(w, '}');
	}
	j_close(w, ']');
}

/* Members of the `cpu` object after the clocks and topology. */
static void write_cpu_timing(struct jw *w, const struct mp_cpu_timing *t)
{
	j_double(w, "core_hz_min", t->core_hz_min);
	j_double(w, "core_hz_max", t->core_hz_max);
	j_tristate(w, "clock_steady", t->clock_steady);
	j_int(w, "vector_bits", t->vector_bits);
	j_tristate(w, "fma", t->fma);
	write_ops(w, t);
}

/* The space-separated feature words as an array of strings. */
static void write_words(struct jw *w, const char *key, const char *text, size_t n)
{
	j_open(w, key, '[');
	for (size_t i = 0; i < n && text[i];) {
		size_t len = 0;

		while (i + len < n && text[i + len] && text[i + len] != ' ')
			len++;
		if (len)
			j_str(w, NULL, text + i, len, false);
		i += len + 1;
	}
	j_close(w, ']');
}

static void write_cpu_doc(struct jw *w, const struct mp_cpu_doc *d)
{
	j_open(w, "cpu", '{');
	j_double(w, "base_hz", d->base_hz);
	j_double(w, "max_hz", d->max_hz);
	j_double(w, "bus_hz", d->bus_hz);
	write_words(w, "features", d->features, sizeof(d->features));
	j_int(w, "gp_registers", d->gp_registers);
	j_int(w, "vector_registers", d->vector_registers);
	j_int(w, "vector_bits", d->vector_bits);
	j_close(w, '}');
}

static void write_fetch(struct jw *w, const struct mp_result *r)
{
	j_open(w, "fetch", '[');
	for (int32_t i = 0; i < mp_count(r->nfetch, MP_MAX_CACHES); i++) {
		const struct mp_fetch_level *f = &r->fetch[i];

		j_open(w, NULL, '{');
		j_int(w, "level", f->level);
		j_int(w, "effective_size_bytes", f->effective_size_bytes);
		j_double(w, "line_cycles", f->line_cycles);
		j_double(w, "line_ns", f->line_ns);
		j_close(w, '}');
	}
	j_close(w, ']');
}

static void write_memory_cpu(struct jw *w, const struct mp_result *r)
{
	j_open(w, "memory", '{');
	j_double(w, "latency_cycles", r->memory.latency_cycles);
	j_double(w, "latency_ns", r->memory.latency_ns);
	j_close(w, '}');
	j_open(w, "cpu", '{');
	j_double(w, "tsc_hz", r->cpu.tsc_hz);
	j_double(w, "core_hz", r->cpu.core_hz);
	j_int(w, "logical_cpus", r->cpu.logical_cpus);
	j_int(w, "cores", r->cpu.cores);
	j_int(w, "threads_per_core", r->cpu.threads_per_core);
	write_cpu_timing(w, &r->cpu_timing);
	j_close(w, '}');
}

static void write_documented(struct jw *w, const struct mp_documented *d)
{
	j_open(w, "documented", '{');
	j_str(w, "source", d->source, sizeof(d->source), true);
	write_caches(w, d->caches, d->ncaches);
	write_tlbs(w, d->tlbs, d->ntlbs);
	write_cpu_doc(w, &d->cpu);
	j_close(w, '}');
}

static void write_probes(struct jw *w, const struct mp_result *r)
{
	j_open(w, "probes", '[');
	for (int32_t i = 0; i < mp_count(r->nprobes, MP_MAX_PROBES); i++) {
		const struct mp_probe *p = &r->probes[i];

		j_open(w, NULL, '{');
		j_str(w, "name", p->name, sizeof(p->name), false);
		j_name(w, "status", mp_probe_status_name(p->status));
		j_double(w, "seconds", p->seconds);
		j_str(w, "message", p->message, sizeof(p->message), true);
		j_close(w, '}');
	}
	j_close(w, ']');
}

static void write_points(struct jw *w, const struct mp_curve *c)
{
	j_open(w, "points", '[');
	for (int32_t i = 0; i < mp_count(c->npoints, MP_MAX_POINTS); i++) {
		member(w, NULL);
		mp_buf_putc(w->b, '[');
		put_double(w->b, c->x[i]);
		mp_buf_puts(w->b, ", ");
		put_double(w->b, c->y[i]);
		mp_buf_putc(w->b, ']');
	}
	j_close(w, ']');
}

static void write_curves(struct jw *w, const struct mp_result *r)
{
	j_open(w, "curves", '[');
	for (int32_t i = 0; i < mp_count(r->ncurves, MP_MAX_CURVES); i++) {
		const struct mp_curve *c = &r->curves[i];

		j_open(w, NULL, '{');
		j_str(w, "name", c->name, sizeof(c->name), false);
		j_str(w, "x_unit", c->x_unit, sizeof(c->x_unit), false);
		j_str(w, "y_unit", c->y_unit, sizeof(c->y_unit), false);
		write_points(w, c);
		j_close(w, '}');
	}
	j_close(w, ']');
}

static void write_notes(struct jw *w, const struct mp_result *r)
{
	j_open(w, "notes", '[');
	for (int32_t i = 0; i < mp_count(r->nnotes, MP_MAX_NOTES); i++)
		j_str(w, NULL, r->notes[i], MP_NOTE_LEN, false);
	j_close(w, ']');
}

/* A parameter's value: a boolean (write allocation), a name (replacement, inclusion) or an integer. */
static void j_param(struct jw *w, const char *key, enum mp_param p, int64_t v)
{
	if (p == MP_PARAM_WRITE_ALLOCATE)
		j_tristate(w, key, (enum mp_tristate)v);
	else if (mp_param_is_named(p))
		j_name(w, key, mp_param_value_name(p, v));
	else
		j_int(w, key, v);
}

static void j_label(struct jw *w, const struct mp_structure *s, enum mp_param p)
{
	char label[MP_TEXT_LEN];

	mp_param_label(label, sizeof(label), s, p);
	j_str(w, "parameter", label, sizeof(label), false);
}

/* counted[] or voted[]: each value with its votes, the runner-up and whether it is stable. */
static void write_votes(struct jw *w, const char *key, const struct mp_vote *v, int32_t n)
{
	j_open(w, key, '[');
	for (int32_t i = 0; i < n; i++, v++) {
		j_open(w, NULL, '{');
		j_str(w, "probe", v->probe, sizeof(v->probe), false);
		j_label(w, &v->s, v->param);
		j_param(w, "value", v->param, v->value);
		j_int(w, "votes", v->votes);
		j_int(w, "of", v->of);
		j_param(w, "runner_up", v->param, v->runner_up);
		j_int(w, "runner_up_votes", v->runner_up == MP_NA ? MP_NA : v->runner_up_votes);
		j_tristate(w, "stable", v->stable);
		j_close(w, '}');
	}
	j_close(w, ']');
}

static void write_comparisons(struct jw *w, const struct mp_result *r)
{
	j_open(w, "comparisons", '[');
	for (int32_t i = 0; i < mp_count(r->ncomparisons, MP_MAX_COMPARISONS); i++) {
		const struct mp_comparison *c = &r->comparisons[i];

		j_open(w, NULL, '{');
		j_label(w, &c->s, c->param);
		j_param(w, "timing", c->param, c->timing);
		j_param(w, "counters", c->param, c->counters);
		j_tristate(w, "agree", c->agree);
		j_close(w, '}');
	}
	j_close(w, ']');
}

/* ---- the logical CPUs (probes topology, cores, c2c) ---- */

static void write_topology(struct jw *w, const struct mp_topology *t)
{
	j_open(w, "topology", '{');
	j_int(w, "packages", t->packages);
	j_int(w, "cores", t->cores);
	j_int(w, "threads", t->threads);
	j_close(w, '}');
}

static void write_core_type(struct jw *w, const struct mp_core_type *t)
{
	j_open(w, NULL, '{');
	j_str(w, "name", t->name, sizeof(t->name), false);
	j_open(w, "cpus", '[');
	for (int32_t i = 0; i < mp_count(t->ncpus, MP_MAX_CPUS); i++)
		j_int(w, NULL, t->cpus[i]);
	j_close(w, ']');
	write_caches(w, t->caches, t->ncaches);
	write_tlbs(w, t->tlbs, t->ntlbs);
	j_close(w, '}');
}

static void write_cores(struct jw *w, const struct mp_result *r)
{
	const struct mp_c2c *c = &r->core_to_core;

	write_topology(w, &r->topology);
	j_open(w, "core_types", '[');
	for (int32_t i = 0; i < mp_count(r->ncore_types, MP_MAX_CORE_TYPES); i++)
		write_core_type(w, &r->core_types[i]);
	j_close(w, ']');
	j_open(w, "core_to_core", '{');
	j_str(w, "unit", c->unit, sizeof(c->unit), true);
	j_open(w, "pairs", '[');
	for (int32_t i = 0; i < mp_count(c->npairs, MP_MAX_PAIRS); i++) {
		j_open(w, NULL, '{');
		j_int(w, "a", c->pairs[i].a);
		j_int(w, "b", c->pairs[i].b);
		j_double(w, "latency", c->pairs[i].latency);
		j_close(w, '}');
	}
	j_close(w, ']');
	j_close(w, '}');
}

void mp_write_json(struct mp_buf *b, const struct mp_result *r)
{
	struct jw w = { .b = b, .depth = 1, .first = true };

	mp_buf_putc(b, '{');
	j_str(&w, "tool", MP_TOOL_NAME, MP_TEXT_LEN, false);
	j_str(&w, "version", MP_VERSION, MP_TEXT_LEN, false);
	j_str(&w, "platform", r->platform, sizeof(r->platform), true);
	write_machine(&w, &r->machine);
	write_caches(&w, r->caches, r->ncaches);
	write_tlbs(&w, r->tlbs, r->ntlbs);
	write_memory_cpu(&w, r);
	write_documented(&w, &r->documented);
	write_probes(&w, r);
	write_curves(&w, r);
	write_notes(&w, r);
	write_votes(&w, "counted", r->counted, mp_count(r->ncounted, MP_MAX_COUNTED));
	write_comparisons(&w, r);
	write_fetch(&w, r);
	write_votes(&w, "votes", r->voted, mp_count(r->nvoted, MP_MAX_VOTED));
	mp_write_json_audit(&w, r);
	write_cores(&w, r);
	j_close(&w, '}');
	mp_buf_putc(b, '\n');
}
