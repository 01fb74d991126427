/* SPDX-License-Identifier: MIT */
/*
 * The bare-metal platform "uefi-x86_64": the TSC for time, the arena for
 * memory, the shared x86 kernels for runs, ring-0 instructions for masking
 * interrupts and flushing, the console and serial port for output, the
 * run's directory on the boot partition for result files.
 */
#ifndef MEMPROBE_EFI_PLATFORM_H
#define MEMPROBE_EFI_PLATFORM_H

#include "core/platform.h"
#include "efi/arena.h"
#include "efi/results.h"

#define MP_EFI_PLATFORM "uefi-x86_64"

/* Calibrate the clocks and return the platform (one per application run). */
struct mp_platform *mp_efi_platform(struct mp_efi_arena *arena, struct mp_efi_results *res);

#endif
