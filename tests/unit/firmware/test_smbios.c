/* SPDX-License-Identifier: MIT */
/*
 * core/firmware/smbios.c against structure tables built byte by byte from
 * DSP0134 3.7.0 (header 6.1.2, strings 6.1.3, type 4 section 7.5, type 7
 * section 7.8, entry points 5.2), and against the recorded type 4 and type
 * 7 structures of a Core i5-9400F desktop (a public SMBIOS field listing),
 * whose L1 is one "unified" record for both L1 caches of all six cores.
 */
#include <stdio.h>

#include "core/firmware/firmware.h"
#include "core/lib/str.h"
#include "core/results/audit.h"
#include "tests/check.h"
#include "tests/unit/firmware/fwbuild.h"

#define K 1024ll
#define M (1024ll * 1024)

static struct mp_result r;

/* A structure: header, formatted area of `len` bytes (zero), then the strings. */
static size_t structure(struct tb *t, uint8_t type, uint8_t len, uint16_t handle)
{
	size_t at = tb_grow(t, len);

	tb_put(t, at, type, 1);
	tb_put(t, at + 1, len, 1);
	tb_put(t, at + 2, handle, 2);
	return at;
}

/* The string set after a formatted area; none at all is two NULs (6.1.3). */
static void strings(struct tb *t, const char *const *s, int n)
{
	for (int i = 0; i < n; i++)
		tb_bytes(t, t->n, s[i], strlen(s[i]) + 1);
	if (n == 0)
		tb_grow(t, 1);
	tb_grow(t, 1);
}

/* Type 7 of SMBIOS 3.1+ (1Bh bytes): configuration, installed size (and size 2), type, ways. */
static void cache7(struct tb *t, uint16_t handle, uint16_t config, uint16_t installed,
		   uint32_t installed2, uint8_t type, uint8_t assoc)
{
	static const char *const name[] = { "Cache" };
	size_t at = structure(t, 7, 0x1B, handle);

	tb_put(t, at + 0x04, 1, 1);          /* Socket Designation: string 1 */
	tb_put(t, at + 0x05, config, 2);
	tb_put(t, at + 0x07, installed, 2);  /* Maximum Cache Size: as installed */
	tb_put(t, at + 0x09, installed, 2);
	tb_put(t, at + 0x0B, 0x0020, 2);     /* SRAM types: synchronous */
	tb_put(t, at + 0x0D, 0x0020, 2);
	tb_put(t, at + 0x10, 0x05, 1);       /* single-bit ECC */
	tb_put(t, at + 0x11, type, 1);
	tb_put(t, at + 0x12, assoc, 1);
	tb_put(t, at + 0x13, installed2, 4);
	tb_put(t, at + 0x17, installed2, 4);
	strings(t, name, 1);
}

/* Type 4 of `len` bytes: status, the three cache handles, and the counts. */
static size_t cpu4(struct tb *t, uint8_t len, uint16_t handle, uint8_t status, uint16_t l1)
{
	size_t at = structure(t, 4, len, handle);

	tb_put(t, at + 0x18, status, 1);
	for (int i = 0; i < 3; i++)
		tb_put(t, at + 0x1A + 2 * (size_t)i, (uint16_t)(l1 + i), 2);
	return at;
}

static void end(struct tb *t)
{
	structure(t, 127, 4, 0xFEFF);
	strings(t, NULL, 0);
}

static const struct mp_source *source(const char *name)
{
	for (int32_t i = 0; i < r.audit.nsources; i++)
		if (strcmp(r.audit.sources[i].name, name) == 0)
			return &r.audit.sources[i];
	return NULL;
}

static void check_cache(const struct mp_source *s, int i, int level, enum mp_kind type,
			int64_t size, int64_t ways, const char *what)
{
	const struct mp_doc_cache *c = &s->caches[i];

	CHECK(i < s->ncaches && c->level == level && c->type == type && c->size_bytes == size &&
		      c->ways == ways && c->scope == MP_SCOPE_PACKAGE && c->line_bytes == MP_NA,
	      "%s: L%d type %d size %lld ways %lld scope %d (want L%d type %d %lld %lld package)",
	      what, c->level, c->type, (long long)c->size_bytes, (long long)c->ways, c->scope,
	      level, type, (long long)size, (long long)ways);
}

/*
 * Two populated sockets, each type 4 naming its caches; one type 7 no type
 * 4 names; one disabled.  Sizes in 1K and 64K units and in Installed Cache
 * Size 2; counts at FFh, which sends them to the 16-bit fields.
 */
static void test_spec_table(void)
{
	static const char *const cpu_strings[] = { "CPU0", "Maker", "Model" };
	struct tb t = { .n = 0 };
	size_t c0 = cpu4(&t, 0x32, 0x0100, 0x41, 0x10), c1;
	const struct mp_source *s;

	tb_put(&t, c0 + 0x23, 0xFF, 1);      /* Core Count: see Core Count 2 */
	tb_put(&t, c0 + 0x24, 0xFF, 1);
	tb_put(&t, c0 + 0x25, 0xFF, 1);
	tb_put(&t, c0 + 0x2A, 300, 2);       /* Core Count 2 */
	tb_put(&t, c0 + 0x2C, 288, 2);       /* Core Enabled 2 */
	tb_put(&t, c0 + 0x2E, 600, 2);       /* Thread Count 2 */
	tb_put(&t, c0 + 0x30, 576, 2);       /* Thread Enabled */
	strings(&t, cpu_strings, 3);
	c1 = cpu4(&t, 0x30, 0x0101, 0x41, 0x20);
	tb_put(&t, c1 + 0x23, 8, 1);
	strings(&t, NULL, 0);
	cache7(&t, 0x10, 0x0180, 0x0600, 0x600, 4, 0x07);         /* L1 data 1536K 8-way */
	cache7(&t, 0x11, 0x0181, 0x8030, 0x80000030, 5, 0x08);    /* L2 48 x 64K, 16-way */
	cache7(&t, 0x12, 0x0182, 0xFFFF, 0x80010000, 5, 0x0B);    /* L3 65536 x 64K, 32-way */
	cache7(&t, 0x13, 0x0180, 0x0600, 0x600, 3, 0x06);         /* L1 instr., fully assoc. */
	cache7(&t, 0x14, 0x0101, 0x0100, 0x100, 5, 0x05);         /* L2, disabled */
	cache7(&t, 0x20, 0x0180, 0x0040, 0x40, 4, 0x07);          /* socket 1's L1 data */
	end(&t);
	mp_result_init(&r, "test");
	mp_smbios_sources(&r, t.b, t.n, "3.7");
	s = source(MP_SOURCE_SMBIOS_CACHES);
	CHECK(s && s->status == MP_SOURCE_OK && s->ncaches == 4, "type 7: 4 caches of socket 0");
	if (!s || s->ncaches != 4)
		return;
	check_cache(s, 0, 1, MP_KIND_DATA, 1536 * K, 8, "L1 data, 1K units");
	check_cache(s, 1, 2, MP_KIND_UNIFIED, 3 * M, 16, "L2, 64K units");
	check_cache(s, 2, 3, MP_KIND_UNIFIED, 4096 * M, 32, "L3, Installed Cache Size 2");
	check_cache(s, 3, 1, MP_KIND_INSTRUCTION, 1536 * K, MP_NA, "L1 instruction, no type 4");
	CHECK_EQ_STR(s->message, "SMBIOS 3.7", "version in the message");
	s = source(MP_SOURCE_SMBIOS_CPU);
	CHECK(s && s->cores == 288 && s->logical_cpus == 576 && s->threads_per_core == 2,
	      "type 4: enabled cores 288 (Core Enabled 2), threads 576 (Thread Enabled), 2 per core");
}

/* The recorded desktop: L1 384K unified 8-way, L2 1536K 4-way, L3 9216K 12-way, 6 cores. */
static void test_recorded(void)
{
	static const char *const strs[] = {
		"U3E1", "Intel(R) Corporation", "Intel(R) Core(TM) i5-9400F CPU @ 2.90GHz",
		"dahsjkghjkvcvfqrqer", "To Be Filled By O.E.M.", "To Be Filled By O.E.M.",
	};
	static const uint8_t id[8] = { 0xEA, 0x06, 0x09, 0x00, 0xFF, 0xFB, 0xEB, 0xBF };
	struct tb t = { .n = 0 };
	size_t c = cpu4(&t, 0x30, 0x003E, 0x41, 0x003B);
	const struct mp_source *s;

	tb_put(&t, c + 0x04, 1, 1);
	tb_put(&t, c + 0x05, 0x03, 1);       /* central processor */
	tb_put(&t, c + 0x06, 0xCD, 1);       /* Core i5 */
	tb_put(&t, c + 0x07, 2, 1);
	tb_bytes(&t, c + 0x08, id, sizeof(id));
	tb_put(&t, c + 0x10, 3, 1);
	tb_put(&t, c + 0x11, 0x8B, 1);       /* 1.1 V */
	tb_put(&t, c + 0x12, 100, 2);
	tb_put(&t, c + 0x14, 8300, 2);
	tb_put(&t, c + 0x16, 3900, 2);
	tb_put(&t, c + 0x19, 0x32, 1);       /* LGA1151 */
	tb_put(&t, c + 0x20, 4, 1);
	tb_put(&t, c + 0x21, 5, 1);
	tb_put(&t, c + 0x22, 6, 1);
	tb_put(&t, c + 0x23, 0x060606, 3);   /* core count, enabled, thread count */
	tb_put(&t, c + 0x26, 0x00EC, 2);
	tb_put(&t, c + 0x28, 0x00CD, 2);
	tb_put(&t, c + 0x2A, 0x0006, 2);
	tb_put(&t, c + 0x2C, 0x0006, 2);
	tb_put(&t, c + 0x2E, 0x0006, 2);
	strings(&t, strs, 6);
	cache7(&t, 0x003B, 0x0180, 0x0180, 0, 5, 0x07);
	cache7(&t, 0x003C, 0x0181, 0x0600, 0, 5, 0x05);
	cache7(&t, 0x003D, 0x0182, 0x2400, 0, 5, 0x09);
	end(&t);
	mp_result_init(&r, "test");
	mp_smbios_sources(&r, t.b, t.n, NULL);
	s = source(MP_SOURCE_SMBIOS_CACHES);
	CHECK(s && s->ncaches == 3, "recorded: three caches");
	if (!s || s->ncaches != 3)
		return;
	check_cache(s, 0, 1, MP_KIND_UNIFIED, 384 * K, 8, "recorded L1 (both L1s of 6 cores)");
	check_cache(s, 1, 2, MP_KIND_UNIFIED, 1536 * K, 4, "recorded L2 (6 x 256K)");
	check_cache(s, 2, 3, MP_KIND_UNIFIED, 9216 * K, 12, "recorded L3");
	s = source(MP_SOURCE_SMBIOS_CPU);
	CHECK(s && s->cores == 6 && s->logical_cpus == 6 && s->threads_per_core == 1,
	      "recorded: 6 cores, 6 threads");
}

/* Damage: a structure longer than the table; a string set without its end. */
static void test_damaged(void)
{
	struct tb t = { .n = 0 };
	size_t c = cpu4(&t, 0x30, 1, 0x41, 0x10);

	strings(&t, NULL, 0);
	tb_put(&t, c + 1, 0xF0, 1);          /* length past the end */
	mp_result_init(&r, "test");
	mp_smbios_sources(&r, t.b, t.n, "3.0");
	CHECK(source(MP_SOURCE_SMBIOS_CACHES)->status == MP_SOURCE_INVALID &&
		      source(MP_SOURCE_SMBIOS_CPU)->status == MP_SOURCE_INVALID,
	      "a structure past the end: both sources invalid (%s)",
	      source(MP_SOURCE_SMBIOS_CPU)->message);
	t.n = 0;
	cpu4(&t, 0x30, 1, 0x41, 0x10);
	tb_bytes(&t, t.n, "abc", 3);         /* no terminating NULs */
	mp_result_init(&r, "test");
	mp_smbios_sources(&r, t.b, t.n, "3.0");
	CHECK(source(MP_SOURCE_SMBIOS_CPU)->status == MP_SOURCE_INVALID, "strings without an end");
	t.n = 0;
	end(&t);
	mp_result_init(&r, "test");
	mp_smbios_sources(&r, t.b, t.n, "3.0");
	CHECK(source(MP_SOURCE_SMBIOS_CACHES)->status == MP_SOURCE_ABSENT &&
		      source(MP_SOURCE_SMBIOS_CPU)->status == MP_SOURCE_ABSENT,
	      "a table without types 4 and 7: both absent");
}

/* Entry points: 64-bit, 32-bit of 1Fh and of 1Eh bytes (the 2.1 specification's length). */
static void test_entry_points(void)
{
	struct tb t = { .n = 0 };
	struct mp_smbios_table e;
	const char *why = NULL;

	tb_bytes(&t, 0, "_SM3_", 5);
	tb_put(&t, 6, 0x18, 1);
	tb_put(&t, 7, 3, 1);
	tb_put(&t, 8, 6, 1);
	tb_put(&t, 0x0C, 0x1234, 4);
	tb_put(&t, 0x10, 0x7FFE0000ull, 8);
	tb_checksum(&t, 0, 0x18, 5);
	CHECK(mp_smbios_entry(t.b, 0x18, &e, &why) && e.address == 0x7FFE0000ull &&
		      e.length == 0x1234 && e.major == 3 && e.minor == 6,
	      "64-bit entry point: table at 0x7ffe0000, 0x1234 bytes, 3.6");
	t.b[0x10] ^= 1;
	CHECK(!mp_smbios_entry(t.b, 0x18, &e, &why), "64-bit entry point, checksum off: refused");
	for (uint8_t len = 0x1E; len <= 0x1F; len++) {
		t.n = 0;
		memset(t.b, 0, 0x20);
		tb_bytes(&t, 0, "_SM_", 4);
		tb_put(&t, 5, len, 1);
		tb_put(&t, 6, 2, 1);
		tb_put(&t, 7, 1, 1);
		tb_bytes(&t, 0x10, "_DMI_", 5);
		tb_put(&t, 0x16, 0x0456, 2);
		tb_put(&t, 0x18, 0x000F0000, 4);
		tb_checksum(&t, 0, len, 4);
		CHECK(mp_smbios_entry(t.b, 0x1F, &e, &why) && e.address == 0xF0000 &&
			      e.length == 0x456 && e.major == 2 && e.minor == 1,
		      "32-bit entry point of %02Xh bytes", len);
	}
	CHECK(!mp_smbios_entry((const uint8_t *)"_XX_ not an anchor", 18, &e, &why) && why,
	      "no anchor: refused (%s)", why ? why : "-");
}

int main(void)
{
	test_spec_table();
	test_recorded();
	test_damaged();
	test_entry_points();
	return check_done();
}
