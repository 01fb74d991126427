/* SPDX-License-Identifier: MIT */
/*
 * Building firmware tables byte by byte for the decoder tests: a buffer,
 * little-endian fields at an offset, strings, and the ACPI checksum.
 */
#ifndef MEMPROBE_TESTS_UNIT_FIRMWARE_FWBUILD_H
#define MEMPROBE_TESTS_UNIT_FIRMWARE_FWBUILD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct tb {
	uint8_t b[8192];
	size_t n;
};

/* Write `bytes` little-endian bytes of v at offset `at`. */
static inline void tb_put(struct tb *t, size_t at, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		t->b[at + i] = (uint8_t)(v >> (8 * i));
	if (at + bytes > t->n)
		t->n = at + bytes;
}

/* Append `len` zero bytes; returns where they start. */
static inline size_t tb_grow(struct tb *t, size_t len)
{
	size_t at = t->n;

	memset(t->b + at, 0, len);
	t->n += len;
	return at;
}

static inline void tb_bytes(struct tb *t, size_t at, const void *p, size_t len)
{
	memcpy(t->b + at, p, len);
	if (at + len > t->n)
		t->n = at + len;
}

/* Set byte `at` so that bytes [from, from + len) add up to 0 modulo 256. */
static inline void tb_checksum(struct tb *t, size_t from, size_t len, size_t at)
{
	uint8_t sum = 0;

	t->b[at] = 0;
	for (size_t i = from; i < from + len; i++)
		sum = (uint8_t)(sum + t->b[i]);
	t->b[at] = (uint8_t)(0x100 - sum);
}

#endif
