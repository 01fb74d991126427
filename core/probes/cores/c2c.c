/* SPDX-License-Identifier: MIT */
/*
 * Probe "c2c": the core-to-core latency of a cache line (docs/algorithms.md,
 * "Core to core").  Two logical CPUs take turns writing one 64-bit word
 * (the seam's pingpong): each turn moves the line from one CPU's cache to
 * the other's, so a round is two transfers and the latency of one is the
 * round's time over two.  The minimum over C2C_RUNS runs is kept
 * (interference only adds time).  Every pair of the CPUs of
 * mp_cpus_sample: all of them on a machine of up to C2C_SAMPLE usable
 * CPUs, else a sample covering every relation (SMT sibling, same cluster,
 * other cluster or die, other package).
 */
#include "core/lib/str.h"
#include "core/probes/cores/cores.h"
#include "core/probes/probes.h"

/* CPUs the matrix covers at most: C2C_SAMPLE (C2C_SAMPLE - 1) / 2 pairs fit MP_MAX_PAIRS. */
#define C2C_SAMPLE 16u
_Static_assert(C2C_SAMPLE * (C2C_SAMPLE - 1) / 2 <= MP_MAX_PAIRS, "every pair has a place");
/* Rounds of one run: a thousand round trips, long against the clock's resolution. */
#define C2C_ROUNDS 1000u
#define C2C_RUNS 3u
/* The line the CPUs pass back and forth: a page of its own, so nothing else shares it. */
#define C2C_LINE_BYTES 4096u

/* One-way latency between a and b in ticks, the minimum over the runs; NaN when it failed. */
static double one_way(struct mp_ctx *c, uint32_t a, uint32_t b, void *line)
{
	uint64_t best = UINT64_MAX;

	if (mp_cpu_select(c->p, a) != MP_OK)
		return mp_na_double();
	for (unsigned i = 0; i < C2C_RUNS; i++) {
		struct mp_sample s = { 0 };

		if (c->p->ops->pingpong(c->p, a, b, line, C2C_ROUNDS, &s) != MP_OK)
			return mp_na_double();
		best = s.ticks < best ? s.ticks : best;
	}
	return (double)best / C2C_ROUNDS / 2.0;
}

static void measure_pairs(struct mp_ctx *c, const uint32_t *cpus, uint32_t n, void *line)
{
	struct mp_c2c *m = &c->r->core_to_core;
	uint64_t total = (uint64_t)n * (n - 1) / 2;
	bool ns = c->p->tick_hz != 0;

	mp_strlcpy(m->unit, ns ? "ns" : "ticks", sizeof(m->unit));
	m->npairs = 0;
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = i + 1; j < n && m->npairs < MP_MAX_PAIRS; j++) {
			double t = one_way(c, cpus[i], cpus[j], line);
			struct mp_c2c_pair *pair = &m->pairs[m->npairs++];

			*pair = (struct mp_c2c_pair){ (int32_t)cpus[i], (int32_t)cpus[j],
						      ns ? mp_ticks_to_ns(c->p, t) : t };
			mp_progress(c->p, "core to core", (uint64_t)m->npairs, total);
		}
	mp_cpu_select(c->p, 0);
}

/* Why the latency cannot be measured on this run, or NULL. */
static const char *no_c2c(const struct mp_ctx *c, const struct mp_cpus *s)
{
	if (s->usable < 2)
		return s->n < 2 ? "core-to-core latency not measured: one logical CPU"
				: "core-to-core latency not measured: cores = boot";
	if (!c->p->ops->pingpong)
		return "core-to-core latency not measured: the platform has no ping-pong";
	return NULL;
}

void mp_probe_c2c(struct mp_ctx *c)
{
	static uint32_t cpus[C2C_SAMPLE];
	const struct mp_cpus *s = mp_cpus_read(c->p, c->cfg);
	const char *why = no_c2c(c, s);
	struct mp_mem m;
	uint32_t n;

	if (!mp_cores_timed(c))
		return;
	if (why) {
		if (s->n >= 2)            /* one CPU: the topology's note says so already */
			mp_result_add_note(c->r, why);
		mp_probe_unsupported(c, why);
		return;
	}
	if (mp_probe_alloc(c, C2C_LINE_BYTES, MP_PAGE_4K, &m) != MP_OK)
		return;
	n = mp_cpus_sample(s, c->r, cpus, C2C_SAMPLE);
	mp_logf(c->p, MP_LOG_INFO, "c2c: %u pairs among %u logical CPUs",
		(unsigned)(n * (n - 1) / 2), (unsigned)n);
	measure_pairs(c, cpus, n, m.base);
	c->p->ops->mem_free(c->p, &m);
}
