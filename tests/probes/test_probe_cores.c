/* SPDX-License-Identifier: MIT */
/*
 * The multi-core probes (topology, cores, c2c) through the suite, on the
 * fake multi-processor platform of cores_fake.h around a small simulated
 * core (TINY below, or the model file given as the first argument): the
 * topology counted, the core types grouped and measured on one of their
 * CPUs, every data level's sharing as the fake's ground truth says, the
 * core-to-core latencies as the fake takes them, the work bounded on 256
 * CPUs, and a platform of one CPU (or cores = boot) said so.  The result
 * file of one run is checked against docs/result.schema.json.
 *
 * Then every model of sim/models with several logical CPUs (`cpu` lines)
 * runs the same suite on the simulator's own multi-processor operations,
 * against the truth read from the model file's text: the topology, each
 * core type's data levels (size, and shared_by from `shared=`: N cores of
 * the type times its threads, `all` every logical CPU, by default the
 * core's threads), and core-to-core latencies ordered as the nearest level
 * two CPUs share (a lower level is faster; no shared level is slowest).
 */
#include "tests/probes/cores_fake.h"
#include "tests/probes/notes.h"
#include "tests/probes/probe_sim.h"
#include "core/results/writers.h"

#define TINY_PATH "build/tests/cores-tiny.model"
#define JSON_PATH "build/tests/cores-fake.json"
/* The probes a multi-core run needs: the boot CPU's caches, then the three. */
#define PROBES "latency,l1,levels,compact,tlb,cores,c2c"
/*
 * run_beside calls that bound the sharing of three levels on 2 x 64 x 2: each level about
 * 2 log2 k + 3 partners (k the cores sharing it), each decided in 3 to 5 votes of 2 runs.
 */
#define MAX_BESIDES 200u

/* Three data levels, small, so that a test runs in seconds. */
static const char tiny[] =
	"name = tiny3\n"
	"clock freq=1G\n"
	"cache L1D size=8K line=64 ways=4 latency=4 replacement=lru\n"
	"cache L1I size=8K line=64 ways=4 latency=4 replacement=lru\n"
	"cache L2 size=64K line=64 ways=8 latency=12 replacement=lru inclusion=inclusive\n"
	"cache L3 size=512K line=64 ways=16 latency=40 replacement=lru inclusion=inclusive\n"
	"tlb DTLB1 entries=32 ways=full page=4K latency=7\n"
	"tlb ITLB1 entries=32 ways=full page=4K latency=7\n"
	"memory latency=200\n"
	"frames mode=contiguous\n";

static const char *model_path = TINY_PATH;
static struct ps_run run;
static char json[1 << 20];
static uint64_t levels[FK_MAX_LEVELS + 1];

/* The model's data levels' sizes, for the fake and the checks; how many. */
static uint32_t data_levels(const struct mp_sim_model *m)
{
	uint32_t n = 0;

	while (n < FK_MAX_LEVELS && ps_cache(m, (int32_t)n + 1)) {
		levels[n + 1] = ps_cache(m, (int32_t)n + 1)->size;
		n++;
	}
	return n;
}

/* Open the model; with a machine, fake its CPUs; run the multi-core suite, `key` set to `value`. */
static int run_suite(const char *name, struct fk_machine *m, const char *key, const char *value)
{
	char why[128];

	if (!ps_open(&run, model_path, PS_EXACT))
		return 0;
	snprintf(run.name, sizeof(run.name), "%s", name);
	mp_config_set(&run.cfg, "probes", PROBES, why, sizeof(why));
	mp_config_set(&run.cfg, "rounds", "1", why, sizeof(why));
	mp_config_set(&run.cfg, "method", "timing", why, sizeof(why));
	if (key)
		mp_config_set(&run.cfg, key, value, why, sizeof(why));
	if (m) {
		m->nlevels = data_levels(&run.model);
		m->level_bytes = levels;
		fk_attach(run.p, m);
	}
	mp_suite_run(run.p, &run.cfg, &run.r);
	for (int32_t i = 0; i < run.r.nprobes; i++)
		fprintf(stderr, "[time] %s: probe %s %.2f s\n", run.name, run.r.probes[i].name,
			run.r.probes[i].seconds);
	return 1;
}

/* The record of a probe of the last run. */
static const struct mp_probe *probe(const char *name)
{
	return mp_result_find_probe(&run.r, name);
}

static const struct mp_cache *cache_of(const struct mp_core_type *t, int32_t level)
{
	for (int32_t i = 0; i < t->ncaches; i++)
		if (t->caches[i].level == level && t->caches[i].type != MP_KIND_INSTRUCTION)
			return &t->caches[i];
	return NULL;
}

static void check_topology(int32_t packages, int32_t cores, int32_t threads)
{
	const struct mp_topology *t = &run.r.topology;

	CHECK(t->packages == packages && t->cores == cores && t->threads == threads,
	      "%s: topology %d packages, %d cores, %d threads (want %d, %d, %d)", run.name,
	      (int)t->packages, (int)t->cores, (int)t->threads, (int)packages, (int)cores,
	      (int)threads);
}

/* Core type i: its name, how many CPUs, the first, each level's size and measured sharing. */
static void check_type(int32_t i, const char *name, int32_t ncpus, int32_t first,
		       const int32_t *shared)
{
	const struct mp_core_type *t = &run.r.core_types[i];

	if (i >= run.r.ncore_types) {
		CHECK(0, "%s: core type %d exists", run.name, (int)i);
		return;
	}
	CHECK(strcmp(t->name, name) == 0 && t->ncpus == ncpus && t->cpus[0] == first,
	      "%s: core type %d \"%s\" covers %d CPUs from %d (want \"%s\", %d from %d)", run.name,
	      (int)i, t->name, (int)t->ncpus, (int)t->cpus[0], name, (int)ncpus, (int)first);
	for (int32_t l = 1; l <= (int32_t)data_levels(&run.model); l++) {
		const struct mp_cache *c = cache_of(t, l);

		CHECK(c && c->size_bytes == (int64_t)levels[l],
		      "%s: %s L%d measured, %lld bytes (model %llu)", run.name, name, (int)l,
		      c ? (long long)c->size_bytes : -1LL, (unsigned long long)levels[l]);
		CHECK(c && c->shared_by == shared[l], "%s: %s L%d shared by %d (truth %d)", run.name,
		      name, (int)l, c ? (int)c->shared_by : -2, (int)shared[l]);
	}
}

/* The top-level caches are the boot CPU's type's, shared_by included. */
static void check_boot_top(void)
{
	int ok = run.r.ncore_types > 0 && run.r.ncaches == run.r.core_types[0].ncaches;

	for (int32_t i = 0; ok && i < run.r.ncaches; i++)
		ok = run.r.caches[i].shared_by == run.r.core_types[0].caches[i].shared_by &&
		     run.r.caches[i].size_bytes == run.r.core_types[0].caches[i].size_bytes;
	CHECK(ok, "%s: the top-level caches are the boot CPU's core type's", run.name);
}

/* Every pair measured, each latency the fake's transfer in ns. */
static void check_c2c(uint32_t npairs)
{
	const struct mp_c2c *c = &run.r.core_to_core;
	int exact = c->npairs > 0;

	CHECK(strcmp(c->unit, "ns") == 0 && c->npairs == (int32_t)npairs,
	      "%s: core to core in ns over %d pairs (want %u)", run.name, (int)c->npairs,
	      (unsigned)npairs);
	for (int32_t i = 0; i < c->npairs; i++) {
		double want = fk_transfer(run.p, (uint32_t)c->pairs[i].a, (uint32_t)c->pairs[i].b) *
			      1e9 / (double)run.p->tick_hz;

		exact &= fabs(c->pairs[i].latency - want) <= 1e-9 * want;
	}
	CHECK(exact, "%s: every pair's latency is one transfer (round / 2) in ns", run.name);
}

/* The result file of this run validates against the schema. */
static void check_schema(void)
{
	struct mp_buf b;
	FILE *f = fopen(JSON_PATH, "w");

	mp_buf_init(&b, json, sizeof(json));
	mp_write_json(&b, &run.r);
	if (f) {
		fwrite(b.data, 1, b.len, f);
		fclose(f);
	}
	CHECK(f && !b.overflow && system("python3 tests/results/validate_json.py " JSON_PATH) == 0,
	      "%s: result.json validates against the schema", run.name);
}

/* 2 packages x 4 cores x 2 threads; L1, L2 per core, L3 per cluster of 2 cores. */
static void test_smt_ccx(void)
{
	struct fk_machine m = { .packages = 2, .cores = 4, .threads = 2, .cluster = 2,
				.per = { 0, 1, 1, 2 } };
	static const int32_t shared[] = { 0, 2, 2, 4 };

	if (!run_suite("smt-ccx 2x4x2", &m, NULL, NULL))
		return;
	check_topology(2, 8, 16);
	check_type(0, "core", 16, 0, shared);
	check_boot_top();
	check_c2c(16 * 15 / 2);
	check_schema();
	ps_close(&run);
}

/* 2 packages x 8 cores, no SMT; L3 per package: the other package is tried and refused. */
static void test_package_l3(void)
{
	struct fk_machine m = { .packages = 2, .cores = 8, .threads = 1, .cluster = 8,
				.per = { 0, 1, 1, 8 } };
	static const int32_t shared[] = { 0, 1, 1, 8 };

	if (!run_suite("package-l3 2x8x1", &m, NULL, NULL))
		return;
	check_topology(2, 16, 16);
	check_type(0, "core", 16, 0, shared);
	check_c2c(16 * 15 / 2);
	ps_close(&run);
}

/* Hybrid: 4 P cores of 2 threads, 4 E cores sharing an L2 by four; one L3 for all. */
static void test_hybrid(void)
{
	struct fk_machine m = { .packages = 1, .cores = 8, .threads = 2, .cluster = 4,
				.e_first = 4, .per = { 0, 1, 1, 8 }, .e_per = { 0, 1, 4, 8 } };
	static const int32_t p_shared[] = { 0, 2, 2, 12 }, e_shared[] = { 0, 1, 4, 12 };

	if (!run_suite("hybrid 4P+4E", &m, NULL, NULL))
		return;
	check_topology(1, 8, 12);
	CHECK_EQ_INT(run.r.ncore_types, 2, "hybrid: two core types");
	check_type(0, "P", 8, 0, p_shared);
	check_type(1, "E", 4, 8, e_shared);
	check_c2c(12 * 11 / 2);
	ps_close(&run);
}

/* 2 x 64 x 2 = 256 CPUs: the sample and the binary search keep the work bounded. */
static void test_large(void)
{
	struct fk_machine m = { .packages = 2, .cores = 64, .threads = 2, .cluster = 8,
				.per = { 0, 1, 1, 8 } };
	static const int32_t shared[] = { 0, 2, 2, 16 };
	const struct mp_c2c *c = &run.r.core_to_core;
	int sibling = 0, remote = 0, cluster = 0, ascending = 1;

	if (!run_suite("large 2x64x2", &m, NULL, NULL))
		return;
	check_topology(2, 128, 256);
	check_type(0, "core", 256, 0, shared);
	for (int32_t i = 0; i < c->npairs; i++) {
		uint32_t t = fk_transfer(run.p, (uint32_t)c->pairs[i].a, (uint32_t)c->pairs[i].b);

		sibling |= t == FK_LAT_CORE;
		cluster |= t == FK_LAT_CLUSTER;
		remote |= t == FK_LAT_REMOTE;
		ascending &= c->pairs[i].a < c->pairs[i].b;
	}
	CHECK(c->npairs > 0 && c->npairs <= MP_MAX_PAIRS && sibling && cluster && remote,
	      "%s: %d pairs, among them SMT siblings, a cluster, another package", run.name,
	      (int)c->npairs);
	CHECK(ascending, "%s: the sample in ascending order (each pair's first CPU the lower)",
	      run.name);
	CHECK(fk.besides <= MAX_BESIDES, "%s: sharing took %llu runs beside (at most %u)",
	      run.name, (unsigned long long)fk.besides, MAX_BESIDES);
	ps_close(&run);
}

/* The platform as it is: one CPU, no multi-processor operations. */
static void test_single(void)
{
	static const uint16_t boot[] = { 0 };

	if (!run_suite("one CPU", NULL, NULL, NULL))
		return;
	check_topology(1, 1, 1);
	CHECK(run.r.ncore_types == 1 && run.r.core_types[0].ncpus == 1 &&
		      memcmp(run.r.core_types[0].cpus, boot, sizeof(boot)) == 0,
	      "one CPU: one core type of CPU 0");
	CHECK(ps_note(&run.r, "one logical CPU") && probe("cores")->status == MP_PROBE_UNSUPPORTED &&
		      probe("c2c")->status == MP_PROBE_UNSUPPORTED && run.r.core_to_core.npairs == 0,
	      "one CPU: sharing and core to core not measured, and a note says why");
	check_boot_top();
	ps_close(&run);
}

/* cores = boot: the topology is counted, nothing runs on another CPU. */
static void test_boot_only(void)
{
	struct fk_machine m = { .packages = 1, .cores = 4, .threads = 2, .cluster = 4,
				.per = { 0, 1, 1, 4 } };

	if (!run_suite("cores=boot 1x4x2", &m, "cores", "boot"))
		return;
	check_topology(1, 4, 8);
	CHECK(fk.besides == 0 && fk.pingpongs == 0 && ps_note(&run.r, "cores = boot") &&
		      run.r.caches[0].shared_by == MP_NA,
	      "cores=boot: no run beside, no ping-pong, a note, shared_by not measured");
	ps_close(&run);
}

/* ---- the simulator's multi-core models ---- */

#define MT_MAX_TYPES 4
#define MT_MAX_LEVELS 8

/* What a model file says of its CPUs and data levels. */
struct truth {
	int ntypes;
	struct { char name[MP_CPU_TYPE_LEN]; int cores, threads; } type[MT_MAX_TYPES];
	int nlevels;
	struct { char cpu[MP_CPU_TYPE_LEN]; int level; int64_t size; int shared; } lv[MT_MAX_LEVELS];
};

#define MT_ALL (-1)

/* "size=32K" and the like: the value of key in a line's words, or NULL. */
static const char *word(char **w, int n, const char *key)
{
	size_t k = strlen(key);

	for (int i = 0; i < n; i++)
		if (strncmp(w[i], key, k) == 0 && w[i][k] == '=')
			return w[i] + k + 1;
	return NULL;
}

static int64_t bytes(const char *v)
{
	char *end;
	int64_t n = strtoll(v, &end, 10);

	return *end == 'K' ? n << 10 : *end == 'M' ? n << 20 : *end == 'G' ? n << 30 : n;
}

static void truth_line(struct truth *t, char **w, int n)
{
	const char *v;

	if (strcmp(w[0], "cpu") == 0 && t->ntypes < MT_MAX_TYPES) {
		v = word(w, n, "name");
		snprintf(t->type[t->ntypes].name, MP_CPU_TYPE_LEN, "%s", v ? v : "");
		t->type[t->ntypes].cores = atoi(word(w, n, "cores") ? word(w, n, "cores") : "1");
		t->type[t->ntypes++].threads = atoi(word(w, n, "threads") ? word(w, n, "threads") : "1");
		return;
	}
	if (strcmp(w[0], "cache") != 0 || n < 2 || t->nlevels >= MT_MAX_LEVELS ||
	    strstr(w[1], "L1I") || ((v = word(w, n, "type")) && strcmp(v, "instruction") == 0))
		return;
	v = word(w, n, "level");
	t->lv[t->nlevels].level = v ? atoi(v) : atoi(strchr(w[1], 'L') ? strchr(w[1], 'L') + 1 : "0");
	t->lv[t->nlevels].size = bytes(word(w, n, "size"));
	v = word(w, n, "shared");
	t->lv[t->nlevels].shared = !v ? 1 : strcmp(v, "all") == 0 ? MT_ALL : atoi(v);
	v = word(w, n, "cpu");
	snprintf(t->lv[t->nlevels++].cpu, MP_CPU_TYPE_LEN, "%s", v ? v : "");
}

static int read_truth(const char *path, struct truth *t)
{
	char line[512], *w[32];
	FILE *f = fopen(path, "r");

	memset(t, 0, sizeof(*t));
	while (f && fgets(line, sizeof(line), f)) {
		int n = 0;

		for (char *tok = strtok(line, " \t\n"); tok && n < 32 && tok[0] != '#';
		     tok = strtok(NULL, " \t\n"))
			w[n++] = tok;
		if (n)
			truth_line(t, w, n);
	}
	if (f)
		fclose(f);
	return t->ntypes;
}

static int truth_cpus(const struct truth *t)
{
	int n = 0;

	for (int i = 0; i < t->ntypes; i++)
		n += t->type[i].cores * t->type[i].threads;
	return n;
}

static int truth_cores(const struct truth *t)
{
	int n = 0;

	for (int i = 0; i < t->ntypes; i++)
		n += t->type[i].cores;
	return n;
}

/* Logical CPUs sharing one instance of a level of type ty. */
static int truth_shared(const struct truth *t, int ty, int l)
{
	return t->lv[l].shared == MT_ALL ? truth_cpus(t) : t->lv[l].shared * t->type[ty].threads;
}

/* The level l of the truth that type ty has at `level`, or -1. */
static int truth_level(const struct truth *t, int ty, int level)
{
	for (int l = 0; l < t->nlevels; l++)
		if (t->lv[l].level == level && (!t->lv[l].cpu[0] || !strcmp(t->lv[l].cpu, t->type[ty].name)))
			return l;
	return -1;
}

static void check_model_types(const struct truth *t)
{
	CHECK_EQ_INT(run.r.ncore_types, t->ntypes, "core types as cpu lines");
	for (int ty = 0; ty < t->ntypes && ty < run.r.ncore_types; ty++) {
		const struct mp_core_type *got = &run.r.core_types[ty];
		const char *name = t->type[ty].name[0] ? t->type[ty].name : "core";

		CHECK(strcmp(got->name, name) == 0 &&
			      got->ncpus == t->type[ty].cores * t->type[ty].threads,
		      "%s: type %s covers %d CPUs (model %s, %d)", run.name, got->name,
		      (int)got->ncpus, name, t->type[ty].cores * t->type[ty].threads);
		for (int level = 1; level <= MT_MAX_LEVELS; level++) {
			int l = truth_level(t, ty, level);
			const struct mp_cache *c = cache_of(got, level);

			if (l < 0)
				continue;
			CHECK(c && c->size_bytes == t->lv[l].size && c->shared_by == truth_shared(t, ty, l),
			      "%s: %s L%d %lld bytes shared by %d (model %lld, %d)", run.name, name,
			      level, c ? (long long)c->size_bytes : -1LL, c ? (int)c->shared_by : -2,
			      (long long)t->lv[l].size, truth_shared(t, ty, l));
		}
	}
}

/* A logical CPU's type index, its core within the type and its core number, from cpu_info. */
static void place(const struct truth *t, uint32_t cpu, int *ty, uint32_t *core, uint32_t *global)
{
	struct mp_cpu_info in, first;
	uint32_t lo = UINT32_MAX;

	run.p->ops->cpu_info(run.p, cpu, &in);
	*ty = 0;
	for (int i = 0; i < t->ntypes; i++)
		if (strcmp(in.type, t->type[i].name) == 0)
			*ty = i;
	for (uint32_t c = 0; c < (uint32_t)truth_cpus(t); c++)
		if (run.p->ops->cpu_info(run.p, c, &first) == MP_OK && !strcmp(first.type, in.type) &&
		    first.core < lo)
			lo = first.core;
	*core = in.core - lo;
	*global = in.core;
}

/* The lowest data level both CPUs share one instance of; MT_MAX_LEVELS + 1: none. */
static int nearest(const struct truth *t, uint32_t a, uint32_t b)
{
	int ta, tb;
	uint32_t ca, cb, ga, gb;

	place(t, a, &ta, &ca, &ga);
	place(t, b, &tb, &cb, &gb);
	for (int level = 1; level <= MT_MAX_LEVELS; level++) {
		int l = truth_level(t, ta, level);

		if (l < 0)
			continue;
		if (t->lv[l].shared == MT_ALL ||
		    (ta == tb && (t->lv[l].shared == 1 ? ga == gb
						       : ca / (uint32_t)t->lv[l].shared ==
							 cb / (uint32_t)t->lv[l].shared)))
			return level;
	}
	return MT_MAX_LEVELS + 1;
}

static void check_model_c2c(const struct truth *t)
{
	const struct mp_c2c *c = &run.r.core_to_core;
	int n = c->npairs, ordered = n > 0;

	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			int ni = nearest(t, (uint32_t)c->pairs[i].a, (uint32_t)c->pairs[i].b);
			int nj = nearest(t, (uint32_t)c->pairs[j].a, (uint32_t)c->pairs[j].b);

			if (ni < nj && !(c->pairs[i].latency < c->pairs[j].latency)) {
				ordered = 0;
				CHECK(0, "%s: CPUs %d-%d (share L%d) %.1f ns, not below %d-%d (L%d) %.1f",
				      run.name, (int)c->pairs[i].a, (int)c->pairs[i].b, ni,
				      c->pairs[i].latency, (int)c->pairs[j].a, (int)c->pairs[j].b, nj,
				      c->pairs[j].latency);
				i = j = n;
			}
		}
	CHECK(ordered, "%s: %d core-to-core latencies ordered by the nearest shared level", run.name,
	      n);
}

static void test_model(const char *path, int rough)
{
	struct truth t;

	(void)rough;
	if (read_truth(path, &t) == 0 || truth_cpus(&t) < 2)
		return;
	model_path = path;
	if (!run_suite(path, NULL, NULL, NULL))
		return;
	check_topology(1, truth_cores(&t), truth_cpus(&t));
	check_model_types(&t);
	check_model_c2c(&t);
	ps_close(&run);
}

/* A platform that cannot describe every CPU: no counts but the CPUs, no sharing, still c2c. */
static void test_undescribed(void)
{
	struct fk_machine m = { .packages = 1, .cores = 2, .threads = 2, .cluster = 2,
				.per = { 0, 1, 1, 2 }, .described = 1 };

	if (!run_suite("undescribed 1x2x2", &m, NULL, NULL))
		return;
	check_topology(MP_NA, MP_NA, 4);
	CHECK(ps_note(&run.r, "does not describe every logical CPU") && fk.besides == 0 &&
		      probe("cores")->status == MP_PROBE_UNSUPPORTED && run.r.caches[0].shared_by == MP_NA,
	      "undescribed: packages and cores not counted, sharing not measured, noted");
	ps_close(&run);
}

/* Method counters: the multi-core probes time, so they are skipped, as the timing probes are. */
static void test_counters(void)
{
	struct fk_machine m = { .packages = 1, .cores = 2, .threads = 2, .cluster = 2,
				.per = { 0, 1, 1, 2 } };

	if (!run_suite("method=counters 1x2x2", &m, "method", "counters"))
		return;
	check_topology(1, 2, 4);
	CHECK(probe("cores")->status == MP_PROBE_SKIPPED && probe("c2c")->status == MP_PROBE_SKIPPED &&
		      strcmp(probe("c2c")->message, "method is counters") == 0 && fk.besides == 0 &&
		      fk.pingpongs == 0,
	      "method=counters: cores and c2c skipped, nothing run beside, no ping-pong");
	ps_close(&run);
}

int main(int argc, char **argv)
{
	FILE *f = fopen(TINY_PATH, "w");

	if (f) {
		fputs(tiny, f);
		fclose(f);
	}
	if (argc > 1)
		model_path = argv[1];
	test_single();
	test_boot_only();
	test_counters();
	test_undescribed();
	test_smt_ccx();
	test_package_l3();
	test_hybrid();
	test_large();
	if (argc <= 1)
		ps_each_model(NULL, test_model, PS_ONLY(PS_EXACT));
	return check_done();
}
