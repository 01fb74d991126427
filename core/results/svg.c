/* SPDX-License-Identifier: MIT */
/*
 * A response curve as an SVG plot (core/results/plot.h): a frame, ticks
 * with labels, the curve as a line (broken where a point was not
 * measured), and vertical marks where the measured levels end (solid) and
 * where the documented sizes are (dashed): the caches on a curve over
 * bytes, the TLBs of the curve's page size on one over pages.  A curve
 * spanning LOG_SPAN or more along x is drawn on a log2 scale.
 *
 * The plot group carries its mapping in data-* attributes (data-x-scale,
 * data-x-lo, data-x-hi, data-y-lo, data-y-hi, data-left, data-top,
 * data-width, data-height), so a program can turn every vertex back into
 * the point it shows (tests/results/check_plots.py does).
 */
#include <stdbool.h>

#include "core/lib/bits.h"
#include "core/lib/str.h"
#include "core/results/plot.h"
#include "core/results/svg_int.h"

void mp_markup_text(struct mp_buf *b, const char *s)
{
	static const struct {
		char c;
		const char *entity;
	} entities[] = { { '&', "&amp;" }, { '<', "&lt;" }, { '>', "&gt;" }, { '"', "&quot;" },
			 { '\'', "&#39;" } };

	for (; s && *s; s++) {
		const char *e = NULL;

		for (size_t i = 0; i < MP_COUNT_OF(entities); i++)
			if (*s == entities[i].c)
				e = entities[i].entity;
		if (e)
			mp_buf_puts(b, e);
		else if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
			mp_buf_putc(b, *s);
	}
}

/* The points as lines, a new one after each point that cannot be drawn. */
static void draw_curve(struct mp_buf *b, const struct mp_curve *c, const struct axis *x,
		       const struct axis *y)
{
	bool open = false;

	for (int32_t i = 0; i < mp_count(c->npoints, MP_MAX_POINTS); i++) {
		if (!mp_svg_usable(x, c->x[i]) || !mp_svg_usable(y, c->y[i])) {
			mp_buf_puts(b, open ? "\"/>\n" : "");
			open = false;
			continue;
		}
		mp_buf_puts(b, open ? " " : "<polyline class=\"curve\" fill=\"none\" stroke=\""
					    SVG_CURVE_COLOUR "\" stroke-width=\"2\" points=\"");
		open = true;
		mp_svg_coord(b, mp_svg_x(x, c->x[i]));
		mp_buf_putc(b, ',');
		mp_svg_coord(b, mp_svg_y(y, c->y[i]));
	}
	mp_buf_puts(b, open ? "\"/>\n" : "");
}

/* The plot group, with its mapping for programs that read the picture back. */
static void open_group(struct mp_buf *b, const struct axis *x, const struct axis *y)
{
	mp_buf_printf(b, "<g class=\"plot\" data-x-scale=\"%s\" data-x-lo=\"%.6f\" "
			 "data-x-hi=\"%.6f\" data-y-lo=\"%.6f\" data-y-hi=\"%.6f\" "
			 "data-left=\"%d\" data-top=\"%d\" data-width=\"%d\" data-height=\"%d\">\n",
		      x->log ? "log2" : "linear", x->lo, x->hi, y->lo, y->hi, SVG_LEFT, SVG_TOP, SVG_PLOT_W, SVG_PLOT_H);
}

static void labels(struct mp_buf *b, const struct mp_curve *c, const struct axis *x)
{
	mp_svg_text_at(b, "font-size=\"14\" font-weight=\"bold\"", SVG_LEFT, 24);
	mp_markup_text(b, c->name);
	mp_buf_puts(b, "</text>\n");
	mp_svg_text_at(b, "text-anchor=\"end\" font-size=\"11\"", SVG_WIDTH - SVG_RIGHT, 24);
	mp_buf_puts(b, "<tspan fill=\"" SVG_MEASURED_COLOUR "\">| measured</tspan>  <tspan fill=\""
		       SVG_DOCUMENTED_COLOUR "\">: documented</tspan></text>\n");
	mp_svg_text_at(b, "text-anchor=\"middle\"", SVG_LEFT + SVG_PLOT_W / 2, SVG_HEIGHT - 18);
	mp_markup_text(b, c->x_unit);
	mp_buf_puts(b, x->log ? " (log2 scale)</text>\n" : "</text>\n");
	mp_buf_printf(b, "<text text-anchor=\"middle\" transform=\"rotate(-90 20 %d)\" x=\"20\" "
			 "y=\"%d\">",
		      SVG_TOP + SVG_PLOT_H / 2, SVG_TOP + SVG_PLOT_H / 2);
	mp_markup_text(b, c->y_unit);
	mp_buf_puts(b, "</text>\n");
}

void mp_svg_element(struct mp_buf *b, const struct mp_result *r, int32_t i)
{
	const struct mp_curve *c = &r->curves[i];
	struct axis x, y;

	mp_svg_axes(c, &x, &y);
	mp_buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
			 "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		      SVG_WIDTH, SVG_HEIGHT, SVG_WIDTH, SVG_HEIGHT);
	mp_buf_puts(b, "<title>");
	mp_markup_text(b, c->name);
	mp_buf_puts(b, "</title>\n");
	mp_buf_printf(b, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", SVG_WIDTH, SVG_HEIGHT);
	open_group(b, &x, &y);
	mp_svg_ticks(b, c, &x, true);
	mp_svg_ticks(b, c, &y, false);
	mp_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
			 "stroke=\"#888\"/>\n", SVG_LEFT, SVG_TOP, SVG_PLOT_W, SVG_PLOT_H);
	mp_svg_marks(b, r, c, &x);
	draw_curve(b, c, &x, &y);
	mp_buf_puts(b, "</g>\n");
	labels(b, c, &x);
	mp_buf_puts(b, "</svg>\n");
}

void mp_write_svg(struct mp_buf *b, const struct mp_result *r, int32_t i)
{
	mp_buf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	mp_svg_element(b, r, i);
}

void mp_plot_name(char *out, size_t n, const struct mp_result *r, int32_t i)
{
	struct mp_buf b;

	mp_buf_init(&b, out, n);
	mp_buf_printf(&b, "plot-%02d-", (int)i + 1);
	for (const char *s = r->curves[i].name; *s; s++) {
		bool keep = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			    (*s >= '0' && *s <= '9') || *s == '-';

		mp_buf_putc(&b, keep ? *s : '-');
	}
	mp_buf_puts(&b, ".svg");
}
