/* SPDX-License-Identifier: MIT */
/* Reading and decoding the MTRRs (arch/x86_64/mtrr.h); sections of Intel SDM Vol. 3A, 13.11. */
#include "arch/x86_64/mtrr.h"
#include "core/lib/bits.h"
#include "core/lib/str.h"

#define CAP_VCNT 0xffu
#define CAP_FIX (1ull << 8)
#define DEF_TYPE_MASK 0xffu
#define DEF_FE (1ull << 10)        /* fixed-range MTRRs enabled */
#define DEF_E (1ull << 11)         /* MTRRs enabled; clear: everything UC */
#define PHYSMASK_V (1ull << 11)    /* the variable range is in use */
#define PHYS_LOW_BITS 12u          /* PhysBase and PhysMask start at bit 12 */
#define FIXED_END 0x100000ull      /* fixed ranges cover the first megabyte */
#define PAGE 4096ull

/* Table "Address Mapping for Fixed-Range MTRRs": eight ranges per register. */
static const struct {
	uint32_t msr;
	uint64_t start, unit;
} fixed_regs[MP_MTRR_FIXED_REGS] = {
	{ 0x250, 0x00000, 0x10000 }, { 0x258, 0x80000, 0x4000 }, { 0x259, 0xa0000, 0x4000 },
	{ 0x268, 0xc0000, 0x1000 },  { 0x269, 0xc8000, 0x1000 }, { 0x26a, 0xd0000, 0x1000 },
	{ 0x26b, 0xd8000, 0x1000 },  { 0x26c, 0xe0000, 0x1000 }, { 0x26d, 0xe8000, 0x1000 },
	{ 0x26e, 0xf0000, 0x1000 },  { 0x26f, 0xf8000, 0x1000 },
};

/* Table "Memory Types That Can Be Encoded in MTRRs": UC, WC, WT, WP, WB; the rest reserved. */
static enum mp_memtype type_of(uint64_t v)
{
	static const enum mp_memtype valid[] = { MP_MT_UC, MP_MT_WC, MP_MT_WT, MP_MT_WP, MP_MT_WB };

	for (unsigned i = 0; i < MP_COUNT_OF(valid); i++)
		if ((v & DEF_TYPE_MASK) == (uint64_t)valid[i])
			return valid[i];
	return MP_MT_INVALID;
}

bool mp_mtrr_read(struct mp_mtrr *m, const struct mp_msr_io *io, uint32_t phys_bits)
{
	bool ok;

	mp_memset(m, 0, sizeof(*m));
	m->phys_bits = phys_bits;
	ok = io->read(io->arg, MP_MSR_MTRRCAP, &m->cap) &&
	     io->read(io->arg, MP_MSR_MTRR_DEF_TYPE, &m->def_type);
	m->nvar = (uint32_t)(m->cap & CAP_VCNT);
	if (m->nvar > MP_MTRR_VAR_MAX)
		m->nvar = MP_MTRR_VAR_MAX;
	for (uint32_t i = 0; ok && i < m->nvar; i++)
		ok = io->read(io->arg, MP_MSR_MTRR_PHYSBASE0 + 2 * i, &m->base[i]) &&
		     io->read(io->arg, MP_MSR_MTRR_PHYSBASE0 + 2 * i + 1, &m->mask[i]);
	for (unsigned i = 0; ok && (m->cap & CAP_FIX) && i < MP_MTRR_FIXED_REGS; i++)
		ok = io->read(io->arg, fixed_regs[i].msr, &m->fixed[i]);
	return ok;
}

static enum mp_memtype fixed_type(const struct mp_mtrr *m, uint64_t addr)
{
	for (unsigned i = MP_MTRR_FIXED_REGS; i-- > 0;) {
		if (addr < fixed_regs[i].start)
			continue;
		return type_of(m->fixed[i] >> (8 * ((addr - fixed_regs[i].start) /
						     fixed_regs[i].unit)));
	}
	return MP_MT_INVALID;
}

/*
 * Section "MTRR Precedences": no variable range matches: the default
 * type; one or more match: UC if any is UC, WT if they are WT and WB,
 * their type if they agree, else undefined.
 */
static enum mp_memtype variable_type(const struct mp_mtrr *m, uint64_t addr)
{
	uint64_t bits = ((1ull << m->phys_bits) - 1) & ~((1ull << PHYS_LOW_BITS) - 1);
	enum mp_memtype t = type_of(m->def_type);
	bool matched = false;

	for (uint32_t i = 0; i < m->nvar; i++) {
		uint64_t mask = m->mask[i] & bits;
		enum mp_memtype v = type_of(m->base[i]);

		if (!(m->mask[i] & PHYSMASK_V) || (addr & mask) != (m->base[i] & mask))
			continue;
		if (!matched || v == t)
			t = v;
		else if (v == MP_MT_UC || t == MP_MT_UC)
			t = MP_MT_UC;
		else if ((v == MP_MT_WT || v == MP_MT_WB) && (t == MP_MT_WT || t == MP_MT_WB))
			t = MP_MT_WT;
		else
			t = MP_MT_INVALID;
		matched = true;
	}
	return t;
}

enum mp_memtype mp_mtrr_type(const struct mp_mtrr *m, uint64_t addr)
{
	if (!(m->def_type & DEF_E))
		return MP_MT_UC;
	if (addr < FIXED_END && (m->cap & CAP_FIX) && (m->def_type & DEF_FE))
		return fixed_type(m, addr);
	return variable_type(m, addr);
}

enum mp_memtype mp_mtrr_range_type(const struct mp_mtrr *m, uint64_t base, uint64_t bytes)
{
	enum mp_memtype t = mp_mtrr_type(m, base);

	for (uint64_t a = base + PAGE; a < base + bytes; a += PAGE)
		if (mp_mtrr_type(m, a) != t)
			return MP_MT_INVALID;
	return t;
}
