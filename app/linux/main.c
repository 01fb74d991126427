/* SPDX-License-Identifier: MIT */
/* memprobe: the probe suite as a Linux command. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>

#include "app/cli/cli.h"
#include "arch/x86_64/cpuid.h"
#include "core/suite.h"
#include "platform/linux/platform.h"
#include "platform/linux/sources.h"

static struct mp_result result;

int main(int argc, char **argv)
{
	static struct mp_cli cli;
	struct mp_platform *p;
	int rc;

	if (!mp_cli_parse(&cli, argc, argv, false))
		return 2;
	mp_cli_open(&cli);
	p = mp_linux_open(&cli.out);
	if (!p) {
		fprintf(stderr, "%s: out of memory\n", cli.prog);
		return 1;
	}
	mp_result_init(&result, p->name);
	mp_cpuid_fill(&result, mp_cpuid_hw, NULL);
	mp_linux_sources(&result, "/sys", sched_getcpu());
	mp_suite_run(p, &cli.cfg, &result);
	rc = mp_cli_finish(&cli, &result);
	mp_linux_close(p);
	return rc;
}
