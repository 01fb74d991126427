/* SPDX-License-Identifier: MIT */
/*
 * Votes: a discrete value decided by repeated independent determinations
 * (AMP section 2.2; docs/algorithms.md, "Votes").  The counter probes vote
 * on every value; the suite repeats every timing probe in rounds and votes
 * on what the rounds found (core/rounds.c).
 */
#ifndef MEMPROBE_CORE_MEASURE_VOTE_H
#define MEMPROBE_CORE_MEASURE_VOTE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/results/result.h"

struct mp_tally {
	int64_t value;           /* the most common vote; MP_NA if none was cast */
	int32_t votes;           /* its tally */
	int32_t of;              /* votes cast */
	int64_t runner_up;       /* the second most common vote; MP_NA if every vote agreed */
	int32_t runner_up_votes;
};

/* No vote cast; one determination taken as it is (votes 1 of 1). */
static inline struct mp_tally mp_tally_none(void) { return (struct mp_tally){ MP_NA, 0, 0, MP_NA, 0 }; }
static inline struct mp_tally mp_tally_single(int64_t v) { return (struct mp_tally){ v, 1, 1, MP_NA, 0 }; }

/*
 * Count n votes.  A tie goes to the value that reached its tally first,
 * for the winner and the runner-up alike.
 */
void mp_tally_count(const int64_t *v, unsigned n, struct mp_tally *t);

/*
 * A winner is stable when at least two votes were cast and it has at
 * least two thirds of them: a value that wins only by a split vote is
 * unstable (reported, not judged against the documentation).
 */
bool mp_tally_stable(const struct mp_tally *t);

/* Is the winner certain whatever the `left` votes still to come say? */
bool mp_tally_settled(const struct mp_tally *t, unsigned left);

/* A voted value of the result (counted[] or voted[]) from its tally; stable unknown below two votes. */
void mp_vote_from(struct mp_vote *v, const struct mp_tally *t);

#endif
