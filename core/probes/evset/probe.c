/* SPDX-License-Identifier: MIT */
/*
 * Probe "evset": the physical size, ways and line of every cache level
 * below the L1 from minimal eviction sets (core/probes/evset/evset.h), for
 * the levels compact sets cannot measure: memory that is not physically
 * contiguous (Linux without huge pages, a virtual machine) or an index
 * hashed over slices.  Where compact sets measured a level in contiguous
 * memory, their values stand and these check them (a note when they
 * disagree).
 *
 * Each level is told from the next by latency: a victim that loads slower
 * than halfway between the two left the level.  The levels and latencies
 * come from the "levels" probe, the L1's from "latency" and "l1".  Where
 * "l1" recorded no geometry, the L1 is measured here first, and stands
 * only where its way spans pages (measure.c, l1_spans_pages).  This
 * file is the run: its memory, its victim, the levels in turn
 * (core/probes/evset/run.h names the others).
 */
#include "core/lib/buf.h"
#include "core/probes/evset/run.h"
#include "core/probes/probes.h"

/* The run's tables (struct run). */
static uint64_t pool[MP_EVSET_MAX_POOL], set[MP_EVSET_MAX_POOL], tail[MP_EVSET_MAX_POOL];

static double ns_to_ticks(const struct mp_platform *p, double ns)
{
	return ns * (double)p->tick_hz / 1e9;
}

static struct mp_cache *level_rec(struct mp_result *r, int32_t level)
{
	struct mp_cache *rec = mp_result_find_cache(r, level, MP_KIND_UNIFIED);

	return rec ? rec : mp_result_find_cache(r, level, MP_KIND_DATA);
}

/*
 * The latency of the first level below `level` whose latency is known
 * (memory's after the last), ticks, and that level in *at (MP_MAX_CACHES
 * + 1: memory); NaN: unknown.  A level "levels" voted a capacity for but
 * no latency is passed over: on this guest the L3's latency was unstable
 * in a full run, and the L2 was lost with it.
 */
static double latency_below(struct mp_ctx *c, int32_t level, int32_t *at)
{
	for (*at = level + 1; *at <= MP_MAX_CACHES; (*at)++) {
		const struct mp_cache *rec = level_rec(c->r, *at);

		if (rec && !mp_is_na(rec->latency_ns))
			return ns_to_ticks(c->p, rec->latency_ns);
	}
	return ns_to_ticks(c->p, c->r->memory.latency_ns);
}

/* The level's next latency and the one after it (NaN where the next is memory's). */
static void latencies_below(struct mp_ctx *c, struct level *lv)
{
	int32_t at;

	lv->next = latency_below(c, lv->level, &at);
	lv->after = at > MP_MAX_CACHES ? mp_na_double() : latency_below(c, at, &at);
}

static uint64_t most_ways(struct run *rn, int32_t level)
{
	uint64_t w = rn->l1_ways;

	for (int32_t k = 2; k < level; k++) {
		const struct mp_cache *rec = level_rec(rn->c->r, k);

		w = rec && rec->ways > (int64_t)w ? (uint64_t)rec->ways : w;
	}
	return w;
}

/* Did "levels" find the level, with its effective capacity and latency? */
static bool found_level(const struct mp_cache *rec)
{
	return rec && rec->effective_size_bytes > 0 && !mp_is_na(rec->latency_ns);
}

/*
 * A level below the L1 that the documentation has and "levels" did not
 * find: its climb lost in a shared last level's slow rise (this guest's
 * L3 in 8 full-profile rounds of 9), or a direct-mapped level on scattered
 * frames, whose colliding pages send a few kilobytes to memory (the
 * simulated P5's 256K L2).  Eviction sets need no curve: the victim's own
 * times give the threshold (calibrate.c), and the pool starts at the
 * least (grown where the full profile grows pools).
 */
static bool missed_level(struct mp_result *r, int32_t level)
{
	const struct mp_cache *d = mp_result_documented_cache(r, level);

	return level > 1 && d && d->size_bytes > 0 && !found_level(level_rec(r, level));
}

/* The level's inputs from the records; false when the latencies are not known. */
static bool level_of(struct run *rn, int32_t level, struct level *lv)
{
	const struct mp_cache *rec = level_rec(rn->c->r, level);
	bool missed = missed_level(rn->c->r, level);
	uint64_t pages = rn->usual;

	if (!found_level(rec) && !missed)
		return false;
	*lv = (struct level){ .level = level, .sharing = 1, .missed = missed,
			      .lat = missed ? mp_na_double() : ns_to_ticks(rn->c->p, rec->latency_ns),
			      .up_ways = most_ways(rn, level) };
	latencies_below(rn->c, lv);
	lv->pages = evset_pool_pages(rn, level, missed ? 0 : (uint64_t)rec->effective_size_bytes,
				     rn->m.page_bytes);
	lv->pages = lv->pages < pages ? lv->pages : pages;
	return !mp_is_na(lv->next);
}

/*
 * A level not measured whose documented size takes more pages than its
 * pool has to hold its ways' lines in every class at a page offset (size /
 * ways / page classes): a last level shared with others, of which "levels"
 * sees a small part.  Then that is why, and a note gives the figures.
 */
static void pool_short(struct run *rn, struct level *lv)
{
	const struct mp_cache *d = mp_result_documented_cache(rn->c->r, lv->level);
	uint64_t page = rn->m.page_bytes, classes, need;
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	if (lv->ways || !d || d->size_bytes <= 0 || d->ways <= 0)
		return;
	classes = (uint64_t)d->size_bytes / (uint64_t)d->ways / page;
	need = (classes ? classes : 1) * (uint64_t)d->ways;
	if (need <= lv->pages)
		return;
	lv->why = evset_pool_grows(rn->c) ?
		"its pool is too small for the documented size" :
		"its pool is too small for the documented size (the full profile grows it)";
	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "evset: L%d: a pool of %llu pages holds no eviction set of the "
			  "documented ", (int)lv->level, (unsigned long long)lv->pages);
	mp_buf_size(&b, (uint64_t)d->size_bytes);
	mp_buf_printf(&b, " %d-way level: that takes ~%llu pages (the arena has %llu)",
		      (int)d->ways, (unsigned long long)need,
		      (unsigned long long)(rn->c->cfg->arena_bytes / page));
	mp_result_add_note(rn->c->r, text);
}

static void note_missed(struct run *rn, const struct level *lv)
{
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "evset: L%d: \"levels\" did not find it; looked for where the "
		      "documentation has one, its hit time the victim's own", (int)lv->level);
	mp_result_add_note(rn->c->r, text);
}

/*
 * The level recorded (evset_settle), a record added for a missed level
 * where something of it was measured; the method, for the note.
 */
static const char *settle(struct run *rn, const struct level *lv)
{
	struct mp_cache *rec = level_rec(rn->c->r, lv->level);

	if (!rec && (lv->ways || lv->line) && (rec = mp_result_add_cache(rn->c->r)) != NULL) {
		rec->level = lv->level;
		rec->type = MP_KIND_UNIFIED;
	}
	if (!rec)
		return "\"levels\" did not find it, nor eviction sets";
	if (lv->missed)
		note_missed(rn, lv);
	return evset_settle(rn, rec, lv);
}

/* The L1's ways and way from its record: is its geometry known? */
static bool l1_geometry(struct run *rn)
{
	const struct mp_cache *l1 = mp_result_find_cache(rn->c->r, 1, MP_KIND_DATA);

	if (!l1 || l1->ways <= 0 || l1->size_bytes <= 0)
		return false;
	rn->l1_ways = (uint64_t)l1->ways;
	rn->l1_way = (uint64_t)(l1->size_bytes / l1->ways);
	return true;
}

/* The documented L1's way, its ways in *ways; 0 where nothing documents them. */
static uint64_t documented_l1_way(const struct run *rn, uint64_t *ways)
{
	const struct mp_cache *d = mp_result_documented_cache(rn->c->r, 1);

	if (!d || d->ways <= 0 || d->size_bytes < d->ways)
		return 0;
	*ways = (uint64_t)d->ways;
	return (uint64_t)(d->size_bytes / d->ways);
}

/*
 * The L1's ways and way for the levels below (their tails, its colours),
 * where its record has none: those of its minimal set found here though
 * not recorded (measure.c, l1_spans_pages), else the documentation's; a
 * note says which.  On this project's AMD EPYC guest (Zen 3) the l1 probe
 * measured no geometry beside another tenant's thread in 4 to 6 quick
 * runs of 20, eviction sets could not either in some, and the L2 went
 * unmeasured with it.  A tail takes twice the ways (run.h), so a figure
 * down to half the L1's true ways (a minimal set a thread sharing the core
 * left short, a documentation that errs) still takes the victim out of it.
 * False: none of the three.
 */
static bool l1_for_below(struct run *rn)
{
	const char *from = "its minimal set here, not recorded";
	char text[MP_NOTE_LEN];
	struct mp_buf b;
	uint64_t ways = 0, way;

	if (l1_geometry(rn))
		return true;
	if (!rn->l1_ways && (way = documented_l1_way(rn, &ways)) != 0) {
		rn->l1_ways = ways;
		rn->l1_way = way;
		from = "the documentation";
	}
	if (!rn->l1_ways)
		return false;
	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "evset: the levels below the L1 take its %llu ways and a way of ",
		      (unsigned long long)rn->l1_ways);
	mp_buf_size(&b, rn->l1_way);
	mp_buf_printf(&b, " from %s (no record has its geometry)", from);
	mp_result_add_note(rn->c->r, text);
	return true;
}

/* A level's outcome and time in the log: a full profile's level may take minutes. */
static void log_level(struct run *rn, const struct level *lv, uint64_t t0)
{
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	mp_buf_init(&b, text, sizeof(text));
	evset_describe(&b, lv);
	mp_logf(rn->c->p, MP_LOG_INFO, "evset: round %u: %s (%.1f s)", rn->c->round + 1, text,
		mp_seconds_since(rn->c->p, t0));
}

/*
 * Does the documentation give the L1 a way of a page or less?  Then its
 * lines at a page offset are of one class, which eviction sets do not
 * record (measure.c, l1_spans_pages: the l1 probe's to measure), and it
 * is not looked for: on this project's AMD EPYC guest the l1 probe
 * recorded no geometry beside another tenant's thread in 4 to 6 quick
 * runs of 20, and the search for the L1's minimal set that evset then
 * made took up to its whole time bound (3 s a round), for nothing it
 * could record.  Its ways and way for the levels below then come from
 * the documentation (l1_for_below), and the message says why.
 */
static bool l1_within_page(struct run *rn, struct mp_buf *msg)
{
	uint64_t ways, way = documented_l1_way(rn, &ways);

	if (!way || way > rn->m.page_bytes || !l1_for_below(rn))
		return false;
	mp_buf_puts(msg, "L1 not measured: the documentation gives it a way of a page or less, "
			 "so its lines at a page offset are of one class (the l1 probe's to "
			 "measure)");
	return true;
}

/*
 * The levels in turn, from the L2, or from the L1 where its geometry is
 * not known (evset_measure decides whether it may be recorded) and its way
 * may span pages: the levels below it need its ways and way.
 */
static void levels(struct run *rn)
{
	struct mp_buf msg;
	int32_t first;

	mp_buf_init(&msg, rn->c->self->message, sizeof(rn->c->self->message));
	first = l1_geometry(rn) || l1_within_page(rn, &msg) ? 2 : 1;
	for (int32_t i = first; i <= MP_MAX_CACHES; i++) {
		uint64_t t0 = mp_now(rn->c->p);
		struct level lv;

		mp_progress(rn->c->p, "evset", (uint64_t)(i - first), MP_MAX_CACHES);
		if (!level_of(rn, i, &lv))
			break;
		if (evset_measure(rn, &lv) < 0)
			return mp_probe_fail(rn->c, "the platform failed a run");
		pool_short(rn, &lv);
		evset_note_method(rn, &lv, settle(rn, &lv));
		evset_describe(&msg, &lv);
		log_level(rn, &lv, t0);
		if (i == 1 && !l1_for_below(rn))
			break;
	}
	if (!msg.len)
		mp_buf_puts(&msg, "no level below the L1 has the effective capacity and the "
				  "latencies, its own and the next's, that a pool is made from (probe levels)");
	mp_progress(rn->c->p, "evset", MP_MAX_CACHES, MP_MAX_CACHES);
}

/* Does the platform give physically contiguous memory (then compact sets work)? */
static bool contiguous(struct mp_ctx *c)
{
	struct mp_mem_req req = { .bytes = 2 * MP_PAGE_BYTES_2M, .align = 4096,
				  .page = MP_PAGE_2M, .contiguous = true };
	struct mp_mem m;
	bool yes;

	if (c->p->ops->mem_alloc(c->p, &req, &m) != MP_OK)
		return false;
	yes = m.contiguous;
	c->p->ops->mem_free(c->p, &m);
	return yes;
}

/*
 * Bytes of the largest level's pool by its effective capacity, reckoned
 * in 4K pages, and a page for the victim (the last of them).
 */
static uint64_t usual_bytes(const struct run *rn)
{
	uint64_t most = 0;

	for (int32_t i = 2; i <= MP_MAX_CACHES; i++) {
		const struct mp_cache *rec = level_rec(rn->c->r, i);
		uint64_t n = found_level(rec)
			? evset_pool_pages(rn, i, (uint64_t)rec->effective_size_bytes, MP_PAGE_BYTES_4K)
			: missed_level(rn->c->r, i) ? evset_pool_pages(rn, i, 0, MP_PAGE_BYTES_4K) : 0;

		most = n > most ? n : most;
	}
	return (most + 1) * MP_PAGE_BYTES_4K;
}

/*
 * The memory pools are taken from, as far as the arena and the pool's
 * table go: the usual pools (usual_bytes), or where a pool may grow past
 * them (evset_calibrated) all of it: on this project's AMD EPYC guest the L3,
 * of which "levels" sees 8 to 16M of 32M, took 24576 to 65536 pages.
 */
static uint64_t pool_bytes(const struct mp_ctx *c, const struct run *rn)
{
	uint64_t cap = (uint64_t)MP_EVSET_MAX_POOL * MP_PAGE_BYTES_4K, want;

	cap = c->cfg->arena_bytes < cap ? c->cfg->arena_bytes : cap;
	want = evset_pool_grows(c) ? cap : usual_bytes(rn);
	return want < cap ? want : cap;
}

/* Pages of the usual pools, the victim's included, as far as the arena goes. */
static uint64_t usual_pages(const struct run *rn)
{
	uint64_t page = rn->m.page_bytes, pages = (usual_bytes(rn) + page - 1) / page;

	return pages < evset_arena_pages(rn) ? pages : evset_arena_pages(rn);
}

/* The L1's latency from its record (probe latency): is it known? */
static bool l1_latency(struct mp_ctx *c, struct run *rn)
{
	const struct mp_cache *l1 = mp_result_find_cache(c->r, 1, MP_KIND_DATA);

	if (!l1 || mp_is_na(l1->latency_ns))
		return false;
	rn->l1_lat = ns_to_ticks(c->p, l1->latency_ns);
	return true;
}

/*
 * The round's victim: the first line of a page at the end of the usual
 * pools, each round's EVSET_VICTIMS pages before the last round's (room
 * for its other victims: another_victim), so that a victim whose set
 * something keeps busy spoils one round's vote, not all of them.  On this
 * project's AMD EPYC guest, with one victim for every round, the quick
 * profile recorded the L2 as 15-way for 16 in 2 rounds of 2 (its ways
 * rested on the victim's set alone, which a line in use all along, the
 * run's own or a neighbour's, makes a line short).
 */
static uint64_t victim_of(const struct run *rn, unsigned round)
{
	uint64_t back = (uint64_t)round * EVSET_VICTIMS;

	return (back < rn->usual ? rn->usual - 1 - back : rn->usual - 1) * rn->m.page_bytes;
}

void mp_probe_evset(struct mp_ctx *c)
{
	static struct run rn;
	struct mp_evset e;

	rn = (struct run){ .c = c, .pool = pool, .set = set, .tail = tail };
	if (c->round == 0) {
		evset_counts_forgotten();
		evset_searches_forgotten();
	}
	if (!l1_latency(c, &rn))
		return mp_probe_unsupported(c, "needs the L1's latency (probe latency)");
	if (!found_level(level_rec(c->r, 2)) && !missed_level(c->r, 2))
		return mp_probe_unsupported(c, "needs the levels' latencies (probe levels), or an L2 "
					       "in the documentation");
	rn.contiguous = contiguous(c);
	if (mp_probe_alloc(c, pool_bytes(c, &rn), MP_PAGE_4K, &rn.m) != MP_OK)
		return;
	rn.usual = usual_pages(&rn);
	rn.x = victim_of(&rn, c->round);
	e = (struct mp_evset){ .c = c, .base = rn.m.base };
	if (mp_evset_hit(&e, rn.x, &rn.hit) < 0)
		mp_probe_fail(c, "the platform could not run a chase");
	else
		levels(&rn);
	c->p->ops->mem_free(c->p, &rn.m);
}
