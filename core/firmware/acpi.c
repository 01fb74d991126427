/* SPDX-License-Identifier: MIT */
/*
 * Finding an ACPI table (ACPI Specification 6.6): the Root System
 * Description Pointer (section 5.2.5.3) gives the XSDT (5.2.8, 64-bit
 * entries; revision 2 and later) or the RSDT (5.2.7, 32-bit entries); each
 * entry is the address of a table that starts with the 36-byte System
 * Description Table Header (5.2.6): signature, length, revision, checksum.
 */
#include "core/firmware/bytes.h"
#include "core/firmware/firmware.h"
#include "core/lib/str.h"

#define RSDP_SIGNATURE "RSD PTR "
#define RSDP_V1_LEN 20               /* the checksum of revision 0 covers these bytes */
#define RSDP_REVISION 15
#define RSDP_RSDT 16
#define RSDP_LENGTH 20
#define RSDP_XSDT 24
#define SDT_HEADER_LEN 36
#define SDT_LENGTH 4
/* Tables longer than this are taken for damage: the largest real ones are a few MB. */
#define SDT_MAX_LEN (64u << 20)

static const uint8_t *at(uint64_t address)
{
	return (const uint8_t *)(uintptr_t)address;
}

/* A table header at `address` that checks out: its length, 0 when it does not. */
static uint32_t table_len(uint64_t address)
{
	const uint8_t *t = at(address);
	uint32_t len;

	if (address == 0)
		return 0;
	len = mp_le32(t, SDT_LENGTH);
	return len >= SDT_HEADER_LEN && len <= SDT_MAX_LEN && mp_sum8_ok(t, len) ? len : 0;
}

/* The root table: the XSDT (8-byte entries) when the RSDP has one, else the RSDT. */
static uint64_t root(const uint8_t *rsdp, unsigned *entry_bytes)
{
	if (rsdp[RSDP_REVISION] >= 2 && mp_le32(rsdp, RSDP_LENGTH) >= RSDP_XSDT + 8 &&
	    mp_sum8_ok(rsdp, mp_le32(rsdp, RSDP_LENGTH)) && mp_le64(rsdp, RSDP_XSDT) != 0) {
		*entry_bytes = 8;
		return mp_le64(rsdp, RSDP_XSDT);
	}
	*entry_bytes = 4;
	return mp_le32(rsdp, RSDP_RSDT);
}

static const uint8_t *none(const char **why, const char *text)
{
	*why = text;
	return NULL;
}

const uint8_t *mp_acpi_find(const uint8_t *rsdp, const char *signature, uint32_t *len,
			    const char **why)
{
	unsigned entry_bytes;
	uint64_t sdt;
	uint32_t n;

	if (mp_strncmp((const char *)rsdp, RSDP_SIGNATURE, 8) != 0 ||
	    !mp_sum8_ok(rsdp, RSDP_V1_LEN))
		return none(why, "the ACPI root pointer is damaged");
	sdt = root(rsdp, &entry_bytes);
	n = table_len(sdt);
	if (n == 0)
		return none(why, "the ACPI root table is damaged");
	for (uint32_t off = SDT_HEADER_LEN; off + entry_bytes <= n; off += entry_bytes) {
		uint64_t address = mp_le(at(sdt), off, entry_bytes);

		if (address == 0 || mp_strncmp((const char *)at(address), signature, 4) != 0)
			continue;
		*len = table_len(address);
		if (*len == 0)
			return none(why, "the table's length or checksum is wrong");
		return at(address);
	}
	return none(why, "no such table among the ACPI tables");
}
