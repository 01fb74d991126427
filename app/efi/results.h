/* SPDX-License-Identifier: MIT */
/*
 * The run's result directory, memprobe/results/run-NNNN on the partition
 * the application was loaded from: a new one per run, the first free
 * number, so an earlier run is never overwritten.
 */
#ifndef MEMPROBE_APP_EFI_RESULTS_H
#define MEMPROBE_APP_EFI_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/platform.h"
#include "platform/efi/fw.h"

#define MP_EFI_RESULTS_ROOT "memprobe/results"
/* Run numbers tried before giving up: run-0001 .. run-9999. */
#define MP_EFI_RUNS_MAX 9999u

struct mp_efi_results {
	char dir[48];                /* "memprobe/results/run-0001" */
	enum mp_fw_status status;    /* why nothing can be stored, or MP_FW_OK */
	bool told;                   /* the failure was reported once */
	bool stored;                 /* a file was stored before any failure */
};

/* Create this run's directory (the volume is open); says what happened. */
void mp_efi_results_open(struct mp_efi_results *res);

/*
 * Store one file (the platform's sink); the first failure is reported, and
 * nothing more is written: the files already there stay whole (mp_fw_write).
 */
enum mp_status mp_efi_results_store(struct mp_efi_results *res, const char *name,
				    const char *data, size_t len);

#endif
