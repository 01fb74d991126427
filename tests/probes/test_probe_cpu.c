/* SPDX-License-Identifier: MIT */
/*
 * The "cpu" probe against every simulated machine with instruction
 * timings (`op` lines): the clock exactly the model's and steady, every
 * operation the model has at every width with its exact latency and
 * throughput, none it lacks, the widest vector and FMA as the model gives
 * them.  A model whose operation needs more chains than there are
 * registers must leave that throughput unmeasured; one without op lines
 * makes the probe unsupported.
 */
#include "tests/probes/notes.h"
#include "tests/probes/probe_sim.h"

/* The simulator counts whole cycles: a kernel of 2048 iterations rounds by under 1e-4. */
#define EXACT 1e-4

static const uint32_t widths[MP_SIM_WIDTHS] = { 64, 128, 256, 512 };

static const struct mp_op_timing *found(const struct mp_result *r, int op, uint32_t width)
{
	for (int32_t i = 0; i < r->cpu_timing.nops; i++)
		if (!strcmp(r->cpu_timing.ops[i].name, mp_arith_name((enum mp_arith)op)) &&
		    r->cpu_timing.ops[i].width_bits == (int32_t)width)
			return &r->cpu_timing.ops[i];
	return NULL;
}

static int has_ops(const struct mp_sim_model *m)
{
	for (int op = 0; op < MP_ARITH_COUNT; op++)
		for (int w = 0; w < MP_SIM_WIDTHS; w++)
			if (m->ops[op][w].set)
				return 1;
	return 0;
}

static void check_op(const struct ps_run *s, int op, int w)
{
	const struct mp_sim_op *want = &s->model.ops[op][w];
	const struct mp_op_timing *got = found(&s->r, op, widths[w]);
	const char *name = mp_arith_name((enum mp_arith)op);

	if (!want->set) {
		CHECK(!got, "%s: no %s at %u bits recorded", s->name, name, widths[w]);
		return;
	}
	CHECK(got && ps_within(got->latency_cycles, want->latency, EXACT) &&
	      ps_within(got->throughput, want->throughput, EXACT),
	      "%s: %s at %u bits: latency %.3f throughput %.4f, model %u and %.4f", s->name, name,
	      widths[w], got ? got->latency_cycles : -1.0, got ? got->throughput : -1.0,
	      want->latency, want->throughput);
}

static void check_all(const struct ps_run *s)
{
	const struct mp_cpu_timing *t = &s->r.cpu_timing;
	int32_t widest = 0;

	for (int op = 0; op < MP_ARITH_COUNT; op++)
		for (int w = 0; w < MP_SIM_WIDTHS; w++) {
			check_op(s, op, w);
			if (w && s->model.ops[op][w].set && (int32_t)widths[w] > widest)
				widest = (int32_t)widths[w];
		}
	CHECK(t->core_hz_min == (double)s->model.clock_hz && t->clock_steady == MP_YES,
	      "%s: clock %.0f Hz steady, model %llu", s->name, t->core_hz_min,
	      (unsigned long long)s->model.clock_hz);
	CHECK_EQ_INT(t->vector_bits, widest, s->name);
	CHECK(t->fma == (s->model.ops[MP_ARITH_FP_FMA][0].set ? MP_YES : MP_NO), "%s: FMA",
	      s->name);
}

static void one(const char *path, int rough)
{
	struct ps_run s;
	struct mp_probe *self;

	if (!ps_open(&s, path, rough))
		return;
	if (!has_ops(&s.model)) {
		self = mp_result_add_probe(&s.r, "cpu");
		self->status = MP_PROBE_OK;
		mp_probe_cpu(&(struct mp_ctx){ .p = s.p, .cfg = &s.cfg, .r = &s.r, .self = self });
		CHECK(self->status == MP_PROBE_UNSUPPORTED, "%s: no op lines: cpu unsupported (%s)",
		      s.name, self->message);
	} else {
		ps_probe(&s, "cpu", mp_probe_cpu);
		check_all(&s);
	}
	ps_close(&s);
}

/* An operation that needs 32 chains (latency 8, 4 per cycle): its throughput only bounded. */
static void test_too_few_registers(void)
{
	static const char *text = "clock freq=1G\ncache L1D size=32K line=64 ways=8 latency=4\n"
				  "memory latency=100\nop int-add latency=1 throughput=1\n"
				  "op fp-add latency=8 throughput=4\n";
	static struct ps_run s;
	const struct mp_op_timing *o;

	if (!ps_open_text(&s, "inline", text, PS_EXACT))
		return;
	ps_probe(&s, "cpu", mp_probe_cpu);
	o = found(&s.r, MP_ARITH_FP_ADD, 64);
	CHECK(o && ps_within(o->latency_cycles, 8, EXACT) && mp_is_na(o->throughput),
	      "a throughput the chains cannot reach is not measured (%.3f)",
	      o ? o->throughput : -1.0);
	ps_close(&s);
}

/* The run of the platform under test, for flat_run to wrap. */
static const struct mp_platform_ops *real_ops;

/* Every kernel as long as any other: an emulator's coarse clock, or a disturbed platform. */
static enum mp_status flat_run(struct mp_platform *p, const struct mp_run *r,
			       struct mp_sample *out)
{
	enum mp_status st = real_ops->run(p, r, out);

	if (st == MP_OK && r->op == MP_OP_KERNEL)
		out->ticks = 100000;
	return st;
}

/*
 * Kernels whose time does not grow with their length give no difference:
 * every operation not measured (none at zero or below, the QEMU boot's
 * -101.7-cycle FMA), the clock not measured, the probe still ok, a note.
 */
static void test_flat_kernels(void)
{
	static const char *text = "clock freq=1G\ncache L1D size=32K line=64 ways=8 latency=4\n"
				  "memory latency=100\nop int-add latency=1 throughput=1\n"
				  "op fp-fma latency=4 throughput=2\n";
	static struct mp_platform_ops flat;
	static struct ps_run s;
	int bad = 0;

	if (!ps_open_text(&s, "flat kernels", text, PS_EXACT))
		return;
	real_ops = s.p->ops;
	flat = *real_ops;
	flat.run = flat_run;
	s.p->ops = &flat;
	ps_probe(&s, "cpu", mp_probe_cpu);
	for (int32_t i = 0; i < s.r.cpu_timing.nops; i++)
		bad += !mp_is_na(s.r.cpu_timing.ops[i].latency_cycles) ||
		       !mp_is_na(s.r.cpu_timing.ops[i].throughput);
	CHECK(s.r.cpu_timing.nops > 0 && !bad, "flat kernels: %d of %d operations measured",
	      bad, (int)s.r.cpu_timing.nops);
	CHECK(mp_is_na(s.r.cpu_timing.core_hz_min), "flat kernels: no clock (%.0f Hz)",
	      s.r.cpu_timing.core_hz_min);
	CHECK(ps_note(&s.r, "not measured: the longer kernel"), "flat kernels: a note says why");
	s.p->ops = real_ops;
	ps_close(&s);
}

int main(void)
{
	test_too_few_registers();
	test_flat_kernels();
	return ps_each_model(NULL, one, PS_ONLY(PS_EXACT));
}
