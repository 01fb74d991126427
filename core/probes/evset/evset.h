/* SPDX-License-Identifier: MIT */
/*
 * Eviction sets (probe "evset"): the physical geometry of the cache levels
 * below the L1 where compact sets cannot work (memory whose physical
 * addresses are unknown, an index hashed over slices), after Vila, Köpf
 * and Morales, "Theory and Practice of Finding Eviction Sets" (IEEE S&P
 * 2019).  The candidates are lines at one page offset, one per page, so
 * that they share every index bit inside the page.
 *
 * core/probes/evset/test.c: the eviction test and the group-testing
 * reduction to a minimal set; core/probes/evset/classes.c: the line size
 * and the congruence classes; core/probes/evset/conflict.c: the classes a
 * count has no time for, by a conflict set; core/probes/evset/probe.c and
 * the files core/probes/evset/run.h names: the probe, level by level.
 * docs/algorithms.md, "Eviction sets", derives every figure.
 */
#ifndef MEMPROBE_CORE_PROBES_EVSET_EVSET_H
#define MEMPROBE_CORE_PROBES_EVSET_EVSET_H

#include "core/lib/rng.h"
#include "core/probe.h"

/* Candidates a pool may hold (offsets of 8 bytes each in a static table). */
#define MP_EVSET_MAX_POOL (1u << 16)
/* The line loaded before a victim is timed: this far before its page's end. */
#define MP_EVSET_WARM_BACK 64u
/* The most ways a minimal set is believed to have (and kept with). */
#define MP_EVSET_MAX_WAYS 64u
/* Congruence classes counted at most (their victims are kept). */
#define MP_EVSET_MAX_CLASSES 4096u

/*
 * The tester of one level: a victim is "evicted" by a set when, loaded,
 * then `passes` times the tail, the set and the tail again traversed (each
 * in a fresh random order), it loads slower than `slow` ticks in every one
 * of `trials` tries, or in `needed` of them where that is set (a vote: a
 * coarse clock's).  The tail
 * (none, or lines congruent with the victim at every level above but not
 * at this one) takes the victim out of the levels above whatever the set
 * does there, so that a minimal set counts this level's ways alone.
 */
struct mp_evset {
	struct mp_ctx *c;
	uint8_t *base;          /* the pool's memory */
	uint64_t bytes;
	uint64_t page;          /* the distance between candidates: the page */
	uint64_t slow;          /* a one-load run longer than this missed the level */
	unsigned passes;
	unsigned trials;
	unsigned needed;        /* tries that must read slow; 0: every one */
	const uint64_t *tail;   /* the tail's offsets (none, or disjoint from every set) */
	uint64_t ntail;
	const void *flushed;    /* flushed before the victims are timed (the line's test); NULL none */
	struct mp_rng rng;      /* the orders of the tries */
	struct mp_rng wait;     /* the waits before timed loads (test.c, dither) */
	uint64_t loads;         /* loads spent, for the message */
	uint64_t deadline;      /* mp_now() past which the work gives up; 0: none */
	bool late;              /* the deadline passed */
};

/* Ticks of a one-load run that hits the L1 (the seam's own cost of a run included). */
struct mp_evset_hit {
	double least;           /* the least of several runs */
	double mean;            /* their mean, but for the slowest eighth (a coarse clock's reads) */
};

/* The L1 hit's ticks (mp_evset_hit).  -1 when the platform failed a run. */
int mp_evset_hit(struct mp_evset *e, uint64_t off, struct mp_evset_hit *hit);

/* The times of the victim's load over some tries with a set (mp_evset_time). */
struct mp_evset_times {
	uint64_t least, most, median;
	double midmean;         /* the mean of the middle half of the reads */
	unsigned slow;          /* tries that read slower than the tester's threshold */
};

/* The tries mp_evset_time takes at most. */
#define MP_EVSET_MAX_TRIES 16u

/* The victim's load timed in `tries` tries (at most MP_EVSET_MAX_TRIES) with the set (as a test does). */
int mp_evset_time(struct mp_evset *e, uint64_t victim, const uint64_t *set, uint64_t n,
		  unsigned tries, struct mp_evset_times *t);

/*
 * A thread sharing the level may hold a way of the sets it uses for tens
 * to hundreds of milliseconds (an SMT sibling on a virtual machine's
 * host): a test that its way may have decided is tried again up to
 * MP_EVSET_HOLD_TRIES times, about MP_EVSET_HOLD_REST_US apart.
 */
#define MP_EVSET_HOLD_TRIES 5u
#define MP_EVSET_HOLD_REST_US 50000u

/* Has the deadline passed?  (Once it has, it stays passed.) */
bool mp_evset_late(struct mp_evset *e);

/* Does the set (offsets into base, n of them) evict the victim?  1, 0, -1: a run failed. */
int mp_evset_evicts(struct mp_evset *e, uint64_t victim, const uint64_t *set, uint64_t n);
/* Does the tester's tail alone evict the victim (it holds the ways of its class)?  1, 0, -1. */
int mp_evset_tail_evicts(struct mp_evset *e, uint64_t victim);
/*
 * The tester with its tail moved d bytes (into buf, room for e->ntail):
 * the same sets above for a victim moved as far.
 */
struct mp_evset mp_evset_tail_moved(const struct mp_evset *e, uint64_t d, uint64_t *buf);
/*
 * The tester with its tail and the tail moved d bytes both (into buf, room
 * for 2 x e->ntail): the sets above of a set left in place and of a victim
 * moved d bytes alike.
 */
struct mp_evset mp_evset_tail_also(const struct mp_evset *e, uint64_t d, uint64_t *buf);
/*
 * Does the set evict the victim in two tests running where the tester's
 * tail alone does not (a tail free of the victim's class above, not of
 * every other class's)?  1, 0, -1: a run failed.
 */
int mp_evset_evicts_own(struct mp_evset *e, uint64_t victim, const uint64_t *set, uint64_t n);

/*
 * Which of the victims v[0 .. k) the set would evict in one test, `batch`
 * of them to a try (at most MP_EVSET_MAX_WAYS): a victim fast in a try is
 * not evicted; slow[i] is victim i's answer.  Victims of one class beyond
 * its ways evict each other, and a class's victims compete with its set,
 * so that answer is for a test of its own to confirm either way: a victim
 * called slow may not be evicted, one called fast may be, now and then.
 * -1 when a run failed.
 */
int mp_evset_screen(struct mp_evset *e, const uint64_t *v, uint64_t k, const uint64_t *set,
		    uint64_t n, uint64_t batch, bool *slow);

/*
 * The same in two tests of their own: a burst of noise on the victim's
 * load reads as an eviction once; a wrong class or candidate needs it twice.
 */
int mp_evset_confirmed(struct mp_evset *e, uint64_t victim, const uint64_t *set, uint64_t n);

/*
 * How many lines of the set it still evicts the victim without, in two
 * tests running (mp_evset_confirmed), each line tested alone; -1 failed.
 */
int mp_evset_unneeded(struct mp_evset *e, uint64_t victim, const uint64_t *set, uint64_t n);

/*
 * In how many of `tests` tests does the set evict the victim, stopping
 * once `enough` have?  -1 failed.
 */
int mp_evset_evictions(struct mp_evset *e, uint64_t victim, const uint64_t *set, uint64_t n,
		       unsigned tests, unsigned enough);

/*
 * In how many of `tests` tests at most does the set short of one line
 * evict the victim, each line left out in turn?  It stops once one
 * reaches `enough`; -1 failed.
 */
int mp_evset_short_evictions(struct mp_evset *e, uint64_t victim, const uint64_t *set, uint64_t n,
			     unsigned tests, unsigned enough);

/*
 * Reduce a set that evicts the victim to a minimal one, in place; its
 * size in *n.  0 when done, 1 when the deadline passed first, 2 when the
 * set stopped evicting the victim and no group dropped could be put back
 * (or stayed larger than any cache's ways), -1 when a run failed.
 */
int mp_evset_reduce(struct mp_evset *e, uint64_t victim, uint64_t *set, uint64_t *n);

/*
 * The line: the least distance d (a power of two from 16 to 512) such that
 * the victim moved by d, taken out of the levels above by the tail moved
 * with it, stays in this level in all three tests where the victim's line
 * is flushed, while moved by half as far (not at all, for 16) it goes with
 * the flush in most of three; 0 when none does, or a distance reads out
 * of the level in one test of three.  -1 when a run failed.
 */
int mp_evset_line(struct mp_evset *e, uint64_t victim, uint64_t *line);

/*
 * The shortest prefix of pool[0 .. n) that evicts the victim in two tests,
 * doubling from a sixteenth, in *p.  1 found, 0 the pool does not evict
 * it, -1 a run failed.
 */
int mp_evset_prefix(struct mp_evset *e, uint64_t victim, const uint64_t *pool, uint64_t n,
		    uint64_t *p);

/*
 * A minimal set for the victim out of pool[0 .. n): the shortest prefix
 * of the pool that evicts it, reduced (when the reduction loses the
 * eviction, again from a prefix twice as long, up to three times in all); into set (room for n),
 * its size in *m.  1 found, 0 the pool does not evict the victim, 2 the
 * deadline passed, 3 every reduction lost the eviction, -1 a run failed.
 */
int mp_evset_find(struct mp_evset *e, uint64_t victim, const uint64_t *pool, uint64_t n,
		  uint64_t *set, uint64_t *m);

/* Is the line `off` one of the set's?  (A set's own line is no victim of it.) */
bool mp_evset_member(const uint64_t *set, uint64_t n, uint64_t off);

/* The congruence classes among a pool's candidates, and how they were counted. */
struct mp_evset_classes {
	uint64_t count;         /* classes found */
	uint64_t ways;          /* the level's ways (a set of as many lines more may merge two) */
	bool complete;          /* every candidate of the pool belongs to a class found */
	bool late;              /* stopped by its time bound, passed or foreseen */
	uint64_t same, other;   /* classes counted (not the seed's) whose set has `ways` lines, not */
	uint64_t larger;        /* set aside: larger than a class's, or over the ways taking none */
	uint64_t shorter;       /* set aside: short of the ways, taking no member */
	uint64_t members;       /* candidates the classes counted took from the pool */
	uint64_t depth, want;   /* a thin pool: candidates its first classes had, wanted (else 0) */
	uint64_t conflict;      /* classes of count found by a conflict set, not one by one */
	const char *why;        /* incomplete: why */
};

/*
 * A class known before the count: victim x's minimal set (m lines), found
 * with the tester's tail.  Its candidates (those the set evicts with that
 * tail and the tail alone does not) are removed first; then the lines of
 * the classes counted, as many as a tail takes, are the tail of every other
 * class's search: a level filled only by the victims of the one above
 * (exclusive, a victim cache) takes a set's lines only once something
 * pushes them out of that level, and the lines of a class counted are
 * congruent with no candidate left.
 */
struct mp_evset_seed {
	uint64_t x;
	const uint64_t *set;
	uint64_t m;
};

/*
 * Count the classes among pool[0 .. n) (the pool is reordered and used
 * up): take a victim, reduce the rest to a minimal set, remove every
 * candidate that set evicts, until none is left.  A set found without a
 * tail may hold more lines than the ways (those of the levels above too):
 * only which candidates it evicts counts, so long as it holds fewer than
 * `ways` lines more (else they may be another class's whole set).  A
 * victim whose class is not found (that, too few candidates left, or the
 * reductions lost) is set aside, sixteen at most, and must in the end be
 * evicted by a class counted; else the count stops.  A set that evicts
 * the victim of a class counted before is that class again, not counted
 * twice.  With a seed (NULL: none), its class is counted first and the
 * classes counted give the tail, tail_want lines (twice the most ways
 * above); without one, a count whose sets come out larger than the ways
 * takes that tail as soon as the classes counted make a whole one.  Where
 * the pool `grows`, one whose first classes took too few candidates each,
 * for all its classes to have more than the ways, stops the count
 * (out->depth): a class of no more than its ways is never found (a count
 * that goes on sets its victims aside and does not complete).  Where the
 * count, at its pace, would pass the tester's deadline, the classes left
 * are counted by a conflict set (mp_evset_conflict; out->conflict of
 * them) where that can be, else the count stops.  -1 when a run failed.
 */
int mp_evset_count(struct mp_evset *e, uint64_t *pool, uint64_t n, uint64_t ways,
		   uint64_t tail_want, const struct mp_evset_seed *seed, bool grows,
		   struct mp_evset_classes *out);
/*
 * The classes among the seed (ns lines: the minimal sets of classes
 * counted, `ways` lines each) and pool[0 .. n), by a conflict set: each
 * line kept unless the lines kept so far evict it, and the lines left out
 * that the set does not evict added, again over time until none is; then
 * the lines kept must be a whole number of classes, and no line kept may
 * stay evicted without itself over time, each class of the ways
 * (core/probes/evset/conflict.c); `left`: about how many classes the pool
 * holds (it sets the batches of the screens).  1 counted (*classes, seed's included),
 * 0 not (*why), 2 the deadline passed, -1 a run failed.
 */
int mp_evset_conflict(struct mp_evset *e, const uint64_t *seed, uint64_t ns,
		      const uint64_t *pool, uint64_t n, uint64_t ways, uint64_t left,
		      uint64_t *classes, const char **why);

/* Why a count stopped when its time bound passed (mp_evset_classes.why). */
extern const char mp_evset_count_late[];

#endif
