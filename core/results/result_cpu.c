/* SPDX-License-Identifier: MIT */
/* The results model's instruction-side and CPU tables (core/results/result.h). */
#include "core/lib/str.h"
#include "core/results/result.h"

void mp_cpu_timing_init(struct mp_cpu_timing *t)
{
	mp_memset(t, 0, sizeof(*t));
	t->core_hz_min = mp_na_double();
	t->core_hz_max = mp_na_double();
	t->clock_steady = MP_UNKNOWN;
	t->vector_bits = MP_NA;
	t->fma = MP_UNKNOWN;
}

void mp_cpu_doc_init(struct mp_cpu_doc *d)
{
	mp_memset(d, 0, sizeof(*d));
	d->base_hz = mp_na_double();
	d->max_hz = mp_na_double();
	d->bus_hz = mp_na_double();
	d->gp_registers = MP_NA;
	d->vector_registers = MP_NA;
	d->vector_bits = MP_NA;
}

struct mp_op_timing *mp_result_add_op(struct mp_result *r)
{
	struct mp_cpu_timing *t = &r->cpu_timing;
	struct mp_op_timing *op;

	if (t->nops < 0 || t->nops >= MP_MAX_OPS)
		return NULL;
	op = &t->ops[t->nops++];
	*op = (struct mp_op_timing){ "", MP_NA, mp_na_double(), mp_na_double() };
	return op;
}

struct mp_fetch_level *mp_result_add_fetch(struct mp_result *r)
{
	struct mp_fetch_level *f;

	if (r->nfetch < 0 || r->nfetch >= MP_MAX_CACHES)
		return NULL;
	f = &r->fetch[r->nfetch++];
	*f = (struct mp_fetch_level){ MP_NA, MP_NA, mp_na_double(), mp_na_double() };
	return f;
}

