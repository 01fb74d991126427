/* SPDX-License-Identifier: MIT */
/*
 * Shared by the probe tests (test_probe_levels.c, test_probe_tlb.c,
 * test_probe_policy.c): every model file of sim/models, through the
 * sim platform, and the model's own parsed parameters to check against.
 * A "rough" copy of a model has noise (the example rate: one
 * disturbance of 5000 cycles per 2000 loads, evicting 16 lines per level
 * and 2 TLB entries) and scattered frames switched on (contiguous memory
 * still granted where a probe asks); PS_REFUSED also refuses that, as a
 * virtual machine whose host scatters the guest's huge pages does.
 */
#ifndef MEMPROBE_TESTS_PROBES_PROBE_SIM_H
#define MEMPROBE_TESTS_PROBES_PROBE_SIM_H

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/config.h"
#include "core/probes/probes.h"
#include "core/suite.h"
#include "platform/sim/platform.h"
#include "tests/check.h"
#include "tests/output.h"

#define PS_MODELS_DIR "sim/models"
#define PS_MAX_MODELS 64
#define PS_PATH 512
/* The rough copies' noise (the simulator issue's example model). */
#define PS_NOISE_RATE 0.0005
#define PS_NOISE_CYCLES 5000u
#define PS_NOISE_LINES 16u
#define PS_NOISE_ENTRIES 2u
#define PS_NOISE_SEED 11u
/*
 * ps_open's `rough`: the model as it is, its rough copy, that without
 * contiguous memory, or the model with a neighbour sharing its TLBs.
 */
enum { PS_EXACT = 0, PS_ROUGH, PS_REFUSED, PS_NEIGHBOUR };
/* Sets of those for ps_each_model: one variant, or every one up to v. */
#define PS_ONLY(v) (1u << (v))
#define PS_UPTO(v) (PS_ONLY((v) + 1) - 1)
/*
 * The neighbour copies' neighbour: it holds PS_NB_ENTRIES entries of every
 * TLB for PS_NB_CYCLES, then as long not, again and again.
 */
#define PS_NB_ENTRIES 2u
#define PS_NB_CYCLES (1ull << 26)
/* A sim run of one model's whole suite should stay under 30 s (issue 4): bench_counters. */
#define PS_MODEL_SECONDS 30.0

struct ps_run {
	struct mp_sim_model full;    /* the model the platform simulates */
	struct mp_sim_model model;   /* what CPU 0's core type has: what the probes measure */
	struct mp_platform *p;
	struct mp_config cfg;
	struct mp_result r;
	char name[PS_PATH];
	double wall;             /* seconds the probes took */
};

static inline int ps_cmp(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* The model files, sorted; returns how many. */
static inline int ps_models(char (*paths)[PS_PATH])
{
	DIR *d = opendir(PS_MODELS_DIR);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < PS_MAX_MODELS) {
		size_t len = strlen(e->d_name);

		if (len > 6 && strcmp(e->d_name + len - 6, ".model") == 0)
			snprintf(paths[n++], PS_PATH, "%s/%s", PS_MODELS_DIR, e->d_name);
	}
	closedir(d);
	qsort(paths, (size_t)n, PS_PATH, ps_cmp);
	return n;
}

typedef void (*ps_model_fn)(const char *path, int rough);

/*
 * Run fn on every model file whose path contains `filter` (NULL: all), as
 * each of ps_open's variants in the set; returns check_done().
 */
static inline int ps_each_model(const char *filter, ps_model_fn fn, unsigned variants)
{
	static char paths[PS_MAX_MODELS][PS_PATH];
	int n = ps_models(paths);

	CHECK(n > 0, "model files in %s: %d", PS_MODELS_DIR, n);
	for (int i = 0; i < n; i++)
		for (int v = PS_EXACT; v <= PS_NEIGHBOUR; v++)
			if (variants & PS_ONLY(v) && (!filter || strstr(paths[i], filter)))
				fn(paths[i], v);
	return check_done();
}

static inline double ps_wall(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Open the sim platform on a model and start its result with the model's documented values. */
static inline int ps_platform(const struct mp_sim_model *m, const char *name,
			      struct mp_platform **p, struct mp_result *r)
{
	*p = mp_sim_open(m, test_output());
	if (!*p) {
		CHECK(0, "%s: sim platform", name);
		return 0;
	}
	mp_result_init(r, (*p)->name);
	mp_sim_model_document(m, &r->documented);
	return 1;
}

static const char *const variant_names[] = {
	[PS_EXACT] = "", [PS_ROUGH] = " (rough)",
	[PS_REFUSED] = " (rough, a virtual machine's frames)", [PS_NEIGHBOUR] = " (neighbour)",
};

/* Make s->model (loaded) the variant `rough` and open the platform on it. */
static inline int ps_variant(struct ps_run *s, int rough)
{
	struct mp_sim_model *m = &s->full;

	if (rough == PS_NEIGHBOUR) {
		m->neighbour.entries = PS_NB_ENTRIES;
		m->neighbour.on = PS_NB_CYCLES;
		m->neighbour.off = PS_NB_CYCLES;
	} else if (rough) {
		m->noise.rate = PS_NOISE_RATE;
		m->noise.cycles = PS_NOISE_CYCLES;
		m->noise.lines = PS_NOISE_LINES;
		m->noise.tlb_entries = PS_NOISE_ENTRIES;
		m->noise.seed = PS_NOISE_SEED;
		m->frames.mode = MP_SIM_FRAMES_SCATTERED;
		/* Without contiguous memory: a virtual machine, whose host backs even
		 * the guest's large pages with base pages scattered apart. */
		m->frames.refuse_contiguous = rough == PS_REFUSED;
		m->frames.host = rough == PS_REFUSED ? mp_sim_model_base_page(m) : 0;
	}
	mp_sim_model_type(m, 0, &s->model);
	snprintf(s->name, sizeof(s->name), "%s%s", m->name, variant_names[rough]);
	mp_config_defaults(&s->cfg);
	return ps_platform(m, s->name, &s->p, &s->r);
}

/* Load a model (a rough copy if asked) and open the sim platform on it; s->model is CPU 0's type. */
static inline int ps_open(struct ps_run *s, const char *path, int rough)
{
	char err[256];

	memset(s, 0, sizeof(*s));
	if (mp_sim_model_load(&s->full, path, err, sizeof(err)) != 0) {
		CHECK(0, "%s loads: %s", path, err);
		return 0;
	}
	return ps_variant(s, rough);
}

/* The same from a model's text (a model built in a test). */
static inline int ps_open_text(struct ps_run *s, const char *name, const char *text, int rough)
{
	char err[256];

	memset(s, 0, sizeof(*s));
	if (mp_sim_model_parse(&s->full, name, text, strlen(text), err, sizeof(err)) != 0) {
		CHECK(0, "%s parses: %s", name, err);
		return 0;
	}
	return ps_variant(s, rough);
}

/* Run one probe, timed into s->wall; its record, whose status is the caller's to check. */
static inline struct mp_probe *ps_probe_run(struct ps_run *s, const char *name, mp_probe_fn fn)
{
	struct mp_probe *self = mp_result_add_probe(&s->r, name);
	struct mp_ctx c = { .p = s->p, .cfg = &s->cfg, .r = &s->r, .self = self };
	double t0 = ps_wall();

	self->status = MP_PROBE_OK;
	fn(&c);
	s->wall += ps_wall() - t0;
	return self;
}

/* Run one probe, which must end ok. */
static inline void ps_probe(struct ps_run *s, const char *name, mp_probe_fn fn)
{
	struct mp_probe *self = ps_probe_run(s, name, fn);

	CHECK(self->status == MP_PROBE_OK, "%s: probe %s ok (%s)", s->name, name, self->message);
}

static inline void ps_close(struct ps_run *s)
{
	mp_sim_close(s->p);
}

/* Nothing wrong recorded for the model's cache mc: got's size and ways each mc's, or not measured. */
static inline void ps_check_no_wrong(const struct ps_run *s, const char *what,
				     const struct mp_sim_cache_model *mc, const struct mp_cache *got)
{
	CHECK(!got || got->size_bytes == MP_NA || got->size_bytes == (int64_t)mc->size,
	      "%s: no wrong %s size recorded (%lld)", s->name, what,
	      got ? (long long)got->size_bytes : -1LL);
	CHECK(!got || got->ways == MP_NA || got->ways == (int64_t)mc->ways,
	      "%s: no wrong %s ways recorded (%lld)", s->name, what,
	      got ? (long long)got->ways : -1LL);
}

/* The model's data or unified cache of a level, or NULL. */
static inline const struct mp_sim_cache_model *ps_cache(const struct mp_sim_model *m,
							     int32_t level)
{
	for (int i = 0; i < m->ncaches; i++)
		if (m->caches[i].level == level && m->caches[i].type != MP_KIND_INSTRUCTION)
			return &m->caches[i];
	return NULL;
}

/*
 * Is a TLB level in reach: does a sweep to one and a half times its reach
 * fit the room the TLB probe gives that page size (half the arena for the
 * base page, core/probes/tlb/probe.c)?
 */
static inline int ps_tlb_in_reach(const struct ps_run *s, const struct mp_sim_tlb_model *t,
				  uint64_t base)
{
	uint64_t room = t->page == base ? s->cfg.arena_bytes / 2 : s->cfg.arena_bytes;

	return t->entries * t->page * 3 / 2 <= room;
}

static inline int ps_within(double got, double want, double tol)
{
	return !isnan(got) && fabs(got - want) <= tol * want;
}

#endif
