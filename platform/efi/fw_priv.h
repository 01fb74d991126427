/* SPDX-License-Identifier: MIT */
/*
 * Private to efi/fw_*.c: the firmware handles and the mapping of EFI status
 * codes.  Nothing outside efi/fw_*.c includes this header.
 */
#ifndef MEMPROBE_PLATFORM_EFI_FW_PRIV_H
#define MEMPROBE_PLATFORM_EFI_FW_PRIV_H

#include <efi.h>

#include "platform/efi/fw.h"

/* Set once by efi_main (fw_main.c) before anything else runs. */
extern EFI_SYSTEM_TABLE *mp_fw_st;
extern EFI_HANDLE mp_fw_image;

enum mp_fw_status mp_fw_status_of(EFI_STATUS s);

/* ASCII to UCS-2 (CHAR16) for firmware calls; false if it does not fit. */
bool mp_fw_ucs2(CHAR16 *dst, size_t n, const char *src);

#endif
