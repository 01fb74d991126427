/* SPDX-License-Identifier: MIT */
/*
 * The firmware's own descriptions of the processor, decoded from their
 * bytes into documented sources (core/results/audit.h): SMBIOS types 7 and
 * 4 (smbios.c) and the ACPI PPTT (pptt.c), found through the ACPI root
 * pointer (acpi.c).  Plain byte-format parsers: the programs get the bytes
 * (UEFI configuration tables on bare metal, /sys/firmware on Linux) and
 * hand them over before the suite runs (docs/design.md, "Documented
 * sources").  Every length and offset is checked against the bytes given.
 */
#ifndef MEMPROBE_CORE_FIRMWARE_FIRMWARE_H
#define MEMPROBE_CORE_FIRMWARE_FIRMWARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/results/result.h"

#define MP_SOURCE_SMBIOS_CACHES "smbios type 7"
#define MP_SOURCE_SMBIOS_CPU "smbios type 4"
#define MP_SOURCE_PPTT "acpi pptt"

/* Where an SMBIOS entry point says the structure table is. */
struct mp_smbios_table {
	uint64_t address;            /* physical address of the structure table */
	uint32_t length;             /* its length, or (3.0) its maximum length */
	uint8_t major, minor;        /* SMBIOS version */
};

/*
 * Decode an entry point, "_SM3_" (64-bit) or "_SM_" (32-bit), of `len`
 * bytes.  False with *why set when it is not one or its checksum fails.
 */
bool mp_smbios_entry(const uint8_t *ep, size_t len, struct mp_smbios_table *out,
		     const char **why);

/*
 * The structure table's types 7 and 4 as the sources "smbios type 7" (the
 * caches of the first processor socket) and "smbios type 4" (its cores and
 * threads); `version` (e.g. "3.3", or NULL) goes into their messages.
 */
void mp_smbios_sources(struct mp_result *r, const uint8_t *table, size_t len,
		       const char *version);

/* Both SMBIOS sources, as not usable: the status and why. */
void mp_smbios_missing(struct mp_result *r, enum mp_source_status st, const char *why);

/*
 * The ACPI table with this signature, through the root pointer `rsdp` (the
 * XSDT where there is one, else the RSDT).  Addresses in the tables are
 * read as pointers: physical memory must be mapped one to one, as under
 * UEFI boot services.  NULL with *why set when there is none or a table on
 * the way is damaged.
 */
const uint8_t *mp_acpi_find(const uint8_t *rsdp, const char *signature, uint32_t *len,
			    const char **why);

/* The PPTT (`len` bytes, its header included) as the source "acpi pptt". */
void mp_pptt_source(struct mp_result *r, const uint8_t *table, size_t len);

#endif
