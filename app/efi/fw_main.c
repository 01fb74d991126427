/* SPDX-License-Identifier: MIT */
/*
 * The UEFI entry point: keep the firmware's handles for efi/fw_*.c and run
 * the application, which sees no UEFI type.
 */
#include "app/efi/app.h"
#include "platform/efi/fw_priv.h"

EFI_SYSTEM_TABLE *mp_fw_st;
EFI_HANDLE mp_fw_image;

/*
 * GNU-EFI's _start (crt0-efi-x86_64.S) applies the image's relocations and
 * calls efi_main with the System V convention, so no EFIAPI here.
 */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st);

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	mp_fw_image = image;
	mp_fw_st = st;
	return mp_efi_app() == 0 ? EFI_SUCCESS : EFI_ABORTED;
}
