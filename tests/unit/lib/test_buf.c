/* SPDX-License-Identifier: MIT */
/* Unit tests for core/lib/buf.c: the buffer, exact doubles, sizes, the small printf and
 * quoted outside text. */
#include <stdint.h>

#include "core/lib/buf.h"
#include "tests/check.h"

static char mem[512];
static struct mp_buf b;

static const char *fresh(void)
{
	mp_buf_init(&b, mem, sizeof(mem));
	return mem;
}

static void test_overflow(void)
{
	char small[6];
	struct mp_buf s;

	mp_buf_init(&s, small, sizeof(small));
	CHECK_EQ_STR(small, "", "init terminates");
	mp_buf_puts(&s, "abc");
	CHECK(!s.overflow && s.len == 3, "three bytes fit: len %zu", s.len);
	mp_buf_puts(&s, "defgh");
	CHECK_EQ_STR(small, "abcde", "overflow keeps what fits");
	CHECK(s.overflow && s.len == 5, "overflow flagged: len %zu", s.len);
	mp_buf_reset(&s);
	CHECK(!s.overflow && s.len == 0 && small[0] == '\0', "reset clears");
	mp_buf_printf(&s, "%d", 1234567);
	CHECK_EQ_STR(small, "12345", "printf truncates a number");
	CHECK(s.overflow, "printf overflow flagged");

	mp_buf_init(&s, small, 0);
	mp_buf_putc(&s, 'x');
	CHECK(s.overflow && s.len == 0, "a zero-capacity buffer only overflows");
	CHECK_EQ_INT(mp_snprintf(small, sizeof(small), "%s", "0123456789"), 5, "snprintf length");
	CHECK_EQ_STR(small, "01234", "snprintf truncates");
}

static void test_integers(void)
{
	fresh();
	mp_buf_u64(&b, 0);
	CHECK_EQ_STR(mem, "0", "u64 zero");
	fresh();
	mp_buf_u64(&b, UINT64_MAX);
	CHECK_EQ_STR(mem, "18446744073709551615", "u64 max");
	fresh();
	mp_buf_i64(&b, INT64_MIN);
	CHECK_EQ_STR(mem, "-9223372036854775808", "i64 min");
	fresh();
	mp_buf_i64(&b, -42);
	CHECK_EQ_STR(mem, "-42", "i64 negative");
}

static void check_double(double v, unsigned dec, const char *want)
{
	fresh();
	mp_buf_double(&b, v, dec);
	CHECK(strcmp(mem, want) == 0, "double %.17g with %u decimals: got \"%s\" want \"%s\"", v,
	      dec, mem, want);
}

static void test_doubles(void)
{
	check_double(0.0005, 3, "0.001");      /* stored just above the half */
	check_double(1.0005, 3, "1.000");      /* stored just below the half */
	check_double(0.0015, 3, "0.002");
	check_double(2.5, 0, "3");             /* an exact half goes away from zero */
	check_double(-2.5, 0, "-3");
	check_double(0.125, 2, "0.13");
	check_double(-0.125, 2, "-0.13");
	check_double(9.9996, 3, "10.000");     /* the carry reaches the integer part */
	check_double(999.9999, 3, "1000.000");
	check_double(-1.5, 3, "-1.500");
	check_double(-0.0004, 3, "0.000");     /* no "-0.000" */
	check_double(-0.0, 2, "0.00");
	check_double(0.0, 0, "0");
	check_double(123456789.125, 3, "123456789.125");
	check_double(0.1, 20, "0.10000000000000000555");
	check_double(4294967296.0 * 4294967296.0, 1, "18446744073709551616.0");
	check_double(1e22, 0, "10000000000000000000000");
	check_double(5e-324, 3, "0.000");
	check_double(3.14159, 0, "3");
	check_double(__builtin_nan(""), 3, "nan");
	check_double(__builtin_inf(), 3, "inf");
	check_double(-__builtin_inf(), 3, "-inf");
}

static void check_size(uint64_t v, const char *want)
{
	fresh();
	mp_buf_size(&b, v);
	CHECK(strcmp(mem, want) == 0, "size %llu: got \"%s\" want \"%s\"", (unsigned long long)v,
	      mem, want);
}

static void test_sizes(void)
{
	check_size(32768, "32K");
	check_size(1 << 20, "1M");
	check_size(96 * 1024, "96K");
	check_size(1536 * 1024, "1536K");
	check_size(1ull << 30, "1G");
	check_size(3ull << 30, "3G");
	check_size(12345, "12345");
	check_size(1025, "1025");
	check_size(0, "0");
	check_size(64, "64");
}

#define CHECK_FMT(want, ...)                                                   \
	do {                                                                   \
		fresh();                                                       \
		mp_buf_printf(&b, __VA_ARGS__);                                \
		CHECK_EQ_STR(mem, want, #__VA_ARGS__);                         \
	} while (0)

static void test_printf(void)
{
	const char *volatile no_string = NULL; /* volatile: hidden from gcc's format checks */

	CHECK_FMT("a 42 -7 b", "a %d %i b", 42, -7);
	CHECK_FMT("4000000000 ff FF", "%u %x %X", 4000000000u, 255u, 255u);
	CHECK_FMT("-5 123456789012", "%ld %lu", -5L, 123456789012UL);
	CHECK_FMT("-9223372036854775808 18446744073709551615", "%lld %llu", (long long)INT64_MIN,
		  (unsigned long long)UINT64_MAX);
	CHECK_FMT("deadbeefcafe 7", "%llx %zu", 0xdeadbeefcafeULL, (size_t)7);
	CHECK_FMT("3.141593 3.14 3", "%f %.2f %.0f", 3.14159265, 3.14159265, 3.14159265);
	CHECK_FMT("[   42][42   ][00042][-0042]", "[%5d][%-5d][%05d][%05d]", 42, 42, 42, -42);
	CHECK_FMT("[  -2.000][-0003.14]", "[%8.3f][%08.2f]", -2.0, -3.14159);
	CHECK_FMT("[ab    ][    ab][z]", "[%-6s][%6s][%c]", "ab", "ab", 'z');
	CHECK_FMT("[0x03f8]", "[0x%04x]", 0x3f8u);
	CHECK_FMT("100%", "%d%%", 100);
	CHECK_FMT("[abc][ab   ][  nan]", "[%.*s][%-*s][%05f]", 3, "abcdef", 5, "ab",
		  __builtin_nan(""));
	CHECK_FMT("(null)", "%s", no_string);
	CHECK_FMT("toolong", "%2s", "toolong");
}

static void test_quoted(void)
{
	static const char odd[] = "a \"b\\\x1b\x00\x7f\xc3\xa9~";

	fresh();
	mp_buf_quoted(&b, odd, sizeof(odd) - 1, 64);
	CHECK_EQ_STR(mem, "\"a \\x22b\\x5c\\x1b\\x00\\x7f\\xc3\\xa9~\"",
		     "quoted: printable ASCII kept, every other byte \\xNN");
	fresh();
	mp_buf_quoted(&b, "abcdef", 6, 4);
	CHECK_EQ_STR(mem, "\"abcd\"...", "quoted: cut at max, then ...");
	fresh();
	mp_buf_quoted(&b, "abcd", 4, 4);
	CHECK_EQ_STR(mem, "\"abcd\"", "quoted: exactly max, no ...");
}

int main(void)
{
	test_overflow();
	test_integers();
	test_doubles();
	test_sizes();
	test_printf();
	test_quoted();
	return check_done();
}
