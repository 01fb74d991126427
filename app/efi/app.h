/* SPDX-License-Identifier: MIT */
/* The application, in plain C: what efi_main runs once it has kept the firmware's handles. */
#ifndef MEMPROBE_APP_EFI_APP_H
#define MEMPROBE_APP_EFI_APP_H

/* 0 when the suite ran; returns only when on_finish is "return" or a reset failed. */
int mp_efi_app(void);

#endif
