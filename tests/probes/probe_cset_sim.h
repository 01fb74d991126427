/* SPDX-License-Identifier: MIT */
/*
 * Shared by test_probe_l1.c and test_probe_compact.c: a model as the
 * compact-set probes see bare metal (frames contiguous: the identity map
 * of the UEFI platform; the physically indexed levels need it), or its
 * rough copy (tests/probes/probe_sim.h: noise, scattered frames).
 */
#ifndef MEMPROBE_TESTS_PROBES_PROBE_CSET_SIM_H
#define MEMPROBE_TESTS_PROBES_PROBE_CSET_SIM_H

#include "tests/probes/probe_sim.h"

/* Arena for the runs: the inclusion tests of the largest levels (Ice
 * Lake's 60 MB L3, Power3's 128-way L1 above an 8 MB L2) need more than
 * the default 256 MB gives them. */
#define PC_ARENA (2ull << 30)

static inline int pc_open(struct ps_run *s, const char *path, int rough)
{
	if (!ps_open(s, path, rough))
		return 0;
	s->cfg.arena_bytes = PC_ARENA;
	if (rough || s->model.frames.mode == MP_SIM_FRAMES_CONTIGUOUS)
		return 1;
	mp_sim_close(s->p);
	s->full.frames.mode = MP_SIM_FRAMES_CONTIGUOUS;
	mp_sim_model_type(&s->full, 0, &s->model);
	return ps_platform(&s->full, s->name, &s->p, &s->r);
}


#endif
