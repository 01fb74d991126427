/* SPDX-License-Identifier: MIT */
/*
 * memprobe-sim: the probe suite against a simulated machine.
 *
 *   memprobe-sim --model FILE [--json OUT] [--method timing|counters|both]
 *                [--probes LIST] [--explain] [--seed N] [--out DIR] [--quiet]
 *
 * The options are the Linux command's (app/cli/cli.c) plus --model and
 * --explain.  The report goes to stdout; with --explain the causes of misses
 * per probe and reference string follow it.
 */
#include <stdio.h>
#include <time.h>

#include "app/cli/cli.h"
#include "core/results/audit.h"
#include "core/suite.h"
#include "platform/sim/platform.h"

static struct mp_result result;

static void describe(const struct mp_sim_model *m, struct mp_result *r)
{
	snprintf(r->machine.vendor, sizeof(r->machine.vendor), "memprobe-sim");
	snprintf(r->machine.brand, sizeof(r->machine.brand), "%s (simulated)", m->name);
	r->cpu.core_hz = (double)m->clock_hz;
	r->cpu.tsc_hz = (double)m->clock_hz;
	r->cpu.logical_cpus = 1;
	r->cpu.cores = 1;
	r->cpu.threads_per_core = 1;
	mp_sim_model_document(m, &r->documented);
	mp_audit_add_documented(r, "model", &r->documented);
}

static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* How much simulating the suite took: the figure to watch when probes grow. */
static void say_speed(struct mp_sim *s, double t0)
{
	double t = seconds() - t0;
	double n = (double)mp_sim_count_all(s, MP_EV_INSTRUCTIONS);
	double simulated = (double)mp_sim_cycles(s) / (double)mp_sim_model(s)->clock_hz;

	fprintf(stderr, "memprobe-sim: %.0f simulated accesses in %.1f s (%.1f million/s), "
		"%.2f s of simulated time\n", n, t, t > 0 ? n / t / 1e6 : 0.0, simulated);
}

int main(int argc, char **argv)
{
	static struct mp_sim_model model;
	static struct mp_cli cli;
	struct mp_platform *p;
	char err[512];
	double t0 = seconds();
	int rc;

	if (!mp_cli_parse(&cli, argc, argv, true))
		return 2;
	if (mp_sim_model_load(&model, cli.model_path, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", cli.prog, err);
		return 2;
	}
	mp_cli_open(&cli);
	p = mp_sim_open(&model, &cli.out);
	if (!p) {
		fprintf(stderr, "%s: out of memory building model %s\n", cli.prog, model.name);
		return 1;
	}
	mp_sim_explain(mp_sim_of(p), cli.explain);
	mp_result_init(&result, p->name);
	describe(&model, &result);
	mp_suite_run(p, &cli.cfg, &result);
	rc = mp_cli_finish(&cli, &result);
	if (cli.explain)
		mp_sim_print_causes(mp_sim_of(p), stdout);
	if (!cli.quiet)
		say_speed(mp_sim_of(p), t0);
	mp_sim_close(p);
	return rc;
}
