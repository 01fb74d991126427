/* SPDX-License-Identifier: MIT */
/*
 * The unit-test harness: each CHECK prints one PASS or FAIL line, which
 * tests/run.sh counts.  A test program exits non-zero when anything failed.
 * Each line is flushed whole: stdout to a file is block-buffered, and the
 * log lines a probe writes to stderr meanwhile landed inside a buffered
 * PASS line now and then (test_probe_counters counted 863 to 865).
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
		fflush(stdout);                                                \
	} while (0)

/* Each argument is evaluated once: `got` may be a call that runs a probe. */
#define CHECK_EQ_INT(got, want, name)                                          \
	do {                                                                   \
		long long got_ = (long long)(got), want_ = (long long)(want);  \
		CHECK(got_ == want_, "%s: got %lld want %lld", name, got_,     \
		      want_);                                                  \
	} while (0)

#define CHECK_EQ_STR(got, want, name)                                          \
	do {                                                                   \
		const char *got_ = (got), *want_ = (want);                     \
		CHECK(strcmp(got_, want_) == 0, "%s: got \"%s\" want \"%s\"",   \
		      name, got_, want_);                                      \
	} while (0)

static inline int check_done(void) { return check_failed ? 1 : 0; }

#endif
