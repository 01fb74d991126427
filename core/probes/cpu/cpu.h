/* SPDX-License-Identifier: MIT */
/*
 * Probe "cpu" (X-Ray section 3): the core clock, and the latency and
 * throughput of arithmetic at every operand width the processor has, from
 * generated kernels (the seam's kernel_build).  core/probes/cpu/probe.c
 * runs it; kernel.c times one kernel.
 */
#ifndef MEMPROBE_CORE_PROBES_CPU_CPU_H
#define MEMPROBE_CORE_PROBES_CPU_CPU_H

#include "core/probe.h"

struct cpu_ctx {
	struct mp_ctx *c;
	struct mp_mem m;           /* executable memory the kernels are written into */
	double cycle;              /* ticks of a dependent addition, the last time: a cycle */
};

/*
 * Ticks per operation of a kernel of `chains` chains at width, op: the
 * difference of two kernels, 2N and N operations per iteration, over N
 * (nanoBench's differential measurement), each the minimum of repeated
 * runs.  NaN when the longer kernel ran no slower than the shorter (a
 * disturbed platform, an emulator's coarse clock): no difference to take.
 * MP_UNSUPPORTED when the platform has no such kernel.
 */
enum mp_status mp_cpu_per_op(struct cpu_ctx *x, enum mp_arith op, uint32_t width,
			     uint32_t chains, double *ticks);

#endif
