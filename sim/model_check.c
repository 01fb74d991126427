/* SPDX-License-Identifier: MIT */
/*
 * The checks a model needs across its lines: unique names, one cache per
 * level and kind of access, inclusion only where a level has one above it,
 * a prefetcher at a level that exists, and few enough page sizes.
 */
#include <stdarg.h>
#include <string.h>

#include "sim/sim.h"

static int fail(char *err, size_t len, const char *file, uint32_t line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail(char *err, size_t len, const char *file, uint32_t line, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(err, len, "%s:%u: %s", file, line, msg);
	else
		snprintf(err, len, "%s: %s", file, msg);
	return -1;
}

static bool overlap(enum mp_kind a, enum mp_kind b)
{
	return a == MP_KIND_UNIFIED || b == MP_KIND_UNIFIED || a == b;
}

static const char *served(enum mp_kind a, enum mp_kind b)
{
	if (a == MP_KIND_INSTRUCTION || b == MP_KIND_INSTRUCTION)
		return "instructions";
	return "data";
}

static int check_caches(const struct mp_sim_model *m, const char *file, char *err, size_t len)
{
	for (int i = 0; i < m->ncaches; i++) {
		const struct mp_sim_cache_model *c = &m->caches[i];
		bool above = false;

		for (int j = 0; j < m->ncaches; j++) {
			const struct mp_sim_cache_model *o = &m->caches[j];

			if (j < i && !strcmp(o->name, c->name))
				return fail(err, len, file, c->line_no, "cache %s is defined twice",
					    c->name);
			if (j < i && o->level == c->level && overlap(o->type, c->type))
				return fail(err, len, file, c->line_no,
					    "caches %s and %s are both level %d for %s", o->name,
					    c->name, c->level, served(o->type, c->type));
			above = above || (o->level < c->level && overlap(o->type, c->type));
		}
		if (c->inclusion != MP_INCL_NONINCLUSIVE && !above)
			return fail(err, len, file, c->line_no,
				    "cache %s: inclusion=%s needs a cache level above it", c->name,
				    c->inclusion == MP_INCL_INCLUSIVE ? "inclusive" : "exclusive");
	}
	return 0;
}

static int check_tlbs(const struct mp_sim_model *m, const char *file, char *err, size_t len)
{
	uint64_t pages[MP_MAX_TLBS];
	int npages = 0;

	for (int i = 0; i < m->ntlbs; i++) {
		const struct mp_sim_tlb_model *t = &m->tlbs[i];
		int k;

		for (int j = 0; j < i; j++) {
			const struct mp_sim_tlb_model *o = &m->tlbs[j];

			if (!strcmp(o->name, t->name))
				return fail(err, len, file, t->line_no, "tlb %s is defined twice",
					    t->name);
			if (o->level == t->level && o->page == t->page && overlap(o->type, t->type))
				return fail(err, len, file, t->line_no,
					    "TLBs %s and %s are both level %d for %s in "
					    "%lluK pages", o->name, t->name, t->level,
					    served(o->type, t->type),
					    (unsigned long long)(t->page >> 10));
		}
		for (k = 0; k < npages && pages[k] != t->page; k++)
			;
		if (k == npages)
			pages[npages++] = t->page;
		if (npages > MP_SIM_MAX_PAGE_SIZES)
			return fail(err, len, file, t->line_no, "more than %d page sizes",
				    MP_SIM_MAX_PAGE_SIZES);
	}
	return 0;
}

static int check_prefetch(const struct mp_sim_model *m, const char *file, char *err, size_t len)
{
	if (m->prefetch.kind == MP_SIM_PF_NONE)
		return 0;
	for (int i = 0; i < m->ncaches; i++) {
		const struct mp_sim_cache_model *c = &m->caches[i];

		if (c->level == m->prefetch.level && c->type != MP_KIND_INSTRUCTION)
			return 0;
	}
	return fail(err, len, file, 0, "prefetch level=%d: no level-%d cache holds data",
		    m->prefetch.level, m->prefetch.level);
}

int mp_sim_model_check(const struct mp_sim_model *m, const char *file, char *err, size_t err_len)
{
	if (check_caches(m, file, err, err_len) < 0 || check_tlbs(m, file, err, err_len) < 0)
		return -1;
	return check_prefetch(m, file, err, err_len);
}
