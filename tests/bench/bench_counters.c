/* SPDX-License-Identifier: MIT */
/*
 * The counter suite against the timing suite on the simulator (issue 5):
 * for a few models, each suite alone (--method counters: amp and papi;
 * --method timing: every timing probe), its wall time, the simulated time,
 * the number of seam runs and of simulated accesses, and the ratios.  The
 * PAPI paper claims counters need fewer repetitions than timing ("cache
 * and TLB miss events exhibit little or no variability"); AMP votes 8
 * times on the minimum of 8, so the two counter probes are shown apart too.
 */
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "core/config.h"
#include "core/suite.h"
#include "platform/sim/platform.h"
#include "tests/output.h"
#include "tests/probes/counter_sim.h"

static const char *const models[] = {
	"sim/models/pentium-ii-233.model",
	"sim/models/itanium2-1500.model",
	"sim/models/zen4.model",
	"sim/models/icelake-sp.model",
	"sim/models/sapphire-rapids.model",
};
#define NMODELS (sizeof(models) / sizeof(models[0]))
#define ARENA (1ull << 30)

struct tally {
	double wall, simulated;
	uint64_t runs, accesses;
};

static struct mp_platform_ops counting_ops;
static const struct mp_platform_ops *sim_ops;
static struct tally *current;

static enum mp_status counting_run(struct mp_platform *p, const struct mp_run *r,
				   struct mp_sample *out)
{
	current->runs++;
	current->accesses += r->steps;
	return sim_ops->run(p, r, out);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* One suite on a fresh simulator: what it cost. */
static int measure(const struct mp_sim_model *m, enum mp_method method, const char *probes,
		   struct tally *t)
{
	static struct mp_result r;
	struct mp_platform *p = mp_sim_open(m, test_output());
	struct mp_config cfg;
	uint64_t t0;
	double w0;

	if (!p)
		return 0;
	mp_config_defaults(&cfg);
	cfg.method = method;
	cfg.arena_bytes = ARENA;
	snprintf(cfg.probes, sizeof(cfg.probes), "%s", probes);
	mp_result_init(&r, p->name);
	memset(t, 0, sizeof(*t));
	current = t;
	sim_ops = p->ops;
	counting_ops = *sim_ops;
	counting_ops.run = counting_run;
	p->ops = &counting_ops;
	t0 = mp_now(p);
	w0 = now();
	mp_suite_run(p, &cfg, &r);
	t->wall = now() - w0;
	t->simulated = (double)(mp_now(p) - t0) / (double)p->tick_hz;
	p->ops = sim_ops;
	mp_sim_close(p);
	return 1;
}

static void row(const char *model, const char *what, const struct tally *t)
{
	printf("  %-16s %-9s %8.2f %10.3f %10llu %14llu\n", model, what, t->wall, t->simulated,
	       (unsigned long long)t->runs, (unsigned long long)t->accesses);
}

static void ratio(const char *model, const struct tally *c, const struct tally *t)
{
	printf("  %-16s %-9s %8.2f %10.2f %10.2f %14.2f\n", model, "ratio", c->wall / t->wall,
	       c->simulated / t->simulated, (double)c->runs / (double)t->runs,
	       (double)c->accesses / (double)t->accesses);
}

int main(void)
{
	static struct mp_sim_model m;
	struct tally timing, counters, amp, papi;
	char err[256];

	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	printf("counter suite (amp, papi) against the timing suite on the simulator, arena %llu M\n",
	       ARENA >> 20);
	printf("goal: a model's timing suite under %.0f s of wall time, its counter suite under "
	       "%.0f s\n", PS_MODEL_SECONDS, CS_MODEL_SECONDS);
	printf("  %-16s %-9s %8s %10s %10s %14s\n", "model", "suite", "wall s", "sim s",
	       "seam runs", "accesses");
	for (unsigned i = 0; i < NMODELS; i++) {
		if (mp_sim_model_load(&m, models[i], err, sizeof(err)) < 0) {
			printf("  %s\n", err);
			continue;
		}
		measure(&m, MP_METHOD_TIMING, "", &timing);
		measure(&m, MP_METHOD_COUNTERS, "amp,papi", &counters);
		measure(&m, MP_METHOD_COUNTERS, "amp", &amp);
		measure(&m, MP_METHOD_COUNTERS, "papi", &papi);
		row(m.name, "timing", &timing);
		row(m.name, "counters", &counters);
		row(m.name, " amp", &amp);
		row(m.name, " papi", &papi);
		ratio(m.name, &counters, &timing);
		printf("  %-16s %-9s %8.2f %10.2f %10.2f %14.2f\n", m.name, "papi/tim", papi.wall /
		       timing.wall, papi.simulated / timing.simulated,
		       (double)papi.runs / (double)timing.runs,
		       (double)papi.accesses / (double)timing.accesses);
	}
	return 0;
}
