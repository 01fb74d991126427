/* SPDX-License-Identifier: MIT */
/*
 * Rounds (core/rounds.c): a timing probe repeated, each discrete value it
 * finds voted on, the votes kept in the result's voted[].
 */
#ifndef MEMPROBE_CORE_ROUNDS_H
#define MEMPROBE_CORE_ROUNDS_H

#include "core/suite.h"

/*
 * Run `def` in rounds as cfg->rounds and cfg->profile say, into r, whose
 * probe record `self` the suite has added.  One round when the probe
 * determines no discrete value.
 */
void mp_rounds_run(struct mp_platform *p, const struct mp_config *cfg, struct mp_result *r,
		   const struct mp_probe_def *def, struct mp_probe *self);

#endif
