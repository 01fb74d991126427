/* SPDX-License-Identifier: MIT */
/*
 * The unit-test harness: each CHECK prints one PASS or FAIL line, which
 * tests/run.sh counts.  A test program exits non-zero when anything failed.
 */
#ifndef MEMPROBE_TESTS_CHECK_H
#define MEMPROBE_TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failed;

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (cond) {                                                    \
			printf("PASS ");                                       \
		} else {                                                       \
			printf("FAIL %s:%d: ", __FILE__, __LINE__);            \
			check_failed++;                                        \
		}                                                              \
		printf(__VA_ARGS__);                                           \
		printf("\n");                                                  \
	} while (0)

#define CHECK_EQ_INT(got, want, name)                                          \
	CHECK((long long)(got) == (long long)(want), "%s: got %lld want %lld", \
	      name, (long long)(got), (long long)(want))

#define CHECK_EQ_STR(got, want, name)                                          \
	CHECK(strcmp((got), (want)) == 0, "%s: got \"%s\" want \"%s\"", name,   \
	      (got), (want))

static inline int check_done(void) { return check_failed ? 1 : 0; }

#endif
