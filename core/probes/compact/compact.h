/* SPDX-License-Identifier: MIT */
/*
 * The physical parameters of the cache levels below the L1 (probe
 * "compact"): X-Ray's compact sets with stride decomposition (4.5) in
 * physically contiguous memory.  core/probes/compact/geom.c finds a level's ways,
 * way size (sets x line) and line; core/probes/compact/inclusion.c its inclusion towards
 * the levels above; core/probes/compact/probe.c runs them level by level.
 */
#ifndef MEMPROBE_CORE_PROBES_COMPACT_COMPACT_H
#define MEMPROBE_CORE_PROBES_COMPACT_COMPACT_H

#include "core/measure/compact_set.h"

/* One level's physical geometry; 0 where not known. */
struct mp_geom {
	uint64_t ways;
	uint64_t way;          /* bytes of one way: sets x line (X-Ray's C / A) */
	uint64_t line;
	enum mp_inclusion incl;
};

/*
 * Lines every set of every level above must receive, as a multiple of the
 * sum of their ways: LRU, tree-PLRU and FIFO miss on every line of a set
 * cycled through more lines than it has ways; random replacement still
 * hits on 20% of them at twice the ways and on 2% at four times (our
 * simulation of a cyclic sequence), so four times makes "misses every
 * level above" true for every policy.  Where the upper ways are many
 * (Power3's 128-way L1), one line more than they hold is taken instead, so
 * that the sets stay small enough for a TLB twin (core/probes/compact/probe.c).
 */
#define MP_COMPACT_OVERFILL 4u

/* The level under test, and what lies above it. */
struct mp_lower {
	struct mp_compact_set cs;     /* baseline: <D, U>, every upper set overfilled */
	int32_t level;
	uint64_t d;            /* X-Ray's S_old: the largest way size above */
	uint64_t u;            /* lines per upper set: MP_COMPACT_OVERFILL x sum of upper ways */
	uint64_t above_ways;   /* the sum of the upper ways */
	uint64_t union_ways;   /* ways above that hold lines this level lacks if exclusive */
	int32_t nunion;        /* their levels, nearest first: */
	struct { uint64_t ways, way; } uni[MP_MAX_CACHES];
	uint64_t mid_ways_max; /* the most ways of any level between the L1 and this one */
	uint64_t top_line;     /* the L1 line */
	uint64_t top_ways;     /* the L1 ways */
	uint64_t limit;        /* the largest stride the memory's contiguity allows */
	uint64_t hint;         /* effective capacity from the "levels" probe, 0: none */
};

/*
 * The X-Ray ladder with stride decomposition: ways and way size, then the
 * line by figure 10.  What was not found stays 0 and `why` says why.
 * Returns -1 when the platform failed a run.
 */
int mp_compact_geom(struct mp_lower *lv, struct mp_geom *g, const char **why);

/* The `why` of a ladder that found nothing at all (no level there, or none
 * larger than the ones above). */
extern const char mp_compact_no_level[];
extern const char mp_compact_too_small[];

/*
 * The stride-decomposed set <S, n, D, r> (shift b from element `from`) with
 * just enough groups r that every upper set gets lv->u lines; false when
 * no r fits (the groups must lie within one stride).
 */
bool mp_compact_shape(const struct mp_lower *lv, uint64_t stride, uint64_t n, uint64_t from,
		    uint64_t b, struct mp_ref_stride *out);

/*
 * Inclusion towards the levels above: exclusive when one set of the level
 * and the upper sets together hold its ways plus the upper ways (X-Ray
 * 5.2.2), else inclusive when evicting a line here removes it from the L1
 * (back-invalidation), else non-inclusive.  `incl_above` tells whether a
 * level between the L1 and this one is inclusive (that level's own
 * evictions would hide the test's); the answer is then unknown and `why`
 * says so.  Returns -1 when the platform failed a run.
 */
int mp_compact_inclusion(struct mp_lower *lv, struct mp_geom *g, bool incl_above,
		       const char **why);

/* The `why` of inclusion tests that need more memory than they were given,
 * and of an exclusive level whose sets act as one with those above when
 * its own size and ways cannot be told apart from theirs. */
extern const char mp_compact_no_room[];
extern const char mp_compact_combined[];

#endif
