/* SPDX-License-Identifier: MIT */
#include <stdint.h>

#include "core/lib/fmath.h"
#include "core/lib/str.h"

/* IEEE 754 binary64: 52 fraction bits, 11 exponent bits, bias 1023. */
#define FRACTION_BITS 52
#define EXPONENT_MASK 0x7ffull
#define EXPONENT_BIAS 1023
#define LN2 0.69314718055994530942

/*
 * x = m * 2^e with m in [1, 2); ln m = 2 atanh(s), s = (m - 1) / (m + 1)
 * <= 1/3, whose series s + s^3/3 + s^5/5 ... gains a factor 9 per term.
 */
double mp_log2(double x)
{
	uint64_t bits;
	double m, s, s2, term, sum = 0;
	int e;

	if (x != x || x - x != 0)
		return x != x ? x : 1e300;
	if (x <= 0)
		return -1e300;
	mp_memcpy(&bits, &x, sizeof(bits));
	e = (int)((bits >> FRACTION_BITS) & EXPONENT_MASK);
	if (e == 0)
		return mp_log2(x * 4503599627370496.0) - FRACTION_BITS; /* subnormal: times 2^52 */
	bits = (bits & ((1ull << FRACTION_BITS) - 1)) | ((uint64_t)EXPONENT_BIAS << FRACTION_BITS);
	mp_memcpy(&m, &bits, sizeof(m));
	s = (m - 1) / (m + 1);
	s2 = s * s;
	term = s;
	for (int k = 1; k < 40; k += 2) {
		sum += term / k;
		term *= s2;
	}
	return (e - EXPONENT_BIAS) + 2 * sum / LN2;
}

double mp_floor(double x)
{
	double t = (double)(int64_t)x;

	return t > x ? t - 1 : t;
}

double mp_ceil(double x)
{
	double t = (double)(int64_t)x;

	return t < x ? t + 1 : t;
}

double mp_exp2i(int n)
{
	uint64_t bits = (uint64_t)(n + EXPONENT_BIAS) << FRACTION_BITS;
	double v;

	mp_memcpy(&v, &bits, sizeof(v));
	return v;
}

double mp_sqrt(double x)
{
	double r = x > 1 ? x : 1, next;

	if (!(x >= 0))
		return __builtin_nan("");
	if (x == 0 || x > __DBL_MAX__)
		return x;  /* from 1, r would fall to 0 and then divide 0 by 0; inf / inf is NaN */
	/* From above r only falls, quadratically near the root; it stops when it cannot. */
	for (;;) {
		next = (r + x / r) / 2;
		if (next >= r)
			return r;
		r = next;
	}
}
