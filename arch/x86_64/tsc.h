/* SPDX-License-Identifier: MIT */
/* What CPUID says about the time-stamp counter. */
#ifndef MEMPROBE_ARCH_X86_64_TSC_H
#define MEMPROBE_ARCH_X86_64_TSC_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86_64/cpuid.h"

/* TSC frequency from CPUID leaf 15H, or 0 when the CPU does not enumerate it. */
uint64_t mp_x86_tsc_hz_cpuid(const struct mp_cpuid *c);

/* Does the TSC tick at a constant rate in every power state? */
bool mp_x86_tsc_invariant(const struct mp_cpuid *c);

#endif
