/* SPDX-License-Identifier: MIT */
/*
 * Step analysis (core/measure/steps.h; docs/algorithms.md, "Multi-level
 * caches", step analysis): despike, take the noise scale, mark steep steps,
 * join nearby runs, drop transitions that rise too little (smallest
 * first), tighten each transition to the points that left the lower
 * plateau.
 */
#include <stdbool.h>

#include "core/measure/steps.h"

#define MAX_POINTS 160
/* Points next to a transition that give the local level of a plateau. */
#define BOUNDARY_POINTS 4
static double med3(double a, double b, double c)
{
	if (a > b) {
		double t = a;

		a = b;
		b = t;
	}
	return c < a ? a : (c > b ? b : c);
}

static double median(const double *v, int32_t n)
{
	double s[MAX_POINTS];

	for (int32_t i = 0; i < n; i++) {
		int32_t j = i;

		while (j > 0 && s[j - 1] > v[i]) {
			s[j] = s[j - 1];
			j--;
		}
		s[j] = v[i];
	}
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

static void despike(const double *y, int32_t n, double *m)
{
	for (int32_t i = 0; i < n; i++)
		m[i] = (i == 0 || i == n - 1) ? y[i] : med3(y[i - 1], y[i], y[i + 1]);
}

static double noise_scale(const double *m, int32_t n)
{
	double d[MAX_POINTS];

	for (int32_t i = 0; i + 1 < n; i++) {
		double r = mp_log2(m[i + 1] / m[i]);

		d[i] = r < 0 ? -r : r;
	}
	return n > 1 ? median(d, n - 1) : 0.0;
}

static bool steep(const double *x, const double *m, int32_t i, double noise)
{
	double rise = mp_log2(m[i + 1] / m[i]);

	return rise > MP_STEP_MIN_SLOPE * mp_log2(x[i + 1] / x[i]) &&
	       rise > MP_STEP_NOISE_K * noise;
}

/* Candidate transitions: lo[k] = last point before, hi[k] = first point after. */
struct cands {
	int32_t n;
	int32_t lo[MAX_POINTS], hi[MAX_POINTS];
};

static void steep_runs(const double *x, const double *m, int32_t n, double noise,
		       int32_t min_flat, struct cands *c)
{
	c->n = 0;
	for (int32_t i = 0; i + 1 < n; i++) {
		if (!steep(x, m, i, noise))
			continue;
		if (c->n > 0 && i - c->hi[c->n - 1] < min_flat) {
			c->hi[c->n - 1] = i + 1;        /* continues or rejoins the last run */
			continue;
		}
		c->lo[c->n] = i;
		c->hi[c->n] = i + 1;
		c->n++;
	}
}

static double peak(const double *m, int32_t first, int32_t last)
{
	double top = m[first];

	for (int32_t i = first + 1; i <= last; i++)
		top = m[i] > top ? m[i] : top;
	return top;
}

static void plateaus(const double *m, int32_t n, const struct cands *c, struct mp_plateau *p)
{
	for (int32_t k = 0; k <= c->n; k++) {
		p[k].first = k ? c->hi[k - 1] : 0;
		p[k].last = k < c->n ? c->lo[k] : n - 1;
		p[k].level = median(m + p[k].first, p[k].last - p[k].first + 1);
		p[k].upper = median(m + (p[k].first + p[k].last + 1) / 2,
				    p[k].last - (p[k].first + p[k].last + 1) / 2 + 1);
		p[k].high = m[p[k].last];
		p[k].peak = peak(m, p[k].first, p[k].last);
		p[k].noise = noise_scale(m + p[k].first, p[k].last - p[k].first + 1);
	}
}

static void drop(struct cands *c, int32_t k)
{
	for (int32_t j = k; j + 1 < c->n; j++) {
		c->lo[j] = c->lo[j + 1];
		c->hi[j] = c->hi[j + 1];
	}
	c->n--;
}

static double lowest(const double *m, int32_t from, int32_t to)
{
	double v = m[from];

	for (int32_t i = from + 1; i <= to; i++)
		v = m[i] < v ? m[i] : v;
	return v;
}

/*
 * A transition's rise: from the median of the plateau below to the lowest
 * point of the plateau above, so that outliers that fall back to the lower
 * level make no plateau.  0 when the top plateau is too short to trust: the
 * last plateau of the curve needs MP_STEP_MIN_FLAT_CACHE + 1 points.
 */
static double rise_of(const double *m, const struct cands *c, const struct mp_plateau *p,
		      int32_t k)
{
	if (k + 1 == c->n && p[k + 1].last - p[k + 1].first < MP_STEP_MIN_FLAT_CACHE)
		return 0.0;
	return lowest(m, p[k + 1].first, p[k + 1].last) / p[k].level - 1.0;
}

/* Index of the transition with the smallest rise, and that rise. */
static int32_t weakest(const double *m, const struct cands *c, const struct mp_plateau *p,
		       double *rise)
{
	int32_t w = 0;

	*rise = 1e300;
	for (int32_t k = 0; k < c->n; k++) {
		double r = rise_of(m, c, p, k);

		if (r < *rise) {
			*rise = r;
			w = k;
		}
	}
	return w;
}

/* Median of the up to BOUNDARY_POINTS despiked points of [from, to] nearest `at`. */
static double local_level(const double *m, int32_t from, int32_t to, bool at_end)
{
	int32_t n = to - from + 1 < BOUNDARY_POINTS ? to - from + 1 : BOUNDARY_POINTS;

	return median(m + (at_end ? to - n + 1 : from), n);
}

/*
 * Tighten transition k to where the curve actually leaves the lower
 * plateau and joins the upper one: a point inside a steep run that is back
 * near the lower level (an outlier came before it) still belongs below.
 * "Near" is within MP_STEP_EDGE of the step, measured in log terms.
 */
static void tighten(const double *m, struct cands *c, const struct mp_plateau *p, int32_t k)
{
	double below = local_level(m, p[k].first, p[k].last, true);
	double above = local_level(m, p[k + 1].first, p[k + 1].last, false);
	double edge = MP_STEP_EDGE * mp_log2(above / below);
	int32_t lo = c->lo[k], hi = c->hi[k];

	for (int32_t j = hi - 1; j > lo; j--) {
		if (mp_log2(m[j] / below) < edge) {
			lo = j;
			break;
		}
	}
	for (int32_t j = lo + 1; j < hi; j++) {
		if (mp_log2(above / m[j]) < edge) {
			hi = j;
			break;
		}
	}
	c->lo[k] = lo;
	c->hi[k] = hi;
}

int32_t mp_steps_find(const double *x, const double *y, int32_t n, double min_rise,
		      int32_t min_flat, struct mp_steps *out)
{
	struct mp_plateau p[MAX_POINTS + 1];
	double m[MAX_POINTS], rise;
	struct cands c;

	n = n < MAX_POINTS ? n : MAX_POINTS;
	out->nsteps = 0;
	if (n < 1)
		return 0;
	despike(y, n, m);
	out->noise = noise_scale(m, n);
	steep_runs(x, m, n, out->noise, min_flat, &c);
	for (;;) {
		plateaus(m, n, &c, p);
		if (c.n == 0)
			break;
		int32_t w = weakest(m, &c, p, &rise);
		if (rise >= min_rise && c.n <= MP_STEPS_MAX)
			break;
		drop(&c, w);
	}
	for (int32_t k = 0; k < c.n; k++)
		tighten(m, &c, p, k);
	plateaus(m, n, &c, p);
	out->nsteps = c.n;
	for (int32_t k = 0; k <= c.n; k++)
		out->plateau[k] = p[k];
	return c.n;
}

int32_t mp_steps_top(const double *x, const double *y, int32_t n, double top, double min_rise,
		     struct mp_steps *out)
{
	double m[MAX_POINTS], edge, base;
	struct mp_plateau *last;
	int32_t j;

	(void)x;
	n = n < MAX_POINTS ? n : MAX_POINTS;
	if (n < 1 || out->nsteps >= MP_STEPS_MAX)
		return out->nsteps;
	last = &out->plateau[out->nsteps];
	if (!(top >= last->level * (1.0 + min_rise)))
		return out->nsteps;
	despike(y, n, m);
	base = median(m + last->first, (last->last - last->first) / 2 + 1);
	edge = MP_STEP_EDGE * mp_log2(top / base);
	for (j = last->last; j > last->first && mp_log2(m[j] / base) >= edge; j--)
		;
	last[1].first = j + 1;
	last[1].last = last->last;
	last[1].level = top;
	last[1].upper = top;
	last[1].high = top;
	last[1].peak = top;
	last[1].noise = 0.0;
	last->last = j;
	last->level = median(m + last->first, j - last->first + 1);
	last->upper = median(m + (last->first + j + 1) / 2, j - (last->first + j + 1) / 2 + 1);
	last->high = m[j];
	last->peak = peak(m, last->first, j);
	last->noise = noise_scale(m + last->first, j - last->first + 1);
	return ++out->nsteps;
}

double mp_steps_highest_after(const struct mp_steps *st, int32_t k)
{
	double high = st->plateau[k + 1].level;

	for (int32_t u = k + 2; u <= st->nsteps; u++)
		if (st->plateau[u].level > high)
			high = st->plateau[u].level;
	return high;
}
