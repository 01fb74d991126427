/* SPDX-License-Identifier: MIT */
/*
 * The checks a model needs across its lines: unique names (per core type:
 * the P-cores' L1D and the E-cores' L1D may share a name), one cache per
 * level and kind of access on each core type, inclusion only where a level
 * has one above it, a prefetcher at a level that exists, few enough page
 * sizes; cpu lines with distinct names, cpu= naming one of them, shared=
 * dividing the cores, and sharing groups that nest (the cores sharing one
 * instance of a level share one instance of every cache level below it).
 */
#include <stdarg.h>
#include <stdio.h>
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

/* Do structures given to cpu a and cpu b meet on some core type? */
static bool common(const char *a, const char *b)
{
	return !a[0] || !b[0] || !strcmp(a, b);
}

/* " on cpu NAME" where the structures belong to one named type. */
static const char *on_type(const char *a, const char *b, char *buf, size_t len)
{
	const char *name = a[0] ? a : b;

	if (!name[0])
		return "";
	snprintf(buf, len, " on cpu %s", name);
	return buf;
}

static int check_types(const struct mp_sim_model *m, const char *file, char *err, size_t len)
{
	for (int t = 0; t < m->ntypes; t++) {
		const struct mp_sim_cpu_model *c = &m->types[t];

		if (m->ntypes > 1 && !c->name[0])
			return fail(err, len, file, c->line_no,
				    "cpu: a model of several cpu lines needs name= on each");
		for (int u = 0; u < t; u++)
			if (!strcmp(m->types[u].name, c->name))
				return fail(err, len, file, c->line_no, "cpu %s is defined twice",
					    c->name);
	}
	if (mp_sim_model_cpus(m) > MP_SIM_MAX_CPUS)
		return fail(err, len, file, m->types[m->ntypes - 1].line_no,
			    "%u logical CPUs are more than the simulator holds (%u)",
			    mp_sim_model_cpus(m), MP_SIM_MAX_CPUS);
	return 0;
}

/* cpu= names a cpu line; shared=N divides the cores of every type that has it. */
static int check_owner(const struct mp_sim_model *m, const char *what, const char *name,
		       const char *cpu, uint32_t shared, uint32_t line, const char *file,
		       char *err, size_t len)
{
	if (cpu[0] && mp_sim_type_index(m, cpu) < 0)
		return fail(err, len, file, line, "%s %s: cpu=%s names no cpu line", what, name,
			    cpu);
	for (int t = 0; t < m->ntypes; t++)
		if (shared != MP_SIM_SHARED_ALL && mp_sim_type_has(m, t, cpu) &&
		    m->types[t].cores % shared)
			return fail(err, len, file, line,
				    "%s %s: shared=%u does not divide the %u cores of cpu %s", what,
				    name, shared, m->types[t].cores,
				    m->types[t].name[0] ? m->types[t].name : "(the model)");
	return 0;
}

/* Each type has at most as many caches and TLBs as a result holds. */
static int check_counts(const struct mp_sim_model *m, const char *file, char *err, size_t len)
{
	for (int t = 0; t < m->ntypes; t++) {
		struct mp_sim_model one;

		mp_sim_model_type(m, t, &one);
		if (one.ncaches > MP_MAX_CACHES || one.ntlbs > MP_MAX_TLBS)
			return fail(err, len, file, m->types[t].line_no,
				    "cpu %s: more than %d caches or %d TLBs", m->types[t].name,
				    MP_MAX_CACHES, MP_MAX_TLBS);
	}
	return 0;
}

/*
 * Cache u is above cache l on some path: every instance of u must sit above
 * one instance of l (the walk down and inclusion follow one line of caches).
 */
static bool nests(const struct mp_sim_model *m, const struct mp_sim_cache_model *u,
		  const struct mp_sim_cache_model *l)
{
	static int32_t below[MP_SIM_MAX_CPUS];
	uint32_t n = mp_sim_instances(m, u->cpu, u->shared);

	for (uint32_t i = 0; i < n; i++)
		below[i] = -1;
	for (int t = 0; t < m->ntypes; t++) {
		if (!mp_sim_type_has(m, t, u->cpu) || !mp_sim_type_has(m, t, l->cpu))
			continue;
		for (uint32_t k = 0; k < m->types[t].cores; k++) {
			uint32_t iu = mp_sim_instance(m, u->cpu, u->shared, t, k);
			int32_t il = (int32_t)mp_sim_instance(m, l->cpu, l->shared, t, k);

			if (below[iu] >= 0 && below[iu] != il)
				return false;
			below[iu] = il;
		}
	}
	return true;
}

static int check_caches(const struct mp_sim_model *m, const char *file, char *err, size_t len)
{
	char buf[MP_CPU_TYPE_LEN + 16];

	for (int i = 0; i < m->ncaches; i++) {
		const struct mp_sim_cache_model *c = &m->caches[i];
		bool above = false;

		if (check_owner(m, "cache", c->name, c->cpu, c->shared, c->line_no, file, err,
				len) < 0)
			return -1;
		for (int j = 0; j < m->ncaches; j++) {
			const struct mp_sim_cache_model *o = &m->caches[j];
			bool meet = common(o->cpu, c->cpu) && overlap(o->type, c->type);

			if (j < i && !strcmp(o->name, c->name) && common(o->cpu, c->cpu))
				return fail(err, len, file, c->line_no, "cache %s is defined twice%s",
					    c->name, on_type(o->cpu, c->cpu, buf, sizeof(buf)));
			if (j < i && o->level == c->level && meet)
				return fail(err, len, file, c->line_no,
					    "caches %s and %s are both level %d for %s%s", o->name,
					    c->name, c->level, served(o->type, c->type),
					    on_type(o->cpu, c->cpu, buf, sizeof(buf)));
			if (o->level < c->level && meet && !nests(m, o, c))
				return fail(err, len, file, c->line_no,
					    "cache %s: its instances split the cores that share one "
					    "%s above it (a level below must be shared by at least "
					    "the cores of one instance above)", c->name, o->name);
			above = above || (o->level < c->level && meet);
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
	uint64_t pages[MP_SIM_MAX_TLBS];
	int npages = 0;

	for (int i = 0; i < m->ntlbs; i++) {
		const struct mp_sim_tlb_model *t = &m->tlbs[i];
		char buf[MP_CPU_TYPE_LEN + 16];
		int k;

		if (check_owner(m, "tlb", t->name, t->cpu, t->shared, t->line_no, file, err,
				len) < 0)
			return -1;
		for (int j = 0; j < i; j++) {
			const struct mp_sim_tlb_model *o = &m->tlbs[j];

			if (!strcmp(o->name, t->name) && common(o->cpu, t->cpu))
				return fail(err, len, file, t->line_no, "tlb %s is defined twice%s",
					    t->name, on_type(o->cpu, t->cpu, buf, sizeof(buf)));
			if (o->level == t->level && o->page == t->page &&
			    overlap(o->type, t->type) && common(o->cpu, t->cpu))
				return fail(err, len, file, t->line_no,
					    "TLBs %s and %s are both level %d for %s in "
					    "%lluK pages%s", o->name, t->name, t->level,
					    served(o->type, t->type),
					    (unsigned long long)(t->page >> 10),
					    on_type(o->cpu, t->cpu, buf, sizeof(buf)));
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

uint64_t mp_sim_model_base_page(const struct mp_sim_model *m)
{
	uint64_t base = 0;

	for (int i = 0; i < m->ntlbs; i++)
		base = !base || m->tlbs[i].page < base ? m->tlbs[i].page : base;
	return base ? base : 4096;
}

static int check_frames(const struct mp_sim_model *m, const char *file, char *err, size_t len)
{
	uint64_t base = mp_sim_model_base_page(m);

	if (!m->frames.host || m->frames.host == base)
		return 0;
	return fail(err, len, file, 0, "frames host=%lluK: the host's frames are the base page "
		    "(%lluK)", (unsigned long long)(m->frames.host >> 10),
		    (unsigned long long)(base >> 10));
}

/*
 * A neighbour confined to one set names a set every cache of its level
 * has; one beside one CPU, a CPU the model has.
 */
static int check_neighbour(const struct mp_sim_model *m, const char *file, char *err,
			   size_t len)
{
	if (m->neighbour.one_cpu && m->neighbour.cpu >= mp_sim_model_cpus(m))
		return fail(err, len, file, 0, "neighbour cpu=%u: the model has %u CPUs",
			    m->neighbour.cpu, mp_sim_model_cpus(m));
	for (int i = 0; m->neighbour.one_set && i < m->ncaches; i++) {
		const struct mp_sim_cache_model *c = &m->caches[i];
		uint64_t sets = mp_sim_cache_sets(c);

		if ((uint32_t)c->level == m->neighbour.level && m->neighbour.set >= sets)
			return fail(err, len, file, 0, "neighbour set=%u: cache %s has %llu sets",
				    m->neighbour.set, c->name, (unsigned long long)sets);
	}
	return 0;
}

int mp_sim_model_check(const struct mp_sim_model *m, const char *file, char *err, size_t err_len)
{
	if (check_types(m, file, err, err_len) < 0 || check_caches(m, file, err, err_len) < 0 ||
	    check_tlbs(m, file, err, err_len) < 0 || check_counts(m, file, err, err_len) < 0)
		return -1;
	if (check_frames(m, file, err, err_len) < 0 || check_neighbour(m, file, err, err_len) < 0)
		return -1;
	return check_prefetch(m, file, err, err_len);
}
