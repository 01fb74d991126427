/* SPDX-License-Identifier: MIT */
/*
 * The sweep discipline (core/measure/timing.c, mp_sweep_run) on scripted
 * curves: which points it keeps visiting and which it knocks out.  Each
 * visit of point i returns the curve's value there, raised on a point's
 * first visits where the script says so (a disturbed run).
 */

#include "core/config.h"
#include "core/measure/timing.h"
#include "core/probe.h"
#include "tests/check.h"
#include "tests/output.h"

#define NPTS 8

struct script {
	double y[NPTS];
	unsigned disturbed[NPTS];   /* first visits of point i that read 20% high */
	unsigned visits[NPTS];
};

static uint64_t clock_ticks;

static uint64_t fake_now(struct mp_platform *p)
{
	(void)p;
	return clock_ticks += 1000;
}

static enum mp_status visit(struct mp_ctx *c, void *arg, const struct mp_sweep *s, uint32_t i,
			    double *ticks, uint32_t *n)
{
	struct script *sc = arg;

	(void)c;
	(void)s;
	ticks[0] = sc->y[i] * (sc->visits[i] < sc->disturbed[i] ? 1.2 : 1.0);
	sc->visits[i]++;
	*n = 1;
	return MP_OK;
}

static const struct mp_platform_ops ops = { .now = fake_now };
static struct mp_platform p = { .name = "fake", .tick_hz = 1000000000ull,
				.core_hz = 1000000000ull, .ops = &ops };

static void run_below(struct script *sc, struct mp_sweep *s, double ceiling)
{
	struct mp_config cfg;
	struct mp_ctx c = { .p = &p, .cfg = &cfg };
	uint64_t x[NPTS];

	p.out = test_output();
	mp_config_defaults(&cfg);
	for (uint32_t i = 0; i < NPTS; i++)
		x[i] = 1024u << i;
	mp_sweep_init(s, &cfg, x, NPTS);
	s->ceiling = ceiling;
	CHECK(mp_sweep_run(&c, s, visit, sc, "test") == MP_OK, "the sweep runs");
}

static void run(struct script *sc, struct mp_sweep *s)
{
	run_below(sc, s, 0.0);
}

/* A curve that ends flat: the last point goes after the first sweep, as an inner one would. */
static void flat_end(void)
{
	static struct mp_sweep s;
	struct script sc = { .y = { 4, 4, 4, 4, 40, 100, 100, 100 } };

	sc.disturbed[4] = 6;          /* the transition's point settles late */
	run(&sc, &s);
	CHECK(s.state[NPTS - 1] == MP_POINT_OUT, "a flat end is knocked out (state %d)",
	      (int)s.state[NPTS - 1]);
	CHECK(sc.visits[NPTS - 1] == 1, "a flat end is visited once (%u)", sc.visits[NPTS - 1]);
	CHECK(sc.visits[6] == 1, "the point inside the flat end is visited once (%u)",
	      sc.visits[6]);
	CHECK(sc.visits[4] > 6, "the transition's point is visited until it settles (%u)",
	      sc.visits[4]);
	CHECK(s.best[4] == 40.0 && s.best[NPTS - 1] == 100.0, "the minima are kept (%.1f, %.1f)",
	      s.best[4], s.best[NPTS - 1]);
}

/* A curve whose end climbs on a straight line (DRAM as page walks miss more) goes as a flat one. */
static void straight_end(void)
{
	static struct mp_sweep s;
	struct script sc = { .y = { 4, 4, 4, 4, 40, 100, 110, 130 } };

	sc.disturbed[4] = 6;
	run(&sc, &s);
	CHECK(sc.visits[NPTS - 1] == 1, "an end on the line of the two before is visited once (%u)",
	      sc.visits[NPTS - 1]);
}

/* A curve that climbs at its end: the last point stays until it settles. */
static void climbing_end(void)
{
	static struct mp_sweep s;
	struct script sc = { .y = { 4, 4, 4, 4, 4, 4, 4, 40 } };

	sc.disturbed[4] = 6;
	run(&sc, &s);
	CHECK(s.state[NPTS - 1] == MP_POINT_STABLE, "a climbing end settles (state %d)",
	      (int)s.state[NPTS - 1]);
	CHECK(sc.visits[NPTS - 1] > 1, "a climbing end is visited again (%u)",
	      sc.visits[NPTS - 1]);
}

/* A flat end whose neighbour finds a new minimum is visited again. */
static void revived_end(void)
{
	static struct mp_sweep s;
	struct script sc = { .y = { 4, 4, 4, 4, 4, 4, 100, 100 } };

	sc.disturbed[6] = 2;          /* the neighbour reads high twice: the end is out first */
	sc.disturbed[NPTS - 1] = 1;
	run(&sc, &s);
	CHECK(sc.visits[NPTS - 1] > 1, "a revived end is visited again (%u)",
	      sc.visits[NPTS - 1]);
	CHECK(s.best[NPTS - 1] == 100.0, "its minimum comes down (%.1f)", s.best[NPTS - 1]);
}

/* Past the first point that reaches the ceiling nothing is visited. */
static void ceiling(void)
{
	static struct mp_sweep s;
	struct script sc = { .y = { 4, 4, 4, 40, 100, 120, 130, 140 } };

	run_below(&sc, &s, 90.0);
	CHECK(mp_sweep_reach(&p, &s) == 5, "the sweep reaches point 4 (%u points)",
	      mp_sweep_reach(&p, &s));
	CHECK(sc.visits[4] >= 1 && sc.visits[5] == 0 && sc.visits[NPTS - 1] == 0,
	      "the points past it are never visited (%u, %u, %u)", sc.visits[4], sc.visits[5],
	      sc.visits[NPTS - 1]);
	CHECK(sc.visits[4] == MP_CEILING_RUNS && s.state[4] == MP_POINT_STABLE,
	      "the point that reaches it settles after %u runs (%u)", MP_CEILING_RUNS,
	      sc.visits[4]);
}

/* A point that reads at the ceiling once and then below it lets the sweep go on. */
static void ceiling_disturbed(void)
{
	static struct mp_sweep s;
	struct script sc = { .y = { 4, 4, 4, 80, 100, 120, 130, 140 } };

	sc.disturbed[3] = 1;          /* 96 on its first visit: at the ceiling */
	run_below(&sc, &s, 90.0);
	CHECK(sc.visits[4] >= 1 && sc.visits[5] == 0,
	      "the sweep goes on to the next point once the first comes down (%u, %u)",
	      sc.visits[4], sc.visits[5]);
	CHECK(mp_sweep_reach(&p, &s) == 5, "and reaches point 4 (%u points)",
	      mp_sweep_reach(&p, &s));
}

int main(void)
{
	ceiling();
	ceiling_disturbed();
	flat_end();
	straight_end();
	climbing_end();
	revived_end();
	return check_done();
}
