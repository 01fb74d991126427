/* SPDX-License-Identifier: MIT */
/*
 * Where the logical CPU that executes CPUID sits: its x2APIC ID split into
 * package, die, cluster, core and thread, and its core type.  docs/cpu.md,
 * "One logical CPU".
 *
 * The topology leaves enumerate levels from the innermost out, each with a
 * type and a shift (EAX[4:0]): the x2APIC ID's bits below the shift number
 * the logical CPUs inside one instance, the bits above number the
 * instances.
 *   Intel leaf 1FH, else 0BH (SDM Vol. 2A, CPUID, "V2 Extended Topology
 *   Enumeration Leaf" and "Extended Topology Enumeration Leaf"; Vol. 3A,
 *   "Hierarchical Mapping of CPUID Extended Topology Leaf"): ECX[15:8] level
 *   type 1 SMT, 2 core, 3 module, 4 tile, 5 die, 0 ends the list; the shift
 *   gives the ID of the NEXT level (the last one's, the package's); EDX the
 *   x2APIC ID.
 *   AMD Fn8000_0026 (APM Vol. 3, Appendix E, "Extended CPU Topology"):
 *   ECX[15:8] 1 core, 2 complex (CCX), 3 die (CCD), 4 socket; the shift
 *   gives the ID of the level ITSELF (the core level's shift is the
 *   thread bits); EDX the extended APIC ID.
 * Without them: AMD Fn8000_001E (EAX extended APIC ID, ECX[7:0] node,
 * ECX[10:8] nodes per processor less one) and CPUID.01H:EBX[31:24] (the
 * initial APIC ID).
 */
#include "arch/x86_64/cpuid_int.h"
#include "core/lib/bits.h"
#include "core/lib/str.h"

#define LEAF_FEATURES 0x1u
#define LEAF_EXT_FEATURES 0x7u
#define LEAF_HYBRID 0x1au
#define LEAF_AMD_NODE 0x8000001eu
#define MAX_LEVELS 8u
/* CPUID.07H.0:EDX[15] Hybrid: the part has more than one core type (SDM Vol. 2A, CPUID). */
#define EDX_HYBRID 15u

/* Parts of a place, each numbered by a range of x2APIC ID bits. */
enum part { P_NONE = 0, P_THREAD, P_CORE, P_MODULE, P_TILE, P_DIE, P_CLUSTER, P_PACKAGE, P_COUNT };

/* A topology leaf: its level types' parts, and which ID a level's shift gives. */
static const struct topo_leaf {
	uint32_t leaf;
	enum mp_x86_vendor vendor;
	bool own;                 /* the level's own ID (AMD), else the next level's (Intel) */
	uint8_t part[8];          /* ECX[15:8] level type -> part */
	const char *name;
} topo_leaves[] = {
	{ 0x80000026u, MP_X86_AMD, true, { [1] = P_CORE, [2] = P_CLUSTER, [3] = P_DIE,
					   [4] = P_PACKAGE }, "cpuid 0x80000026" },
	{ 0x1fu, MP_X86_INTEL, false, { [1] = P_THREAD, [2] = P_CORE, [3] = P_MODULE,
					[4] = P_TILE, [5] = P_DIE }, "cpuid 0x1f" },
	{ 0xbu, MP_X86_OTHER, false, { [1] = P_THREAD, [2] = P_CORE }, "cpuid 0xb" },
};

/*
 * What a topology leaf told: for each part found, the lowest x2APIC ID bit
 * of its number and the logical CPUs in one (EBX[15:0] of the level whose
 * shift that is).
 */
struct topo {
	uint32_t x2apic;
	uint32_t thread_bits;     /* bits numbering the threads of a core */
	bool has[P_COUNT];
	uint32_t lo[P_COUNT], cpus[P_COUNT];
};

/* Hybrid core types, CPUID.1AH:EAX[31:24] (SDM Vol. 2A, CPUID, "Hybrid Information"). */
static const struct {
	uint32_t code;
	const char *name;
} intel_types[] = {
	{ 0x20, "E-core" }, /* Intel Atom */
	{ 0x40, "P-core" }, /* Intel Core */
};

/* AMD Fn8000_0026 core level: EBX[31:28] CoreType where EAX[30] HeterogeneousCores is set. */
static const char *const amd_types[] = { "performance", "efficiency" };
#define AMD_EAX_HETERO 30u

static void set_part(struct topo *t, uint8_t part, uint32_t lo, uint32_t cpus)
{
	if (part == P_NONE || t->has[part])
		return;
	t->has[part] = true;
	t->lo[part] = lo;
	t->cpus[part] = cpus;
}

/* Walk one topology leaf's levels; false when the CPU does not have it. */
static bool topo_walk(const struct mp_cpuid *c, const struct topo_leaf *l, struct topo *t)
{
	uint32_t r[4], prev = 0, prev_cpus = 1, n = 0;

	if (l->vendor != MP_X86_OTHER && l->vendor != c->vendor)
		return false;
	for (uint32_t sub = 0; sub < MAX_LEVELS && mp_cpuid_leaf(c, l->leaf, sub, r); sub++) {
		uint32_t type = mp_bits(r[MP_ECX], 8, 8), shift = mp_bits(r[MP_EAX], 0, 5);
		uint32_t cpus = mp_bits(r[MP_EBX], 0, 16);

		if (type == 0 || cpus == 0)
			break;
		if (n++ == 0) {
			t->x2apic = r[MP_EDX];
			t->thread_bits = shift;
		}
		if (type < MP_COUNT_OF(l->part))
			set_part(t, l->part[type], l->own ? shift : prev, l->own ? cpus : prev_cpus);
		prev = shift;
		prev_cpus = cpus;
	}
	if (n == 0)
		return false;
	if (!l->own)
		set_part(t, P_PACKAGE, prev, prev_cpus);
	return t->has[P_PACKAGE];
}

/* Bits [lo, package) of the x2APIC ID: a part's number within its package. */
static uint32_t in_package(const struct topo *t, enum part p)
{
	uint32_t pkg = t->lo[P_PACKAGE];
	uint32_t inside = pkg >= 32 ? t->x2apic : t->x2apic & ((1u << pkg) - 1);

	return t->lo[p] >= 32 ? 0 : inside >> t->lo[p];
}

/* A part with fewer CPUs than the package (a die, a cluster): its number; else there is none. */
static uint32_t split(const struct topo *t, enum part p)
{
	return t->has[p] && t->cpus[p] < t->cpus[P_PACKAGE] ? in_package(t, p) : MP_CPU_UNKNOWN;
}

/*
 * The last-level cache's sharing, from the deterministic cache leaf (04H,
 * AMD Fn8000_001D: EAX[25:14] + 1, see cpuid_decode_det.c): the x2APIC ID
 * bits above its width number the cache's instances (SDM Vol. 3A,
 * "Hierarchical Mapping of Shared Resources").  0 when not told.
 */
static uint32_t llc_ids(const struct mp_cpuid *c)
{
	uint32_t leaf = c->vendor == MP_X86_AMD ? 0x8000001du : 0x4u, r[4], level = 0, ids = 0;

	if (c->vendor == MP_X86_AMD && !mp_cpuid_amd_topoext(c))
		return 0;
	for (uint32_t sub = 0; sub < 16 && mp_cpuid_leaf(c, leaf, sub, r); sub++) {
		if (mp_bits(r[MP_EAX], 0, 5) == 0)
			break;
		if (mp_bits(r[MP_EAX], 5, 3) >= level) {
			level = mp_bits(r[MP_EAX], 5, 3);
			ids = mp_bits(r[MP_EAX], 14, 12) + 1;
		}
	}
	return ids;
}

/* The die: a die level, else a module level (a group of cores sharing an L2). */
static uint32_t die_of(const struct topo *t)
{
	static const enum part order[] = { P_DIE, P_MODULE };

	for (unsigned i = 0; i < MP_COUNT_OF(order); i++)
		if (split(t, order[i]) != MP_CPU_UNKNOWN)
			return split(t, order[i]);
	return MP_CPU_UNKNOWN;
}

static void from_topo(const struct mp_cpuid *c, struct topo *t, struct mp_cpu_info *out)
{
	uint32_t llc = llc_ids(c);

	if (llc)
		set_part(t, P_CLUSTER, mp_cpuid_width(llc), llc);
	out->apic_id = t->x2apic;
	out->package = t->lo[P_PACKAGE] >= 32 ? 0 : t->x2apic >> t->lo[P_PACKAGE];
	out->die = die_of(t);
	out->cluster = split(t, P_CLUSTER);
	out->core = t->has[P_CORE] ? in_package(t, P_CORE) : MP_CPU_UNKNOWN;
	out->thread = t->x2apic & ((1u << t->thread_bits) - 1);
}

/*
 * No topology leaf: AMD Fn8000_001E (EAX the extended APIC ID, EBX[7:0]
 * the core, EBX[15:8] threads per core less one, whose width numbers the
 * thread in the APIC ID, and the node within the processor, ECX[7:0]
 * modulo ECX[10:8] + 1, as the die), else CPUID.01H:EBX[31:24] (the
 * initial APIC ID) alone.
 */
static const char *from_apic(const struct mp_cpuid *c, struct mp_cpu_info *out)
{
	uint32_t r[4];

	if (c->vendor == MP_X86_AMD && mp_cpuid_amd_topoext(c) &&
	    mp_cpuid_leaf(c, LEAF_AMD_NODE, 0, r)) {
		uint32_t nodes = mp_bits(r[MP_ECX], 8, 3) + 1;
		uint32_t threads = mp_bits(r[MP_EBX], 8, 8) + 1;

		out->apic_id = r[MP_EAX];
		out->core = mp_bits(r[MP_EBX], 0, 8);
		out->thread = r[MP_EAX] & ((1u << mp_cpuid_width(threads)) - 1);
		if (nodes > 1)
			out->die = mp_bits(r[MP_ECX], 0, 8) % nodes;
		return "cpuid 0x8000001e";
	}
	if (!mp_cpuid_leaf(c, LEAF_FEATURES, 0, r))
		return NULL;
	out->apic_id = mp_bits(r[MP_EBX], 24, 8);
	return "cpuid 1";
}

static const char *intel_type(const struct mp_cpuid *c)
{
	uint32_t r[4];

	if (!mp_cpuid_leaf(c, LEAF_EXT_FEATURES, 0, r) || !mp_bits(r[MP_EDX], EDX_HYBRID, 1) ||
	    !mp_cpuid_leaf(c, LEAF_HYBRID, 0, r))
		return "";
	for (unsigned i = 0; i < MP_COUNT_OF(intel_types); i++)
		if (intel_types[i].code == mp_bits(r[MP_EAX], 24, 8))
			return intel_types[i].name;
	return "";
}

static const char *amd_type(const struct mp_cpuid *c)
{
	uint32_t r[4], type;

	if (!mp_cpuid_leaf(c, topo_leaves[0].leaf, 0, r) || !mp_bits(r[MP_EAX], AMD_EAX_HETERO, 1))
		return "";
	type = mp_bits(r[MP_EBX], 28, 4);
	return type < MP_COUNT_OF(amd_types) ? amd_types[type] : "";
}

static void core_type(const struct mp_cpuid *c, struct mp_cpu_info *out)
{
	const char *t = c->vendor == MP_X86_INTEL ? intel_type(c)
		      : c->vendor == MP_X86_AMD  ? amd_type(c) : "";

	mp_strlcpy(out->type, t, sizeof(out->type));
}

const char *mp_cpuid_cpu_info(const struct mp_cpuid *c, struct mp_cpu_info *out)
{
	const char *told = NULL;

	*out = (struct mp_cpu_info){ .apic_id = MP_CPU_UNKNOWN, .package = MP_CPU_UNKNOWN,
				     .die = MP_CPU_UNKNOWN, .cluster = MP_CPU_UNKNOWN,
				     .core = MP_CPU_UNKNOWN, .thread = MP_CPU_UNKNOWN };
	core_type(c, out);
	for (unsigned i = 0; i < MP_COUNT_OF(topo_leaves) && !told; i++) {
		struct topo t = { 0 };

		if (topo_walk(c, &topo_leaves[i], &t)) {
			from_topo(c, &t, out);
			told = topo_leaves[i].name;
		}
	}
	return told ? told : from_apic(c, out);
}
