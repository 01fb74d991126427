/* SPDX-License-Identifier: MIT */
/*
 * The documented sources a Linux process reads besides CPUID
 * (docs/design.md, "Documented sources"): the kernel's cache description
 * in sysfs (sources.c, "linux sysfs"), and the firmware's SMBIOS and ACPI
 * PPTT tables, which /sys/firmware shows to root only (firmware.c), handed
 * to the byte decoders of core/firmware/.  `sys` is the sysfs root, "/sys"
 * for the command; the tests pass a tree of their own.
 */
#ifndef MEMPROBE_PLATFORM_LINUX_SOURCES_H
#define MEMPROBE_PLATFORM_LINUX_SOURCES_H

#include <stddef.h>

#include "core/results/result.h"

#define MP_SOURCE_SYSFS "linux sysfs"

/* Every source below, for the CPU the process runs on. */
void mp_linux_sources(struct mp_result *r, const char *sys, int cpu);

/* The caches and the package of logical CPU `cpu` as sysfs describes them. */
void mp_linux_sysfs_source(struct mp_result *r, const char *sys, int cpu);

/* SMBIOS types 7 and 4, and the PPTT, from <sys>/firmware. */
void mp_linux_firmware_sources(struct mp_result *r, const char *sys);

/*
 * A whole file into memory (malloc; the caller frees), NULL with errno set
 * when it cannot be read.
 */
char *mp_linux_slurp(const char *path, size_t *len);

#endif
