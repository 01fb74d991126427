/* SPDX-License-Identifier: MIT */
/*
 * The end of a run: wait finish_delay seconds, during which a key press
 * keeps the machine up, then power off, reboot or return to the firmware
 * as on_finish says.
 */
#ifndef MEMPROBE_APP_EFI_FINISH_H
#define MEMPROBE_APP_EFI_FINISH_H

#include "core/config.h"

/* Returns only to go back to the firmware. */
void mp_efi_finish(const struct mp_config *cfg);

#endif
