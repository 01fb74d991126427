/* SPDX-License-Identifier: MIT */
/*
 * Little-endian fields of firmware tables (SMBIOS and ACPI are both
 * little-endian: DSP0134 section 6.1.1, ACPI section 5.2 "ACPI System
 * Description Tables"), read byte by byte so that no alignment is assumed.
 */
#ifndef MEMPROBE_CORE_FIRMWARE_BYTES_H
#define MEMPROBE_CORE_FIRMWARE_BYTES_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t mp_le(const uint8_t *p, size_t off, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = bytes; i-- > 0;)
		v = v << 8 | p[off + i];
	return v;
}

static inline uint8_t mp_le8(const uint8_t *p, size_t off) { return p[off]; }
static inline uint16_t mp_le16(const uint8_t *p, size_t off) { return (uint16_t)mp_le(p, off, 2); }
static inline uint32_t mp_le32(const uint8_t *p, size_t off) { return (uint32_t)mp_le(p, off, 4); }
static inline uint64_t mp_le64(const uint8_t *p, size_t off) { return mp_le(p, off, 8); }

/* The bytes of p[0..n) add up to 0 modulo 256: the checksum rule of both. */
static inline int mp_sum8_ok(const uint8_t *p, size_t n)
{
	uint8_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum = (uint8_t)(sum + p[i]);
	return sum == 0;
}

#endif
