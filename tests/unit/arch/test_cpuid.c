/* SPDX-License-Identifier: MIT */
/*
 * The CPUID decoders against recorded CPUs (tests/unit/arch/cpuid_records.h):
 * identification, topology, and every documented cache and TLB, field by
 * field.  The expected values are worked out by hand from the registers
 * and the SDM/APM encodings; the comments give the arithmetic.
 */
#include <stdio.h>

#include "arch/x86_64/cpuid.h"
#include "tests/check.h"
#include "tests/unit/arch/cpuid_records.h"

#define D MP_KIND_DATA
#define I MP_KIND_INSTRUCTION
#define U MP_KIND_UNIFIED
#define NA MP_NA
#define INC MP_INCL_INCLUSIVE
#define UNK MP_INCL_UNKNOWN
#define K 1024ll
#define M (1024ll * 1024)
#define G (1024ll * 1024 * 1024)

struct want_cache {
	int level;
	enum mp_kind kind;
	long long size, line, ways;
	int shared;
	enum mp_inclusion incl;
};

struct want_tlb {
	int level;
	enum mp_kind kind;
	long long page, entries, ways;
};

struct want {
	const char *vendor, *brand;
	int family, model, stepping;
	int logical, cores, per_core;
	const char *source;
	int dropped;
	int ncaches;
	struct want_cache caches[MP_MAX_CACHES];
	int ntlbs;
	struct want_tlb tlbs[MP_MAX_TLBS];
};

static void check_caches(const char *cpu, const struct mp_documented *d, const struct want *w)
{
	char n[96];

	snprintf(n, sizeof(n), "%s: caches", cpu);
	CHECK_EQ_INT(d->ncaches, w->ncaches, n);
	for (int i = 0; i < w->ncaches && i < d->ncaches; i++) {
		const struct mp_cache *c = &d->caches[i];
		const struct want_cache *e = &w->caches[i];

		snprintf(n, sizeof(n), "%s: cache %d", cpu, i);
		CHECK(c->level == e->level && c->type == e->kind && c->size_bytes == e->size &&
		      c->line_bytes == e->line && c->ways == e->ways && c->shared_by == e->shared &&
		      c->inclusion == e->incl && c->method == MP_METHOD_DOCUMENTED,
		      "%s: got L%d %s %lld B line %lld ways %lld shared %d incl %d, "
		      "want L%d %s %lld B line %lld ways %lld shared %d incl %d", n, (int)c->level,
		      mp_kind_name(c->type), (long long)c->size_bytes, (long long)c->line_bytes,
		      (long long)c->ways, (int)c->shared_by, (int)c->inclusion, e->level,
		      mp_kind_name(e->kind), e->size, e->line, e->ways, e->shared, (int)e->incl);
	}
}

static void check_tlbs(const char *cpu, const struct mp_documented *d, const struct want *w)
{
	char n[96];

	snprintf(n, sizeof(n), "%s: TLBs", cpu);
	CHECK_EQ_INT(d->ntlbs, w->ntlbs, n);
	for (int i = 0; i < w->ntlbs && i < d->ntlbs; i++) {
		const struct mp_tlb *t = &d->tlbs[i];
		const struct want_tlb *e = &w->tlbs[i];

		snprintf(n, sizeof(n), "%s: TLB %d", cpu, i);
		CHECK(t->level == e->level && t->type == e->kind && t->page_bytes == e->page &&
		      t->entries == e->entries && t->ways == e->ways &&
		      t->method == MP_METHOD_DOCUMENTED,
		      "%s: got L%d %s page %lld entries %lld ways %lld, "
		      "want L%d %s page %lld entries %lld ways %lld", n, (int)t->level,
		      mp_kind_name(t->type), (long long)t->page_bytes, (long long)t->entries,
		      (long long)t->ways, e->level, mp_kind_name(e->kind), e->page, e->entries,
		      e->ways);
	}
}

static void check_cpu(struct cpu_rec *rec, const struct want *w)
{
	struct mp_result r;
	char n[96];

	mp_result_init(&r, "test");
	mp_cpuid_fill(&r, rec_cpuid, rec);
	snprintf(n, sizeof(n), "%s: no leaf read above the maximum", rec->name);
	CHECK_EQ_INT(rec->past_max, 0, n);
	snprintf(n, sizeof(n), "%s: vendor", rec->name);
	CHECK_EQ_STR(r.machine.vendor, w->vendor, n);
	snprintf(n, sizeof(n), "%s: brand", rec->name);
	CHECK_EQ_STR(r.machine.brand, w->brand, n);
	CHECK(r.machine.family == w->family && r.machine.model == w->model &&
	      r.machine.stepping == w->stepping,
	      "%s: family/model/stepping got %d/%d/%d want %d/%d/%d", rec->name,
	      (int)r.machine.family, (int)r.machine.model, (int)r.machine.stepping, w->family,
	      w->model, w->stepping);
	CHECK(r.cpu.logical_cpus == w->logical && r.cpu.cores == w->cores &&
	      r.cpu.threads_per_core == w->per_core,
	      "%s: logical/cores/threads per core got %d/%d/%d want %d/%d/%d", rec->name,
	      (int)r.cpu.logical_cpus, (int)r.cpu.cores, (int)r.cpu.threads_per_core, w->logical,
	      w->cores, w->per_core);
	snprintf(n, sizeof(n), "%s: source", rec->name);
	CHECK_EQ_STR(r.documented.source, w->source, n);
	snprintf(n, sizeof(n), "%s: dropped-records notes", rec->name);
	CHECK_EQ_INT(r.nnotes, w->dropped > 0, n);
	check_caches(rec->name, &r.documented, w);
	check_tlbs(rec->name, &r.documented, w);
}

/*
 * Pentium 4: max basic leaf 2, so leaf 4 must not be read (it would return
 * leaf 2's 665B5101H, a "data cache" of garbage).  Leaf 2 EAX 66 5B 51,
 * EDX 00 7B 70 40: 66H L1d 8K 4-way 64 B; 5BH data TLB 4K and 4M pages,
 * 64 entries; 51H instruction TLB 4K and 2M/4M pages, 128 entries (no ways
 * in either); 7BH L2 512K 8-way 64 B; 70H trace cache and 40H skipped.
 */
static const struct want p4 = {
	"GenuineIntel", "Intel(R) Pentium(R) 4 CPU 2.40GHz", 15, 2, 7, 1, 1, 1, "cpuid 2", 0,
	2, { { 1, D, 8 * K, 64, 4, NA, UNK }, { 2, U, 512 * K, 64, 8, NA, UNK } },
	4, { { 1, D, 4 * K, 64, NA }, { 1, D, 2 * M, 64, NA },
	     { 1, I, 4 * K, 128, NA }, { 1, I, 2 * M, 128, NA } },
};

/*
 * Core 2 Quad: leaf 4 gives L1d/L1i 32K (8 ways * 64 B * 64 sets) and L2
 * 4M (16 * 64 * 4096) shared by 2 (EAX[25:14] = 1).  TLBs from leaf 2:
 * B1H ITLB 2M 8 entries 4-way, B0H ITLB 4K 128 4-way, 05H DTLB1 4M 32
 * 4-way, 57H DTLB0 4K 16 4-way, 56H DTLB0 4M 16 4-way, B4H DTLB1 4K 256
 * 4-way.  No leaf 0BH (max 0AH): 4 logical (leaf 1 EBX[23:16]) over 4
 * cores (leaf 4 EAX[31:26] + 1).
 */
static const struct want q6600 = {
	"GenuineIntel", "Intel(R) Core(TM)2 Quad CPU    Q6600  @ 2.40GHz", 6, 15, 11, 4, 4, 1,
	"cpuid 4, 2", 0,
	3, { { 1, D, 32 * K, 64, 8, 1, UNK }, { 1, I, 32 * K, 64, 8, 1, UNK },
	     { 2, U, 4 * M, 64, 16, 2, UNK } },
	6, { { 1, D, 4 * K, 16, 4 }, { 1, D, 2 * M, 16, 4 }, { 1, I, 4 * K, 128, 4 },
	     { 1, I, 2 * M, 8, 4 }, { 2, D, 4 * K, 256, 4 }, { 2, D, 2 * M, 32, 4 } },
};

/*
 * Atom 230: leaf 4 L1d 24K 6-way (EBX 0140003FH), L1i 32K 8-way, L2 512K
 * 8-way, each shared by the 2 threads of the one core.  Leaf 2: 59H DTLB0
 * 4K 16 fully, BAH DTLB1 4K 64 4-way, 4FH ITLB 4K 32 (no ways), C0H "Data
 * TLB" 4K and 4M 8 entries 4-way: it shares 4K with the DTLB0, so it is the
 * second level; its 4K part is smaller than BAH's and gives way.
 */
static const struct want atom = {
	"GenuineIntel", "Intel(R) Atom(TM) CPU  230   @ 1.60GHz", 6, 0x1c, 2, 2, 1, 2,
	"cpuid 4, 2", 0,
	3, { { 1, D, 24 * K, 64, 6, 2, UNK }, { 1, I, 32 * K, 64, 8, 2, UNK },
	     { 2, U, 512 * K, 64, 8, 2, UNK } },
	4, { { 1, D, 4 * K, 16, 16 }, { 1, I, 4 * K, 32, NA }, { 2, D, 4 * K, 64, 4 },
	     { 2, D, 2 * M, 8, 4 } },
};

/*
 * Skylake: leaf 4 L1d/L1i 32K 8-way, L2 256K 4-way (EBX 00C0003FH), L3 8M
 * 16-way inclusive (EDX bit 1) whose 16 addressable sharing IDs are capped
 * at the package's 8 logical CPUs.  Leaf 2 (FFH: caches in leaf 4): 63H
 * DTLB 2M 32 4-way + 1G 4 4-way, 03H DTLB 4K 64 4-way, 76H ITLB 2M 8 fully,
 * B5H ITLB 4K 64 8-way, C3H STLB 4K/2M 1536 6-way + 1G 16 4-way.
 */
static const struct want skl = {
	"GenuineIntel", "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz", 6, 0x5e, 3, 8, 4, 2,
	"cpuid 4, 2", 0,
	4, { { 1, D, 32 * K, 64, 8, 2, UNK }, { 1, I, 32 * K, 64, 8, 2, UNK },
	     { 2, U, 256 * K, 64, 4, 2, UNK }, { 3, U, 8 * M, 64, 16, 8, INC } },
	8, { { 1, D, 4 * K, 64, 4 }, { 1, D, 2 * M, 32, 4 }, { 1, D, 1 * G, 4, 4 },
	     { 1, I, 4 * K, 64, 8 }, { 1, I, 2 * M, 8, 8 },
	     { 2, U, 4 * K, 1536, 6 }, { 2, U, 2 * M, 1536, 6 }, { 2, U, 1 * G, 16, 4 } },
};

/*
 * Ice Lake: leaf 4 L1d 48K 12-way, L1i 32K, L2 512K 8-way, L3 8M.  Leaf
 * 18H: sub 1 ITLB 4K/2M/4M 8 ways * 1 set fully; sub 2 store-only (left
 * out); sub 3 load DTLB 4K 4 * 16; sub 4 load 2M/4M 4 * 8; sub 5 load 1G
 * 8 * 1 fully; sub 6 STLB 4K/2M/4M 8 * 128; sub 7 STLB 4K/1G 8 * 128: the
 * 4K capacity of the two STLB structures adds up to 2048, 16 ways.
 */
static const struct want icl = {
	"GenuineIntel", "Intel(R) Core(TM) i7-1065G7 CPU @ 1.30GHz", 6, 0x7e, 5, 8, 4, 2,
	"cpuid 4, 0x18", 0,
	4, { { 1, D, 48 * K, 64, 12, 2, UNK }, { 1, I, 32 * K, 64, 8, 2, UNK },
	     { 2, U, 512 * K, 64, 8, 2, UNK }, { 3, U, 8 * M, 64, 16, 8, INC } },
	8, { { 1, D, 4 * K, 64, 4 }, { 1, D, 2 * M, 32, 4 }, { 1, D, 1 * G, 8, 8 },
	     { 1, I, 4 * K, 8, 8 }, { 1, I, 2 * M, 8, 8 },
	     { 2, U, 4 * K, 2048, 16 }, { 2, U, 2 * M, 1024, 8 }, { 2, U, 1 * G, 1024, 8 } },
};

/*
 * Zen 4: Fn8000_001D L1d/L1i 32K 8-way shared by 2, L2 1M 8-way (2048
 * sets) inclusive, L3 32M 16-way shared by 16.  TLBs: 0005 L1 DTLB 72 and
 * ITLB 64 fully associative (FFH) for 4K and 2M; 0006 L2 DTLB 4K 3072
 * (code 6: 8 ways), 2M 3072 (code 5: 6 ways), L2 ITLB 4K 512 (code 4),
 * 2M 512 (code 2); 0019 L1 1G DTLB 72 / ITLB 64 and L2 1G DTLB 64, all
 * fully associative.  Eleven TLBs: the instruction L1 2M, L2 2M and L1 1G
 * ones do not fit.
 */
static const struct want zen4 = {
	"AuthenticAMD", "AMD Ryzen 7 7700X 8-Core Processor", 25, 0x61, 2, 16, 8, 2,
	"cpuid 0x8000001d, 0x80000005, 0x80000006, 0x80000019", 3,
	4, { { 1, D, 32 * K, 64, 8, 2, UNK }, { 1, I, 32 * K, 64, 8, 2, UNK },
	     { 2, U, 1 * M, 64, 8, 2, INC }, { 3, U, 32 * M, 64, 16, 16, UNK } },
	8, { { 1, D, 4 * K, 72, 72 }, { 1, D, 2 * M, 72, 72 }, { 1, D, 1 * G, 72, 72 },
	     { 1, I, 4 * K, 64, 64 }, { 2, D, 4 * K, 3072, 8 }, { 2, D, 2 * M, 3072, 6 },
	     { 2, D, 1 * G, 64, 64 }, { 2, I, 4 * K, 512, 4 } },
};

/*
 * Phenom II (K10): no TopologyExtensions, so caches from 0005/0006: L1d
 * and L1i 64K 2-way; L2 512K code 8 (16 ways); L3 12 * 512K = 6M code B
 * (48 ways).  TLBs: L1 DTLB 48 fully (4K, 2M), ITLB 4K 32, 2M 16 fully;
 * L2 DTLB 4K 512 4-way, 2M 128 2-way, ITLB 4K 512 4-way; 1G: L1 DTLB 48
 * fully, L2 DTLB 16 code 6 (8 ways).  The ITLB 2M entry does not fit.
 * No leaf 0BH: NC + 1 = 4 logical, one thread per core.
 */
static const struct want k10 = {
	"AuthenticAMD", "AMD Phenom(tm) II X4 940 Processor", 16, 4, 2, 4, 4, 1,
	"cpuid 0x80000005, 0x80000006, 0x80000019", 1,
	4, { { 1, D, 64 * K, 64, 2, NA, UNK }, { 1, I, 64 * K, 64, 2, NA, UNK },
	     { 2, U, 512 * K, 64, 16, NA, UNK }, { 3, U, 6 * M, 64, 48, NA, UNK } },
	8, { { 1, D, 4 * K, 48, 48 }, { 1, D, 2 * M, 48, 48 }, { 1, D, 1 * G, 48, 48 },
	     { 1, I, 4 * K, 32, 32 }, { 2, D, 4 * K, 512, 4 }, { 2, D, 2 * M, 128, 2 },
	     { 2, D, 1 * G, 16, 8 }, { 2, I, 4 * K, 512, 4 } },
};

/*
 * This VM: family 19H model 01H.  Fn8000_001D: L1d/L1i 32K 8-way, L2 512K
 * 8-way (1024 sets) inclusive, L3 32M 16-way shared by 2.  TLBs: L1 DTLB
 * and ITLB 64 fully (4K, 2M); L2 DTLB 4K 2048 code 6 (8 ways), 2M 2048
 * code 4, L2 ITLB 4K 512 code 4, 2M 512 code 2; 0019 all zero.
 */
static const struct want vm = {
	"AuthenticAMD", "AMD EPYC", 25, 1, 1, 2, 2, 1,
	"cpuid 0x8000001d, 0x80000005, 0x80000006", 0,
	4, { { 1, D, 32 * K, 64, 8, 1, UNK }, { 1, I, 32 * K, 64, 8, 1, UNK },
	     { 2, U, 512 * K, 64, 8, 1, INC }, { 3, U, 32 * M, 64, 16, 2, UNK } },
	8, { { 1, D, 4 * K, 64, 64 }, { 1, D, 2 * M, 64, 64 }, { 1, I, 4 * K, 64, 64 },
	     { 1, I, 2 * M, 64, 64 }, { 2, D, 4 * K, 2048, 8 }, { 2, D, 2 * M, 2048, 4 },
	     { 2, I, 4 * K, 512, 4 }, { 2, I, 2 * M, 512, 2 } },
};

/*
 * The Core 2's leaf 2 cache descriptors, read as if leaf 4 were absent
 * (leaf 0 cut to 2): 2CH L1d 32K 8-way, 30H L1i 32K 8-way, and 49H, which
 * is an L2 on family 6 (an L3 only on Xeon MP family 0FH model 06H).
 */
static void test_leaf2_caches(void)
{
	struct rec recs[sizeof(rec_q6600) / sizeof(rec_q6600[0])];
	struct cpu_rec c = CPU_REC("core2 leaf 2", recs);
	static const struct want w = {
		.ncaches = 3,
		.caches = { { 1, D, 32 * K, 64, 8, NA, UNK }, { 1, I, 32 * K, 64, 8, NA, UNK },
			    { 2, U, 4 * M, 64, 16, NA, UNK } },
	};
	struct mp_cpuid cpuid;
	struct mp_documented d;

	memcpy(recs, rec_q6600, sizeof(recs));
	recs[0].r[0] = 2;
	mp_cpuid_open(&cpuid, rec_cpuid, &c);
	mp_cpuid_documented(&cpuid, &d);
	check_caches(c.name, &d, &w);
	CHECK_EQ_STR(d.source, "cpuid 2", "core2 leaf 2: source");
}

/* A copy of a record with one register changed: for rules no recorded CPU exercises. */
static void patch(struct rec *recs, size_t n, uint32_t leaf, uint32_t sub, int reg, uint32_t v)
{
	for (size_t i = 0; i < n; i++)
		if (recs[i].leaf == leaf && (recs[i].sub == sub || recs[i].sub == ANY))
			recs[i].r[reg] = v;
}

/*
 * Zen 4 with TopologyExtensions hidden (80000001H ECX bit 22 clear, as a
 * hypervisor may show it): Fn8000_001D must be left alone and the caches
 * come from 0005/0006: L2 400H KB code 6 (8 ways), L3 40H * 512K = 32M
 * with code 9 ("see Fn8000_001D": no way count).
 */
static void test_amd_without_topoext(void)
{
	struct rec recs[sizeof(rec_zen4) / sizeof(rec_zen4[0])];
	struct cpu_rec c = CPU_REC("zen4 without topoext", recs);
	static const struct want w = {
		.ncaches = 4,
		.caches = { { 1, D, 32 * K, 64, 8, NA, UNK }, { 1, I, 32 * K, 64, 8, NA, UNK },
			    { 2, U, 1 * M, 64, 8, NA, UNK }, { 3, U, 32 * M, 64, NA, NA, UNK } },
	};
	struct mp_cpuid cpuid;
	struct mp_documented d;

	memcpy(recs, rec_zen4, sizeof(recs));
	patch(recs, c.n, 0x80000001u, 0, MP_ECX, 0x75c237ffu & ~(1u << 22));
	mp_cpuid_open(&cpuid, rec_cpuid, &c);
	mp_cpuid_documented(&cpuid, &d);
	check_caches(c.name, &d, &w);
	CHECK_EQ_STR(d.source, "cpuid 0x80000005, 0x80000006, 0x80000019",
		     "zen4 without topoext: source");
}

/* Leaf 4 EAX bit 9, fully associative: ways = lines (Skylake's L1d with the bit set). */
static void test_fully_associative_cache(void)
{
	struct rec recs[sizeof(rec_skl) / sizeof(rec_skl[0])];
	struct cpu_rec c = CPU_REC("skylake fully associative L1d", recs);
	struct mp_cpuid cpuid;
	struct mp_documented d;

	memcpy(recs, rec_skl, sizeof(recs));
	patch(recs, c.n, 4, 0, MP_EAX, 0x1c004121u | (1u << 9));
	mp_cpuid_open(&cpuid, rec_cpuid, &c);
	mp_cpuid_documented(&cpuid, &d);
	CHECK(d.caches[0].level == 1 && d.caches[0].size_bytes == 32 * K &&
	      d.caches[0].ways == 512, "%s: ways %lld want 512 (32K / 64 B)", c.name,
	      (long long)d.caches[0].ways);
}

/* The reader refuses leaves above the maximum and reports zeros. */
static void test_reader(void)
{
	struct cpu_rec c = CPU_REC("p4", rec_p4);
	struct mp_cpuid cpuid;
	uint32_t r[4] = { 1, 1, 1, 1 };

	mp_cpuid_open(&cpuid, rec_cpuid, &c);
	CHECK_EQ_INT(cpuid.max_basic, 2, "reader: p4 max basic leaf");
	CHECK_EQ_INT(cpuid.max_ext, 0x80000004u, "reader: p4 max extended leaf");
	CHECK(!mp_cpuid_leaf(&cpuid, 4, 0, r) && r[0] == 0 && r[1] == 0 && c.past_max == 0,
	      "reader: leaf 4 above the maximum is not read and reads as zeros");
	CHECK(mp_cpuid_leaf(&cpuid, 2, 0, r) && r[0] == 0x665b5101u, "reader: leaf 2 is read");
	CHECK(!mp_cpuid_leaf(&cpuid, 0x80000008u, 0, r) && c.past_max == 0,
	      "reader: extended leaf above the maximum is not read");
	CHECK(!mp_cpuid_has_1g_pages(&cpuid), "reader: p4 has no 1G pages");
}

/* 1 GB pages: 80000001H EDX bit 26. */
static void test_1g_pages(void)
{
	struct cpu_rec a = CPU_REC("zen4", rec_zen4), b = CPU_REC("q6600", rec_q6600);
	struct mp_cpuid ca, cb;

	mp_cpuid_open(&ca, rec_cpuid, &a);
	mp_cpuid_open(&cb, rec_cpuid, &b);
	CHECK(mp_cpuid_has_1g_pages(&ca), "1G pages: zen4 has them (EDX 2FD3FBFFH)");
	CHECK(!mp_cpuid_has_1g_pages(&cb), "1G pages: core 2 has none (EDX 20000000H)");
}

/* A hypervisor: leaf 1 ECX bit 31 (the recorded KVM guest's FFFA3203H, a Zen 4's 7EF8320BH). */
static void test_hypervisor(void)
{
	struct cpu_rec a = CPU_REC("vm", rec_vm), b = CPU_REC("zen4", rec_zen4);
	struct mp_cpuid ca, cb;

	mp_cpuid_open(&ca, rec_cpuid, &a);
	mp_cpuid_open(&cb, rec_cpuid, &b);
	CHECK(mp_cpuid_hypervisor(&ca), "hypervisor: the KVM guest's record says so");
	CHECK(!mp_cpuid_hypervisor(&cb), "hypervisor: the Zen 4 record runs natively");
}

int main(void)
{
	struct cpu_rec cpus[] = {
		CPU_REC("p4", rec_p4),       CPU_REC("core2", rec_q6600), CPU_REC("atom", rec_atom),
		CPU_REC("skylake", rec_skl), CPU_REC("icelake", rec_icl), CPU_REC("zen4", rec_zen4),
		CPU_REC("k10", rec_k10),     CPU_REC("vm", rec_vm),
	};
	const struct want *wants[] = { &p4, &q6600, &atom, &skl, &icl, &zen4, &k10, &vm };

	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++)
		check_cpu(&cpus[i], wants[i]);
	test_leaf2_caches();
	test_amd_without_topoext();
	test_fully_associative_cache();
	test_reader();
	test_1g_pages();
	test_hypervisor();
	return check_done();
}
