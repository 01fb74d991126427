/* SPDX-License-Identifier: MIT */
/*
 * The write-allocation verdict (core/probes/policy/probe.c) from the time
 * of the reads after the stores: near the level's hit time it allocated,
 * near the next level's it did not, and a time between the two, the lines
 * found partly in each (this guest's shared L3: 228 ticks between 108 and
 * 415), tells neither.
 */
#include "core/lib/fmath.h"
#include "core/probes/policy/policy.h"
#include "tests/check.h"

int main(void)
{
	const double hit = 108.0, next = 415.0, mid = mp_sqrt(hit * next);

	CHECK(mp_policy_allocation(hit, hit, next) == MP_YES, "reads at the hit time: allocated");
	CHECK(mp_policy_allocation(hit * 1.2, hit, next) == MP_YES, "a little above it: allocated");
	CHECK(mp_policy_allocation(next, hit, next) == MP_NO, "reads at the next level's: not");
	CHECK(mp_policy_allocation(next * 1.1, hit, next) == MP_NO, "above the next level's: not");
	CHECK(mp_policy_allocation(mid, hit, next) == MP_UNKNOWN,
	      "halfway in ratio (%.0f ticks): not told", mid);
	CHECK(mp_policy_allocation(228.0, hit, next) == MP_UNKNOWN,
	      "228 ticks between 108 and 415: not told");
	return check_done();
}
