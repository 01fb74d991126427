/* SPDX-License-Identifier: MIT */
/*
 * Probe "icache": the instruction side of the cache hierarchy, by fetches
 * of generated code (core/measure/link.h).  1. The first level fetches
 * meet: its size, ways and line by the two L1 algorithms of core/probes/l1/
 * on code blocks, recorded as the L1I when they agree and it is not a
 * lower unified level already known.  2. Every level as straight-line code
 * sees it (fetch.c).  docs/algorithms.md, "Instruction caches" and "Code
 * chains" (the pitfalls of code).
 */
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/probes/icache/icache.h"
#include "core/probes/l1/l1.h"
#include "core/probes/probes.h"

/* Memory for the compact sets: the gap test's strings reach 4 MB, X-Ray's twice a capacity. */
#define ICACHE_SET_BYTES (8ull << 20)
/* The all-hit baseline, and TLB twins: as the L1 data probe's (core/probes/l1/probe.c). */
#define ICACHE_BASE_STRIDE 64u
#define ICACHE_BASE_N 8u
#define ICACHE_TWIN_LINE 64u
#define ICACHE_TWIN_MAX 128u

/* Executable memory, physically contiguous on 2M pages where the platform can. */
static enum mp_status code_memory(struct mp_ctx *c, uint64_t bytes, struct mp_mem *m)
{
	struct mp_mem_req req = { .bytes = bytes, .align = 4096, .page = MP_PAGE_2M,
				  .contiguous = true, .exec = true };

	if (c->p->ops->mem_alloc(c->p, &req, m) == MP_OK)
		return MP_OK;
	req.contiguous = false;
	return mp_probe_alloc_req(c, &req, m);
}

/* A data or unified level below the first with exactly this geometry (measured, else documented). */
static int32_t lower_level(const struct mp_result *r, const struct mp_l1_found *f)
{
	for (int32_t i = 0; i < mp_count(r->ncaches, MP_MAX_CACHES); i++) {
		const struct mp_cache *m = &r->caches[i];

		if (m->level > 1 && m->type == MP_KIND_UNIFIED && m->size_bytes == f->size &&
		    m->ways == f->ways && m->line_bytes == f->line)
			return m->level;
	}
	for (int32_t i = 0; i < mp_count(r->documented.ncaches, MP_MAX_CACHES); i++) {
		const struct mp_cache *d = &r->documented.caches[i];

		if (d->level > 1 && d->type == MP_KIND_UNIFIED && d->size_bytes == f->size &&
		    d->ways == f->ways && d->line_bytes == f->line)
			return d->level;
	}
	return 0;
}

/*
 * The baseline's time per block is the L1I's hit latency where a serial
 * block costs only its fetch (the simulator); on hardware it holds the
 * redirect of a mispredicted return as well, and no latency is told.
 */
static double hit_time(struct mp_ctx *c, double base)
{
	if (!c->p->code_serial_redirects)
		return base;
	mp_result_add_note(c->r, "icache: the L1I's hit latency is not measured (a serial code "
			   "block's time holds a mispredicted return beside its fetch)");
	return mp_na_double();
}

/* The first level: recorded as the L1I, or found to be level `*first` of the data side. */
static int first_level(struct mp_ctx *c, struct mp_mem *m, int32_t *first)
{
	struct mp_compact_set s;
	struct mp_l1_found x, g;
	const char *why;
	char text[MP_NOTE_LEN];

	mp_compact_set_init(&s, c, m, "icache", mp_ref_xray(ICACHE_BASE_STRIDE, ICACHE_BASE_N));
	mp_compact_set_code(&s, mp_linker_serial(c->p));
	s.twin_line = ICACHE_TWIN_LINE;
	s.twin_max = ICACHE_TWIN_MAX;
	c->p->ops->flush_all(c->p);
	if (mp_l1_measure(c, &s, "icache", &x, &g, &why) < 0)
		return mp_probe_fail(c, why), -1;
	mp_l1_message(c->self->message, sizeof(c->self->message), "L1I", &x, &g);
	*first = mp_l1_agreed(x.size, g.size) == MP_NA ? 1 : lower_level(c->r, &x);
	if (*first > 1) {
		mp_snprintf(text, sizeof(text), "icache: the first level fetches meet is the unified "
			    "L%d (%s): no L1 instruction cache", (int)*first, c->self->message);
		mp_result_add_note(c->r, text);
		return 0;
	}
	*first = 1;
	mp_l1_record(c, MP_KIND_INSTRUCTION, &x, &g, hit_time(c, s.base_min));
	if (mp_l1_agreed(x.size, g.size) == MP_NA)
		mp_result_add_note(c->r, c->self->message);
	return 0;
}

static void summarise(struct mp_ctx *c, int32_t levels)
{
	size_t n = mp_strlen(c->self->message);

	mp_snprintf(c->self->message + n, sizeof(c->self->message) - n, "; %d fetch levels",
		    (int)levels);
}

void mp_probe_icache(struct mp_ctx *c)
{
	uint64_t top = mp_icache_fetch_top(c);
	int32_t first = 1, levels;
	struct mp_mem m;

	if (code_memory(c, top > ICACHE_SET_BYTES ? top : ICACHE_SET_BYTES, &m) != MP_OK)
		return;
	if (first_level(c, &m, &first) == 0) {
		levels = mp_icache_fetch_levels(c, &m, first);
		if (levels < 0)
			mp_probe_fail(c, "the platform could not run a chain of code blocks");
		else
			summarise(c, levels);
	}
	c->p->ops->mem_free(c->p, &m);
}
