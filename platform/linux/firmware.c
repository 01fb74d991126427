/* SPDX-License-Identifier: MIT */
/*
 * The firmware's tables as Linux shows them: /sys/firmware/dmi/tables/DMI
 * (the SMBIOS structure table) with smbios_entry_point beside it, and
 * /sys/firmware/acpi/tables/PPTT (Documentation/ABI/testing/
 * sysfs-firmware-dmi-tables, sysfs-firmware-acpi).  Both are readable by
 * root only: as another user the sources say so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/firmware/firmware.h"
#include "core/results/audit.h"
#include "platform/linux/sources.h"

#define PATH_LEN 512
#define CHUNK 65536

char *mp_linux_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *more;
	size_t n = 0, got;

	if (!f)
		return NULL;
	do {
		more = realloc(buf, n + CHUNK);
		if (!more) {
			free(buf);
			fclose(f);
			errno = ENOMEM;
			return NULL;
		}
		buf = more;
		got = fread(buf + n, 1, CHUNK, f);
		n += got;
	} while (got == CHUNK);
	fclose(f);
	*len = n;
	return buf;
}

/* Why a file could not be read, in one line. */
static void why_not(char *out, size_t n, const char *path, int err)
{
	if (err == EACCES || err == EPERM)
		snprintf(out, n, "%.96s is readable by root only: run as root to read it", path);
	else
		snprintf(out, n, "%.96s: %.48s", path, strerror(err));
}

static enum mp_source_status status_of(int err)
{
	return err == EACCES || err == EPERM ? MP_SOURCE_UNREADABLE : MP_SOURCE_ABSENT;
}

/* "3.3" from the entry point beside the table, NULL when it cannot be read. */
static const char *smbios_version(const char *sys, char *out, size_t n)
{
	char path[PATH_LEN];
	struct mp_smbios_table t;
	const char *why;
	size_t len = 0;
	char *ep;

	snprintf(path, sizeof(path), "%s/firmware/dmi/tables/smbios_entry_point", sys);
	ep = mp_linux_slurp(path, &len);
	if (!ep)
		return NULL;
	if (mp_smbios_entry((const uint8_t *)ep, len, &t, &why))
		snprintf(out, n, "%u.%u", t.major, t.minor);
	free(ep);
	return out[0] ? out : NULL;
}

/*
 * The table at sys/rel; NULL with *status and why filled when it cannot be
 * read.  The caller frees it.
 */
static char *read_table(const char *sys, const char *rel, size_t *len,
			enum mp_source_status *status, char *why, size_t n)
{
	char path[PATH_LEN];
	char *table;

	snprintf(path, sizeof(path), "%s/%s", sys, rel);
	table = mp_linux_slurp(path, len);
	if (!table) {
		why_not(why, n, path, errno);
		*status = status_of(errno);
	}
	return table;
}

static void smbios(struct mp_result *r, const char *sys)
{
	char why[MP_TEXT_LEN], version[16] = "";
	enum mp_source_status status;
	size_t len = 0;
	char *table = read_table(sys, "firmware/dmi/tables/DMI", &len, &status, why, sizeof(why));

	if (!table) {
		mp_smbios_missing(r, status, why);
		return;
	}
	mp_smbios_sources(r, (const uint8_t *)table, len, smbios_version(sys, version,
									   sizeof(version)));
	free(table);
}

static void pptt(struct mp_result *r, const char *sys)
{
	char why[MP_TEXT_LEN];
	enum mp_source_status status;
	size_t len = 0;
	char *table = read_table(sys, "firmware/acpi/tables/PPTT", &len, &status, why, sizeof(why));

	if (!table) {
		mp_audit_source_missing(r, MP_SOURCE_PPTT, status, why);
		return;
	}
	mp_pptt_source(r, (const uint8_t *)table, len);
	free(table);
}

void mp_linux_firmware_sources(struct mp_result *r, const char *sys)
{
	smbios(r, sys);
	pptt(r, sys);
}
