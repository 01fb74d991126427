/* SPDX-License-Identifier: MIT */
#include "core/lib/str.h"
#include "core/measure/timing.h"

unsigned mp_stable_runs(const struct mp_config *cfg)
{
	return cfg->profile == MP_PROFILE_FULL ? MP_STABLE_RUNS_FULL : MP_STABLE_RUNS_QUICK;
}

enum mp_status mp_run_masked(struct mp_ctx *c, const struct mp_run *r, struct mp_sample *s)
{
	enum mp_status masked = c->p->ops->irq_mask(c->p);
	enum mp_status st = mp_run(c->p, r, s);

	if (masked == MP_OK)
		c->p->ops->irq_unmask(c->p);
	return st;
}

/* One window of the chase, interrupts masked where the platform can. */
enum mp_status mp_chase_window(struct mp_ctx *c, struct mp_chase *ch, uint64_t steps,
			       uint64_t *ticks)
{
	struct mp_run r = {
		.op = ch->op, .start = ch->cursor, .steps = steps, .region = ch->region,
	};
	struct mp_sample s = { 0 };
	enum mp_status st = mp_run_masked(c, &r, &s);

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
		enum mp_status st = mp_chase_window(c, ch, n, &ticks);

		if (st != MP_OK)
			return st;
		left -= n;
	}
	return MP_OK;
}

enum mp_status mp_chase_min(struct mp_ctx *c, struct mp_chase *ch, double *ticks_per_access)
{
	uint64_t steps = window_steps(ch), best = UINT64_MAX, ticks;
	unsigned since_best = 0, need = mp_stable_runs(c->cfg);

	for (unsigned run = 0; run < MP_MAX_RUNS && since_best < need; run++) {
		enum mp_status st = mp_chase_window(c, ch, steps, &ticks);

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

/* One pass by the rule's `least` and `window` (mp_chase_pass: MP_MIN_PASSES's). */
static enum mp_status pass_by(struct mp_ctx *c, struct mp_chase *ch, struct mp_min_rule rule,
			      double *ticks)
{
	uint64_t w = rule.least, total = 0, t = 0, steps, left;
	enum mp_status st = MP_OK;

	steps = ch->length < w ? (w + ch->length - 1) / ch->length * ch->length : ch->length;
	for (left = steps; left && st == MP_OK;) {
		uint64_t n = ch->length < w || left < rule.window ? left : rule.window;

		st = mp_chase_window(c, ch, n, &t);
		total += t;
		left -= n;
	}
	*ticks = (double)total / (double)steps;
	return st;
}

enum mp_status mp_chase_pass(struct mp_ctx *c, struct mp_chase *ch, double *ticks)
{
	return pass_by(c, ch, MP_MIN_PASSES(0), ticks);
}

enum mp_status mp_min_of(struct mp_ctx *c, mp_timed_fn fn, void *arg, struct mp_min_rule rule,
			 double *ticks)
{
	double best = 1e300, last = -1.0;
	unsigned since = 0, same = 0;

	for (unsigned run = 0; run < MP_MAX_RUNS && since < rule.stable; run++) {
		double t;
		enum mp_status st = fn(c, arg, &t);

		if (st != MP_OK)
			return st;
		since = t < best ? 0 : since + 1;
		best = t < best ? t : best;
		same = t == last ? same + 1 : 0;
		last = t;
		if (rule.identical && same + 1 >= rule.identical)
			break;  /* nothing disturbs these passes: none will be faster */
	}
	*ticks = best;
	return MP_OK;
}

struct pass_job {
	struct mp_chase *ch;
	struct mp_min_rule rule;
};

static enum mp_status one_pass(struct mp_ctx *c, void *arg, double *t)
{
	struct pass_job *j = arg;

	return pass_by(c, j->ch, j->rule, t);
}

enum mp_status mp_chase_min_pass(struct mp_ctx *c, struct mp_chase *ch, struct mp_min_rule rule,
				 double *ticks)
{
	struct pass_job j = { ch, rule };

	return mp_min_of(c, one_pass, &j, rule, ticks);
}

enum mp_status mp_chase_visit(struct mp_ctx *c, struct mp_chase *ch, bool warm, double *ticks,
			      uint32_t *n)
{
	uint64_t passes = MP_WINDOW_STEPS / ch->length;
	enum mp_status st = warm ? mp_chase_warm(c, ch) : MP_OK;

	passes = passes ? passes : 1;
	for (uint64_t k = 0; st == MP_OK && k < passes && *n < MP_VISIT_RUNS; k++)
		st = mp_chase_pass(c, ch, &ticks[(*n)++]);
	return st;
}

bool mp_same_time(const struct mp_platform *p, double a, double b, double rel)
{
	double d = a > b ? a - b : b - a, big = a > b ? a : b;
	double cycle = p->core_hz ? (double)p->tick_hz / (double)p->core_hz : 1.0;

	return d <= MP_SAME_CYCLES * cycle || d <= rel * big;
}

void mp_sweep_init(struct mp_sweep *s, const struct mp_config *cfg, const uint64_t *x,
		   uint32_t n)
{
	mp_memset(s, 0, sizeof(*s));
	s->n = n < MP_SWEEP_MAX ? n : MP_SWEEP_MAX;
	for (uint32_t i = 0; i < s->n; i++) {
		s->x[i] = x[i];
		s->best[i] = mp_na_double();
		s->need[i] = mp_stable_runs(cfg);
	}
}

uint32_t mp_stable_for(const struct mp_config *cfg, uint64_t loads)
{
	uint64_t need = mp_stable_runs(cfg);

	if (loads > MP_WINDOW_STEPS)
		need = need * MP_WINDOW_STEPS / loads;
	return need > MP_STABLE_RUNS_LONG ? (uint32_t)need : MP_STABLE_RUNS_LONG;
}

/* A knocked-out neighbour of a point that found a new minimum is measured again. */
static void revive(struct mp_sweep *s, uint32_t i)
{
	if (i > 0 && s->state[i - 1] == MP_POINT_OUT)
		s->state[i - 1] = MP_POINT_ACTIVE;
	if (i + 1 < s->n && s->state[i + 1] == MP_POINT_OUT)
		s->state[i + 1] = MP_POINT_ACTIVE;
}

static bool reaches(const struct mp_platform *p, const struct mp_sweep *s, uint32_t i)
{
	return !mp_is_na(s->best[i]) &&
	       (s->best[i] >= s->ceiling ||
		mp_same_time(p, s->best[i], s->ceiling, MP_KNOCKOUT_REL));
}

static void record(struct mp_ctx *c, struct mp_sweep *s, uint32_t i, double t)
{
	s->runs[i]++;
	if (mp_is_na(s->best[i]) || (t < s->best[i] &&
				     !mp_same_time(c->p, t, s->best[i], MP_SAME_REL))) {
		bool first = mp_is_na(s->best[i]);

		s->best[i] = t;
		s->since[i] = 0;
		if (!first)
			revive(s, i);
	} else {
		if (t < s->best[i])
			s->best[i] = t;
		if (++s->since[i] >= s->need[i])
			s->state[i] = MP_POINT_STABLE;
	}
	if (s->ceiling > 0 && s->runs[i] >= MP_CEILING_RUNS && reaches(c->p, s, i))
		s->state[i] = MP_POINT_STABLE;
}

/*
 * Does point i agree with its neighbours: equal to both, or on the straight
 * line through them (docs/algorithms.md, "Timing discipline", sweeps)?
 */
static bool redundant(const struct mp_platform *p, const struct mp_sweep *s, uint32_t i)
{
	double lo = s->best[i - 1], hi = s->best[i + 1], mid, f;

	if (mp_is_na(lo) || mp_is_na(hi))
		return false;
	if (mp_same_time(p, s->best[i], lo, MP_KNOCKOUT_REL) &&
	    mp_same_time(p, s->best[i], hi, MP_KNOCKOUT_REL))
		return true;
	f = (double)(s->x[i] - s->x[i - 1]) / (double)(s->x[i + 1] - s->x[i - 1]);
	mid = lo + (hi - lo) * f;
	return mp_same_time(p, s->best[i], mid, MP_KNOCKOUT_REL);
}

/*
 * Does the curve end straight: the last point equal to the one before it,
 * or on the straight line through the two before it (DRAM's slow climb as
 * page walks miss more)?
 */
static bool straight_end(const struct mp_platform *p, const struct mp_sweep *s)
{
	uint32_t n = s->n;
	double a = s->best[n - 3], b = s->best[n - 2], end = s->best[n - 1], f;

	if (mp_is_na(b) || mp_is_na(end))
		return false;
	if (mp_same_time(p, end, b, MP_KNOCKOUT_REL))
		return true;
	f = (double)(s->x[n - 1] - s->x[n - 2]) / (double)(s->x[n - 2] - s->x[n - 3]);
	return !mp_is_na(a) && mp_same_time(p, end, b + (b - a) * f, MP_KNOCKOUT_REL);
}

/* Cooper-Xu's knock-out phase, after a sweep; ours also knocks out a straight end. */
static void knock_out(struct mp_ctx *c, struct mp_sweep *s)
{
	for (uint32_t i = 1; i + 1 < s->n; i++) {
		if (s->state[i] == MP_POINT_ACTIVE && redundant(c->p, s, i))
			s->state[i] = MP_POINT_OUT;
	}
	if (s->n > 2 && s->state[s->n - 1] == MP_POINT_ACTIVE && straight_end(c->p, s))
		s->state[s->n - 1] = MP_POINT_OUT;
}

uint32_t mp_sweep_reach(const struct mp_platform *p, const struct mp_sweep *s)
{
	for (uint32_t i = 0; s->ceiling > 0 && i < s->n; i++)
		if (reaches(p, s, i))
			return i + 1;
	return s->n;
}

/* Points out of reach count as settled. */
static uint32_t settled(const struct mp_platform *p, const struct mp_sweep *s)
{
	uint32_t reach = mp_sweep_reach(p, s), k = s->n - reach;

	for (uint32_t i = 0; i < reach; i++)
		k += s->state[i] != MP_POINT_ACTIVE;
	return k;
}

static enum mp_status one_sweep(struct mp_ctx *c, struct mp_sweep *s, mp_sample_fn fn,
				void *arg)
{
	for (uint32_t i = 0; i < mp_sweep_reach(c->p, s); i++) {
		double t[MP_VISIT_RUNS];
		uint32_t n = 0;
		enum mp_status st;

		if (s->state[i] != MP_POINT_ACTIVE)
			continue;
		st = fn(c, arg, s, i, t, &n);
		if (st != MP_OK)
			return st;
		for (uint32_t k = 0; k < n && k < MP_VISIT_RUNS; k++)
			record(c, s, i, t[k]);
	}
	return MP_OK;
}

enum mp_status mp_sweep_run(struct mp_ctx *c, struct mp_sweep *s, mp_sample_fn fn, void *arg,
			    const char *what)
{
	while (settled(c->p, s) < s->n) {
		enum mp_status st;

		if (s->sweeps >= MP_MAX_SWEEPS || (s->deadline && mp_now(c->p) >= s->deadline)) {
			s->timed_out = true;
			break;
		}
		mp_progress(c->p, what, settled(c->p, s), s->n);
		st = one_sweep(c, s, fn, arg);
		if (st != MP_OK)
			return st;
		s->sweeps++;
		knock_out(c, s);
	}
	mp_progress(c->p, what, s->n, s->n);
	return MP_OK;
}
