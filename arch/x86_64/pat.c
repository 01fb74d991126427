/* SPDX-License-Identifier: MIT */
/*
 * Decoding an IA32_PAT value (Intel SDM Vol. 3A, "Page Attribute Table
 * (PAT)", section 13.12 (11.12 before the 2023 editions): eight one-byte
 * entries PA0-PA7, bits 2:0 the memory type, bits 7:3 reserved zero).
 */
#include "arch/x86_64/paging.h"
#include "core/lib/bits.h"

#define PAT_ENTRIES 8

/* Table "Memory Types That Can Be Encoded With PAT": the valid encodings. */
static const struct {
	enum mp_memtype type;
	const char *name;
} types[] = {
	{ MP_MT_UC, "UC" }, { MP_MT_WC, "WC" }, { MP_MT_WT, "WT" },
	{ MP_MT_WP, "WP" }, { MP_MT_WB, "WB" }, { MP_MT_UC_MINUS, "UC-" },
};

enum mp_memtype mp_pat_entry(uint64_t pat, unsigned index)
{
	unsigned byte;

	if (index >= PAT_ENTRIES)
		return MP_MT_INVALID;
	byte = (unsigned)((pat >> (8 * index)) & 0xff);
	for (unsigned i = 0; i < MP_COUNT_OF(types); i++)
		if ((unsigned)types[i].type == byte)
			return types[i].type;
	return MP_MT_INVALID;
}

bool mp_pat_index0_is_wb(uint64_t pat)
{
	return mp_pat_entry(pat, 0) == MP_MT_WB;
}

const char *mp_memtype_name(enum mp_memtype t)
{
	for (unsigned i = 0; i < MP_COUNT_OF(types); i++)
		if (types[i].type == t)
			return types[i].name;
	return "invalid";
}
