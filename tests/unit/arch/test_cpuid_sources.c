/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/cpuid_sources.c: each CPUID leaf as its own documented source,
 * on the recorded CPUs of cpuid_records.h, and the verdicts between them.
 */
#include <stdio.h>

#include "arch/x86_64/cpuid.h"
#include "core/results/audit.h"
#include "tests/check.h"
#include "tests/unit/arch/cpuid_records.h"

#define K 1024ll
#define M (1024ll * 1024)

static struct mp_result r;

static void fill(struct cpu_rec *rec)
{
	mp_result_init(&r, "test");
	mp_cpuid_fill(&r, rec_cpuid, rec);
	mp_audit_judge(&r);
}

static const struct mp_source *source(const char *name)
{
	for (int32_t i = 0; i < r.audit.nsources; i++)
		if (strcmp(r.audit.sources[i].name, name) == 0)
			return &r.audit.sources[i];
	return NULL;
}

static const struct mp_verdict *verdict(int level, enum mp_fact fact)
{
	for (int32_t i = 0; i < r.audit.nverdicts; i++) {
		const struct mp_verdict *v = &r.audit.verdicts[i];

		if (v->s.level == level && !v->s.tlb && v->fact == fact &&
		    v->s.type != MP_KIND_INSTRUCTION)
			return v;
	}
	return NULL;
}

/* The sources' names, in order, as one string. */
static const char *names(void)
{
	static char all[512];
	size_t n = 0;

	all[0] = '\0';
	for (int32_t i = 0; i < r.audit.nsources; i++)
		n += (size_t)snprintf(all + n, sizeof(all) - n, "%s%s", i ? "; " : "",
				      r.audit.sources[i].name);
	return all;
}

/*
 * This build machine's VM: Fn8000_0006 says a 256M L3 (the host's whole
 * package), Fn8000_001D a 32M L3 shared by the guest's 2 CPUs, which is the
 * whole guest package: the leaves disagree.
 */
static void test_vm(void)
{
	struct cpu_rec rec = CPU_REC("vm", rec_vm);
	const struct mp_source *s;
	const struct mp_verdict *v;

	fill(&rec);
	CHECK_EQ_STR(names(), "cpuid 0x8000001d; cpuid 0x80000005; cpuid 0x80000006; cpuid 0xb",
		     "vm: one source per leaf, 0x80000019 (all zero) left out");
	s = source("cpuid 0x80000006");
	CHECK(s && s->ncaches == 2 && s->caches[1].level == 3 && s->caches[1].size_bytes == 256 * M &&
		      s->caches[1].scope == MP_SCOPE_PACKAGE && s->caches[0].scope == MP_SCOPE_ONE &&
		      s->ntlbs == 4,
	      "vm: 0x80000006 holds L2 (one) and L3 (the package's), and the L2 TLBs");
	v = verdict(3, MP_FACT_SIZE);
	CHECK(v && v->sources_agree == MP_NO && mp_verdict_disagrees(v),
	      "vm: L3 size, 32M against 256M for a package of one L3: disagree");
	v = verdict(2, MP_FACT_SIZE);
	CHECK(v && v->sources_agree == MP_YES, "vm: L2 size agrees in 0x8000001d and 0x80000006");
	s = source("cpuid 0xb");
	CHECK(s && s->logical_cpus == 2 && s->cores == 2 && s->threads_per_core == 1 &&
		      s->ncaches == 0,
	      "vm: leaf 0xB as the package's source");
}

/* Ryzen 7 3700X: Fn8000_0006's 32M L3 is both 16M core complexes of 8 CPUs together. */
static void test_zen2(void)
{
	struct cpu_rec rec = CPU_REC("zen2", rec_zen2);
	const struct mp_verdict *v;

	fill(&rec);
	v = verdict(3, MP_FACT_SIZE);
	CHECK(v && v->sources_agree == MP_YES && v->converted != 0 && !mp_verdict_disagrees(v),
	      "zen2: 32M for the package of 16 CPUs is two L3s of 16M shared by 8: agree");
}

/* Skylake: leaf 2 has FFh (caches in leaf 4) and TLB descriptors; leaf 4's sharing via 0BH. */
static void test_skylake(void)
{
	struct cpu_rec rec = CPU_REC("skylake", rec_skl);
	const struct mp_source *leaf2, *leaf4;

	fill(&rec);
	leaf4 = source("cpuid 4");
	leaf2 = source("cpuid 2");
	CHECK(leaf2 && leaf2->ncaches == 0 && leaf2->ntlbs > 0,
	      "skylake: leaf 2 documents TLBs, no cache (FFh sends them to leaf 4)");
	CHECK(leaf4 && leaf4->ncaches == 4 && leaf4->caches[0].shared_by == 2 &&
		      leaf4->caches[3].shared_by == 8,
	      "skylake: leaf 4 shared by 2 (L1, one core's threads) and 8 (L3, the package)");
}

/* Core 2 Quad: leaf 4 and leaf 2 both describe the caches, and agree. */
static void test_core2(void)
{
	struct cpu_rec rec = CPU_REC("core2", rec_q6600);
	const struct mp_verdict *v;

	fill(&rec);
	v = verdict(2, MP_FACT_SIZE);
	CHECK(source("cpuid 2") && source("cpuid 4") && v && v->sources_agree == MP_YES,
	      "core2: L2 size the same in leaf 2 and leaf 4");
	CHECK_EQ_INT(mp_audit_disagreements(&r), 0, "core2: no disagreement between the leaves");
}

int main(void)
{
	test_vm();
	test_zen2();
	test_skylake();
	test_core2();
	return check_done();
}
