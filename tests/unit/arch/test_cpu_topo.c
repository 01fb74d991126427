/* SPDX-License-Identifier: MIT */
/*
 * One logical CPU's place from its own CPUID (mp_cpuid_cpu_info) against
 * register values built by hand from the manuals for a few parts, each
 * seen from one chosen logical CPU.  The comments give the bits.
 *
 * Leaf layouts: Intel SDM Vol. 2A, CPUID leaves 04H, 07H, 0BH, 1AH, 1FH;
 * AMD APM Vol. 3, Appendix E, Fn8000_001D, Fn8000_001E, Fn8000_0026.
 */
#include <stdio.h>

#include "arch/x86_64/cpuid.h"
#include "tests/check.h"
#include "tests/unit/arch/cpuid_records.h"

#define U MP_CPU_UNKNOWN
#define INTEL_ID 0x756e6547, 0x6c65746e, 0x49656e69 /* "Genu" "ntel" "ineI" */
#define AMD_ID 0x68747541, 0x444d4163, 0x69746e65   /* "Auth" "cAMD" "enti" */

/*
 * Intel Core i9-12900K (Alder Lake): 8 P-cores of 2 threads (x2APIC IDs
 * 0-15), 8 E-cores of one (0x20, 0x22, ... 0x2e).  Leaf 1FH: SMT shift 1,
 * core shift 6 (24 logical CPUs); CPUID.07H:EDX[15] hybrid; leaf 04H's L3
 * shared by 64 IDs (EAX[25:14] = 63, width 6: the whole package).
 * P-core thread 1 of core 1: x2APIC 3, leaf 1AH EAX 0x40000001 (Core).
 */
#define ADL_COMMON                                                                  \
	{ 0x00000000, ANY, { 0x00000020, INTEL_ID } },                              \
	{ 0x00000007, 0x0, { 0x00000000, 0x00000000, 0x00000000, 0x00008000 } },     \
	{ 0x00000004, 0x0, { 0x00004121, 0x02c0003f, 0x0000003f, 0x00000000 } },     \
	{ 0x00000004, 0x1, { 0x00004122, 0x01c0003f, 0x0000003f, 0x00000000 } },     \
	{ 0x00000004, 0x2, { 0x0001c143, 0x0240003f, 0x000007ff, 0x00000000 } },     \
	{ 0x00000004, 0x3, { 0x000fc163, 0x02c0003f, 0x00009fff, 0x00000004 } },     \
	{ 0x80000000, ANY, { 0x80000008, 0, 0, 0 } }

static const struct rec adl_p[] = {
	ADL_COMMON,
	{ 0x0000001a, ANY, { 0x40000001, 0, 0, 0 } },
	{ 0x0000001f, 0x0, { 0x00000001, 0x00000002, 0x00000100, 0x00000003 } },
	{ 0x0000001f, 0x1, { 0x00000006, 0x00000018, 0x00000201, 0x00000003 } },
	{ 0x0000001f, 0x2, { 0x00000000, 0x00000000, 0x00000002, 0x00000003 } },
};

/* The E-core at x2APIC 0x28: one thread (leaf 1FH SMT level EBX 1), leaf 1AH 0x20 (Atom). */
static const struct rec adl_e[] = {
	ADL_COMMON,
	{ 0x0000001a, ANY, { 0x20000001, 0, 0, 0 } },
	{ 0x0000001f, 0x0, { 0x00000001, 0x00000001, 0x00000100, 0x00000028 } },
	{ 0x0000001f, 0x1, { 0x00000006, 0x00000018, 0x00000201, 0x00000028 } },
	{ 0x0000001f, 0x2, { 0x00000000, 0x00000000, 0x00000002, 0x00000028 } },
};

/*
 * Intel Xeon Gold 6148 (Skylake-SP), two sockets of 20 cores, 2 threads
 * each; no leaf 1FH (maximum 16H).  Leaf 0BH: SMT shift 1, core shift 6.
 * Socket 1, core 12, thread 1: x2APIC (1 << 6) | (12 << 1) | 1 = 0x59.
 */
static const struct rec skx[] = {
	{ 0x00000000, ANY, { 0x00000016, INTEL_ID } },
	{ 0x00000004, 0x0, { 0x7c004121, 0x01c0003f, 0x0000003f, 0x00000000 } },
	{ 0x00000004, 0x1, { 0x7c004122, 0x01c0003f, 0x0000003f, 0x00000000 } },
	{ 0x00000004, 0x2, { 0x7c004143, 0x03c0003f, 0x000003ff, 0x00000000 } },
	{ 0x00000004, 0x3, { 0x7c0fc163, 0x0280003f, 0x0000b7ff, 0x00000004 } },
	{ 0x0000000b, 0x0, { 0x00000001, 0x00000002, 0x00000100, 0x00000059 } },
	{ 0x0000000b, 0x1, { 0x00000006, 0x00000028, 0x00000201, 0x00000059 } },
	{ 0x0000000b, 0x2, { 0x00000000, 0x00000000, 0x00000002, 0x00000059 } },
	{ 0x80000000, ANY, { 0x80000008, 0, 0, 0 } },
};

/*
 * AMD EPYC 9754 (Zen 4c, Bergamo), two sockets of 128 cores, 2 threads
 * each; a CCD holds 2 CCXs of 8 cores.  Fn8000_0026: core shift 1 (2
 * threads), complex shift 4 (16), die shift 5 (32), socket shift 8 (256).
 * Socket 1, CCD 5, its CCX 1, core 3 of the CCX, thread 1: extended APIC ID
 * (1 << 8) | (5 << 5) | (1 << 4) | (3 << 1) | 1 = 0x1b7.
 */
static const struct rec bergamo[] = {
	{ 0x00000000, ANY, { 0x00000010, AMD_ID } },
	{ 0x0000000b, 0x0, { 0x00000001, 0x00000002, 0x00000100, 0x000001b7 } },
	{ 0x0000000b, 0x1, { 0x00000008, 0x00000100, 0x00000201, 0x000001b7 } },
	{ 0x80000000, ANY, { 0x80000028, AMD_ID } },
	{ 0x80000001, ANY, { 0x00aa0f02, 0, 0x00400000, 0 } },
	{ 0x8000001d, 0x0, { 0x00004121, 0x01c0003f, 0x0000003f, 0x00000000 } },
	{ 0x8000001d, 0x3, { 0x0003c163, 0x03c0003f, 0x00003fff, 0x00000001 } },
	{ 0x80000026, 0x0, { 0x00000001, 0x00000002, 0x00000100, 0x000001b7 } },
	{ 0x80000026, 0x1, { 0x00000004, 0x00000010, 0x00000201, 0x000001b7 } },
	{ 0x80000026, 0x2, { 0x00000005, 0x00000020, 0x00000302, 0x000001b7 } },
	{ 0x80000026, 0x3, { 0x00000008, 0x00000100, 0x00000403, 0x000001b7 } },
};

/*
 * AMD EPYC 7742 (Zen 2, Rome): no Fn8000_0026.  Leaf 0BH: SMT shift 1,
 * core shift 7 (128 threads); the L3 (Fn8000_001D subleaf 3) is one CCX's,
 * shared by 8 threads (EAX[25:14] = 7, width 3).  Core 13, thread 0 of
 * socket 0: APIC ID 13 << 1 = 0x1a, its CCX 0x1a >> 3 = 3.
 */
static const struct rec rome[] = {
	{ 0x00000000, ANY, { 0x00000010, AMD_ID } },
	{ 0x0000000b, 0x0, { 0x00000001, 0x00000002, 0x00000100, 0x0000001a } },
	{ 0x0000000b, 0x1, { 0x00000007, 0x00000080, 0x00000201, 0x0000001a } },
	{ 0x80000000, ANY, { 0x80000020, AMD_ID } },
	{ 0x80000001, ANY, { 0x00830f10, 0, 0x00400000, 0 } },
	{ 0x8000001d, 0x0, { 0x00004121, 0x01c0003f, 0x0000003f, 0x00000000 } },
	{ 0x8000001d, 0x1, { 0x00004122, 0x01c0003f, 0x0000003f, 0x00000000 } },
	{ 0x8000001d, 0x2, { 0x00004143, 0x01c0003f, 0x000003ff, 0x00000002 } },
	{ 0x8000001d, 0x3, { 0x0001c163, 0x03c0003f, 0x00003fff, 0x00000001 } },
	{ 0x8000001e, ANY, { 0x0000001a, 0x00000106, 0x00000000, 0 } },
};

/*
 * AMD EPYC 7601 (Zen, Naples): no leaf 0BH (maximum 0DH).  Fn8000_001E:
 * extended APIC ID 0x35, core 0x1a, 2 threads per core (EBX[15:8] = 1),
 * node 3 of 4 (ECX[7:0] = 3, ECX[10:8] = 3).  Thread: 0x35's low bit, 1.
 */
static const struct rec naples[] = {
	{ 0x00000000, ANY, { 0x0000000d, AMD_ID } },
	{ 0x00000001, ANY, { 0x00800f12, 0x35200800, 0, 0 } },
	{ 0x80000000, ANY, { 0x8000001f, AMD_ID } },
	{ 0x80000001, ANY, { 0x00800f12, 0, 0x00400000, 0 } },
	{ 0x8000001e, ANY, { 0x00000035, 0x0000011a, 0x00000303, 0 } },
};

struct want {
	uint32_t apic, package, die, cluster, core, thread;
	const char *type, *source;
};

static void check_cpu(const char *name, const struct rec *recs, size_t n, struct want w)
{
	struct cpu_rec rec = { name, recs, n, 0 };
	struct mp_cpu_info got;
	struct mp_cpuid c;
	const char *src;
	char what[64];

	mp_cpuid_open(&c, rec_cpuid, &rec);
	src = mp_cpuid_cpu_info(&c, &got);
	snprintf(what, sizeof(what), "%s: source", name);
	CHECK_EQ_STR(src ? src : "(none)", w.source, what);
	CHECK(got.apic_id == w.apic && got.package == w.package && got.die == w.die &&
	      got.cluster == w.cluster && got.core == w.core && got.thread == w.thread,
	      "%s: x2APIC 0x%x package %d die %d cluster %d core %d thread %d, "
	      "want 0x%x %d %d %d %d %d", name, got.apic_id, (int)got.package, (int)got.die,
	      (int)got.cluster, (int)got.core, (int)got.thread, w.apic, (int)w.package,
	      (int)w.die, (int)w.cluster, (int)w.core, (int)w.thread);
	snprintf(what, sizeof(what), "%s: core type", name);
	CHECK_EQ_STR(got.type, w.type, what);
}

#define CPU(name, recs, ...) check_cpu(name, recs, sizeof(recs) / sizeof(recs[0]), \
				       (struct want){ __VA_ARGS__ })

int main(void)
{
	/* apic, package, die, cluster, core, thread, type, source */
	CPU("i9-12900K P-core", adl_p, 0x3, 0, U, U, 1, 1, "P-core", "cpuid 0x1f");
	CPU("i9-12900K E-core", adl_e, 0x28, 0, U, U, 20, 0, "E-core", "cpuid 0x1f");
	CPU("Xeon Gold 6148", skx, 0x59, 1, U, U, 12, 1, "", "cpuid 0xb");
	/* within the package (bits below 8 of 0x1b7, 0xb7): die 0xb7 >> 5, CCX >> 4, core >> 1 */
	CPU("EPYC 9754", bergamo, 0x1b7, 1, 5, 11, 91, 1, "", "cpuid 0x80000026");
	CPU("EPYC 7742", rome, 0x1a, 0, U, 3, 13, 0, "", "cpuid 0xb");
	CPU("EPYC 7601", naples, 0x35, U, 3, U, 0x1a, 1, "", "cpuid 0x8000001e");
	return check_done();
}
