/* SPDX-License-Identifier: MIT */
/*
 * The policy probe's shared parts: write allocation (core/probes/policy/probe.c,
 * AMP 3.4) and replacement (core/probes/policy/replacement.c, AMP 3.5 and nanoBench).
 */
#ifndef MEMPROBE_CORE_PROBES_POLICY_POLICY_H
#define MEMPROBE_CORE_PROBES_POLICY_POLICY_H

#include "core/lib/rng.h"
#include "core/probe.h"

/*
 * A line's state after an experiment, from the time of a probe: hit
 * fraction f = 1 - (t - t_hit) / (t_miss - t_hit) over the sets probed.
 * Below MP_POLICY_HALF the line is taken as gone (evicted, not allocated).
 */
#define MP_POLICY_HALF 0.5

/* One cache level as the policy probe needs it. */
struct pol_level {
	int32_t level;
	uint64_t line;
	uint64_t ways;
	uint64_t way_bytes;      /* size / ways: the stride that stays in one set */
	uint64_t size;
	double hit;              /* ticks per load of a hit here */
	double next;             /* ticks per load of a hit in the level below (or memory) */
	bool exclusive;
	struct mp_cache *rec;
};

struct pol_ctx {
	struct mp_ctx *c;
	struct mp_mem *m;
	struct mp_rng g;
	uint64_t tag;            /* experiments run, for a fresh shuffle each */
};

/*
 * Write allocation from the time t of the reads after the stores: where it
 * lies between the level's hit time (0) and the next level's (1), in ratio.
 * MP_YES in the first MP_WRITE_BLEND of the way, MP_NO in the last, else
 * MP_UNKNOWN: the reads found the lines in both levels (docs/algorithms.md,
 * "Write allocation").
 */
#define MP_WRITE_BLEND (1.0 / 3.0)
enum mp_tristate mp_policy_allocation(double t, double hit, double next);

/* Flush the lines of [at, at + bytes) from every cache; MP_UNSUPPORTED if the platform cannot. */
enum mp_status mp_policy_flush(struct pol_ctx *p, uint8_t *at, uint64_t bytes, uint64_t line);

/*
 * The most a string can hold without missing at lv[i]: the level, and
 * where it is exclusive the levels above whose lines it lacks (the level
 * above, and on while that one is exclusive too).
 */
uint64_t mp_policy_holds(const struct pol_level *lv, int32_t i);

/*
 * The replacement policy of lv[i] (levels 0 .. i-1 are the ones above it);
 * MP_REPL_UNKNOWN with *why set when the tests disagree (else *why NULL).
 */
enum mp_replacement mp_policy_replacement(struct pol_ctx *p, const struct pol_level *lv,
					  int32_t i, const char **why);

#endif
