/* SPDX-License-Identifier: MIT */
/*
 * The bare-metal platform "uefi-x86_64": the TSC for time, the arena for
 * memory mapped by our own page tables, the shared x86 kernels for runs,
 * the counters by MSR, ring-0 instructions for masking interrupts and
 * flushing.  What the user sees goes to the application's output, each
 * call made with the firmware's page tables back in CR3.
 */
#ifndef MEMPROBE_PLATFORM_EFI_PLATFORM_H
#define MEMPROBE_PLATFORM_EFI_PLATFORM_H

#include "core/platform.h"
#include "core/results/result.h"
#include "platform/efi/arena.h"

#define MP_EFI_PLATFORM "uefi-x86_64"

/*
 * Calibrate the clocks, check the MSR guard, make our page tables and
 * check the counters, then load our page tables: from here to
 * mp_efi_close the firmware's are back only around each firmware call the
 * platform makes, so the application calls nothing of the firmware in
 * between.  What the suite cannot use (counters, own page tables) becomes
 * a note in r.  NULL when the firmware has no memory for the platform.
 */
struct mp_platform *mp_efi_open(struct mp_efi_arena *arena, const struct mp_output *out,
				struct mp_result *r);

/* The firmware's page tables and PMU registers back, our tables and state freed. */
void mp_efi_close(struct mp_platform *p);

#endif
