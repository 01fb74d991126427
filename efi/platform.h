/* SPDX-License-Identifier: MIT */
/*
 * The bare-metal platform "uefi-x86_64": the TSC for time, the arena for
 * memory mapped by our own page tables, the shared x86 kernels for runs,
 * the counters by MSR, ring-0 instructions for masking interrupts and
 * flushing, the console and serial port for output, the run's directory on
 * the boot partition for result files.
 */
#ifndef MEMPROBE_EFI_PLATFORM_H
#define MEMPROBE_EFI_PLATFORM_H

#include "core/platform.h"
#include "core/suite.h"
#include "efi/arena.h"
#include "efi/results.h"

#define MP_EFI_PLATFORM "uefi-x86_64"

/*
 * Calibrate the clocks, check the MSR guard, make our page tables and
 * check the counters; return the platform (one per application run).
 * What the suite cannot use (counters, own page tables) becomes a note in r.
 */
struct mp_platform *mp_efi_platform(struct mp_efi_arena *arena, struct mp_efi_results *res,
				    struct mp_result *r);

/*
 * The suite with our page tables in CR3; the firmware's CR3 is back for
 * every firmware call and when this returns.
 */
void mp_efi_platform_suite(struct mp_platform *p, const struct mp_config *cfg,
			   struct mp_result *r);

/* Stop the counters, put back the firmware's PMU registers, free the page tables. */
void mp_efi_platform_close(struct mp_platform *p);

#endif
