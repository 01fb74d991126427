/* SPDX-License-Identifier: MIT */
/*
 * Shared by the counter probe tests: every model file, the whole suite
 * through the sim platform with a chosen method, and what the model says
 * the counter probes should have found.
 */
#ifndef MEMPROBE_TESTS_PROBES_COUNTER_SIM_H
#define MEMPROBE_TESTS_PROBES_COUNTER_SIM_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/config.h"
#include "core/suite.h"
#include "sim/sim.h"
#include "tests/check.h"
#include "tests/probes/probe_sim.h"

/* The model list and the clock come from the probe tests' helpers. */
#define CS_PATH PS_PATH
/*
 * One model's counter suite should stay under this (issue 4 allows the
 * timing suite 30 s): a goal bench_counters shows, not a check (a loaded
 * machine ran Sapphire Rapids' in 61.5 s).
 */
#define CS_MODEL_SECONDS 60.0
/* The arena: this many times the largest reach (3.3's experiment spans twice
 * the capacity); the simulator's memory is virtual, so it costs nothing. */
#define CS_ARENA_FACTOR 4u
#define CS_ARENA_MIN (256ull << 20)

struct cs_run {
	struct mp_sim_model full;    /* the model the platform simulates */
	struct mp_sim_model model;   /* what CPU 0's core type has (cs_start) */
	struct mp_platform *p;
	struct mp_config cfg;
	struct mp_result r;
	char name[CS_PATH];
	double wall;
};

/* Enough memory for the largest cache or TLB reach of the model. */
static inline uint64_t cs_arena(const struct mp_sim_model *m)
{
	uint64_t reach = 0;

	for (int i = 0; i < m->ncaches; i++)
		reach = m->caches[i].size > reach ? m->caches[i].size : reach;
	for (int i = 0; i < m->ntlbs; i++)
		if (m->tlbs[i].entries * m->tlbs[i].page > reach)
			reach = m->tlbs[i].entries * m->tlbs[i].page;
	reach *= CS_ARENA_FACTOR;
	return reach > CS_ARENA_MIN ? reach : CS_ARENA_MIN;
}

/* Open the platform on a loaded model (s->full). */
static inline int cs_start(struct cs_run *s, enum mp_method method, const char *probes)
{
	mp_config_defaults(&s->cfg);
	s->cfg.method = method;
	snprintf(s->cfg.probes, sizeof(s->cfg.probes), "%s", probes ? probes : "");
	mp_sim_model_type(&s->full, 0, &s->model);
	s->cfg.arena_bytes = cs_arena(&s->model);
	return ps_platform(&s->full, s->name, &s->p, &s->r);
}

static inline int cs_open(struct cs_run *s, const char *path, enum mp_method method, const char *probes)
{
	char err[256];

	memset(s, 0, sizeof(*s));
	if (mp_sim_model_load(&s->full, path, err, sizeof(err)) != 0) {
		CHECK(0, "%s loads: %s", path, err);
		return 0;
	}
	snprintf(s->name, sizeof(s->name), "%s", s->full.name);
	return cs_start(s, method, probes);
}

/* The same from a model's text (a model built in a test). */
static inline int cs_open_text(struct cs_run *s, const char *name, const char *text,
			enum mp_method method, const char *probes)
{
	char err[256];

	memset(s, 0, sizeof(*s));
	if (mp_sim_model_parse(&s->full, name, text, strlen(text), err, sizeof(err)) != 0) {
		CHECK(0, "%s parses: %s", name, err);
		return 0;
	}
	snprintf(s->name, sizeof(s->name), "%s", s->full.name);
	return cs_start(s, method, probes);
}

static inline void cs_suite(struct cs_run *s)
{
	double t0 = ps_wall();

	mp_suite_run(s->p, &s->cfg, &s->r);
	s->wall = ps_wall() - t0;
}

static inline void cs_close(struct cs_run *s)
{
	mp_sim_close(s->p);
}

static inline enum mp_probe_status cs_probe_status(const struct cs_run *s, const char *name)
{
	const struct mp_probe *p = mp_result_find_probe(&s->r, name);

	return p ? p->status : MP_PROBE_FAILED;
}

/* A cache the counters see: data or unified, at a level with a miss event. */
static inline int cs_counted_cache(const struct mp_sim_model *m, const struct mp_sim_cache_model *c)
{
	(void)m;
	return c->type != MP_KIND_INSTRUCTION && c->level >= 1 && c->level <= 4;
}

/* A TLB the data path meets at a level with a miss event. */
static inline int cs_counted_tlb(const struct mp_sim_model *m, const struct mp_sim_tlb_model *t)
{
	(void)m;
	return t->type != MP_KIND_INSTRUCTION && t->level >= 1 && t->level <= 2;
}

/* A counted value of a probe: caches by level and type, TLBs by level and page. */
static inline const struct mp_vote *cs_find(const struct cs_run *s, const char *probe,
					const struct mp_structure *st, enum mp_param p)
{
	for (int32_t i = 0; i < s->r.ncounted; i++) {
		const struct mp_vote *c = &s->r.counted[i];

		if (strcmp(c->probe, probe) || c->param != p || c->s.tlb != st->tlb ||
		    c->s.level != st->level)
			continue;
		if (st->tlb ? c->s.page_bytes == st->page_bytes : c->s.type == st->type)
			return c;
	}
	return NULL;
}

static inline void cs_check(const struct cs_run *s, const char *probe, const struct mp_structure *st,
		     enum mp_param p, int64_t want)
{
	const struct mp_vote *c = cs_find(s, probe, st, p);
	char label[MP_TEXT_LEN];

	mp_param_label(label, sizeof(label), st, p);
	CHECK(c && c->value == want, "%s: %s %s: got %lld (%d/%d votes), model %lld", s->name,
	      probe, label, c ? (long long)c->value : -1LL, c ? (int)c->votes : 0,
	      c ? (int)c->of : 0, (long long)want);
}

#endif
