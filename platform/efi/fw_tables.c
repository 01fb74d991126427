/* SPDX-License-Identifier: MIT */
/*
 * The firmware's description tables, as the EFI Configuration Table lists
 * them (UEFI Specification 2.10, section 4.6): the SMBIOS entry point (the
 * 64-bit one of SMBIOS 3.0 first, else the 32-bit one) and the ACPI root
 * pointer (ACPI 2.0 and later first, else 1.0).  Plain pointers out: the
 * tables are in memory the firmware maps one to one.
 */
#include "platform/efi/fw_priv.h"

static bool same_guid(const EFI_GUID *a, const EFI_GUID *b)
{
	const unsigned char *x = (const void *)a, *y = (const void *)b;

	for (size_t i = 0; i < sizeof(EFI_GUID); i++)
		if (x[i] != y[i])
			return false;
	return true;
}

static const void *config_table(EFI_GUID guid)
{
	for (UINTN i = 0; i < mp_fw_st->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &mp_fw_st->ConfigurationTable[i];

		if (same_guid(&t->VendorGuid, &guid))
			return t->VendorTable;
	}
	return NULL;
}

const void *mp_fw_smbios_entry(void)
{
	const void *ep = config_table((EFI_GUID)SMBIOS3_TABLE_GUID);

	return ep ? ep : config_table((EFI_GUID)SMBIOS_TABLE_GUID);
}

const void *mp_fw_acpi_root(void)
{
	const void *rsdp = config_table((EFI_GUID)ACPI_20_TABLE_GUID);

	return rsdp ? rsdp : config_table((EFI_GUID)ACPI_TABLE_GUID);
}
