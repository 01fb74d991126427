/* SPDX-License-Identifier: MIT */
/*
 * A model as documented parameters, so the report can set what the probes
 * measured beside what the modelled machine is.  An exclusive level's
 * effective size adds the data levels above it, whose lines it never
 * duplicates (X-Ray's C1 + C2 on the Athlon and Opteron).
 */
#include <stdio.h>

#include "sim/sim.h"

static int64_t effective(const struct mp_sim_model *m, const struct mp_sim_cache_model *c)
{
	int64_t size = (int64_t)c->size;

	if (c->inclusion != MP_INCL_EXCLUSIVE || c->type == MP_KIND_INSTRUCTION)
		return size;
	for (int i = 0; i < m->ncaches; i++) {
		const struct mp_sim_cache_model *up = &m->caches[i];

		if (up->level < c->level && up->type != MP_KIND_INSTRUCTION)
			size += (int64_t)up->size;
	}
	return size;
}

static void document_cache(const struct mp_sim_model *m, const struct mp_sim_cache_model *c,
			   struct mp_cache *d)
{
	mp_cache_init(d);
	d->level = c->level;
	d->type = c->type;
	d->size_bytes = (int64_t)c->size;
	d->effective_size_bytes = effective(m, c);
	d->line_bytes = (int64_t)c->line;
	d->ways = (int64_t)c->ways;
	d->latency_cycles = c->latency;
	d->latency_ns = c->latency * 1e9 / (double)m->clock_hz;
	d->write_allocate = c->write_allocate ? MP_YES : MP_NO;
	d->replacement = c->replacement;
	d->inclusion = c->inclusion;
	d->method = MP_METHOD_DOCUMENTED;
}

static void document_tlb(const struct mp_sim_tlb_model *t, struct mp_tlb *d)
{
	mp_tlb_init(d);
	d->level = t->level;
	d->type = t->type;
	d->entries = (int64_t)t->entries;
	d->page_bytes = (int64_t)t->page;
	d->ways = (int64_t)t->ways;
	d->miss_penalty_cycles = t->latency;
	d->method = MP_METHOD_DOCUMENTED;
}

void mp_sim_model_document(const struct mp_sim_model *m, struct mp_documented *d)
{
	static struct mp_sim_model one;

	snprintf(d->source, sizeof(d->source), "model %s", m->name);
	d->ncaches = 0;
	d->ntlbs = 0;
	mp_sim_model_type(m, 0, &one);
	for (int i = 0; i < one.ncaches && i < MP_MAX_CACHES; i++)
		document_cache(&one, &one.caches[i], &d->caches[d->ncaches++]);
	for (int i = 0; i < one.ntlbs && i < MP_MAX_TLBS; i++)
		document_tlb(&one.tlbs[i], &d->tlbs[d->ntlbs++]);
	mp_cpu_doc_init(&d->cpu);
	d->cpu.base_hz = d->cpu.max_hz = (double)m->clock_hz;
	d->cpu.vector_bits = (int32_t)m->vector_bits;
}
