/* SPDX-License-Identifier: MIT */
/*
 * The core-to-core matrix as a heat map (core/results/plot.h): one square
 * per pair of CPUs, both ways round, its colour from light (the fastest
 * pair) to dark (the slowest) on ColorBrewer's "Oranges" ramp, on a log scale, its value
 * written in it when the square is large enough; the diagonal grey, a pair
 * not measured white.  Every square carries data-a, data-b and
 * data-latency, and a <title> for the pointer.
 */
#include "core/lib/fmath.h"
#include "core/lib/str.h"
#include "core/results/plot.h"
#include "core/results/svg_int.h"

/* The matrix's place: margins for the CPU numbers, squares of at most HEAT_CELL. */
#define HEAT_LEFT 60
#define HEAT_TOP 60
#define HEAT_AREA 640
#define HEAT_CELL 40
/* A square this large or more shows its value. */
#define HEAT_LABEL_CELL 30
#define HEAT_MAX_CPUS (2 * MP_MAX_PAIRS)

/* ColorBrewer "Oranges" (9 classes): its lightest and its darkest. */
static const int light[3] = { 0xff, 0xf5, 0xeb }, dark[3] = { 0x7f, 0x27, 0x04 };

/*
 * On a log scale: latencies span two orders of magnitude (an SMT sibling's
 * L1 against another package's memory), and on a linear ramp everything
 * below the slowest pairs looks alike.
 */
static void colour(struct mp_buf *b, double v, double lo, double hi)
{
	double f = hi > lo && lo > 0 ? mp_log2(v / lo) / mp_log2(hi / lo) : 0.5;

	mp_buf_putc(b, '#');
	for (int k = 0; k < 3; k++)
		mp_buf_printf(b, "%02x", (unsigned)(light[k] + f * (dark[k] - light[k]) + 0.5));
}

static void range(const struct mp_c2c *c, double *lo, double *hi)
{
	*lo = *hi = mp_na_double();
	for (int32_t i = 0; i < mp_count(c->npairs, MP_MAX_PAIRS); i++) {
		double v = c->pairs[i].latency;

		if (mp_is_na(v))
			continue;
		*lo = mp_is_na(*lo) || v < *lo ? v : *lo;
		*hi = mp_is_na(*hi) || v > *hi ? v : *hi;
	}
}

static void square(struct mp_buf *b, const struct mp_c2c *c, int32_t a, int32_t bb, double x,
		   double y, double cell, const double *lohi)
{
	double v = mp_c2c_latency(c, a, bb);

	mp_buf_printf(b, "<rect class=\"pair\" data-a=\"%d\" data-b=\"%d\" data-latency=\"",
		      (int)a, (int)bb);
	if (!mp_is_na(v))
		mp_buf_double(b, v, 3);
	mp_buf_puts(b, "\" x=\"");
	mp_svg_coord(b, x);
	mp_buf_puts(b, "\" y=\"");
	mp_svg_coord(b, y);
	mp_buf_puts(b, "\" width=\"");
	mp_svg_coord(b, cell);
	mp_buf_puts(b, "\" height=\"");
	mp_svg_coord(b, cell);
	mp_buf_puts(b, "\" stroke=\"#fff\" fill=\"");
	if (a == bb)
		mp_buf_puts(b, "#ddd");
	else if (mp_is_na(v))
		mp_buf_puts(b, "#fff");
	else
		colour(b, v, lohi[0], lohi[1]);
	mp_buf_printf(b, "\"><title>CPU %d - CPU %d: ", (int)a, (int)bb);
	if (mp_is_na(v))
		mp_buf_puts(b, "-");
	else
		mp_buf_double(b, v, 1);
	mp_buf_printf(b, " %s</title></rect>\n", c->unit);
	if (cell < HEAT_LABEL_CELL || mp_is_na(v))
		return;
	mp_svg_text_at(b, "text-anchor=\"middle\" font-size=\"10\"", x + cell / 2,
		       y + cell / 2 + 4);
	mp_buf_double(b, v, v < 100 ? 1 : 0);
	mp_buf_puts(b, "</text>\n");
}

static void numbers(struct mp_buf *b, const int32_t *cpus, int32_t n, double cell)
{
	for (int32_t i = 0; i < n; i++) {
		double mid = i * cell + cell / 2;

		mp_svg_text_at(b, "text-anchor=\"middle\" font-size=\"10\"", HEAT_LEFT + mid,
			       HEAT_TOP - 6);
		mp_buf_printf(b, "%d</text>\n", (int)cpus[i]);
		mp_svg_text_at(b, "text-anchor=\"end\" font-size=\"10\"", HEAT_LEFT - 6,
			       HEAT_TOP + mid + 4);
		mp_buf_printf(b, "%d</text>\n", (int)cpus[i]);
	}
}

void mp_heatmap_element(struct mp_buf *b, const struct mp_result *r)
{
	static int32_t cpus[HEAT_MAX_CPUS];
	const struct mp_c2c *c = &r->core_to_core;
	int32_t n = mp_c2c_cpus(c, cpus, HEAT_MAX_CPUS);
	double cell = n ? (double)HEAT_AREA / n : HEAT_CELL, lohi[2];
	int size = HEAT_LEFT + HEAT_AREA + 20;

	cell = cell > HEAT_CELL ? HEAT_CELL : cell;
	range(c, &lohi[0], &lohi[1]);
	mp_buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
			 "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		      size, size, size, size);
	mp_buf_printf(b, "<title>core to core (%s)</title>\n", c->unit);
	mp_buf_printf(b, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", size, size);
	mp_svg_text_at(b, "font-size=\"14\" font-weight=\"bold\"", HEAT_LEFT, 24);
	mp_buf_printf(b, "core to core: one-way transfer of a cache line (%s)</text>\n", c->unit);
	numbers(b, cpus, n, cell);
	mp_buf_puts(b, "<g class=\"matrix\">\n");
	for (int32_t i = 0; i < n; i++)
		for (int32_t j = 0; j < n; j++)
			square(b, c, cpus[i], cpus[j], HEAT_LEFT + j * cell, HEAT_TOP + i * cell,
			       cell, lohi);
	mp_buf_puts(b, "</g>\n</svg>\n");
}

void mp_write_heatmap(struct mp_buf *b, const struct mp_result *r)
{
	mp_buf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	mp_heatmap_element(b, r);
}
