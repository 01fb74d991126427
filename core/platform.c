/* SPDX-License-Identifier: MIT */
#include "core/buf.h"
#include "core/platform.h"
#include "core/result.h"

/* Room for a message that carries a result text (a probe's status message). */
#define LOG_LINE (2 * MP_TEXT_LEN)

void mp_logf(struct mp_platform *p, enum mp_log_level lvl, const char *fmt, ...)
{
	char line[LOG_LINE];
	va_list ap;

	va_start(ap, fmt);
	mp_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	mp_log(p, lvl, line);
}
