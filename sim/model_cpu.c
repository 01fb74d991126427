/* SPDX-License-Identifier: MIT */
/*
 * Core types of a model (`cpu` lines) and who shares a structure: a cache
 * or TLB line with cpu=NAME belongs to that type only, without it to every
 * type; shared=N cores of one type share one instance (N divides the
 * type's cores), shared=all every core that has the structure, across
 * types too.  Threads of a core always share its instances.
 */
#include <string.h>

#include "sim/sim.h"

int mp_sim_type_index(const struct mp_sim_model *m, const char *name)
{
	for (int t = 0; t < m->ntypes; t++)
		if (!strcmp(m->types[t].name, name))
			return t;
	return -1;
}

bool mp_sim_type_has(const struct mp_sim_model *m, int t, const char *cpu)
{
	return !cpu[0] || !strcmp(m->types[t].name, cpu);
}

uint32_t mp_sim_model_cpus(const struct mp_sim_model *m)
{
	uint32_t n = 0;

	for (int t = 0; t < m->ntypes; t++)
		n += m->types[t].cores * m->types[t].threads;
	return n;
}

uint32_t mp_sim_shared_by(const struct mp_sim_model *m, int t, const char *cpu, uint32_t shared)
{
	uint32_t n = 0;

	if (shared != MP_SIM_SHARED_ALL)
		return shared * m->types[t].threads;
	for (int u = 0; u < m->ntypes; u++)
		if (mp_sim_type_has(m, u, cpu))
			n += m->types[u].cores * m->types[u].threads;
	return n;
}

void mp_sim_model_type(const struct mp_sim_model *m, int t, struct mp_sim_model *out)
{
	*out = *m;
	out->ntypes = 1;
	out->types[0] = m->types[t];
	out->ncaches = 0;
	out->ntlbs = 0;
	for (int i = 0; i < m->ncaches; i++)
		if (mp_sim_type_has(m, t, m->caches[i].cpu))
			out->caches[out->ncaches++] = m->caches[i];
	for (int i = 0; i < m->ntlbs; i++)
		if (mp_sim_type_has(m, t, m->tlbs[i].cpu))
			out->tlbs[out->ntlbs++] = m->tlbs[i];
}

uint32_t mp_sim_instances(const struct mp_sim_model *m, const char *cpu, uint32_t shared)
{
	uint32_t n = 0;

	if (shared == MP_SIM_SHARED_ALL)
		return 1;
	for (int t = 0; t < m->ntypes; t++)
		if (mp_sim_type_has(m, t, cpu))
			n += m->types[t].cores / shared;
	return n;
}

uint32_t mp_sim_instance(const struct mp_sim_model *m, const char *cpu, uint32_t shared, int t,
			 uint32_t core)
{
	uint32_t n = 0;

	if (shared == MP_SIM_SHARED_ALL)
		return 0;
	for (int u = 0; u < t; u++)
		if (mp_sim_type_has(m, u, cpu))
			n += m->types[u].cores / shared;
	return n + core / shared;
}
