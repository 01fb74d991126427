/* SPDX-License-Identifier: MIT */
/*
 * Small replacement-policy simulations of one cache set: true LRU, tree
 * pseudo-LRU, FIFO, each optionally as an exclusive (victim) level.  The
 * policy probe compares what a hardware set did with what each of these
 * predicts for the same access sequence (the method of nanoBench's cache
 * analyzer, Abel and Reineke, "nanoBench", 2020, section 5).
 */
#ifndef MEMPROBE_CORE_PROBES_POLICY_SET_MODEL_H
#define MEMPROBE_CORE_PROBES_POLICY_SET_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/results/result.h"

/* Ways of the largest set simulated: Power3's 128-way L1 (X-Ray table 2). */
#define MP_SET_MODEL_MAX_WAYS 128u

struct mp_set_model {
	uint32_t ways;
	enum mp_replacement policy;   /* MP_REPL_LRU, MP_REPL_PLRU or MP_REPL_FIFO */
	bool exclusive;               /* a victim level: a hit moves the line out */
	uint64_t clock;
	uint32_t block[MP_SET_MODEL_MAX_WAYS];
	bool valid[MP_SET_MODEL_MAX_WAYS];
	uint64_t stamp[MP_SET_MODEL_MAX_WAYS];   /* LRU: last use; FIFO: fill time */
	uint8_t bit[MP_SET_MODEL_MAX_WAYS];      /* tree PLRU: node i's bit names the victim's half */
};

/* Can this policy be simulated for that many ways? */
bool mp_set_model_supports(enum mp_replacement policy, uint32_t ways);

/* An empty set. */
void mp_set_model_init(struct mp_set_model *s, uint32_t ways, enum mp_replacement policy, bool exclusive);

/*
 * One access to `block`; true on a hit.  An exclusive set sees a hit as
 * the line leaving (it moves to the level above) and, since the probe then
 * evicts it from the levels above, coming back as that level's victim: a
 * fill as on a miss, into the way it left.
 */
bool mp_set_model_access(struct mp_set_model *s, uint32_t block);

/* Does the set hold `block`? */
bool mp_set_model_holds(const struct mp_set_model *s, uint32_t block);

#endif
