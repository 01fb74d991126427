/* SPDX-License-Identifier: MIT */
/*
 * Where the suite runs (docs/algorithms.md, "The quietest CPU").  A thread
 * of another program on the same core (an SMT sibling on a shared host)
 * takes ways of the L1 now and then, and then the probes measure less, or
 * nothing.  Where the platform can make another CPU its CPU 0, the
 * documented L1D's ways, a way apart, are timed pass by pass on each
 * candidate (CPUs of CPU 0's core type, one a core), and the suite moves
 * to the one where they ran slow in the fewest passes.  The documented
 * values choose where to measure, never what is recorded.
 */
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/measure/compact_set.h"
#include "core/place.h"
#include "core/probe.h"

/* CPUs timed at most: on a large machine, the first cores of the boot CPU's type. */
#define PLACE_CANDIDATES 8u
/* Passes of the set (and of the baseline) on each candidate. */
#define PLACE_PASSES 500u
/* A CPU is chosen over CPU 0 only where its set ran slow in this share of passes fewer. */
#define PLACE_MARGIN 0.05
/* The all-hit baseline, as the l1 probe's: 8 lines of 64 bytes. */
#define PLACE_BASE_STRIDE 64u
#define PLACE_BASE_N 8u

struct candidate {
	uint32_t cpu;
	struct mp_cpu_info info;
	double slow;             /* share of the set's passes slow beyond the baseline's */
};

/* Is CPU i of CPU 0's type and not on a core already taken? */
static bool new_core(const struct candidate *c, uint32_t n, const struct mp_cpu_info *i)
{
	if (mp_strncmp(i->type, c[0].info.type, MP_CPU_TYPE_LEN) != 0)
		return false;
	for (uint32_t k = 0; k < n; k++)
		if (c[k].info.package == i->package && c[k].info.core == i->core)
			return false;
	return true;
}

/* The candidates, CPU 0 first; how many. */
static uint32_t candidates(struct mp_platform *p, struct candidate *c)
{
	uint32_t n = 0, cpus = mp_cpu_count(p);

	for (uint32_t cpu = 0; cpu < cpus && n < PLACE_CANDIDATES; cpu++) {
		struct mp_cpu_info i;

		if (p->ops->cpu_info(p, cpu, &i) != MP_OK)
			continue;
		if (n == 0 ? cpu == 0 : new_core(c, n, &i))
			c[n++] = (struct candidate){ cpu, i, 1.0 };
	}
	return n;
}

/* The share of passes of `ways` lines `way` apart slow beyond the baseline's, on the selected CPU. */
static double slow_share(struct mp_compact_set *s, uint64_t way, uint64_t ways)
{
	struct mp_ref_stride x = mp_ref_xray(way, ways);
	struct mp_steadiness m;

	if (mp_compact_set_steadiness(s, &x, PLACE_PASSES, &m) != MP_OK)
		return 1.0;
	return mp_steadiness_excess(&m);
}

/* Time every candidate; the index of the quietest (0 unless clearly quieter). */
static uint32_t quietest(struct mp_compact_set *s, struct candidate *c, uint32_t n,
			 const struct mp_cache *l1)
{
	uint64_t way = (uint64_t)(l1->size_bytes / l1->ways);
	uint32_t best = 0;

	for (uint32_t k = 0; k < n; k++) {
		if (mp_cpu_select(s->c->p, c[k].cpu) != MP_OK)
			continue;
		c[k].slow = slow_share(s, way, (uint64_t)l1->ways);
		mp_logf(s->c->p, MP_LOG_INFO, "start_cpu: APIC ID %u: the L1D's %lld ways ran slow "
			"in %.0f%% of passes", (unsigned)c[k].info.apic_id, (long long)l1->ways,
			100.0 * c[k].slow);
		if (c[k].slow + PLACE_MARGIN < c[best].slow)
			best = k;
	}
	return best;
}

static void say_moved(struct mp_result *r, const struct candidate *c, uint32_t best,
		      const struct mp_cache *l1)
{
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "start_cpu: the suite runs on the CPU of APIC ID %u, not the one it "
		      "started on (APIC ID %u): the documented L1D's %lld ways a way apart ran "
		      "slow in %.0f%% of passes on it, in %.0f%% on the first (another thread "
		      "on that core)", (unsigned)c[best].info.apic_id, (unsigned)c[0].info.apic_id,
		      (long long)l1->ways, 100.0 * c[best].slow, 100.0 * c[0].slow);
	mp_result_add_note(r, text);
}

/* Can the suite move, and is there an L1D to time? */
static const struct mp_cache *placeable(struct mp_platform *p, const struct mp_config *cfg,
					const struct mp_result *r)
{
	const struct mp_cache *l1 = mp_result_documented_side(r, 1, MP_KIND_DATA);

	if (cfg->start_cpu != MP_START_QUIETEST || !p->ops->cpu_home || !p->ops->cpu_info ||
	    mp_cpu_count(p) < 2 || !l1)
		return NULL;
	if (l1->ways < 2 || l1->size_bytes <= 0 || l1->size_bytes % l1->ways ||
	    l1->ways > MP_COMPACT_SET_MAX_ELEMS)
		return NULL;
	return l1;
}

void mp_place(struct mp_platform *p, const struct mp_config *cfg, struct mp_result *r)
{
	static struct candidate c[PLACE_CANDIDATES];
	const struct mp_cache *l1 = placeable(p, cfg, r);
	struct mp_ctx ctx = { .p = p, .cfg = cfg, .r = r };
	struct mp_mem_req req = { .align = 4096, .page = MP_PAGE_4K };
	struct mp_compact_set s;
	struct mp_mem m;
	uint32_t n, best;

	if (!l1 || (n = candidates(p, c)) < 2)
		return;
	req.bytes = 2 * (uint64_t)l1->size_bytes + (64u << 10);
	if (p->ops->mem_alloc(p, &req, &m) != MP_OK)
		return;
	mp_compact_set_init(&s, &ctx, &m, "start_cpu",
			    mp_ref_xray(PLACE_BASE_STRIDE, PLACE_BASE_N));
	best = quietest(&s, c, n, l1);
	p->ops->mem_free(p, &m);
	if (best == 0 || p->ops->cpu_home(p, c[best].cpu) != MP_OK) {
		mp_cpu_select(p, 0);
		return;
	}
	say_moved(r, c, best, l1);
}
