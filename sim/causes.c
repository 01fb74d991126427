/* SPDX-License-Identifier: MIT */
/*
 * MemSpy's causes of misses (thesis section 4.2.7).  For every cache and
 * every line the simulator remembers why the line last left the cache
 * (MemSpy's "sparse array indexed by the referenced address": here one byte
 * per line of each mapping, made on first use).  A miss is then
 *
 *   cold          the line never was here (or was flushed since);
 *   invalidation  it was taken out by inclusion (back-invalidation);
 *   noise         a modelled disturbance evicted it;
 *   conflict      it was replaced, but a fully associative LRU cache of the
 *                 same size, fed the same fills, still holds it;
 *   capacity      it was replaced and that shadow cache lost it too.
 *
 * As in MemSpy the cause is the first event that forced the line out.  Misses
 * are counted per probe and per reference string (the run's region).  On a
 * multi-core model the instances CPU 0 uses are followed, and the accesses
 * and misses CPU 0 makes counted: the other CPUs' are not explained.  A
 * shadow is a hash map from line to a node of a doubly linked LRU list.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/simint.h"

#define NIL UINT32_MAX

/* A fully associative LRU cache of keys: a hash map onto a linked list. */
struct shadow {
	struct sim_map where;  /* key -> node */
	uint64_t cap, n;
	uint64_t *key;         /* per node */
	uint32_t *prev, *next;
	uint32_t head, tail, free;
};

struct bin {
	char probe[MP_NAME_LEN];
	char region[MP_NAME_LEN];
	uint64_t refs;
	uint64_t miss[MP_SIM_MAX_CACHES][MP_SIM_NCAUSES];
};

struct sim_causes {
	struct shadow shadow[MP_SIM_MAX_CACHES];
	struct bin *bins;
	int nbins, cap;
	struct bin *cur;
	char probe[MP_NAME_LEN];
	char region[MP_NAME_LEN];
};

static void shadow_clear(struct shadow *h)
{
	sim_map_clear(&h->where);
	for (uint64_t i = 0; i < h->cap; i++)
		h->next[i] = i + 1 < h->cap ? (uint32_t)(i + 1) : NIL;
	h->free = 0;
	h->head = h->tail = NIL;
	h->n = 0;
}

static int shadow_init(struct shadow *h, uint64_t cap)
{
	h->cap = cap;
	h->key = malloc(cap * sizeof(*h->key));
	h->prev = malloc(cap * sizeof(*h->prev));
	h->next = malloc(cap * sizeof(*h->next));
	if (sim_map_init(&h->where, cap) < 0 || !h->key || !h->prev || !h->next)
		return -1;
	shadow_clear(h);
	return 0;
}

static void shadow_free(struct shadow *h)
{
	sim_map_free(&h->where);
	free(h->key);
	free(h->prev);
	free(h->next);
}

static void unlink_node(struct shadow *h, uint32_t n)
{
	if (h->prev[n] != NIL)
		h->next[h->prev[n]] = h->next[n];
	else
		h->head = h->next[n];
	if (h->next[n] != NIL)
		h->prev[h->next[n]] = h->prev[n];
	else
		h->tail = h->prev[n];
}

static void push_head(struct shadow *h, uint32_t n)
{
	h->prev[n] = NIL;
	h->next[n] = h->head;
	if (h->head != NIL)
		h->prev[h->head] = n;
	h->head = n;
	if (h->tail == NIL)
		h->tail = n;
}

static void shadow_remove(struct shadow *h, uint64_t key)
{
	uint64_t *at = sim_map_get(&h->where, key);
	uint32_t n;

	if (!at)
		return;
	n = (uint32_t)*at;
	sim_map_del(&h->where, key);
	unlink_node(h, n);
	h->next[n] = h->free;
	h->free = n;
	h->n--;
}

/* A use of key: to the front if held; inserted (dropping the LRU key) on a fill. */
static void shadow_use(struct shadow *h, uint64_t key, bool insert)
{
	uint64_t *at = sim_map_get(&h->where, key);
	uint32_t n;

	if (at) {
		unlink_node(h, (uint32_t)*at);
		push_head(h, (uint32_t)*at);
		return;
	}
	if (!insert)
		return;
	if (h->n == h->cap)
		shadow_remove(h, h->key[h->tail]);
	n = h->free;
	if (sim_map_put(&h->where, key, n) < 0)
		return;
	h->free = h->next[n];
	h->key[n] = key;
	push_head(h, n);
	h->n++;
}

static bool shadow_holds(const struct shadow *h, uint64_t key)
{
	return sim_map_get(&h->where, key) != NULL;
}

struct sim_causes *sim_causes_new(struct mp_sim *s)
{
	struct sim_causes *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	for (int i = 0; i < s->model.ncaches; i++) {
		if (shadow_init(&k->shadow[i], s->model.caches[i].size / s->model.caches[i].line) < 0) {
			sim_causes_free(k);
			return NULL;
		}
	}
	strcpy(k->probe, "-");
	strcpy(k->region, "-");
	return k;
}

void sim_causes_free(struct sim_causes *k)
{
	if (!k)
		return;
	for (int i = 0; i < MP_SIM_MAX_CACHES; i++)
		shadow_free(&k->shadow[i]);
	free(k->bins);
	free(k);
}

static struct bin *current(struct sim_causes *k)
{
	struct bin *b;

	if (k->cur)
		return k->cur;
	for (int i = 0; i < k->nbins; i++)
		if (!strcmp(k->bins[i].probe, k->probe) && !strcmp(k->bins[i].region, k->region))
			return k->cur = &k->bins[i];
	if (k->nbins == k->cap) {
		int cap = k->cap ? 2 * k->cap : 16;
		b = realloc(k->bins, (size_t)cap * sizeof(*b));
		if (!b)
			return NULL;
		k->bins = b;
		k->cap = cap;
	}
	b = &k->bins[k->nbins++];
	memset(b, 0, sizeof(*b));
	strcpy(b->probe, k->probe);
	strcpy(b->region, k->region);
	return k->cur = b;
}

static void set_name(struct sim_causes *k, char *dst, const char *name)
{
	char tmp[MP_NAME_LEN];

	snprintf(tmp, sizeof(tmp), "%s", name && name[0] ? name : "-");
	if (strcmp(tmp, dst)) {
		strcpy(dst, tmp);
		k->cur = NULL;
	}
}

void mp_sim_set_probe(struct mp_sim *s, const char *probe)
{
	if (s->causes)
		set_name(s->causes, s->causes->probe, probe);
}

void mp_sim_set_region(struct mp_sim *s, const char *region)
{
	if (s->causes)
		set_name(s->causes, s->causes->region, region);
}

/* The byte that says why the line of va last left cache c, or NULL. */
static uint8_t *left_of(struct mp_sim *s, const struct sim_cache *c, uint64_t va, bool make)
{
	struct sim_region *r = sim_vm_find(s, va);
	unsigned shift = c->a.shift;

	if (!r)
		return NULL;
	if (!r->left[c->idx] && make)
		r->left[c->idx] = calloc((r->bytes >> shift) + 1, 1);
	if (!r->left[c->idx])
		return NULL;
	return &r->left[c->idx][(va - r->va) >> shift];
}

/* Accesses and misses count when CPU 0 makes them (the other CPUs' are not explained). */
static bool counted(const struct mp_sim *s)
{
	return s->cur == s->cpu;
}

void sim_causes_access(struct mp_sim *s)
{
	struct bin *b = counted(s) ? current(s->causes) : NULL;

	if (b)
		b->refs++;
}

void sim_causes_hit(struct mp_sim *s, struct sim_cache *c, uint64_t key)
{
	if (c->explained)
		shadow_use(&s->causes->shadow[c->idx], key, false);
}

void sim_causes_fill(struct mp_sim *s, struct sim_cache *c, uint64_t va, uint64_t key)
{
	(void)va;
	if (c->explained)
		shadow_use(&s->causes->shadow[c->idx], key, true);
}

void sim_causes_left(struct mp_sim *s, struct sim_cache *c, uint64_t va, uint64_t key, int why)
{
	uint8_t *state;

	if (!c->explained)
		return;
	state = left_of(s, c, va, true);
	if (state)
		*state = (uint8_t)(why == SIM_LEFT_FLUSHED ? SIM_LEFT_NEVER : why);
	if (why != SIM_LEFT_REPLACED)
		shadow_remove(&s->causes->shadow[c->idx], key);
}

void sim_causes_miss(struct mp_sim *s, struct sim_cache *c, uint64_t va, uint64_t key)
{
	const uint8_t *state = left_of(s, c, va, false);
	struct bin *b = counted(s) ? current(s->causes) : NULL;
	enum mp_sim_cause cause;

	if (!c->explained)
		return;
	switch (state ? *state : SIM_LEFT_NEVER) {
	case SIM_LEFT_NEVER:
		cause = MP_SIM_COLD;
		break;
	case SIM_LEFT_INVALIDATED:
		cause = MP_SIM_INVALIDATION;
		break;
	case SIM_LEFT_NOISE:
		cause = MP_SIM_NOISE;
		break;
	default:
		cause = shadow_holds(&s->causes->shadow[c->idx], key) ? MP_SIM_CONFLICT
								       : MP_SIM_CAPACITY;
	}
	if (b)
		b->miss[c->idx][cause]++;
}

/* After a flush every line counts as never seen. */
void sim_causes_reset(struct mp_sim *s)
{
	for (int i = 0; i < s->model.ncaches; i++)
		shadow_clear(&s->causes->shadow[i]);
	for (int i = 0; i < s->nregions; i++)
		for (int c = 0; c < MP_SIM_MAX_CACHES; c++) {
			free(s->region[i].left[c]);
			s->region[i].left[c] = NULL;
		}
}

static const char *cause_names[MP_SIM_NCAUSES] = {
	"cold", "capacity", "conflict", "invalidation", "noise",
};

/* CPU 0's cache of that name (the one explained). */
static int find_cache(const struct mp_sim *s, const char *name)
{
	for (int i = 0; i < s->model.ncaches; i++)
		if (!strcmp(s->model.caches[i].name, name) &&
		    mp_sim_type_has(&s->model, s->cpu[0].type, s->model.caches[i].cpu))
			return i;
	return -1;
}

bool mp_sim_causes(const struct mp_sim *s, const char *probe, const char *region,
		   const char *cache, uint64_t out[MP_SIM_NCAUSES])
{
	const struct sim_causes *k = s->causes;
	int c = find_cache(s, cache);
	bool found = false;

	memset(out, 0, MP_SIM_NCAUSES * sizeof(*out));
	if (!k || c < 0)
		return false;
	for (int i = 0; i < k->nbins; i++) {
		const struct bin *b = &k->bins[i];

		if ((probe && strcmp(b->probe, probe)) || (region && strcmp(b->region, region)))
			continue;
		for (int j = 0; j < MP_SIM_NCAUSES; j++)
			out[j] += b->miss[c][j];
		found = true;
	}
	return found;
}

static void print_bin(const struct mp_sim *s, const struct bin *b, FILE *f)
{
	fprintf(f, "  region %s: %llu accesses\n", b->region, (unsigned long long)b->refs);
	fprintf(f, "    %-8s %12s", "cache", "misses");
	for (int j = 0; j < MP_SIM_NCAUSES; j++)
		fprintf(f, " %12s", cause_names[j]);
	fputc('\n', f);
	for (int c = 0; c < s->model.ncaches; c++) {
		uint64_t total = 0;

		for (int j = 0; j < MP_SIM_NCAUSES; j++)
			total += b->miss[c][j];
		if (!total)
			continue;
		fprintf(f, "    %-8s %12llu", s->model.caches[c].name, (unsigned long long)total);
		for (int j = 0; j < MP_SIM_NCAUSES; j++)
			fprintf(f, " %12llu", (unsigned long long)b->miss[c][j]);
		fputc('\n', f);
	}
}

void mp_sim_print_causes(const struct mp_sim *s, FILE *f)
{
	const struct sim_causes *k = s->causes;

	if (!k)
		return;
	fprintf(f, "Causes of misses (MemSpy): by probe, reference string and cache\n");
	for (int i = 0; i < k->nbins; i++) {
		bool first = true;

		for (int j = 0; j < i && first; j++)
			first = strcmp(k->bins[j].probe, k->bins[i].probe) != 0;
		if (!first)
			continue;
		fprintf(f, "probe %s\n", k->bins[i].probe);
		for (int j = i; j < k->nbins; j++)
			if (!strcmp(k->bins[j].probe, k->bins[i].probe))
				print_bin(s, &k->bins[j], f);
	}
}
