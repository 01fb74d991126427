/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/cli/cli.h"
#include "core/lib/buf.h"
#include "core/results/writers.h"

/* Run directories are numbered; this many are tried before giving up. */
#define MAX_RUNS 9999

/* Large enough for the report or the JSON of a full result. */
static char out_mem[1 << 20];

/* A new directory `<parent>/run-NNNN`; false with errno set on failure. */
static bool run_dir(const char *parent, char *dir, size_t dir_len)
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

enum mp_status mp_cli_write_file(const char *path, const char *data, size_t len)
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

static void cli_log(void *ctx, enum mp_log_level lvl, const char *msg)
{
	const struct mp_cli *cli = ctx;

	fprintf(stderr, "[%s] %s%s\n", cli->prog, mp_log_prefix(lvl), msg);
}

/* A percentage that rewrites itself, on a terminal only. */
static void cli_progress(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	const struct mp_cli *cli = ctx;

	if (cli->quiet || total == 0 || !isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r  %s %3u%%%s", what, (unsigned)(100 * done / total),
		done + 1 >= total ? "\n" : "");
}

static enum mp_status cli_sink(void *ctx, const char *name, const char *data, size_t len)
{
	const struct mp_cli *cli = ctx;
	char path[sizeof(cli->run_dir) + 64];

	if (!cli->run_dir[0])
		return MP_OK;
	snprintf(path, sizeof(path), "%s/%s", cli->run_dir, name);
	return mp_cli_write_file(path, data, len);
}

void mp_cli_open(struct mp_cli *cli)
{
	cli->out = (struct mp_output){
		.log = cli_log, .progress = cli_progress, .sink = cli_sink, .ctx = cli,
	};
	if (run_dir(cli->out_dir, cli->run_dir, sizeof(cli->run_dir)))
		return;
	fprintf(stderr, "%s: cannot create a run directory in %s: %s; results go to stdout only\n",
		cli->prog, cli->out_dir, strerror(errno));
	cli->run_dir[0] = '\0';
}

int mp_cli_finish(const struct mp_cli *cli, const struct mp_result *r)
{
	struct mp_buf b;

	mp_buf_init(&b, out_mem, sizeof(out_mem));
	mp_write_report(&b, r);
	fputs(b.data, stdout);
	if (cli->run_dir[0])
		fprintf(stderr, "%s: results in %s\n", cli->prog, cli->run_dir);
	if (!cli->json_path)
		return 0;
	mp_buf_init(&b, out_mem, sizeof(out_mem));
	mp_write_json(&b, r);
	if (b.overflow || mp_cli_write_file(cli->json_path, b.data, b.len) != MP_OK) {
		fprintf(stderr, "%s: could not write %s\n", cli->prog, cli->json_path);
		return 1;
	}
	return 0;
}
