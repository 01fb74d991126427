/* SPDX-License-Identifier: MIT */
/* Unit tests for core/lib/fmath.c: the square root's ends (its loop must end on every input). */
#include "core/lib/fmath.h"
#include "tests/check.h"

static void test_sqrt(void)
{
	double inf = __builtin_inf();
	double r = mp_sqrt(0.0);

	CHECK(r == 0.0, "sqrt(0) is 0 (%g)", r);
	r = mp_sqrt(inf);
	CHECK(r == inf, "sqrt(inf) is inf (%g)", r);
	r = mp_sqrt(2.0);
	CHECK(r > 1.4142135 && r < 1.4142136, "sqrt(2) (%.9f)", r);
	r = mp_sqrt(1e-300);
	CHECK(r > 0.99e-150 && r < 1.01e-150, "sqrt(1e-300) (%g)", r);
	r = mp_sqrt(-1.0);
	CHECK(r != r, "sqrt(-1) is NaN");
}

int main(void)
{
	test_sqrt();
	return check_done();
}
