/* SPDX-License-Identifier: MIT */
/*
 * A fake multi-processor platform for the multi-core probes' tests, until
 * the simulator models several cores: the sim platform of one model runs
 * every probe, and the multi-processor operations of the seam are added
 * around it.  cpu_info describes a machine of `packages` x `cores` x
 * `threads` (Linux's numbering: a core's SMT siblings are `packages *
 * cores` apart), optionally hybrid (cores from `e_first` on are type "E"
 * with one thread, the others "P").  Which CPUs share a cache level is the
 * fake's ground truth (`per`: cores per instance of level L within a
 * package, 0 for every core of the machine): run_beside runs the other
 * CPU's load interleaved with the chase on the one simulated hierarchy when
 * they share the level the load fits, and the chase alone when they do
 * not.  pingpong takes FK_LAT_* ticks a transfer by how close the two are.
 */
#ifndef MEMPROBE_TESTS_PROBES_CORES_FAKE_H
#define MEMPROBE_TESTS_PROBES_CORES_FAKE_H

#include <string.h>

#include "core/platform.h"
#include "core/results/result.h"

#define FK_MAX_LEVELS 4
/* Transfer ticks: SMT siblings, the same cluster, the same package, another package. */
#define FK_LAT_CORE 20u
#define FK_LAT_CLUSTER 40u
#define FK_LAT_PACKAGE 90u
#define FK_LAT_REMOTE 250u
/* Steps of the chase between two slices of the other CPU's load, which has twice as many. */
#define FK_SLICE 64u

struct fk_machine {
	uint32_t packages, cores, threads;
	uint32_t cluster;                /* cores per cluster (cpu_info.cluster) */
	uint32_t e_first;                /* hybrid: first E core; 0: not hybrid */
	uint32_t per[FK_MAX_LEVELS + 1]; /* level L: cores per instance; 0: the whole machine */
	uint32_t e_per[FK_MAX_LEVELS + 1]; /* the same for E cores (hybrid); 0: as per[] */
	const uint64_t *level_bytes;     /* the model's data levels' sizes, index level */
	uint32_t nlevels;
	uint32_t described;              /* CPUs cpu_info describes (from 0); 0: every one */
};

static struct {
	struct fk_machine m;
	struct mp_platform_ops ops;
	const struct mp_platform_ops *sim;
	uint32_t selected;
	uint64_t besides, pingpongs, interleaved;
} fk;

static inline uint32_t fk_count(struct mp_platform *p)
{
	(void)p;
	if (fk.m.e_first)
		return fk.m.packages * (fk.m.e_first * fk.m.threads + fk.m.cores - fk.m.e_first);
	return fk.m.packages * fk.m.cores * fk.m.threads;
}

static inline enum mp_status fk_info(struct mp_platform *p, uint32_t cpu, struct mp_cpu_info *o)
{
	uint32_t per_pkg = fk_count(p) / fk.m.packages, pkg, core, thread, in;

	if (cpu >= fk_count(p) || (fk.m.described && cpu >= fk.m.described))
		return MP_EIO;
	if (fk.m.e_first) {            /* hybrid: each package's P threads, then its E cores */
		pkg = cpu / per_pkg;
		in = cpu % per_pkg;
		core = in < fk.m.e_first * fk.m.threads ? in / fk.m.threads
							: fk.m.e_first + in - fk.m.e_first * fk.m.threads;
		thread = in < fk.m.e_first * fk.m.threads ? in % fk.m.threads : 0;
	} else {                       /* Linux: siblings packages * cores apart */
		uint32_t all = fk.m.packages * fk.m.cores;

		thread = cpu / all;
		pkg = cpu % all / fk.m.cores;
		core = cpu % fk.m.cores;
	}
	memset(o, 0, sizeof(*o));
	*o = (struct mp_cpu_info){ .apic_id = cpu, .package = pkg, .die = 0,
				   .cluster = core / fk.m.cluster, .core = core, .thread = thread };
	if (fk.m.e_first)
		strcpy(o->type, core >= fk.m.e_first ? "E" : "P");
	return MP_OK;
}

static inline enum mp_status fk_select(struct mp_platform *p, uint32_t cpu)
{
	if (cpu >= fk_count(p))
		return MP_EIO;
	fk.selected = cpu;
	return MP_OK;
}

/* Do CPUs a and b share one instance of cache level L (the ground truth)? */
static inline bool fk_shares(struct mp_platform *p, uint32_t a, uint32_t b, uint32_t level)
{
	struct mp_cpu_info ia = { 0 }, ib = { 0 };
	uint32_t per;

	fk_info(p, a, &ia);
	fk_info(p, b, &ib);
	per = fk.m.e_first && ia.core >= fk.m.e_first && fk.m.e_per[level] ? fk.m.e_per[level]
									    : fk.m.per[level];
	if (per == 0)
		return true;
	if (ia.package != ib.package)
		return false;
	if (fk.m.e_first && (ia.core >= fk.m.e_first) != (ib.core >= fk.m.e_first))
		return per >= fk.m.cores;   /* P and E share only a level of the whole package */
	if (fk.m.e_first && ia.core >= fk.m.e_first)
		return (ia.core - fk.m.e_first) / per == (ib.core - fk.m.e_first) / per;
	return ia.core / per == ib.core / per;
}

/* The level a load's footprint fits: the first one at least as large. */
static inline uint32_t fk_level_of(const struct mp_run *load)
{
	uint64_t bytes = load->count * load->stride;

	for (uint32_t l = 1; l <= fk.m.nlevels; l++)
		if (fk.m.level_bytes[l] >= bytes)
			return l;
	return fk.m.nlevels + 1;
}

static inline enum mp_status fk_beside(struct mp_platform *p, const struct mp_run *r,
				       struct mp_sample *out, uint32_t other,
				       const struct mp_run *load)
{
	uint32_t level = fk_level_of(load);
	uint64_t done = 0, at = 0;
	struct mp_run a = *r;
	enum mp_status st = MP_OK;

	fk.besides++;
	if (other == fk.selected || other >= fk_count(p))
		return MP_UNSUPPORTED;
	if (level > fk.m.nlevels || !fk_shares(p, fk.selected, other, level))
		return fk.sim->run(p, r, out);
	fk.interleaved++;
	memset(out, 0, sizeof(*out));
	out->end = r->start;
	while (st == MP_OK && done < r->steps) {
		struct mp_sample s = { 0 }, ls = { 0 };
		struct mp_run b = *load;

		a.start = out->end;
		a.steps = r->steps - done < FK_SLICE ? r->steps - done : FK_SLICE;
		st = fk.sim->run(p, &a, &s);
		out->ticks += s.ticks;
		out->end = s.end;
		done += a.steps;
		b.start = (uint8_t *)load->start + at * load->stride;
		b.count = load->count - at < 2 * FK_SLICE ? load->count - at : 2 * FK_SLICE;
		b.steps = b.count;
		at = (at + b.count) % load->count;
		if (st == MP_OK)
			st = fk.sim->run(p, &b, &ls);
	}
	return st;
}

static inline uint32_t fk_transfer(struct mp_platform *p, uint32_t a, uint32_t b)
{
	struct mp_cpu_info ia = { 0 }, ib = { 0 };

	fk_info(p, a, &ia);
	fk_info(p, b, &ib);
	if (ia.package != ib.package)
		return FK_LAT_REMOTE;
	if (ia.core == ib.core)
		return FK_LAT_CORE;
	return ia.cluster == ib.cluster ? FK_LAT_CLUSTER : FK_LAT_PACKAGE;
}

static inline enum mp_status fk_pingpong(struct mp_platform *p, uint32_t a, uint32_t b,
					 void *line, uint64_t rounds, struct mp_sample *out)
{
	fk.pingpongs++;
	if (a == b || a >= fk_count(p) || b >= fk_count(p) || !line)
		return MP_EIO;
	memset(out, 0, sizeof(*out));
	out->ticks = rounds * 2 * fk_transfer(p, a, b);
	return MP_OK;
}

/* Give the sim platform p the fake's multi-processor operations on machine m. */
static inline void fk_attach(struct mp_platform *p, const struct fk_machine *m)
{
	memset(&fk, 0, sizeof(fk));
	fk.m = *m;
	fk.sim = p->ops;
	fk.ops = *p->ops;
	fk.ops.cpu_count = fk_count;
	fk.ops.cpu_info = fk_info;
	fk.ops.cpu_select = fk_select;
	fk.ops.run_beside = fk_beside;
	fk.ops.pingpong = fk_pingpong;
	p->ops = &fk.ops;
}

#endif
