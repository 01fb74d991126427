/* SPDX-License-Identifier: MIT */
#include "app/efi/out.h"
#include "app/efi/results.h"
#include "core/lib/buf.h"

/* Longest file path: the run directory, '/', a result file's name. */
#define PATH_LEN 96

static enum mp_fw_status make_parents(void)
{
	enum mp_fw_status st = mp_fw_mkdir("memprobe");

	return st == MP_FW_OK ? mp_fw_mkdir(MP_EFI_RESULTS_ROOT) : st;
}

static enum mp_fw_status make_run_dir(struct mp_efi_results *res)
{
	for (unsigned run = 1; run <= MP_EFI_RUNS_MAX; run++) {
		mp_snprintf(res->dir, sizeof(res->dir), "%s/run-%04u", MP_EFI_RESULTS_ROOT, run);
		enum mp_fw_status st = mp_fw_mkdir_new(res->dir);

		if (st != MP_FW_EXISTS)
			return st;
	}
	return MP_FW_FULL;
}

static void tell(struct mp_efi_results *res)
{
	if (res->told)
		return;
	res->told = true;
	mp_efi_sayf("memprobe: error: cannot store results: %s.\n",
		    mp_fw_status_text(res->status));
	if (res->stored)
		mp_efi_sayf("memprobe: the files in %s keep what was measured before; nothing "
			    "more is written there.\n", res->dir);
	mp_efi_say("memprobe: the serial port will carry result.json at the end.\n");
}

void mp_efi_results_open(struct mp_efi_results *res)
{
	res->told = false;
	res->stored = false;
	res->dir[0] = 0;
	res->status = make_parents();
	if (res->status == MP_FW_OK)
		res->status = make_run_dir(res);
	if (res->status == MP_FW_OK)
		mp_efi_sayf("memprobe: results go to %s on the boot partition\n", res->dir);
	else
		tell(res);
}

enum mp_status mp_efi_results_store(struct mp_efi_results *res, const char *name,
				    const char *data, size_t len)
{
	char path[PATH_LEN];

	if (res->status == MP_FW_OK) {
		mp_snprintf(path, sizeof(path), "%s/%s", res->dir, name);
		res->status = mp_fw_write(path, data, len);
	}
	if (res->status == MP_FW_OK) {
		res->stored = true;
		return MP_OK;
	}
	tell(res);
	return MP_EIO;
}
