/* SPDX-License-Identifier: MIT */
/* The step analysis (core/measure/steps.c) on synthetic response curves. */
#include <math.h>
#include <stdint.h>

#include "core/lib/rng.h"
#include "core/measure/steps.h"
#include "tests/check.h"

#define MAXP 160
/* One step of the sweep grid (four points per doubling): 2^(1/4) - 1. */
#define GRID_STEP 0.19

struct level {
	double upto;      /* last size of this level (its capacity) */
	double y;         /* its latency */
};

struct curve {
	int32_t n;
	double x[MAXP], y[MAXP];
};

/* Sizes from `from` to `to`, four per doubling (the sweep's grid). */
static void grid(struct curve *c, double from, double to)
{
	c->n = 0;
	for (double x = from; x <= to * 1.0001 && c->n < MAXP; x *= pow(2.0, 0.25))
		c->x[c->n++] = round(x);
}

/*
 * Latency at x: the level that holds x, or a ramp of `width` doublings
 * above a capacity (a gradual transition), plus a drift of `drift` per
 * doubling inside a plateau.
 */
static double shape(const struct level *lv, int nl, double mem, double x, double width,
		    double drift)
{
	for (int i = 0; i < nl; i++) {
		double next = i + 1 < nl ? lv[i + 1].y : mem;
		double from = i ? lv[i - 1].upto : x;
		double base = lv[i].y * pow(1.0 + drift, log2(x / (from > 0 ? from : x)));

		if (x <= lv[i].upto)
			return base;
		if (width > 0 && x < lv[i].upto * pow(2.0, width)) {
			double f = log2(x / lv[i].upto) / width;

			return base + f * (next - base);
		}
	}
	return mem;
}

static void make(struct curve *c, const struct level *lv, int nl, double mem, double width,
		 double drift, double noise, double spikes, uint64_t seed)
{
	struct mp_rng g;

	mp_rng_seed(&g, seed);
	for (int32_t i = 0; i < c->n; i++) {
		double u = (double)mp_rng_below(&g, 1000000) / 1e6;
		double s = (double)mp_rng_below(&g, 1000000) / 1e6;

		c->y[i] = shape(lv, nl, mem, c->x[i], width, drift) * (1.0 + noise * u);
		if (s < spikes)
			c->y[i] *= 1.5;
	}
}

/*
 * Is each effective capacity found, as the last grid point of its plateau,
 * within `tol` (relative) of the true one?  A clean curve gives the exact
 * grid point; on a noisy one a spike on the last point of a plateau moves
 * the boundary one grid step (19%) down, which the probes' refinement
 * repairs with fresh measurements.
 */
static void expect(const char *name, const struct curve *c, const struct level *lv, int nl,
		   double tol)
{
	struct mp_steps st;
	int32_t n = mp_steps_find(c->x, c->y, c->n, MP_STEP_MIN_RISE_TLB, MP_STEP_MIN_FLAT_CACHE,
				  &st);

	CHECK_EQ_INT(n, nl, name);
	for (int i = 0; i < nl && i < n; i++) {
		double got = c->x[st.plateau[i].last];

		CHECK(fabs(got / lv[i].upto - 1.0) <= tol,
		      "%s: level %d capacity %.0f, want %.0f within %.0f%%", name, i + 1, got,
		      lv[i].upto, tol * 100);
	}
	for (int i = 0; i < nl && i < n; i++)
		CHECK(fabs(st.plateau[i].level / lv[i].y - 1.0) <= 0.15 + 0.2 * (i > 0),
		      "%s: level %d latency %.2f, want about %.2f", name, i + 1,
		      st.plateau[i].level, lv[i].y);
}

static const struct level three[] = { { 32768, 4 }, { 1048576, 14 }, { 33554432, 50 } };

static void sharp_steps(void)
{
	struct curve c;

	grid(&c, 4096, 256 << 20);
	make(&c, three, 3, 300, 0, 0, 0, 0, 1);
	expect("three sharp steps", &c, three, 3, 0.0);
}

static void noisy_steps(void)
{
	struct curve c;

	grid(&c, 4096, 256 << 20);
	for (uint64_t seed = 1; seed <= 20; seed++) {
		make(&c, three, 3, 300, 0, 0, 0.04, 0.06, seed);
		expect("noise 4% and spikes", &c, three, 3, GRID_STEP);
	}
}

static void gradual_steps(void)
{
	struct curve c;

	grid(&c, 4096, 256 << 20);
	make(&c, three, 3, 300, 1.0, 0.08, 0.02, 0.03, 5);
	expect("ramps a doubling wide, drifting plateaus", &c, three, 3, GRID_STEP);
}

static void tlb_like(void)
{
	static const struct level tlb[] = { { 72, 4 }, { 512, 5 }, { 3072, 14 } };
	struct curve c;

	grid(&c, 4, 65536);
	make(&c, tlb, 3, 21, 0, 0, 0.01, 0, 9);
	expect("TLB curve with a +25% first step", &c, tlb, 3, GRID_STEP);
}

/* A TLB curve with the L1's 2048-line boundary one grid step below a 3072-entry TLB. */
static void adjacent_tlb_steps(void)
{
	static const double x[] = {
		1024, 1280, 1536, 1792, 2048, 2560, 3072, 3584, 4096, 5120, 6144,
	};
	static const double y[] = { 9, 9, 9, 9, 9, 22, 22, 52, 52, 52, 52 };
	struct mp_steps st;
	int32_t n = mp_steps_find(x, y, 11, MP_STEP_MIN_RISE_TLB, MP_STEP_MIN_FLAT_TLB, &st);

	CHECK(n == 2 && st.plateau[0].last == 4 && st.plateau[1].last == 6,
	      "TLB curve: boundaries one grid step apart stay two transitions (%d)", (int)n);
}

static void close_levels(void)
{
	static const struct level two[] = { { 65536, 3 }, { 131072, 12 } };
	struct curve c;

	grid(&c, 4096, 16 << 20);
	make(&c, two, 2, 200, 0, 0, 0.02, 0, 3);
	expect("levels one doubling apart", &c, two, 2, 0.0);
}

static int32_t find(const struct curve *c, int32_t n, struct mp_steps *st)
{
	return mp_steps_find(c->x, c->y, n, MP_STEP_MIN_RISE_TLB, MP_STEP_MIN_FLAT_CACHE, st);
}

static void flat_and_noise(void)
{
	struct curve c;
	struct mp_steps st;
	static const struct level none[] = { { 1e30, 100 } };

	grid(&c, 4096, 64 << 20);
	make(&c, none, 1, 100, 0, 0, 0, 0, 1);
	CHECK_EQ_INT(find(&c, c.n, &st), 0, "flat curve: no transition");
	make(&c, none, 1, 100, 0, 0, 0.08, 0.1, 2);
	CHECK_EQ_INT(find(&c, c.n, &st), 0, "noise 8% and spikes: no transition");
	make(&c, none, 1, 100, 0, 0.06, 0.02, 0, 3);
	CHECK_EQ_INT(find(&c, c.n, &st), 0, "drift 6% per doubling: no transition");
	CHECK_EQ_INT(find(&c, 1, &st), 0, "one point");
}

/*
 * Each plateau carries its own noise scale: a clean L1 and a jittery L2
 * (a shared level) give the L2 the larger one, where the curve's median
 * ratio, taken over both, says the L1's.
 */
static void plateau_noise(void)
{
	struct curve c;
	struct mp_steps st;
	static const struct level lv[] = { { 32 << 10, 4 }, { 8 << 20, 40 } };

	grid(&c, 1024, 64 << 20);
	make(&c, lv, 2, 300, 0, 0, 0, 0, 4);
	for (int32_t i = 0; i < c.n; i++)
		if (c.x[i] > (64 << 10) && c.x[i] <= (8 << 20))
			c.y[i] *= 1.0 + 0.06 * (i % 2);
	CHECK_EQ_INT(find(&c, c.n, &st), 2, "clean L1, jittery L2: two transitions");
	CHECK(st.plateau[0].noise == 0.0, "the clean L1's noise is 0 (%.4f)", st.plateau[0].noise);
	CHECK(st.plateau[1].noise > 0.02 && st.plateau[1].noise > st.noise,
	      "the jittery L2's noise %.4f is its own (the curve's: %.4f)", st.plateau[1].noise,
	      st.noise);
}

static void log2_accuracy(void)
{
	double worst = 0;

	for (double x = 1e-6; x < 1e12; x *= 1.37) {
		double e = fabs(mp_log2(x) - log2(x));

		worst = e > worst ? e : worst;
	}
	CHECK(worst < 1e-7, "mp_log2 worst error %.2e", worst);
}

/*
 * The highest plateau after a transition: not only the next one, and
 * nothing past the last plateau (a sentinel there would win).
 */
static void highest_after(void)
{
	static const double level[] = { 1.0, 1.1, 4.0, 2.0, 99.0 };
	struct mp_steps st = { .nsteps = 3 };

	for (int32_t i = 0; i < 5; i++)
		st.plateau[i].level = level[i];
	CHECK(mp_steps_highest_after(&st, 0) == 4.0, "after step 0: %.1f, want 4.0",
	      mp_steps_highest_after(&st, 0));
	CHECK(mp_steps_highest_after(&st, 1) == 4.0, "after step 1: %.1f, want 4.0",
	      mp_steps_highest_after(&st, 1));
	CHECK(mp_steps_highest_after(&st, 2) == 2.0, "after step 2: %.1f, want 2.0",
	      mp_steps_highest_after(&st, 2));
}

/*
 * A curve that ends in a gradual climb to memory (45 cycles), closed by
 * mp_steps_top: an L1 of 2 cycles to 16K, an L2 of 7 cycles from 32K to
 * 64K, then a climb of twelve points to the sweep's end (a level of few
 * ways on scattered frames, or random replacement).  The step analysis
 * counts the climb into the L2's plateau; the L2 is still the plateau at 7
 * cycles (it read 11.25 when the climb's start was judged against the
 * whole plateau's median, which the climb lifts).
 */
static void top_after_gradual_climb(void)
{
	static const double kb[] = { 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4, 5, 6, 7, 8, 10,
				     12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96,
				     112, 128, 160, 192, 224, 256, 320, 384, 448 };
	static const double cyc[] = { 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
				      2, 2, 2, 4, 5.3, 6.3, 7, 7, 7, 7, 7, 9, 10.5,
				      12, 13.6, 15.5, 19.7, 21.9, 24.8, 26.1, 28.4, 31.4 };
	int32_t n = (int32_t)(sizeof(kb) / sizeof(kb[0]));
	struct mp_steps st;
	double x[sizeof(kb) / sizeof(kb[0])];

	for (int32_t i = 0; i < n; i++)
		x[i] = kb[i] * 1024;
	mp_steps_find(x, cyc, n, MP_STEP_MIN_RISE_CACHE, MP_STEP_MIN_FLAT_CACHE, &st);
	CHECK_EQ_INT(mp_steps_top(x, cyc, n, 45.0, MP_STEP_MIN_RISE_CACHE, &st), 2,
		     "gradual climb closed by memory: L1 and L2");
	CHECK(fabs(st.plateau[1].upper - 7.0) < 0.5, "the L2's latency %.2f, want 7",
	      st.plateau[1].upper);
	CHECK(x[st.plateau[2].first] > 64 * 1024 && x[st.plateau[2].first] <= 112 * 1024,
	      "the climb to memory from %.0fK, want 80K to 112K", x[st.plateau[2].first] / 1024);
}

int main(void)
{
	log2_accuracy();
	sharp_steps();
	noisy_steps();
	gradual_steps();
	tlb_like();
	close_levels();
	adjacent_tlb_steps();
	flat_and_noise();
	plateau_noise();
	highest_after();
	top_after_gradual_climb();
	return check_done();
}
