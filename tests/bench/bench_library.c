/* SPDX-License-Identifier: MIT */
/*
 * What the suite recovers of every model of the simulator's library (issue
 * 12's acceptance): each model with its frames contiguous (bare metal's
 * identity map) and scattered with contiguous memory refused (Linux without
 * huge pages), the quick profile's probes up to evset on a fresh simulator.
 * Per data or unified level below the L1, its size, line, ways and
 * inclusion against the model's: '=' the model's, '-' not measured, 'X'
 * another value, '.' the model says nothing; then the levels recorded that
 * the model lacks, and the simulated and wall seconds.
 */
#include <stdio.h>
#include <sys/prctl.h>

#include "tests/probes/probe_sim.h"

#define ARENA (1ull << 30)
#define PROBES "latency,l1,levels,compact,evset"
#define FRAMES_SEED 3u
#define CELL 64

enum { BARE, SCATTERED, NMODES };
static const char *const mode_names[NMODES] = { "contiguous", "scattered" };

/* A field's mark: the model's value (want), not measured (got), or another. */
static char mark(int64_t got, int64_t want, int64_t none)
{
	if (want == none)
		return '.';
	return got == none ? '-' : got == want ? '=' : 'X';
}

static const struct mp_cache *measured(const struct mp_result *r, const struct mp_cache *d)
{
	for (int32_t i = 0; i < r->ncaches; i++)
		if (r->caches[i].level == d->level && r->caches[i].type == d->type)
			return &r->caches[i];
	return NULL;
}

static bool data_side(const struct mp_cache *c)
{
	return c->type != MP_KIND_INSTRUCTION;
}

/* Does the model document a data or unified level `level`? */
static bool documented(const struct mp_result *r, int32_t level)
{
	for (int32_t i = 0; i < r->documented.ncaches; i++)
		if (data_side(&r->documented.caches[i]) && r->documented.caches[i].level == level)
			return true;
	return false;
}

/* "L2==== L3===-" for the documented levels below the L1; how many recorded levels it lacks. */
static int32_t marks(const struct mp_result *r, char *out, size_t len)
{
	int32_t extra = 0;
	size_t at = 0;

	out[0] = '\0';
	for (int32_t i = 0; i < r->documented.ncaches; i++) {
		static const struct mp_cache none = { .size_bytes = MP_NA, .line_bytes = MP_NA,
						      .ways = MP_NA, .inclusion = MP_INCL_UNKNOWN };
		const struct mp_cache *d = &r->documented.caches[i], *m = measured(r, d);

		if (!data_side(d) || d->level < 2)
			continue;
		m = m ? m : &none;
		at += (size_t)snprintf(out + at, len - at, "L%d%c%c%c%c ", (int)d->level,
				       mark(m->size_bytes, d->size_bytes, MP_NA),
				       mark(m->line_bytes, d->line_bytes, MP_NA),
				       mark(m->ways, d->ways, MP_NA),
				       mark(m->inclusion, d->inclusion, MP_INCL_UNKNOWN));
	}
	for (int32_t i = 0; i < r->ncaches; i++)
		extra += data_side(&r->caches[i]) && !documented(r, r->caches[i].level);
	return extra;
}

static double simulated(const struct mp_result *r)
{
	double s = 0;

	for (int32_t i = 0; i < r->nprobes; i++)
		s += r->probes[i].seconds > 0 ? r->probes[i].seconds : 0;
	return s;
}

/* The suite on a fresh simulator of m in one frames mode; its row. */
static void measure(struct mp_sim_model *m, int mode)
{
	static struct mp_result r;
	struct mp_platform *p;
	struct mp_config cfg;
	char cell[CELL];
	int32_t extra;
	double w0;

	m->frames.mode = mode == BARE ? MP_SIM_FRAMES_CONTIGUOUS : MP_SIM_FRAMES_SCATTERED;
	m->frames.refuse_contiguous = mode == SCATTERED;
	m->frames.seed = FRAMES_SEED;
	if (!ps_platform(m, m->name, &p, &r)) {
		printf("  %-18s %-10s could not open the simulator\n", m->name, mode_names[mode]);
		return;
	}
	mp_config_defaults(&cfg);
	cfg.method = MP_METHOD_TIMING;
	cfg.arena_bytes = ARENA;
	cfg.profile = MP_PROFILE_QUICK;
	snprintf(cfg.probes, sizeof(cfg.probes), "%s", PROBES);
	w0 = ps_wall();
	mp_suite_run(p, &cfg, &r);
	extra = marks(&r, cell, sizeof(cell));
	printf("  %-18s %-10s %-28s %5d %8.1f %8.1f\n", m->name, mode_names[mode], cell,
	       (int)extra, simulated(&r), ps_wall() - w0);
	fflush(stdout);
	mp_sim_close(p);
}

int main(void)
{
	static char paths[PS_MAX_MODELS][PS_PATH];
	static struct mp_sim_model m;
	int n = ps_models(paths);
	char err[256];

	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	printf("the library, quick profile (%s): per level below the L1 its size, line, ways "
	       "and inclusion ('=' the model's, '-' not measured, 'X' another value, '.' not in "
	       "the model), the levels recorded that the model lacks, simulated and wall s\n",
	       PROBES);
	printf("  %-18s %-10s %-28s %5s %8s %8s\n", "model", "frames", "levels", "extra", "sim s",
	       "wall s");
	for (int i = 0; i < n; i++)
		for (int mode = BARE; mode < NMODES; mode++) {
			if (mp_sim_model_load(&m, paths[i], err, sizeof(err)) < 0) {
				printf("  %s\n", err);
				break;
			}
			measure(&m, mode);
		}
	return 0;
}
