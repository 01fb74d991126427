/* SPDX-License-Identifier: MIT */
/*
 * The timing discipline every timing probe uses: a chase timed in bounded
 * windows, continuing where the last window stopped; the minimum over runs;
 * sweeps over a response curve.  docs/algorithms.md, "Timing discipline".
 */
#ifndef MEMPROBE_CORE_MEASURE_TIMING_H
#define MEMPROBE_CORE_MEASURE_TIMING_H

#include "core/measure/link.h"
#include "core/probe.h"

/* Runs without a new minimum before the minimum is accepted, full and quick profile. */
#define MP_STABLE_RUNS_FULL 25u
#define MP_STABLE_RUNS_QUICK 6u
/* A measurement gives up improving after this many runs, stable or not. */
#define MP_MAX_RUNS 400u
/* Loads per timed window, at most. */
#define MP_WINDOW_STEPS 16384u

/*
 * A cycle timed by the disciplines below: a pointer chase (loads), or a
 * chain of code blocks (fetches, op MP_OP_CODE: core/measure/link.h), which
 * continues from where a window stopped just as a chase does.
 */
struct mp_chase {
	void *cursor;          /* where the next window starts */
	uint64_t length;       /* elements in the cycle */
	const char *region;    /* name for the simulator's causes of misses */
	enum mp_op op;         /* MP_OP_CHASE (0) or MP_OP_CODE */
};

/* The chase of a string a linker built from `start`. */
static inline struct mp_chase mp_chase_linked(const struct mp_linker *k, void *start,
					      uint64_t length, const char *region)
{
	return (struct mp_chase){ start, length, region, k->op };
}

/* Walk the whole cycle once, untimed, so that the timed runs see steady state. */
enum mp_status mp_chase_warm(struct mp_ctx *c, struct mp_chase *ch);

/* Minimum ticks per access over repeated windows. */
enum mp_status mp_chase_min(struct mp_ctx *c, struct mp_chase *ch, double *ticks_per_access);

/* One window of `steps` loads of the chase, timed; the cursor moves on. */
enum mp_status mp_chase_window(struct mp_ctx *c, struct mp_chase *ch, uint64_t steps,
			       uint64_t *ticks);

/*
 * One pass: the time of the whole cycle, as ticks per access.  A cycle
 * shorter than MP_SHORT_WINDOW_STEPS is timed as whole cycles of at least
 * that many loads, a longer one exactly once, in windows of at most that
 * many (a window over part of a cycle is no fair sample of it).
 */
enum mp_status mp_chase_pass(struct mp_ctx *c, struct mp_chase *ch, double *ticks);

/*
 * When mp_chase_min_pass has its minimum, and how it times a pass: it
 * stops after `stable` passes in a row without a new minimum (MP_MAX_RUNS
 * passes at most) or, when `identical` is not 0, as soon as that many
 * passes in a row took exactly as long.  A pass is mp_chase_pass's with
 * `least` in place of MP_SHORT_WINDOW_STEPS: a cycle shorter than that is
 * timed as whole cycles of at least `least` loads in one window, a longer
 * one once, in windows of at most `window` loads.
 */
struct mp_min_rule {
	unsigned stable;
	unsigned identical;
	uint64_t least;
	uint64_t window;
};

/* `n` stable passes, in mp_chase_pass's windows. */
#define MP_MIN_PASSES(n) \
	((struct mp_min_rule){ .stable = (n), .least = MP_SHORT_WINDOW_STEPS, \
			       .window = MP_SHORT_WINDOW_STEPS })
/*
 * A short chain (a compact set, at most MP_WINDOW_STEPS loads): `n` stable
 * passes of one window each, or MP_IDENTICAL_RUNS identical ones.
 */
#define MP_MIN_WHOLE(n) \
	((struct mp_min_rule){ .stable = (n), .identical = MP_IDENTICAL_RUNS, \
			       .least = MP_SHORT_WINDOW_STEPS, .window = MP_WINDOW_STEPS })
/*
 * Passes of whole cycles of at least MP_WINDOW_STEPS loads, in windows of
 * that many: the timing code's own accesses between windows are spread over
 * more loads (docs/algorithms.md, "TLBs", entries).
 */
#define MP_MIN_LONG(n) \
	((struct mp_min_rule){ .stable = (n), .identical = MP_IDENTICAL_RUNS, \
			       .least = MP_WINDOW_STEPS, .window = MP_WINDOW_STEPS })

/* The minimum ticks per access over passes, by the rule; *ticks is set only on MP_OK. */
enum mp_status mp_chase_min_pass(struct mp_ctx *c, struct mp_chase *ch, struct mp_min_rule rule,
				 double *ticks);

/*
 * The same discipline for any timed measurement: fn(c, arg, &t) repeated
 * until the rule's `stable` runs bring no new minimum (MP_MAX_RUNS at most)
 * or `identical` runs in a row take exactly as long; the minimum in *ticks
 * (only on MP_OK).  An arithmetic kernel's run is timed this way.
 */
typedef enum mp_status (*mp_timed_fn)(struct mp_ctx *c, void *arg, double *t);
enum mp_status mp_min_of(struct mp_ctx *c, mp_timed_fn fn, void *arg, struct mp_min_rule rule,
			 double *ticks);

/* One run of the seam, interrupts masked around it where the platform can. */
enum mp_status mp_run_masked(struct mp_ctx *c, const struct mp_run *r, struct mp_sample *s);

/* Runs without a new minimum before a measurement is accepted, for the profile. */
unsigned mp_stable_runs(const struct mp_config *cfg);

/*
 * The sweep discipline for a response curve (Cooper-Xu 3.3;
 * docs/algorithms.md, "Timing discipline", sweeps): repeated sweeps, one
 * visit per point per sweep.  A point is done when its minimum has not
 * changed for mp_stable_runs() of its runs; after every sweep a point that
 * agrees with its neighbours, or a last point that continues the line of
 * the two before it, is knocked out, and revived when a neighbour finds a
 * new minimum.  Two minima are the same when they differ by less than
 * MP_SAME_CYCLES core cycles or MP_SAME_REL of their size, whichever is
 * larger.
 */
#define MP_SAME_CYCLES 0.5
#define MP_SAME_REL 0.01
/*
 * How closely a knocked-out point agrees with its neighbours (below the
 * smallest step the analysis accepts).
 */
#define MP_KNOCKOUT_REL 0.03
/* Sweeps before giving up on points that never settle (bounds the time). */
#define MP_MAX_SWEEPS 200u
#define MP_SWEEP_MAX 160u

enum mp_point_state { MP_POINT_ACTIVE = 0, MP_POINT_STABLE, MP_POINT_OUT };

struct mp_sweep {
	uint32_t n;
	uint64_t x[MP_SWEEP_MAX];        /* the sample sizes, ascending */
	double best[MP_SWEEP_MAX];       /* minimum ticks per access so far */
	uint32_t since[MP_SWEEP_MAX];    /* runs since the minimum last changed */
	uint32_t runs[MP_SWEEP_MAX];
	uint32_t need[MP_SWEEP_MAX];     /* runs without a new minimum that settle it */
	uint8_t state[MP_SWEEP_MAX];     /* enum mp_point_state */
	uint32_t sweeps;
	uint64_t deadline;               /* mp_now() value to stop at; 0: none */
	double ceiling;                  /* see mp_sweep_reach(); 0: none */
	bool timed_out;
};

/*
 * A visit of point i (s->x[i]) in a sweep: one or more runs (at most
 * MP_VISIT_RUNS), ticks per access of each in ticks[], their number in *n.
 * A point whose every run needs an expensive set-up (building and warming a
 * long string) may time several windows per set-up.
 */
#define MP_VISIT_RUNS 4u
typedef enum mp_status (*mp_sample_fn)(struct mp_ctx *c, void *arg, const struct mp_sweep *s,
				       uint32_t i, double *ticks, uint32_t *n);

/*
 * The runs of a visit to a freshly built chase: walk it once to warm it
 * (unless `warm` is false), then passes, as many as fit in MP_WINDOW_STEPS
 * loads and at least one, at most MP_VISIT_RUNS - *n; appends to ticks[]
 * and *n.
 */
enum mp_status mp_chase_visit(struct mp_ctx *c, struct mp_chase *ch, bool warm, double *ticks,
			      uint32_t *n);

/* A sweep over x[0 .. n); every point needs mp_stable_runs() runs (callers may lower it). */
void mp_sweep_init(struct mp_sweep *s, const struct mp_config *cfg, const uint64_t *x,
		   uint32_t n);

/*
 * Runs without a new minimum for a run of `loads` loads: mp_stable_runs(),
 * scaled down for a run longer than MP_WINDOW_STEPS (which already averages
 * over loads / MP_WINDOW_STEPS windows), to no fewer than MP_STABLE_RUNS_LONG.
 */
#define MP_STABLE_RUNS_LONG 2u
uint32_t mp_stable_for(const struct mp_config *cfg, uint64_t loads);
/*
 * The points a sweep visits: those up to and including the first whose
 * minimum reaches s->ceiling (the time no point can exceed, memory latency),
 * within MP_KNOCKOUT_REL; all n without a ceiling or before one is reached.
 * Past that point the curve can only stay at the ceiling, and its largest
 * footprints are the dearest to visit.  A minimum only falls, so the range
 * only grows: the points past it have never been visited.
 */
uint32_t mp_sweep_reach(const struct mp_platform *p, const struct mp_sweep *s);
/* A point whose MP_CEILING_RUNS runs all reach the ceiling is settled: nothing lower is sought. */
#define MP_CEILING_RUNS 2u
/* Sweep until every point in reach is stable or knocked out; `what` names the progress. */
enum mp_status mp_sweep_run(struct mp_ctx *c, struct mp_sweep *s, mp_sample_fn fn, void *arg,
			    const char *what);
/* Are two minimum times (ticks) the same by the rule above? */
bool mp_same_time(const struct mp_platform *p, double a, double b, double rel);

/*
 * Least loads per window when a short chain (a compact set, a gap string) is
 * timed, as whole cycles; such windows cost microseconds, so the caller says
 * how many runs without a new minimum it waits for.
 */
#define MP_SHORT_WINDOW_STEPS 1024u

/*
 * Passes in a row of exactly the same time after which a short chain's
 * minimum is taken (mp_min_rule.identical): only an undisturbed platform
 * repeats a pass to the tick.
 */
#define MP_IDENTICAL_RUNS 8u

#endif
