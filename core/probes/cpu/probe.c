/* SPDX-License-Identifier: MIT */
/*
 * Probe "cpu" (X-Ray section 3) on generated arithmetic kernels: the clock
 * (3.1) from dependent integer additions, measured at the start, between
 * the widths and at the end; latency (3.2) on one chain; throughput (3.3)
 * from more and more chains until the time per operation stops falling by
 * more than CPU_GAIN (not measured where it still falls at the most chains
 * there are registers for); existence (3.4).  Times become cycles through
 * the clock measured last, else the platform's core clock.
 * docs/algorithms.md, "CPU".
 */
#include "core/lib/bits.h"
#include "core/lib/str.h"
#include "core/probes/cpu/cpu.h"
#include "core/probes/probes.h"

/* Memory for one kernel: its constants and code (at most a few hundred instructions). */
#define KERNEL_BYTES (64u << 10)
/* A clock within this much over the probe is steady. */
#define MP_CLOCK_STEADY 0.02
/* More chains help while the time per operation falls by more than this. */
#define CPU_GAIN 0.05

static const uint32_t widths[] = { MP_WIDTH_SCALAR, 128, 256, MP_WIDTH_MAX };
static const uint32_t chain_ladder[] = { 2, 4, 8, 12, 16 };

/* The core clock now: ticks per dependent addition, taken as one cycle. */
static void clock_sample(struct cpu_ctx *x)
{
	struct mp_cpu_timing *t = &x->c->r->cpu_timing;
	double ticks, hz;

	if (mp_cpu_per_op(x, MP_ARITH_INT_ADD, MP_WIDTH_SCALAR, 1, &ticks) != MP_OK ||
	    !(ticks > 0))
		return;
	x->cycle = ticks;
	hz = (double)x->c->p->tick_hz / ticks;
	t->core_hz_min = mp_is_na(t->core_hz_min) || hz < t->core_hz_min ? hz : t->core_hz_min;
	t->core_hz_max = mp_is_na(t->core_hz_max) || hz > t->core_hz_max ? hz : t->core_hz_max;
}

/*
 * Ticks per operation with `want` chains, or with the most the platform has
 * registers for above `floor` (a rung it cannot build steps down to that).
 */
static enum mp_status rung(struct cpu_ctx *x, enum mp_arith op, uint32_t width, uint32_t want,
			   uint32_t floor, double *t)
{
	enum mp_status st = MP_UNSUPPORTED;

	for (uint32_t c = want; c > floor && st == MP_UNSUPPORTED; c--)
		st = mp_cpu_per_op(x, op, width, c, t);
	return st;
}

/* Fewest ticks per operation over the chain ladder; NaN when it never stopped falling. */
static double best_interval(struct cpu_ctx *x, enum mp_arith op, uint32_t width, double latency)
{
	double best = latency, t;
	bool saturated = false;

	for (unsigned i = 0; i < MP_COUNT_OF(chain_ladder) && !saturated; i++) {
		enum mp_status st = rung(x, op, width, chain_ladder[i],
					 i ? chain_ladder[i - 1] : 1, &t);

		if (st == MP_UNSUPPORTED)
			break;
		if (st != MP_OK || mp_is_na(t))
			return mp_na_double();
		saturated = t > best * (1.0 - CPU_GAIN);
		best = t < best ? t : best;
	}
	return saturated ? best : mp_na_double();
}

/* Ticks as cycles of the clock measured last (X-Ray 3.2: F_CPU x l), else the platform's. */
static double cycles(const struct cpu_ctx *x, double ticks)
{
	return x->cycle > 0 ? ticks / x->cycle : mp_ticks_to_cycles(x->c->p, ticks);
}

static void record(struct cpu_ctx *x, enum mp_arith op, uint32_t width, double lat, double ii)
{
	struct mp_op_timing *o = mp_result_add_op(x->c->r);

	if (!o)
		return;
	mp_strlcpy(o->name, mp_arith_name(op), sizeof(o->name));
	o->width_bits = (int32_t)width;
	o->latency_cycles = cycles(x, lat);
	o->throughput = mp_is_na(ii) ? ii : 1.0 / cycles(x, ii);
}

/* One operation at one width; false when the platform cannot run it. */
static bool measure(struct cpu_ctx *x, enum mp_arith op, uint32_t width)
{
	double lat;
	enum mp_status st = mp_cpu_per_op(x, op, width, 1, &lat);

	if (st == MP_UNSUPPORTED)
		return false;
	if (st != MP_OK) {
		mp_probe_fail(x->c, "the platform could not run an arithmetic kernel");
		return false;
	}
	record(x, op, width, lat, mp_is_na(lat) ? lat : best_interval(x, op, width, lat));
	return true;
}

/*
 * A width's first kernel runs once untimed: wide units may power up only
 * when used (docs/algorithms.md, "CPU").
 */
static void warm_up(struct cpu_ctx *x, uint32_t width)
{
	double t;

	for (int op = 0; op < MP_ARITH_COUNT; op++)
		if (mp_cpu_per_op(x, (enum mp_arith)op, width, 1, &t) != MP_UNSUPPORTED)
			return;
}

static void measure_width(struct cpu_ctx *x, uint32_t width)
{
	struct mp_cpu_timing *t = &x->c->r->cpu_timing;

	warm_up(x, width);
	for (int op = 0; op < MP_ARITH_COUNT && x->c->self->status == MP_PROBE_OK; op++) {
		if (!measure(x, (enum mp_arith)op, width))
			continue;
		if (width > MP_WIDTH_SCALAR && (int32_t)width > t->vector_bits)
			t->vector_bits = (int32_t)width;
		if (op == MP_ARITH_FP_FMA)
			t->fma = MP_YES;
	}
}

/* Operations recorded without a latency: their pair of kernels gave no difference. */
static int32_t untimed(const struct mp_cpu_timing *t)
{
	int32_t n = 0;

	for (int32_t i = 0; i < t->nops; i++)
		n += mp_is_na(t->ops[i].latency_cycles);
	return n;
}

static void note_untimed(struct mp_ctx *c, int32_t n)
{
	char text[MP_NOTE_LEN];

	if (!n)
		return;
	mp_snprintf(text, sizeof(text), "cpu: %d operation(s) not measured: the longer kernel of "
		    "a pair ran no slower than the shorter (a disturbed platform, or an "
		    "emulator's clock)", (int)n);
	mp_result_add_note(c->r, text);
}

static void conclude(struct mp_ctx *c)
{
	struct mp_cpu_timing *t = &c->r->cpu_timing;
	int32_t n = untimed(t);

	if (t->vector_bits == MP_NA)
		t->vector_bits = 0;
	if (t->fma == MP_UNKNOWN)
		t->fma = MP_NO;
	if (!mp_is_na(t->core_hz_min))
		t->clock_steady = t->core_hz_max - t->core_hz_min <= MP_CLOCK_STEADY * t->core_hz_max
					  ? MP_YES : MP_NO;
	note_untimed(c, n);
	mp_snprintf(c->self->message, sizeof(c->self->message),
		    "%d operations timed; widest vector %d bits; FMA %s; clock %s",
		    (int)(t->nops - n),
		    (int)t->vector_bits, t->fma == MP_YES ? "yes" : "no",
		    t->clock_steady == MP_YES ? "steady" : t->clock_steady == MP_NO ? "moved"
										  : "not measured");
}

void mp_probe_cpu(struct mp_ctx *c)
{
	struct cpu_ctx x = { .c = c };
	struct mp_mem_req req = { .bytes = KERNEL_BYTES, .align = 4096, .exec = true };

	if (!c->p->ops->kernel_build)
		return mp_probe_unsupported(c, "the platform builds no arithmetic kernels");
	if (mp_probe_alloc_req(c, &req, &x.m) != MP_OK)
		return;
	clock_sample(&x);
	for (unsigned w = 0; w < MP_COUNT_OF(widths) && c->self->status == MP_PROBE_OK; w++) {
		mp_progress(c->p, "cpu", w, MP_COUNT_OF(widths));
		measure_width(&x, widths[w]);
		clock_sample(&x);
	}
	c->p->ops->mem_free(c->p, &x.m);
	if (c->self->status != MP_PROBE_OK)
		return;
	if (c->r->cpu_timing.nops == 0)
		return mp_probe_unsupported(c, "no arithmetic kernel runs here (a model without "
					       "op lines, or a processor the encoder lacks)");
	conclude(c);
}
