/* SPDX-License-Identifier: MIT */
/*
 * Votes (core/measure/vote.c): the winner and the runner-up with their
 * tallies, ties, the two-thirds rule for a stable value, when a winner is
 * certain, and the result's vote record made from a tally.
 */
#include "core/measure/vote.h"
#include "tests/check.h"

static struct mp_tally count(const int64_t *v, unsigned n)
{
	struct mp_tally t;

	mp_tally_count(v, n, &t);
	return t;
}

static void test_winner_and_runner_up(void)
{
	const int64_t v[] = { 8, 16, 8, 4, 16, 8 };
	struct mp_tally t = count(v, 6);

	CHECK(t.value == 8 && t.votes == 3 && t.of == 6, "8 wins 3 of 6 (got %lld %d/%d)",
	      (long long)t.value, (int)t.votes, (int)t.of);
	CHECK(t.runner_up == 16 && t.runner_up_votes == 2, "16 is second with 2 (got %lld %d)",
	      (long long)t.runner_up, (int)t.runner_up_votes);
	CHECK(!mp_tally_stable(&t), "3 of 6 is not stable");
}

static void test_unanimous(void)
{
	const int64_t v[] = { 64, 64, 64 };
	struct mp_tally t = count(v, 3);

	CHECK(t.value == 64 && t.votes == 3 && t.runner_up == MP_NA && t.runner_up_votes == 0,
	      "unanimous: no runner-up");
	CHECK(mp_tally_stable(&t), "3 of 3 is stable");
}

/* A tie goes to the value that reached the tally first, vote by vote. */
static void test_ties(void)
{
	const int64_t v[] = { 1, 2, 2, 1 };
	struct mp_tally t = count(v, 4);

	CHECK(t.value == 2 && t.runner_up == 1, "2 reached two votes first (got %lld, %lld)",
	      (long long)t.value, (long long)t.runner_up);
}

static void test_not_measured_is_a_vote(void)
{
	const int64_t v[] = { MP_NA, 32, MP_NA };
	struct mp_tally t = count(v, 3);

	CHECK(t.value == MP_NA && t.votes == 2 && t.runner_up == 32, "not measured wins 2 of 3");
}

static void test_stable_rule(void)
{
	static const struct { int32_t votes, of; bool stable; } cases[] = {
		{ 1, 1, false }, { 2, 2, true }, { 1, 2, false }, { 2, 3, true }, { 3, 5, false },
		{ 4, 5, true }, { 5, 8, false }, { 6, 8, true },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mp_tally t = { 7, cases[i].votes, cases[i].of, MP_NA, 0 };

		CHECK(mp_tally_stable(&t) == cases[i].stable, "%d of %d %s stable",
		      (int)cases[i].votes, (int)cases[i].of, cases[i].stable ? "is" : "is not");
	}
}

static void test_settled(void)
{
	struct mp_tally t = { 7, 3, 4, 9, 1 };

	CHECK(mp_tally_settled(&t, 1), "3 against 1 with 1 vote to come: certain");
	CHECK(!mp_tally_settled(&t, 2), "3 against 1 with 2 to come: a tie is possible");
	t = (struct mp_tally){ 7, 2, 2, MP_NA, 0 };
	CHECK(!mp_tally_settled(&t, 3), "2 of 2 with 3 to come: could still lose");
}

static void test_vote_record(void)
{
	const int64_t two[] = { 5, 5, 6 };
	struct mp_tally t = count(two, 3);
	struct mp_vote v;

	mp_vote_from(&v, &t);
	CHECK(v.value == 5 && v.votes == 2 && v.of == 3 && v.runner_up == 6 &&
	      v.runner_up_votes == 1 && v.stable == MP_YES, "the record carries the tally");
	t = mp_tally_single(12);
	mp_vote_from(&v, &t);
	CHECK(v.value == 12 && v.stable == MP_UNKNOWN, "one determination: stability unknown");
	t = count(two, 2);
	t.value = 5, t.votes = 1, t.of = 2, t.runner_up = 6, t.runner_up_votes = 1;
	mp_vote_from(&v, &t);
	CHECK(v.stable == MP_NO, "a split vote: unstable");
}

int main(void)
{
	test_winner_and_runner_up();
	test_unanimous();
	test_ties();
	test_not_measured_is_a_vote();
	test_stable_rule();
	test_settled();
	test_vote_record();
	return check_done();
}
