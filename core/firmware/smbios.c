/* SPDX-License-Identifier: MIT */
/*
 * SMBIOS (DMTF DSP0134, version 3.7.0): the entry points, the walk over the
 * structure table, and the two structures that describe the processor:
 * Processor Information (type 4, section 7.5) and Cache Information (type 7,
 * section 7.8).
 *
 * A structure is a header (type, length of the formatted area, handle;
 * section 6.1.2) and its formatted area, then a set of strings ended by two
 * NUL bytes (section 6.1.3).  Type 127 ends the table (section 7.46).
 *
 * Known faults, decoded as the specification says rather than as firmware
 * sometimes means them: Installed Size is the total over every cache of that
 * level and type in the socket ("the total amount of cache per level per
 * processor socket", section 7.8), so its scope is the package, and firmware
 * that writes one core's size is found out by the verdicts; L1 is often one
 * "unified" (or "other") record for the instruction and data caches
 * together, which then matches no other source's L1.
 */
#include "core/firmware/bytes.h"
#include "core/firmware/firmware.h"
#include "core/lib/bits.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/results/audit.h"

#define HEADER_LEN 4
#define TYPE_CPU 4
#define TYPE_CACHE 7
#define TYPE_END 127
#define NO_HANDLE 0xFFFF

/* Type 4 (section 7.5): offsets, and the length a field needs. */
#define CPU_STATUS 0x18              /* bit 6: socket populated */
#define CPU_POPULATED (1u << 6)
#define CPU_HANDLES 0x1A             /* L1, L2, L3 cache handles, 2.1+ */
#define CPU_CORE_COUNT 0x23          /* 2.5+: 0 unknown, FFh see Core Count 2 */
#define CPU_CORE_ENABLED 0x24
#define CPU_THREAD_COUNT 0x25
#define CPU_CORE_COUNT2 0x2A         /* 3.0+ */
#define CPU_CORE_ENABLED2 0x2C
#define CPU_THREAD_COUNT2 0x2E
#define CPU_THREAD_ENABLED 0x30      /* 3.6+ */

/* Type 7 (section 7.8). */
#define CACHE_CONFIG 0x05            /* [2:0] level - 1, [7] enabled */
#define CACHE_ENABLED (1u << 7)
#define CACHE_INSTALLED 0x09         /* [15] 64K units, else 1K; FFFFh: see size 2 */
#define CACHE_TYPE 0x11              /* System Cache Type, 2.1+ */
#define CACHE_ASSOC 0x12             /* Associativity, 2.1+ */
#define CACHE_INSTALLED2 0x17        /* Installed Cache Size 2, 3.1+: [31] 64K units */
#define SIZE_64K (1ull << 16)

/* One structure of the table. */
struct smb {
	const uint8_t *p;
	size_t len;                  /* formatted area */
};

/* The structure at *off (moved past it); false at the end, or when it runs past the table. */
static bool next(const uint8_t *t, size_t n, size_t *off, struct smb *s, bool *bad)
{
	size_t i;

	if (*off + HEADER_LEN > n)
		return false;
	s->p = t + *off;
	s->len = s->p[1];
	for (i = *off + s->len; i + 1 < n && (t[i] || t[i + 1]); i++)
		;
	if (s->len < HEADER_LEN || i + 1 >= n) {
		*bad = true;
		return false;
	}
	*off = i + 2;
	return s->p[0] != TYPE_END;
}

/* A field of `bytes` at `at`, or `none` when the formatted area is shorter. */
static uint64_t field(const struct smb *s, size_t at, unsigned bytes, uint64_t none)
{
	return at + bytes <= s->len ? mp_le(s->p, at, bytes) : none;
}

/* ---- type 4 ---- */

/* A count byte, FFh meaning "see the 16-bit field" (section 7.5); 0 unknown: MP_NA. */
static int32_t count(const struct smb *s, size_t at8, size_t at16)
{
	uint64_t v = field(s, at8, 1, 0);

	if (v == 0xFF)
		v = field(s, at16, 2, 0);
	return v == 0 || v == 0xFFFF ? MP_NA : (int32_t)v;
}

static void cpu_counts(struct mp_source *src, const struct smb *s)
{
	int32_t cores = count(s, CPU_CORE_ENABLED, CPU_CORE_ENABLED2);
	int32_t threads = (int32_t)field(s, CPU_THREAD_ENABLED, 2, 0);

	if (cores == MP_NA)
		cores = count(s, CPU_CORE_COUNT, CPU_CORE_COUNT2);
	if (threads <= 0 || threads == 0xFFFF)
		threads = count(s, CPU_THREAD_COUNT, CPU_THREAD_COUNT2);
	src->cores = cores;
	src->logical_cpus = threads;
	if (cores > 0 && threads > 0 && threads % cores == 0)
		src->threads_per_core = threads / cores;
}

static bool populated(const struct smb *s)
{
	return s->p[0] == TYPE_CPU && (field(s, CPU_STATUS, 1, 0) & CPU_POPULATED);
}

/* Handles the type 4 structures refer to: `mine` of the first populated socket, `all`. */
struct handles {
	uint16_t mine[3], all[48];
	int n;
	bool found;
};

static void note_handles(struct handles *h, const struct smb *s)
{
	for (int i = 0; i < 3; i++) {
		uint16_t v = (uint16_t)field(s, CPU_HANDLES + 2 * (size_t)i, 2, NO_HANDLE);

		if (!h->found)
			h->mine[i] = v;
		if (h->n < (int)MP_COUNT_OF(h->all))
			h->all[h->n++] = v;
	}
	h->found = true;
}

/* ---- type 7 ---- */

/* System Cache Type (section 7.8): 01h other and 02h unknown tell nothing. */
static const enum mp_kind cache_kinds[] = {
	MP_KIND_UNKNOWN, MP_KIND_UNKNOWN,     MP_KIND_UNKNOWN,
	MP_KIND_INSTRUCTION, MP_KIND_DATA, MP_KIND_UNIFIED,
};

/* Associativity (section 7.8, its table of values): ways, 0 not a way count. */
static const uint8_t assoc_ways[] = {
	[0x03] = 1,  [0x04] = 2,  [0x05] = 4,  [0x07] = 8,  [0x08] = 16,
	[0x09] = 12, [0x0A] = 24, [0x0B] = 32, [0x0C] = 48, [0x0D] = 64, [0x0E] = 20,
};

static int64_t installed_bytes(const struct smb *s)
{
	uint64_t v = field(s, CACHE_INSTALLED, 2, 0);

	if (v == 0xFFFF && s->len >= CACHE_INSTALLED2 + 4) {
		v = field(s, CACHE_INSTALLED2, 4, 0);
		return (int64_t)((v & 0x7FFFFFFFu) * (v & 0x80000000u ? SIZE_64K : 1024));
	}
	return (int64_t)((v & 0x7FFF) * (v & 0x8000 ? SIZE_64K : 1024));
}

static enum mp_kind cache_kind(const struct smb *s)
{
	uint64_t t = field(s, CACHE_TYPE, 1, 0);

	return t < MP_COUNT_OF(cache_kinds) ? cache_kinds[t] : MP_KIND_UNKNOWN;
}

static int64_t cache_ways(const struct smb *s)
{
	uint64_t a = field(s, CACHE_ASSOC, 1, 0);

	return a < MP_COUNT_OF(assoc_ways) && assoc_ways[a] ? assoc_ways[a] : MP_NA;
}

static bool refers(const uint16_t *h, int n, uint16_t handle)
{
	for (int i = 0; i < n; i++)
		if (h[i] == handle)
			return true;
	return false;
}

/* The first socket's caches: those its type 4 names, and those no type 4 names. */
static bool first_socket(const struct handles *h, const struct smb *s)
{
	uint16_t handle = (uint16_t)field(s, 2, 2, NO_HANDLE);

	return refers(h->mine, 3, handle) || !refers(h->all, h->n, handle);
}

static bool listed(const struct mp_source *src, int32_t level, enum mp_kind type)
{
	for (int32_t i = 0; i < src->ncaches; i++)
		if (src->caches[i].level == level && src->caches[i].type == type)
			return true;
	return false;
}

static void add_cache(struct mp_source *src, const struct smb *s)
{
	uint64_t config = field(s, CACHE_CONFIG, 2, 0);
	int32_t level = (int32_t)(config & 7) + 1;
	int64_t size = installed_bytes(s);
	struct mp_doc_cache *c;

	if (!(config & CACHE_ENABLED) || size == 0 || listed(src, level, cache_kind(s)))
		return;
	c = mp_source_add_cache(src);
	if (!c)
		return;
	c->level = level;
	c->type = cache_kind(s);
	c->size_bytes = size;
	c->scope = MP_SCOPE_PACKAGE;
	c->ways = cache_ways(s);
}

/* ---- the table ---- */

/* First pass: the type 4 structures' cache handles and the first socket's counts. */
static bool scan_cpus(const uint8_t *t, size_t n, struct handles *h, struct mp_source *cpu)
{
	size_t off = 0;
	bool bad = false;
	struct smb s;

	while (next(t, n, &off, &s, &bad)) {
		if (!populated(&s))
			continue;
		if (!h->found)
			cpu_counts(cpu, &s);
		note_handles(h, &s);
	}
	return !bad;
}

static void scan_caches(const uint8_t *t, size_t n, const struct handles *h,
			struct mp_source *caches)
{
	size_t off = 0;
	bool bad = false;
	struct smb s;

	while (next(t, n, &off, &s, &bad))
		if (s.p[0] == TYPE_CACHE && s.len >= CACHE_INSTALLED + 2 && first_socket(h, &s))
			add_cache(caches, &s);
}

static void say(struct mp_source *s, enum mp_source_status st, const char *why)
{
	s->status = st;
	mp_strlcpy(s->message, why, sizeof(s->message));
}

void mp_smbios_sources(struct mp_result *r, const uint8_t *table, size_t len,
		       const char *version)
{
	struct mp_source *caches = mp_audit_add_source(r, MP_SOURCE_SMBIOS_CACHES);
	struct mp_source *cpu = mp_audit_add_source(r, MP_SOURCE_SMBIOS_CPU);
	struct handles h = { .n = 0, .found = false };
	char what[MP_TEXT_LEN];

	if (!caches || !cpu)
		return;
	mp_snprintf(what, sizeof(what), "SMBIOS %s", version ? version : "(version unknown)");
	mp_strlcpy(caches->message, what, sizeof(caches->message));
	mp_strlcpy(cpu->message, what, sizeof(cpu->message));
	if (!scan_cpus(table, len, &h, cpu)) {
		say(caches, MP_SOURCE_INVALID, "a structure runs past the end of the table");
		say(cpu, MP_SOURCE_INVALID, "a structure runs past the end of the table");
		return;
	}
	scan_caches(table, len, &h, caches);
	if (caches->ncaches == 0)
		say(caches, MP_SOURCE_ABSENT, "no enabled cache information structure");
	if (!h.found)
		say(cpu, MP_SOURCE_ABSENT, "no processor information structure of a populated socket");
}

void mp_smbios_missing(struct mp_result *r, enum mp_source_status st, const char *why)
{
	mp_audit_source_missing(r, MP_SOURCE_SMBIOS_CACHES, st, why);
	mp_audit_source_missing(r, MP_SOURCE_SMBIOS_CPU, st, why);
}

/* ---- entry points (section 5.2) ---- */

#define EP3_ANCHOR "_SM3_"
#define EP3_LEN 0x18                 /* 5.2.2: the 64-bit entry point is 18h bytes */
#define EP2_ANCHOR "_SM_"
/*
 * 5.2.1: the 32-bit entry point is 1Fh bytes; version 2.1 of the
 * specification said 1Eh, and firmware of that time writes 1Eh (its
 * checksum then covers 1Eh bytes), so that is accepted too.
 */
#define EP2_LEN 0x1E

static bool refuse(const char **why, const char *text)
{
	*why = text;
	return false;
}

static bool entry3(const uint8_t *ep, size_t len, struct mp_smbios_table *out, const char **why)
{
	size_t n = len >= 7 ? ep[6] : 0;

	if (n < EP3_LEN || n > len || !mp_sum8_ok(ep, n))
		return refuse(why, "the SMBIOS 3.0 entry point is short or its checksum fails");
	*out = (struct mp_smbios_table){ .address = mp_le64(ep, 0x10), .length = mp_le32(ep, 0x0C),
					 .major = ep[7], .minor = ep[8] };
	return true;
}

static bool entry2(const uint8_t *ep, size_t len, struct mp_smbios_table *out, const char **why)
{
	size_t n = len >= 6 ? ep[5] : 0;

	if (n < EP2_LEN || n > len || !mp_sum8_ok(ep, n))
		return refuse(why, "the SMBIOS entry point is short or its checksum fails");
	*out = (struct mp_smbios_table){ .address = mp_le32(ep, 0x18), .length = mp_le16(ep, 0x16),
					 .major = ep[6], .minor = ep[7] };
	return true;
}

bool mp_smbios_entry(const uint8_t *ep, size_t len, struct mp_smbios_table *out,
		     const char **why)
{
	if (len >= 5 && mp_strncmp((const char *)ep, EP3_ANCHOR, 5) == 0)
		return entry3(ep, len, out, why);
	if (len >= 4 && mp_strncmp((const char *)ep, EP2_ANCHOR, 4) == 0)
		return entry2(ep, len, out, why);
	return refuse(why, "no SMBIOS entry point anchor");
}
