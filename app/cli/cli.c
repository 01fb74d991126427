/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "app/cli/cli.h"

static void usage(const char *prog, bool sim)
{
	fprintf(stderr,
		"usage: %s %s[--profile quick|full] [--method auto|timing|counters|both]\n"
		"       [--probes LIST] [--rounds auto|N] [--seed N] [--arena SIZE] [--json FILE]\n"
		"       [--out DIR] [--cores all|boot|N] [--start_cpu quietest|first]\n"
		"       [--quiet]%s\n"
		"Runs the memprobe suite %s and prints the report.\n"
		"  --rounds N   repeat each timing probe N times and vote (default auto: 2 to 5\n"
		"               rounds, more while they disagree; full profile 3 to 9)\n"
		"  --cores C    logical CPUs the multi-core probes use: all (default), boot\n"
		"               (the boot CPU alone) or N (CPUs 0 to N-1)\n"
		"  --start_cpu S  where the suite runs: quietest (default: the CPU of the first's\n"
		"               core type whose L1D another thread disturbs least) or first\n"
		"  --json FILE  also write the result JSON to FILE\n"
		"  --out DIR    keep result.json, report.txt, curves.csv in a new DIR/run-NNNN\n"
		"               (default: memprobe-results)\n",
		prog, sim ? "--model FILE " : "", sim ? " [--explain]" : "",
		sim ? "against a simulated machine" : "on this Linux machine");
}

/* Options that map straight onto configuration keys. */
static const char *const config_keys[] = { "profile", "method", "probes", "seed", "arena",
					       "rounds", "cores", "start_cpu" };

static bool config_option(struct mp_cli *cli, const char *opt, const char *val)
{
	char why[160];

	for (size_t i = 0; i < sizeof(config_keys) / sizeof(config_keys[0]); i++) {
		if (strcmp(opt + 2, config_keys[i]) != 0)
			continue;
		if (mp_config_set(&cli->cfg, config_keys[i], val, why, sizeof(why)) == 0)
			return true;
		fprintf(stderr, "%s: %s\n", opt, why);
		return false;
	}
	fprintf(stderr, "unknown option %s\n", opt);
	return false;
}

static bool value_option(struct mp_cli *cli, const char *opt, const char *val, bool sim)
{
	if (strcmp(opt, "--json") == 0)
		cli->json_path = val;
	else if (strcmp(opt, "--out") == 0)
		cli->out_dir = val;
	else if (sim && strcmp(opt, "--model") == 0)
		cli->model_path = val;
	else
		return config_option(cli, opt, val);
	return true;
}

static bool flag_option(struct mp_cli *cli, const char *opt, bool sim)
{
	if (strcmp(opt, "--quiet") == 0)
		cli->quiet = true;
	else if (sim && strcmp(opt, "--explain") == 0)
		cli->explain = true;
	else
		return false;
	return true;
}

bool mp_cli_parse(struct mp_cli *cli, int argc, char **argv, bool sim)
{
	memset(cli, 0, sizeof(*cli));
	cli->prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	mp_config_defaults(&cli->cfg);
	cli->out_dir = "memprobe-results";
	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i];

		if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
			usage(argv[0], sim);
			return false;
		}
		if (flag_option(cli, opt, sim))
			continue;
		if (strncmp(opt, "--", 2) != 0 || i + 1 >= argc) {
			fprintf(stderr, "%s: %s needs a value\n", argv[0], opt);
			usage(argv[0], sim);
			return false;
		}
		if (!value_option(cli, opt, argv[++i], sim))
			return false;
	}
	if (sim && !cli->model_path) {
		fprintf(stderr, "%s: --model FILE is required\n", argv[0]);
		usage(argv[0], sim);
		return false;
	}
	return true;
}
