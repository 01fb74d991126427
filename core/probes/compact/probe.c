/* SPDX-License-Identifier: MIT */
/*
 * Probe "compact": the physical capacity, associativity, line and
 * inclusion of every cache level below the L1 (core/probes/compact/compact.h), from X-Ray's
 * stride-decomposed compact sets.
 *
 * The levels are the ones the "levels" probe found (their effective
 * capacities size the search); without it, levels are looked for one after
 * another until a ladder finds nothing.  Every level needs the physical
 * geometry of all the levels above it (the L1 from the "l1" probe), and
 * physically contiguous memory over its sets: where the platform maps
 * large pages but not contiguously, strides stay within a page and a level
 * whose way is larger is left unmeasured, and said so.
 */
#include "core/lib/bits.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/measure/timing.h"
#include "core/probes/compact/compact.h"
#include "core/probes/probes.h"

/* Memory per level: the ladder's last sets reach twice the capacity
 * (A + 1 lines two ways apart), plus the groups; four times the effective
 * capacity covers that and an exclusive level's smaller physical size. */
#define COMPACT_MEM_FACTOR 4u
/* Without "levels": at most this many levels below the L1 are looked for,
 * in this much memory (the arena permitting). */
#define COMPACT_MAX_LEVELS 4
#define COMPACT_MEM_DEFAULT (256ull << 20)
/* The L1-hit chain that prices a TLB twin: 8 lines, 512 bytes. */
#define COMPACT_L1_STRIDE 64u
#define COMPACT_L1_N 8u

struct above {
	int32_t levels;                     /* measured levels, from 1 */
	struct mp_geom g[MP_MAX_CACHES + 1]; /* by level */
	uint64_t size[MP_MAX_CACHES + 1];
};

static bool known(const struct mp_cache *c)
{
	return c && c->size_bytes > 0 && c->ways > 0 && c->line_bytes > 0;
}

static bool l1_geom(struct mp_ctx *c, struct above *up)
{
	const struct mp_cache *l1 = mp_result_find_cache(c->r, 1, MP_KIND_DATA);

	if (!known(l1))
		return false;
	up->levels = 1;
	up->size[1] = (uint64_t)l1->size_bytes;
	up->g[1] = (struct mp_geom){ (uint64_t)l1->ways, (uint64_t)(l1->size_bytes / l1->ways),
				     (uint64_t)l1->line_bytes, MP_INCL_UNKNOWN };
	return true;
}

static struct mp_cache *level_rec(struct mp_result *r, int32_t level)
{
	struct mp_cache *rec = mp_result_find_cache(r, level, MP_KIND_UNIFIED);

	return rec ? rec : mp_result_find_cache(r, level, MP_KIND_DATA);
}

/* Effective capacity of a level from "levels", 0 when none. */
static uint64_t hint_of(struct mp_ctx *c, int32_t level)
{
	const struct mp_cache *rec = level_rec(c->r, level);

	return rec && rec->effective_size_bytes > 0 ? (uint64_t)rec->effective_size_bytes : 0;
}

/* How many levels below the L1 to measure; 0 means look for them. */
static int32_t lower_count(struct mp_ctx *c)
{
	int32_t n = 0;

	while (n + 2 <= MP_MAX_CACHES && hint_of(c, n + 2))
		n++;
	return n;
}

static uint64_t memory_wanted(struct mp_ctx *c, int32_t count)
{
	uint64_t want = 0, cap = c->cfg->arena_bytes;

	for (int32_t i = 2; i < 2 + count; i++) {
		uint64_t m = COMPACT_MEM_FACTOR * mp_pow2_floor(2 * hint_of(c, i) - 1);

		want = m > want ? m : want;
	}
	want = count ? want : COMPACT_MEM_DEFAULT;
	return want < cap ? want : cap;
}

static enum mp_status alloc(struct mp_ctx *c, uint64_t bytes, struct mp_mem *m)
{
	struct mp_mem_req req = {
		.bytes = bytes, .align = 4096, .page = MP_PAGE_2M, .contiguous = true,
	};
	enum mp_status st = c->p->ops->mem_alloc(c->p, &req, m);

	if (st != MP_OK)
		mp_probe_fail(c, "could not allocate memory for the compact sets");
	return st;
}

/* The levels above whose lines an exclusive level i lacks: i - 1, and on while exclusive. */
static void union_levels(const struct above *up, int32_t i, struct mp_lower *lv)
{
	lv->nunion = 0;
	lv->union_ways = 0;
	for (int32_t k = i - 1; k >= 1; k--) {
		lv->union_ways += up->g[k].ways;
		lv->uni[lv->nunion].ways = up->g[k].ways;
		lv->uni[lv->nunion++].way = up->g[k].way;
		if (k == 1 || up->g[k].incl != MP_INCL_EXCLUSIVE)
			break;
	}
}

/* The exclusive level's combined capacity: its own and the ones above it holds apart. */
static uint64_t combined(const struct above *up, int32_t i, uint64_t size)
{
	uint64_t sum = size;

	for (int32_t k = i - 1; k >= 1; k--) {
		sum += up->size[k];
		if (k == 1 || up->g[k].incl != MP_INCL_EXCLUSIVE)
			break;
	}
	return sum;
}

static void setup(struct mp_lower *lv, const struct above *up, int32_t i, uint64_t hint)
{
	uint64_t sum = 0, d = 0, most = 0;

	for (int32_t k = 1; k < i; k++) {
		sum += up->g[k].ways;
		d = up->g[k].way > d ? up->g[k].way : d;
		most = k > 1 && up->g[k].ways > most ? up->g[k].ways : most;
	}
	lv->level = i;
	lv->d = d;
	/* Many ways above (Power3's 128): one line more than they hold is
	 * enough for LRU, PLRU and FIFO, and keeps the sets within a twin. */
	lv->u = MP_COMPACT_OVERFILL * sum;
	lv->above_ways = sum;
	if (lv->u > lv->cs.twin_max / 4)
		lv->u = sum + 1 > lv->cs.twin_max / 4 ? sum + 1 : lv->cs.twin_max / 4;
	/* The baseline <D, U> must fit the level: keep it within half the hint. */
	if (hint && lv->u * d > hint / 2)
		lv->u = hint / 2 / d > sum + 1 ? hint / 2 / d : sum + 1;
	union_levels(up, i, lv);
	lv->mid_ways_max = most;
	lv->top_line = up->g[1].line;
	lv->top_ways = up->g[1].ways;
	lv->hint = hint;
	lv->cs.known = mp_ref_xray(d, lv->u);
	lv->cs.base_min = mp_na_double();
}

static bool inclusive_between(const struct above *up, int32_t i)
{
	for (int32_t k = 2; k < i; k++)
		if (up->g[k].incl == MP_INCL_INCLUSIVE)
			return true;
	return false;
}

static void record(struct mp_ctx *c, const struct above *up, int32_t i, const struct mp_lower *lv)
{
	const struct mp_geom *g = &up->g[i];
	struct mp_cache *rec = level_rec(c->r, i);

	if (!rec && (rec = mp_result_add_cache(c->r)) != NULL) {
		rec->level = i;
		rec->type = MP_KIND_UNIFIED;
	}
	if (!rec)
		return;
	rec->size_bytes = (int64_t)up->size[i];
	rec->ways = (int64_t)g->ways;
	rec->line_bytes = g->line ? (int64_t)g->line : MP_NA;
	rec->inclusion = g->incl;
	rec->method = MP_METHOD_TIMING;
	if (rec->effective_size_bytes == MP_NA)
		rec->effective_size_bytes = g->incl == MP_INCL_EXCLUSIVE
			? (int64_t)combined(up, i, up->size[i]) : (int64_t)up->size[i];
	if (mp_is_na(rec->latency_cycles) && !mp_is_na(lv->cs.base_min)) {
		rec->latency_cycles = mp_ticks_to_cycles(c->p, lv->cs.base_min);
		rec->latency_ns = mp_ticks_to_ns(c->p, lv->cs.base_min);
	}
}

static void describe(struct mp_buf *b, const struct above *up, int32_t i, const char *why)
{
	const struct mp_geom *g = &up->g[i];

	mp_buf_printf(b, "%sL%d ", b->len ? "; " : "", (int)i);
	if (!g->ways) {
		mp_buf_printf(b, "not measured: %s", why ? why : "?");
		return;
	}
	mp_buf_size(b, up->size[i]);
	mp_buf_printf(b, " %llu-way", (unsigned long long)g->ways);
	if (g->line)
		mp_buf_printf(b, " %llu B", (unsigned long long)g->line);
	if (g->incl != MP_INCL_UNKNOWN)
		mp_buf_printf(b, " %s", mp_inclusion_name(g->incl));
	if (why)
		mp_buf_printf(b, " (%s)", why);
}

/* A level's finding that is missing something goes into the notes too. */
static void note(struct mp_ctx *c, const struct above *up, int32_t i, const char *why)
{
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	if (!why)
		return;
	mp_buf_init(&b, text, sizeof(text));
	describe(&b, up, i, why);
	mp_result_add_note(c->r, text);
}

/*
 * Looking for levels without "levels": did the ladder find no level at all?
 * (Only in contiguous memory: elsewhere the strides stop at a page, which
 * may be why nothing spilled; such a level is reported not measured.)
 */
static bool absent(const char *why)
{
	return !why || mp_strcmp(why, mp_compact_no_level) == 0 ||
	       mp_strcmp(why, mp_compact_too_small) == 0;
}

/*
 * An exclusive level that acts as one set with the levels above: only the
 * combined capacity is known (X-Ray 5.2.2), recorded as the effective size
 * where "levels" gave none; its own size, ways and line stay unknown, and
 * so does every level below it.
 */
static int combined_only(struct mp_ctx *c, struct above *up, int32_t i)
{
	struct mp_cache *rec = level_rec(c->r, i);

	if (!rec && (rec = mp_result_add_cache(c->r)) != NULL) {
		rec->level = i;
		rec->type = MP_KIND_UNIFIED;
	}
	if (rec && rec->effective_size_bytes == MP_NA)
		rec->effective_size_bytes = (int64_t)up->size[i];
	if (rec) {
		rec->inclusion = MP_INCL_EXCLUSIVE;
		rec->method = MP_METHOD_TIMING;
	}
	up->g[i] = (struct mp_geom){ 0, 0, 0, MP_INCL_EXCLUSIVE };
	up->levels = i - 1;
	return 0;
}

/*
 * The inclusion tests; where they need more memory than the level's sets
 * (Power3: the lines that pass x must outnumber its 128-way L1 set, each a
 * way of 2 MB apart; Athlon MP: lines its own size apart count a joined
 * set's ways), once more in the whole arena.
 */
static int inclusion(struct mp_ctx *c, struct mp_lower *lv, struct above *up, int32_t i,
		     const char **why)
{
	struct mp_mem_req req = {
		.bytes = c->cfg->arena_bytes, .align = 4096, .page = MP_PAGE_2M,
		.contiguous = true,
	};
	struct mp_geom *g = &up->g[i];
	struct mp_compact_set small = lv->cs;
	struct mp_mem big;
	int st = mp_compact_inclusion(lv, g, inclusive_between(up, i), why);

	if (st < 0 || (*why != mp_compact_no_room && *why != mp_compact_combined) ||
	    req.bytes <= lv->cs.bytes ||
	    c->p->ops->mem_alloc(c->p, &req, &big) != MP_OK)
		return st;
	if (!big.contiguous) {
		c->p->ops->mem_free(c->p, &big);
		return st;
	}
	lv->cs.mem = big.base;
	lv->cs.bytes = big.bytes;
	lv->cs.page = big.page_bytes;
	*why = NULL;
	st = mp_compact_inclusion(lv, g, inclusive_between(up, i), why);
	c->p->ops->mem_free(c->p, &big);
	lv->cs.mem = small.mem;
	lv->cs.bytes = small.bytes;
	lv->cs.page = small.page;
	return st;
}

/* 1 measured, 0 not (why says why), -1 the platform failed. */
static int measure_level(struct mp_ctx *c, struct mp_mem *m, struct above *up, int32_t i,
			 double l1, const char **why)
{
	struct mp_lower lv = { .limit = m->contiguous ? m->bytes / 2 : 2 * m->frame_bytes };
	struct mp_geom *g = &up->g[i];
	int st;

	mp_compact_set_init(&lv.cs, c, m, "compact", mp_ref_xray(COMPACT_L1_STRIDE, COMPACT_L1_N));
	lv.cs.l1_ticks = l1;
	lv.cs.twin_line = up->g[1].line;
	/* A twin's lines spread evenly over the L1's sets: it fits the L1 whole. */
	lv.cs.twin_max = up->size[1] / up->g[1].line;
	setup(&lv, up, i, hint_of(c, i));
	st = mp_compact_geom(&lv, g, why);
	if (st < 0 || !g->ways)
		return st;
	up->size[i] = g->ways * g->way;
	up->levels = i;
	if (inclusion(c, &lv, up, i, why) < 0)
		return -1;
	if (*why == mp_compact_combined)
		return combined_only(c, up, i);
	up->size[i] = g->ways * g->way;
	record(c, up, i, &lv);
	return 1;
}

/* What an L1 hit costs, for the TLB twins (core/measure/compact_set.h). */
static enum mp_status l1_hit(struct mp_ctx *c, struct mp_mem *m, double *ticks)
{
	struct mp_compact_set s;

	mp_compact_set_init(&s, c, m, "compact", mp_ref_xray(COMPACT_L1_STRIDE, COMPACT_L1_N));
	for (int k = 0; k < 3; k++)
		if (mp_compact_set_baseline(&s) != MP_OK)
			return MP_EIO;
	*ticks = s.base_min;
	return MP_OK;
}

/*
 * Looking for levels, none spilled at level i: there is none, or it is
 * larger than the memory can overfill; the message says which was seen.
 */
static void not_found(struct mp_buf *msg, int32_t i, const struct mp_mem *m)
{
	mp_buf_printf(msg, "%sL%d not found in ", msg->len ? "; " : "", (int)i);
	mp_buf_size(msg, m->bytes);
	mp_buf_printf(msg, " (none, or one its sets cannot overfill: larger, or hashed)");
}

static void run(struct mp_ctx *c, struct mp_mem *m, struct above *up, int32_t count)
{
	int32_t last = count ? count + 1 : COMPACT_MAX_LEVELS + 1;
	struct mp_buf msg;
	double l1;

	mp_buf_init(&msg, c->self->message, sizeof(c->self->message));
	if (l1_hit(c, m, &l1) != MP_OK)
		return mp_probe_fail(c, "the platform could not run a chase");
	for (int32_t i = 2; i <= last; i++) {
		const char *why = NULL;
		int st;

		mp_progress(c->p, "compact", (uint64_t)(i - 2), (uint64_t)(last - 1));
		up->g[i] = (struct mp_geom){ 0, 0, 0, MP_INCL_UNKNOWN };
		st = up->levels == i - 1 ? measure_level(c, m, up, i, l1, &why) : 0;
		if (st < 0)
			return mp_probe_fail(c, "the platform failed a compact-set run");
		if (st == 0 && !count && m->contiguous && absent(why)) {
			not_found(&msg, i, m);  /* looking for levels: the first not there ends it */
			break;
		}
		if (st == 0 && !why)
			why = "the level above it was not measured";
		describe(&msg, up, i, why);
		note(c, up, i, why);
		if (st == 0 && !count)
			break;  /* looking for levels: none below one not measured */
	}
	mp_progress(c->p, "compact", (uint64_t)(last - 1), (uint64_t)(last - 1));
}

static void note_pages(struct mp_ctx *c, const struct mp_mem *m)
{
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	mp_buf_init(&b, text, sizeof(text));
	mp_buf_puts(&b, "compact: memory is not known to be physically contiguous; strides stay within one ");
	mp_buf_size(&b, m->frame_bytes);
	mp_buf_puts(&b, " frame, so only levels whose way is at most that are measured");
	mp_result_add_note(c->r, text);
}

void mp_probe_compact(struct mp_ctx *c)
{
	int32_t count = lower_count(c);
	struct above up = { 0 };
	struct mp_mem m;

	if (!l1_geom(c, &up))
		return mp_probe_unsupported(c, "needs the L1 geometry (probe l1)");
	if (alloc(c, memory_wanted(c, count), &m) != MP_OK)
		return;
	/* Lines earlier probes left behind can stay for good in a tree-PLRU
	 * set and take a way from ours: start from empty caches where the
	 * platform can (not from Linux user space). */
	c->p->ops->flush_all(c->p);
	if (!m.contiguous)
		note_pages(c, &m);
	run(c, &m, &up, count);
	c->p->ops->mem_free(c->p, &m);
}
