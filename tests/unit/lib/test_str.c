/* SPDX-License-Identifier: MIT */
/* Unit tests for core/lib/str.c: the freestanding string helpers and number parsers. */
#include <stdint.h>

#include "core/lib/str.h"
#include "tests/check.h"

static void test_compare(void)
{
	CHECK_EQ_INT(mp_strlen(""), 0, "strlen empty");
	CHECK_EQ_INT(mp_strlen("memprobe"), 8, "strlen word");
	CHECK(mp_strcmp("abc", "abc") == 0, "strcmp equal");
	CHECK(mp_strcmp("abc", "abd") < 0, "strcmp less");
	CHECK(mp_strcmp("abd", "abc") > 0, "strcmp greater");
	CHECK(mp_strcmp("ab", "abc") < 0, "strcmp prefix is less");
	CHECK(mp_strcmp("\xff", "a") > 0, "strcmp compares unsigned bytes");
	CHECK(mp_strncmp("abcX", "abcY", 3) == 0, "strncmp stops at n");
	CHECK(mp_strncmp("abcX", "abcY", 4) < 0, "strncmp sees byte n-1");
	CHECK(mp_strncmp("ab", "ab", 10) == 0, "strncmp stops at the terminator");
	CHECK(mp_strncmp("a", "b", 0) == 0, "strncmp of nothing");
}

static void test_copy(void)
{
	char dst[8];
	unsigned char mem[6] = { 1, 2, 3, 4, 5, 6 };
	const unsigned char want_set[6] = { 1, 0xab, 0xab, 0xab, 5, 6 };
	const unsigned char want_cpy[6] = { 1, 0xab, 7, 8, 5, 6 };

	mp_strlcpy(dst, "hello", sizeof(dst));
	CHECK_EQ_STR(dst, "hello", "strlcpy fits");
	mp_strlcpy(dst, "truncated!", sizeof(dst));
	CHECK_EQ_STR(dst, "truncat", "strlcpy truncates and terminates");
	mp_strlcpy(dst, "x", 1);
	CHECK_EQ_STR(dst, "", "strlcpy into one byte");
	dst[0] = 'z';
	mp_strlcpy(dst, "x", 0);
	CHECK(dst[0] == 'z', "strlcpy with n 0 writes nothing");
	mp_memset(mem + 1, 0xab, 3);
	CHECK(memcmp(mem, want_set, 6) == 0, "memset touches exactly n bytes");
	mp_memcpy(mem + 2, "\x07\x08", 2);
	CHECK(memcmp(mem, want_cpy, 6) == 0, "memcpy copies exactly n bytes");
}

/*
 * Long copies and fills go a word at a time where both ends are aligned:
 * every offset of each end and every length up to a few words give the
 * bytes of libc's memcpy and memset, and nothing outside them moves.
 */
static void test_words(void)
{
	static uint64_t src_w[8], dst_w[8], want_w[8];
	unsigned char *src = (unsigned char *)src_w, *dst = (unsigned char *)dst_w;
	unsigned char *want = (unsigned char *)want_w;
	unsigned bad = 0;

	for (unsigned i = 0; i < sizeof(src_w); i++)
		src[i] = (unsigned char)(i * 7 + 1);
	for (unsigned d = 0; d < 8; d++)
		for (unsigned so = 0; so < 8; so++)
			for (unsigned n = 0; n <= 40; n++) {
				memset(dst, 0xee, sizeof(dst_w));
				memset(want, 0xee, sizeof(want_w));
				mp_memcpy(dst + d, src + so, n);
				memcpy(want + d, src + so, n);
				bad += memcmp(dst, want, sizeof(dst_w)) != 0;
				mp_memset(dst + d, 0x3c, n);
				memset(want + d, 0x3c, n);
				bad += memcmp(dst, want, sizeof(dst_w)) != 0;
			}
	CHECK(bad == 0, "memcpy and memset at every alignment and length up to 5 words: %u wrong",
	      bad);
}

static void check_u64(const char *s, bool ok, uint64_t want)
{
	uint64_t v = 12345;
	bool got = mp_parse_u64(s, strlen(s), &v);

	CHECK(got == ok && (!ok || v == want), "parse_u64(\"%s\"): ok %d value %llu", s, got,
	      (unsigned long long)v);
}

static void check_size(const char *s, bool ok, uint64_t want)
{
	uint64_t v = 12345;
	bool got = mp_parse_size(s, strlen(s), &v);

	CHECK(got == ok && (!ok || v == want), "parse_size(\"%s\"): ok %d value %llu", s, got,
	      (unsigned long long)v);
}

static void test_parse(void)
{
	check_u64("0", true, 0);
	check_u64("42", true, 42);
	check_u64("0x3f8", true, 0x3f8);
	check_u64("0X3F8", true, 0x3f8);
	check_u64("18446744073709551615", true, UINT64_MAX);
	check_u64("18446744073709551616", false, 0);
	check_u64("0xffffffffffffffff", true, UINT64_MAX);
	check_u64("0x10000000000000000", false, 0);
	check_u64("", false, 0);
	check_u64("0x", false, 0);
	check_u64("12a", false, 0);
	check_u64("-1", false, 0);
	check_u64(" 1", false, 0);
	check_u64("ff", false, 0);
	check_size("4096", true, 4096);
	check_size("32K", true, 32768);
	check_size("256M", true, 256ull << 20);
	check_size("2g", true, 2ull << 30);
	check_size("17179869183G", true, 17179869183ull << 30);
	check_size("17179869184G", false, 0);
	check_size("K", false, 0);
	check_size("", false, 0);
	check_size("1T", false, 0);
	check_size("1.5M", false, 0);
	check_size("1KB", false, 0);
	/* The length bounds the parse: "64K" cut to two bytes is 64. */
	uint64_t v = 0;
	CHECK(mp_parse_size("64K", 2, &v) && v == 64, "parse_size honours n: %llu",
	      (unsigned long long)v);
}

int main(void)
{
	test_compare();
	test_copy();
	test_words();
	test_parse();
	return check_done();
}
