/* SPDX-License-Identifier: MIT */
/* String and memory helpers for freestanding core code (see core/lib/str.h). */
#include "core/lib/str.h"

size_t mp_strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int mp_strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

int mp_strncmp(const char *a, const char *b, size_t n)
{
	for (; n > 0; n--, a++, b++) {
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	}
	return 0;
}

void mp_strlcpy(char *dst, const char *src, size_t n)
{
	size_t i = 0;

	if (n == 0)
		return;
	for (; i + 1 < n && src[i]; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

/*
 * The volatile pointers keep the compiler from turning these loops into
 * calls to memset/memcpy, which the UEFI image does not have.  Where both
 * ends are 8-byte aligned they go a word at a time (a word type that may
 * alias anything): evset's tests copy sets of thousands of lines, and a
 * byte at a time took 4% of this project's AMD EPYC guest's quick suite.
 */
typedef uint64_t __attribute__((__may_alias__)) mp_word;

static bool words_aligned(const void *a, const void *b)
{
	return (((uintptr_t)a | (uintptr_t)b) & (sizeof(mp_word) - 1)) == 0;
}

void mp_memset(void *dst, int c, size_t n)
{
	volatile unsigned char *d = dst;
	mp_word w = (unsigned char)c * 0x0101010101010101ull;

	if (words_aligned(dst, dst))
		for (; n >= sizeof(w); n -= sizeof(w), d += sizeof(w))
			*(volatile mp_word *)d = w;
	while (n--)
		*d++ = (unsigned char)c;
}

void mp_memcpy(void *dst, const void *src, size_t n)
{
	volatile unsigned char *d = dst;
	const unsigned char *s = src;

	if (words_aligned(dst, src))
		for (; n >= sizeof(mp_word); n -= sizeof(mp_word), d += sizeof(mp_word),
					      s += sizeof(mp_word))
			*(volatile mp_word *)d = *(const mp_word *)s;
	while (n--)
		*d++ = *s++;
}

/* Accumulate one digit of base `base` into *v; false on overflow. */
static bool acc_digit(uint64_t *v, unsigned base, unsigned digit)
{
	if (*v > (UINT64_MAX - digit) / base)
		return false;
	*v = *v * base + digit;
	return true;
}

static int digit_value(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Parse all of s[0..n) as digits of `base`; at least one digit. */
static bool parse_base(const char *s, size_t n, unsigned base, uint64_t *out)
{
	uint64_t v = 0;

	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		int d = digit_value(s[i]);

		if (d < 0 || (unsigned)d >= base || !acc_digit(&v, base, (unsigned)d))
			return false;
	}
	*out = v;
	return true;
}

bool mp_parse_u64(const char *s, size_t n, uint64_t *out)
{
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_base(s + 2, n - 2, 16, out);
	return parse_base(s, n, 10, out);
}

/* log2 of the multiplier a size suffix stands for; -1 for none. */
static int suffix_shift(char ch)
{
	switch (ch) {
	case 'k': case 'K': return 10;
	case 'm': case 'M': return 20;
	case 'g': case 'G': return 30;
	default: return -1;
	}
}

bool mp_parse_size(const char *s, size_t n, uint64_t *out)
{
	int shift = n > 0 ? suffix_shift(s[n - 1]) : -1;
	uint64_t v;

	if (shift < 0)
		return parse_base(s, n, 10, out);
	if (!parse_base(s, n - 1, 10, &v) || v > (UINT64_MAX >> shift))
		return false;
	*out = v << shift;
	return true;
}
