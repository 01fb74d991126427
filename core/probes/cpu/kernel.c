/* SPDX-License-Identifier: MIT */
#include "core/measure/timing.h"
#include "core/probes/cpu/cpu.h"

/* Operations per chain in the shorter kernel of a pair (the longer has twice as many). */
#define DEPTH 8u
/*
 * Iterations of a run: under a millisecond at the slowest operation, some
 * thousand cycles at the fastest (docs/algorithms.md, "CPU").
 */
#define STEPS 2048u
/*
 * Runs without a new minimum before a kernel's time stands (Cooper-Xu's
 * 25), or MP_IDENTICAL_RUNS identical ones.
 */
#define STABLE 25u

struct kernel_job {
	struct mp_run r;
};

static enum mp_status one_run(struct mp_ctx *c, void *arg, double *t)
{
	struct kernel_job *j = arg;
	struct mp_sample s;
	enum mp_status st = mp_run_masked(c, &j->r, &s);

	*t = (double)s.ticks;
	return st;
}

/* The least ticks of STEPS iterations of kernel k. */
static enum mp_status time_kernel(struct cpu_ctx *x, const struct mp_kernel *k, double *ticks)
{
	struct mp_platform *p = x->c->p;
	struct kernel_job j = { { .op = MP_OP_KERNEL, .steps = STEPS, .region = "cpu" } };
	struct mp_min_rule rule = { .stable = STABLE, .identical = MP_IDENTICAL_RUNS };
	enum mp_status st = p->ops->kernel_build(p, &x->m, k, &j.r.start);

	if (st != MP_OK)
		return st;
	return mp_min_of(x->c, one_run, &j, rule, ticks);
}

enum mp_status mp_cpu_per_op(struct cpu_ctx *x, enum mp_arith op, uint32_t width,
			     uint32_t chains, double *ticks)
{
	struct mp_kernel k = { op, width, chains, chains * DEPTH };
	double once, twice;
	enum mp_status st = time_kernel(x, &k, &once);

	if (st != MP_OK)
		return st;
	k.ops *= 2;
	st = time_kernel(x, &k, &twice);
	if (st != MP_OK)
		return st;
	*ticks = twice > once ? (twice - once) / ((double)STEPS * chains * DEPTH)
			      : mp_na_double();
	return MP_OK;
}
