/* SPDX-License-Identifier: MIT */
/*
 * The policy probe: write allocation and replacement policy of every cache
 * level the other probes have measured (sizes and ways from "l1" and
 * "compact", latencies from "levels").
 *
 * Write allocation (AMP 3.4, by timing instead of miss counters): flush a
 * region that fits the level (and is four times the level above, so that
 * most of it can only be found here), store to every line of it, then
 * time one pass of loads over it.  Hits at this level mean the stores
 * allocated lines here.  Each level is tested on its own (AMP assumed
 * every level below a write-allocating one allocates too).
 *
 * Replacement: core/probes/policy/replacement.c.
 */
#include "core/lib/buf.h"
#include "core/lib/fmath.h"
#include "core/measure/timing.h"
#include "core/probes/policy/policy.h"
#include "core/probes/probes.h"
#include "core/seq/refstring.h"

/* Passes of the write test; the minimum is kept (AMP 2.2: the minimum of 8 measurements). */
#define WRITE_REPEATS 8u
/* The write region: this many times the level above, at most half the level. */
#define WRITE_ABOVE_FACTOR 4u
/* Byte offset of the stores in each line: the next word after the chase's pointer. */
#define STORE_WORD 8u

enum mp_status mp_policy_flush(struct pol_ctx *p, uint8_t *at, uint64_t bytes, uint64_t line)
{
	struct mp_platform *pf = p->c->p;
	enum mp_status st = MP_OK;

	for (uint64_t off = 0; off < bytes && st == MP_OK; off += line)
		st = pf->ops->flush_line(pf, at + off);
	return st == MP_UNSUPPORTED ? pf->ops->flush_all(pf) : st;
}

static uint64_t write_region(const struct pol_level *lv, int32_t i)
{
	uint64_t half = lv[i].size / 2, r = i ? WRITE_ABOVE_FACTOR * lv[i - 1].size : half;

	r = r < half ? r : half;
	return r - r % lv[i].line;
}

/* One pass: flush, store to every line, time the loads. */
static enum mp_status write_pass(struct pol_ctx *p, void *start, uint64_t bytes, uint64_t line,
				 double *ticks)
{
	uint64_t n = bytes / line;
	struct mp_run store = {
		.op = MP_OP_STORE_SWEEP, .start = p->m->base + STORE_WORD, .stride = line,
		.count = n, .steps = n, .region = "policy-write",
	};
	struct mp_chase ch = { .cursor = start, .length = n, .region = "policy-write" };
	struct mp_sample s;
	uint64_t t;
	enum mp_status st = mp_policy_flush(p, p->m->base, bytes, line);

	if (st == MP_OK)
		st = mp_run(p->c->p, &store, &s);
	if (st == MP_OK)
		st = mp_chase_window(p->c, &ch, n, &t);
	*ticks = st == MP_OK ? (double)t / (double)n : 0;
	return st;
}

static void note_level(struct mp_ctx *c, int32_t level, const char *what)
{
	char text[MP_NOTE_LEN];

	mp_snprintf(text, sizeof(text), "policy L%d: %s", (int)level, what);
	mp_result_add_note(c->r, text);
}

enum mp_tristate mp_policy_allocation(double t, double hit, double next)
{
	double f = mp_log2(t / hit) / mp_log2(next / hit);

	return f < MP_WRITE_BLEND ? MP_YES : f > 1.0 - MP_WRITE_BLEND ? MP_NO : MP_UNKNOWN;
}

/* Did the stores allocate lines at level i?  MP_UNKNOWN where the reads say neither. */
static enum mp_tristate write_allocates(struct pol_ctx *p, const struct pol_level *lv, int32_t i)
{
	uint64_t bytes = write_region(lv, i);
	double best = 1e300, t;
	enum mp_tristate a;
	void *start;

	if (bytes < lv[i].line || bytes > p->m->bytes || !(lv[i].next > lv[i].hit))
		return MP_UNKNOWN;
	start = mp_ref_ck(p->m->base, bytes, bytes, lv[i].line, &p->g);
	for (unsigned k = 0; k < WRITE_REPEATS; k++) {
		if (write_pass(p, start, bytes, lv[i].line, &t) != MP_OK)
			return MP_UNKNOWN;
		best = t < best ? t : best;
	}
	a = mp_policy_allocation(best, lv[i].hit, lv[i].next);
	if (a == MP_UNKNOWN)
		note_level(p->c, lv[i].level, "write allocation not told: the reads after the "
					      "stores ran between its hit time and the next "
					      "level's");
	return a;
}

static double ticks_of(const struct mp_platform *pf, double ns)
{
	return ns * (double)pf->tick_hz / 1e9;
}

static struct mp_cache *cache_at(struct mp_result *r, int32_t level)
{
	struct mp_cache *c = mp_result_find_cache(r, level, level == 1 ? MP_KIND_DATA
								    : MP_KIND_UNIFIED);

	return c ? c : mp_result_find_cache(r, level, MP_KIND_DATA);
}

/* The hit time of the level below `level`: the next measured level's, else memory's. */
static double next_hit(struct mp_ctx *c, int32_t level)
{
	for (int32_t l = level + 1; l <= MP_MAX_CACHES; l++) {
		struct mp_cache *rec = cache_at(c->r, l);

		if (rec && !mp_is_na(rec->latency_ns))
			return ticks_of(c->p, rec->latency_ns);
	}
	return ticks_of(c->p, c->r->memory.latency_ns);
}

static bool whole(const struct mp_cache *c)
{
	return c && c->size_bytes > 0 && c->line_bytes > 0 && c->ways > 0;
}

/*
 * Size, line and ways of a level: as "l1" and "compact" measured them, else
 * as documented (noted: the experiments then rest on the documentation's
 * sets, though what they find is measured); false when neither has them.
 */
static bool geometry(struct mp_ctx *c, const struct mp_cache *rec, struct pol_level *l)
{
	const struct mp_cache *g = whole(rec) ? rec : mp_result_documented_cache(c->r, l->level);

	if (!whole(g))
		return false;
	if (g != rec)
		note_level(c, l->level, "sets and ways as documented (not measured here)");
	l->size = (uint64_t)g->size_bytes;
	l->line = (uint64_t)g->line_bytes;
	l->ways = (uint64_t)g->ways;
	l->way_bytes = l->size / l->ways;
	return true;
}

/* The levels as measured so far; stops at the first level missing what the tests need. */
static int32_t gather(struct mp_ctx *c, struct pol_level *lv)
{
	int32_t n = 0;

	for (int32_t level = 1; level <= MP_MAX_CACHES; level++) {
		struct mp_cache *rec = cache_at(c->r, level);

		if (!rec || mp_is_na(rec->latency_ns))
			break;
		lv[n] = (struct pol_level){
			.level = level, .hit = ticks_of(c->p, rec->latency_ns),
			.next = next_hit(c, level), .rec = rec,
			.exclusive = rec->inclusion == MP_INCL_EXCLUSIVE,
		};
		if (!geometry(c, rec, &lv[n]))
			break;
		n++;
	}
	return n;
}

/* Memory for the largest experiment. */
static uint64_t need(const struct pol_level *lv, int32_t n)
{
	uint64_t big = 0;

	for (int32_t i = 0; i < n; i++) {
		uint64_t repl = (2 * lv[i].ways + 2) * lv[i].way_bytes;
		uint64_t over = mp_policy_holds(lv, i) + mp_policy_holds(lv, i) / 4;

		big = repl > big ? repl : big;
		big = over > big ? over : big;
	}
	return big;
}

static void one_level(struct pol_ctx *p, struct pol_level *lv, int32_t i)
{
	struct mp_cache *rec = lv[i].rec;
	const char *why;

	mp_progress(p->c->p, "policy", (uint64_t)i, (uint64_t)i + 1);
	rec->write_allocate = write_allocates(p, lv, i);
	if (rec->method == MP_METHOD_EVSETS) {
		note_level(p->c, lv[i].level, "sets not reachable by strides (its geometry came "
					      "from eviction sets: a hashed index or scattered "
					      "frames): replacement not measured");
		return;
	}
	rec->replacement = mp_policy_replacement(p, lv, i, &why);
	if (lv[i].way_bytes > p->m->frame_bytes && !p->m->contiguous)
		note_level(p->c, lv[i].level, "sets not reachable one by one (frames not "
					      "contiguous over a way): only random or not");
	else if (i > 0 && lv[i].way_bytes <= lv[i - 1].way_bytes)
		note_level(p->c, lv[i].level, "sets not reachable one by one (its way is not "
					      "larger than the one above): only random or not");
	if (rec->replacement == MP_REPL_UNKNOWN)
		note_level(p->c, lv[i].level, why ? why : "replacement policy could not be told");
}

void mp_probe_policy(struct mp_ctx *c)
{
	static struct pol_level lv[MP_MAX_CACHES];
	int32_t n = gather(c, lv);
	uint64_t bytes = need(lv, n);
	struct pol_ctx p = { .c = c };
	struct mp_mem m;

	if (n == 0) {
		mp_probe_unsupported(c, "needs the sizes, ways and latencies of l1, levels and "
				     "compact");
		return;
	}
	bytes = bytes < c->cfg->arena_bytes ? bytes : c->cfg->arena_bytes;
	if (mp_probe_alloc_contig(c, bytes, &m) != MP_OK)
		return;
	p.m = &m;
	mp_rng_seed(&p.g, c->cfg->seed);
	for (int32_t i = 0; i < n; i++)
		one_level(&p, lv, i);
	c->p->ops->mem_free(c->p, &m);
	mp_snprintf(c->self->message, sizeof(c->self->message), "%d levels", (int)n);
}
