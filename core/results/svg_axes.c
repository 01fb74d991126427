/* SPDX-License-Identifier: MIT */
/*
 * The plot's axes and ticks (core/results/svg_int.h): linear from zero to a
 * "nice" tick (1, 2 or 5 times a power of ten) above the highest value, or
 * on a log2 scale between the powers of two around the values.
 */
#include "core/lib/bits.h"
#include "core/lib/fmath.h"
#include "core/lib/str.h"
#include "core/results/plot.h"
#include "core/results/svg_int.h"

#define MAX_TICKS 8
/* A curve whose x spans this factor or more is drawn on a log2 scale. */
#define LOG_SPAN 16.0

static double scaled(const struct axis *a, double v)
{
	return a->log ? mp_log2(v) : v;
}

double mp_svg_x(const struct axis *a, double v)
{
	return SVG_LEFT + (scaled(a, v) - scaled(a, a->lo)) / (scaled(a, a->hi) - scaled(a, a->lo)) * SVG_PLOT_W;
}

double mp_svg_y(const struct axis *a, double v)
{
	return SVG_TOP + SVG_PLOT_H -
	       (scaled(a, v) - scaled(a, a->lo)) / (scaled(a, a->hi) - scaled(a, a->lo)) * SVG_PLOT_H;
}

bool mp_svg_usable(const struct axis *a, double v)
{
	return __builtin_isfinite(v) && (!a->log || v > 0);
}

/* 1, 2 or 5 times a power of ten, giving at most MAX_TICKS intervals over `span`. */
static double nice_step(double span)
{
	static const double mult[] = { 1, 2, 5 };
	double unit = 1e-9;

	for (int k = 0; k < 40; k++, unit *= 10)
		for (size_t i = 0; i < MP_COUNT_OF(mult); i++)
			if (span / (unit * mult[i]) <= MAX_TICKS)
				return unit * mult[i];
	return unit;
}

/* From zero (or the lowest value, when below zero) to a tick at or above the highest. */
static void linear_axis(struct axis *a, double min, double max)
{
	min = min > 0 ? 0 : min;
	max = max > min ? max : min + 1;
	a->log = false;
	a->step = nice_step(max - min);
	a->lo = mp_floor(min / a->step) * a->step;
	a->hi = mp_ceil(max / a->step) * a->step;
}

/* Between the powers of two around the values, ticks every `step` powers. */
static void log_axis(struct axis *a, double min, double max)
{
	int lo = (int)mp_floor(mp_log2(min)), hi = (int)mp_ceil(mp_log2(max));

	hi = hi > lo ? hi : lo + 1;
	a->log = true;
	a->step = 1;
	while ((hi - lo) / a->step > 2 * MAX_TICKS)
		a->step *= 2;
	a->lo = mp_exp2i(lo);
	a->hi = mp_exp2i(hi);
}

/* The range of the finite values of v (and of the positive ones, for a log axis). */
static bool range(const double *v, int32_t n, double *min, double *max, double *min_pos)
{
	bool any = false;

	*min_pos = 0;
	for (int32_t i = 0; i < n; i++) {
		if (!__builtin_isfinite(v[i]))
			continue;
		*min = any && *min < v[i] ? *min : v[i];
		*max = any && *max > v[i] ? *max : v[i];
		if (v[i] > 0 && (*min_pos == 0 || v[i] < *min_pos))
			*min_pos = v[i];
		any = true;
	}
	return any;
}

void mp_svg_axes(const struct mp_curve *c, struct axis *x, struct axis *y)
{
	int32_t n = mp_count(c->npoints, MP_MAX_POINTS);
	double min = 0, max = 1, pos = 0;

	if (range(c->x, n, &min, &max, &pos) && pos > 0 && max / pos >= LOG_SPAN)
		log_axis(x, pos, max);
	else
		linear_axis(x, min, max);
	min = 0;
	max = 1;
	range(c->y, n, &min, &max, &pos);
	linear_axis(y, min, max);
}

void mp_svg_coord(struct mp_buf *b, double v)
{
	mp_buf_double(b, v, SVG_COORD_DECIMALS);
}

/* Digits after the point that a tick step needs. */
static unsigned decimals_of(double step)
{
	unsigned d = 0;

	while (step < 0.999999 && d < 6) {
		step *= 10;
		d++;
	}
	return d;
}

static void put_tick_label(struct mp_buf *b, const struct mp_curve *c, const struct axis *a,
			   double v, bool is_x)
{
	if (is_x && v >= 1 && mp_strcmp(c->x_unit, "bytes") == 0)
		mp_buf_size(b, (uint64_t)v);
	else
		mp_buf_double(b, v, a->log ? 0 : decimals_of(a->step));
}

/* The value of tick k, or a value past hi when there is none. */
static double tick(const struct axis *a, int k)
{
	if (a->log)
		return mp_exp2i((int)mp_log2(a->lo) + k * (int)a->step);
	return a->lo + k * a->step;
}

/* <line> from (x1, y1) to (x2, y2); `attrs` adds to its stroke. */
void mp_svg_line(struct mp_buf *b, const char *attrs, double x1, double y1, double x2, double y2)
{
	mp_buf_printf(b, "<line %s x1=\"", attrs);
	mp_svg_coord(b, x1);
	mp_buf_puts(b, "\" y1=\"");
	mp_svg_coord(b, y1);
	mp_buf_puts(b, "\" x2=\"");
	mp_svg_coord(b, x2);
	mp_buf_puts(b, "\" y2=\"");
	mp_svg_coord(b, y2);
	mp_buf_puts(b, "\"/>\n");
}

/* Opens a <text> at (x, y); the caller writes the text and closes it. */
void mp_svg_text_at(struct mp_buf *b, const char *attrs, double x, double y)
{
	mp_buf_printf(b, "<text %s x=\"", attrs);
	mp_svg_coord(b, x);
	mp_buf_puts(b, "\" y=\"");
	mp_svg_coord(b, y);
	mp_buf_puts(b, "\">");
}

/* Grid lines and labels along x (below the plot) or y (left of it). */
void mp_svg_ticks(struct mp_buf *b, const struct mp_curve *c, const struct axis *a, bool is_x)
{
	for (int k = 0; tick(a, k) <= a->hi + (a->hi - a->lo) * 1e-9; k++) {
		double v = tick(a, k), at = is_x ? mp_svg_x(a, v) : mp_svg_y(a, v);

		if (is_x) {
			mp_svg_line(b, "stroke=\"#ddd\"", at, SVG_TOP, at, SVG_TOP + SVG_PLOT_H);
			mp_svg_text_at(b, "text-anchor=\"middle\"", at, SVG_TOP + SVG_PLOT_H + 16);
		} else {
			mp_svg_line(b, "stroke=\"#ddd\"", SVG_LEFT, at, SVG_LEFT + SVG_PLOT_W, at);
			mp_svg_text_at(b, "text-anchor=\"end\"", SVG_LEFT - 6, at + 4);
		}
		put_tick_label(b, c, a, v, is_x);
		mp_buf_puts(b, "</text>\n");
	}
}

