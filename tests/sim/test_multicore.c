/* SPDX-License-Identifier: MIT */
/*
 * Multi-core models: cpu lines and cpu=/shared= (good and bad), the logical
 * CPUs' numbering and cpu_info, each CPU's own path (a private level does
 * not see a neighbour's footprint, a shared one does), counters per CPU,
 * ping-pong costs ordered by the nearest shared level, and the library's
 * multi-core models.
 */
#include <stdlib.h>

#include "platform/sim/platform.h"
#include "tests/check.h"
#include "tests/output.h"

/*
 * 4 cores of 2 threads; L1 and L2 per core, the L3 shared by pairs of
 * cores: CPUs 0-3 are one cluster, 4-7 the other.  One TLB big enough for
 * every footprint here, so that only the caches make the times.
 */
static const char *ccx_text =
	"clock freq=1G\n"
	"cpu cores=4 threads=2\n"
	"cache L1D size=4K line=64 ways=4 latency=2\n"
	"cache L2 size=32K line=64 ways=8 latency=10\n"
	"cache L3 size=256K line=64 ways=16 latency=40 shared=2\n"
	"tlb DTLB1 entries=1024 ways=full page=4K latency=1\n"
	"memory latency=200\n";

/* Two types: P (2 cores, 2 threads) and E (4 cores sharing an L2 by 2), one L3 for all. */
static const char *hybrid_text =
	"cpu cores=2 threads=2 name=P\n"
	"cpu cores=4 threads=1 name=E\n"
	"cache L1D size=8K line=64 ways=4 latency=5 cpu=P\n"
	"cache EL1D level=1 type=data size=4K line=64 ways=4 latency=3 cpu=E\n"
	"cache L2 size=64K line=64 ways=8 latency=12 cpu=P\n"
	"cache EL2 level=2 size=32K line=64 ways=8 latency=15 cpu=E shared=2\n"
	"cache L3 size=512K line=64 ways=16 latency=50 shared=all\n"
	"tlb DTLB1 entries=1024 ways=full page=4K latency=1\n"
	"memory latency=300\n";

static struct mp_platform *open_text(const char *text)
{
	static struct mp_sim_model m;
	char err[256];

	if (mp_sim_model_parse(&m, "test", text, strlen(text), err, sizeof(err)) < 0) {
		CHECK(0, "model: %s", err);
		return NULL;
	}
	return mp_sim_open(&m, test_output());
}

/* A cyclic chase through `bytes` of fresh memory, 64 bytes apart. */
static void *chain(struct mp_platform *p, uint64_t bytes, struct mp_mem *m)
{
	struct mp_mem_req req = { .bytes = bytes, .align = 4096 };
	uint64_t n = bytes / 64;

	if (p->ops->mem_alloc(p, &req, m) != MP_OK)
		return NULL;
	for (uint64_t i = 0; i < n; i++)
		*(void **)(m->base + i * 64) = m->base + ((i + 1) % n) * 64;
	return m->base;
}

static struct mp_run chase_of(void *start, uint64_t steps)
{
	return (struct mp_run){ .op = MP_OP_CHASE, .start = start, .steps = steps,
				.events = MP_EV_BIT(MP_EV_LOADS), .region = "mine" };
}

static struct mp_run sweep_of(const struct mp_mem *m, uint64_t bytes)
{
	return (struct mp_run){ .op = MP_OP_LOAD_SWEEP, .start = m->base, .stride = 64,
				.count = bytes / 64, .steps = 1, .region = "load" };
}

/* A run of r on the selected CPU, alone (other < 0) or beside `other`'s load. */
static enum mp_status run_on(struct mp_platform *p, const struct mp_run *r, struct mp_sample *s,
			     int other, const struct mp_run *load)
{
	if (other < 0)
		return mp_run(p, r, s);
	return p->ops->run_beside(p, r, s, (uint32_t)other, load);
}

/*
 * Cycles per access of a chase through `bytes` on CPU 0, alone or beside
 * `other` sweeping `load_bytes`, after a warm-up that runs the same way (a
 * sweep missing to memory takes long to bring its footprint in).
 */
static double per_access(struct mp_platform *p, uint64_t bytes, int other, uint64_t load_bytes)
{
	struct mp_mem mine, theirs;
	void *start = chain(p, bytes, &mine);
	uint64_t n = bytes / 64;
	struct mp_run r = chase_of(start, 64 * n), load;
	struct mp_sample s;
	double got = -1;

	if (!start || chain(p, load_bytes, &theirs) == NULL)
		return -1;
	load = sweep_of(&theirs, load_bytes);
	p->ops->flush_all(p);
	if (run_on(p, &r, &s, other, &load) == MP_OK && run_on(p, &r, &s, other, &load) == MP_OK &&
	    s.count[MP_EV_LOADS] == r.steps)
		got = (double)s.ticks / (double)r.steps;
	p->ops->mem_free(p, &mine);
	p->ops->mem_free(p, &theirs);
	return got;
}

/*
 * A private L2 (another core's sweep) is untouched; one shared by SMT
 * threads is not.  The chase fills the L2 exactly, so that under LRU any
 * line of the neighbour's makes it miss (a chase that hits runs so much
 * faster than a sweep that misses that a smaller one would keep its lines).
 */
static void test_private_level(void)
{
	struct mp_platform *p = open_text(ccx_text);
	double alone, other_core, sibling;

	if (!p)
		return;
	alone = per_access(p, 32 << 10, -1, 16 << 10);
	other_core = per_access(p, 32 << 10, 2, 16 << 10);
	sibling = per_access(p, 32 << 10, 1, 16 << 10);
	CHECK(alone == 10.0, "32K on CPU 0 alone: L2 hits, 10 cycles (got %.2f)", alone);
	CHECK(other_core == alone, "beside CPU 2 (another core) sweeping 16K: L2 private, "
	      "unchanged (got %.2f)", other_core);
	CHECK(sibling > 1.5 * alone, "beside CPU 1 (its SMT sibling) sweeping 16K: the L2 is "
	      "shared, 48K do not fit 32K (got %.2f)", sibling);
	mp_sim_close(p);
}

/* The L3 shared by a pair of cores sees the pair's footprints, not the other pair's. */
static void test_shared_level(void)
{
	struct mp_platform *p = open_text(ccx_text);
	double alone, cluster, far;

	if (!p)
		return;
	alone = per_access(p, 160 << 10, -1, 160 << 10);
	cluster = per_access(p, 160 << 10, 2, 160 << 10);
	far = per_access(p, 160 << 10, 4, 160 << 10);
	CHECK(alone == 40.0, "160K on CPU 0 alone: L3 hits, 40 cycles (got %.2f)", alone);
	CHECK(cluster > 1.5 * alone, "beside CPU 2 (same L3) sweeping 160K: 320K do not fit "
	      "256K (got %.2f)", cluster);
	CHECK(far == alone, "beside CPU 4 (the other L3) sweeping 160K: unchanged (got %.2f)",
	      far);
	mp_sim_close(p);
}

static uint64_t pingpong(struct mp_platform *p, uint32_t a, uint32_t b, void *line)
{
	struct mp_sample s;

	if (p->ops->pingpong(p, a, b, line, 100, &s) != MP_OK)
		return 0;
	return s.ticks;
}

/* A transfer costs twice the latency of the nearest shared level (memory's where none). */
static void test_pingpong(void)
{
	struct mp_platform *p = open_text(ccx_text);
	struct mp_mem m;
	struct mp_mem_req req = { .bytes = 4096, .align = 4096 };
	uint64_t sib, near, far, t0;
	struct mp_sample s;

	if (!p || p->ops->mem_alloc(p, &req, &m) != MP_OK)
		return;
	t0 = mp_now(p);
	sib = pingpong(p, 0, 1, m.base);
	near = pingpong(p, 0, 2, m.base);
	far = pingpong(p, 1, 6, m.base);
	CHECK_EQ_INT(sib, 100 * 2 * 2 * 2, "siblings 0-1: 100 rounds of 2 transfers of 2 x L1");
	CHECK_EQ_INT(near, 100 * 2 * 2 * 40, "same L3 0-2: 2 x L3 per transfer");
	CHECK_EQ_INT(far, 100 * 2 * 2 * 200, "other cluster 1-6: 2 x memory per transfer");
	CHECK(sib < near && near < far, "siblings < same cluster < other cluster");
	CHECK_EQ_INT(mp_now(p) - t0, sib + near + far, "the clock ran on by the ping-pongs");
	CHECK_EQ_INT(p->ops->pingpong(p, 3, 3, m.base, 1, &s), MP_UNSUPPORTED, "a CPU with itself");
	CHECK_EQ_INT(p->ops->pingpong(p, 0, 8, m.base, 1, &s), MP_UNSUPPORTED, "CPU 8 of 8");
	CHECK_EQ_INT(p->ops->pingpong(p, 0, 1, (void *)8, 1, &s), MP_EIO, "an unmapped line");
	p->ops->mem_free(p, &m);
	mp_sim_close(p);
}

static void test_cpu_info(void)
{
	struct mp_platform *p = open_text(ccx_text);
	struct mp_cpu_info in;
	int wrong = 0;

	if (!p)
		return;
	CHECK_EQ_INT(mp_cpu_count(p), 8, "4 cores of 2 threads: 8 logical CPUs");
	for (uint32_t c = 0; c < 8; c++) {
		bool ok = p->ops->cpu_info(p, c, &in) == MP_OK && in.apic_id == c &&
			  in.package == 0 && in.die == MP_CPU_UNKNOWN && in.core == c / 2 &&
			  in.thread == c % 2 && in.cluster == c / 4 && !in.type[0];

		wrong += !ok;
		if (!ok)
			printf("  cpu %u: apic %u core %u thread %u cluster %u type '%s'\n", c,
			       in.apic_id, in.core, in.thread, in.cluster, in.type);
	}
	CHECK_EQ_INT(wrong, 0, "CPU c: core c/2, thread c%2, cluster c/4 (the L3's group)");
	CHECK_EQ_INT(p->ops->cpu_info(p, 8, &in), MP_EIO, "no CPU 8");
	CHECK_EQ_INT(mp_cpu_select(p, 8), MP_UNSUPPORTED, "select CPU 8 of 8");
	mp_sim_close(p);
}

/* Each type's own hierarchy; counters and the clock as one CPU after another uses them. */
static void test_hybrid(void)
{
	struct mp_platform *p = open_text(hybrid_text);
	struct mp_cpu_info in;
	struct mp_mem m;
	struct mp_sample s;
	void *start;
	uint64_t t;

	if (!p || !(start = chain(p, 2048, &m)))
		return;
	CHECK_EQ_INT(mp_cpu_count(p), 8, "P: 2 x 2 threads, E: 4 x 1");
	CHECK(p->ops->cpu_info(p, 3, &in) == MP_OK && in.core == 1 && in.thread == 1 &&
	      !strcmp(in.type, "P"), "CPU 3: core 1 thread 1 of type P (%u %u %s)", in.core,
	      in.thread, in.type);
	CHECK(p->ops->cpu_info(p, 4, &in) == MP_OK && in.core == 2 && in.thread == 0 &&
	      !strcmp(in.type, "E") && in.cluster == 0,
	      "CPU 4: core 2 of type E, cluster 0 (one L3) (%u %s %u)", in.core, in.type,
	      in.cluster);
	struct mp_run r = chase_of(start, 3200);
	mp_run(p, &r, &s);
	mp_run(p, &r, &s);
	CHECK_EQ_INT(s.ticks, 3200 * 5, "P-core CPU 0: 2K in its L1D of 5 cycles");
	t = mp_now(p);
	CHECK_EQ_INT(mp_cpu_select(p, 5), MP_OK, "select CPU 5 (E)");
	CHECK(mp_now(p) == t, "the clock runs on across a select");
	mp_run(p, &r, &s);
	CHECK(s.ticks > 3200 * 3, "E-core CPU 5: its L1D is cold (it is not CPU 0's)");
	mp_run(p, &r, &s);
	CHECK_EQ_INT(s.ticks, 3200 * 3, "E-core CPU 5: then hits of its own L1D, 3 cycles");
	CHECK(mp_sim_holds(mp_sim_of(p), "EL2", (uint64_t)(uintptr_t)start) &&
	      !mp_sim_holds(mp_sim_of(p), "L2", (uint64_t)(uintptr_t)start),
	      "CPU 5's path: EL2, no L2");
	CHECK_EQ_INT(pingpong(p, 4, 5, start), 100 * 4 * 15, "E 4-5 share an EL2: 2 x 15");
	CHECK_EQ_INT(pingpong(p, 5, 6, start), 100 * 4 * 50, "E 5-6 meet at the L3: 2 x 50");
	CHECK_EQ_INT(pingpong(p, 0, 4, start), 100 * 4 * 50, "P 0 and E 4 meet at the L3");
	p->ops->mem_free(p, &m);
	mp_sim_close(p);
}

/* A model without cpu lines: one CPU, nothing to run beside. */
static void test_single(void)
{
	struct mp_platform *p = open_text("cache L1D size=4K line=64 ways=4 latency=2\n"
					  "memory latency=50\n");
	struct mp_run r = { .op = MP_OP_LOAD_SWEEP };
	struct mp_cpu_info in;
	struct mp_sample s;

	if (!p)
		return;
	CHECK_EQ_INT(mp_cpu_count(p), 1, "no cpu line: one CPU");
	CHECK(p->ops->cpu_info(p, 0, &in) == MP_OK && in.core == 0 && in.thread == 0 &&
	      in.cluster == 0, "CPU 0: core 0, thread 0, cluster 0");
	CHECK_EQ_INT(p->ops->run_beside(p, &r, &s, 0, &r), MP_UNSUPPORTED, "beside itself");
	mp_sim_close(p);
}

static int parse(const char *text, struct mp_sim_model *m, char *err, size_t len)
{
	return mp_sim_model_parse(m, "m", text, strlen(text), err, len);
}

#define MEM "memory latency=100\n"
#define L1 "cache L1D size=4K line=64 ways=4 latency=2"

static void test_parse_bad(void)
{
	static const struct {
		const char *text;
		const char *message;
	} bad[] = {
		{ "cpu cores=0\n" MEM, "m:1: cpu: bad cores '0' (want a number from 1 to 1024)" },
		{ "cpu threads=two\n" MEM,
		  "m:1: cpu: bad threads 'two' (want a number from 1 to 1024)" },
		{ "cpu cores=2 sockets=2\n" MEM, "m:1: cpu: unknown key 'sockets'" },
		{ "cpu cores=2 name=P\ncpu cores=2\n" MEM,
		  "m:2: cpu: a model of several cpu lines needs name= on each" },
		{ "cpu cores=2 name=P\ncpu cores=2 name=P\n" MEM, "m:2: cpu P is defined twice" },
		{ "cpu cores=1024 threads=2\n" MEM,
		  "m:1: 2048 logical CPUs are more than the simulator holds (1024)" },
		{ "cpu cores=2 name=P\n" L1 " cpu=E\n" MEM, "m:2: cache L1D: cpu=E names no cpu line" },
		{ "cpu cores=8\n" L1 " shared=3\n" MEM,
		  "m:2: cache L1D: shared=3 does not divide the 8 cores of cpu (the model)" },
		{ "cpu cores=8 name=P\ncpu cores=6 name=E\n" L1 " shared=4\n" MEM,
		  "m:3: cache L1D: shared=4 does not divide the 6 cores of cpu E" },
		{ L1 " shared=none\n" MEM,
		  "m:1: cache L1D: bad shared 'none' (want a number from 1 to 1024 or all)" },
		{ "cpu cores=2 name=P\ncpu cores=2 name=E\n" L1 "\n"
		  "cache L1X level=1 type=data size=4K line=64 ways=4 latency=2 cpu=E\n" MEM,
		  "m:4: caches L1D and L1X are both level 1 for data on cpu E" },
		{ "cpu cores=2 name=P\ncpu cores=2 name=E\n" L1 " cpu=E\n" L1 "\n" MEM,
		  "m:4: cache L1D is defined twice on cpu E" },
		{ "cpu cores=4\n" L1 " shared=2\ncache L2 size=64K line=64 ways=8 latency=9\n" MEM,
		  "m:3: cache L2: its instances split the cores that share one L1D above it (a "
		  "level below must be shared by at least the cores of one instance above)" },
		{ "cpu cores=4\ntlb DTLB1 entries=8 ways=full page=4K latency=1 shared=3\n" MEM,
		  "m:2: tlb DTLB1: shared=3 does not divide the 4 cores of cpu (the model)" },
		{ "cpu cores=2 name=averyveryverylongcorename\n" MEM,
		  "m:1: cpu: bad name 'averyveryverylongcorename' (want a name of up to 23 "
		  "characters)" },
	};
	static struct mp_sim_model m;
	char err[300];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = parse(bad[i].text, &m, err, sizeof(err));

		CHECK(rc < 0 && !strcmp(err, bad[i].message), "rejected: \"%s\" (got \"%s\")",
		      bad[i].message, rc < 0 ? err : "accepted");
	}
}

static void test_parse_good(void)
{
	static struct mp_sim_model m, one;
	char err[300];

	CHECK(parse(L1 "\n" MEM, &m, err, sizeof(err)) == 0 && m.ntypes == 1 &&
	      m.types[0].cores == 1 && m.types[0].threads == 1 && !m.types[0].name[0] &&
	      m.caches[0].shared == 1 && !m.caches[0].cpu[0],
	      "no cpu line: one core of one thread; a cache per core, every type's");
	CHECK(parse(hybrid_text, &m, err, sizeof(err)) == 0, "the hybrid parses: %s", err);
	CHECK(m.ntypes == 2 && m.types[1].cores == 4 && m.types[1].threads == 1 &&
	      m.caches[3].shared == 2 && !strcmp(m.caches[3].cpu, "E") &&
	      m.caches[4].shared == MP_SIM_SHARED_ALL, "types, cpu= and shared= as written");
	CHECK_EQ_INT(mp_sim_model_cpus(&m), 8, "hybrid: 4 + 4 logical CPUs");
	CHECK_EQ_INT(mp_sim_shared_by(&m, 1, "E", 2), 2, "EL2: 2 E-cores of one thread");
	CHECK_EQ_INT(mp_sim_shared_by(&m, 0, "", MP_SIM_SHARED_ALL), 8, "L3: every CPU");
	CHECK_EQ_INT(mp_sim_shared_by(&m, 0, "P", 1), 2, "P's L2: its 2 threads");
	CHECK(parse("cpu cores=2 name=P\ncpu cores=4 name=E\n" L1 " cpu=P\n"
		    "cache L1D size=8K line=64 ways=4 latency=3 cpu=E\n" MEM, &m, err,
		    sizeof(err)) == 0, "one name on two types (P's L1D, E's L1D): %s", err);
	mp_sim_model_type(&m, 1, &one);
	CHECK(one.ncaches == 1 && one.caches[0].size == 8192, "E's L1D is E's");
	CHECK(parse(hybrid_text, &m, err, sizeof(err)) == 0, "the hybrid again");
	mp_sim_model_type(&m, 1, &one);
	CHECK(one.ncaches == 3 && !strcmp(one.caches[0].name, "EL1D") &&
	      !strcmp(one.caches[1].name, "EL2") && !strcmp(one.caches[2].name, "L3") &&
	      one.ntypes == 1 && !strcmp(one.types[0].name, "E"),
	      "the E-cores' view: EL1D, EL2, L3");
}

/* The library's multi-core models: CPUs, types, and where they share. */
static void test_library(void)
{
	static const struct {
		const char *file;
		uint32_t cpus;
		uint32_t cpu;       /* one CPU to look at ... */
		uint32_t core, thread, cluster;
		const char *type;
		uint32_t a, b;      /* ... and a pair whose transfer costs `cost` */
		uint64_t cost;
	} lib[] = {
		{ "sim/models/skylake-smt.model", 4, 3, 1, 1, 0, "", 0, 1, 2 * 4 },
		{ "sim/models/zen2-two-ccx.model", 16, 9, 4, 1, 1, "", 0, 8, 2 * 290 },
		{ "sim/models/alderlake-hybrid.model", 24, 16, 8, 0, 0, "E-core", 16, 19, 2 * 17 },
	};

	for (size_t i = 0; i < sizeof(lib) / sizeof(lib[0]); i++) {
		static struct mp_sim_model m;
		struct mp_platform *p;
		struct mp_cpu_info in;
		struct mp_mem mem;
		struct mp_mem_req req = { .bytes = 4096, .align = 4096 };
		char err[300];

		if (mp_sim_model_load(&m, lib[i].file, err, sizeof(err)) < 0) {
			CHECK(0, "%s: %s", lib[i].file, err);
			continue;
		}
		p = mp_sim_open(&m, test_output());
		if (!p || p->ops->mem_alloc(p, &req, &mem) != MP_OK) {
			CHECK(0, "%s opens", lib[i].file);
			continue;
		}
		CHECK_EQ_INT(mp_cpu_count(p), lib[i].cpus, lib[i].file);
		CHECK(p->ops->cpu_info(p, lib[i].cpu, &in) == MP_OK && in.core == lib[i].core &&
		      in.thread == lib[i].thread && in.cluster == lib[i].cluster &&
		      !strcmp(in.type, lib[i].type), "%s: CPU %u is core %u thread %u cluster %u "
		      "'%s' (got %u %u %u '%s')", lib[i].file, lib[i].cpu, lib[i].core,
		      lib[i].thread, lib[i].cluster, lib[i].type, in.core, in.thread, in.cluster,
		      in.type);
		CHECK_EQ_INT(pingpong(p, lib[i].a, lib[i].b, mem.base), 100 * 2 * lib[i].cost,
			     lib[i].file);
		p->ops->mem_free(p, &mem);
		mp_sim_close(p);
	}
}

int main(void)
{
	test_parse_good();
	test_parse_bad();
	test_cpu_info();
	test_private_level();
	test_shared_level();
	test_pingpong();
	test_hybrid();
	test_single();
	test_library();
	return check_done();
}
