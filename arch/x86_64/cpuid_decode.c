/* SPDX-License-Identifier: MIT */
/*
 * The CPUID reader (maximum-leaf checks), the identification strings and
 * numbers, the package topology and the front ends' one call.
 */
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/cpuid_int.h"
#include "core/lib/bits.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"


#define LEAF_EXT_BASE 0x80000000u

/* Vendor identification strings (Intel SDM Vol. 2A, CPUID leaf 0; AMD APM Vol. 3, Fn0000_0000). */
static const struct {
	const char *id;
	enum mp_x86_vendor vendor;
} vendors[] = {
	{ "GenuineIntel", MP_X86_INTEL },
	{ "AuthenticAMD", MP_X86_AMD },
	/* Hygon Dhyana is AMD family 17h licensed: it reports AMD's leaves. */
	{ "HygonGenuine", MP_X86_AMD },
};

/* Register bytes in memory order (CPUID strings are little-endian). */
static void put_reg(char *dst, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		dst[i] = (char)((v >> (8 * i)) & 0xff);
}

/*
 * Display family and model (Intel SDM Vol. 2A, CPUID leaf 01H, "Version
 * Information", the DisplayFamily/DisplayModel pseudocode).  AMD (APM Vol. 3,
 * Fn0000_0001_EAX) adds the extended fields only for base family 0Fh; its
 * only other family that could differ (06h, K7) has extended model 0.
 */
static void version(struct mp_cpuid *c, uint32_t eax)
{
	uint32_t fam = mp_bits(eax, 8, 4), model = mp_bits(eax, 4, 4);

	if (fam == 0x6 || fam == 0xf)
		model += mp_bits(eax, 16, 4) << 4;
	if (fam == 0xf)
		fam += mp_bits(eax, 20, 8);
	c->family = (int32_t)fam;
	c->model = (int32_t)model;
	c->stepping = (int32_t)mp_bits(eax, 0, 4);
}

void mp_cpuid_open(struct mp_cpuid *c, mp_cpuid_fn fn, void *arg)
{
	uint32_t r[4];

	c->fn = fn;
	c->arg = arg;
	fn(arg, 0, 0, r);
	c->max_basic = r[MP_EAX];
	put_reg(c->vendor_id, r[MP_EBX]);
	put_reg(c->vendor_id + 4, r[MP_EDX]);
	put_reg(c->vendor_id + 8, r[MP_ECX]);
	c->vendor_id[12] = '\0';
	c->vendor = MP_X86_OTHER;
	for (size_t i = 0; i < MP_COUNT_OF(vendors); i++)
		if (mp_strcmp(c->vendor_id, vendors[i].id) == 0)
			c->vendor = vendors[i].vendor;
	/* Without extended leaves, 0x80000000 answers with basic data: check its range. */
	fn(arg, LEAF_EXT_BASE, 0, r);
	c->max_ext = (r[MP_EAX] & 0xffff0000u) == LEAF_EXT_BASE ? r[MP_EAX] : 0;
	c->family = c->model = c->stepping = MP_NA;
	if (mp_cpuid_leaf(c, 1, 0, r))
		version(c, r[MP_EAX]);
}

bool mp_cpuid_leaf(const struct mp_cpuid *c, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	bool ok = leaf >= LEAF_EXT_BASE ? c->max_ext != 0 && leaf <= c->max_ext
					: leaf <= c->max_basic;

	regs[0] = regs[1] = regs[2] = regs[3] = 0;
	if (ok)
		c->fn(c->arg, leaf, subleaf, regs);
	return ok;
}

/* Processor brand string, CPUID 80000002H-80000004H (Intel SDM Vol. 2A, CPUID). */
static void brand(const struct mp_cpuid *c, char *out, size_t n)
{
	char raw[49];
	uint32_t r[4];
	size_t b = 0, e;

	out[0] = '\0';
	for (uint32_t i = 0; i < 3; i++) {
		if (!mp_cpuid_leaf(c, LEAF_EXT_BASE + 2 + i, 0, r))
			return;
		for (unsigned j = 0; j < 4; j++)
			put_reg(raw + 16 * i + 4 * j, r[j]);
	}
	raw[48] = '\0';
	e = mp_strlen(raw);
	while (b < e && raw[b] == ' ')
		b++;
	while (e > b && raw[e - 1] == ' ')
		e--;
	raw[e] = '\0';
	mp_strlcpy(out, raw + b, n);
}

void mp_cpuid_machine(const struct mp_cpuid *c, struct mp_machine *m)
{
	mp_strlcpy(m->vendor, c->vendor_id, sizeof(m->vendor));
	brand(c, m->brand, sizeof(m->brand));
	m->family = c->family;
	m->model = c->model;
	m->stepping = c->stepping;
}

bool mp_cpuid_has_1g_pages(const struct mp_cpuid *c)
{
	uint32_t r[4];

	return mp_cpuid_leaf(c, LEAF_EXT_BASE + 1, 0, r) && mp_bits(r[MP_EDX], 26, 1);
}

bool mp_cpuid_has_clflushopt(const struct mp_cpuid *c)
{
	uint32_t r[4];

	return mp_cpuid_leaf(c, 7, 0, r) && mp_bits(r[MP_EBX], 23, 1);
}

bool mp_cpuid_hypervisor(const struct mp_cpuid *c)
{
	uint32_t r[4];

	return mp_cpuid_leaf(c, 1, 0, r) && mp_bits(r[MP_ECX], 31, 1);
}

bool mp_cpuid_amd_topoext(const struct mp_cpuid *c)
{
	uint32_t r[4];

	return mp_cpuid_leaf(c, LEAF_EXT_BASE + 1, 0, r) && mp_bits(r[MP_ECX], 22, 1);
}

static void set_topology(struct mp_cpu *cpu, uint32_t logical, uint32_t per_core)
{
	if (logical == 0 || per_core == 0 || logical % per_core != 0)
		return;
	cpu->logical_cpus = (int32_t)logical;
	cpu->threads_per_core = (int32_t)per_core;
	cpu->cores = (int32_t)(logical / per_core);
}

/*
 * Extended topology, leaf 0BH (Intel SDM Vol. 2A, CPUID leaf 0BH): subleaves
 * until level type 0; EBX[15:0] is the number of logical processors at the
 * level, ECX[15:8] its type (1 SMT, 2 core).  Zen 2 and later have it too.
 */
static bool topo_leaf_b(const struct mp_cpuid *c, struct mp_cpu *cpu)
{
	uint32_t r[4], smt = 0, package = 0;

	for (uint32_t sub = 0; sub < 8 && mp_cpuid_leaf(c, 0xb, sub, r); sub++) {
		uint32_t type = mp_bits(r[MP_ECX], 8, 8), n = mp_bits(r[MP_EBX], 0, 16);

		if (type == 0)
			break;
		if (type == 1)
			smt = n;
		if (type == 2)
			package = n;
	}
	set_topology(cpu, package, smt);
	return package != 0 && smt != 0;
}

/*
 * Before leaf 0BH (Intel SDM Vol. 2A, CPUID leaves 01H and 04H): with
 * CPUID.1:EDX.HTT[bit 28], EBX[23:16] addressable logical processors per
 * package; leaf 4 EAX[31:26] + 1 addressable cores per package.
 */
static void topo_intel(const struct mp_cpuid *c, struct mp_cpu *cpu)
{
	uint32_t r[4], logical = 1, cores = 1;

	if (!mp_cpuid_leaf(c, 1, 0, r))
		return;
	if (mp_bits(r[MP_EDX], 28, 1))
		logical = mp_bits(r[MP_EBX], 16, 8);
	if (mp_cpuid_leaf(c, 4, 0, r) && mp_bits(r[MP_EAX], 0, 5) != 0)
		cores = mp_bits(r[MP_EAX], 26, 6) + 1;
	if (logical >= cores)
		set_topology(cpu, logical, logical / cores);
}

/*
 * AMD (APM Vol. 3, Appendix E): Fn8000_0008 ECX[7:0] NC is the logical
 * processors per package less one; Fn8000_001E EBX[15:8] the threads per
 * core (compute unit) less one, with TopologyExtensions.
 */
static void topo_amd(const struct mp_cpuid *c, struct mp_cpu *cpu)
{
	uint32_t r[4], per_core = 1;

	if (!mp_cpuid_leaf(c, LEAF_EXT_BASE + 8, 0, r))
		return;
	uint32_t logical = mp_bits(r[MP_ECX], 0, 8) + 1;
	if (mp_cpuid_amd_topoext(c) && mp_cpuid_leaf(c, LEAF_EXT_BASE + 0x1e, 0, r))
		per_core = mp_bits(r[MP_EBX], 8, 8) + 1;
	set_topology(cpu, logical, per_core);
}

static const struct {
	void (*read)(const struct mp_cpuid *, struct mp_cpu *);
	const char *leaves;
} topo_fallback[] = {
	[MP_X86_INTEL] = { topo_intel, "cpuid 1, 4" },
	[MP_X86_AMD] = { topo_amd, "cpuid 0x80000008, 0x8000001e" },
};

const char *mp_cpuid_topology(const struct mp_cpuid *c, struct mp_cpu *cpu)
{
	cpu->logical_cpus = cpu->cores = cpu->threads_per_core = MP_NA;
	if (topo_leaf_b(c, cpu))
		return "cpuid 0xb";
	if (!topo_fallback[c->vendor].read)
		return NULL;
	topo_fallback[c->vendor].read(c, cpu);
	return cpu->logical_cpus == MP_NA ? NULL : topo_fallback[c->vendor].leaves;
}

void mp_cpuid_fill(struct mp_result *r, mp_cpuid_fn fn, void *arg)
{
	struct mp_cpuid c;
	char note[MP_NOTE_LEN];
	int32_t dropped;

	mp_cpuid_open(&c, fn, arg);
	mp_cpuid_machine(&c, &r->machine);
	mp_cpuid_topology(&c, &r->cpu);
	dropped = mp_cpuid_documented(&c, &r->documented);
	mp_cpuid_cpu_doc(&c, &r->documented.cpu);
	if (dropped > 0) {
		mp_snprintf(note, sizeof(note),
			    "documented: %d cache/TLB records of %s did not fit the result tables",
			    (int)dropped, r->documented.source);
		mp_result_add_note(r, note);
	}
	mp_cpuid_sources(&c, r);
}
