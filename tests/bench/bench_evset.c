/* SPDX-License-Identifier: MIT */
/*
 * Eviction sets on the simulator (issue 12's cost goal: under 20 s of
 * simulated time on the largest model, quick profile): the models with
 * sliced, hashed or victim last levels, as Linux without huge pages sees
 * them (frames scattered, contiguous memory refused), the suite's timing
 * probes up to evset, each model on a fresh simulator; then the full
 * profile, which counts every class, on Power3's L2 (512 classes at a page
 * offset), one round of it.  Per model: its profile, evset's simulated
 * seconds (its rounds included), the suite's wall seconds, the simulated
 * seconds of the probes before evset, and evset's message.
 */
#include <stdio.h>
#include <sys/prctl.h>
#include <time.h>

#include "core/config.h"
#include "core/suite.h"
#include "platform/sim/platform.h"
#include "tests/output.h"

static const struct bench_run {
	const char *path;
	enum mp_profile profile;
	uint32_t rounds;
} runs[] = {
	{ "sim/models/sapphire-rapids.model", MP_PROFILE_QUICK, MP_ROUNDS_AUTO }, /* the largest */
	{ "sim/models/icelake-sp.model", MP_PROFILE_QUICK, MP_ROUNDS_AUTO },
	{ "sim/models/zen4.model", MP_PROFILE_QUICK, MP_ROUNDS_AUTO },
	{ "sim/models/alderlake-hybrid.model", MP_PROFILE_QUICK, MP_ROUNDS_AUTO },
	{ "sim/models/core-i7-4770.model", MP_PROFILE_QUICK, MP_ROUNDS_AUTO },
	{ "sim/models/power3-375.model", MP_PROFILE_FULL, 1 },
};
static const char *const profile_names[] = {
	[MP_PROFILE_QUICK] = "quick", [MP_PROFILE_FULL] = "full",
};
#define ARENA (1ull << 30)
#define PROBES "latency,l1,levels,compact,evset"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* The suite up to evset on a fresh simulator of m, with the run's profile and rounds; its line. */
static void measure(struct mp_sim_model *m, const struct bench_run *run)
{
	static struct mp_result r;
	struct mp_platform *p;
	const struct mp_probe *ev;
	struct mp_config cfg;
	double w0, before = 0;

	m->frames.mode = MP_SIM_FRAMES_SCATTERED;
	m->frames.refuse_contiguous = true;
	p = mp_sim_open(m, test_output());
	if (!p) {
		printf("  %-18s could not open the simulator\n", m->name);
		return;
	}
	mp_config_defaults(&cfg);
	cfg.method = MP_METHOD_TIMING;
	cfg.arena_bytes = ARENA;
	cfg.profile = run->profile;
	cfg.rounds = run->rounds;
	snprintf(cfg.probes, sizeof(cfg.probes), "%s", PROBES);
	mp_result_init(&r, p->name);
	w0 = now();
	mp_suite_run(p, &cfg, &r);
	ev = mp_result_find_probe(&r, "evset");
	for (int32_t i = 0; i < r.nprobes; i++)
		if (&r.probes[i] != ev && r.probes[i].seconds > 0)
			before += r.probes[i].seconds;
	if (ev)
		printf("  %-18s %-7s %9.2f %9.2f %11.2f  %s\n", m->name,
		       profile_names[run->profile], ev->seconds, now() - w0, before, ev->message);
	mp_sim_close(p);
}

int main(void)
{
	static struct mp_sim_model m;
	char err[256];

	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	printf("eviction sets on the simulator, frames scattered and contiguous memory refused "
	       "(goal: evset under 20 simulated s on the largest model, quick profile; the full "
	       "profile, one round, counts every class)\n");
	printf("  %-18s %-7s %9s %9s %11s  %s\n", "model", "profile", "evset sim", "suite wall",
	       "before sim", "evset's message");
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		if (mp_sim_model_load(&m, runs[i].path, err, sizeof(err)) < 0) {
			printf("  %s\n", err);
			continue;
		}
		measure(&m, &runs[i]);
	}
	return 0;
}
