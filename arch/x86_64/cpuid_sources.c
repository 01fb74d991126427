/* SPDX-License-Identifier: MIT */
/*
 * Each CPUID leaf as its own documented source (result.audit.sources): the
 * decoders of cpuid_decode_*.c run once per leaf with the collector keeping
 * that leaf's records only, so that a leaf contradicting another is seen.
 * A leaf the CPU does not have, or that documents nothing, is left out.
 *
 * Fn8000_0006 EDX gives the L3 of the whole processor, every core complex
 * together, where Fn8000_001D gives one L3 (AMD APM Vol. 3, Appendix E;
 * the recorded Ryzen 7 3700X says 32M in Fn8000_0006 and 16M shared by 8
 * CPUs in Fn8000_001D, for its two core complexes): its size covers the
 * package.  Hypervisors often pass the host's Fn8000_0006 through while
 * they shape Fn8000_001D for the guest; the verdicts show it.
 */
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/cpuid_int.h"
#include "core/lib/bits.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/results/audit.h"

static void leaf_4(const struct mp_cpuid *c, struct mp_cpuid_list *l)
{
	mp_cpuid_det_caches(c, 4, l);
}

static void leaf_2(const struct mp_cpuid *c, struct mp_cpuid_list *l)
{
	mp_cpuid_leaf2(c, true, true, l);
}

static void leaf_18(const struct mp_cpuid *c, struct mp_cpuid_list *l)
{
	mp_cpuid_leaf18(c, l);
}

static void leaf_1d(const struct mp_cpuid *c, struct mp_cpuid_list *l)
{
	if (mp_cpuid_amd_topoext(c))
		mp_cpuid_det_caches(c, 0x8000001d, l);
}

/* Fn8000_0005, 0006 and 0019: the collector keeps the one leaf asked for. */
static void leaf_amd(const struct mp_cpuid *c, struct mp_cpuid_list *l)
{
	mp_cpuid_amd_caches(c, l);
	mp_cpuid_amd_tlbs(c, l);
}

static const struct leaf_source {
	uint32_t src;                /* MP_SRC_* */
	enum mp_x86_vendor vendor;
	void (*decode)(const struct mp_cpuid *c, struct mp_cpuid_list *l);
	int32_t package_level;       /* the cache level whose size covers the package; 0: none */
} leaves[] = {
	{ MP_SRC_4, MP_X86_INTEL, leaf_4, 0 },
	{ MP_SRC_2, MP_X86_INTEL, leaf_2, 0 },
	{ MP_SRC_18, MP_X86_INTEL, leaf_18, 0 },
	{ MP_SRC_8000001D, MP_X86_AMD, leaf_1d, 0 },
	{ MP_SRC_80000005, MP_X86_AMD, leaf_amd, 0 },
	{ MP_SRC_80000006, MP_X86_AMD, leaf_amd, 3 },
	{ MP_SRC_80000019, MP_X86_AMD, leaf_amd, 0 },
};

static void copy_records(struct mp_source *s, const struct mp_documented *d, int32_t package_level)
{
	for (int32_t i = 0; i < d->ncaches; i++) {
		struct mp_doc_cache *c = mp_source_add_cache(s);

		if (!c)
			break;
		mp_doc_cache_from(c, &d->caches[i]);
		if (c->level == package_level)
			c->scope = MP_SCOPE_PACKAGE;
	}
	for (int32_t i = 0; i < d->ntlbs; i++) {
		struct mp_tlb *t = mp_source_add_tlb(s);

		if (t)
			*t = d->tlbs[i];
	}
}

static void add_leaf(const struct mp_cpuid *c, struct mp_result *r, const struct leaf_source *ls,
		     int32_t package_cpus)
{
	static struct mp_cpuid_list l;
	static struct mp_documented d;
	struct mp_source *s;
	int32_t dropped;

	mp_memset(&l, 0, sizeof(l));
	l.package_cpus = package_cpus;
	l.only = ls->src;
	ls->decode(c, &l);
	dropped = mp_cl_finish(&l, &d);
	if (d.ncaches == 0 && d.ntlbs == 0)
		return;
	s = mp_audit_add_source(r, d.source);
	if (!s)
		return;
	copy_records(s, &d, ls->package_level);
	if (dropped > 0)
		mp_snprintf(s->message, sizeof(s->message),
			    "%d more records than the result tables hold", (int)dropped);
}

static void add_topology(const struct mp_cpuid *c, struct mp_result *r)
{
	struct mp_cpu cpu;
	const char *leaves = mp_cpuid_topology(c, &cpu);
	struct mp_source *s = leaves ? mp_audit_add_source(r, leaves) : NULL;

	if (!s)
		return;
	s->logical_cpus = cpu.logical_cpus;
	s->cores = cpu.cores;
	s->threads_per_core = cpu.threads_per_core;
}

void mp_cpuid_sources(const struct mp_cpuid *c, struct mp_result *r)
{
	struct mp_cpu cpu;

	mp_cpuid_topology(c, &cpu);
	for (size_t i = 0; i < MP_COUNT_OF(leaves); i++)
		if (leaves[i].vendor == c->vendor)
			add_leaf(c, r, &leaves[i], cpu.logical_cpus);
	add_topology(c, r);
}
