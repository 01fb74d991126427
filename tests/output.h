/* SPDX-License-Identifier: MIT */
/*
 * The output the tests give a platform (core/platform.h, struct
 * mp_output): log lines on stderr, which the test runner keeps in the
 * test's log; no progress; result files dropped.
 */
#ifndef MEMPROBE_TESTS_OUTPUT_H
#define MEMPROBE_TESTS_OUTPUT_H

#include <stdio.h>

#include "core/platform.h"

static inline void test_out_log(void *ctx, enum mp_log_level lvl, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "[test] %s%s\n", mp_log_prefix(lvl), msg);
}

static inline void test_out_progress(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	(void)ctx;
	(void)what;
	(void)done;
	(void)total;
}

static inline enum mp_status test_out_sink(void *ctx, const char *name, const char *data,
					   size_t len)
{
	(void)ctx;
	(void)name;
	(void)data;
	(void)len;
	return MP_OK;
}

static inline const struct mp_output *test_output(void)
{
	static const struct mp_output out = {
		.log = test_out_log, .progress = test_out_progress, .sink = test_out_sink,
	};

	return &out;
}

#endif
