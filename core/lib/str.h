/* SPDX-License-Identifier: MIT */
/* String and memory helpers for freestanding core code (no libc). */
#ifndef MEMPROBE_CORE_LIB_STR_H
#define MEMPROBE_CORE_LIB_STR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

size_t mp_strlen(const char *s);
int mp_strcmp(const char *a, const char *b);
int mp_strncmp(const char *a, const char *b, size_t n);
/* Copy with truncation; dst is always terminated (n > 0). */
void mp_strlcpy(char *dst, const char *src, size_t n);
void mp_memset(void *dst, int c, size_t n);
void mp_memcpy(void *dst, const void *src, size_t n);

/*
 * Parse an unsigned decimal with an optional K, M or G suffix (powers of
 * 1024) from s[0..n); false on anything else or overflow.
 */
bool mp_parse_size(const char *s, size_t n, uint64_t *out);
/* Parse an unsigned decimal or 0x-prefixed hexadecimal number. */
bool mp_parse_u64(const char *s, size_t n, uint64_t *out);

#endif
