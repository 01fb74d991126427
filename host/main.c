/* SPDX-License-Identifier: MIT */
/* memprobe: the probe suite as a Linux command. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch/x86_64/cpuid.h"
#include "core/suite.h"
#include "host/host.h"

static struct mp_result result;

int main(int argc, char **argv)
{
	struct host_cli cli;
	char dir[4096];
	const char *results = dir;
	struct mp_platform *p;

	if (!host_cli_parse(&cli, argc, argv, false))
		return 2;
	if (!host_results_open(cli.out_dir, dir, sizeof(dir))) {
		fprintf(stderr, "memprobe: cannot create a run directory in %s: %s; "
				"results go to stdout only\n", cli.out_dir, strerror(errno));
		results = NULL;
	}
	p = host_linux_platform(&cli, results);
	mp_result_init(&result, p->name);
	mp_cpuid_fill(&result, mp_cpuid_hw, NULL);
	mp_suite_run(p, &cli.cfg, &result);
	if (results)
		fprintf(stderr, "memprobe: results in %s\n", results);
	return host_finish(&cli, &result);
}
