/* SPDX-License-Identifier: MIT */
/*
 * Reading a machine model (docs/simulator.md has the syntax).  A line is a
 * comment, `name = VALUE`, or a statement word followed by key=value pairs:
 *
 *   cache NAME size= line= ways= latency= [level= type= replacement= write=
 *              inclusion= index= slices= hash= seed=]
 *   tlb NAME entries= ways= page= latency= [level= type= replacement= seed=]
 *   (cache and tlb lines also take [cpu= shared=])
 *   cpu [cores= threads= name=]
 *   memory latency=          clock freq=
 *   prefetch kind= [level= degree=]
 *   noise rate= cycles= [lines= entries= seed=]
 *   neighbour on= off= [entries= ways= level= every= set= extra= extra_on= extra_off=]
 *   frames mode= [seed=] [contiguous=] [host=]
 *   pmu counters=
 *   isa vector=              op NAME [width=] latency= throughput=   (sim/model_ops.c)
 *
 * The first problem stops the parse with "FILE:LINE: what is wrong".
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/lib/str.h"
#include "sim/sim.h"

#define MAX_TOKENS 24

struct ctx {
	struct mp_sim_model *m;
	const char *file;
	uint32_t line;
	char *err;
	size_t err_len;
	bool have_memory;
};

static int fail(struct ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct ctx *x, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (x->line)
		snprintf(x->err, x->err_len, "%s:%u: %s", x->file, x->line, msg);
	else
		snprintf(x->err, x->err_len, "%s: %s", x->file, msg);
	return -1;
}

/* ---- values ---- */

struct word {
	const char *w;
	int v;
};

static const struct word repl_words[] = { { "lru", MP_REPL_LRU }, { "plru", MP_REPL_PLRU },
					  { "fifo", MP_REPL_FIFO }, { "random", MP_REPL_RANDOM },
					  { "bimodal", MP_REPL_BIMODAL },
					  { NULL, 0 } };
static const struct word write_words[] = { { "allocate", 1 }, { "no-allocate", 0 }, { NULL, 0 } };
static const struct word incl_words[] = { { "inclusive", MP_INCL_INCLUSIVE },
					  { "exclusive", MP_INCL_EXCLUSIVE },
					  { "non-inclusive", MP_INCL_NONINCLUSIVE }, { NULL, 0 } };
static const struct word index_words[] = { { "virtual", MP_SIM_INDEX_VIRTUAL },
					   { "physical", MP_SIM_INDEX_PHYSICAL },
					   { "hash", MP_SIM_INDEX_HASH }, { NULL, 0 } };
static const struct word kind_words[] = { { "data", MP_KIND_DATA },
					  { "instruction", MP_KIND_INSTRUCTION },
					  { "unified", MP_KIND_UNIFIED }, { NULL, 0 } };
static const struct word pf_words[] = { { "none", MP_SIM_PF_NONE },
					{ "next-line", MP_SIM_PF_NEXT_LINE },
					{ "stride", MP_SIM_PF_STRIDE },
					{ "adjacent", MP_SIM_PF_ADJACENT }, { NULL, 0 } };
static const struct word frames_words[] = { { "contiguous", MP_SIM_FRAMES_CONTIGUOUS },
					    { "scattered", MP_SIM_FRAMES_SCATTERED },
					    { NULL, 0 } };
static const struct word refuse_words[] = { { "granted", 0 }, { "refused", 1 }, { NULL, 0 } };
static const struct word tlb_index_words[] = { { "plain", 0 }, { "hash", 1 }, { NULL, 0 } };

enum ftype { F_SIZE, F_U64, F_U32, F_WAYS, F_LEVEL, F_RATE, F_HZ, F_ENUM, F_BOOL, F_HASH,
	     F_NAME, F_COUNT, F_SHARED, F_STEP };

struct field {
	const char *key;
	enum ftype type;
	size_t off;
	bool required;
	const struct word *words;   /* F_ENUM, F_BOOL */
};

static bool parse_hz(const char *v, uint64_t *out)
{
	static const struct { const char *suffix; double mul; } units[] = {
		{ "", 1 }, { "K", 1e3 }, { "M", 1e6 }, { "G", 1e9 },
		{ "Hz", 1 }, { "KHz", 1e3 }, { "MHz", 1e6 }, { "GHz", 1e9 },
	};
	char *end;
	double d;

	if (!isdigit((unsigned char)v[0]))
		return false;
	d = strtod(v, &end);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(end, units[i].suffix) && d * units[i].mul >= 1e3 &&
		    d * units[i].mul <= 1e12) {
			*out = (uint64_t)(d * units[i].mul + 0.5);
			return true;
		}
	return false;
}

static bool parse_rate(const char *v, double *out)
{
	char *end;

	if (!isdigit((unsigned char)v[0]) && v[0] != '.')
		return false;
	errno = 0;
	*out = strtod(v, &end);
	return !*end && !errno && *out >= 0 && *out <= 1;
}

/* Cycles with up to two decimals (24.45), 1 or more, into hundredths. */
static bool parse_step(const char *v, uint32_t *out)
{
	uint64_t whole = 0, frac = 0, digits = 0;

	for (; isdigit((unsigned char)*v) && whole < 1000000; v++)
		whole = whole * 10 + (uint64_t)(*v - '0');
	if (*v == '.')
		for (v++; isdigit((unsigned char)*v) && digits < 2; v++, digits++)
			frac = frac * 10 + (uint64_t)(*v - '0');
	frac *= digits == 1 ? 10 : 1;
	*out = (uint32_t)(whole * 100 + frac);
	return !*v && *out >= 100;
}

static bool parse_word(const struct word *w, const char *v, int *out)
{
	for (; w->w; w++)
		if (!strcmp(w->w, v)) {
			*out = w->v;
			return true;
		}
	return false;
}

/* Store the value into the field; false when it does not parse. */
static bool store(const struct field *f, void *target, const char *v)
{
	char *p = (char *)target + f->off;
	size_t n = strlen(v);
	uint64_t u = 0;
	int e;

	switch (f->type) {
	case F_SIZE:
		return mp_parse_size(v, n, (uint64_t *)p) && *(uint64_t *)p > 0;
	case F_U64:
		return mp_parse_u64(v, n, (uint64_t *)p);
	case F_U32:
		if (!mp_parse_u64(v, n, &u) || u > UINT32_MAX)
			return false;
		*(uint32_t *)p = (uint32_t)u;
		return true;
	case F_WAYS:
		if (!strcmp(v, "full"))
			return (*(uint64_t *)p = 0, true);
		return mp_parse_u64(v, n, (uint64_t *)p) && *(uint64_t *)p > 0;
	case F_LEVEL:
		if (!mp_parse_u64(v, n, &u) || u < 1 || u > MP_SIM_MAX_LEVEL)
			return false;
		*(int32_t *)p = (int32_t)u;
		return true;
	case F_RATE:
		return parse_rate(v, (double *)p);
	case F_HZ:
		return parse_hz(v, (uint64_t *)p);
	case F_STEP:
		return parse_step(v, (uint32_t *)p);
	case F_ENUM:
		return parse_word(f->words, v, (int *)p);
	case F_BOOL:
		if (!parse_word(f->words, v, &e))
			return false;
		*(bool *)p = e != 0;
		return true;
	case F_HASH:
		return mp_sim_hash_parse(target, v);
	case F_NAME:
		if (n >= MP_CPU_TYPE_LEN)
			return false;
		memcpy(p, v, n + 1);
		return true;
	case F_SHARED:
		if (!strcmp(v, "all"))
			return (*(uint32_t *)p = MP_SIM_SHARED_ALL, true);
		__attribute__((fallthrough)); /* else a count */
	case F_COUNT:
		if (!mp_parse_u64(v, n, &u) || u < 1 || u > MP_SIM_MAX_CPUS)
			return false;
		*(uint32_t *)p = (uint32_t)u;
		return true;
	}
	return false;
}

static void expected(const struct field *f, char *buf, size_t len)
{
	static const char *text[] = {
		[F_SIZE] = "a size such as 64, 32K or 1M", [F_U64] = "a number",
		[F_U32] = "a number", [F_WAYS] = "a number or full",
		[F_LEVEL] = "a level from 1 to 8", [F_RATE] = "a fraction from 0 to 1",
		[F_HZ] = "a frequency such as 2400M or 3.2G",
		[F_HASH] = "xor:MASK,MASK,... (hex, one per slice bit) or random",
		[F_NAME] = "a name of up to 23 characters",
		[F_COUNT] = "a number from 1 to 1024",
		[F_SHARED] = "a number from 1 to 1024 or all",
		[F_STEP] = "cycles from 1, up to two decimals (26, 24.45)",
	};
	size_t at = 0;

	if (f->type != F_ENUM && f->type != F_BOOL) {
		snprintf(buf, len, "%s", text[f->type]);
		return;
	}
	buf[0] = '\0';
	for (const struct word *w = f->words; w->w && at < len; w++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "one of ", w->w);
}

/* ---- key=value lists ---- */

static int parse_fields(struct ctx *x, const char *what, const struct field *fields, void *target,
			char **tok, int n, uint32_t *seen)
{
	char want[128];

	*seen = 0;
	for (int i = 0; i < n; i++) {
		char *eq = strchr(tok[i], '=');
		int k;

		if (!eq || eq == tok[i])
			return fail(x, "%s: expected key=value, got '%s'", what, tok[i]);
		*eq = '\0';
		for (k = 0; fields[k].key && strcmp(fields[k].key, tok[i]); k++)
			;
		if (!fields[k].key)
			return fail(x, "%s: unknown key '%s'", what, tok[i]);
		if (*seen & (1u << k))
			return fail(x, "%s: %s= given twice", what, tok[i]);
		*seen |= 1u << k;
		if (!store(&fields[k], target, eq + 1)) {
			expected(&fields[k], want, sizeof(want));
			return fail(x, "%s: bad %s '%s' (want %s)", what, tok[i], eq + 1, want);
		}
	}
	for (int k = 0; fields[k].key; k++)
		if (fields[k].required && !(*seen & (1u << k)))
			return fail(x, "%s: missing %s=", what, fields[k].key);
	return 0;
}

static bool was_seen(const struct field *fields, uint32_t seen, const char *key)
{
	for (int k = 0; fields[k].key; k++)
		if (!strcmp(fields[k].key, key))
			return seen & (1u << k);
	return false;
}

/* ---- statements ---- */

#define CF(k, t, f, r, w) { k, t, offsetof(struct mp_sim_cache_model, f), r, w }
static const struct field cache_fields[] = {
	CF("size", F_SIZE, size, true, NULL),
	CF("line", F_SIZE, line, true, NULL),
	CF("ways", F_WAYS, ways, true, NULL),
	CF("latency", F_U32, latency, true, NULL),
	CF("level", F_LEVEL, level, false, NULL),
	CF("type", F_ENUM, type, false, kind_words),
	CF("replacement", F_ENUM, replacement, false, repl_words),
	CF("write", F_BOOL, write_allocate, false, write_words),
	CF("inclusion", F_ENUM, inclusion, false, incl_words),
	CF("index", F_ENUM, index, false, index_words),
	CF("slices", F_U32, slices, false, NULL),
	CF("hash", F_HASH, hash, false, NULL),
	CF("seed", F_U64, seed, false, NULL),
	CF("cpu", F_NAME, cpu, false, NULL),
	CF("shared", F_SHARED, shared, false, NULL),
	{ NULL, 0, 0, false, NULL },
};

#define TF(k, t, f, r, w) { k, t, offsetof(struct mp_sim_tlb_model, f), r, w }
static const struct field tlb_fields[] = {
	TF("entries", F_U64, entries, true, NULL),
	TF("ways", F_WAYS, ways, true, NULL),
	TF("page", F_SIZE, page, true, NULL),
	TF("latency", F_U32, latency, true, NULL),
	TF("level", F_LEVEL, level, false, NULL),
	TF("type", F_ENUM, type, false, kind_words),
	TF("replacement", F_ENUM, replacement, false, repl_words),
	TF("seed", F_U64, seed, false, NULL),
	TF("index", F_BOOL, hashed, false, tlb_index_words),
	TF("cpu", F_NAME, cpu, false, NULL),
	TF("shared", F_SHARED, shared, false, NULL),
	{ NULL, 0, 0, false, NULL },
};

#define MF(k, t, f, r, w) { k, t, offsetof(struct mp_sim_model, f), r, w }
static const struct field memory_fields[] = {
	MF("latency", F_U32, memory_latency, true, NULL),
	{ NULL, 0, 0, false, NULL },
};
static const struct field clock_fields[] = {
	MF("freq", F_HZ, clock_hz, true, NULL),
	MF("step", F_STEP, clock_step_x100, false, NULL),
	MF("read", F_U32, clock_read, false, NULL),
	{ NULL, 0, 0, false, NULL },
};
static const struct field prefetch_fields[] = {
	MF("kind", F_ENUM, prefetch.kind, true, pf_words),
	MF("level", F_LEVEL, prefetch.level, false, NULL),
	MF("degree", F_U32, prefetch.degree, false, NULL),
	{ NULL, 0, 0, false, NULL },
};
static const struct field opcache_fields[] = {
	MF("windows", F_U32, opcache.windows, true, NULL),
	MF("ways", F_U32, opcache.ways, true, NULL),
	MF("latency", F_U32, opcache.latency, true, NULL),
	{ NULL, 0, 0, false, NULL },
};
static const struct field noise_fields[] = {
	MF("rate", F_RATE, noise.rate, true, NULL),
	MF("cycles", F_U32, noise.cycles, true, NULL),
	MF("lines", F_U32, noise.lines, false, NULL),
	MF("entries", F_U32, noise.tlb_entries, false, NULL),
	MF("seed", F_U64, noise.seed, false, NULL),
	{ NULL, 0, 0, false, NULL },
};
static const struct field neighbour_fields[] = {
	MF("entries", F_U32, neighbour.entries, false, NULL),
	MF("ways", F_U32, neighbour.ways, false, NULL),
	MF("level", F_U32, neighbour.level, false, NULL),
	MF("on", F_U64, neighbour.on, true, NULL),
	MF("off", F_U64, neighbour.off, true, NULL),
	MF("every", F_U32, neighbour.every, false, NULL),
	MF("set", F_U32, neighbour.set, false, NULL),
	MF("extra", F_U32, neighbour.extra, false, NULL),
	MF("extra_on", F_U64, neighbour.extra_on, false, NULL),
	MF("extra_off", F_U64, neighbour.extra_off, false, NULL),
	MF("cpu", F_U32, neighbour.cpu, false, NULL),
	{ NULL, 0, 0, false, NULL },
};
static const struct field frames_fields[] = {
	MF("mode", F_ENUM, frames.mode, true, frames_words),
	MF("seed", F_U64, frames.seed, false, NULL),
	MF("contiguous", F_BOOL, frames.refuse_contiguous, false, refuse_words),
	MF("host", F_SIZE, frames.host, false, NULL),
	{ NULL, 0, 0, false, NULL },
};

#define PF(k, t, f, r, w) { k, t, offsetof(struct mp_sim_cpu_model, f), r, w }
static const struct field cpu_fields[] = {
	PF("cores", F_COUNT, cores, false, NULL),
	PF("threads", F_COUNT, threads, false, NULL),
	PF("name", F_NAME, name, false, NULL),
	{ NULL, 0, 0, false, NULL },
};

static const struct field pmu_fields[] = {
	MF("counters", F_U32, counters, true, NULL),
	{ NULL, 0, 0, false, NULL },
};

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* L<n>D, L<n>I, L<n>: level and type from a cache name. */
static void cache_name_rule(const char *name, int32_t *level, enum mp_kind *type)
{
	const char *p = name + 1;
	long lvl;

	if (toupper((unsigned char)name[0]) != 'L' || !isdigit((unsigned char)*p))
		return;
	lvl = strtol(p, (char **)&p, 10);
	if (!strcasecmp(p, "D"))
		*type = MP_KIND_DATA;
	else if (!strcasecmp(p, "I"))
		*type = MP_KIND_INSTRUCTION;
	else if (!*p)
		*type = MP_KIND_UNIFIED;
	else
		return;
	*level = lvl >= 1 && lvl <= MP_SIM_MAX_LEVEL ? (int32_t)lvl : 0;
}

static int check_name(struct ctx *x, const char *what, const char *name)
{
	if (strchr(name, '='))
		return fail(x, "%s needs a name before its key=value pairs", what);
	if (strlen(name) >= MP_SIM_NAME_LEN)
		return fail(x, "%s name '%s' is longer than %d characters", what, name,
			    MP_SIM_NAME_LEN - 1);
	return 0;
}

static int cache_geometry(struct ctx *x, struct mp_sim_cache_model *c)
{
	uint64_t lines;

	if (!pow2(c->line) || c->line < 8)
		return fail(x, "cache %s: line=%llu is not a power of two of at least 8", c->name,
			    (unsigned long long)c->line);
	if (c->size % c->line)
		return fail(x, "cache %s: size=%llu is not a multiple of line=%llu", c->name,
			    (unsigned long long)c->size, (unsigned long long)c->line);
	lines = c->size / c->line;
	if (lines > MP_SIM_MAX_LINES)
		return fail(x, "cache %s: %llu lines are more than the simulator holds (%llu)",
			    c->name, (unsigned long long)lines,
			    (unsigned long long)MP_SIM_MAX_LINES);
	if (!c->ways)
		c->ways = lines;
	if (c->ways > lines || lines % c->ways)
		return fail(x, "cache %s: %llu lines do not divide into sets of %llu ways", c->name,
			    (unsigned long long)lines, (unsigned long long)c->ways);
	return 0;
}

/* index= (default virtual at level 1, physical below); slices= and hash= go with index=hash. */
static int cache_index(struct ctx *x, struct mp_sim_cache_model *c, uint32_t seen)
{
	bool hashed = was_seen(cache_fields, seen, "slices") ||
		      was_seen(cache_fields, seen, "hash");
	char why[160];

	if (!was_seen(cache_fields, seen, "index"))
		c->index = c->level > 1 ? MP_SIM_INDEX_PHYSICAL : MP_SIM_INDEX_VIRTUAL;
	c->physical = c->index != MP_SIM_INDEX_VIRTUAL;
	if (c->index != MP_SIM_INDEX_HASH) {
		c->slices = 1;
		return hashed ? fail(x, "cache %s: slices= and hash= need index=hash", c->name) : 0;
	}
	if (!was_seen(cache_fields, seen, "slices") || !was_seen(cache_fields, seen, "hash"))
		return fail(x, "cache %s: index=hash needs slices= and hash=", c->name);
	if (mp_sim_hash_check(c, why, sizeof(why)) < 0)
		return fail(x, "cache %s: %s", c->name, why);
	return 0;
}

static int st_cache(struct ctx *x, char **tok, int n)
{
	struct mp_sim_model *m = x->m;
	struct mp_sim_cache_model *c;
	char what[64];
	uint32_t seen;

	if (n < 2)
		return fail(x, "cache needs a name and key=value pairs");
	if (m->ncaches == MP_SIM_MAX_CACHES)
		return fail(x, "more than %d caches", MP_SIM_MAX_CACHES);
	if (check_name(x, "cache", tok[1]) < 0)
		return -1;
	c = &m->caches[m->ncaches];
	memset(c, 0, sizeof(*c));
	strcpy(c->name, tok[1]);
	c->type = MP_KIND_UNKNOWN;
	c->replacement = MP_REPL_LRU;
	c->write_allocate = true;
	c->inclusion = MP_INCL_NONINCLUSIVE;
	c->seed = (uint64_t)m->ncaches + 1;
	c->shared = 1;
	c->line_no = x->line;
	cache_name_rule(c->name, &c->level, &c->type);
	snprintf(what, sizeof(what), "cache %s", c->name);
	if (parse_fields(x, what, cache_fields, c, tok + 2, n - 2, &seen) < 0)
		return -1;
	if (!c->level)
		return fail(x, "cache %s: the name does not say the level (L1D, L2, ...); "
			       "add level=", c->name);
	if (c->type == MP_KIND_UNKNOWN)
		c->type = MP_KIND_UNIFIED;
	if (cache_geometry(x, c) < 0 || cache_index(x, c, seen) < 0)
		return -1;
	m->ncaches++;
	return 0;
}

/* DTLB<n>, ITLB<n>: type from the prefix, level from the digit after it (none: 2). */
static void tlb_name_rule(const char *name, int32_t *level, enum mp_kind *type)
{
	*level = 2;
	if (!strncasecmp(name, "DTLB", 4))
		*type = MP_KIND_DATA;
	else if (!strncasecmp(name, "ITLB", 4))
		*type = MP_KIND_INSTRUCTION;
	else
		return;
	if (name[4] >= '1' && name[4] <= '0' + MP_SIM_MAX_LEVEL)
		*level = name[4] - '0';
}

static int tlb_geometry(struct ctx *x, struct mp_sim_tlb_model *t)
{
	if (!pow2(t->page) || t->page < 1024)
		return fail(x, "tlb %s: page=%llu is not a power of two of at least 1K", t->name,
			    (unsigned long long)t->page);
	if (!t->entries || t->entries > MP_SIM_MAX_LINES)
		return fail(x, "tlb %s: entries=%llu is out of range", t->name,
			    (unsigned long long)t->entries);
	if (!t->ways)
		t->ways = t->entries;
	if (t->ways > t->entries || t->entries % t->ways)
		return fail(x, "tlb %s: %llu entries do not divide into sets of %llu ways", t->name,
			    (unsigned long long)t->entries, (unsigned long long)t->ways);
	return 0;
}

static int st_tlb(struct ctx *x, char **tok, int n)
{
	struct mp_sim_model *m = x->m;
	struct mp_sim_tlb_model *t;
	char what[64];
	uint32_t seen;

	if (n < 2)
		return fail(x, "tlb needs a name and key=value pairs");
	if (m->ntlbs == MP_SIM_MAX_TLBS)
		return fail(x, "more than %d TLBs", MP_SIM_MAX_TLBS);
	if (check_name(x, "tlb", tok[1]) < 0)
		return -1;
	t = &m->tlbs[m->ntlbs];
	memset(t, 0, sizeof(*t));
	strcpy(t->name, tok[1]);
	t->type = MP_KIND_UNKNOWN;
	t->replacement = MP_REPL_LRU;
	t->seed = (uint64_t)m->ntlbs + 101;
	t->shared = 1;
	t->line_no = x->line;
	tlb_name_rule(t->name, &t->level, &t->type);
	snprintf(what, sizeof(what), "tlb %s", t->name);
	if (parse_fields(x, what, tlb_fields, t, tok + 2, n - 2, &seen) < 0)
		return -1;
	if (t->type == MP_KIND_UNKNOWN)
		return fail(x, "tlb %s: the name does not say the type (DTLB, ITLB); add type=",
			    t->name);
	if (tlb_geometry(x, t) < 0)
		return -1;
	m->ntlbs++;
	return 0;
}

static int st_memory(struct ctx *x, char **tok, int n)
{
	uint32_t seen;

	x->have_memory = true;
	return parse_fields(x, "memory", memory_fields, x->m, tok + 1, n - 1, &seen);
}

static int st_clock(struct ctx *x, char **tok, int n)
{
	uint32_t seen;

	return parse_fields(x, "clock", clock_fields, x->m, tok + 1, n - 1, &seen);
}

static int st_prefetch(struct ctx *x, char **tok, int n)
{
	uint32_t seen;

	if (parse_fields(x, "prefetch", prefetch_fields, x->m, tok + 1, n - 1, &seen) < 0)
		return -1;
	if (x->m->prefetch.degree == 0 || x->m->prefetch.degree > 64)
		return fail(x, "prefetch: degree=%u is not from 1 to 64", x->m->prefetch.degree);
	return 0;
}

static int st_opcache(struct ctx *x, char **tok, int n)
{
	uint32_t seen;

	if (parse_fields(x, "opcache", opcache_fields, x->m, tok + 1, n - 1, &seen) < 0)
		return -1;
	if (!x->m->opcache.ways || !x->m->opcache.windows ||
	    x->m->opcache.windows % x->m->opcache.ways)
		return fail(x, "opcache: windows=%u is no multiple of ways=%u",
			    x->m->opcache.windows, x->m->opcache.ways);
	return 0;
}

static int st_noise(struct ctx *x, char **tok, int n)
{
	uint32_t seen;

	return parse_fields(x, "noise", noise_fields, x->m, tok + 1, n - 1, &seen);
}

static int st_neighbour(struct ctx *x, char **tok, int n)
{
	uint32_t seen;

	if (parse_fields(x, "neighbour", neighbour_fields, x->m, tok + 1, n - 1, &seen) < 0)
		return -1;
	if (!x->m->neighbour.on || !x->m->neighbour.off || !x->m->neighbour.every)
		return fail(x, "neighbour: on=, off= and every= must be at least 1");
	if (!sim_has_neighbour(x->m))
		return fail(x, "neighbour: entries= or ways= must be at least 1");
	x->m->neighbour.one_set = was_seen(neighbour_fields, seen, "set");
	x->m->neighbour.one_cpu = was_seen(neighbour_fields, seen, "cpu");
	if (x->m->neighbour.one_set && !x->m->neighbour.ways)
		return fail(x, "neighbour: set= needs ways=");
	if (x->m->neighbour.extra && (!x->m->neighbour.ways || !x->m->neighbour.extra_on ||
				      !x->m->neighbour.extra_off))
		return fail(x, "neighbour: extra= needs ways=, and extra_on= and extra_off= of at "
			    "least 1");
	return 0;
}

static int st_frames(struct ctx *x, char **tok, int n)
{
	uint32_t seen;

	return parse_fields(x, "frames", frames_fields, x->m, tok + 1, n - 1, &seen);
}

static int st_pmu(struct ctx *x, char **tok, int n)
{
	uint32_t seen;

	if (parse_fields(x, "pmu", pmu_fields, x->m, tok + 1, n - 1, &seen) < 0)
		return -1;
	if (!x->m->counters)
		return fail(x, "pmu: counters=0 counts nothing (leave the line out for no limit)");
	return 0;
}

/* A core type; the checks across lines (names, counts) are sim/model_check.c's. */
static int st_cpu(struct ctx *x, char **tok, int n)
{
	struct mp_sim_model *m = x->m;
	struct mp_sim_cpu_model *t;
	uint32_t seen;

	if (m->ntypes == MP_SIM_MAX_TYPES)
		return fail(x, "more than %d cpu lines", MP_SIM_MAX_TYPES);
	t = &m->types[m->ntypes];
	*t = (struct mp_sim_cpu_model){ .cores = 1, .threads = 1, .line_no = x->line };
	if (parse_fields(x, "cpu", cpu_fields, t, tok + 1, n - 1, &seen) < 0)
		return -1;
	m->ntypes++;
	return 0;
}

/* The processor's statements (sim/model_ops.c) behind this file's error messages. */
static int st_proc(struct ctx *x, char **tok, int n,
		   int (*parse)(struct mp_sim_model *, char **, int, char *, size_t))
{
	char why[160];

	if (parse(x->m, tok + 1, n - 1, why, sizeof(why)) < 0)
		return fail(x, "%s", why);
	return 0;
}

static int st_op(struct ctx *x, char **tok, int n)
{
	return st_proc(x, tok, n, mp_sim_model_op);
}

static int st_isa(struct ctx *x, char **tok, int n)
{
	return st_proc(x, tok, n, mp_sim_model_isa);
}

static const struct {
	const char *word;
	int (*parse)(struct ctx *x, char **tok, int n);
} statements[] = {
	{ "cache", st_cache }, { "tlb", st_tlb }, { "memory", st_memory },
	{ "clock", st_clock }, { "prefetch", st_prefetch }, { "noise", st_noise },
	{ "neighbour", st_neighbour }, { "frames", st_frames }, { "pmu", st_pmu },
	{ "isa", st_isa }, { "op", st_op }, { "cpu", st_cpu }, { "opcache", st_opcache },
};

/* ---- lines ---- */

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int name_line(struct ctx *x, char *s)
{
	char *v = trim(s + 4);

	if (*v != '=')
		return fail(x, "expected 'name = VALUE'");
	v = trim(v + 1);
	if (!*v)
		return fail(x, "name is empty");
	if (strlen(v) >= MP_NAME_LEN)
		return fail(x, "name is longer than %d characters", MP_NAME_LEN - 1);
	strcpy(x->m->name, v);
	return 0;
}

static int parse_line(struct ctx *x, char *s)
{
	char *tok[MAX_TOKENS];
	int n = 0;

	s = trim(s);
	if (!*s)
		return 0;
	if (!strncmp(s, "name", 4) && (isspace((unsigned char)s[4]) || s[4] == '='))
		return name_line(x, s);
	for (char *t = strtok(s, " \t\r\v\f"); t; t = strtok(NULL, " \t\r\v\f")) {
		if (n == MAX_TOKENS)
			return fail(x, "more than %d words on one line", MAX_TOKENS);
		tok[n++] = t;
	}
	for (size_t i = 0; i < sizeof(statements) / sizeof(statements[0]); i++)
		if (!strcmp(tok[0], statements[i].word))
			return statements[i].parse(x, tok, n);
	return fail(x, "unknown statement '%s' (cache, tlb, memory, clock, prefetch, noise, "
		       "neighbour, frames, pmu, isa, op, cpu or name)", tok[0]);
}

static void defaults(struct mp_sim_model *m, const char *file)
{
	const char *base = strrchr(file, '/');
	size_t n;

	*m = (struct mp_sim_model){
		.clock_hz = MP_SIM_DEFAULT_HZ,
		.clock_step_x100 = 100,
		.prefetch = { .kind = MP_SIM_PF_NONE, .level = 1, .degree = 1 },
		.noise = { .lines = 16, .tlb_entries = 2, .seed = 1 },
		.neighbour = { .every = 8, .level = 2 },
		.frames = { .mode = MP_SIM_FRAMES_CONTIGUOUS, .seed = 1 },
	};
	base = base ? base + 1 : file;
	n = strcspn(base, ".");
	snprintf(m->name, sizeof(m->name), "%.*s", (int)(n < MP_NAME_LEN ? n : MP_NAME_LEN - 1),
		 base);
}

int mp_sim_model_parse(struct mp_sim_model *m, const char *file, const char *text, size_t len,
		       char *err, size_t err_len)
{
	struct ctx x = { .m = m, .file = file, .err = err, .err_len = err_len };
	char buf[1024];

	defaults(m, file);
	for (size_t at = 0; at < len;) {
		size_t end = at;

		while (end < len && text[end] != '\n')
			end++;
		x.line++;
		if (end - at >= sizeof(buf))
			return fail(&x, "line longer than %zu characters", sizeof(buf) - 1);
		memcpy(buf, text + at, end - at);
		buf[end - at] = '\0';
		if (memchr(buf, '\0', end - at))
			return fail(&x, "NUL character in the text");
		buf[strcspn(buf, "#")] = '\0';
		if (parse_line(&x, buf) < 0)
			return -1;
		at = end + 1;
	}
	x.line = 0;
	if (!x.have_memory)
		return fail(&x, "no 'memory latency=CYCLES' line");
	if (!m->ntypes)
		m->types[m->ntypes++] = (struct mp_sim_cpu_model){ .cores = 1, .threads = 1 };
	return mp_sim_model_check(m, file, err, err_len);
}

int mp_sim_model_load(struct mp_sim_model *m, const char *path, char *err, size_t err_len)
{
	FILE *f = fopen(path, "rb");
	char *text;
	size_t n;
	int rc;

	if (!f) {
		snprintf(err, err_len, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	text = malloc(1 << 20);
	n = text ? fread(text, 1, 1 << 20, f) : 0;
	fclose(f);
	if (!text || n == 1 << 20) {
		snprintf(err, err_len, "%s: %s", path, text ? "larger than 1 MB" : "out of memory");
		free(text);
		return -1;
	}
	rc = mp_sim_model_parse(m, path, text, n, err, err_len);
	free(text);
	return rc;
}
