/* SPDX-License-Identifier: MIT */
/*
 * The text buffer and core's only number formatting (see core/lib/buf.h).
 *
 * Doubles are printed exactly: the binary value is expanded into big
 * fixed-point integers, so 0.0005 (stored as 0.000500000000000000010...)
 * rounds to 0.001 and 1.0005 (stored as 1.000499999999999989...) to 1.000.
 */
#include "core/lib/bits.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"

void mp_buf_init(struct mp_buf *b, char *mem, size_t cap)
{
	b->data = mem;
	b->cap = cap;
	mp_buf_reset(b);
}

void mp_buf_reset(struct mp_buf *b)
{
	b->len = 0;
	b->overflow = false;
	if (b->cap > 0)
		b->data[0] = '\0';
}

void mp_buf_putc(struct mp_buf *b, char c)
{
	if (b->len + 1 >= b->cap) {
		b->overflow = true;
		return;
	}
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

static void put_n(struct mp_buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		mp_buf_putc(b, s[i]);
}

static void put_repeat(struct mp_buf *b, char c, size_t n)
{
	while (n--)
		mp_buf_putc(b, c);
}

void mp_buf_puts(struct mp_buf *b, const char *s)
{
	while (*s)
		mp_buf_putc(b, *s++);
}

/* Digits of v in `base`, most significant first. */
static void put_base(struct mp_buf *b, uint64_t v, unsigned base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[64];
	size_t n = 0;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	while (n)
		mp_buf_putc(b, tmp[--n]);
}

void mp_buf_u64(struct mp_buf *b, uint64_t v)
{
	put_base(b, v, 10, false);
}

void mp_buf_i64(struct mp_buf *b, int64_t v)
{
	if (v < 0)
		mp_buf_putc(b, '-');
	put_base(b, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, 10, false);
}

/* ---- exact fixed-point printing of doubles ---- */

/* 1152 bits hold a double's integer part (< 2^1024) or its fraction (1074 bits). */
#define BIG_LIMBS 36
#define BIG_BITS (BIG_LIMBS * 32)
#define MAX_DECIMALS 20
#define MAX_INT_DIGITS 310 /* DBL_MAX has 309 digits */
#define DBL_EXP_BIAS 1075  /* IEEE 754 binary64: 1023 + 52 mantissa bits */

struct big {
	uint32_t w[BIG_LIMBS]; /* least significant limb first */
};

/* x = m << shift, bits at or above BIG_BITS dropped. */
static void big_set(struct big *x, uint64_t m, int shift)
{
	mp_memset(x, 0, sizeof(*x));
	for (int i = 0; i < 64; i++) {
		int bit = shift + i;

		if (((m >> i) & 1) && bit < BIG_BITS)
			x->w[bit / 32] |= 1u << (bit % 32);
	}
}

static bool big_is_zero(const struct big *x)
{
	for (int i = 0; i < BIG_LIMBS; i++)
		if (x->w[i])
			return false;
	return true;
}

/* x /= 10 as an integer; returns the remainder. */
static unsigned big_div10(struct big *x)
{
	uint64_t rem = 0;

	for (int i = BIG_LIMBS - 1; i >= 0; i--) {
		uint64_t cur = rem << 32 | x->w[i];

		x->w[i] = (uint32_t)(cur / 10);
		rem = cur % 10;
	}
	return (unsigned)rem;
}

/* x *= 10 as a fraction of 2^BIG_BITS; returns the digit that moves out. */
static unsigned big_mul10(struct big *x)
{
	uint64_t carry = 0;

	for (int i = 0; i < BIG_LIMBS; i++) {
		uint64_t cur = (uint64_t)x->w[i] * 10 + carry;

		x->w[i] = (uint32_t)cur;
		carry = cur >> 32;
	}
	return (unsigned)carry;
}

/* Integer digits of m * 2^e into d (at least "0"); returns their count. */
static size_t int_digits(uint64_t m, int e, char *d)
{
	struct big x;
	size_t n = 0;

	if (e >= 0)
		big_set(&x, m, e);
	else
		big_set(&x, e > -64 ? m >> -e : 0, 0);
	do {
		d[n++] = (char)('0' + big_div10(&x));
	} while (!big_is_zero(&x));
	for (size_t i = 0; i < n / 2; i++) {
		char t = d[i];

		d[i] = d[n - 1 - i];
		d[n - 1 - i] = t;
	}
	return n;
}

/* `dec` fraction digits of m * 2^e into d; true when the rest is >= one half. */
static bool frac_digits(uint64_t m, int e, unsigned dec, char *d)
{
	struct big x;
	int fbits = -e;

	if (e >= 0)
		big_set(&x, 0, 0);
	else
		big_set(&x, fbits >= 64 ? m : m & ((1ull << fbits) - 1), BIG_BITS - fbits);
	for (unsigned i = 0; i < dec; i++)
		d[i] = (char)('0' + big_mul10(&x));
	return big_mul10(&x) >= 5;
}

/* Add one unit in the last place of the n digits d; returns the new count. */
static size_t round_up(char *d, size_t n)
{
	for (size_t i = n; i-- > 0;) {
		if (d[i] != '9') {
			d[i]++;
			return n;
		}
		d[i] = '0';
	}
	for (size_t i = n; i > 0; i--)
		d[i] = d[i - 1];
	d[0] = '1';
	return n + 1;
}

static bool all_zero(const char *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (d[i] != '0')
			return false;
	return true;
}

/* |m * 2^e| rounded half away from zero; a negative zero result prints unsigned. */
static void put_fixed(struct mp_buf *b, bool neg, uint64_t m, int e, unsigned dec)
{
	char d[MAX_INT_DIGITS + MAX_DECIMALS + 2];
	size_t n = int_digits(m, e, d);

	if (frac_digits(m, e, dec, d + n))
		n = round_up(d, n + dec);
	else
		n += dec;
	if (neg && !all_zero(d, n))
		mp_buf_putc(b, '-');
	put_n(b, d, n - dec);
	if (dec > 0) {
		mp_buf_putc(b, '.');
		put_n(b, d + n - dec, dec);
	}
}

void mp_buf_double(struct mp_buf *b, double v, unsigned decimals)
{
	union {
		double d;
		uint64_t u;
	} pun = { .d = v };
	bool neg = pun.u >> 63;
	int exp = (int)((pun.u >> 52) & 0x7ff);
	uint64_t m = pun.u & ((1ull << 52) - 1);

	if (decimals > MAX_DECIMALS)
		decimals = MAX_DECIMALS;
	if (exp == 0x7ff) {
		mp_buf_puts(b, m ? "nan" : neg ? "-inf" : "inf");
		return;
	}
	if (exp == 0) /* subnormal */
		put_fixed(b, neg, m, 1 - DBL_EXP_BIAS, decimals);
	else
		put_fixed(b, neg, m | 1ull << 52, exp - DBL_EXP_BIAS, decimals);
}

void mp_buf_quoted(struct mp_buf *b, const char *s, size_t n, size_t max)
{
	mp_buf_putc(b, '"');
	for (size_t i = 0; i < n && i < max; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= ' ' && c <= '~' && c != '"' && c != '\\')
			mp_buf_putc(b, (char)c);
		else
			mp_buf_printf(b, "\\x%02x", c);
	}
	mp_buf_putc(b, '"');
	if (n > max)
		mp_buf_puts(b, "...");
}

void mp_buf_size(struct mp_buf *b, uint64_t bytes)
{
	static const struct {
		unsigned shift;
		char suffix;
	} units[] = { { 30, 'G' }, { 20, 'M' }, { 10, 'K' } };

	for (size_t i = 0; bytes && i < MP_COUNT_OF(units); i++) {
		if ((bytes & ((1ull << units[i].shift) - 1)) == 0) {
			mp_buf_u64(b, bytes >> units[i].shift);
			mp_buf_putc(b, units[i].suffix);
			return;
		}
	}
	mp_buf_u64(b, bytes);
}

/* ---- printf ---- */

enum spec_len { LEN_INT, LEN_LONG, LEN_LLONG, LEN_SIZE };

struct spec {
	bool left;        /* '-' */
	bool zero;        /* '0' */
	size_t width;
	int prec;         /* -1: none */
	enum spec_len len;
	char conv;
};

/* A width or precision: digits, or '*' taking an int argument (negative: none). */
static int parse_num(const char **f, va_list *ap)
{
	int v = 0;

	if (**f == '*') {
		(*f)++;
		return va_arg(*ap, int);
	}
	while (**f >= '0' && **f <= '9')
		v = v * 10 + (*(*f)++ - '0');
	return v;
}

static enum spec_len parse_len(const char **f)
{
	if ((*f)[0] == 'z')
		return (*f)++, LEN_SIZE;
	if ((*f)[0] == 'l' && (*f)[1] == 'l')
		return *f += 2, LEN_LLONG;
	if ((*f)[0] == 'l')
		return (*f)++, LEN_LONG;
	return LEN_INT;
}

/* Parse the conversion after '%'; returns the position after it. */
static const char *parse_spec(const char *f, struct spec *s, va_list *ap)
{
	int width;

	mp_memset(s, 0, sizeof(*s));
	s->prec = -1;
	for (;; f++) {
		if (*f == '-')
			s->left = true;
		else if (*f == '0')
			s->zero = true;
		else
			break;
	}
	width = parse_num(&f, ap);
	if (width < 0) /* as in C: a negative '*' width means '-' */
		s->left = true;
	s->width = width < 0 ? 0 - (size_t)width : (size_t)width;
	if (*f == '.') {
		f++;
		s->prec = parse_num(&f, ap);
		if (s->prec < 0)
			s->prec = -1;
	}
	s->len = parse_len(&f);
	s->conv = *f;
	return *f ? f + 1 : f;
}

static uint64_t arg_unsigned(const struct spec *s, va_list *ap)
{
	switch (s->len) {
	case LEN_LONG: return va_arg(*ap, unsigned long);
	case LEN_LLONG: return va_arg(*ap, unsigned long long);
	case LEN_SIZE: return va_arg(*ap, size_t);
	default: return va_arg(*ap, unsigned int);
	}
}

static int64_t arg_signed(const struct spec *s, va_list *ap)
{
	switch (s->len) {
	case LEN_LONG: return va_arg(*ap, long);
	case LEN_LLONG: return va_arg(*ap, long long);
	case LEN_SIZE: return va_arg(*ap, ptrdiff_t);
	default: return va_arg(*ap, int);
	}
}

/* Format one non-string conversion into t. */
static void conv_value(struct mp_buf *t, const struct spec *s, va_list *ap)
{
	switch (s->conv) {
	case 'd':
	case 'i': mp_buf_i64(t, arg_signed(s, ap)); break;
	case 'u': mp_buf_u64(t, arg_unsigned(s, ap)); break;
	case 'x':
	case 'X': put_base(t, arg_unsigned(s, ap), 16, s->conv == 'X'); break;
	case 'f': mp_buf_double(t, va_arg(*ap, double), s->prec < 0 ? 6 : (unsigned)s->prec); break;
	case 'c': mp_buf_putc(t, (char)va_arg(*ap, int)); break;
	case '%': mp_buf_putc(t, '%'); break;
	default: /* unknown: show it, so the mistake is visible */
		mp_buf_putc(t, '%');
		if (s->conv)
			mp_buf_putc(t, s->conv);
	}
}

/* '0' pads numbers only: not strings, characters, "nan" or "inf". */
static bool zero_pads(const struct spec *s, const char *str)
{
	if (!s->zero || s->left || s->conv == 's' || s->conv == 'c' || s->conv == '%')
		return false;
	if (*str == '-')
		str++;
	return *str != '\0' && *str != 'n' && *str != 'i';
}

static void put_padded(struct mp_buf *b, const struct spec *s, const char *str, size_t len)
{
	size_t pad = s->width > len ? s->width - len : 0;
	bool zeros = zero_pads(s, str);

	if (zeros && *str == '-') {
		mp_buf_putc(b, '-');
		str++;
		len--;
	}
	if (!s->left)
		put_repeat(b, zeros ? '0' : ' ', pad);
	put_n(b, str, len);
	if (s->left)
		put_repeat(b, ' ', pad);
}

static void conv_string(struct mp_buf *b, const struct spec *s, const char *str)
{
	size_t len = 0;

	if (!str)
		str = "(null)";
	while (str[len] && (s->prec < 0 || len < (size_t)s->prec))
		len++;
	put_padded(b, s, str, len);
}

static const char *put_conversion(struct mp_buf *b, const char *f, va_list *ap)
{
	char mem[MAX_INT_DIGITS + MAX_DECIMALS + 8];
	struct mp_buf t;
	struct spec s;

	f = parse_spec(f, &s, ap);
	if (s.conv == 's') {
		conv_string(b, &s, va_arg(*ap, const char *));
		return f;
	}
	mp_buf_init(&t, mem, sizeof(mem));
	conv_value(&t, &s, ap);
	put_padded(b, &s, t.data, t.len);
	return f;
}

void mp_buf_vprintf(struct mp_buf *b, const char *fmt, va_list ap)
{
	va_list args;

	va_copy(args, ap);
	while (*fmt) {
		if (*fmt == '%')
			fmt = put_conversion(b, fmt + 1, &args);
		else
			mp_buf_putc(b, *fmt++);
	}
	va_end(args);
}

void mp_buf_printf(struct mp_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mp_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

size_t mp_vsnprintf(char *dst, size_t n, const char *fmt, va_list ap)
{
	struct mp_buf b;

	mp_buf_init(&b, dst, n);
	mp_buf_vprintf(&b, fmt, ap);
	return b.len;
}

size_t mp_snprintf(char *dst, size_t n, const char *fmt, ...)
{
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	len = mp_vsnprintf(dst, n, fmt, ap);
	va_end(ap);
	return len;
}
