/* SPDX-License-Identifier: MIT */
/*
 * Probe "l1": the L1 data cache's capacity, associativity, line and hit
 * latency, measured twice, by Cooper-Xu's gap test and by X-Ray's compact
 * sets (core/probes/l1/l1.h).  The two must agree; where they do not, the result
 * notes and the probe message say so, and only the values both found are
 * recorded (never a guess between two answers).
 */
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/measure/timing.h"
#include "core/probes/l1/l1.h"
#include "core/probes/probes.h"

/*
 * Memory for the L1 tests: the gap strings reach Cooper-Xu's upper bound,
 * 4 MB; X-Ray's sets twice the capacity.
 */
#define L1_ARENA_BYTES (8ull << 20)
/* The all-hit baseline: 8 lines of 64 bytes, 512 bytes, inside any L1
 * (Cooper-Xu's lower bound for an L1 is 1 KB). */
#define L1_BASE_STRIDE 64u
#define L1_BASE_N 8u
/*
 * TLB twins before the L1 is known: elements 64 bytes apart in their pages,
 * at most L1_TWIN_MAX of them (docs/algorithms.md, "L1 data cache").
 */
#define L1_TWIN_LINE 64u
#define L1_TWIN_MAX 128u

static void run(struct mp_ctx *c, struct mp_compact_set *s)
{
	struct mp_l1_found x, g;
	const char *why;

	s->twin_line = L1_TWIN_LINE;
	s->twin_max = L1_TWIN_MAX;
	if (mp_l1_measure(c, s, "l1", &x, &g, &why) < 0)
		return mp_probe_fail(c, why);
	mp_l1_record(c, MP_KIND_DATA, &x, &g, s->base_min);
	if (!mp_l1_message(c->self->message, sizeof(c->self->message), "L1", &x, &g))
		mp_result_add_note(c->r, c->self->message);
	if (mp_l1_agreed(x.size, g.size) == MP_NA)
		mp_probe_fail(c, c->self->message);
}

void mp_probe_l1(struct mp_ctx *c)
{
	struct mp_compact_set s;
	struct mp_mem m;

	if (mp_probe_alloc_contig(c, L1_ARENA_BYTES, &m) != MP_OK)
		return;
	/*
	 * Start from empty caches where the platform can (docs/algorithms.md,
	 * "Timing discipline", stale lines).
	 */
	c->p->ops->flush_all(c->p);
	mp_compact_set_init(&s, c, &m, "l1", mp_ref_xray(L1_BASE_STRIDE, L1_BASE_N));
	run(c, &s);
	c->p->ops->mem_free(c->p, &m);
}
