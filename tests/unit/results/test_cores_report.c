/* SPDX-License-Identifier: MIT */
/*
 * The multi-core sections of the writers: report.txt's topology, core
 * types (their CPUs as ranges, each level's sharing measured against the
 * documented one) and core-to-core matrix; the heat map's squares, values
 * and colours; report.html's figure.
 */
#include <stdint.h>
#include <stdlib.h>

#include "core/lib/str.h"
#include "core/results/plot.h"
#include "core/results/report_int.h"
#include "core/results/writers.h"
#include "tests/check.h"

static struct mp_result r;
static char out[1 << 20];

static const char *write(void (*fn)(struct mp_buf *, const struct mp_result *))
{
	struct mp_buf b;

	mp_buf_init(&b, out, sizeof(out));
	fn(&b, &r);
	CHECK(!b.overflow, "fits its buffer (%zu bytes)", b.len);
	return out;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

/* Does the element that starts at `key` carry `attr` before its end? */
static int has_attr(const char *s, const char *key, const char *attr)
{
	const char *at = strstr(s, key), *end = at ? strchr(at, '>') : NULL, *a;

	a = at ? strstr(at, attr) : NULL;
	return a && a < end;
}

static void add_level(struct mp_core_type *t, int32_t level, int64_t size, int32_t shared)
{
	struct mp_cache *c = &t->caches[t->ncaches++];

	mp_cache_init(c);
	c->level = level;
	c->type = level == 1 ? MP_KIND_DATA : MP_KIND_UNIFIED;
	c->size_bytes = size;
	c->latency_cycles = 4.0 * level;
	c->shared_by = shared;
}

/* A hybrid part: P cores 0-3 (CPUs 0-3), E cores on CPUs 4 and 5; three pairs, one not measured. */
static void fill(void)
{
	static const uint16_t p[] = { 0, 1, 2, 3 }, e[] = { 4, 5 };
	struct mp_cache *d;

	mp_result_init(&r, "sim");
	r.topology = (struct mp_topology){ 1, 4, 6 };
	r.ncore_types = 2;
	mp_strlcpy(r.core_types[0].name, "P-core", MP_NAME_LEN);
	r.core_types[0].ncpus = 4;
	memcpy(r.core_types[0].cpus, p, sizeof(p));
	add_level(&r.core_types[0], 1, 48 << 10, 2);
	mp_strlcpy(r.core_types[1].name, "E-core", MP_NAME_LEN);
	r.core_types[1].ncpus = 2;
	memcpy(r.core_types[1].cpus, e, sizeof(e));
	add_level(&r.core_types[1], 2, 2 << 20, 4);
	r.documented.ncaches = 1;
	d = &r.documented.caches[0];
	mp_cache_init(d);
	d->level = 1;
	d->type = MP_KIND_DATA;
	d->shared_by = 1;
	mp_strlcpy(r.core_to_core.unit, "ns", sizeof(r.core_to_core.unit));
	r.core_to_core.npairs = 3;
	r.core_to_core.pairs[0] = (struct mp_c2c_pair){ 0, 1, 7.25 };
	r.core_to_core.pairs[1] = (struct mp_c2c_pair){ 0, 4, 60.0 };
	r.core_to_core.pairs[2] = (struct mp_c2c_pair){ 1, 4, mp_na_double() };
}

static void test_cpu_list(void)
{
	static const uint16_t cpus[] = { 0, 1, 2, 5, 7, 8, 9, 11 };
	char list[64], small[8];

	mp_cpu_list(list, sizeof(list), cpus, 8);
	CHECK_EQ_STR(list, "0-2,5,7-9,11", "CPU list: runs as ranges");
	mp_cpu_list(small, sizeof(small), cpus, 8);
	CHECK_EQ_STR(small, "0-2,...", "CPU list cut short ends in ...");
}

static void test_report(void)
{
	const char *t;

	fill();
	t = write(mp_write_report);
	CHECK(strstr(t, "packages 1, cores 4, logical CPUs 6\n") != NULL, "topology line");
	CHECK(strstr(t, "Core type E-core: 2 logical CPU(s): 4-5\n") != NULL,
	      "a core type with its CPUs");
	CHECK(strstr(t, "Core type P-core (the boot CPU's: the tables above): 4 logical CPU(s): 0-3")
		      != NULL, "the boot CPU's type first, said so");
	CHECK(strstr(t, "shared-by (measured)  shared-by (documented)") != NULL,
	      "sharing: measured beside documented");
	CHECK(strstr(t, "  L1     data  48K   -          -     -     4.0           2                     1\n")
		      != NULL, "the boot type's L1: measured 2 against documented 1");
	CHECK(strstr(t, "  L2     unified  2M    -          -     -     8.0           4                     -\n")
		      != NULL, "another type's level: nothing documented for it");
	CHECK(strstr(t, "Core to core (one-way transfer of a cache line, ns: a ping-pong round "
			"over two)\n       CPU       0       1       4\n") != NULL,
	      "the matrix's unit and its CPUs");
	CHECK(strstr(t, "\n         0             7.3    60.0\n         1     7.3               -\n"
			"         4    60.0       -        \n") != NULL,
	      "the matrix: both ways round, '-' where not measured, the diagonal empty");
}

static void test_heatmap(void)
{
	const char *s;

	fill();
	s = write(mp_write_heatmap);
	CHECK(strncmp(s, "<?xml", 5) == 0 && strstr(s, "</svg>\n") != NULL, "heat map: an SVG file");
	CHECK_EQ_INT(count(s, "class=\"pair\""), 9, "heat map: a square for each of 3 x 3");
	CHECK(strstr(s, "data-a=\"0\" data-b=\"1\" data-latency=\"7.250\"") != NULL &&
		      strstr(s, "data-a=\"1\" data-b=\"0\" data-latency=\"7.250\"") != NULL,
	      "heat map: each pair both ways round with its latency");
	CHECK(count(s, "fill=\"#fff5eb\"") == 2 && count(s, "fill=\"#7f2704\"") == 2 &&
		      has_attr(s, "data-a=\"0\" data-b=\"1\"", "fill=\"#fff5eb\"") &&
		      has_attr(s, "data-a=\"4\" data-b=\"0\"", "fill=\"#7f2704\""),
	      "heat map: the fastest pair lightest, the slowest darkest");
	CHECK(count(s, "fill=\"#ddd\"") == 3 && strstr(s, "data-latency=\"\" x=") != NULL,
	      "heat map: the diagonal grey, an unmeasured pair without a value");
	CHECK(strstr(s, "<title>CPU 0 - CPU 4: 60.0 ns</title>") != NULL, "heat map: titles");
	s = write(mp_write_html);
	CHECK(strstr(s, "<figure id=\"core-to-core\">\n<svg") != NULL, "report.html holds the heat map");
	r.core_to_core.npairs = 0;
	s = write(mp_write_html);
	CHECK(strstr(s, "core-to-core") == NULL, "no pairs: no heat map");
}

int main(void)
{
	test_cpu_list();
	test_report();
	test_heatmap();
	return check_done();
}
