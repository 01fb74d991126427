/* SPDX-License-Identifier: MIT */
/* memprobe/memprobe.cfg on the boot partition, read into a struct mp_config. */
#ifndef MEMPROBE_APP_EFI_CONFIG_LOAD_H
#define MEMPROBE_APP_EFI_CONFIG_LOAD_H

#include "core/config.h"

#define MP_EFI_CONFIG_PATH "memprobe/memprobe.cfg"
/* Longest configuration file read. */
#define MP_EFI_CONFIG_BYTES (16u << 10)

/*
 * Defaults, then the file.  Every problem is said on the console and the
 * serial port with its line number; a missing file means the defaults.
 * Needs the boot volume open (mp_fw_volume_open).
 */
void mp_efi_config_load(struct mp_config *cfg);

/* One line with every setting in effect. */
void mp_efi_config_show(const struct mp_config *cfg);

#endif
