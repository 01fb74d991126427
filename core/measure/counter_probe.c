/* SPDX-License-Identifier: MIT */
#include "core/lib/buf.h"
#include "core/measure/counter.h"

static unsigned caches(struct mp_counter *k, struct mp_mem *array, mp_counter_levels_fn measure,
		       void *probe)
{
	unsigned n;

	if (!(k->events & MP_COUNTER_CACHE_EVENTS) || mp_counter_array(k, array) != MP_OK)
		return 0;
	n = measure(probe, false, MP_PAGE_2M);
	k->c->p->ops->mem_free(k->c->p, array);
	return n;
}

/* The data TLBs on an array of each page size the platform maps (once per distinct size). */
static unsigned tlbs(struct mp_counter *k, struct mp_mem *array, mp_counter_levels_fn measure,
		     void *probe)
{
	uint64_t seen[MP_COUNTER_PAGE_KINDS];
	unsigned n = 0, nseen = 0;

	for (unsigned i = 0; i < MP_COUNTER_PAGE_KINDS && (k->events & MP_COUNTER_TLB_EVENTS); i++) {
		if (!mp_counter_array_pages(k, i, seen, nseen, array))
			continue;
		seen[nseen++] = array->page_bytes;
		n += measure(probe, true, mp_counter_page_kind(i));
		k->c->p->ops->mem_free(k->c->p, array);
	}
	return n;
}

void mp_counter_probe(struct mp_counter *k, struct mp_ctx *c, struct mp_mem *array,
		      mp_counter_levels_fn measure, void *probe)
{
	enum mp_status st = mp_counter_open(k, c);
	unsigned nc, nt;

	if (st == MP_UNSUPPORTED)
		return mp_probe_unsupported(c, "the platform counts no cache or TLB miss events; "
					       "only timing measures here");
	if (st != MP_OK)
		return mp_probe_fail(c, "the counters could not be set up");
	nc = caches(k, array, measure, probe);
	nt = tlbs(k, array, measure, probe);
	mp_counter_close(k);
	if (c->self->status == MP_PROBE_OK)
		mp_snprintf(c->self->message, sizeof(c->self->message),
			    "%u cache and %u TLB levels, %llu counted runs", nc, nt,
			    (unsigned long long)k->counted);
}
