/* SPDX-License-Identifier: MIT */
/*
 * The front end of the two Linux commands, memprobe (app/linux) and
 * memprobe-sim (app/sim): options, the run directory, log and progress on
 * stderr, the report on stdout.  It knows no platform: each command opens
 * its own with the output made here.
 */
#ifndef MEMPROBE_APP_CLI_CLI_H
#define MEMPROBE_APP_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "core/config.h"
#include "core/platform.h"
#include "core/results/result.h"

/* Command-line options common to both commands. */
struct mp_cli {
	struct mp_config cfg;
	const char *json_path;   /* --json: also write result.json here */
	const char *out_dir;     /* --out: parent of the per-run directories */
	const char *model_path;  /* --model (simulator only) */
	bool explain;            /* --explain (simulator only) */
	bool quiet;              /* --quiet: no progress lines */
	const char *prog;        /* the command's name, for messages */
	char run_dir[4096];      /* this run's directory; empty when none could be made */
	struct mp_output out;    /* where the platform's output goes */
};

/* Parse argv; prints usage or the problem to stderr and returns false on error. */
bool mp_cli_parse(struct mp_cli *cli, int argc, char **argv, bool sim);

/*
 * Make this run's directory `<out_dir>/run-NNNN` (never an existing one)
 * and the output: log and progress on stderr, result files in that
 * directory (or nowhere, with a message, when it cannot be made).
 */
void mp_cli_open(struct mp_cli *cli);

/* After the suite: the report on stdout, --json written, where the files are. 0 on success. */
int mp_cli_finish(const struct mp_cli *cli, const struct mp_result *r);

/* Write a whole file under a temporary name, then rename it: never half a file. */
enum mp_status mp_cli_write_file(const char *path, const char *data, size_t len);

#endif
