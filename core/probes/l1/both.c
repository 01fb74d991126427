/* SPDX-License-Identifier: MIT */
/*
 * The gap test and X-Ray on one compact-set tester, and what their two
 * answers make: shared by the L1 data cache (probe "l1", loads) and the
 * L1 instruction cache (probe "icache", fetches of code blocks).
 */
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/probes/l1/l1.h"

int64_t mp_l1_agreed(int64_t x, int64_t g)
{
	return x == g ? x : MP_NA;
}

void mp_l1_record(struct mp_ctx *c, enum mp_kind type, const struct mp_l1_found *x,
		  const struct mp_l1_found *g, double hit)
{
	struct mp_cache *l1 = mp_result_find_cache(c->r, 1, type);

	if (!l1 && (l1 = mp_result_add_cache(c->r)) != NULL) {
		l1->level = 1;
		l1->type = type;
	}
	if (!l1)
		return;
	l1->size_bytes = mp_l1_agreed(x->size, g->size);
	l1->ways = mp_l1_agreed(x->ways, g->ways);
	l1->line_bytes = mp_l1_agreed(x->line, g->line);
	l1->latency_cycles = mp_ticks_to_cycles(c->p, hit);
	l1->latency_ns = mp_ticks_to_ns(c->p, hit);
	l1->method = MP_METHOD_TIMING;
}

/*
 * X-Ray's ways were grown over time before it checked them (xray.c); the
 * gap test's grow here where they are not X-Ray's (the same series else),
 * and where they grew its line is found again: G(A + 1, way, o) with A
 * short fits at any o (the guest's gap test gave 16 B for 64 so).
 */
static int gap_over_time(struct mp_compact_set *s, const struct mp_l1_found *x,
			 struct mp_l1_found *g)
{
	uint64_t way, ways;

	if (g->size == MP_NA || g->ways <= 0 || (g->size == x->size && g->ways == x->ways))
		return 0;
	way = (uint64_t)(g->size / g->ways);
	ways = mp_l1_grow(s, way, (uint64_t)g->ways);
	if (ways == (uint64_t)g->ways)
		return 0;
	g->grown = (int64_t)ways - g->ways;
	g->ways = (int64_t)ways;
	g->size = (int64_t)(ways * way);
	g->line = MP_NA;
	return mp_l1_gap_line(s, g);
}

/* Did the ways of f grow over time and stand? */
static bool grew(const struct mp_l1_found *f)
{
	return f->grown && f->ways != MP_NA;
}

/*
 * A note where the ways grew over time and stood: the core was shared
 * while the sets were timed.  (Where X-Ray's grew and its check then
 * failed, it named "-2 ways at first and -1 after rests".)
 */
static void note_grown(struct mp_ctx *c, const char *what, const struct mp_l1_found *x,
		       const struct mp_l1_found *g)
{
	const struct mp_l1_found *f = grew(x) ? x : g;
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	if (!grew(f))
		return;
	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "%s: %s found %d ways at first and %d after rests: a thread sharing "
		      "the core held ways of every set meanwhile", what,
		      f == x ? "X-Ray" : "the gap test", (int)(f->ways - f->grown), (int)f->ways);
	mp_result_add_note(c->r, text);
}

int mp_l1_measure(struct mp_ctx *c, struct mp_compact_set *s, const char *what,
		  struct mp_l1_found *x, struct mp_l1_found *g, const char **why)
{
	mp_progress(c->p, what, 0, 3);
	if (mp_compact_set_baseline(s) != MP_OK)
		return *why = "the platform could not run the baseline", -1;
	s->l1_ticks = s->base_ticks;
	mp_progress(c->p, what, 1, 3);
	if (mp_l1_gap(s, g) < 0)
		return *why = "the platform failed a gap-test run", -1;
	mp_progress(c->p, what, 2, 3);
	if (mp_l1_xray(s, x) < 0)
		return *why = "the platform failed an X-Ray run", -1;
	if (gap_over_time(s, x, g) < 0 || mp_l1_lines_over_time(s, x, g) < 0)
		return *why = "the platform failed a line run", -1;
	note_grown(c, what, x, g);
	mp_progress(c->p, what, 3, 3);
	return 0;
}

static void put_value(struct mp_buf *b, int64_t v, bool size, const char *unit)
{
	if (v == MP_NA)
		mp_buf_puts(b, "-");
	else if (size)
		mp_buf_size(b, (uint64_t)v);
	else
		mp_buf_i64(b, v);
	mp_buf_puts(b, unit);
}

static void put_found(struct mp_buf *b, const char *who, const struct mp_l1_found *f)
{
	mp_buf_printf(b, "%s ", who);
	put_value(b, f->size, true, " ");
	put_value(b, f->ways, false, "-way ");
	put_value(b, f->line, false, " B");
}

bool mp_l1_message(char *text, size_t n, const char *cache, const struct mp_l1_found *x,
		   const struct mp_l1_found *g)
{
	bool agree = x->size == g->size && x->ways == g->ways && x->line == g->line &&
		     x->size != MP_NA;
	struct mp_buf b;

	mp_buf_init(&b, text, n);
	if (agree)
		mp_buf_puts(&b, "gap test and X-Ray agree: ");
	else
		mp_buf_printf(&b, "%s: gap test and X-Ray disagree: ", cache);
	put_found(&b, "X-Ray", x);
	if (!agree) {
		mp_buf_puts(&b, "; ");
		put_found(&b, "gap", g);
	}
	if (x->why || g->why)
		mp_buf_printf(&b, " (%s)", x->why ? x->why : g->why);
	return agree;
}
