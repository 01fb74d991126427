/* SPDX-License-Identifier: MIT */
/*
 * The response curves as CSV (RFC 4180): a header, then one row per point,
 * `curve,x,y,x_unit,y_unit`.  A value not available is an empty field.
 */
#include "core/results/writers.h"

#define CSV_DECIMALS 3

/* A text field, quoted when it holds a comma, a quote or a line break. */
static void put_field(struct mp_buf *b, const char *s, size_t n)
{
	bool quote = false;

	for (size_t i = 0; i < n && s[i]; i++)
		quote |= s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
	if (quote)
		mp_buf_putc(b, '"');
	for (size_t i = 0; i < n && s[i]; i++) {
		if (s[i] == '"')
			mp_buf_putc(b, '"');
		mp_buf_putc(b, s[i]);
	}
	if (quote)
		mp_buf_putc(b, '"');
}

static void put_number(struct mp_buf *b, double v)
{
	if (__builtin_isfinite(v))
		mp_buf_double(b, v, CSV_DECIMALS);
}

static void put_point(struct mp_buf *b, const struct mp_curve *c, int32_t i)
{
	put_field(b, c->name, sizeof(c->name));
	mp_buf_putc(b, ',');
	put_number(b, c->x[i]);
	mp_buf_putc(b, ',');
	put_number(b, c->y[i]);
	mp_buf_putc(b, ',');
	put_field(b, c->x_unit, sizeof(c->x_unit));
	mp_buf_putc(b, ',');
	put_field(b, c->y_unit, sizeof(c->y_unit));
	mp_buf_putc(b, '\n');
}

void mp_write_csv(struct mp_buf *b, const struct mp_result *r)
{
	mp_buf_puts(b, "curve,x,y,x_unit,y_unit\n");
	for (int32_t k = 0; k < mp_count(r->ncurves, MP_MAX_CURVES); k++) {
		const struct mp_curve *c = &r->curves[k];

		for (int32_t i = 0; i < mp_count(c->npoints, MP_MAX_POINTS); i++)
			put_point(b, c, i);
	}
}
