/* SPDX-License-Identifier: MIT */
/*
 * The firmware's own descriptions of the processor as documented sources
 * (docs/design.md, "Documented sources"): the tables the firmware lists
 * (platform/efi/fw_tables.c), decoded by core/firmware/.  Called before
 * the suite, with the firmware's page tables in CR3 (every address the
 * tables hold is mapped one to one).
 */
#include "app/efi/sources.h"
#include "core/firmware/firmware.h"
#include "core/lib/buf.h"
#include "core/results/audit.h"
#include "platform/efi/fw.h"

/* An entry point is at most 1Fh bytes (SMBIOS 2.1; 3.0's is 18h): its own length byte says. */
#define SMBIOS_ENTRY_MAX 0x20

static void smbios(struct mp_result *r)
{
	const uint8_t *ep = mp_fw_smbios_entry();
	struct mp_smbios_table t;
	const char *why = NULL;
	char version[16];

	if (!ep) {
		mp_smbios_missing(r, MP_SOURCE_ABSENT, "the firmware lists no SMBIOS table");
		return;
	}
	if (!mp_smbios_entry(ep, SMBIOS_ENTRY_MAX, &t, &why)) {
		mp_smbios_missing(r, MP_SOURCE_INVALID, why);
		return;
	}
	mp_snprintf(version, sizeof(version), "%u.%u", t.major, t.minor);
	mp_smbios_sources(r, (const uint8_t *)(uintptr_t)t.address, t.length, version);
}

static void pptt(struct mp_result *r)
{
	const uint8_t *rsdp = mp_fw_acpi_root(), *table;
	const char *why = "the firmware lists no ACPI tables";
	uint32_t len = 0;

	table = rsdp ? mp_acpi_find(rsdp, "PPTT", &len, &why) : NULL;
	if (table)
		mp_pptt_source(r, table, len);
	else
		mp_audit_source_missing(r, MP_SOURCE_PPTT, MP_SOURCE_ABSENT, why);
}

void mp_efi_sources(struct mp_result *r)
{
	smbios(r);
	pptt(r);
}
