/* SPDX-License-Identifier: MIT */
#include "core/measure.h"

static unsigned stable_runs(const struct mp_config *cfg)
{
	return cfg->profile == MP_PROFILE_FULL ? MP_STABLE_RUNS_FULL : MP_STABLE_RUNS_QUICK;
}

/* One window of the chase, interrupts masked where the platform can. */
static enum mp_status window(struct mp_ctx *c, struct mp_chase *ch, uint64_t steps,
			     uint64_t *ticks)
{
	struct mp_run r = {
		.op = MP_OP_CHASE, .start = ch->cursor, .steps = steps, .region = ch->region,
	};
	struct mp_sample s = { 0 };
	enum mp_status masked = c->p->ops->irq_mask(c->p);
	enum mp_status st = mp_run(c->p, &r, &s);

	if (masked == MP_OK)
		c->p->ops->irq_unmask(c->p);
	if (st != MP_OK)
		return st;
	ch->cursor = s.end;
	*ticks = s.ticks;
	return MP_OK;
}

static uint64_t window_steps(const struct mp_chase *ch)
{
	return ch->length < MP_WINDOW_STEPS ? MP_WINDOW_STEPS - MP_WINDOW_STEPS % ch->length
					    : MP_WINDOW_STEPS;
}

enum mp_status mp_chase_warm(struct mp_ctx *c, struct mp_chase *ch)
{
	uint64_t left = ch->length, ticks;

	while (left) {
		uint64_t n = left < MP_WINDOW_STEPS ? left : MP_WINDOW_STEPS;
		enum mp_status st = window(c, ch, n, &ticks);

		if (st != MP_OK)
			return st;
		left -= n;
	}
	return MP_OK;
}

enum mp_status mp_chase_min(struct mp_ctx *c, struct mp_chase *ch, double *ticks_per_access)
{
	uint64_t steps = window_steps(ch), best = UINT64_MAX, ticks;
	unsigned since_best = 0, need = stable_runs(c->cfg);

	for (unsigned run = 0; run < MP_MAX_RUNS && since_best < need; run++) {
		enum mp_status st = window(c, ch, steps, &ticks);

		if (st != MP_OK)
			return st;
		if (ticks < best) {
			best = ticks;
			since_best = 0;
		} else {
			since_best++;
		}
	}
	*ticks_per_access = (double)best / (double)steps;
	return MP_OK;
}

double mp_ticks_to_cycles(const struct mp_platform *p, double ticks)
{
	if (p->core_hz == 0 || p->tick_hz == 0)
		return mp_na_double();
	return ticks * (double)p->core_hz / (double)p->tick_hz;
}

double mp_cycles_to_ns(const struct mp_platform *p, double cycles)
{
	if (p->core_hz == 0)
		return mp_na_double();
	return cycles * 1e9 / (double)p->core_hz;
}

double mp_ticks_to_ns(const struct mp_platform *p, double ticks)
{
	if (p->tick_hz == 0)
		return mp_na_double();
	return ticks * 1e9 / (double)p->tick_hz;
}

double mp_seconds_since(struct mp_platform *p, uint64_t t0)
{
	if (p->tick_hz == 0)
		return mp_na_double();
	return (double)(mp_now(p) - t0) / (double)p->tick_hz;
}
