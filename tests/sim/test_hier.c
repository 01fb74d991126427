/* SPDX-License-Identifier: MIT */
/*
 * The simulator beyond one cache: TLB levels and page crossing, page sizes,
 * timing, counters, the prefetcher, noise, the neighbour and MemSpy's causes of misses,
 * each against a hand-worked sequence.
 */
#include "sim/sim.h"
#include "tests/check.h"
#include "tests/sim/sim_build.h"

#define BASE 0x40000000ull
#define PAGE 4096ull

static struct mp_sim *build(const char *text, uint64_t page)
{
	return sb_build(text, BASE, 64ull << 20, page, false);
}

static void expect_level(struct mp_sim *s, uint64_t va, enum mp_sim_kind kind, int want,
			 const char *what)
{
	int got = mp_sim_access(s, va, kind);

	CHECK_EQ_INT(got, want, what);
}

static void expect_count(struct mp_sim *s, enum mp_event e, uint64_t want, const char *what)
{
	uint64_t got = mp_sim_count(s, e);

	CHECK_EQ_INT(got, want, what);
}

/*
 * DTLB1: 2 entries, fully associative, a miss adds 10; DTLB2: 8 entries in
 * 2-way sets, a miss adds 30.  Page 0 at offsets 0, 64 and 4095, then
 * pages 1 and 2 (page 2 pushes page 0 out of DTLB1), then page 0 again:
 *   cycles 140 (10+30+100) + 100 + 100 + 140 + 140 + 11 (10 + an L1 hit).
 */
static const char *tlb_model =
	"cache L1D size=4K line=64 ways=4 latency=1\n"
	"tlb DTLB1 entries=2 ways=full page=4K latency=10\n"
	"tlb DTLB2 entries=8 ways=2 page=4K latency=30\n"
	"memory latency=100\n";

static void test_tlb_levels(void)
{
	struct mp_sim *s = build(tlb_model, 0);
	static const uint64_t va[] = { 0, 64, PAGE - 1, PAGE, 2 * PAGE, 0 };

	for (size_t i = 0; i < sizeof(va) / sizeof(va[0]); i++)
		mp_sim_access(s, BASE + va[i], MP_SIM_LOAD);
	expect_count(s, MP_EV_DTLB1_MISS, 4, "DTLB1 misses: pages 0, 1, 2, 0 again");
	expect_count(s, MP_EV_DTLB2_MISS, 3, "DTLB2 misses: pages 0, 1, 2");
	expect_count(s, MP_EV_CYCLES, 631, "cycles with TLB misses");
	expect_count(s, MP_EV_L1D_MISS, 5, "L1D misses");
	expect_count(s, MP_EV_LOADS, 6, "loads");
	expect_count(s, MP_EV_INSTRUCTIONS, 6, "instructions");
	CHECK(mp_sim_holds(s, "DTLB1", BASE) && !mp_sim_holds(s, "DTLB1", BASE + PAGE),
	      "DTLB1 holds pages 0 and 2");
	mp_sim_free(s);
}

/* The last byte of a page and the first of the next are two translations. */
static void test_page_crossing(void)
{
	struct mp_sim *s = build(tlb_model, 0);

	mp_sim_access(s, BASE + PAGE - 8, MP_SIM_LOAD);
	expect_count(s, MP_EV_DTLB1_MISS, 1, "first page");
	mp_sim_access(s, BASE + PAGE - 1, MP_SIM_LOAD);
	expect_count(s, MP_EV_DTLB1_MISS, 1, "same page");
	mp_sim_access(s, BASE + PAGE, MP_SIM_LOAD);
	expect_count(s, MP_EV_DTLB1_MISS, 2, "next page");
	mp_sim_free(s);
}

static void test_page_sizes(void)
{
	const char *both = "cache L1D size=4K line=64 ways=4 latency=1\n"
			   "tlb DTLB1 entries=4 ways=full page=4K latency=10\n"
			   "tlb DTLB1-2M entries=2 ways=full page=2M latency=20\n"
			   "memory latency=100\n";
	struct mp_sim *s = build(both, 2 << 20), *t = build(tlb_model, 2 << 20);
	uint64_t got;

	got = mp_sim_map(s, BASE + (128 << 20), 4 << 20, 2 << 20, false);
	CHECK_EQ_INT(got, 2 << 20, "2M pages where a TLB maps them");
	got = mp_sim_map(t, BASE + (128 << 20), 4 << 20, 2 << 20, false);
	CHECK_EQ_INT(got, PAGE, "the base page where none does");
	for (uint64_t off = 0; off < (2 << 20); off += 64 * PAGE)
		mp_sim_access(s, BASE + off, MP_SIM_LOAD);
	expect_count(s, MP_EV_DTLB1_MISS, 1, "one 2M page, one DTLB miss");
	expect_count(s, MP_EV_CYCLES, 20 + 8 * 100, "its miss costs the 2M TLB's 20");
	mp_sim_free(s);
	mp_sim_free(t);
}

static void test_fetch(void)
{
	struct mp_sim *s = build("cache L1D size=4K line=64 ways=4 latency=1\n"
				 "cache L1I size=4K line=64 ways=4 latency=2\n"
				 "cache L2 size=64K line=64 ways=8 latency=10\n"
				 "tlb ITLB1 entries=4 ways=full page=4K latency=5\n"
				 "memory latency=100\n", 0);

	expect_level(s, BASE, MP_SIM_FETCH, 0, "fetch misses");
	expect_level(s, BASE, MP_SIM_FETCH, 1, "fetch hits L1I");
	expect_level(s, BASE, MP_SIM_LOAD, 2, "a load finds the line in L2, not L1I");
	expect_count(s, MP_EV_L1I_MISS, 1, "L1I misses");
	expect_count(s, MP_EV_L1D_MISS, 1, "L1D misses");
	expect_count(s, MP_EV_L2_MISS, 1, "L2 misses");
	expect_count(s, MP_EV_ITLB1_MISS, 1, "ITLB1 misses");
	expect_count(s, MP_EV_CYCLES, 5 + 100 + 2 + 10, "cycles");
	CHECK_EQ_INT(mp_sim_events(s) & MP_EV_BIT(MP_EV_DTLB1_MISS), 0, "no DTLB: not counted");
	CHECK(mp_sim_events(s) & MP_EV_BIT(MP_EV_ITLB1_MISS), "ITLB1 misses counted");
	mp_sim_free(s);
}

/* One L1 and memory: the prefetchers' model, its `prefetch` line after. */
#define PREFETCH_L1 "cache L1D size=32K line=64 ways=8 latency=1\nmemory latency=100\n"

static void test_prefetch(void)
{
	const char *next = PREFETCH_L1 "prefetch kind=next-line level=1\n";
	const char *stride = PREFETCH_L1 "prefetch kind=stride level=1 degree=1\n";
	const char *adjacent = PREFETCH_L1 "prefetch kind=adjacent level=1\n";
	struct mp_sim *s = build(next, 0);
	char got[17];

	expect_level(s, BASE, MP_SIM_LOAD, 0, "next-line: the miss");
	expect_level(s, BASE + 64, MP_SIM_LOAD, 1, "next-line: the next line was fetched");
	expect_count(s, MP_EV_L1D_MISS, 1, "prefetches are not counted");
	mp_sim_free(s);

	/* stride 256 from the middle of a page: the third access confirms the
	 * step, so the fourth hits; the prefetch for the next page's first line is
	 * not made, so that one misses and the stream goes on */
	s = build(stride, 0);
	for (int i = 0; i < 16; i++)
		got[i] = (char)('0' + mp_sim_access(s, BASE + 2048 + 256 * (uint64_t)i,
						   MP_SIM_LOAD));
	got[16] = '\0';
	CHECK_EQ_STR(got, "0001111101111111", "stride: hits once confirmed, not across a page");
	mp_sim_free(s);

	s = build(adjacent, 0);
	expect_level(s, BASE + 64, MP_SIM_LOAD, 0, "adjacent: the miss (odd line)");
	expect_level(s, BASE, MP_SIM_LOAD, 1, "adjacent: its pair below was fetched");
	expect_level(s, BASE + 128, MP_SIM_LOAD, 0, "adjacent: the line after the pair was not");
	expect_level(s, BASE + 192, MP_SIM_LOAD, 1, "adjacent: the pair above an even line");
	mp_sim_free(s);
}

static void test_noise(void)
{
	const char *text = "cache L1D size=4K line=64 ways=4 latency=1\nmemory latency=100\n"
			   "noise rate=1 cycles=1000 lines=4 seed=3\n";
	const char *rare = "cache L1D size=4K line=64 ways=4 latency=1\nmemory latency=100\n"
			   "noise rate=0.01 cycles=1000 seed=%d\n";
	struct mp_sim *s = build(text, 0), *a, *b, *c;
	char model[256];
	uint64_t ca, cb, cc;

	mp_sim_access(s, BASE, MP_SIM_LOAD);
	expect_count(s, MP_EV_CYCLES, 1100, "a disturbance per access adds its cycles");
	snprintf(model, sizeof(model), rare, 1);
	a = build(model, 0);
	b = build(model, 0);
	snprintf(model, sizeof(model), rare, 2);
	c = build(model, 0);
	for (int i = 0; i < 10000; i++) {
		uint64_t va = BASE + (uint64_t)(i % 48) * 64;

		mp_sim_access(a, va, MP_SIM_LOAD);
		mp_sim_access(b, va, MP_SIM_LOAD);
		mp_sim_access(c, va, MP_SIM_LOAD);
	}
	ca = mp_sim_cycles(a);
	cb = mp_sim_cycles(b);
	cc = mp_sim_cycles(c);
	CHECK(ca == cb, "noise: same seed, same time (%llu, %llu)", (unsigned long long)ca,
	      (unsigned long long)cb);
	CHECK(ca != cc, "noise: another seed, another time");
	CHECK(ca > 10000 + 50 * 1000, "noise: about 100 disturbances (%llu cycles)",
	      (unsigned long long)ca);
	mp_sim_free(s);
	mp_sim_free(a);
	mp_sim_free(b);
	mp_sim_free(c);
}

static void causes(struct mp_sim *s, const char *cache, uint64_t *out)
{
	mp_sim_causes(s, "p", "r", cache, out);
}

/*
 * Direct-mapped, 4 lines: A and E (256 bytes apart) share a line: after two
 * cold misses every miss is a conflict (a fully associative cache of 4 lines
 * holds both).  Fully associative LRU, 4 lines, cycling 5: capacity.
 */
static void test_causes(void)
{
	struct mp_sim *s = build("cache L1D size=256 line=64 ways=1 latency=1\n"
				 "memory latency=100\n", 0);
	uint64_t c[MP_SIM_NCAUSES];

	mp_sim_explain(s, true);
	mp_sim_set_probe(s, "p");
	mp_sim_set_region(s, "r");
	for (int i = 0; i < 10; i++)
		mp_sim_access(s, BASE + (i & 1) * 256, MP_SIM_LOAD);
	causes(s, "L1D", c);
	CHECK(c[MP_SIM_COLD] == 2 && c[MP_SIM_CONFLICT] == 8 && c[MP_SIM_CAPACITY] == 0,
	      "conflict: cold %llu conflict %llu capacity %llu", (unsigned long long)c[0],
	      (unsigned long long)c[2], (unsigned long long)c[1]);
	mp_sim_flush_all(s);
	mp_sim_access(s, BASE, MP_SIM_LOAD);
	causes(s, "L1D", c);
	CHECK_EQ_INT(c[MP_SIM_COLD], 3, "after a flush a miss is cold again");
	mp_sim_free(s);

	s = build("cache L1D size=256 line=64 ways=full latency=1\nmemory latency=100\n", 0);
	mp_sim_explain(s, true);
	mp_sim_set_probe(s, "p");
	mp_sim_set_region(s, "r");
	for (int i = 0; i < 15; i++)
		mp_sim_access(s, BASE + (uint64_t)(i % 5) * 64, MP_SIM_LOAD);
	causes(s, "L1D", c);
	CHECK(c[MP_SIM_COLD] == 5 && c[MP_SIM_CAPACITY] == 10 && c[MP_SIM_CONFLICT] == 0,
	      "capacity: cold %llu capacity %llu conflict %llu", (unsigned long long)c[0],
	      (unsigned long long)c[1], (unsigned long long)c[2]);
	mp_sim_set_region(s, "other");
	mp_sim_access(s, BASE + 5 * 64, MP_SIM_LOAD);
	causes(s, "L1D", c);
	CHECK_EQ_INT(c[MP_SIM_COLD], 5, "another region counts apart");
	mp_sim_free(s);
}

/* The inclusive case of test_sim_cache: A's next L1 miss is an invalidation. */
static void test_causes_invalidation(void)
{
	struct mp_sim *s = build("cache L1D size=192 line=64 ways=full latency=1\n"
				 "cache L2 size=256 line=64 ways=full latency=10 "
				 "inclusion=inclusive\nmemory latency=100\n", 0);
	uint64_t c[MP_SIM_NCAUSES];
	const char *seq = "ABCADEA";

	mp_sim_explain(s, true);
	mp_sim_set_probe(s, "p");
	mp_sim_set_region(s, "r");
	for (int k = 0; seq[k]; k++)
		mp_sim_access(s, BASE + (uint64_t)(seq[k] - 'A') * 64, MP_SIM_LOAD);
	causes(s, "L1D", c);
	CHECK_EQ_INT(c[MP_SIM_INVALIDATION], 1, "L1D: A was invalidated by inclusion");
	causes(s, "L2", c);
	CHECK_EQ_INT(c[MP_SIM_CAPACITY], 1, "L2: A was replaced (4 lines, 5 in use)");
	mp_sim_free(s);
}

static void test_noise_cause(void)
{
	struct mp_sim *s = build("cache L1D size=64 line=64 ways=1 latency=1\nmemory latency=9\n"
				 "noise rate=1 cycles=0 lines=1\n", 0);
	uint64_t c[MP_SIM_NCAUSES];

	mp_sim_explain(s, true);
	mp_sim_set_probe(s, "p");
	mp_sim_set_region(s, "r");
	for (int i = 0; i < 5; i++)
		mp_sim_access(s, BASE, MP_SIM_LOAD);
	causes(s, "L1D", c);
	CHECK(c[MP_SIM_COLD] == 1 && c[MP_SIM_NOISE] == 4, "noise: cold %llu noise %llu",
	      (unsigned long long)c[MP_SIM_COLD], (unsigned long long)c[MP_SIM_NOISE]);
	mp_sim_free(s);
}

/* Cycle four places `step` bytes apart from va `n` times round; the events `ev` it took. */
static uint64_t four_places(struct mp_sim *s, uint64_t va, int n, uint64_t step,
			    enum mp_event ev)
{
	uint64_t before = mp_sim_count(s, ev);

	for (int i = 0; i < 4 * n; i++)
		mp_sim_access(s, va + (uint64_t)(i % 4) * step, MP_SIM_LOAD);
	return mp_sim_count(s, ev) - before;
}

/*
 * A neighbour holding one entry of a 4-entry LRU DTLB, or one way of a
 * one-set 4-way LRU L2, for the first 100000 cycles of every 200000,
 * touched before each access: four pages (lines) miss on every access
 * while it runs (the one due is always the one evicted), and after a rest
 * into its quiet half only the first round's three misses remain (its
 * own, used last but one, goes last).
 */
static const struct {
	const char *what, *text;
	uint64_t step;
	enum mp_event ev;
} neighbours[] = {
	{ "a DTLB entry",
	  "cache L1D size=4K line=64 ways=4 latency=1\n"
	  "tlb DTLB1 entries=4 ways=full page=4K latency=10\n"
	  "memory latency=100\n"
	  "neighbour entries=1 on=100000 off=100000 every=1\n",
	  PAGE, MP_EV_DTLB1_MISS },
	{ "an L2 way",
	  "cache L1D size=64 line=64 ways=1 latency=1\n"
	  "cache L2 size=256 line=64 ways=4 latency=5\n"
	  "memory latency=100\n"
	  "neighbour ways=1 on=100000 off=100000 every=1\n",
	  64, MP_EV_L2_MISS },
};

/* Each neighbour running and quiet; without a neighbour, rest does nothing. */
static void test_neighbour(void)
{
	struct mp_sim *q = build(tlb_model, 0);
	uint64_t t;

	for (size_t i = 0; i < sizeof(neighbours) / sizeof(neighbours[0]); i++) {
		struct mp_sim *s = build(neighbours[i].text, 0);
		uint64_t step = neighbours[i].step, running, quiet;
		enum mp_event ev = neighbours[i].ev;

		four_places(s, BASE, 1, step, ev);
		running = four_places(s, BASE, 10, step, ev);
		CHECK(running == 40, "%s held: every access misses while it runs (%llu of 40)",
		      neighbours[i].what, (unsigned long long)running);
		CHECK(mp_sim_rest(s, 100), "%s held: rest with a neighbour", neighbours[i].what);
		CHECK(mp_sim_cycles(s) % 200000 >= 100000,
		      "%s held: the rest took the clock into its quiet half", neighbours[i].what);
		quiet = four_places(s, BASE, 10, step, ev);
		CHECK(quiet == 3, "%s held: once quiet, only the first round misses (%llu, want 3)",
		      neighbours[i].what, (unsigned long long)quiet);
		mp_sim_free(s);
	}
	t = mp_sim_cycles(q);
	CHECK(!mp_sim_rest(q, 100) && mp_sim_cycles(q) == t, "no neighbour: rest does nothing");
	mp_sim_free(q);
}

/*
 * A neighbour that always runs, holding one way of a one-set 4-way LRU L2
 * and one more (extra=1) in spans of 10^6 cycles, the first from cycle 0,
 * at least 5 x 10^5 apart: three lines of ours miss on every access while
 * it holds two, and only on their first round once it holds one.
 */
static void test_neighbour_extra(void)
{
	struct mp_sim *s = build("cache L1D size=64 line=64 ways=1 latency=1\n"
				 "cache L2 size=256 line=64 ways=4 latency=5\n"
				 "memory latency=100\n"
				 "neighbour ways=1 on=1000000000000 off=1 every=1 extra=1 "
				 "extra_on=1000000 extra_off=1000000\n", 0);
	uint64_t before, held, left;

	before = mp_sim_count(s, MP_EV_L2_MISS);
	for (int i = 0; i < 30; i++)
		mp_sim_access(s, BASE + (uint64_t)(i % 3) * 64, MP_SIM_LOAD);
	held = mp_sim_count(s, MP_EV_L2_MISS) - before;
	CHECK(held == 30, "extra way held: three lines miss on every access (%llu of 30)",
	      (unsigned long long)held);
	while (mp_sim_cycles(s) < 1000000)
		mp_sim_access(s, BASE, MP_SIM_LOAD);
	before = mp_sim_count(s, MP_EV_L2_MISS);
	for (int i = 0; i < 30; i++)
		mp_sim_access(s, BASE + (uint64_t)(i % 3) * 64, MP_SIM_LOAD);
	left = mp_sim_count(s, MP_EV_L2_MISS) - before;
	CHECK(left <= 3, "extra way left: only the first round's misses (%llu, want 3 at most)",
	      (unsigned long long)left);
	mp_sim_free(s);
}

/*
 * A neighbour confined to one set (set=1) of a two-set 4-way LRU L2,
 * always running: four lines of set 0 miss only on their first round,
 * four of set 1 on every access (the one due is always the one evicted).
 */
static void test_neighbour_set(void)
{
	struct mp_sim *s = build("cache L1D size=64 line=64 ways=1 latency=1\n"
				 "cache L2 size=512 line=64 ways=4 latency=5\n"
				 "memory latency=100\n"
				 "neighbour ways=1 on=1000000000 off=1 every=1 set=1\n", 0);
	uint64_t other = four_places(s, BASE, 10, 128, MP_EV_L2_MISS);
	uint64_t held = four_places(s, BASE + 64, 10, 128, MP_EV_L2_MISS);

	CHECK(other == 4, "a neighbour in set 1: set 0's four lines miss once each (%llu, want 4)",
	      (unsigned long long)other);
	CHECK(held == 40, "a neighbour in set 1: set 1's four lines miss every time (%llu of 40)",
	      (unsigned long long)held);
	mp_sim_free(s);
}

int main(void)
{
	test_tlb_levels();
	test_page_crossing();
	test_page_sizes();
	test_fetch();
	test_prefetch();
	test_noise();
	test_neighbour();
	test_neighbour_extra();
	test_neighbour_set();
	test_causes();
	test_causes_invalidation();
	test_noise_cause();
	return check_done();
}
