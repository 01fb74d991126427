/* SPDX-License-Identifier: MIT */
/* Unit tests for core/results/report.c (the human report) and core/results/csv.c (the curves). */
#include <stdint.h>

#include "core/lib/str.h"
#include "core/results/writers.h"
#include "tests/check.h"

static struct mp_result r;
static char out[1 << 16];

static const char *render(void (*write)(struct mp_buf *, const struct mp_result *))
{
	struct mp_buf b;

	mp_buf_init(&b, out, sizeof(out));
	write(&b, &r);
	CHECK(!b.overflow, "output fits its buffer (%zu bytes)", b.len);
	return out;
}

/* Is `line` one whole line of text? */
static void check_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line)) != NULL) {
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			break;
		p++;
	}
	CHECK(p != NULL, "line \"%s\"", line);
}

static struct mp_cache *cache(struct mp_cache *c, int level, enum mp_kind type, int64_t size,
			      int64_t ways)
{
	c->level = level;
	c->type = type;
	c->size_bytes = size;
	c->line_bytes = 64;
	c->ways = ways;
	return c;
}

static struct mp_tlb *tlb(struct mp_tlb *t, int level, int64_t entries, int64_t page)
{
	t->level = level;
	t->type = MP_KIND_DATA;
	t->entries = entries;
	t->page_bytes = page;
	t->ways = 4;
	return t;
}

static void fill(void)
{
	struct mp_documented *d = &r.documented;
	struct mp_cache *c;
	struct mp_probe *p;

	mp_result_init(&r, "sim");
	mp_strlcpy(r.machine.vendor, "GenuineIntel", sizeof(r.machine.vendor));
	r.machine.family = 6;
	c = cache(mp_result_add_cache(&r), 1, MP_KIND_DATA, 48 << 10, 12);
	c->latency_cycles = 5.04;
	c->latency_ns = 1.2345;
	c->write_allocate = MP_YES;
	c->replacement = MP_REPL_PLRU;
	c->method = MP_METHOD_BOTH;
	c = cache(mp_result_add_cache(&r), 2, MP_KIND_UNIFIED, 1280 << 10, MP_NA);
	c->effective_size_bytes = 1 << 20;
	c->inclusion = MP_INCL_NONINCLUSIVE;
	tlb(mp_result_add_tlb(&r), 1, 64, 4096)->miss_penalty_cycles = 8;
	r.memory.latency_cycles = 312.25;
	r.cpu.tsc_hz = 2.4e9;
	r.cpu.cores = 8;
	mp_strlcpy(d->source, "cpuid leaf 4", sizeof(d->source));
	d->ncaches = 2;
	cache(&d->caches[0], 1, MP_KIND_DATA, 48 << 10, 8)->shared_by = 2;
	cache(&d->caches[1], 3, MP_KIND_UNIFIED, 30 << 20, 12);
	d->ntlbs = 2;
	tlb(&d->tlbs[0], 1, 64, 4096);
	tlb(&d->tlbs[1], 1, 32, 2 << 20);
	p = mp_result_add_probe(&r, "latency");
	p->seconds = 12.3456;
	mp_strlcpy(p->message, "L1 at 48K", sizeof(p->message));
	p = mp_result_add_probe(&r, "tlb");
	p->status = MP_PROBE_UNSUPPORTED;
	mp_result_add_note(&r, "L1 data ways: 12 measured, 8 documented");
}

static void test_header(const char *t)
{
	CHECK(strncmp(t, "memprobe " MP_VERSION " report\n\n", 17) == 0, "title line");
	check_line(t, "  platform          sim");
	check_line(t, "  vendor            GenuineIntel");
	check_line(t, "  brand             -");
	check_line(t, "  family            6");
	check_line(t, "  stepping          -");
}

static void test_measured(const char *t)
{
	check_line(t, "  level  type     size   effective  line  ways  latency(cyc)  latency(ns)  "
		      "write-alloc  replacement  inclusion      method");
	check_line(t, "  -----  -------  -----  ---------  ----  ----  ------------  -----------  "
		      "-----------  -----------  -------------  ------");
	check_line(t, "  L1     data     48K    -          64    12    5.0           1.23         "
		      "yes          plru         -              both");
	check_line(t, "  L2     unified  1280K  1M         64    -     -             -            "
		      "-            -            non-inclusive  -");
	check_line(t, "  level  type  entries  page  ways  miss(cyc)  method");
	check_line(t, "  L1     data  64       4K    4     8.0        -");
	check_line(t, "  latency (cycles)  312.3");
	check_line(t, "  latency (ns)      -");
	check_line(t, "  TSC frequency     2400.000 MHz");
	check_line(t, "  core frequency    -");
	check_line(t, "  cores             8");
}

static void test_documented(const char *t)
{
	check_line(t, "Caches documented by the vendor (source: cpuid leaf 4)");
	check_line(t, "  L1     data     48K   64    8     2");
	check_line(t, "  L3     unified  30M   64    12    -");
	check_line(t, "  structure       field    measured  documented  verdict");
	check_line(t, "  L1 data         size     48K       48K         agrees");
	check_line(t, "  L1 data         ways     12        8           DISAGREES");
	check_line(t, "  L3 unified      size     -         30M         not measured");
	check_line(t, "  L1 data TLB 4K  entries  64        64          agrees");
	check_line(t, "  L1 data TLB 2M  entries  -         32          not measured");
	check_line(t, "  1 value(s) disagree with the documentation");
}

static void test_probes_notes(const char *t)
{
	check_line(t, "  probe    status       seconds  message");
	check_line(t, "  latency  ok           12.346   L1 at 48K");
	check_line(t, "  tlb      unsupported  -        -");
	check_line(t, "  - L1 data ways: 12 measured, 8 documented");
}

/* A message as long as a probe's record holds is printed whole. */
static void test_long_message(void)
{
	struct mp_probe *p;
	const char *msg;

	fill();
	p = mp_result_add_probe(&r, "evset");
	memset(p->message, 'm', MP_MESSAGE_LEN - 1);    /* two levels' reasons, as evset's */
	p->message[MP_MESSAGE_LEN - 1] = '\0';
	msg = p->message;
	CHECK(strlen(msg) > MP_TEXT_LEN && strstr(render(mp_write_report), msg) != NULL,
	      "a probe's message of %zu characters, whole in the report", strlen(msg));
}

static void test_empty(void)
{
	const char *t;

	mp_result_init(&r, "");
	t = render(mp_write_report);
	check_line(t, "  platform          -");
	check_line(t, "  latency (cycles)  -");
	check_line(t, "Caches documented by the vendor (source: -)");
	CHECK(strstr(t, "Caches (measured)\n  (none)\n") != NULL, "no caches: (none)");
	CHECK(strstr(t, "Probes\n  (none)\n\nNotes\n  (none)\n") != NULL, "no probes, no notes");
	CHECK(strstr(t, "disagree") == NULL, "nothing compared, nothing said");
	t = render(mp_write_csv);
	CHECK(strcmp(t, "curve,x,y,x_unit,y_unit\n") == 0, "CSV of nothing is its header");
}

static void test_overflow(void)
{
	char small[100];
	struct mp_buf b;

	fill();
	mp_buf_init(&b, small, sizeof(small));
	mp_write_report(&b, &r);
	CHECK(b.overflow && b.len == sizeof(small) - 1 && small[b.len] == '\0',
	      "small buffer: overflow flagged, filled, terminated");
}

static void test_csv(void)
{
	static const char want[] = "curve,x,y,x_unit,y_unit\n"
				   "latency,1024.000,4.000,bytes,cycles\n"
				   "latency,2048.000,,bytes,cycles\n"
				   "\"a,\"\"b\"\"\",-0.500,1000000.000,pages,ns\n";
	struct mp_curve *c;

	mp_result_init(&r, "sim");
	c = mp_result_add_curve(&r, "latency", "bytes", "cycles");
	mp_curve_add_point(c, 1024, 4.0);
	mp_curve_add_point(c, 2048, mp_na_double());
	c = mp_result_add_curve(&r, "a,\"b\"", "pages", "ns");
	mp_curve_add_point(c, -0.5, 1e6);
	mp_result_add_curve(&r, "no points", "x", "y");
	CHECK(strcmp(render(mp_write_csv), want) == 0,
	      "CSV: one row per point, n/a empty, quoting (got %zu bytes)", strlen(out));
}

int main(void)
{
	fill();
	render(mp_write_report);
	test_header(out);
	test_measured(out);
	test_documented(out);
	test_probes_notes(out);
	test_long_message();
	test_empty();
	test_overflow();
	test_csv();
	return check_done();
}
