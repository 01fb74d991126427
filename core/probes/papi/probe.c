/* SPDX-License-Identifier: MIT */
/*
 * The "papi" probe: the PAPI cacheSize and cacheBlock benchmarks
 * (core/probes/papi/papi.h) over every cache level and data TLB level the
 * platform counts.  cacheBlock first gives each level's line (page);
 * cacheSize then sweeps all levels at once and refines each capacity;
 * cacheBlock at twice the capacity gives the associativity.  The level's
 * type is AMP's (3.6) where the amp probe ran, else data for level 1 and
 * unified below.
 */
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/probes/papi/papi.h"
#include "core/probes/probes.h"

/* Other places in the array where the capacities are measured again when
 * the memory is not physically contiguous (from its middle, a quarter in). */
#define FRAME_SAMPLES 2u

static struct papi papi;

/* The type AMP found for the level, else the usual one. */
static enum mp_kind type_of(const struct papi *p, const struct papi_level *l)
{
	const struct mp_result *r = p->c->r;

	for (int32_t i = 0; i < mp_count(r->ncounted, MP_MAX_COUNTED); i++) {
		const struct mp_vote *c = &r->counted[i];

		if (!mp_strcmp(c->probe, "amp") && c->s.level == l->level && c->s.tlb == l->tlb &&
		    (!l->tlb || c->s.page_bytes == (int64_t)p->mem.page_bytes))
			return c->s.type;
	}
	return l->level == 1 || l->tlb ? MP_KIND_DATA : MP_KIND_UNIFIED;
}

static void put(struct papi *p, const struct mp_structure *s, enum mp_param param,
		const struct mp_tally *t, int64_t value)
{
	struct mp_vote *c;

	if (value <= 0 || !(c = mp_result_add_counted(p->c->r, "papi", s, param)))
		return;
	mp_vote_from(c, t);
	c->value = value;
}

static void record(struct papi *p, const struct papi_level *l)
{
	struct mp_structure s = { l->level, type_of(p, l), l->tlb,
				  l->tlb ? (int64_t)p->mem.page_bytes : MP_NA };
	int64_t size = !l->tlb ? (int64_t)l->size : l->unit ? (int64_t)(l->size / l->unit) : 0;

	put(p, &s, l->tlb ? MP_PARAM_ENTRIES : MP_PARAM_SIZE, &l->sure[0], l->size ? size : 0);
	put(p, &s, l->tlb ? MP_PARAM_PAGE : MP_PARAM_LINE, &l->sure[1], (int64_t)l->unit);
	put(p, &s, MP_PARAM_WAYS, &l->sure[2], (int64_t)l->ways);
}

static void note(struct papi *p, const struct papi_level *l, const char *what)
{
	char text[MP_NOTE_LEN];

	mp_snprintf(text, sizeof(text), "papi: L%d %s: %s", (int)l->level, l->tlb ? "DTLB" : "cache",
		    what);
	mp_result_add_note(p->c->r, text);
}

/* Case 3's set that is several (docs/algorithms.md, "Counter-based probes", hashed sets). */
static void tell_split(struct papi *p, const struct papi_level *l)
{
	char text[MP_NOTE_LEN];

	mp_snprintf(text, sizeof(text), "case 3's set of %llu lines is %llu sets of %llu ways "
		    "(slices of a hashed index, or sets its stride joined)",
		    (unsigned long long)l->seen, (unsigned long long)(l->seen / l->ways),
		    (unsigned long long)l->ways);
	note(p, l, text);
}

/* The counted levels of one kind, into lv[]; how many. */
static unsigned levels_of(const struct papi *p, bool tlb, struct papi_level *lv)
{
	unsigned n = 0;

	for (unsigned i = 0; i < mp_counter_nlevels && n < PAPI_MAX_LEVELS; i++) {
		if (mp_counter_levels[i].tlb != tlb || mp_counter_levels[i].code ||
		    !mp_counter_has(&p->k, mp_counter_levels[i].ev))
			continue;
		lv[n] = (struct papi_level){ .ev = mp_counter_levels[i].ev,
					     .above = n ? lv[n - 1].ev : MP_EV_COUNT,
					     .level = mp_counter_levels[i].level, .tlb = tlb };
		n++;
	}
	return n;
}

static void add_curves(struct papi *p, const struct papi_level *lv, unsigned n)
{
	char name[MP_NAME_LEN];

	for (unsigned i = 0; i < PAPI_MAX_LEVELS; i++)
		p->curve[i] = NULL;
	for (unsigned i = 0; i < n && !lv[i].tlb; i++) {
		mp_snprintf(name, sizeof(name), "papi-size L%d", (int)lv[i].level);
		p->curve[i] = mp_result_add_curve(p->c->r, name, "bytes", "misses/access");
	}
}

/* Capacities measured again on the array from `from` on. */
static enum mp_status sizes_from(struct papi *p, const struct papi_level *lv, unsigned n,
				 uint64_t from, struct papi_level *again)
{
	struct mp_mem whole = p->mem;
	enum mp_status st;

	for (unsigned i = 0; i < n; i++)
		again[i] = (struct papi_level){ .ev = lv[i].ev, .above = lv[i].above,
						.level = lv[i].level, .unit = lv[i].unit };
	p->mem.base += from;
	p->mem.bytes -= from;
	st = papi_cache_size(p, again, n);
	p->mem = whole;
	return st;
}

/*
 * In memory that is not physically contiguous cacheSize runs again from a
 * quarter and from the middle of the array; a level whose capacity comes
 * out otherwise anywhere is not told (docs/algorithms.md, "Counter-based
 * probes", frames).
 */
static enum mp_status frames_agree(struct papi *p, struct papi_level *lv, unsigned n)
{
	struct papi_level again[PAPI_MAX_LEVELS];
	struct mp_curve *curves[PAPI_MAX_LEVELS];
	enum mp_status st = MP_OK;

	if (p->mem.contiguous || lv[0].tlb)
		return MP_OK;
	for (unsigned i = 0; i < n; i++) {
		curves[i] = p->curve[i];
		p->curve[i] = NULL;
	}
	for (unsigned part = 1; part <= FRAME_SAMPLES && st == MP_OK; part++) {
		uint64_t from = p->mem.bytes / (2 * part);

		st = sizes_from(p, lv, n, from - from % p->mem.page_bytes, again);
		for (unsigned i = 0; i < n && st == MP_OK; i++)
			if (lv[i].size && again[i].size != lv[i].size) {
				lv[i].size = 0;
				note(p, &lv[i], "memory not physically contiguous and its sets "
						"depend on the frames: capacity not told");
			}
	}
	for (unsigned i = 0; i < n; i++)
		p->curve[i] = curves[i];
	return st;
}

/*
 * The caches, or the TLBs of the array's page (an mp_counter_levels_fn):
 * cacheBlock for the units, cacheSize for all, cacheBlock again for the ways.
 */
static unsigned measure(void *probe, const struct mp_counter_pass *pass)
{
	struct papi *p = probe;
	struct papi_level lv[PAPI_MAX_LEVELS];
	bool tlb = pass->tlb;
	unsigned n = levels_of(p, tlb, lv), done = 0;
	enum mp_status st = MP_OK;

	p->elem = tlb ? p->mem.page_bytes : 0;
	for (unsigned i = 0; i < n && st == MP_OK; i++) {
		st = papi_unit(p, &lv[i]);
		if (!tlb && lv[i].unit && (!p->elem || lv[i].unit < p->elem))
			p->elem = lv[i].unit;
	}
	if (st != MP_OK || !p->elem)
		return 0;
	add_curves(p, lv, n);
	st = papi_cache_size(p, lv, n);
	if (st == MP_OK)
		st = frames_agree(p, lv, n);
	for (unsigned i = 0; i < n && st == MP_OK; i++) {
		st = papi_ways(p, &lv[i]);
		if (lv[i].moved)
			note(p, &lv[i], "cacheSize's edge moved with where the footprint starts (a "
					"hashed index filling its slices unevenly): capacity not told");
		if (lv[i].size && !lv[i].ways)
			note(p, &lv[i], lv[i].why);
		if (lv[i].ways && lv[i].seen)
			tell_split(p, &lv[i]);
		record(p, &lv[i]);
		done += lv[i].size != 0;
	}
	if (st != MP_OK)
		mp_probe_fail(p->c, "the platform could not run an experiment");
	return done;
}

void mp_probe_papi(struct mp_ctx *c)
{
	mp_memset(&papi, 0, sizeof(papi));
	papi.c = c;
	mp_rng_seed(&papi.g, c->cfg->seed);
	mp_counter_probe(&papi.k, c, &papi.mem, measure, &papi, false);
}
