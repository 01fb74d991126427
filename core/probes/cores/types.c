/* SPDX-License-Identifier: MIT */
/*
 * Probe "cores": the logical CPUs grouped into core types (cpus.c), each
 * type other than the boot CPU's measured by the suite's cache and TLB
 * probes on its first usable CPU (one round each), then the sharing of
 * every data level of every type measured (sharing.c).  The boot CPU's
 * type is what the suite measured before: result.caches[] and tlbs[], whose
 * shared_by the sharing fills too.
 */
#include "core/lib/str.h"
#include "core/probes/cores/cores.h"
#include "core/probes/probes.h"

/* The suite's probes of one core's caches and TLBs, in the suite's order. */
static const struct {
	const char *name;
	mp_probe_fn run;
} per_core[] = {
	{ "latency", mp_probe_latency }, { "l1", mp_probe_l1 }, { "levels", mp_probe_levels },
	{ "compact", mp_probe_compact }, { "tlb", mp_probe_tlb },
};

/* Where another core type's probes write their result. */
static struct mp_result scratch;

static void run_per_core(struct mp_ctx *c, struct mp_core_type *t)
{
	for (unsigned i = 0; i < sizeof(per_core) / sizeof(per_core[0]); i++) {
		struct mp_probe *rec;
		struct mp_ctx sub;

		if (!mp_config_wants(c->cfg, per_core[i].name))
			continue;
		rec = mp_result_add_probe(&scratch, per_core[i].name);
		sub = (struct mp_ctx){ .p = c->p, .cfg = c->cfg, .r = &scratch, .self = rec };
		rec->status = MP_PROBE_OK;
		per_core[i].run(&sub);
		if (rec->status != MP_PROBE_OK)
			mp_logf(c->p, MP_LOG_WARN, "cores: %s: probe %s: %s: %s", t->name,
				rec->name, mp_probe_status_name(rec->status), rec->message);
	}
}

/* Measure another core type on CPU `cpu`; its memory latency in cycles (NaN: not measured). */
static double measure_type(struct mp_ctx *c, struct mp_core_type *t, uint32_t cpu)
{
	if (mp_cpu_select(c->p, cpu) != MP_OK) {
		mp_logf(c->p, MP_LOG_WARN, "cores: %s: CPU %u cannot be selected", t->name,
			(unsigned)cpu);
		return mp_na_double();
	}
	mp_result_init(&scratch, c->r->platform);
	scratch.documented = c->r->documented;
	scratch.cpu = c->r->cpu;
	mp_logf(c->p, MP_LOG_INFO, "cores: measuring core type %s on CPU %u", t->name,
		(unsigned)cpu);
	run_per_core(c, t);
	mp_core_type_copy(t, &scratch);
	mp_cpu_select(c->p, 0);
	return scratch.memory.latency_cycles;
}

/* The boot CPU's type takes the top-level shared_by, found on its copy. */
static void share_back(struct mp_result *r)
{
	const struct mp_core_type *boot = &r->core_types[0];

	for (int32_t i = 0; i < mp_count(r->ncaches, MP_MAX_CACHES); i++)
		for (int32_t j = 0; j < mp_count(boot->ncaches, MP_MAX_CACHES); j++)
			if (boot->caches[j].level == r->caches[i].level &&
			    boot->caches[j].type == r->caches[i].type)
				r->caches[i].shared_by = boot->caches[j].shared_by;
}

/* Why sharing cannot be measured on this run, or NULL. */
static const char *no_sharing(const struct mp_ctx *c, const struct mp_cpus *s)
{
	if (s->usable < 2)
		return s->n < 2 ? "cache sharing not measured: one logical CPU"
				: "cache sharing not measured: cores = boot";
	if (!c->p->ops->run_beside)
		return "cache sharing not measured: the platform cannot run a load beside a probe";
	if (!s->described)
		return "cache sharing not measured: the platform does not describe its CPUs";
	return NULL;
}

void mp_probe_cores(struct mp_ctx *c)
{
	const struct mp_cpus *s = mp_cpus_read(c->p, c->cfg);
	const char *why = no_sharing(c, s);
	double memory[MP_MAX_CORE_TYPES];

	if (!mp_cores_timed(c))
		return;
	mp_cpus_group(s, c->r);
	for (int32_t i = 0; i < c->r->ncore_types; i++) {
		struct mp_core_type *t = &c->r->core_types[i];
		uint32_t cpu = mp_core_type_first(s, t);

		mp_progress(c->p, "core types", (uint64_t)i, (uint64_t)c->r->ncore_types);
		if (i == 0) {
			mp_core_type_copy(t, c->r);
			memory[i] = c->r->memory.latency_cycles;
		} else if (cpu != MP_CPU_UNKNOWN) {
			memory[i] = measure_type(c, t, cpu);
		} else {
			mp_logf(c->p, MP_LOG_INFO, "cores: %s not measured: none of its CPUs is "
				"usable (the cores key)", t->name);
		}
	}
	if (why) {
		if (s->n >= 2)            /* one CPU: the topology's note says so already */
			mp_result_add_note(c->r, why);
		mp_probe_unsupported(c, why);
		return;
	}
	for (int32_t i = 0; i < c->r->ncore_types; i++)
		mp_sharing_measure(c, s, &c->r->core_types[i], memory[i]);
	share_back(c->r);
}
