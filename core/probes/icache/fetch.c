/* SPDX-License-Identifier: MIT */
/*
 * The levels as instruction fetches see them: Cooper-Xu's multi-level test
 * (core/measure/footprint.c) run on straight-line code (AMP 3.8): each row
 * of C(k) is one block of FETCH_ROW bytes run straight through, the rows in
 * shuffled order.  What a line costs is the rate at which a level delivers
 * code.  docs/algorithms.md, "Instruction caches".
 */
#include "core/lib/buf.h"
#include "core/measure/footprint.h"
#include "core/probes/icache/icache.h"

/* Bytes of straight-line code per row, and the rows the sweep starts at. */
#define FETCH_ROW 1024u
#define FETCH_FIRST_ROWS 4u
/*
 * The sweep ends at FETCH_TOP_FACTOR times the documented level-2 cache
 * that serves instructions, at least FETCH_TOP_MIN, FETCH_TOP_DEFAULT when
 * nothing is documented; at most half the arena and what one code string
 * may hold.
 */
#define FETCH_TOP_FACTOR 4u
#define FETCH_TOP_MIN (1ull << 20)
#define FETCH_TOP_DEFAULT (4ull << 20)
/* Time bound of the sweep. */
#define FETCH_BUDGET_S 2.0

uint64_t mp_icache_fetch_top(const struct mp_ctx *c)
{
	const struct mp_cache *l2 = mp_result_documented_side(c->r, 2, MP_KIND_INSTRUCTION);
	uint64_t top = FETCH_TOP_DEFAULT, most = (uint64_t)MP_LINK_MAX_BLOCKS * FETCH_ROW;

	if (l2 && l2->size_bytes > 0)
		top = (uint64_t)l2->size_bytes * FETCH_TOP_FACTOR;
	top = top > FETCH_TOP_MIN ? top : FETCH_TOP_MIN;
	top = top < most ? top : most;
	return top < c->cfg->arena_bytes / 2 ? top : c->cfg->arena_bytes / 2;
}

/* Ticks per block of a row, as the cost of one line. */
static double per_line(const struct mp_ctx *c, double ticks)
{
	return ticks * (double)mp_footprint_l1_line_of(c->r, MP_KIND_INSTRUCTION) / FETCH_ROW;
}

static void record_curve(struct mp_ctx *c, const struct mp_ck *k)
{
	struct mp_curve *cv = mp_result_add_curve(c->r, "fetch", "bytes", mp_probe_time_unit(c));

	for (uint32_t i = 0; cv && i < k->n; i++)
		mp_curve_add_point(cv, (double)k->bytes[i], mp_probe_time(c, per_line(c, k->ticks[i])));
}

/*
 * A step of the sweep is the L1I's when its capacity is within this
 * fraction of the L1I's measured size.
 */
#define FETCH_L1I_REL 0.25

static void record_level(struct mp_ctx *c, int32_t level, int64_t eff, double ticks)
{
	struct mp_fetch_level *f = mp_result_add_fetch(c->r);

	if (!f)
		return;
	f->level = level;
	f->effective_size_bytes = eff;
	mp_footprint_latency(c->p, per_line(c, ticks), &f->line_cycles, &f->line_ns);
}

static bool near_l1i(int64_t size, uint64_t eff)
{
	return size > 0 && (double)eff >= (double)size * (1.0 - FETCH_L1I_REL) &&
	       (double)eff <= (double)size * (1.0 + FETCH_L1I_REL);
}

/* A faster level below the L1I: what a decoded-op cache or loop buffer holds of this code. */
static void note_front_end(struct mp_ctx *c, uint64_t eff, double ticks, int64_t size)
{
	char text[MP_NOTE_LEN];
	struct mp_buf b;
	double cycles, ns;

	mp_footprint_latency(c->p, per_line(c, ticks), &cycles, &ns);
	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "icache: straight-line code ran at %.1f cycles a line up to ", cycles);
	mp_buf_size(&b, eff);
	mp_buf_puts(&b, ", below the L1I's ");
	mp_buf_size(&b, (uint64_t)size);
	mp_buf_puts(&b, ": a decoded-op cache's or loop buffer's capacity for this code, not a "
		    "cache level");
	mp_result_add_note(c->r, text);
}

/*
 * Every plateau below a transition is a level with an effective capacity;
 * the last, how far.  Where fetches meet an L1I, the levels are numbered
 * from the step at its measured size, which gives the L1I's effective
 * capacity; faster steps below it are noted, not numbered; without that
 * step (or the size) no level is numbered.
 */
static int32_t record_levels(struct mp_ctx *c, struct mp_mem *m, const struct mp_ck *k,
			     int32_t first)
{
	int32_t n = k->steps.nsteps, level = MP_NA, levels = 0;
	struct mp_cache *l1i = first == 1 ? mp_result_find_cache(c->r, 1, MP_KIND_INSTRUCTION) : NULL;
	int64_t size = l1i && l1i->size_bytes > 0 ? l1i->size_bytes : MP_NA;  /* where fetches meet it */

	if (first > 1)
		level = first;
	for (int32_t i = 0; i < n; i++) {
		double ticks = k->steps.plateau[i].upper;
		uint64_t eff;

		if (mp_footprint_refine(c, m, k, i, &eff) != MP_OK)
			return -1;
		if (level == MP_NA && near_l1i(size, eff)) {
			level = 1;
			l1i->effective_size_bytes = (int64_t)eff;
		} else if (level == MP_NA && size > 0 && (int64_t)eff < size) {
			note_front_end(c, eff, ticks, size);
			continue;
		}
		record_level(c, level, (int64_t)eff, ticks);
		level = level == MP_NA ? MP_NA : level + 1;
		levels++;
	}
	if (level == MP_NA && first == 1)
		mp_result_add_note(c->r, size > 0 ? "icache: the fetch levels are not numbered: no "
				   "step of the straight-line sweep is at the L1I's measured size" :
				   "icache: the fetch levels are not numbered: the L1I's size was not "
				   "measured (a decoded-op cache's step may come first)");
	record_level(c, level, MP_NA, k->steps.plateau[n].upper);
	return levels;
}

int32_t mp_icache_fetch_levels(struct mp_ctx *c, struct mp_mem *m, int32_t first)
{
	static struct mp_ck k;

	k = (struct mp_ck){
		.lo = FETCH_FIRST_ROWS * FETCH_ROW, .hi = mp_icache_fetch_top(c),
		.line = FETCH_ROW, .fine_line = FETCH_ROW, .row = FETCH_ROW,
		.budget_s = FETCH_BUDGET_S, .code_row = FETCH_ROW,
	};
	if (mp_footprint_sweep(c, m, "fetch", &k) != MP_OK)
		return -1;
	record_curve(c, &k);
	return record_levels(c, m, &k, first);
}
