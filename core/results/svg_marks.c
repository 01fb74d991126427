/* SPDX-License-Identifier: MIT */
/*
 * The vertical marks on a plot (core/results/svg_int.h): where the measured
 * cache levels end (the physical size, else the effective one) and where
 * the documented sizes are, on a curve over bytes; the data TLBs of the
 * curve's page size, in entries, on a curve over pages.  Measured marks are
 * solid and labelled on their right, documented ones dashed and labelled on
 * their left, so that equal values stay readable.
 */
#include "core/lib/str.h"
#include "core/results/plot.h"
#include "core/results/svg_int.h"

#define MAX_MARKS (2 * (MP_MAX_CACHES + MP_MAX_TLBS))

struct mark {
	double x;
	char label[32];
	bool documented;
};

/* A base page when a TLB curve's name gives no other: "tlb" 4K, "tlb-2M" 2M. */
#define BASE_PAGE_BYTES 4096

static int64_t curve_page(const struct mp_curve *c)
{
	const char *dash = NULL;
	uint64_t v;

	for (const char *s = c->name; *s; s++)
		if (*s == '-')
			dash = s;
	if (dash && mp_parse_size(dash + 1, mp_strlen(dash + 1), &v))
		return (int64_t)v;
	return BASE_PAGE_BYTES;
}

static int add_mark(struct mark *m, int n, int64_t x, int32_t level, bool size,
		    const char *tail, bool documented)
{
	struct mp_buf b;

	if (n >= MAX_MARKS || x <= 0)
		return n;
	m[n].x = (double)x;
	m[n].documented = documented;
	mp_buf_init(&b, m[n].label, sizeof(m[n].label));
	mp_buf_printf(&b, "L%d ", (int)level);
	if (size)
		mp_buf_size(&b, (uint64_t)x);
	else
		mp_buf_i64(&b, x);
	mp_buf_puts(&b, tail);
	return n + 1;
}

/* Where the data and unified caches end: measured (physical, else effective size) and documented. */
static int cache_marks(const struct mp_result *r, struct mark *m)
{
	const struct mp_documented *d = &r->documented;
	int n = 0;

	for (int32_t i = 0; i < mp_count(r->ncaches, MP_MAX_CACHES); i++) {
		const struct mp_cache *c = &r->caches[i];
		int64_t x = c->size_bytes > 0 ? c->size_bytes : c->effective_size_bytes;

		if (c->type != MP_KIND_INSTRUCTION)
			n = add_mark(m, n, x, c->level, true, c->size_bytes > 0 ? "" : " eff", false);
	}
	for (int32_t i = 0; i < mp_count(d->ncaches, MP_MAX_CACHES); i++)
		if (d->caches[i].type != MP_KIND_INSTRUCTION)
			n = add_mark(m, n, d->caches[i].size_bytes, d->caches[i].level, true,
				     " doc", true);
	return n;
}

/* Where the data TLBs of the curve's page size end, in pages. */
static int tlb_marks(const struct mp_result *r, const struct mp_curve *c, struct mark *m)
{
	const struct mp_documented *d = &r->documented;
	int64_t page = curve_page(c);
	int n = 0;

	for (int32_t i = 0; i < mp_count(r->ntlbs, MP_MAX_TLBS); i++) {
		const struct mp_tlb *t = &r->tlbs[i];

		if (t->type != MP_KIND_INSTRUCTION && t->page_bytes == page)
			n = add_mark(m, n, t->entries, t->level, false, "", false);
	}
	for (int32_t i = 0; i < mp_count(d->ntlbs, MP_MAX_TLBS); i++) {
		const struct mp_tlb *t = &d->tlbs[i];

		if (t->type != MP_KIND_INSTRUCTION && t->page_bytes == page)
			n = add_mark(m, n, t->entries, t->level, false, " doc", true);
	}
	return n;
}

static void draw_mark(struct mp_buf *b, const struct mark *m, const struct axis *x)
{
	const char *colour = m->documented ? SVG_DOCUMENTED_COLOUR : SVG_MEASURED_COLOUR;
	double at = mp_svg_x(x, m->x), label_x = m->documented ? at - 11 : at + 3;
	char attrs[160];

	mp_snprintf(attrs, sizeof(attrs), "class=\"%s\" stroke=\"%s\"%s",
		    m->documented ? "documented" : "measured", colour,
		    m->documented ? " stroke-dasharray=\"6 4\"" : "");
	mp_svg_line(b, attrs, at, SVG_TOP, at, SVG_TOP + SVG_PLOT_H);
	mp_snprintf(attrs, sizeof(attrs),
		    "fill=\"%s\" font-size=\"10\" transform=\"rotate(90 %.2f %d)\"", colour, label_x,
		    SVG_TOP + 4);
	mp_svg_text_at(b, attrs, label_x, SVG_TOP + 4);
	mp_markup_text(b, m->label);
	mp_buf_puts(b, "</text>\n");
}

void mp_svg_marks(struct mp_buf *b, const struct mp_result *r, const struct mp_curve *c,
		  const struct axis *x)
{
	struct mark m[MAX_MARKS];
	int n = 0;

	if (mp_strcmp(c->x_unit, "bytes") == 0)
		n = cache_marks(r, m);
	else if (mp_strcmp(c->x_unit, "pages") == 0)
		n = tlb_marks(r, c, m);
	for (int i = 0; i < n; i++)
		if (mp_svg_usable(x, m[i].x) && m[i].x >= x->lo && m[i].x <= x->hi)
			draw_mark(b, &m[i], x);
}
