/* SPDX-License-Identifier: MIT */
/*
 * The compact-set test (X-Ray 4.2): can a set of addresses live in one
 * cache level at once?  The set is timed as a chase in shuffled order and
 * compared with a baseline set known to be compact at that level; a set
 * spread over many small pages is timed again as its TLB twin, whose cost
 * beyond an L1 hit is taken off.  The L1 probes and the lower-level probe
 * decide this way.  docs/algorithms.md, "L1 data cache", the compact-set
 * test, gives the thresholds below.
 */
#ifndef MEMPROBE_CORE_MEASURE_COMPACT_SET_H
#define MEMPROBE_CORE_MEASURE_COMPACT_SET_H

#include "core/measure/link.h"
#include "core/probe.h"
#include "core/seq/refstring.h"

/* A set is compact when its time per access is within this fraction of the baseline's. */
#define MP_COMPACT_SET_MISS_REL 0.15
/*
 * Runs without a new minimum before a set's time is accepted; a "not
 * compact" verdict is measured again, MP_COMPACT_SET_ROUNDS rounds in all,
 * with MP_COMPACT_SET_CONFIRM_STABLE runs, and stands only if every round
 * finds it.
 */
#define MP_COMPACT_SET_STABLE 25u
#define MP_COMPACT_SET_CONFIRM_STABLE 100u
#define MP_COMPACT_SET_ROUNDS 3u
/*
 * Every round places the set at a fresh random offset in the memory, a
 * multiple of MP_COMPACT_SET_SHIFT_UNIT (a multiple of every line size).
 */
#define MP_COMPACT_SET_SHIFT_UNIT 512u
/*
 * A serial code chain's round (core/measure/link.h) times its baseline
 * again after the set; while the two differ (the core clock changed: a
 * miss costs a serial block only ~30% more than a hit) the round is timed
 * again, at most this many times.
 */
#define MP_COMPACT_SET_RETIMES 4u
/*
 * Steps a pass of a serial chain has at least (mp_chase_pass's least): a
 * serial block on hardware costs some 45 cycles, so 128 take as long as
 * MP_SHORT_WINDOW_STEPS loads that hit.
 */
#define MP_COMPACT_SET_SERIAL_STEPS 128u
/*
 * A serial chain's verdict is that of most of this many rounds: a set one
 * line too many for a set of the L1I timed like a fitting one in some 4% of
 * rounds, and a full set like an over-full one in some (own code in its
 * set?), on the Granite Rapids guest under load.
 */
#define MP_COMPACT_SET_SERIAL_ROUNDS 5u
/* Sets spread over at most this many pages are not twinned. */
#define MP_COMPACT_SET_TWIN_MIN_PAGES 4u
/* Elements the largest set may have (scratch for offsets: 2 x 128 KB). */
#define MP_COMPACT_SET_MAX_ELEMS 16384u

struct mp_compact_set {
	struct mp_ctx *c;
	struct mp_linker link;  /* loads (data), or fetches of code blocks */
	uint64_t elem;          /* the least distance between two elements (mp_link_elem) */
	uint8_t *mem;           /* page-aligned memory the sets are built in */
	uint64_t bytes;
	uint64_t page;          /* its page size */
	struct mp_rng rng;
	const char *region;     /* reference-string name for the simulator */
	struct mp_ref_stride known; /* the baseline: a set known to be compact here */
	double base_ticks;      /* its time per access, last measured; NaN: none yet */
	double base_min;        /* the least of those: the level's hit time */
	double l1_ticks;        /* per access, an L1 hit; NaN: no TLB twins */
	uint64_t twin_line;     /* L1 line bytes, for the twins */
	uint64_t twin_max;      /* elements a twin may have and still fit the L1 */
	unsigned stable;        /* runs without a new minimum, for mp_compact_set_time */
	uint64_t least;         /* steps a pass has at least */
	uint64_t shift;         /* where the sets start in mem, for mp_compact_set_time */
};

/* A tester of loads over memory m; no twins until set. */
void mp_compact_set_init(struct mp_compact_set *s, struct mp_ctx *c, const struct mp_mem *m,
		  const char *region, struct mp_ref_stride known);
/* Make it a tester of fetches: every set a chain of code blocks (m executable) the linker makes. */
void mp_compact_set_code(struct mp_compact_set *s, struct mp_linker code);

/* Time the baseline set again: base_ticks. */
enum mp_status mp_compact_set_baseline(struct mp_compact_set *s);

/* Minimum ticks per access of the set, TLB share taken off where twinned. */
enum mp_status mp_compact_set_time(struct mp_compact_set *s, const struct mp_ref_stride *shape, double *ticks);

/*
 * Move the sets to a random offset at which `span` bytes still fit (a
 * multiple of MP_COMPACT_SET_SHIFT_UNIT); shift 0 puts them back.
 */
void mp_compact_set_place(struct mp_compact_set *s, uint64_t span);

/*
 * A visiting order of the caller's own (at most MP_COMPACT_SET_MAX_ELEMS offsets
 * into the memory, from the shift): fill mp_compact_set_order(), then time n of it.
 */
uint64_t *mp_compact_set_order(struct mp_compact_set *s);
enum mp_status mp_compact_set_time_order(struct mp_compact_set *s, uint64_t n, double *ticks);

/*
 * Is the set compact at the baseline's level?  Each round times the
 * baseline, then the set, right after it (the clock of a shared host
 * drifts); "no" stands if every one of MP_COMPACT_SET_ROUNDS finds it, or
 * for a serial chain if most of MP_COMPACT_SET_SERIAL_ROUNDS do.  1 yes, 0
 * no, -1 when the platform failed a run, -2 when the set does not fit the
 * memory or the scratch.
 */
int mp_compact_set_compact(struct mp_compact_set *s, const struct mp_ref_stride *shape);

/*
 * How steadily a set fits (mp_compact_set_steadiness): a fresh baseline,
 * then `passes` passes of the baseline and as many of the set (at a fresh
 * offset), each timed alone against the compact-set threshold (the set's
 * plus what its TLB twin adds), the set's counted in MP_STEADY_SPANS spans
 * of passes in a row.  A set that fits on a core of its own is no slower
 * than the baseline; one that fits only while another thread on the core
 * leaves it enough ways is slow whenever that thread takes more, in
 * passes here and there where the thread's lines come and go, in every
 * pass of a span where it holds them all along.
 */
#define MP_STEADY_SPANS 10u

struct mp_steadiness {
	double noise;                 /* the baseline's share of slow passes: what slows every pass alike */
	double slow[MP_STEADY_SPANS]; /* the set's share of slow passes in each span */
	unsigned span_passes;         /* passes in a span */
};

/* Loads (passes of MP_SHORT_WINDOW_STEPS); MP_ENOMEM where the set does not fit the memory. */
enum mp_status mp_compact_set_steadiness(struct mp_compact_set *s, const struct mp_ref_stride *shape,
					 unsigned passes, struct mp_steadiness *out);
/* The set's share of slow passes over all its spans beyond the baseline's (0 at least). */
double mp_steadiness_excess(const struct mp_steadiness *m);

#endif
