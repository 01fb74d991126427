/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "host/host.h"

/* Run directories are numbered; this many are tried before giving up. */
#define MAX_RUNS 9999

bool host_results_open(const char *parent, char *dir, size_t dir_len)
{
	if (mkdir(parent, 0755) != 0 && errno != EEXIST)
		return false;
	for (int n = 1; n <= MAX_RUNS; n++) {
		snprintf(dir, dir_len, "%s/run-%04d", parent, n);
		if (mkdir(dir, 0755) == 0)
			return true;
		if (errno != EEXIST)
			return false;
	}
	errno = EEXIST;
	return false;
}

/* Write to a temporary name, then rename: a crash never leaves half a file. */
enum mp_status host_write_file(const char *path, const char *data, size_t len)
{
	char tmp[4200];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "wb");
	if (!f)
		return MP_EIO;
	if (fwrite(data, 1, len, f) != len || fclose(f) != 0)
		return MP_EIO;
	return rename(tmp, path) == 0 ? MP_OK : MP_EIO;
}

enum mp_status host_results_write(const char *dir, const char *name, const char *data,
				  size_t len)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return host_write_file(path, data, len);
}
