/* SPDX-License-Identifier: MIT */
/*
 * Neighbours on the L1s for the L1 probes' tests (test_probe_l1,
 * test_probe_icache): shapes of another thread on the core, and every
 * model opened as bare metal sees it with one of them.
 */
#ifndef MEMPROBE_TESTS_PROBES_L1_NEIGHBOUR_H
#define MEMPROBE_TESTS_PROBES_L1_NEIGHBOUR_H

#include "tests/probes/probe_cset_sim.h"

/*
 * A neighbour on the core that holds NB_WAYS lines of every L1 set while
 * it runs (`on` cycles of every on + off), and `extra` lines more in spans
 * of extra_on cycles some extra_off apart (docs/simulator.md).
 */
#define NB_WAYS 2u

struct l1_neighbour {
	const char *label;
	uint64_t on, off;
	uint32_t extra;
	uint64_t extra_on, extra_off;
};

/*
 * Half the time, in spans of PS_NB_CYCLES: as a busy SMT sibling on this
 * project's Zen 5 class guest, under which its 48K 12-way L1D read 40K
 * 10-way.  Where it leaves at least three quarters of the ways the L1 is
 * exact (the probe's tries over time); where it takes more, nothing wrong
 * is recorded.
 */
static const struct l1_neighbour half_time = { "L1 neighbour", PS_NB_CYCLES, PS_NB_CYCLES,
					      0, 0, 0 };

/*
 * Never leaving (its off spans are shorter than a chase pass), and a
 * quarter of the time, in spans shorter than a pass, holding one line
 * more: as this project's Zen 5 class guest's busy sibling (10 lines 4K
 * apart ran slow in 16 to 60% of 1000-pass windows, 11 in all).  The L1
 * cannot be measured then, since its last ways are never free: nothing
 * wrong is recorded.  Without the check of a sharp edge at the ways
 * (core/probes/l1/xray.c) X-Ray and the gap test agreed on what the
 * neighbour left: 24K 6-way for Zen 4's 32K 8-way.
 */
static const struct l1_neighbour flickering = { "L1 neighbour flickering", 1ull << 40, 1,
					       1, 1ull << 11, 3ull << 11 };

/* Every model as bare metal sees it, with the neighbour nb on its L1s. */
static inline int open_neighbour(struct ps_run *s, const char *path, const struct l1_neighbour *nb)
{
	if (!pc_open(s, path, PS_EXACT))
		return 0;
	mp_sim_close(s->p);
	s->full.neighbour.ways = NB_WAYS;
	s->full.neighbour.level = 1;
	s->full.neighbour.on = nb->on;
	s->full.neighbour.off = nb->off;
	s->full.neighbour.extra = nb->extra;
	s->full.neighbour.extra_on = nb->extra_on;
	s->full.neighbour.extra_off = nb->extra_off;
	mp_sim_model_type(&s->full, 0, &s->model);
	snprintf(s->name, sizeof(s->name), "%s (%s)", s->full.name, nb->label);
	return ps_platform(&s->full, s->name, &s->p, &s->r);
}

#endif
