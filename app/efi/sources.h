/* SPDX-License-Identifier: MIT */
/* The SMBIOS and ACPI PPTT sources on bare metal (sources.c). */
#ifndef MEMPROBE_APP_EFI_SOURCES_H
#define MEMPROBE_APP_EFI_SOURCES_H

#include "core/results/result.h"

void mp_efi_sources(struct mp_result *r);

#endif
