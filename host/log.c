/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/writers.h"
#include "host/host.h"

static const char *const level_names[] = { "", "warning: ", "error: " };

void host_log(const char *platform, enum mp_log_level lvl, const char *msg)
{
	fprintf(stderr, "[%s] %s%s\n", platform, level_names[lvl], msg);
}

void host_progress(bool quiet, const char *what, uint64_t done, uint64_t total)
{
	if (quiet || total == 0)
		return;
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r  %s %3u%%%s", what, (unsigned)(100 * done / total),
			done + 1 >= total ? "\n" : "");
}

static char out_mem[1 << 20];

int host_finish(const struct host_cli *cli, const struct mp_result *r)
{
	struct mp_buf b;

	mp_buf_init(&b, out_mem, sizeof(out_mem));
	mp_write_report(&b, r);
	fputs(b.data, stdout);
	if (!cli->json_path)
		return 0;
	mp_buf_init(&b, out_mem, sizeof(out_mem));
	mp_write_json(&b, r);
	if (b.overflow || host_write_file(cli->json_path, b.data, b.len) != MP_OK) {
		fprintf(stderr, "could not write %s\n", cli->json_path);
		return 1;
	}
	return 0;
}
