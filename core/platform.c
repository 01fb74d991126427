/* SPDX-License-Identifier: MIT */
#include "core/lib/buf.h"
#include "core/platform.h"

/* Room for a message that carries two result texts (a probe's status message and more). */
#define LOG_LINE 512

static const char *const log_prefix[] = {
	[MP_LOG_INFO] = "",
	[MP_LOG_WARN] = "warning: ",
	[MP_LOG_ERROR] = "error: ",
};

const char *mp_log_prefix(enum mp_log_level lvl)
{
	return lvl <= MP_LOG_ERROR ? log_prefix[lvl] : "";
}

static const char *const arith_names[] = {
	[MP_ARITH_INT_ADD] = "int-add", [MP_ARITH_INT_MUL] = "int-mul",
	[MP_ARITH_INT_DIV] = "int-div", [MP_ARITH_FP_ADD] = "fp-add",
	[MP_ARITH_FP_MUL] = "fp-mul",   [MP_ARITH_FP_DIV] = "fp-div",
	[MP_ARITH_FP_FMA] = "fp-fma",
};

const char *mp_arith_name(enum mp_arith op)
{
	return op < MP_ARITH_COUNT ? arith_names[op] : NULL;
}

void mp_logf(struct mp_platform *p, enum mp_log_level lvl, const char *fmt, ...)
{
	char line[LOG_LINE];
	va_list ap;

	va_start(ap, fmt);
	mp_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	mp_log(p, lvl, line);
}
