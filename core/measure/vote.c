/* SPDX-License-Identifier: MIT */
#include "core/measure/vote.h"
#include "core/results/result.h"

/*
 * The most common vote other than `skip`: a tie goes to the value that
 * reached the tally first (its count over the votes so far, vote by vote).
 */
static void most_common(const int64_t *v, unsigned n, bool skipping, int64_t skip,
			int64_t *value, int32_t *votes)
{
	*value = MP_NA;
	*votes = 0;
	for (unsigned i = 0; i < n; i++) {
		int32_t same = 0;

		if (skipping && v[i] == skip)
			continue;
		for (unsigned j = 0; j <= i; j++)
			same += v[j] == v[i];
		if (same > *votes) {
			*votes = same;
			*value = v[i];
		}
	}
}

void mp_tally_count(const int64_t *v, unsigned n, struct mp_tally *t)
{
	t->of = (int32_t)n;
	most_common(v, n, false, 0, &t->value, &t->votes);
	most_common(v, n, true, t->value, &t->runner_up, &t->runner_up_votes);
}

bool mp_tally_stable(const struct mp_tally *t)
{
	return t->of >= 2 && 3 * t->votes >= 2 * t->of;
}

bool mp_tally_settled(const struct mp_tally *t, unsigned left)
{
	return t->votes - t->runner_up_votes > (int32_t)left;
}

void mp_vote_from(struct mp_vote *v, const struct mp_tally *t)
{
	v->value = t->value;
	v->votes = t->votes;
	v->of = t->of;
	v->runner_up = t->runner_up;
	v->runner_up_votes = t->runner_up_votes;
	v->stable = t->of < 2 ? MP_UNKNOWN : mp_tally_stable(t) ? MP_YES : MP_NO;
}
