/* SPDX-License-Identifier: MIT */
/*
 * The topology: every logical CPU the platform can run on, as it describes
 * it (CPUID's topology leaves, the operating system or the firmware:
 * core/platform.h, struct mp_cpu_info), counted into packages, cores and
 * logical CPUs.  Nothing is timed, so it is no probe of the table: the
 * suite reads it before the probes, whatever the method.
 */
#include "core/lib/buf.h"
#include "core/probes/cores/cores.h"

/* Why the suite cannot use the other CPUs, when it cannot; NULL when it can. */
static const char *single_why(const struct mp_platform *p, const struct mp_cpus *s)
{
	if (!p->ops->cpu_count)
		return "the platform runs on one logical CPU (no multi-processor operations): "
		       "the topology counts only it";
	if (s->total <= 1)
		return "the platform offers one logical CPU";
	return NULL;
}

void mp_cores_topology(struct mp_platform *p, const struct mp_config *cfg, struct mp_result *r)
{
	const struct mp_cpus *s = mp_cpus_read(p, cfg);
	const char *why = single_why(p, s);
	char note[MP_NOTE_LEN];

	mp_cpus_topology(s, &r->topology);
	mp_logf(p, MP_LOG_INFO, "topology: %d package(s), %d core(s), %d logical CPU(s)",
		(int)r->topology.packages, (int)r->topology.cores, (int)r->topology.threads);
	if (why)
		mp_result_add_note(r, why);
	if (s->total > MP_MAX_CPUS) {
		mp_snprintf(note, sizeof(note),
			    "%u logical CPUs: the multi-core probes use the first %d",
			    (unsigned)s->total, MP_MAX_CPUS);
		mp_result_add_note(r, note);
	}
	if (!s->described)
		mp_result_add_note(r, "the platform does not describe every logical CPU: packages "
				      "and cores not counted");
}
