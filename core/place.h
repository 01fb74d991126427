/* SPDX-License-Identifier: MIT */
/*
 * Where the suite runs: on a platform that can move it (the seam's
 * cpu_home), the quietest CPU of the boot CPU's core type.  docs/
 * algorithms.md, "The quietest CPU".
 */
#ifndef MEMPROBE_CORE_PLACE_H
#define MEMPROBE_CORE_PLACE_H

#include "core/config.h"
#include "core/platform.h"
#include "core/results/result.h"

/*
 * With start_cpu = quietest: time the documented L1D's ways on each
 * candidate CPU, make the quietest the platform's CPU 0 and say so in a
 * note.  Nothing where the platform cannot move, has one CPU or no
 * documented L1D.
 */
void mp_place(struct mp_platform *p, const struct mp_config *cfg, struct mp_result *r);

#endif
