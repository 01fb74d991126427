/* SPDX-License-Identifier: MIT */
/* The results model: "not available" initialisation, appending, names (core/results/result.h). */
#include "core/lib/bits.h"
#include "core/lib/str.h"
#include "core/results/result.h"


void mp_cache_init(struct mp_cache *c)
{
	*c = (struct mp_cache){
		.level = MP_NA, .type = MP_KIND_UNKNOWN, .size_bytes = MP_NA,
		.effective_size_bytes = MP_NA, .line_bytes = MP_NA, .ways = MP_NA,
		.latency_cycles = mp_na_double(), .latency_ns = mp_na_double(),
		.write_allocate = MP_UNKNOWN, .replacement = MP_REPL_UNKNOWN,
		.inclusion = MP_INCL_UNKNOWN, .method = MP_METHOD_UNKNOWN, .shared_by = MP_NA,
	};
}

void mp_tlb_init(struct mp_tlb *t)
{
	*t = (struct mp_tlb){
		.level = MP_NA, .type = MP_KIND_UNKNOWN, .entries = MP_NA, .page_bytes = MP_NA,
		.ways = MP_NA, .miss_penalty_cycles = mp_na_double(), .method = MP_METHOD_UNKNOWN,
	};
}

static void machine_init(struct mp_machine *m)
{
	*m = (struct mp_machine){ .family = MP_NA, .model = MP_NA, .stepping = MP_NA };
}

static void cpu_init(struct mp_cpu *c)
{
	*c = (struct mp_cpu){
		.tsc_hz = mp_na_double(), .core_hz = mp_na_double(), .logical_cpus = MP_NA,
		.cores = MP_NA, .threads_per_core = MP_NA,
	};
}

void mp_result_init(struct mp_result *r, const char *platform)
{
	mp_memset(r, 0, sizeof(*r));
	mp_strlcpy(r->platform, platform ? platform : "", sizeof(r->platform));
	machine_init(&r->machine);
	r->memory.latency_cycles = mp_na_double();
	r->memory.latency_ns = mp_na_double();
	cpu_init(&r->cpu);
	mp_cpu_timing_init(&r->cpu_timing);
	mp_cpu_doc_init(&r->documented.cpu);
	/* Table slots beyond the counts are initialised too, so no slot is ever a guess. */
	for (unsigned i = 0; i < MP_MAX_CACHES; i++) {
		mp_cache_init(&r->caches[i]);
		mp_cache_init(&r->documented.caches[i]);
	}
	for (unsigned i = 0; i < MP_MAX_TLBS; i++) {
		mp_tlb_init(&r->tlbs[i]);
		mp_tlb_init(&r->documented.tlbs[i]);
	}
	r->topology = (struct mp_topology){ MP_NA, MP_NA, MP_NA };
}

struct mp_cache *mp_result_add_cache(struct mp_result *r)
{
	struct mp_cache *c;

	if (r->ncaches < 0 || r->ncaches >= MP_MAX_CACHES)
		return NULL;
	c = &r->caches[r->ncaches++];
	mp_cache_init(c);
	return c;
}

/*
 * Take record `rec` of `size` bytes out of the table at `base` (*n in use,
 * max), moving the rest up.
 */
static void remove_record(void *base, size_t size, int32_t *n, int32_t max, const void *rec)
{
	uint8_t *a = base;
	size_t used = (size_t)mp_count(*n, max) * size, at;

	if ((const uint8_t *)rec < a)
		return;
	at = (size_t)((const uint8_t *)rec - a);
	if (at >= used)
		return;
	for (size_t b = at; b + size < used; b++)
		a[b] = a[b + size];
	*n = (int32_t)(used / size) - 1;
}

void mp_result_remove_cache(struct mp_result *r, const struct mp_cache *c)
{
	remove_record(r->caches, sizeof(*c), &r->ncaches, MP_MAX_CACHES, c);
}

void mp_result_remove_tlb(struct mp_result *r, const struct mp_tlb *t)
{
	remove_record(r->tlbs, sizeof(*t), &r->ntlbs, MP_MAX_TLBS, t);
}

struct mp_tlb *mp_result_add_tlb(struct mp_result *r)
{
	struct mp_tlb *t;

	if (r->ntlbs < 0 || r->ntlbs >= MP_MAX_TLBS)
		return NULL;
	t = &r->tlbs[r->ntlbs++];
	mp_tlb_init(t);
	return t;
}

/* A new probe record is "ok" with no time and no message until the probe says otherwise. */
struct mp_probe *mp_result_add_probe(struct mp_result *r, const char *name)
{
	struct mp_probe *p;

	if (r->nprobes < 0 || r->nprobes >= MP_MAX_PROBES)
		return NULL;
	p = &r->probes[r->nprobes++];
	mp_strlcpy(p->name, name ? name : "", sizeof(p->name));
	p->status = MP_PROBE_OK;
	p->seconds = mp_na_double();
	p->message[0] = '\0';
	return p;
}

struct mp_curve *mp_result_add_curve(struct mp_result *r, const char *name, const char *x_unit,
				     const char *y_unit)
{
	struct mp_curve *c;

	if (r->ncurves < 0 || r->ncurves >= MP_MAX_CURVES)
		return NULL;
	c = &r->curves[r->ncurves++];
	mp_strlcpy(c->name, name ? name : "", sizeof(c->name));
	mp_strlcpy(c->x_unit, x_unit ? x_unit : "", sizeof(c->x_unit));
	mp_strlcpy(c->y_unit, y_unit ? y_unit : "", sizeof(c->y_unit));
	c->npoints = 0;
	return c;
}

bool mp_curve_add_point(struct mp_curve *c, double x, double y)
{
	if (!c || c->npoints < 0 || c->npoints >= MP_MAX_POINTS)
		return false;
	c->x[c->npoints] = x;
	c->y[c->npoints] = y;
	c->npoints++;
	return true;
}

/* When the table is full the last note says so and later notes are dropped. */
void mp_result_add_note(struct mp_result *r, const char *text)
{
	if (r->nnotes < 0)
		return;
	if (r->nnotes >= MP_MAX_NOTES) {
		mp_strlcpy(r->notes[MP_MAX_NOTES - 1], "(more notes were dropped: table full)",
			   MP_NOTE_LEN);
		return;
	}
	mp_strlcpy(r->notes[r->nnotes++], text ? text : "", MP_NOTE_LEN);
}

const struct mp_probe *mp_result_find_probe(const struct mp_result *r, const char *name)
{
	for (int32_t i = 0; i < mp_count(r->nprobes, MP_MAX_PROBES); i++)
		if (!mp_strcmp(r->probes[i].name, name))
			return &r->probes[i];
	return NULL;
}

struct mp_cache *mp_result_find_cache(struct mp_result *r, int32_t level, enum mp_kind type)
{
	for (int32_t i = 0; i < mp_count(r->ncaches, MP_MAX_CACHES); i++)
		if (r->caches[i].level == level && r->caches[i].type == type)
			return &r->caches[i];
	return NULL;
}

const struct mp_cache *mp_result_documented_side(const struct mp_result *r, int32_t level,
						 enum mp_kind side)
{
	for (int32_t i = 0; i < mp_count(r->documented.ncaches, MP_MAX_CACHES); i++) {
		const struct mp_cache *d = &r->documented.caches[i];

		if (d->level == level && mp_kind_serves(d->type, side))
			return d;
	}
	return NULL;
}

const struct mp_cache *mp_result_documented_cache(const struct mp_result *r, int32_t level)
{
	return mp_result_documented_side(r, level, MP_KIND_DATA);
}

/* names[v] for 0 <= v < n, else NULL: *_UNKNOWN has no name (written as null / "-"). */
static const char *name_of(const char *const *names, unsigned n, int v)
{
	return v >= 0 && (unsigned)v < n ? names[v] : NULL;
}

const char *mp_kind_name(enum mp_kind k)
{
	static const char *const names[] = { "data", "instruction", "unified" };

	return name_of(names, MP_COUNT_OF(names), k);
}

const char *mp_inclusion_name(enum mp_inclusion i)
{
	static const char *const names[] = { "inclusive", "exclusive", "non-inclusive" };

	return name_of(names, MP_COUNT_OF(names), i);
}

const char *mp_replacement_name(enum mp_replacement r)
{
	static const char *const names[] = { "lru", "plru", "fifo", "random", "lru-like",
					     "bimodal" };

	return name_of(names, MP_COUNT_OF(names), r);
}

const char *mp_method_name(enum mp_method m)
{
	static const char *const names[] = {
		[MP_METHOD_TIMING] = "timing", [MP_METHOD_COUNTERS] = "counters",
		[MP_METHOD_BOTH] = "both", [MP_METHOD_DOCUMENTED] = "documented",
		[MP_METHOD_EVSETS] = "eviction-sets",
	};

	return name_of(names, MP_COUNT_OF(names), m);
}

const char *mp_probe_status_name(enum mp_probe_status s)
{
	static const char *const names[] = { "ok", "unsupported", "failed", "skipped" };

	return name_of(names, MP_COUNT_OF(names), s);
}

void mp_core_type_copy(struct mp_core_type *t, const struct mp_result *from)
{
	t->ncaches = mp_count(from->ncaches, MP_MAX_CACHES);
	mp_memcpy(t->caches, from->caches, sizeof(t->caches));
	t->ntlbs = mp_count(from->ntlbs, MP_MAX_TLBS);
	mp_memcpy(t->tlbs, from->tlbs, sizeof(t->tlbs));
}

void mp_result_boot_type_sync(struct mp_result *r)
{
	if (r->ncore_types > 0)
		mp_core_type_copy(&r->core_types[0], r);
}

/* The CPUs of the pairs, ascending; how many. */
int32_t mp_c2c_cpus(const struct mp_c2c *c, int32_t *cpus, int32_t max)
{
	int32_t n = 0;

	for (int32_t i = 0; i < mp_count(c->npairs, MP_MAX_PAIRS); i++)
		for (int k = 0; k < 2; k++) {
			int32_t cpu = k ? c->pairs[i].b : c->pairs[i].a, j = n;
			bool seen = false;

			for (int32_t m = 0; m < n; m++)
				seen |= cpus[m] == cpu;
			if (seen || n >= max)
				continue;
			for (; j > 0 && cpus[j - 1] > cpu; j--)
				cpus[j] = cpus[j - 1];
			cpus[j] = cpu;
			n++;
		}
	return n;
}

double mp_c2c_latency(const struct mp_c2c *c, int32_t a, int32_t b)
{
	for (int32_t i = 0; i < mp_count(c->npairs, MP_MAX_PAIRS); i++)
		if ((c->pairs[i].a == a && c->pairs[i].b == b) ||
		    (c->pairs[i].a == b && c->pairs[i].b == a))
			return c->pairs[i].latency;
	return mp_na_double();
}
