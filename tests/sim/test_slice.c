/* SPDX-License-Identifier: MIT */
/*
 * Hashed indexing (index=hash, sim/slice.c): the parser takes the exact
 * syntax and rejects what cannot be built, naming the line; the xor slice is
 * the parity of the address under each mask, worked by hand; the random
 * slice covers every slice evenly, is balanced so that contiguous memory of
 * the cache's size fits in it, and is fixed by its seed; and congruent
 * lines (same slice and set) evict each other at ways + 1 while lines of
 * one plain index spread over slices do not.
 */
#include <stdlib.h>

#include "sim/sim.h"
#include "tests/check.h"
#include "tests/sim/sim_build.h"

/* Address bits 38 and up are in neither mask below: pa = BASE + offset hashes as offset. */
#define BASE (1ull << 38)
#define SPAN (16ull << 20)
#define O0 "1b5f575440"        /* Maurice et al., RAID 2015: the 4-slice functions */
#define O1 "0x2eb5faa880"

static struct mp_sim *build(const char *text)
{
	return sb_build(text, BASE, SPAN, 0, true);
}

static void test_accepts(void)
{
	static const char xor_text[] =
		"memory latency=100\n"
		"cache L3 size=8M line=64 ways=16 latency=40 index=hash slices=4 hash=xor:" O0
		"," O1 "\n";
	static const char random_text[] =
		"memory latency=100\n"
		"cache L3 size=115200K line=64 ways=15 latency=40 index=hash slices=60 "
		"hash=random seed=9\n";
	static const char plain_text[] = "memory latency=1\ncache L2 size=1M line=64 ways=8 "
					 "latency=9\n";
	struct mp_sim_model m;
	char err[256];
	const struct mp_sim_cache_model *c = &m.caches[0];

	CHECK(mp_sim_model_parse(&m, "model", xor_text, strlen(xor_text), err, sizeof(err)) == 0,
	      "hash=xor with hex masks, with and without 0x, parses: %s", err);
	CHECK(c->index == MP_SIM_INDEX_HASH && c->physical && c->slices == 4 &&
	      c->hash == MP_SIM_HASH_XOR && c->nmasks == 2 && c->masks[0] == 0x1b5f575440ull &&
	      c->masks[1] == 0x2eb5faa880ull, "the model holds the xor hash: 4 slices, its masks");
	CHECK(mp_sim_model_parse(&m, "model", random_text, strlen(random_text), err,
				 sizeof(err)) == 0, "hash=random over 60 slices parses: %s", err);
	CHECK(c->slices == 60 && c->hash == MP_SIM_HASH_RANDOM && c->seed == 9 &&
	      mp_sim_cache_sets(c) / c->slices == 2048,
	      "the model holds the random hash: 60 slices of 2048 sets, seed 9");
	CHECK(mp_sim_model_parse(&m, "model", plain_text, strlen(plain_text), err,
				 sizeof(err)) == 0 && c->slices == 1 &&
	      c->hash == MP_SIM_HASH_NONE && c->index == MP_SIM_INDEX_PHYSICAL,
	      "a plain level is one slice: %s", err);
}

static void test_rejects(void)
{
	static const struct {
		const char *keys;
		const char *says;
	} cases[] = {
		{ "index=hash slices=8 hash=xor:" O0 "," O1,
		  "2 masks makes 4 slices, not slices=8" },
		{ "index=hash slices=3 hash=random", "8192 sets do not divide into slices=3" },
		{ "index=hash slices=0 hash=random", "do not divide into slices=0" },
		{ "index=hash slices=8 hash=crc", "bad hash 'crc'" },
		{ "index=hash slices=8 hash=random:5", "bad hash 'random:5'" },
		{ "index=hash slices=2 hash=xor:", "bad hash 'xor:'" },
		{ "index=hash slices=2 hash=xor:0", "bad hash 'xor:0'" },
		{ "index=hash slices=2 hash=xor:4g", "bad hash 'xor:4g'" },
		{ "slices=4 hash=random", "slices= and hash= need index=hash" },
		{ "index=physical hash=random", "slices= and hash= need index=hash" },
		{ "index=hash slices=4", "index=hash needs slices= and hash=" },
		{ "index=hash slices=2 hash=xor:60",
		  "xor mask 60 has bits inside the 64-byte line" },
		{ "index=hash slices=4 hash=xor:c0,40", "" },
		{ "index=hash slices=4 hash=xor:40,80,c0", "3 masks makes 8 slices" },
		{ "index=hash slices=4 hash=xor:40,40", "not independent" },
		{ "index=hash slices=4 hash=xor:40,80,c0,100", "4 masks makes 16 slices" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[256], err[256] = "";
		struct mp_sim_model m;
		int rc;

		snprintf(text, sizeof(text), "memory latency=100\ncache L3 size=8M line=64 ways=16 "
			 "latency=40 %s\n", cases[i].keys);
		rc = mp_sim_model_parse(&m, "model", text, strlen(text), err, sizeof(err));
		if (!cases[i].says[0])
			CHECK(rc == 0, "'%s' parses: %s", cases[i].keys, err);
		else
			CHECK(rc < 0 && strstr(err, "model:2: cache L3: ") == err &&
			      strstr(err, cases[i].says),
			      "'%s' is refused on its line: \"%s\" says \"%s\"", cases[i].keys,
			      err, cases[i].says);
	}
}

/* 12M / 64 / 16 = 12288 sets: whole over 4 slices, but 3072 is no power of two. */
static void test_rejects_odd_sets(void)
{
	static const char text[] = "memory latency=100\ncache L3 size=12M line=64 ways=16 "
				   "latency=40 index=hash slices=4 hash=random\n";
	struct mp_sim_model m;
	char err[256] = "";

	CHECK(mp_sim_model_parse(&m, "model", text, strlen(text), err, sizeof(err)) < 0 &&
	      strstr(err, "model:2: cache L3: 3072 sets per slice are not a power of two"),
	      "sets per slice must be a power of two: %s", err);
}

/*
 * Mask 0 = bits 6 10 12 14 16 17 18 20 22 24 25 26 27 28 30 32 33 35 36,
 * mask 1 = bits 7 11 13 15 17 19 20 21 22 23 24 26 28 29 31 33 34 35 37,
 * slice = parity(pa & mask 0) + 2 parity(pa & mask 1); 8M / 64 / 16 / 4 =
 * 2048 sets per slice: the set is pa bits 6 to 16.
 */
static void test_xor_by_hand(void)
{
	static const struct {
		uint64_t off;
		uint64_t slice, set;
		const char *why;
	} cases[] = {
		{ 0x0, 0, 0, "no bit" },
		{ 0x40, 1, 1, "bit 6: mask 0 only" },
		{ 0x80, 2, 2, "bit 7: mask 1 only" },
		{ 0xc0, 3, 3, "bits 6, 7: one in each" },
		{ 0x100, 0, 4, "bit 8: in neither" },
		{ 0x440, 0, 17, "bits 6, 10: twice in mask 0" },
		{ 0x20000, 3, 0, "bit 17: in both" },
		{ 0x30000, 2, 1024, "bits 16, 17: mask 0 twice, mask 1 once" },
		{ 0x100000, 3, 0, "bit 20: in both" },
		{ 0x180040, 0, 1, "bits 6, 19, 20: 6 and 20 in mask 0, 19 and 20 in mask 1" },
		{ 0x80080, 0, 2, "bits 7, 19: both in mask 1 only" },
	};
	struct mp_sim *s = build("memory latency=100\n"
				 "cache L3 size=8M line=64 ways=16 latency=40 index=hash slices=4 "
				 "hash=xor:" O0 "," O1 "\n");

	for (size_t i = 0; s && i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t slice = 99, set = 99;

		CHECK(mp_sim_locate(s, "L3", BASE + cases[i].off, &slice, &set) &&
		      slice == cases[i].slice && set == cases[i].set,
		      "pa +%#llx (%s): slice %llu set %llu, want %llu and %llu",
		      (unsigned long long)cases[i].off, cases[i].why, (unsigned long long)slice,
		      (unsigned long long)set, (unsigned long long)cases[i].slice,
		      (unsigned long long)cases[i].set);
	}
	mp_sim_free(s);
}

#define RANDOM_MODEL(seed)                                                               \
	"memory latency=100\ncache L3 size=115200K line=64 ways=15 latency=40 index=hash " \
	"slices=60 hash=random seed=" seed "\n"

/* 60 slices, 120000 consecutive lines: 2000 each expected, sd 44; all within 10%. */
static void test_random_spread(void)
{
	struct mp_sim *s = build(RANDOM_MODEL("9"));
	uint64_t count[60] = { 0 }, lo = UINT64_MAX, hi = 0;
	bool set_ok = true;

	for (uint64_t i = 0; s && i < 120000; i++) {
		uint64_t slice, set;

		mp_sim_locate(s, "L3", BASE + i * 64, &slice, &set);
		if (slice < 60)
			count[slice]++;
		set_ok = set_ok && slice < 60 && set == i % 2048;
	}
	for (int i = 0; i < 60; i++) {
		lo = count[i] < lo ? count[i] : lo;
		hi = count[i] > hi ? count[i] : hi;
	}
	CHECK(lo >= 1800 && hi <= 2200, "random: every one of 60 slices gets 1800 to 2200 of "
	      "120000 lines (got %llu to %llu)", (unsigned long long)lo, (unsigned long long)hi);
	CHECK(set_ok, "random: the set within the slice is the line's low 11 bits");
	mp_sim_free(s);
}

/*
 * 12 slices of 64 sets, 4 ways (192K): from a line whose rank in its set is
 * a multiple of 12 (a group's first), 192K of contiguous lines put exactly 4
 * in every set of every slice, and all of them stay.
 */
static void test_random_balanced(void)
{
	struct mp_sim *s = build("memory latency=100\n"
				 "cache L1D size=256 line=64 ways=1 latency=1\n"
				 "cache L2 size=192K line=64 ways=4 latency=10 index=hash "
				 "slices=12 hash=random seed=5\n");
	uint64_t k0 = BASE / 64 / 64, start = BASE + (12 - k0 % 12) % 12 * 64 * 64;
	unsigned count[12][64] = { { 0 } }, exact = 0, held = 0;

	for (uint64_t v = start; s && v < start + (192 << 10); v += 64) {
		uint64_t slice, set;

		mp_sim_locate(s, "L2", v, &slice, &set);
		count[slice % 12][set % 64]++;
		mp_sim_access(s, v, MP_SIM_LOAD);
	}
	for (uint64_t v = start; s && v < start + (192 << 10); v += 64)
		held += mp_sim_holds(s, "L2", v);
	for (int i = 0; i < 12; i++)
		for (int j = 0; j < 64; j++)
			exact += count[i][j] == 4;
	CHECK_EQ_INT(exact, 12 * 64, "random, balanced: sets of all slices with exactly 4 lines");
	CHECK_EQ_INT(held, 3072, "random, balanced: lines of a cache-sized region held");
	mp_sim_free(s);
}

/* The same seed gives the same slices (another simulator); another seed others. */
static void test_random_seed(void)
{
	struct mp_sim *a = build(RANDOM_MODEL("9")), *b = build(RANDOM_MODEL("9"));
	struct mp_sim *c = build(RANDOM_MODEL("10"));
	unsigned same = 0, differ = 0;

	for (uint64_t i = 0; a && b && c && i < 6000; i++) {
		uint64_t sa, sb, sc, set;

		mp_sim_locate(a, "L3", BASE + i * 64, &sa, &set);
		mp_sim_locate(b, "L3", BASE + i * 64, &sb, &set);
		mp_sim_locate(c, "L3", BASE + i * 64, &sc, &set);
		same += sa == sb;
		differ += sa != sc;
	}
	CHECK(same == 6000, "random: seed 9 twice gives the same slice to all 6000 lines (%u)",
	      same);
	CHECK(differ > 5500, "random: seed 10 moves most lines (%u of 6000; 5900 expected)",
	      differ);
	mp_sim_free(a);
	mp_sim_free(b);
	mp_sim_free(c);
}

/* The L2 below: 64K apart, lines share the set of a plain 1024-set index. */
#define PLAIN_PERIOD (64ull << 10)

/*
 * BASE and the first n - 1 lines of its plain index after it that are in
 * its slice (same_slice) or not, by the simulator's ground truth.
 */
static int pick(struct mp_sim *s, uint64_t *va, int n, bool same_slice)
{
	uint64_t slice0, set0, slice, set;
	int k = 1;

	mp_sim_locate(s, "L2", BASE, &slice0, &set0);
	va[0] = BASE;
	for (uint64_t v = BASE + PLAIN_PERIOD; k < n && v < BASE + SPAN; v += PLAIN_PERIOD) {
		mp_sim_locate(s, "L2", v, &slice, &set);
		if (set == set0 && (slice == slice0) == same_slice)
			va[k++] = v;
	}
	return k;
}

/*
 * An L2 of 64K, 4 ways, 4 slices of 64 sets (set: pa bits 6 to 11) under a
 * small L1.  Five congruent lines: the fifth evicts the first (lru).  Four
 * congruent lines and one of the same plain index in another slice: all stay.
 */
#define L2_MODEL(hash)                                                                     \
	"memory latency=100\ncache L1D size=256 line=64 ways=1 latency=1\n"                 \
	"cache L2 size=64K line=64 ways=4 latency=10 index=hash slices=4 hash=" hash "\n"

/*
 * By hand: lines BASE + k * 64K, k = 0..7, differ in bits 16 to 18; mask 0
 * has 16, 17 and 18, mask 1 only 17, so k goes to slice 0 1 3 2 1 0 2 3: two
 * per slice, and eight lines of one plain set all stay in 4 ways.
 */
static void test_xor_spreads_plain_set(void)
{
	struct mp_sim *s = build(L2_MODEL("xor:" O0 "," O1));
	int held = 0;

	for (uint64_t k = 0; s && k < 8; k++)
		mp_sim_access(s, BASE + k * PLAIN_PERIOD, MP_SIM_LOAD);
	for (uint64_t k = 0; s && k < 8; k++)
		held += mp_sim_holds(s, "L2", BASE + k * PLAIN_PERIOD);
	CHECK_EQ_INT(held, 8, "xor: lines of one plain set, two per slice, all held in 4 ways");
	mp_sim_free(s);
}

static void test_congruence(void)
{
	static const char *hashes[] = { "xor:" O0 "," O1, "random seed=3" };
	static const char *models[] = { L2_MODEL("xor:" O0 "," O1), L2_MODEL("random seed=3") };

	for (size_t h = 0; h < 2; h++) {
		uint64_t cong[5], other[2];
		struct mp_sim *s = build(models[h]);
		if (!s || pick(s, cong, 5, true) < 5 || pick(s, other, 2, false) < 2) {
			CHECK(0, "%s: five congruent lines and one in another slice", hashes[h]);
			mp_sim_free(s);
			continue;
		}
		for (int i = 0; i < 5; i++)
			mp_sim_access(s, cong[i], MP_SIM_LOAD);
		CHECK(!mp_sim_holds(s, "L2", cong[0]) && mp_sim_holds(s, "L2", cong[1]),
		      "%s: the fifth congruent line evicts the first from 4 ways", hashes[h]);
		mp_sim_flush_all(s);
		for (int i = 0; i < 4; i++)
			mp_sim_access(s, cong[i], MP_SIM_LOAD);
		mp_sim_access(s, other[1], MP_SIM_LOAD);
		CHECK(mp_sim_holds(s, "L2", cong[0]) && mp_sim_holds(s, "L2", other[1]),
		      "%s: a fifth line of the same plain index in another slice evicts nothing",
		      hashes[h]);
		mp_sim_free(s);
	}
}

int main(void)
{
	test_accepts();
	test_rejects();
	test_rejects_odd_sets();
	test_xor_by_hand();
	test_random_spread();
	test_random_balanced();
	test_random_seed();
	test_xor_spreads_plain_set();
	test_congruence();
	return check_done();
}
