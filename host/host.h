/* SPDX-License-Identifier: MIT */
/* The Linux front end, shared by the Linux command and the simulator command. */
#ifndef MEMPROBE_HOST_HOST_H
#define MEMPROBE_HOST_HOST_H

#include <stdbool.h>

#include "arch/x86_64/x86.h"
#include "core/config.h"
#include "core/platform.h"
#include "core/result.h"

/* Command-line options common to both commands. */
struct host_cli {
	struct mp_config cfg;
	const char *json_path;   /* --json: also write result.json here */
	const char *out_dir;     /* --out: parent of the per-run directories */
	const char *model_path;  /* --model (simulator only) */
	bool explain;            /* --explain (simulator only) */
	bool quiet;              /* --quiet: no progress lines */
};

/* Parse argv; prints usage or the problem to stderr and returns false on error. */
bool host_cli_parse(struct host_cli *cli, int argc, char **argv, bool sim);

/*
 * The result-file sink: a new directory `<parent>/run-NNNN` per run (never an
 * existing one).  host_results_open returns false with errno set on failure.
 */
bool host_results_open(const char *parent, char *dir, size_t dir_len);
enum mp_status host_write_file(const char *path, const char *data, size_t len);
enum mp_status host_results_write(const char *dir, const char *name, const char *data,
				  size_t len);

/* Log and progress lines on stderr (progress only when not quiet). */
void host_log(const char *platform, enum mp_log_level lvl, const char *msg);
void host_progress(bool quiet, const char *what, uint64_t done, uint64_t total);

/* After the suite: the report on stdout, --json written. 0 on success. */
int host_finish(const struct host_cli *cli, const struct mp_result *r);

/* Linux counters through perf_event_open; pmc->events is 0 when none. */
void host_perf_open(struct mp_x86_pmc *pmc, char *why, size_t why_len);

/* The Linux platform. */
struct mp_platform *host_linux_platform(const struct host_cli *cli, const char *results_dir);

#endif
