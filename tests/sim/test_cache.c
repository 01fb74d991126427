/* SPDX-License-Identifier: MIT */
/*
 * The simulator's caches against hand-worked access sequences: the four
 * replacement policies and bimodal insertion, inclusion, exclusion,
 * no-write-allocate, set mapping at 3, 12-set and 24 ways, and physical
 * indexing over scattered frames.  Lines are named A, B, C...: line i of a
 * region at BASE.
 */
#include <stdlib.h>

#include "sim/simint.h"
#include "tests/check.h"
#include "tests/sim/sim_build.h"

#define BASE 0x40000000ull
#define SPAN (64ull << 20)

static struct mp_sim *build(const char *text)
{
	return sb_build(text, BASE, SPAN, 0, false);
}

/* One access (CHECK evaluates its arguments twice: never an access inside it). */
static void expect_level(struct mp_sim *s, uint64_t va, enum mp_sim_kind kind, int want,
			 const char *what)
{
	int got = mp_sim_access(s, va, kind);

	CHECK_EQ_INT(got, want, what);
}

/* Run a string of lines ('A' = line 0, 64 bytes each) and spell hits and misses in L1. */
static void pattern(struct mp_sim *s, const char *seq, uint64_t line, char *out)
{
	for (size_t i = 0; seq[i]; i++)
		out[i] = mp_sim_access(s, BASE + (uint64_t)(seq[i] - 'A') * line, MP_SIM_LOAD) == 1
				 ? 'h' : 'm';
	out[strlen(seq)] = '\0';
}

/*
 * One set of four ways, sequence A B C D A E A B C D E A.
 * lru:  E evicts B (A was used); B then misses.           mmmmhmhmmmmm
 * fifo: E evicts A (first in) however recently used.      mmmmhmmmmmmm
 * plru: after A's hit the tree points at C's half: E evicts C, so B hits. mmmmhmhhmmhm
 * random, seed 7: the victims xorshift64* draws.           mmmmhmhmhhmh
 */
static void test_replacement(void)
{
	static const struct {
		const char *policy;
		const char *want;
	} cases[] = {
		{ "lru", "mmmmhmhmmmmm" },
		{ "fifo", "mmmmhmmmmmmm" },
		{ "plru", "mmmmhmhhmmhm" },
		{ "random", "mmmmhmhmhhmh" },
	};
	char text[256], got[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text),
			 "cache L1D size=256 line=64 ways=4 latency=1 replacement=%s seed=7\n"
			 "memory latency=100\n", cases[i].policy);
		struct mp_sim *s = build(text);

		if (!s)
			continue;
		pattern(s, "ABCDAEABCDEA", 64, got);
		CHECK_EQ_STR(got, cases[i].want, cases[i].policy);
		mp_sim_free(s);
	}
}

/* Random replacement is repeatable for a seed and differs between seeds. */
static void test_random_seed(void)
{
	const char *seq = "ABCDEFGHABCDEFGHABCDEFGHAEBFCGDH";
	char a[64], b[64], c[64];
	struct mp_sim *s1 = build("cache L1D size=256 line=64 ways=4 latency=1 replacement=random "
				  "seed=3\nmemory latency=100\n");
	struct mp_sim *s2 = build("cache L1D size=256 line=64 ways=4 latency=1 replacement=random "
				  "seed=3\nmemory latency=100\n");
	struct mp_sim *s3 = build("cache L1D size=256 line=64 ways=4 latency=1 replacement=random "
				  "seed=4\nmemory latency=100\n");

	pattern(s1, seq, 64, a);
	pattern(s2, seq, 64, b);
	pattern(s3, seq, 64, c);
	CHECK_EQ_STR(a, b, "random: same seed, same hits");
	CHECK(strcmp(a, c) != 0, "random: another seed, other hits (%s vs %s)", a, c);
	mp_sim_free(s1);
	mp_sim_free(s2);
	mp_sim_free(s3);
}

/*
 * Bimodal: LRU whose fill goes to the LRU end one time in 32.  One set of
 * two ways; a trial loads x, two new lines, then x again.  Under LRU the
 * second new line always evicts x; under bimodal x is spared where the
 * first new line went to the LRU end (and x did not): about 3% of trials.
 */
static uint64_t spared(const char *policy, uint64_t trials)
{
	char text[160];
	uint64_t hits = 0;
	struct mp_sim *s;

	snprintf(text, sizeof(text),
		 "cache L1D size=128 line=64 ways=2 latency=1 replacement=%s seed=5\n"
		 "memory latency=100\n", policy);
	if (!(s = build(text)))
		return UINT64_MAX;
	for (uint64_t i = 0; i < trials; i++) {
		uint64_t x = BASE + 3 * i * 64;

		mp_sim_access(s, x, MP_SIM_LOAD);
		mp_sim_access(s, x + 64, MP_SIM_LOAD);
		mp_sim_access(s, x + 128, MP_SIM_LOAD);
		hits += mp_sim_access(s, x, MP_SIM_LOAD) == 1;
	}
	mp_sim_free(s);
	return hits;
}

static void test_bimodal(void)
{
	uint64_t lru = spared("lru", 2048), bimodal = spared("bimodal", 2048);

	CHECK(lru == 0, "lru: the victim never spared (%llu of 2048)", (unsigned long long)lru);
	CHECK(bimodal >= 2048 / 64 && bimodal <= 2048 / 16,
	      "bimodal: the victim spared in about 1 trial of 32 (%llu of 2048)",
	      (unsigned long long)bimodal);
}

/*
 * Tree PLRU over 3 ways (a 4-leaf tree with one missing leaf): A B C A D A E B.
 * D's victim walk turns away from the missing leaf onto C; E then takes D's
 * way; B survives.  LRU would have evicted B for E.
 */
static void test_plru_three_ways(void)
{
	char got[16];
	struct mp_sim *p = build("cache L1D size=192 line=64 ways=3 latency=1 replacement=plru\n"
				 "memory latency=50\n");
	struct mp_sim *l = build("cache L1D size=192 line=64 ways=3 latency=1\n"
				 "memory latency=50\n");

	pattern(p, "ABCADAEB", 64, got);
	CHECK_EQ_STR(got, "mmmhmhmh", "plru 3 ways");
	pattern(l, "ABCADAEB", 64, got);
	CHECK_EQ_STR(got, "mmmhmhmm", "lru 3 ways");
	mp_sim_free(p);
	mp_sim_free(l);
}

/*
 * Inclusive L2 of four lines under an L1 of three.  A B C, then A hits in
 * L1 (the L2 never hears of it), D fills, E makes the L2 evict its LRU line:
 * A, which leaves the L1 too.  Non-inclusive, the L1 evicts C for E and A
 * still hits there.
 */
static void test_inclusive(void)
{
	static const char *incl[] = { "inclusive", "non-inclusive" };
	static const int want[] = { 0, 1 };
	char text[256];

	for (int i = 0; i < 2; i++) {
		snprintf(text, sizeof(text),
			 "cache L1D size=192 line=64 ways=full latency=1\n"
			 "cache L2 size=256 line=64 ways=full latency=10 inclusion=%s\n"
			 "memory latency=100\n", incl[i]);
		struct mp_sim *s = build(text);
		const char *seq = "ABCADE";

		for (int k = 0; seq[k]; k++)
			mp_sim_access(s, BASE + (uint64_t)(seq[k] - 'A') * 64, MP_SIM_LOAD);
		CHECK(mp_sim_holds(s, "L1D", BASE) == (i == 1), "%s: L1 still holds A: %d", incl[i],
		      mp_sim_holds(s, "L1D", BASE));
		expect_level(s, BASE, MP_SIM_LOAD, want[i], incl[i]);
		mp_sim_free(s);
	}
}

/*
 * Exclusive L2 (two lines) under an L1 of two.  A B fill only the L1; C
 * pushes A down into the L2; A then hits in L2 and moves up, swapping with
 * B.  Cycling four lines, L1 + L2 hold them all: no access reaches memory.
 */
static void test_exclusive(void)
{
	struct mp_sim *s = build("cache L1D size=128 line=64 ways=full latency=1\n"
				 "cache L2 size=128 line=64 ways=full latency=10 "
				 "inclusion=exclusive\nmemory latency=100\n");
	int memory = 0;

	mp_sim_access(s, BASE, MP_SIM_LOAD);
	mp_sim_access(s, BASE + 64, MP_SIM_LOAD);
	CHECK(!mp_sim_holds(s, "L2", BASE), "exclusive: a miss does not fill L2");
	mp_sim_access(s, BASE + 128, MP_SIM_LOAD);
	CHECK(mp_sim_holds(s, "L2", BASE) && !mp_sim_holds(s, "L1D", BASE),
	      "exclusive: the L1 victim A went to L2");
	expect_level(s, BASE, MP_SIM_LOAD, 2, "exclusive: A hits in L2");
	CHECK(!mp_sim_holds(s, "L2", BASE) && mp_sim_holds(s, "L2", BASE + 64),
	      "exclusive: A moved up, B moved down");
	for (int round = 0; round < 4; round++)
		for (uint64_t k = 0; k < 4; k++)
			memory += mp_sim_access(s, BASE + k * 64, MP_SIM_LOAD) == 0;
	CHECK_EQ_INT(memory, 1, "exclusive: four lines fit L1 + L2 (D's first touch only)");
	mp_sim_free(s);
}

/*
 * A victim cache (AMD's L3): exclusive under an inclusive L2.  Lines A B C
 * map to the one set of each level (L1 one line, L2 two, L3 four).  A miss
 * fills L1 and L2 only; B's fill evicts A from the L1 only (an L1 victim
 * does not reach the L3, A is still in the L2); C's fill evicts A from the
 * L2, and the L3 takes it; A's hit there moves it back up.
 */
static void test_victim_cache(void)
{
	struct mp_sim *s = build("cache L1D size=64 line=64 ways=1 latency=1\n"
				 "cache L2 size=128 line=64 ways=2 latency=10 inclusion=inclusive\n"
				 "cache L3 size=256 line=64 ways=4 latency=40 inclusion=exclusive\n"
				 "memory latency=100\n");

	mp_sim_access(s, BASE, MP_SIM_LOAD);
	CHECK(mp_sim_holds(s, "L2", BASE) && !mp_sim_holds(s, "L3", BASE),
	      "victim cache: a miss fills the L2, not the L3");
	mp_sim_access(s, BASE + 64, MP_SIM_LOAD);
	CHECK(!mp_sim_holds(s, "L1D", BASE) && !mp_sim_holds(s, "L3", BASE),
	      "victim cache: an L1 victim does not reach the L3");
	mp_sim_access(s, BASE + 128, MP_SIM_LOAD);
	CHECK(!mp_sim_holds(s, "L2", BASE) && mp_sim_holds(s, "L3", BASE),
	      "victim cache: the L2's victim A is in the L3");
	expect_level(s, BASE, MP_SIM_LOAD, 3, "victim cache: A hits in the L3");
	CHECK(!mp_sim_holds(s, "L3", BASE) && mp_sim_holds(s, "L2", BASE) &&
	      mp_sim_holds(s, "L3", BASE + 64),
	      "victim cache: A moved up, the L2's next victim B moved down");
	mp_sim_free(s);
}

static void test_write_allocate(void)
{
	static const char *policy[] = { "allocate", "no-allocate" };
	char text[256];

	for (int i = 0; i < 2; i++) {
		snprintf(text, sizeof(text),
			 "cache L1D size=4K line=64 ways=4 latency=1 write=%s\n"
			 "cache L2 size=64K line=64 ways=8 latency=10\n"
			 "memory latency=100\n", policy[i]);
		struct mp_sim *s = build(text);

		expect_level(s, BASE, MP_SIM_STORE, 0, "store misses everywhere");
		CHECK(mp_sim_holds(s, "L1D", BASE) == (i == 0), "write=%s: L1 holds the line: %d",
		      policy[i], mp_sim_holds(s, "L1D", BASE));
		CHECK(mp_sim_holds(s, "L2", BASE), "write=%s: L2 (allocate) holds it", policy[i]);
		expect_level(s, BASE, MP_SIM_LOAD, i == 0 ? 1 : 2, policy[i]);
		CHECK_EQ_INT(mp_sim_count(s, MP_EV_STORES), 1, "one store counted");
		mp_sim_free(s);
	}
}

/* Cycle `n` lines `stride` apart `rounds` times; count the misses after the first round. */
static void expect_misses(struct mp_sim *s, uint64_t n, uint64_t stride, int rounds, int want,
			  const char *what)
{
	int misses = 0;

	for (int r = 0; r < rounds; r++)
		for (uint64_t k = 0; k < n; k++) {
			int level = mp_sim_access(s, BASE + k * stride, MP_SIM_LOAD);

			misses += r > 0 && level != 1;
		}
	CHECK_EQ_INT(misses, want, what);
}

/*
 * 3 ways: 3K of 64-byte lines is 16 sets, so lines 1K apart share a set;
 * three fit, four thrash under LRU.  4 ways over 12 sets (3K): 768 bytes
 * apart share a set, and lines 1K apart spread over sets 0, 4, 8, 0, 4.
 * 24 ways, 128-byte lines, 6M (Itanium 2's L3): 2048 sets, 256K apart.
 */
static void test_set_mapping(void)
{
	struct mp_sim *s;

	s = build("cache L1D size=3K line=64 ways=3 latency=1\nmemory latency=100\n");
	expect_misses(s, 3, 1024, 4, 0, "3-way: 3 lines in a set fit");
	expect_misses(s, 4, 1024, 4, 12, "3-way: 4 lines in a set thrash");
	mp_sim_free(s);

	s = build("cache L1D size=3K line=64 ways=4 latency=1\nmemory latency=100\n");
	expect_misses(s, 4, 768, 4, 0, "12 sets: 4 lines 768 apart fit");
	expect_misses(s, 5, 768, 4, 15, "12 sets: 5 lines 768 apart thrash");
	mp_sim_free(s);
	s = build("cache L1D size=3K line=64 ways=4 latency=1\nmemory latency=100\n");
	expect_misses(s, 5, 1024, 4, 0, "12 sets: 5 lines 1K apart spread");
	mp_sim_free(s);

	s = build("cache L1D size=6M line=128 ways=24 latency=1\nmemory latency=100\n");
	expect_misses(s, 24, 256 << 10, 3, 0, "24-way: 24 lines in a set fit");
	expect_misses(s, 25, 256 << 10, 3, 50, "24-way: 25 thrash");
	expect_misses(s, 24, 128 << 10, 3, 0, "24-way: 128K apart use 2 sets");
	mp_sim_free(s);
}

/* The reciprocal remainder against the hardware divide. */
static void test_mod(void)
{
	uint64_t x = 12345, bad = 0;

	for (int i = 0; i < 100000; i++) {
		uint64_t d, n;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		d = (x >> (x & 63)) | 1;
		n = x * 0x9E3779B97F4A7C15ull;
		if (i % 3 == 0)
			d = 3 + i % 1000;
		bad += sim_mod(n, ~(unsigned __int128)0 / d + 1, d) != n % d;
	}
	CHECK_EQ_INT(bad, 0, "reciprocal remainder");
}

/*
 * Scattered frames, direct-mapped 64K cache indexed physically: two pages
 * whose frames agree in address bits 12-15 conflict, whatever their virtual
 * addresses; indexed virtually, pages 64K apart conflict instead.
 */
static void find_pages(struct mp_sim *s, uint64_t *same, uint64_t *other)
{
	uint64_t pa0, pa;

	*same = *other = 0;
	mp_sim_translate(s, BASE, &pa0);
	for (uint64_t v = BASE + 4096; v < BASE + SPAN && (!*same || !*other); v += 4096) {
		mp_sim_translate(s, v, &pa);
		if (((pa ^ pa0) & 0xF000) == 0 && v % 65536 && !*same)
			*same = v;
		if (((pa ^ pa0) & 0xF000) != 0 && (v - BASE) % 65536 == 0 && !*other)
			*other = v;
	}
}

static void test_physical_index(void)
{
	const char *phys = "cache L1D size=64K line=64 ways=1 latency=1 index=physical\n"
			   "memory latency=100\nframes mode=scattered seed=5\n";
	const char *virt = "cache L1D size=64K line=64 ways=1 latency=1 index=virtual\n"
			   "memory latency=100\nframes mode=scattered seed=5\n";
	struct mp_sim *s = build(phys), *v = build(virt);
	uint64_t same, other, pa0, pa1;

	mp_sim_translate(s, BASE, &pa0);
	mp_sim_translate(s, BASE + 4096, &pa1);
	CHECK(pa0 != BASE && pa1 != pa0 + 4096, "scattered: frames are not the identity");
	find_pages(s, &same, &other);
	CHECK(same && other, "found pages with equal and different frame colours");
	mp_sim_access(s, BASE, MP_SIM_LOAD);
	mp_sim_access(s, same, MP_SIM_LOAD);
	expect_level(s, BASE, MP_SIM_LOAD, 0, "physical: same frame colour conflicts");
	mp_sim_access(s, other, MP_SIM_LOAD);
	expect_level(s, BASE, MP_SIM_LOAD, 1, "physical: 64K apart but no conflict");
	mp_sim_access(v, BASE, MP_SIM_LOAD);
	mp_sim_access(v, other, MP_SIM_LOAD);
	expect_level(v, BASE, MP_SIM_LOAD, 0, "virtual: 64K apart conflicts");
	mp_sim_free(s);
	mp_sim_free(v);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_frames_seeded(void)
{
	const char *a = "cache L1D size=4K line=64 ways=4 latency=1\nmemory latency=9\n"
			"frames mode=scattered seed=5\n";
	const char *b = "cache L1D size=4K line=64 ways=4 latency=1\nmemory latency=9\n"
			"frames mode=scattered seed=6\n";
	struct mp_sim *s1 = build(a), *s2 = build(a), *s3 = build(b), *c;
	static uint64_t frames[1024];
	uint64_t p1, p2, p3, same = 0, differ = 0, repeats = 0;

	for (uint64_t i = 0; i < 1024; i++) {
		uint64_t v = BASE + i * 4096;

		mp_sim_translate(s1, v, &p1);
		mp_sim_translate(s2, v, &p2);
		mp_sim_translate(s3, v, &p3);
		same += p1 == p2;
		differ += p1 != p3;
		frames[i] = p1;
	}
	qsort(frames, 1024, sizeof(frames[0]), cmp_u64);
	for (int i = 1; i < 1024; i++)
		repeats += frames[i] == frames[i - 1];
	CHECK_EQ_INT(same, 1024, "scattered: same seed, same frames");
	CHECK(differ > 1000, "scattered: another seed, other frames (%llu)",
	      (unsigned long long)differ);
	CHECK_EQ_INT(repeats, 0, "scattered: no frame given twice");
	c = build("cache L1D size=4K line=64 ways=4 latency=1\nmemory latency=9\n");
	mp_sim_translate(c, BASE + 12345, &p1);
	CHECK_EQ_INT(p1, BASE + 12345, "contiguous: the identity map");
	mp_sim_free(s1);
	mp_sim_free(s2);
	mp_sim_free(s3);
	mp_sim_free(c);
}

int main(void)
{
	test_replacement();
	test_random_seed();
	test_bimodal();
	test_plru_three_ways();
	test_inclusive();
	test_exclusive();
	test_victim_cache();
	test_write_allocate();
	test_set_mapping();
	test_mod();
	test_physical_index();
	test_frames_seeded();
	return check_done();
}
