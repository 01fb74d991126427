/* SPDX-License-Identifier: MIT */
/*
 * What the UEFI application gives its platform as the output
 * (core/platform.h, struct mp_output): log lines and progress on the
 * console and the serial port, result files in the run's directory.
 */
#ifndef MEMPROBE_APP_EFI_OUTPUT_H
#define MEMPROBE_APP_EFI_OUTPUT_H

#include "app/efi/results.h"
#include "core/platform.h"
#include "core/results/result.h"

struct mp_efi_output {
	struct mp_output out;
	struct mp_efi_results *results;
	char progress_what[MP_NAME_LEN];
	uint64_t progress_step;
};

void mp_efi_output_init(struct mp_efi_output *o, struct mp_efi_results *res);

#endif
