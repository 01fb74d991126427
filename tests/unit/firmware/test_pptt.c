/* SPDX-License-Identifier: MIT */
/*
 * core/firmware/pptt.c and acpi.c against tables built byte by byte from
 * the ACPI Specification 6.6 (PPTT 5.2.31: processor hierarchy node
 * 5.2.31.1, cache type structure 5.2.31.2; RSDP 5.2.5.3, header 5.2.6,
 * RSDT 5.2.7, XSDT 5.2.8), and against the recorded PPTT of an NXP LX2160A
 * board (SolidRun HoneyComb, published with its raw bytes in
 * github.com/niyas-sait/acpi, honeycomb/pptt.dsl): 16 cores in 8 clusters,
 * revision 1, whose L1 caches do not add up: the data caches say 32K in
 * 128 sets of 2 ways of 64 bytes (16K), the instruction caches 48K in 192
 * sets of 3 ways (36K).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>

#include "core/firmware/firmware.h"
#include "core/lib/str.h"
#include "core/results/audit.h"
#include "tests/check.h"
#include "tests/unit/firmware/fwbuild.h"

#define K 1024ll
#define M (1024ll * 1024)

/* Node flags and cache flags and attributes (5.2.31.1, 5.2.31.2). */
#define PACKAGE 0x01
#define ID_VALID 0x02
#define THREAD 0x04
#define LEAF 0x08
#define ALL_VALID 0x7F
#define DATA_RW 0x02                 /* data, read and write allocate */
#define INSTR_READ 0x04              /* instruction, read allocate */
#define UNIFIED_RW 0x0A
#define UNIFIED_READ 0x08

static struct mp_result r;

static void header(struct tb *t, uint8_t revision, const char *oem, const char *table,
		   const char *creator, uint32_t creator_rev)
{
	t->n = 0;
	tb_grow(t, 36);
	tb_bytes(t, 0, "PPTT", 4);
	tb_put(t, 8, revision, 1);
	tb_bytes(t, 10, oem, 6);
	tb_bytes(t, 16, table, 8);
	tb_bytes(t, 28, creator, 4);
	tb_put(t, 32, creator_rev, 4);
}

/* Length and checksum once every structure is in. */
static void finish(struct tb *t)
{
	tb_put(t, 4, t->n, 4);
	tb_checksum(t, 0, t->n, 9);
}

/* A processor hierarchy node with `n` private resources (their offsets). */
static size_t node(struct tb *t, uint32_t flags, uint32_t parent, uint32_t id, int n,
		   const uint32_t *res)
{
	size_t at = tb_grow(t, 20 + 4 * (size_t)n);

	tb_put(t, at, 0, 1);
	tb_put(t, at + 1, 20 + 4 * (uint32_t)n, 1);
	tb_put(t, at + 4, flags, 4);
	tb_put(t, at + 8, parent, 4);
	tb_put(t, at + 12, id, 4);
	tb_put(t, at + 16, (uint32_t)n, 4);
	for (int i = 0; i < n; i++)
		tb_put(t, at + 20 + 4 * (size_t)i, res[i], 4);
	return at;
}

/* A cache type structure of revision 1 or 2 (24 bytes). */
static size_t cache(struct tb *t, uint32_t flags, uint32_t next, uint32_t size, uint32_t sets,
		    uint8_t ways, uint8_t attr, uint16_t line)
{
	size_t at = tb_grow(t, 24);

	tb_put(t, at, 1, 1);
	tb_put(t, at + 1, 24, 1);
	tb_put(t, at + 4, flags, 4);
	tb_put(t, at + 8, next, 4);
	tb_put(t, at + 12, size, 4);
	tb_put(t, at + 16, sets, 4);
	tb_put(t, at + 20, ways, 1);
	tb_put(t, at + 21, attr, 1);
	tb_put(t, at + 22, line, 2);
	return at;
}

static const struct mp_source *pptt_source(void)
{
	for (int32_t i = 0; i < r.audit.nsources; i++)
		if (strcmp(r.audit.sources[i].name, MP_SOURCE_PPTT) == 0)
			return &r.audit.sources[i];
	return NULL;
}

static const struct mp_doc_cache *find(const struct mp_source *s, int level, enum mp_kind type)
{
	for (int32_t i = 0; s && i < s->ncaches; i++)
		if (s->caches[i].level == level && s->caches[i].type == type)
			return &s->caches[i];
	return NULL;
}

static void check_cache(const struct mp_source *s, int level, enum mp_kind type, int64_t size,
			int64_t ways, int32_t shared, enum mp_tristate wa, const char *what)
{
	const struct mp_doc_cache *c = find(s, level, type);

	CHECK(c && c->size_bytes == size && c->ways == ways && c->line_bytes == 64 &&
		      c->shared_by == shared && c->write_allocate == wa && c->scope == MP_SCOPE_ONE,
	      "%s: size %lld ways %lld line %lld shared by %d write-allocate %d", what,
	      c ? (long long)c->size_bytes : -9, c ? (long long)c->ways : -9,
	      c ? (long long)c->line_bytes : -9, c ? c->shared_by : -9,
	      c ? (int)c->write_allocate : -9);
}

/*
 * Revision 3, one package of two cores of two threads: L3 in the package
 * node, L1 data and instruction in each core node with L2 as their next
 * level, the threads as leaves.
 */
static void test_spec_table(struct tb *t)
{
	uint32_t l3, pkg, l2, l1d, l1i, core, res[2];
	const struct mp_source *s;

	header(t, 3, "MEMPRB", "SPECTEST", "TEST", 1);
	l3 = (uint32_t)cache(t, ALL_VALID, 0, 4 * M, 4096, 16, UNIFIED_RW, 64);
	pkg = (uint32_t)node(t, PACKAGE, 0, 0, 1, &l3);
	for (uint32_t c = 0; c < 2; c++) {
		l2 = (uint32_t)cache(t, ALL_VALID, 0, 512 * K, 1024, 8, UNIFIED_READ, 64);
		l1d = (uint32_t)cache(t, ALL_VALID, l2, 32 * K, 64, 8, DATA_RW, 64);
		l1i = (uint32_t)cache(t, ALL_VALID, l2, 32 * K, 64, 8, INSTR_READ, 64);
		res[0] = l1d;
		res[1] = l1i;
		core = (uint32_t)node(t, 0, pkg, 0, 2, res);
		node(t, THREAD | LEAF | ID_VALID, core, 2 * c, 0, NULL);
		node(t, THREAD | LEAF | ID_VALID, core, 2 * c + 1, 0, NULL);
	}
	finish(t);
	mp_result_init(&r, "test");
	mp_pptt_source(&r, t->b, t->n);
	s = pptt_source();
	CHECK(s && s->status == MP_SOURCE_OK && s->ncaches == 4 && !s->message[0],
	      "spec table: 4 caches, no complaint (%s)", s ? s->message : "-");
	check_cache(s, 1, MP_KIND_DATA, 32 * K, 8, 2, MP_YES, "L1 data, shared by the core's 2 threads");
	check_cache(s, 1, MP_KIND_INSTRUCTION, 32 * K, 8, 2, MP_NO, "L1 instruction, read allocate");
	check_cache(s, 2, MP_KIND_UNIFIED, 512 * K, 8, 2, MP_NO, "L2: the L1s' next level");
	check_cache(s, 3, MP_KIND_UNIFIED, 4 * M, 16, 4, MP_YES, "L3: the package's, shared by 4");
	CHECK(s && s->logical_cpus == 4 && s->cores == 2 && s->threads_per_core == 2,
	      "package: 4 logical CPUs, 2 cores, 2 threads per core");
}

/* The first bytes of the recorded table, as its dump shows them. */
static const uint8_t lx2160_start[0x30] = {
	0x50, 0x50, 0x54, 0x54, 0x94, 0x06, 0x00, 0x00, 0x01, 0xB2, 0x4E, 0x58, 0x50, 0x20, 0x20, 0x20,
	0x4C, 0x58, 0x32, 0x31, 0x36, 0x30, 0x20, 0x20, 0x00, 0x00, 0x00, 0x00, 0x49, 0x4E, 0x54, 0x4C,
	0x24, 0x11, 0x15, 0x20, 0x00, 0x18, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* The recorded table: its structures repeat per cluster, so they are written as a loop. */
static void build_lx2160(struct tb *t)
{
	uint32_t l3 = 0x3C, res[2];

	header(t, 1, "NXP   ", "LX2160  ", "INTL", 0x20151124);
	node(t, PACKAGE, 0, 0, 1, &l3);
	cache(t, ALL_VALID, 0, 8 * M, 0x2000, 16, UNIFIED_READ, 64);
	for (uint32_t k = 0; k < 8; k++) {
		uint32_t cluster = (uint32_t)t->n, l2 = cluster + 0x18;

		node(t, 0, 0x24, 0, 1, &l2);
		cache(t, ALL_VALID, 0, 1 * M, 0x400, 16, UNIFIED_RW, 64);
		for (uint32_t c = 0; c < 2; c++) {
			res[0] = (uint32_t)t->n + 0x1C;
			res[1] = res[0] + 0x18;
			node(t, ID_VALID, cluster, 2 * k + c, 2, res);
			cache(t, ALL_VALID, 0, 32 * K, 0x80, 2, DATA_RW, 64);
			cache(t, 0x5F, 0, 48 * K, 0xC0, 3, INSTR_READ, 64);
		}
	}
	tb_put(t, 4, t->n, 4);
	tb_put(t, 9, 0xB2, 1);               /* the recorded checksum */
}

static void test_recorded(struct tb *t)
{
	const struct mp_source *s;

	build_lx2160(t);
	CHECK(t->n == 0x694 && memcmp(t->b, lx2160_start, sizeof(lx2160_start)) == 0,
	      "recorded table rebuilt: 0x694 bytes, first bytes as dumped");
	tb_checksum(t, 0, t->n, 9);
	CHECK(t->b[9] == 0xB2, "recorded table rebuilt: its own checksum B2h adds up (got %02Xh)",
	      t->b[9]);
	mp_result_init(&r, "test");
	mp_pptt_source(&r, t->b, t->n);
	s = pptt_source();
	check_cache(s, 1, MP_KIND_DATA, 32 * K, 2, 1, MP_YES, "recorded L1 data");
	check_cache(s, 1, MP_KIND_INSTRUCTION, 48 * K, 3, 1, MP_NO, "recorded L1 instruction");
	check_cache(s, 2, MP_KIND_UNIFIED, 1 * M, 16, 2, MP_YES, "recorded L2 of a cluster");
	check_cache(s, 3, MP_KIND_UNIFIED, 8 * M, 16, 16, MP_NO, "recorded L3 of the package");
	CHECK(s && strcmp(s->message, "L1 data: size 32K is not 128 sets x 2 ways x 64 B; "
				      "L1 instruction: size 48K is not 192 sets x 3 ways x 64 B") == 0,
	      "both L1 geometries that do not add up are named: \"%s\"", s ? s->message : "-");
	CHECK(s && s->logical_cpus == 16 && s->cores == MP_NA,
	      "recorded: 16 processors; cores not told apart from threads in revision 1");
}

/* Damage: a next-level loop, a reference out of the table, a broken header. */
static void test_damaged(struct tb *t)
{
	uint32_t l1, l2, res;
	const struct mp_source *s;

	header(t, 2, "MEMPRB", "DAMAGED ", "TEST", 1);
	l1 = (uint32_t)t->n;
	l2 = l1 + 24;
	cache(t, ALL_VALID, l2, 32 * K, 64, 8, DATA_RW, 64);
	cache(t, ALL_VALID, l1, 1 * M, 2048, 8, UNIFIED_RW, 64);   /* back to L1: a loop */
	res = l1;
	node(t, LEAF, 0, 0, 1, &res);
	res = 0x7000;
	node(t, LEAF, 0, 1, 1, &res);                               /* outside the table */
	finish(t);
	mp_result_init(&r, "test");
	mp_pptt_source(&r, t->b, t->n);
	s = pptt_source();
	CHECK(s && s->status == MP_SOURCE_OK && s->ncaches == 2 && find(s, 2, MP_KIND_UNIFIED),
	      "a next-level loop ends: L1 and L2 once each");
	t->b[0] = 'X';
	mp_result_init(&r, "test");
	mp_pptt_source(&r, t->b, t->n);
	CHECK(pptt_source()->status == MP_SOURCE_INVALID, "another signature: invalid");
	t->b[0] = 'P';
	mp_result_init(&r, "test");
	mp_pptt_source(&r, t->b, t->n - 4);
	CHECK(pptt_source()->status == MP_SOURCE_INVALID, "shorter than its length: invalid");
}

/* An RSDP of revision 2 pointing to an XSDT, or of revision 0 to an RSDT. */
static void build_root(struct tb *rsdp, struct tb *sdt, const uint8_t *const *tables, int n,
		       int revision)
{
	unsigned entry = revision >= 2 ? 8 : 4;

	sdt->n = 0;
	tb_grow(sdt, 36);
	tb_bytes(sdt, 0, revision >= 2 ? "XSDT" : "RSDT", 4);
	for (int i = 0; i < n; i++)
		tb_put(sdt, 36 + entry * (size_t)i, (uintptr_t)tables[i], entry);
	tb_put(sdt, 4, sdt->n, 4);
	tb_checksum(sdt, 0, sdt->n, 9);
	rsdp->n = 0;
	tb_grow(rsdp, 36);
	tb_bytes(rsdp, 0, "RSD PTR ", 8);
	tb_put(rsdp, 15, (uint32_t)revision, 1);
	tb_put(rsdp, 16, revision >= 2 ? 0 : (uintptr_t)sdt->b, 4);
	tb_put(rsdp, 20, 36, 4);
	tb_put(rsdp, 24, revision >= 2 ? (uintptr_t)sdt->b : 0, 8);
	tb_checksum(rsdp, 0, 20, 8);
	tb_checksum(rsdp, 0, 36, 32);
}

/* Tables where the RSDT's 32-bit entries can reach them (MAP_32BIT: the first 2 GB). */
static struct tb *low_tables(void)
{
	void *p = mmap(NULL, 4 * sizeof(struct tb), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void test_find(struct tb *pptt)
{
	static struct tb rsdp, sdt, other;
	const uint8_t *tables[2] = { other.b, pptt->b };
	struct tb *low = low_tables();
	const char *why = NULL;
	uint32_t len = 0;

	header(&other, 1, "MEMPRB", "OTHER   ", "TEST", 1);
	tb_bytes(&other, 0, "APIC", 4);
	finish(&other);
	build_root(&rsdp, &sdt, tables, 2, 2);
	CHECK(mp_acpi_find(rsdp.b, "PPTT", &len, &why) == pptt->b && len == pptt->n,
	      "XSDT: the PPTT found, %u bytes", len);
	CHECK(mp_acpi_find(rsdp.b, "SRAT", &len, &why) == NULL && why,
	      "XSDT: no SRAT (%s)", why ? why : "-");
	pptt->b[40] ^= 0xFF;
	CHECK(mp_acpi_find(rsdp.b, "PPTT", &len, &why) == NULL && why,
	      "a PPTT whose checksum fails: refused (%s)", why ? why : "-");
	pptt->b[40] ^= 0xFF;
	rsdp.b[1] = 'X';
	CHECK(mp_acpi_find(rsdp.b, "PPTT", &len, &why) == NULL, "a damaged root pointer: refused");
	CHECK(low != NULL, "memory below 4G for an RSDT");
	if (!low)
		return;
	low[0] = other;
	low[1] = *pptt;
	tables[0] = low[0].b;
	tables[1] = low[1].b;
	build_root(&low[2], &low[3], tables, 2, 0);
	CHECK(mp_acpi_find(low[2].b, "PPTT", &len, &why) == low[1].b,
	      "RSDT (revision 0): the PPTT found");
	munmap(low, 4 * sizeof(struct tb));
}

int main(void)
{
	static struct tb t;

	test_spec_table(&t);
	test_find(&t);
	test_recorded(&t);
	test_damaged(&t);
	return check_done();
}
