/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for core/results/json.c.  Also writes build/tests/sample.json (every
 * field filled) and build/tests/empty.json (almost nothing measured), which
 * tests/results/test_schema.sh validates against docs/result.schema.json.
 */
#include <stdint.h>
#include <stdlib.h>

#include "core/lib/str.h"
#include "core/results/audit.h"
#include "core/results/writers.h"
#include "tests/check.h"

#define OUT_DIR "build/tests/"

static struct mp_result r;
static char out[1 << 17];

static const char *json_of(const struct mp_result *res)
{
	struct mp_buf b;

	mp_buf_init(&b, out, sizeof(out));
	mp_write_json(&b, res);
	CHECK(!b.overflow, "JSON fits its buffer (%zu bytes)", b.len);
	return out;
}

static void fill_cache(struct mp_cache *c, int level, enum mp_kind type, int64_t size)
{
	c->level = level;
	c->type = type;
	c->size_bytes = size;
	c->effective_size_bytes = size - size / 8;
	c->line_bytes = 64;
	c->ways = level == 1 ? 8 : 16;
	c->latency_cycles = level * 4.0005;
	c->latency_ns = level * 1.25;
	c->write_allocate = level == 1 ? MP_YES : MP_NO;
	c->replacement = level == 1 ? MP_REPL_PLRU : MP_REPL_LRU_LIKE;
	c->inclusion = level == 2 ? MP_INCL_NONINCLUSIVE : MP_INCL_INCLUSIVE;
	c->method = level == 1 ? MP_METHOD_BOTH : MP_METHOD_TIMING;
	c->shared_by = level == 3 ? 16 : 2;
}

static void fill_tlb(struct mp_tlb *t, int level, enum mp_kind type, int64_t entries)
{
	t->level = level;
	t->type = type;
	t->entries = entries;
	t->page_bytes = 4096;
	t->ways = level == 1 ? entries : 12;
	t->miss_penalty_cycles = level == 1 ? 7.5 : 30.0;
	t->method = MP_METHOD_COUNTERS;
}

static void fill_documented(struct mp_result *res)
{
	struct mp_documented *d = &res->documented;

	mp_strlcpy(d->source, "cpuid leaf 4", sizeof(d->source));
	d->ncaches = 2;
	fill_cache(&d->caches[0], 1, MP_KIND_INSTRUCTION, 32768);
	fill_cache(&d->caches[1], 3, MP_KIND_UNIFIED, 32 << 20);
	d->caches[1].method = MP_METHOD_DOCUMENTED;
	d->ntlbs = 1;
	fill_tlb(&d->tlbs[0], 2, MP_KIND_UNIFIED, 1536);
	d->tlbs[0].method = MP_METHOD_DOCUMENTED;
}

static void fill_probes(struct mp_result *res)
{
	static const enum mp_probe_status st[] = { MP_PROBE_OK, MP_PROBE_UNSUPPORTED,
						   MP_PROBE_FAILED, MP_PROBE_SKIPPED };
	static const char *const names[] = { "latency", "tlb", "assoc", "inclusion" };

	for (int i = 0; i < 4; i++) {
		struct mp_probe *p = mp_result_add_probe(res, names[i]);

		p->status = st[i];
		p->seconds = 0.5 * i;
		mp_strlcpy(p->message, "said \"hi\"\tthen\\left", sizeof(p->message));
	}
}

/* Counter values of each type (integer, boolean, name) and one comparison of each verdict. */
static void fill_counters(struct mp_result *res)
{
	static const struct mp_structure l2 = { 2, MP_KIND_UNIFIED, false, MP_NA };
	static const struct mp_structure dtlb = { 1, MP_KIND_DATA, true, 4096 };
	struct mp_vote *c;

	c = mp_result_add_counted(res, "amp", &l2, MP_PARAM_WAYS);
	c->value = 8;
	c->votes = 7;
	c->of = 8;
	c->runner_up = 16;
	c->runner_up_votes = 1;
	c->stable = MP_YES;
	c = mp_result_add_counted(res, "amp", &l2, MP_PARAM_WRITE_ALLOCATE);
	c->value = MP_YES;
	c->votes = c->of = 8;
	c = mp_result_add_counted(res, "amp", &l2, MP_PARAM_REPLACEMENT);
	c->value = MP_REPL_LRU;
	c->votes = c->of = 8;
	c = mp_result_vote(res, "levels", &l2, MP_PARAM_INCLUSION);
	c->value = MP_INCL_EXCLUSIVE;
	c->votes = 2;
	c->of = 5;
	c->runner_up = MP_INCL_NONINCLUSIVE;
	c->runner_up_votes = 2;
	c->stable = MP_NO;
	c = mp_result_add_counted(res, "papi", &dtlb, MP_PARAM_ENTRIES);
	c->value = 64;
	c->votes = c->of = 8;
	res->ncomparisons = 3;
	res->comparisons[0] = (struct mp_comparison){ l2, MP_PARAM_WAYS, 8, 8, MP_YES };
	res->comparisons[1] = (struct mp_comparison){ l2, MP_PARAM_SIZE, 1 << 19, 1 << 20, MP_NO };
	res->comparisons[2] = (struct mp_comparison){ dtlb, MP_PARAM_PAGE, MP_NA, 4096, MP_UNKNOWN };
}

/* The instruction side and the CPU: fetch levels, timed operations, CPUID's description. */
static void fill_cpu(struct mp_result *res)
{
	struct mp_fetch_level *f = mp_result_add_fetch(res);
	struct mp_op_timing *o = mp_result_add_op(res);
	struct mp_cpu_doc *d = &res->documented.cpu;

	*f = (struct mp_fetch_level){ 1, 32768, 1.25, 0.3 };
	*mp_result_add_fetch(res) = (struct mp_fetch_level){ 2, MP_NA, 4.5, 1.1 };
	*o = (struct mp_op_timing){ "fp-fma", 512, 4.0, 1.0 };
	*mp_result_add_op(res) = (struct mp_op_timing){ "int-add", 64, 1.0, mp_na_double() };
	res->cpu_timing.core_hz_min = 3.6e9;
	res->cpu_timing.core_hz_max = 3.7e9;
	res->cpu_timing.clock_steady = MP_NO;
	res->cpu_timing.vector_bits = 512;
	res->cpu_timing.fma = MP_YES;
	d->base_hz = 2.1e9;
	d->max_hz = 3.9e9;
	mp_strlcpy(d->features, "sse2 avx avx512f", sizeof(d->features));
	d->gp_registers = 16;
	d->vector_registers = 32;
	d->vector_bits = 512;
}

/* Two sources, one not read, one stating package totals; every kind of fact judged. */
static void fill_sources(struct mp_result *res)
{
	struct mp_source *s = mp_audit_add_source(res, "cpuid 0x8000001d");
	struct mp_doc_cache *c = mp_source_add_cache(s);
	struct mp_tlb *t = mp_source_add_tlb(s);

	*c = (struct mp_doc_cache){ 1, MP_KIND_DATA, 32768, MP_SCOPE_ONE, 64, 8, 2,
				    MP_INCL_INCLUSIVE, MP_YES };
	*t = (struct mp_tlb){ 1, MP_KIND_DATA, 64, 4096, 64, mp_na_double(), MP_METHOD_DOCUMENTED };
	s->logical_cpus = 16;
	s->cores = 8;
	s->threads_per_core = 2;
	s = mp_audit_add_source(res, "smbios type 7");
	c = mp_source_add_cache(s);
	*c = (struct mp_doc_cache){ 1, MP_KIND_DATA, 262144, MP_SCOPE_PACKAGE, MP_NA, 12, MP_NA,
				    MP_INCL_UNKNOWN, MP_NO };
	mp_audit_source_missing(res, "acpi pptt", MP_SOURCE_UNREADABLE, "run as root");
	mp_audit_judge(res);
}

/* Two socket-less core types (a hybrid part) and a ping-pong pair of each kind. */
static void fill_cores(struct mp_result *res)
{
	static const uint16_t p_cpus[] = { 0, 1, 2, 3 }, e_cpus[] = { 4, 5 };
	struct mp_core_type *t = &res->core_types[0];

	res->topology = (struct mp_topology){ 1, 4, 6 };
	res->ncore_types = 2;
	mp_strlcpy(t->name, "P-core", sizeof(t->name));
	t->ncpus = 4;
	mp_memcpy(t->cpus, p_cpus, sizeof(p_cpus));
	t->ncaches = 1;
	fill_cache(&t->caches[0], 1, MP_KIND_DATA, 49152);
	t->ntlbs = 1;
	fill_tlb(&t->tlbs[0], 1, MP_KIND_DATA, 64);
	t++;
	mp_strlcpy(t->name, "E-core", sizeof(t->name));
	t->ncpus = 2;
	mp_memcpy(t->cpus, e_cpus, sizeof(e_cpus));
	t->ncaches = 2;
	fill_cache(&t->caches[0], 1, MP_KIND_DATA, 32768);
	fill_cache(&t->caches[1], 2, MP_KIND_UNIFIED, 2 << 20);
	t->caches[1].shared_by = 4;
	mp_strlcpy(res->core_to_core.unit, "ns", sizeof(res->core_to_core.unit));
	res->core_to_core.npairs = 2;
	res->core_to_core.pairs[0] = (struct mp_c2c_pair){ 0, 1, 7.25 };
	res->core_to_core.pairs[1] = (struct mp_c2c_pair){ 0, 4, mp_na_double() };
}

static void fill_sample(struct mp_result *res)
{
	struct mp_curve *c;

	mp_result_init(res, "sim");
	mp_strlcpy(res->machine.vendor, "AuthenticAMD", sizeof(res->machine.vendor));
	mp_strlcpy(res->machine.brand, "Model \"Z\"\n", sizeof(res->machine.brand));
	res->machine.family = 25;
	res->machine.model = 33;
	res->machine.stepping = 0;
	fill_cache(mp_result_add_cache(res), 1, MP_KIND_DATA, 32768);
	fill_cache(mp_result_add_cache(res), 2, MP_KIND_UNIFIED, 512 * 1024);
	fill_tlb(mp_result_add_tlb(res), 1, MP_KIND_DATA, 64);
	fill_tlb(mp_result_add_tlb(res), 2, MP_KIND_UNIFIED, 2048);
	res->memory.latency_cycles = 301.4996;
	res->memory.latency_ns = 80.0005;
	res->cpu.tsc_hz = 3.7e9;
	res->cpu.core_hz = 4.2e9;
	res->cpu.logical_cpus = 16;
	res->cpu.cores = 8;
	res->cpu.threads_per_core = 2;
	fill_documented(res);
	fill_probes(res);
	c = mp_result_add_curve(res, "latency", "bytes", "cycles");
	mp_curve_add_point(c, 1024, 4.0);
	mp_curve_add_point(c, 2048, -1.25);
	mp_curve_add_point(c, 4096, mp_na_double());
	mp_result_add_note(res, "L1 ways: 8 measured, 12 documented");
	mp_result_add_note(res, "ctl\x01 and \x1f");
	fill_counters(res);
	fill_cpu(res);
	fill_sources(res);
	fill_cores(res);
}

/* Written by mp_result_init alone: everything null, every table empty. */
static const char empty_json[] =
	"{\n"
	"  \"tool\": \"memprobe\",\n"
	"  \"version\": \"" MP_VERSION "\",\n"
	"  \"platform\": null,\n"
	"  \"machine\": {\n"
	"    \"vendor\": null,\n"
	"    \"brand\": null,\n"
	"    \"family\": null,\n"
	"    \"model\": null,\n"
	"    \"stepping\": null\n"
	"  },\n"
	"  \"caches\": [],\n"
	"  \"tlbs\": [],\n"
	"  \"memory\": {\n"
	"    \"latency_cycles\": null,\n"
	"    \"latency_ns\": null\n"
	"  },\n"
	"  \"cpu\": {\n"
	"    \"tsc_hz\": null,\n"
	"    \"core_hz\": null,\n"
	"    \"logical_cpus\": null,\n"
	"    \"cores\": null,\n"
	"    \"threads_per_core\": null,\n"
	"    \"core_hz_min\": null,\n"
	"    \"core_hz_max\": null,\n"
	"    \"clock_steady\": null,\n"
	"    \"vector_bits\": null,\n"
	"    \"fma\": null,\n"
	"    \"ops\": []\n"
	"  },\n"
	"  \"documented\": {\n"
	"    \"source\": null,\n"
	"    \"caches\": [],\n"
	"    \"tlbs\": [],\n"
	"    \"cpu\": {\n"
	"      \"base_hz\": null,\n"
	"      \"max_hz\": null,\n"
	"      \"bus_hz\": null,\n"
	"      \"features\": [],\n"
	"      \"gp_registers\": null,\n"
	"      \"vector_registers\": null,\n"
	"      \"vector_bits\": null\n"
	"    }\n"
	"  },\n"
	"  \"probes\": [],\n"
	"  \"curves\": [],\n"
	"  \"notes\": [],\n"
	"  \"counted\": [],\n"
	"  \"comparisons\": [],\n"
	"  \"fetch\": [],\n"
	"  \"votes\": [],\n"
	"  \"sources\": [],\n"
	"  \"verdicts\": [],\n"
	"  \"topology\": {\n"
	"    \"packages\": null,\n"
	"    \"cores\": null,\n"
	"    \"threads\": null\n"
	"  },\n"
	"  \"core_types\": [],\n"
	"  \"core_to_core\": {\n"
	"    \"unit\": null,\n"
	"    \"pairs\": []\n"
	"  }\n"
	"}\n";

static const char l1_json[] =
	"  \"caches\": [\n"
	"    {\n"
	"      \"level\": 1,\n"
	"      \"type\": \"data\",\n"
	"      \"size_bytes\": 32768,\n"
	"      \"effective_size_bytes\": 28672,\n"
	"      \"line_bytes\": 64,\n"
	"      \"ways\": 8,\n"
	"      \"latency_cycles\": 4.000,\n"
	"      \"latency_ns\": 1.250,\n"
	"      \"write_allocate\": true,\n"
	"      \"replacement\": \"plru\",\n"
	"      \"inclusion\": \"inclusive\",\n"
	"      \"method\": \"both\",\n"
	"      \"shared_by\": 2\n"
	"    },\n";

static const char curve_json[] =
	"  \"curves\": [\n"
	"    {\n"
	"      \"name\": \"latency\",\n"
	"      \"x_unit\": \"bytes\",\n"
	"      \"y_unit\": \"cycles\",\n"
	"      \"points\": [\n"
	"        [1024.000, 4.000],\n"
	"        [2048.000, -1.250],\n"
	"        [4096.000, null]\n"
	"      ]\n"
	"    }\n"
	"  ],\n";

/* Whole-text comparison reporting the first differing line, on one line. */
static void check_text(const char *got, const char *want, const char *name)
{
	unsigned line = 1;
	size_t i = 0, start = 0;

	for (; got[i] && got[i] == want[i]; i++)
		if (got[i] == '\n') {
			line++;
			start = i + 1;
		}
	if (got[i] == want[i])
		CHECK(1, "%s", name);
	else
		CHECK(0, "%s: line %u: got \"%.*s\" want \"%.*s\"", name, line,
		      (int)strcspn(got + start, "\n"), got + start,
		      (int)strcspn(want + start, "\n"), want + start);
}

static void check_has(const char *json, const char *want, const char *name)
{
	CHECK(strstr(json, want) != NULL, "%s", name);
}

static void test_empty(void)
{
	mp_result_init(&r, "");
	check_text(json_of(&r), empty_json, "nothing measured: every value null");
}

static void test_sample(void)
{
	const char *j;

	fill_sample(&r);
	j = json_of(&r);
	check_has(j, l1_json, "L1 record: fields, order, 4.0005 -> 4.000, enum names");
	check_has(j, curve_json, "curve: negative value and NaN -> null");
	check_has(j, "\"write_allocate\": false,", "write_allocate false");
	check_has(j, "\"brand\": \"Model \\\"Z\\\"\\u000a\",", "brand escaped");
	check_has(j, "\"message\": \"said \\\"hi\\\"\\u0009then\\\\left\"", "message escaped");
	check_has(j, "\"ctl\\u0001 and \\u001f\"", "control characters as \\u00XX");
	check_has(j, "\"latency_cycles\": 301.500,\n    \"latency_ns\": 80.001\n",
		  "memory: rounding half away from zero of the stored value");
	check_has(j, "\"tsc_hz\": 3700000000.000,", "large double has no exponent");
	check_has(j, "\"stepping\": 0\n", "zero is a value, not null");
	check_has(j, "\"status\": \"unsupported\",", "probe status name");
	check_has(j, "\"seconds\": 1.500,", "probe seconds");
	check_has(j, "\"method\": \"documented\",", "documented method");
	check_has(j, "\"source\": \"cpuid leaf 4\",", "documented source");
	check_has(j, "\"probe\": \"amp\",\n      \"parameter\": \"L2 unified ways\",\n"
		     "      \"value\": 8,\n      \"votes\": 7,\n      \"of\": 8,\n"
		     "      \"runner_up\": 16,\n      \"runner_up_votes\": 1,\n"
		     "      \"stable\": true\n",
		  "counted value with its votes");
	check_has(j, "\"votes\": [\n    {\n      \"probe\": \"levels\",\n"
		     "      \"parameter\": \"L2 unified inclusion\",\n      \"value\": \"exclusive\",\n"
		     "      \"votes\": 2,\n      \"of\": 5,\n      \"runner_up\": \"non-inclusive\",\n"
		     "      \"runner_up_votes\": 2,\n      \"stable\": false\n",
		  "a timing vote: split, unstable, inclusion by name");
	check_has(j, "\"parameter\": \"L2 unified write allocate\",\n      \"value\": true,",
		  "counted write allocation is a boolean");
	check_has(j, "\"value\": \"lru\",", "counted replacement is a name");
	check_has(j, "\"parameter\": \"L1 data TLB 4K entries\",", "TLB parameter label");
	check_has(j, "\"parameter\": \"L2 unified ways\",\n      \"timing\": 8,\n"
		     "      \"counters\": 8,\n      \"agree\": true\n",
		  "comparison: both values and agreement");
	check_has(j, "\"timing\": null,\n      \"counters\": 4096,\n      \"agree\": null\n",
		  "comparison with one value: agree is null");
	check_has(j, "\"op\": \"fp-fma\",\n        \"width_bits\": 512,\n"
		     "        \"latency_cycles\": 4.000,\n        \"throughput_per_cycle\": 1.000\n",
		  "a timed operation");
	check_has(j, "\"throughput_per_cycle\": null\n", "an unmeasured throughput is null");
	check_has(j, "\"features\": [\n        \"sse2\",\n        \"avx\",\n        \"avx512f\"\n"
		     "      ],", "documented features as an array of words");
	check_has(j, "\"fetch\": [\n    {\n      \"level\": 1,\n      \"effective_size_bytes\": "
		     "32768,\n      \"line_cycles\": 1.250,", "a fetch level");
	check_has(j, "\"clock_steady\": false,", "a clock that moved");
	check_has(j, "\"topology\": {\n    \"packages\": 1,\n    \"cores\": 4,\n"
		     "    \"threads\": 6\n  },", "topology: the three counts");
	check_has(j, "\"name\": \"E-core\",\n      \"cpus\": [\n        4,\n        5\n      ],\n"
		     "      \"caches\": [", "a core type: its name, its CPUs, then its caches");
	check_has(j, "\"size_bytes\": 2097152,", "a core type's own cache");
	check_has(j, "\"shared_by\": 4\n", "a core type's measured sharing");
	check_has(j, "\"core_to_core\": {\n    \"unit\": \"ns\",\n    \"pairs\": [\n      {\n"
		     "        \"a\": 0,\n        \"b\": 1,\n        \"latency\": 7.250\n      },",
		  "core to core: the unit, then each pair");
	check_has(j, "\"b\": 4,\n        \"latency\": null\n", "an unmeasured pair is null");
	CHECK(strstr(j, "nan") == NULL && strstr(j, "inf") == NULL, "no nan or inf in JSON");
	CHECK(strstr(j, "\t") == NULL, "no raw tab in JSON");
}

static void test_na_values(void)
{
	struct mp_cache *c;

	mp_result_init(&r, "sim");
	c = mp_result_add_cache(&r);
	c->latency_cycles = __builtin_inf();
	c->ways = -7; /* nonsense is not written as a number */
	c->type = (enum mp_kind)42;
	json_of(&r);
	check_has(out, "\"latency_cycles\": null,", "infinity is null");
	check_has(out, "\"ways\": null,", "a negative count is null");
	check_has(out, "\"type\": null,", "an out-of-range enum is null");
	check_has(out, "\"platform\": \"sim\",", "platform");
}

static void test_overflow_and_determinism(void)
{
	static char again[sizeof(out)];
	char small[64];
	struct mp_buf b;

	fill_sample(&r);
	mp_buf_init(&b, small, sizeof(small));
	mp_write_json(&b, &r);
	CHECK(b.overflow && b.len == sizeof(small) - 1 && small[b.len] == '\0',
	      "small buffer: overflow flagged, filled, terminated");
	CHECK(strncmp(small, "{\n  \"tool\": \"memprobe\",\n", 24) == 0, "small buffer keeps the start");
	json_of(&r);
	memcpy(again, out, sizeof(out));
	json_of(&r);
	CHECK(strcmp(again, out) == 0, "the same result gives the same bytes");
}

static void write_file(const char *path, const struct mp_result *res)
{
	FILE *f = fopen(path, "w");
	const char *j = json_of(res);

	CHECK(f && fputs(j, f) >= 0 && fclose(f) == 0, "wrote %s", path);
}

/* Almost nothing measured, but one record of each kind with every field not available. */
static void fill_empty(struct mp_result *res)
{
	mp_result_init(res, "sim");
	mp_result_add_cache(res);
	mp_result_add_tlb(res);
	mp_result_add_probe(res, "latency");
	mp_curve_add_point(mp_result_add_curve(res, "latency", "bytes", "cycles"),
			   mp_na_double(), mp_na_double());
}

/* A message as long as a probe's record holds is written whole. */
static void test_long_message(void)
{
	struct mp_probe *p;
	const char *msg;

	fill_empty(&r);
	p = mp_result_add_probe(&r, "evset");
	memset(p->message, 'm', MP_MESSAGE_LEN - 1);    /* two levels' reasons, as evset's */
	p->message[MP_MESSAGE_LEN - 1] = '\0';
	msg = p->message;
	CHECK(strlen(msg) > MP_TEXT_LEN && strstr(json_of(&r), msg) != NULL,
	      "a probe's message of %zu characters, whole in the JSON", strlen(msg));
}

/*
 * A note as long as evset's, over MP_TEXT_LEN, is kept and written whole
 * (notes once held MP_TEXT_LEN, and evset's class note lost its end).
 */
static void test_long_note(void)
{
	char note[MP_NOTE_LEN];

	fill_empty(&r);
	memset(note, 'n', sizeof(note) - 1);
	note[sizeof(note) - 1] = '\0';
	mp_result_add_note(&r, note);
	CHECK(r.nnotes == 1 && strcmp(r.notes[0], note) == 0 && strstr(json_of(&r), note) != NULL,
	      "a note of %zu characters, kept and whole in the JSON", strlen(note));
}

static void test_files(void)
{
	fill_sample(&r);
	write_file(OUT_DIR "sample.json", &r);
	fill_empty(&r);
	write_file(OUT_DIR "empty.json", &r);
}

int main(void)
{
	test_empty();
	test_sample();
	test_na_values();
	test_overflow_and_determinism();
	test_long_message();
	test_long_note();
	test_files();
	return check_done();
}
