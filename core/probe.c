/* SPDX-License-Identifier: MIT */
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/probe.h"

static void set_status(struct mp_ctx *c, enum mp_probe_status st, const char *why)
{
	if (c->self->status != MP_PROBE_OK)
		return;
	c->self->status = st;
	mp_strlcpy(c->self->message, why, sizeof(c->self->message));
}

void mp_probe_fail(struct mp_ctx *c, const char *why)
{
	set_status(c, MP_PROBE_FAILED, why);
}

void mp_probe_unsupported(struct mp_ctx *c, const char *why)
{
	set_status(c, MP_PROBE_UNSUPPORTED, why);
}

enum mp_status mp_probe_alloc(struct mp_ctx *c, uint64_t bytes, enum mp_page page,
			      struct mp_mem *m)
{
	struct mp_mem_req req = { .bytes = bytes, .align = 4096, .page = page };

	return mp_probe_alloc_req(c, &req, m);
}

enum mp_status mp_probe_alloc_req(struct mp_ctx *c, const struct mp_mem_req *req,
				  struct mp_mem *m)
{
	enum mp_status st = c->p->ops->mem_alloc(c->p, req, m);
	char why[MP_TEXT_LEN];
	struct mp_buf b;

	if (st == MP_OK)
		return MP_OK;
	mp_buf_init(&b, why, sizeof(why));
	mp_buf_puts(&b, req->exec ? "could not allocate executable " : "could not allocate ");
	mp_buf_size(&b, req->bytes);
	mp_buf_puts(&b, st == MP_ENOMEM ? " (out of memory)" : " (platform error)");
	mp_probe_fail(c, why);
	return st;
}

enum mp_status mp_probe_alloc_contig(struct mp_ctx *c, uint64_t bytes, struct mp_mem *m)
{
	struct mp_mem_req req = {
		.bytes = bytes, .align = 4096, .page = MP_PAGE_2M, .contiguous = true,
	};

	if (c->p->ops->mem_alloc(c->p, &req, m) == MP_OK)
		return MP_OK;
	return mp_probe_alloc(c, bytes, MP_PAGE_2M, m);
}

const char *mp_probe_time_unit(const struct mp_ctx *c)
{
	return c->p->core_hz ? "cycles" : "ns";
}

double mp_probe_time(const struct mp_ctx *c, double ticks)
{
	return c->p->core_hz ? mp_ticks_to_cycles(c->p, ticks) : mp_ticks_to_ns(c->p, ticks);
}

double mp_ticks_to_cycles(const struct mp_platform *p, double ticks)
{
	if (p->core_hz == 0 || p->tick_hz == 0)
		return mp_na_double();
	return ticks * (double)p->core_hz / (double)p->tick_hz;
}

double mp_cycles_to_ns(const struct mp_platform *p, double cycles)
{
	if (p->core_hz == 0)
		return mp_na_double();
	return cycles * 1e9 / (double)p->core_hz;
}

double mp_ticks_to_ns(const struct mp_platform *p, double ticks)
{
	if (p->tick_hz == 0)
		return mp_na_double();
	return ticks * 1e9 / (double)p->tick_hz;
}

double mp_seconds_since(struct mp_platform *p, uint64_t t0)
{
	if (p->tick_hz == 0)
		return mp_na_double();
	return (double)(mp_now(p) - t0) / (double)p->tick_hz;
}

bool mp_rest_about(struct mp_platform *p, struct mp_rng *rng, uint32_t us)
{
	return mp_rest(p, us / 2 + (uint32_t)mp_rng_below(rng, us));
}
