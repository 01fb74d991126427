/* SPDX-License-Identifier: MIT */
/*
 * Model files: every model in the library loads and says where it comes
 * from; defaults and naming rules; malformed files are rejected with a
 * message naming the line and the problem; and a deterministic mutation
 * fuzzer over the library's texts never crashes the parser.
 */
#include <dirent.h>
#include <stdlib.h>

#include "sim/sim.h"
#include "tests/check.h"

#define MODELS "sim/models"

static const char *required[] = {
	"p5-133", "pentium-pro-200", "pentium-ii-233", "ultrasparc-i-167", "r10000-225",
	"itanium2-1500", "opteron-240", "athlon-mp-2800", "pentium4-2200", "power3-375",
	"cortex-a9", "sapphire-rapids", "icelake-sp", "zen4", "power9", "apple-m1-like",
	"core-i7-4770",
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = malloc(1 << 16);

	*len = f && text ? fread(text, 1, (1 << 16) - 1, f) : 0;
	if (f)
		fclose(f);
	if (text)
		text[*len] = '\0';
	return text;
}

static const struct mp_sim_cache_model *cache(const struct mp_sim_model *m, const char *name)
{
	for (int i = 0; i < m->ncaches; i++)
		if (!strcmp(m->caches[i].name, name))
			return &m->caches[i];
	return NULL;
}

static int load_one(const char *file, struct mp_sim_model *m)
{
	char path[512], err[256];
	size_t len;
	char *text;
	struct mp_sim *s;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", MODELS, file);
	ok = mp_sim_model_load(m, path, err, sizeof(err)) == 0;
	CHECK(ok, "%s loads%s%s", file, ok ? "" : ": ", ok ? "" : err);
	if (!ok)
		return 0;
	text = slurp(path, &len);
	CHECK(text && text[0] == '#' && strstr(text, "Source"), "%s names its source", file);
	free(text);
	s = mp_sim_new(m);
	CHECK(s != NULL, "%s builds", file);
	mp_sim_free(s);
	return 1;
}

static void test_library(void)
{
	static struct mp_sim_model m;
	DIR *d = opendir(MODELS);
	struct dirent *e;
	unsigned found = 0, loaded = 0;

	CHECK(d != NULL, "the model library exists");
	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n < 7 || strcmp(e->d_name + n - 6, ".model"))
			continue;
		loaded += load_one(e->d_name, &m);
		for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
			found += !strcmp(m.name, required[i]);
	}
	if (d)
		closedir(d);
	CHECK_EQ_INT(found, sizeof(required) / sizeof(required[0]), "every required model");
	CHECK(loaded >= 17, "%u models load", loaded);
}

static void load(struct mp_sim_model *m, const char *name)
{
	char path[512], err[256];

	snprintf(path, sizeof(path), "%s/%s.model", MODELS, name);
	if (mp_sim_model_load(m, path, err, sizeof(err)) < 0)
		memset(m, 0, sizeof(*m));
}

static void test_library_facts(void)
{
	static struct mp_sim_model m;
	static struct mp_documented d;
	const struct mp_sim_cache_model *c;

	load(&m, "itanium2-1500");
	c = cache(&m, "L3");
	CHECK(c && c->ways == 24 && c->line == 128 && c->size == 6 << 20, "Itanium 2 L3");
	load(&m, "power3-375");
	c = cache(&m, "L1D");
	CHECK(c && c->ways == 128 && c->line == 128, "Power3 L1D 128-way, 128 B");
	load(&m, "opteron-240");
	c = cache(&m, "L2");
	CHECK(c && c->inclusion == MP_INCL_EXCLUSIVE, "Opteron L2 exclusive");
	mp_sim_model_document(&m, &d);
	CHECK_EQ_STR(d.source, "model opteron-240", "documented source");
	CHECK(d.ncaches == 3 && d.caches[2].effective_size_bytes == 1088 << 10,
	      "exclusive L2: effective size is L1 + L2");
	load(&m, "athlon-mp-2800");
	c = cache(&m, "L2");
	CHECK(c && c->inclusion == MP_INCL_EXCLUSIVE && c->size == 512 << 10, "Athlon MP L2");
	load(&m, "zen4");
	c = cache(&m, "L2");
	CHECK(c && c->inclusion == MP_INCL_INCLUSIVE && c->size == 1 << 20 && c->ways == 8,
	      "Zen 4 L2");
	CHECK(m.ntlbs > 0 && m.tlbs[0].entries == 72 && m.tlbs[0].ways == 72, "Zen 4 DTLB 72 full");
	c = cache(&m, "L3");
	CHECK(c && c->inclusion == MP_INCL_EXCLUSIVE && c->size == 32 << 20 && c->ways == 16 &&
	      c->slices == 8 && c->hash == MP_SIM_HASH_RANDOM,
	      "Zen 4 L3: 32M 16-way victim cache, 8 slices, hashed");
	load(&m, "sapphire-rapids");
	c = cache(&m, "L1D");
	CHECK(c && c->size == 48 << 10 && c->ways == 12, "Sapphire Rapids L1D 48K 12-way");
	c = cache(&m, "L3");
	CHECK(c && c->slices == 60 && c->size == 60 * (1920ull << 10) && c->ways == 15 &&
	      c->hash == MP_SIM_HASH_RANDOM && c->inclusion == MP_INCL_NONINCLUSIVE,
	      "Sapphire Rapids L3: 60 slices of 1.875M, 15-way, non-inclusive, hash=random");
	load(&m, "core-i7-4770");
	c = cache(&m, "L3");
	CHECK(c && c->slices == 4 && c->hash == MP_SIM_HASH_XOR && c->nmasks == 2 &&
	      c->masks[0] == 0x1b5f575440ull && c->masks[1] == 0x2eb5faa880ull &&
	      c->inclusion == MP_INCL_INCLUSIVE && c->size == 8 << 20,
	      "Core i7-4770 L3: 8M inclusive over 4 slices by Maurice et al.'s xor hash");
	load(&m, "icelake-sp");
	c = cache(&m, "L3");
	CHECK(c && c->ways == 12 && mp_sim_cache_sets(c) % 2 == 0 &&
	      (mp_sim_cache_sets(c) & (mp_sim_cache_sets(c) - 1)) != 0,
	      "Ice Lake-SP L3: 12 ways over a set count that is no power of two");
	CHECK(c && c->slices == 40 && c->hash == MP_SIM_HASH_RANDOM &&
	      mp_sim_cache_sets(c) / c->slices == 2048,
	      "Ice Lake-SP L3: 40 slices of 2048 sets, hash=random");
	c = cache(&m, "L2");
	CHECK(c && c->ways == 20 && c->size == 1280 << 10, "Ice Lake-SP L2 1.25M 20-way");
	load(&m, "power9");
	c = cache(&m, "L3");
	CHECK(c && c->line == 128 && c->ways == 20, "POWER9 L3 128 B lines, 20 ways");
}

static int parse(const char *text, struct mp_sim_model *m, char *err, size_t len)
{
	return mp_sim_model_parse(m, "test.model", text, strlen(text), err, len);
}

static void test_defaults(void)
{
	static struct mp_sim_model m;
	char err[256];
	int rc = parse("cache L1D size=32K line=64 ways=8 latency=4\n"
		       "cache L2 size=1M line=64 ways=16 latency=12\nmemory latency=200\n",
		       &m, err, sizeof(err));

	CHECK_EQ_INT(rc, 0, "minimal model parses");
	CHECK_EQ_STR(m.name, "test", "name from the file");
	CHECK(m.clock_hz == MP_SIM_DEFAULT_HZ && m.clock_step_x100 == 100,
	      "clock 1 GHz by default, read every cycle");
	CHECK(m.caches[0].replacement == MP_REPL_LRU && m.caches[0].write_allocate &&
	      m.caches[0].inclusion == MP_INCL_NONINCLUSIVE, "lru, allocate, non-inclusive");
	CHECK(!m.caches[0].physical && m.caches[1].physical, "L1 virtual, L2 physical");
	CHECK(m.caches[0].type == MP_KIND_DATA && m.caches[1].type == MP_KIND_UNIFIED &&
	      m.caches[1].level == 2, "types and levels from names");
	CHECK(m.prefetch.kind == MP_SIM_PF_NONE && m.noise.rate == 0 &&
	      m.frames.mode == MP_SIM_FRAMES_CONTIGUOUS, "no prefetch, no noise, contiguous");
	CHECK(m.counters == 0, "no limit on the events one run counts");
	rc = parse("cache L1D size=32K line=64 ways=8 latency=4\nmemory latency=200\n"
		   "pmu counters=4\n", &m, err, sizeof(err));
	CHECK(rc == 0 && m.counters == 4, "pmu counters=4: %s", rc ? err : "ok");
}

static void test_naming(void)
{
	static struct mp_sim_model m;
	char err[256];
	int rc = parse("name = naming test\n"
		       "clock freq=2.5GHz step=26\n"
		       "cache L1I size=32K line=64 ways=full latency=4  # comment\n"
		       "cache WEIRD size=96K line=64 ways=12 latency=4 level=1 type=data\n"
		       "cache L3 size=3M line=64 ways=12 latency=40 index=virtual\n"
		       "tlb DTLB1-2M entries=32 ways=4 page=2M latency=7\n"
		       "tlb ITLB entries=64 ways=4 page=4K latency=7\n"
		       "tlb STLB entries=1536 ways=12 page=2M latency=30 type=unified\n"
		       "tlb DTLB1 entries=64 ways=4 page=4K latency=7 level=3\n"
		       "memory latency=100\n", &m, err, sizeof(err));

	CHECK(rc == 0, "naming model parses: %s", rc ? err : "ok");
	CHECK_EQ_STR(m.name, "naming test", "name = with spaces");
	CHECK(m.clock_hz == 2500000000ull && m.clock_step_x100 == 2600, "clock 2.5GHz, in steps of 26");
	CHECK(m.caches[0].type == MP_KIND_INSTRUCTION && m.caches[0].ways == 512,
	      "L1I, fully associative: ways = lines");
	CHECK(m.caches[1].level == 1 && m.caches[1].type == MP_KIND_DATA &&
	      m.caches[1].size == 96 << 10, "level= and type= name a cache; 96K");
	CHECK(m.caches[2].level == 3 && !m.caches[2].physical, "index= overrides the default");
	CHECK(m.tlbs[0].level == 1 && m.tlbs[0].type == MP_KIND_DATA, "DTLB1-2M: level 1 data");
	CHECK(m.tlbs[1].level == 2 && m.tlbs[1].type == MP_KIND_INSTRUCTION, "ITLB: level 2");
	CHECK(m.tlbs[2].level == 2 && m.tlbs[2].type == MP_KIND_UNIFIED, "STLB unified level 2");
	CHECK(m.tlbs[3].level == 3, "level= overrides the digit");
}

/* Each text and the message it must produce. */
static const struct {
	const char *text;
	const char *message;
} bad[] = {
	{ "cache L1D size=32K line=64 ways=8\nmemory latency=1\n",
	  "test.model:1: cache L1D: missing latency=" },
	{ "# a comment\n\ncache L1D size=32Q line=64 ways=8 latency=4\n",
	  "test.model:3: cache L1D: bad size '32Q' (want a size such as 64, 32K or 1M)" },
	{ "cachee L1D size=32K\n", "test.model:1: unknown statement 'cachee' (cache, tlb, memory, "
	  "clock, prefetch, noise, neighbour, frames, pmu, isa, op, cpu or name)" },
	{ "isa vector=512\nop fp-fma latency=4\nmemory latency=9\n",
	  "test.model:2: op: needs latency= and throughput=" },
	{ "op fp-fma width=256 latency=4 throughput=2\nmemory latency=9\n",
	  "test.model:1: op: width= is wider than isa vector= 'fp-fma'" },
	{ "op fp-sqrt latency=4 throughput=2\nmemory latency=9\n",
	  "test.model:1: op: unknown operation (int-add, int-mul, int-div, fp-add, fp-mul, "
	  "fp-div, fp-fma) 'fp-sqrt'" },
	{ "isa vector=96\nmemory latency=9\n",
	  "test.model:1: isa: vector= is 0, 128, 256 or 512, not '96'" },
	{ "op int-add latency=1 throughput=0\nmemory latency=9\n",
	  "test.model:1: op: throughput= wants 0 to 64, not '0'" },
	{ "cache L1D size=32K line=64 ways=8 latency=4\n",
	  "test.model: no 'memory latency=CYCLES' line" },
	{ "cache FOO size=32K line=64 ways=8 latency=4\n",
	  "test.model:1: cache FOO: the name does not say the level (L1D, L2, ...); add level=" },
	{ "cache L1D size=32K line=48 ways=8 latency=4\n",
	  "test.model:1: cache L1D: line=48 is not a power of two of at least 8" },
	{ "cache L1D size=32K line=64 ways=7 latency=4\n",
	  "test.model:1: cache L1D: 512 lines do not divide into sets of 7 ways" },
	{ "cache L1D size=1000 line=64 ways=1 latency=4\n",
	  "test.model:1: cache L1D: size=1000 is not a multiple of line=64" },
	{ "cache L1D size=32K line=64 ways=8 latency=4 size=64K\n",
	  "test.model:1: cache L1D: size= given twice" },
	{ "cache L1D size=32K line=64 ways=8 latency=4 colour=red\n",
	  "test.model:1: cache L1D: unknown key 'colour'" },
	{ "cache L1D size=32K line=64 ways=8 latency\n",
	  "test.model:1: cache L1D: expected key=value, got 'latency'" },
	{ "cache L1D size=32K line=64 ways=8 latency=4 replacement=mru\n",
	  "test.model:1: cache L1D: bad replacement 'mru' (want one of lru, plru, fifo, random, bimodal)" },
	{ "cache L1D size=32K line=64 ways=8 latency=4\n"
	  "cache L1D size=32K line=64 ways=8 latency=4\nmemory latency=9\n",
	  "test.model:2: cache L1D is defined twice" },
	{ "cache L1D size=32K line=64 ways=8 latency=4\n"
	  "cache L1 size=32K line=64 ways=8 latency=4\nmemory latency=9\n",
	  "test.model:2: caches L1D and L1 are both level 1 for data" },
	{ "cache L1D size=32K line=64 ways=8 latency=4 inclusion=exclusive\nmemory latency=9\n",
	  "test.model:1: cache L1D: inclusion=exclusive needs a cache level above it" },
	{ "tlb STLB entries=64 ways=4 page=4K latency=9\n",
	  "test.model:1: tlb STLB: the name does not say the type (DTLB, ITLB); add type=" },
	{ "tlb DTLB1 entries=64 ways=4 page=3K latency=9\n",
	  "test.model:1: tlb DTLB1: page=3072 is not a power of two of at least 1K" },
	{ "neighbour entries=2 on=0 off=10\n",
	  "test.model:1: neighbour: on=, off= and every= must be at least 1" },
	{ "neighbour on=10 off=10\n",
	  "test.model:1: neighbour: entries= or ways= must be at least 1" },
	{ "neighbour entries=2 on=10 off=10 set=3\n", "test.model:1: neighbour: set= needs ways=" },
	{ "neighbour ways=2 on=10 off=10 extra=1 extra_on=10\n",
	  "test.model:1: neighbour: extra= needs ways=, and extra_on= and extra_off= of at least 1" },
	{ "cache L1D size=32K line=64 ways=8 latency=4\ncache L2 size=256K line=64 ways=8 "
	  "latency=12\nmemory latency=9\nneighbour ways=1 on=10 off=10 set=512\n",
	  "test.model: neighbour set=512: cache L2 has 512 sets" },
	{ "cache L1D size=32K line=64 ways=8 latency=4\nmemory latency=9\ncpu cores=2\n"
	  "neighbour ways=1 on=10 off=10 cpu=2\n",
	  "test.model: neighbour cpu=2: the model has 2 CPUs" },
	{ "noise rate=2 cycles=10\n",
	  "test.model:1: noise: bad rate '2' (want a fraction from 0 to 1)" },
	{ "cache L1D size=32K line=64 ways=8 latency=4\nmemory latency=9\n"
	  "prefetch kind=stride level=3\n",
	  "test.model: prefetch level=3: no level-3 cache holds data" },
	{ "name zen\n", "test.model:1: expected 'name = VALUE'" },
	{ "pmu counters=0\n",
	  "test.model:1: pmu: counters=0 counts nothing (leave the line out for no limit)" },
	{ "pmu\n", "test.model:1: pmu: missing counters=" },
	{ "frames mode=shuffled\n",
	  "test.model:1: frames: bad mode 'shuffled' (want one of contiguous, scattered)" },
	{ "memory latency=9\ntlb DTLB1 entries=64 ways=4 page=4K level=1 latency=7\n"
	  "frames mode=scattered host=2M\n",
	  "test.model: frames host=2048K: the host's frames are the base page (4K)" },
	{ "clock freq=fast\n",
	  "test.model:1: clock: bad freq 'fast' (want a frequency such as 2400M or 3.2G)" },
	{ "clock freq=2G step=0\n",
	  "test.model:1: clock: bad step '0' (want cycles from 1, up to two decimals (26, 24.45))" },
	{ "clock freq=2G step=24.456\n",
	  "test.model:1: clock: bad step '24.456' (want cycles from 1, up to two decimals (26, 24.45))" },
	{ "cache L1D=32K\n", "test.model:1: cache needs a name before its key=value pairs" },
	{ "memory latency=9\ncache L1D size=32K line=64 ways=8 latency=4 level=9\n",
	  "test.model:2: cache L1D: bad level '9' (want a level from 1 to 8)" },
};

/* op lines: no width gives every width up to isa vector=, a later width= line overrides one. */
static void test_ops(void)
{
	static const char *text = "isa vector=256\n"
				  "op fp-add latency=3 throughput=2\n"
				  "op fp-add width=256 latency=5 throughput=0.5\n"
				  "op int-div width=64 latency=14 throughput=0.125\n"
				  "memory latency=9\n";
	struct mp_sim_model m;
	char err[256];

	CHECK(mp_sim_model_parse(&m, "ops", text, strlen(text), err, sizeof(err)) == 0, "%s", err);
	CHECK_EQ_INT(m.vector_bits, 256, "isa vector=256");
	CHECK(m.ops[MP_ARITH_FP_ADD][0].set && m.ops[MP_ARITH_FP_ADD][0].latency == 3 &&
	      m.ops[MP_ARITH_FP_ADD][1].set && m.ops[MP_ARITH_FP_ADD][1].throughput == 2,
	      "an op line without width: scalar and 128 bits");
	CHECK(m.ops[MP_ARITH_FP_ADD][2].latency == 5 && m.ops[MP_ARITH_FP_ADD][2].throughput == 0.5,
	      "a width= line overrides its width");
	CHECK(!m.ops[MP_ARITH_FP_ADD][3].set, "nothing wider than isa vector=");
	CHECK(m.ops[MP_ARITH_INT_DIV][0].set && !m.ops[MP_ARITH_INT_DIV][1].set,
	      "width=64: scalar only");
	CHECK(!m.ops[MP_ARITH_FP_FMA][0].set, "an operation no line gives does not exist");
}

static void test_malformed(void)
{
	static struct mp_sim_model m;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = parse(bad[i].text, &m, err, sizeof(err));

		CHECK(rc < 0 && !strcmp(err, bad[i].message), "rejected: \"%s\" (got \"%s\")",
		      bad[i].message, rc < 0 ? err : "accepted");
	}
}

static uint64_t fuzz_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* One random edit: delete, insert or replace a byte, or cut the text short. */
static size_t mutate(char *t, size_t n, size_t cap, uint64_t *x)
{
	static const char alphabet[] = "0123456789=#\n KMGxfulL.-_abcdeinprstwyz\t\0\377";
	size_t at = n ? fuzz_rand(x) % n : 0;
	char c = alphabet[fuzz_rand(x) % (sizeof(alphabet) - 1)];

	switch (fuzz_rand(x) % 5) {
	case 0:
		if (n)
			memmove(t + at, t + at + 1, n-- - at - 1);
		break;
	case 1:
		if (n + 1 < cap) {
			memmove(t + at + 1, t + at, n++ - at);
			t[at] = c;
		}
		break;
	case 2:
		if (n)
			t[at] = c;
		break;
	case 3:
		if (n)
			t[at] = (char)('0' + fuzz_rand(x) % 10);
		break;
	default:
		n = at;
	}
	return n;
}

static bool small(const struct mp_sim_model *m)
{
	uint64_t lines = 0;

	for (int i = 0; i < m->ncaches; i++)
		lines += m->caches[i].size / m->caches[i].line;
	for (int i = 0; i < m->ntlbs; i++)
		lines += m->tlbs[i].entries;
	return lines < (1u << 20);
}

/* A model that parses must also run. */
static void exercise(const struct mp_sim_model *m, uint64_t *x)
{
	struct mp_sim *s;

	if (!small(m) || !(s = mp_sim_new(m)))
		return;
	mp_sim_map(s, 1ull << 30, 1 << 20, 0, false);
	mp_sim_explain(s, fuzz_rand(x) & 1);
	for (int i = 0; i < 300; i++)
		mp_sim_access(s, (1ull << 30) + fuzz_rand(x) % (1 << 20),
			      (enum mp_sim_kind)(fuzz_rand(x) % 3));
	mp_sim_free(s);
}

static void test_fuzz(void)
{
	static struct mp_sim_model m;
	static char text[1 << 16], work[1 << 16];
	unsigned accepted = 0, rejected = 0, bad_message = 0;
	uint64_t x = 0x5eed;
	char err[256];

	for (size_t f = 0; f < sizeof(required) / sizeof(required[0]); f++) {
		char path[512];
		size_t len;
		char *t;

		snprintf(path, sizeof(path), "%s/%s.model", MODELS, required[f]);
		t = slurp(path, &len);
		if (!t)
			continue;
		memcpy(text, t, len);
		free(t);
		for (int round = 0; round < 400; round++) {
			size_t n = len;
			int edits = 1 + (int)(fuzz_rand(&x) % 4);

			memcpy(work, text, len);
			while (edits--)
				n = mutate(work, n, sizeof(work), &x);
			err[0] = '\0';
			if (mp_sim_model_parse(&m, "fuzz", work, n, err, sizeof(err)) == 0) {
				accepted++;
				exercise(&m, &x);
			} else {
				rejected++;
				bad_message += strncmp(err, "fuzz", 4) != 0 || !strstr(err, ": ");
			}
		}
	}
	CHECK(accepted > 100 && rejected > 100, "fuzz: %u accepted, %u rejected", accepted,
	      rejected);
	CHECK_EQ_INT(bad_message, 0, "fuzz: every rejection names the file and the problem");
}

int main(void)
{
	test_library();
	test_library_facts();
	test_defaults();
	test_naming();
	test_ops();
	test_malformed();
	test_fuzz();
	return check_done();
}
