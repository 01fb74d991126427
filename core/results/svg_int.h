/* SPDX-License-Identifier: MIT */
/*
 * Internal to the SVG plots (core/results/svg*.c): the plot's geometry, its
 * two axes, and the drawing helpers the parts share.
 */
#ifndef MEMPROBE_CORE_RESULTS_SVG_INT_H
#define MEMPROBE_CORE_RESULTS_SVG_INT_H

#include <stdbool.h>

#include "core/lib/buf.h"
#include "core/results/result.h"

/* The picture, and the plot area inside its margins, in SVG user units. */
#define SVG_WIDTH 720
#define SVG_HEIGHT 380
#define SVG_LEFT 80
#define SVG_RIGHT 24
#define SVG_TOP 40
#define SVG_BOTTOM 60
#define SVG_PLOT_W (SVG_WIDTH - SVG_LEFT - SVG_RIGHT)
#define SVG_PLOT_H (SVG_HEIGHT - SVG_TOP - SVG_BOTTOM)
#define SVG_COORD_DECIMALS 2

/* Tableau 10's blue for the curve, red for what was measured, green for what is documented. */
#define SVG_CURVE_COLOUR "#1f77b4"
#define SVG_MEASURED_COLOUR "#d62728"
#define SVG_DOCUMENTED_COLOUR "#2ca02c"

/* An axis of the plot. */
struct axis {
	double lo, hi;               /* the values at the plot's edges */
	double step;                 /* between ticks: a value, or a power of two on a log axis */
	bool log;
};

/* The axes of curve c: x on a log2 scale when it spans a wide range (svg_axes.c). */
void mp_svg_axes(const struct mp_curve *c, struct axis *x, struct axis *y);

/* Where value v is drawn along x or y; whether it can be drawn at all. */
double mp_svg_x(const struct axis *a, double v);
double mp_svg_y(const struct axis *a, double v);
bool mp_svg_usable(const struct axis *a, double v);

/* A coordinate with SVG_COORD_DECIMALS digits. */
void mp_svg_coord(struct mp_buf *b, double v);

/* <line> from (x1, y1) to (x2, y2) with these attributes. */
void mp_svg_line(struct mp_buf *b, const char *attrs, double x1, double y1, double x2, double y2);

/* Opens a <text> at (x, y); the caller writes the text and closes it. */
void mp_svg_text_at(struct mp_buf *b, const char *attrs, double x, double y);

/* Grid lines and tick labels along x (below the plot) or y (left of it). */
void mp_svg_ticks(struct mp_buf *b, const struct mp_curve *c, const struct axis *a, bool is_x);

/* Where the measured levels end and the documented sizes are (svg_marks.c). */
void mp_svg_marks(struct mp_buf *b, const struct mp_result *r, const struct mp_curve *c,
		  const struct axis *x);

#endif
