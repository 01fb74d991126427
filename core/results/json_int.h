/* SPDX-License-Identifier: MIT */
/*
 * Internal to the JSON writers (core/results/json*.c): a writer over a
 * buffer that keeps the indentation and the commas, and one function per
 * kind of member.  Every value that is not available is written as null.
 */
#ifndef MEMPROBE_CORE_RESULTS_JSON_INT_H
#define MEMPROBE_CORE_RESULTS_JSON_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/lib/buf.h"
#include "core/results/result.h"

#define JSON_DECIMALS 3

/* A writer over a buffer: `first` says no member was written yet at this depth. */
struct jw {
	struct mp_buf *b;
	unsigned depth;
	bool first;
};

static inline void indent(struct jw *w)
{
	mp_buf_putc(w->b, '\n');
	for (unsigned i = 0; i < w->depth; i++)
		mp_buf_puts(w->b, "  ");
}

/* Escape at most n bytes of s as a JSON string. */
static inline void put_string(struct mp_buf *b, const char *s, size_t n)
{
	mp_buf_putc(b, '"');
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			mp_buf_printf(b, "\\%c", c);
		else if (c < 0x20)
			mp_buf_printf(b, "\\u%04x", c);
		else
			mp_buf_putc(b, (char)c);
	}
	mp_buf_putc(b, '"');
}

/* Start a member: the separator, the indentation and, in an object, the key. */
static inline void member(struct jw *w, const char *key)
{
	if (!w->first)
		mp_buf_putc(w->b, ',');
	w->first = false;
	indent(w);
	if (key) {
		put_string(w->b, key, MP_TEXT_LEN);
		mp_buf_puts(w->b, ": ");
	}
}

static inline void j_open(struct jw *w, const char *key, char bracket)
{
	member(w, key);
	mp_buf_putc(w->b, bracket);
	w->depth++;
	w->first = true;
}

static inline void j_close(struct jw *w, char bracket)
{
	w->depth--;
	if (!w->first)
		indent(w);
	mp_buf_putc(w->b, bracket);
	w->first = false;
}

static inline void put_double(struct mp_buf *b, double v)
{
	if (!__builtin_isfinite(v)) /* NaN (not available) or infinite: JSON has neither */
		mp_buf_puts(b, "null");
	else
		mp_buf_double(b, v, JSON_DECIMALS);
}

static inline void j_double(struct jw *w, const char *key, double v)
{
	member(w, key);
	put_double(w->b, v);
}

/* Counts and sizes are never negative: a negative value is MP_NA. */
static inline void j_int(struct jw *w, const char *key, int64_t v)
{
	member(w, key);
	if (v < 0)
		mp_buf_puts(w->b, "null");
	else
		mp_buf_i64(w->b, v);
}

/* A string; `na_if_empty` writes an empty one as null. */
static inline void j_str(struct jw *w, const char *key, const char *s, size_t n, bool na_if_empty)
{
	member(w, key);
	if (!s || (na_if_empty && (n == 0 || s[0] == '\0')))
		mp_buf_puts(w->b, "null");
	else
		put_string(w->b, s, n);
}

/* An enum name from core/results/result.h; NULL (unknown) is null. */
static inline void j_name(struct jw *w, const char *key, const char *name)
{
	j_str(w, key, name, MP_TEXT_LEN, true);
}

static inline void j_tristate(struct jw *w, const char *key, enum mp_tristate t)
{
	member(w, key);
	mp_buf_puts(w->b, t == MP_YES ? "true" : t == MP_NO ? "false" : "null");
}


/* The members `sources` and `verdicts` (core/results/json_audit.c). */
/* A TLB record: with its miss penalty and method where measured, without in a source. */
void mp_json_tlb(struct jw *w, const struct mp_tlb *t, bool measured);
void mp_write_json_audit(struct jw *w, const struct mp_result *r);

#endif
