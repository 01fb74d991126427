/* SPDX-License-Identifier: MIT */
#include "core/lib/buf.h"
#include "core/measure/counter.h"

/* The caches of one side on the cache array. */
static unsigned caches(struct mp_counter *k, struct mp_mem *array, mp_counter_levels_fn measure,
		       void *probe, bool code)
{
	struct mp_counter_pass pass = { false, code, MP_PAGE_2M };
	uint32_t events = code ? MP_EV_BIT(MP_EV_L1I_MISS) : MP_COUNTER_CACHE_EVENTS;
	unsigned n;

	if (!(k->events & events) || mp_counter_array(k, code, array) != MP_OK)
		return 0;
	n = measure(probe, &pass);
	k->c->p->ops->mem_free(k->c->p, array);
	return n;
}

/* The TLBs of one side on an array of each page size the platform maps (once per distinct size). */
static unsigned tlbs(struct mp_counter *k, struct mp_mem *array, mp_counter_levels_fn measure,
		     void *probe, bool code)
{
	uint32_t events = code ? MP_EV_BIT(MP_EV_ITLB1_MISS) | MP_EV_BIT(MP_EV_ITLB2_MISS)
			       : MP_COUNTER_TLB_EVENTS;
	uint64_t seen[MP_COUNTER_PAGE_KINDS];
	unsigned n = 0, nseen = 0;

	for (unsigned i = 0; i < MP_COUNTER_PAGE_KINDS && (k->events & events); i++) {
		struct mp_counter_pass pass = { true, code, mp_counter_page_kind(i) };

		if (!mp_counter_array_pages(k, i, code, seen, nseen, array))
			continue;
		seen[nseen++] = array->page_bytes;
		n += measure(probe, &pass);
		k->c->p->ops->mem_free(k->c->p, array);
	}
	return n;
}

void mp_counter_probe(struct mp_counter *k, struct mp_ctx *c, struct mp_mem *array,
		      mp_counter_levels_fn measure, void *probe, bool code)
{
	enum mp_status st = mp_counter_open(k, c);
	unsigned nc, nt, ni = 0;

	if (st == MP_UNSUPPORTED)
		return mp_probe_unsupported(c, "the platform counts no cache or TLB miss events; "
					       "only timing measures here");
	if (st != MP_OK)
		return mp_probe_fail(c, "the counters could not be set up");
	nc = caches(k, array, measure, probe, false);
	nt = tlbs(k, array, measure, probe, false);
	if (code)
		ni = caches(k, array, measure, probe, true) + tlbs(k, array, measure, probe, true);
	mp_counter_close(k);
	if (c->self->status == MP_PROBE_OK)
		mp_snprintf(c->self->message, sizeof(c->self->message),
			    "%u cache, %u TLB and %u instruction levels, %llu counted runs", nc, nt,
			    ni, (unsigned long long)k->counted);
}
