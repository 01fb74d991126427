/* SPDX-License-Identifier: MIT */
/*
 * The two L1 data cache algorithms the "l1" probe runs and compares:
 * Cooper-Xu's gap test (core/probes/l1/gap.c) and X-Ray's compact sets
 * (core/probes/l1/xray.c).  Both decide hit or miss with the compact-set test of
 * core/measure/compact_set.h against an all-hit baseline.
 */
#ifndef MEMPROBE_CORE_PROBES_L1_L1_H
#define MEMPROBE_CORE_PROBES_L1_L1_H

#include "core/measure/compact_set.h"

/* What one algorithm found; MP_NA where it found nothing, with the reason. */
struct mp_l1_found {
	int64_t size;
	int64_t ways;
	int64_t line;
	const char *why;       /* NULL when every value was found */
	int64_t grown;         /* ways added over time (mp_l1_grow) */
};

/* 0: done (see out->why); -1: the platform failed a run. */
int mp_l1_gap(struct mp_compact_set *s, struct mp_l1_found *out);
int mp_l1_xray(struct mp_compact_set *s, struct mp_l1_found *out);
/* Each one's last step, the line, on the size and ways in out (found), again. */
int mp_l1_gap_line(struct mp_compact_set *s, struct mp_l1_found *out);
int mp_l1_xray_line(struct mp_compact_set *s, struct mp_l1_found *out);

/*
 * Both, after timing the tester's baseline (its L1 hit time), reporting
 * progress under `what`: 0, or -1 with what failed in *why (core/probes/
 * l1/both.c).  The tester works on loads or on code blocks alike.
 */
int mp_l1_measure(struct mp_ctx *c, struct mp_compact_set *s, const char *what,
		  struct mp_l1_found *x, struct mp_l1_found *g, const char **why);
/* X-Ray's <stride, n> (n words stride bytes apart): 1 spills now, 0 fits, -1 not timed. */
int mp_l1_spills(struct mp_compact_set *s, uint64_t stride, uint64_t n);
/*
 * Over time, where the platform rests (a neighbour on the core may hold
 * ways for a while: core/probes/l1/over_time.c).  mp_l1_grow: the ways
 * A, grown while A + 1 lines a way apart fit after a rest, until that set
 * has spilled in L1_TRIES tries in a row.  mp_l1_spills_over_time: 1
 * when <stride, n> spills now and in every try after a rest, 0 when it fits
 * once, -1 when a run failed.
 */
uint64_t mp_l1_grow(struct mp_compact_set *s, uint64_t way, uint64_t ways);
int mp_l1_spills_over_time(struct mp_compact_set *s, uint64_t stride, uint64_t n);
/*
 * Are the ways a sharp edge?  A lines a way apart run steadily over
 * L1_EDGE_PASSES passes timed one by one (at most one of their spans mixed
 * between fitting and held: over_time.c), and A + 1 spill right after: a
 * thread on the core whose lines in a set come and go makes the ways it
 * leaves fit unsteadily, and when it rests for a moment one line more
 * fits.  The first try in which a span of the A lines fits decides; one in
 * which none does (a thread holding ways just then) is made again after a
 * rest, L1_TRIES times at most.  Where the platform rests (time passes for
 * a neighbour), a sharp edge is confirmed so once more, after a rest: one
 * lucky try under a busy neighbour is not enough.  *slow: the share of the
 * A lines' passes slow beyond the baseline's in the deciding try.  Loads
 * and serial code chains alike.
 */
enum mp_l1_edge {
	MP_L1_EDGE_SHARP,
	MP_L1_EDGE_UNSTEADY, /* the A lines ran slow in passes here and there */
	MP_L1_EDGE_MORE,     /* A + 1 fitted too */
	MP_L1_EDGE_HELD,     /* the A lines fitted in no try */
	MP_L1_EDGE_UNTIMED,  /* the platform failed a run */
};
enum mp_l1_edge mp_l1_edge_over_time(struct mp_compact_set *s, uint64_t way, uint64_t ways,
				     double *slow);
/*
 * Where both found the size and ways, and not the same line: the line
 * step of the one that found none or the longer, again after rests, up to
 * L1_TRIES times while they differ.  With the ways the cache has, an
 * offset that fits bounds the line (the parts lie in two sets), a spill
 * below it may be a neighbour's; so the longer line cannot be the
 * cache's.  0, or -1 when a run failed.
 */
int mp_l1_lines_over_time(struct mp_compact_set *s, struct mp_l1_found *x, struct mp_l1_found *g);
/* A value both algorithms found, else MP_NA. */
int64_t mp_l1_agreed(int64_t x, int64_t g);
/* The level-1 cache of this type in the result, with what both found and the hit time. */
void mp_l1_record(struct mp_ctx *c, enum mp_kind type, const struct mp_l1_found *x,
		  const struct mp_l1_found *g, double hit);
/* The probe message for the two answers, naming `cache` when they disagree; true if they agree. */
bool mp_l1_message(char *text, size_t n, const char *cache, const struct mp_l1_found *x,
		   const struct mp_l1_found *g);

#endif
