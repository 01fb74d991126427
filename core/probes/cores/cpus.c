/* SPDX-License-Identifier: MIT */
/*
 * The logical CPUs as the platform describes them (cores.h): the table,
 * the topology counted from it, the core types, and the sample of CPUs the
 * core-to-core matrix covers.
 */
#include "core/lib/buf.h"
#include "core/lib/sort.h"
#include "core/lib/str.h"
#include "core/probes/cores/cores.h"

static struct mp_cpus table;

/* A platform without cpu_info has one CPU that it does not describe: one of everything. */
static enum mp_status describe(struct mp_platform *p, uint32_t cpu, struct mp_cpu_info *out)
{
	if (p->ops->cpu_info)
		return p->ops->cpu_info(p, cpu, out);
	*out = (struct mp_cpu_info){ .die = MP_CPU_UNKNOWN, .cluster = MP_CPU_UNKNOWN };
	return cpu == 0 ? MP_OK : MP_UNSUPPORTED;
}

const struct mp_cpus *mp_cpus_read(struct mp_platform *p, const struct mp_config *cfg)
{
	uint32_t want = cfg->cores == MP_CORES_ALL ? MP_MAX_CPUS : cfg->cores;

	table.total = mp_cpu_count(p);
	table.n = table.total < MP_MAX_CPUS ? table.total : MP_MAX_CPUS;
	table.usable = table.n < want ? table.n : want;
	table.described = true;
	for (uint32_t i = 0; i < table.n; i++) {
		const struct mp_cpu_info *in = &table.info[i];

		if (describe(p, i, &table.info[i]) == MP_OK && in->package != MP_CPU_UNKNOWN &&
		    in->core != MP_CPU_UNKNOWN)
			continue;
		table.described = false;
		table.info[i] = (struct mp_cpu_info){
			MP_CPU_UNKNOWN, MP_CPU_UNKNOWN, MP_CPU_UNKNOWN, MP_CPU_UNKNOWN,
			MP_CPU_UNKNOWN, MP_CPU_UNKNOWN, "",
		};
	}
	return &table;
}

bool mp_cores_timed(struct mp_ctx *c)
{
	if (c->cfg->method != MP_METHOD_COUNTERS)
		return true;
	c->self->status = MP_PROBE_SKIPPED;
	mp_strlcpy(c->self->message, "method is counters", sizeof(c->self->message));
	return false;
}

bool mp_cpu_same_core(const struct mp_cpu_info *a, const struct mp_cpu_info *b)
{
	return a->package != MP_CPU_UNKNOWN && a->core != MP_CPU_UNKNOWN &&
	       a->package == b->package && a->die == b->die && a->cluster == b->cluster &&
	       a->core == b->core;
}

/* How close two CPUs are: the places they share, from the package down. */
enum place { PACKAGE = 0, DIE, CLUSTER, CORE, NOWHERE /* no place: nothing excluded */ };

static bool same_place(const struct mp_cpu_info *a, const struct mp_cpu_info *b, enum place d)
{
	const uint32_t fa[] = { a->package, a->die, a->cluster, a->core };
	const uint32_t fb[] = { b->package, b->die, b->cluster, b->core };

	for (int k = 0; k <= (int)d && k < NOWHERE; k++)
		if (fa[k] != fb[k])
			return false;
	return true;
}

/* Is CPU i the first of the CPUs in its place (its package, die, cluster or core)? */
static bool first_of(const struct mp_cpus *s, uint32_t i, enum place d)
{
	for (uint32_t j = 0; j < i; j++)
		if (same_place(&s->info[j], &s->info[i], d))
			return false;
	return true;
}

static bool first_of_type(const struct mp_cpus *s, uint32_t i)
{
	for (uint32_t j = 0; j < i; j++)
		if (mp_strncmp(s->info[j].type, s->info[i].type, MP_CPU_TYPE_LEN) == 0)
			return false;
	return true;
}

void mp_cpus_topology(const struct mp_cpus *s, struct mp_topology *t)
{
	int32_t packages = 0, cores = 0;

	for (uint32_t i = 0; i < s->n; i++) {
		packages += first_of(s, i, PACKAGE);
		cores += first_of(s, i, CORE);
	}
	t->threads = (int32_t)s->total;
	t->packages = s->described ? packages : MP_NA;
	t->cores = s->described ? cores : MP_NA;
}

/* The core type a CPU's type names, or NULL. */
static struct mp_core_type *type_of(struct mp_result *r, const char *type)
{
	const char *name = type[0] ? type : "core";

	for (int32_t i = 0; i < r->ncore_types; i++)
		if (mp_strncmp(r->core_types[i].name, name, sizeof(r->core_types[i].name)) == 0)
			return &r->core_types[i];
	return NULL;
}

static struct mp_core_type *add_type(struct mp_result *r, const char *type)
{
	struct mp_core_type *t = &r->core_types[r->ncore_types++];

	mp_memset(t, 0, sizeof(*t));
	mp_strlcpy(t->name, type[0] ? type : "core", sizeof(t->name));
	for (unsigned i = 0; i < MP_MAX_CACHES; i++)
		mp_cache_init(&t->caches[i]);
	for (unsigned i = 0; i < MP_MAX_TLBS; i++)
		mp_tlb_init(&t->tlbs[i]);
	return t;
}

void mp_cpus_group(const struct mp_cpus *s, struct mp_result *r)
{
	char note[MP_NOTE_LEN];

	r->ncore_types = 0;
	for (uint32_t i = 0; i < s->n; i++) {
		struct mp_core_type *t = type_of(r, s->info[i].type);

		if (!t && r->ncore_types < MP_MAX_CORE_TYPES)
			t = add_type(r, s->info[i].type);
		if (t) {
			t->cpus[t->ncpus++] = (uint16_t)i;
			continue;
		}
		mp_snprintf(note, sizeof(note), "core type \"%s\" (CPU %u) not measured: more than "
			    "%d core types", s->info[i].type, (unsigned)i, MP_MAX_CORE_TYPES);
		if (first_of_type(s, i))
			mp_result_add_note(r, note);
	}
}

uint32_t mp_core_type_first(const struct mp_cpus *s, const struct mp_core_type *t)
{
	for (int32_t i = 0; i < mp_count(t->ncpus, MP_MAX_CPUS); i++)
		if (t->cpus[i] < s->usable)
			return t->cpus[i];
	return MP_CPU_UNKNOWN;
}

/* ---- the core-to-core sample ---- */

struct sample {
	uint32_t *cpu;
	uint32_t n, max;
};

static void add(struct sample *m, uint32_t cpu)
{
	for (uint32_t k = 0; k < m->n; k++)
		if (m->cpu[k] == cpu)
			return;
	if (m->n < m->max)
		m->cpu[m->n++] = cpu;
}

/*
 * The first usable CPU in the same place as CPU 0 down to `near` (-1: any)
 * but not down to `far`, or, with `every`, each such CPU that is the first
 * of its place `far`.
 */
static void add_related(const struct mp_cpus *s, struct sample *m, int near, enum place far,
			bool every)
{
	const struct mp_cpu_info *boot = &s->info[0];

	for (uint32_t i = 1; i < s->usable; i++) {
		const struct mp_cpu_info *c = &s->info[i];

		if ((near >= 0 && !same_place(boot, c, (enum place)near)) ||
		    (far != NOWHERE && same_place(boot, c, far)))
			continue;
		if (!every) {
			add(m, i);
			return;
		}
		if (first_of(s, i, far))
			add(m, i);
	}
}

/*
 * From CPU `anchor`, the first usable CPU of the cores 1, 2, 4, 8, ... core
 * numbers further on in its package: whatever the size of a cluster
 * sharing a cache, one of them is inside it and the next outside.
 */
static void add_ladder(const struct mp_cpus *s, struct sample *m, uint32_t anchor)
{
	const struct mp_cpu_info *a = &s->info[anchor];

	for (uint32_t d = 1; d < MP_MAX_CPUS; d *= 2)
		for (uint32_t i = 0; i < s->usable; i++)
			if (s->info[i].package == a->package && s->info[i].core == a->core + d) {
				add(m, i);
				break;
			}
}

uint32_t mp_cpus_sample(const struct mp_cpus *s, const struct mp_result *r, uint32_t *out,
			uint32_t max)
{
	struct sample m = { out, 0, max };

	if (s->usable == 0)
		return 0;
	add(&m, 0);
	if (s->usable <= max) {
		for (uint32_t i = 1; i < s->usable; i++)
			add(&m, i);
		return m.n;
	}
	add_related(s, &m, CORE, NOWHERE, false);         /* the SMT sibling */
	add_related(s, &m, CLUSTER, CORE, false);       /* another core of the cluster */
	add_related(s, &m, DIE, CLUSTER, true);         /* every other cluster of the die */
	add_related(s, &m, PACKAGE, DIE, true);         /* every other die of the package */
	add_related(s, &m, -1, PACKAGE, true);          /* every other package */
	for (int32_t t = 0; t < mp_count(r->ncore_types, MP_MAX_CORE_TYPES); t++)
		if (mp_core_type_first(s, &r->core_types[t]) != MP_CPU_UNKNOWN)
			add(&m, mp_core_type_first(s, &r->core_types[t]));
	for (int32_t t = 0; t < mp_count(r->ncore_types, MP_MAX_CORE_TYPES); t++)
		if (mp_core_type_first(s, &r->core_types[t]) != MP_CPU_UNKNOWN)
			add_ladder(s, &m, mp_core_type_first(s, &r->core_types[t]));
	mp_sort_u32(out, m.n);
	return m.n;
}
