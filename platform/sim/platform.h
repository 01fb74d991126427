/* SPDX-License-Identifier: MIT */
/*
 * The platform "sim": the seam over a simulated machine (sim/), whose
 * every parameter is known: the ground truth of the probe tests.
 */
#ifndef MEMPROBE_PLATFORM_SIM_PLATFORM_H
#define MEMPROBE_PLATFORM_SIM_PLATFORM_H

#include "core/platform.h"
#include "sim/sim.h"

#define MP_SIM_PLATFORM "sim"

/* A fresh simulated machine of model m; NULL when out of memory. */
struct mp_platform *mp_sim_open(const struct mp_sim_model *m, const struct mp_output *out);
void mp_sim_close(struct mp_platform *p);

/* The simulator behind the platform, for the command (--explain) and the tests. */
struct mp_sim *mp_sim_of(struct mp_platform *p);

#endif
