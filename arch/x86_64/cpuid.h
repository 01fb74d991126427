/* SPDX-License-Identifier: MIT */
/*
 * CPU identification from CPUID: vendor, family/model/stepping, brand
 * string, the caches and TLBs the CPU documents, and the logical CPU
 * topology.  Pure decoding: every leaf is read through a callback, so the
 * UEFI application and the Linux command pass the real instruction
 * (mp_cpuid_hw) and the unit tests pass recorded register values.
 * docs/cpu.md describes the sources and rules.
 */
#ifndef MEMPROBE_ARCH_X86_64_CPUID_H
#define MEMPROBE_ARCH_X86_64_CPUID_H

#include <stdbool.h>
#include <stdint.h>

#include "core/platform.h"
#include "core/results/result.h"

/* Register order in regs[]: EAX, EBX, ECX, EDX. */
enum { MP_EAX = 0, MP_EBX = 1, MP_ECX = 2, MP_EDX = 3 };

/* Executes (or replays) CPUID with EAX = leaf, ECX = subleaf. */
typedef void (*mp_cpuid_fn)(void *arg, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

/* The CPUID instruction itself (cpuid_hw.c); arg is unused. */
void mp_cpuid_hw(void *arg, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

enum mp_x86_vendor { MP_X86_OTHER = 0, MP_X86_INTEL, MP_X86_AMD };

/* A CPUID reader: the callback and what leaf 0 and 0x80000000 told. */
struct mp_cpuid {
	mp_cpuid_fn fn;
	void *arg;
	uint32_t max_basic;        /* highest basic leaf, CPUID.0:EAX */
	uint32_t max_ext;          /* highest extended leaf, 0 when there are none */
	enum mp_x86_vendor vendor;
	char vendor_id[13];        /* "GenuineIntel", "AuthenticAMD", ... */
	int32_t family, model, stepping; /* display values, extended fields applied */
};

void mp_cpuid_open(struct mp_cpuid *c, mp_cpuid_fn fn, void *arg);

/*
 * Read a leaf.  A leaf above the maximum is not read at all (the CPU would
 * answer with another leaf's data): false, and regs are zero.
 */
bool mp_cpuid_leaf(const struct mp_cpuid *c, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

/* Vendor string, brand string (trimmed), family, model, stepping. */
void mp_cpuid_machine(const struct mp_cpuid *c, struct mp_machine *m);

/*
 * Logical CPUs, cores and threads per core of one package (leaf 0xB, else
 * leaf 1 and 4 on Intel, 0x80000008 and 0x8000001E on AMD).  Only those
 * three fields are written; MP_NA where CPUID does not tell.  Returns the
 * leaves that told ("cpuid 0xb"), NULL when none did.
 */
const char *mp_cpuid_topology(const struct mp_cpuid *c, struct mp_cpu *cpu);

/*
 * Where the logical CPU executing `c`'s CPUID sits (cpuid_topo.c): its
 * x2APIC ID, package, die, cluster (the last-level cache's instance where
 * it splits the package), core and thread, and its hybrid core type.  Run
 * it on that CPU.  Fields nobody tells are MP_CPU_UNKNOWN.  Returns the
 * leaves that told ("cpuid 0x1f"), NULL when none did.
 */
const char *mp_cpuid_cpu_info(const struct mp_cpuid *c, struct mp_cpu_info *out);

/*
 * The documented caches and TLBs (method MP_METHOD_DOCUMENTED, `source`
 * naming the leaves used).  Returns how many records did not fit the
 * fixed tables (MP_MAX_CACHES, MP_MAX_TLBS): docs/cpu.md gives the order
 * in which TLBs are kept.
 */
int32_t mp_cpuid_documented(const struct mp_cpuid *c, struct mp_documented *d);

/* Leaf 16H's frequencies, the arithmetic features, the ISA's registers (cpuid_decode_cpu.c). */
void mp_cpuid_cpu_doc(const struct mp_cpuid *c, struct mp_cpu_doc *d);

/* 1 GB pages: CPUID.80000001H:EDX.Page1GB[bit 26] (Intel SDM Vol. 2A, CPUID). */
bool mp_cpuid_has_1g_pages(const struct mp_cpuid *c);

/* CLFLUSHOPT: CPUID.(EAX=07H,ECX=0):EBX[bit 23] (Intel SDM Vol. 2A, CPUID). */
bool mp_cpuid_has_clflushopt(const struct mp_cpuid *c);

/*
 * Running under a hypervisor: CPUID.01H:ECX[bit 31], reserved as 0 on real
 * processors and set by hypervisors (Intel SDM Vol. 2A, CPUID; the
 * hypervisor CPUID interface that KVM, Hyper-V, Xen and VMware share).
 */
bool mp_cpuid_hypervisor(const struct mp_cpuid *c);

/*
 * Every leaf that documents caches, TLBs or the package's topology, each as
 * its own source of result.audit (cpuid_sources.c, docs/cpu.md).
 */
void mp_cpuid_sources(const struct mp_cpuid *c, struct mp_result *r);

/*
 * Everything above into a result: machine, documented, the cpu counts, the
 * sources, and a note when records were dropped.  What the front ends call.
 */
void mp_cpuid_fill(struct mp_result *r, mp_cpuid_fn fn, void *arg);

#endif
