/* SPDX-License-Identifier: MIT */
/*
 * A text buffer over caller-owned memory and the number formatting every
 * writer uses.  core/ has no printf: this is it.  A buffer that runs out of
 * room keeps what fits, stays terminated, and sets `overflow`.
 */
#ifndef MEMPROBE_CORE_LIB_BUF_H
#define MEMPROBE_CORE_LIB_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mp_buf {
	char *data;
	size_t len;
	size_t cap;       /* including the terminating NUL */
	bool overflow;
};

void mp_buf_init(struct mp_buf *b, char *mem, size_t cap);
void mp_buf_reset(struct mp_buf *b);
void mp_buf_putc(struct mp_buf *b, char c);
void mp_buf_puts(struct mp_buf *b, const char *s);
void mp_buf_u64(struct mp_buf *b, uint64_t v);
void mp_buf_i64(struct mp_buf *b, int64_t v);
/*
 * Fixed-point with `decimals` (at most 20) digits after the point, rounded
 * half away from zero from the exact binary value; never "-0.000"; NaN and
 * infinities print as "nan", "inf", "-inf".
 */
void mp_buf_double(struct mp_buf *b, double v, unsigned decimals);
/*
 * Text from outside (a configuration line) between double quotes, safe on
 * any console: printable ASCII as it is, '"' and '\\' and every other byte
 * as \xNN, at most `max` bytes of it and then "..." after the quote.
 */
void mp_buf_quoted(struct mp_buf *b, const char *s, size_t n, size_t max);
/* Human size: 32K, 1M, 96K, 1536K, 12345 (bytes). */
void mp_buf_size(struct mp_buf *b, uint64_t bytes);

/*
 * A small printf: %s %c %d %i %u %x %X (with l, ll, z: %ld %lu %lld %llu
 * %llx %zu), %f %.Nf %%, with width and precision (digits or '*') and
 * '-' / '0' flags.  %.Ns prints at most N bytes; %f is mp_buf_double.
 */
void mp_buf_printf(struct mp_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mp_buf_vprintf(struct mp_buf *b, const char *fmt, va_list ap);

/* snprintf and vsnprintf over mp_buf; return the length written. */
size_t mp_snprintf(char *dst, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
size_t mp_vsnprintf(char *dst, size_t n, const char *fmt, va_list ap);

#endif
