/* SPDX-License-Identifier: MIT */
/*
 * The little floating-point arithmetic the plots need, without libm (core/
 * is freestanding): base-2 logarithm, floor and ceiling; the square root
 * a threshold between two latencies needs.
 */
#ifndef MEMPROBE_CORE_LIB_FMATH_H
#define MEMPROBE_CORE_LIB_FMATH_H

/*
 * log2(x) for finite x > 0, to about 1e-12; -1e300 (a number below every
 * other, so that comparisons stay ordered) for x <= 0, NaN for NaN.
 */
double mp_log2(double x);

/* Largest integer <= x and smallest >= x, for |x| < 2^62. */
double mp_floor(double x);
double mp_ceil(double x);

/* 2^n for integer n in -1022 .. 1023. */
double mp_exp2i(int n);

/* The square root of x >= 0, inf included (Newton's iteration from above); NaN for NaN or x < 0. */
double mp_sqrt(double x);

#endif
