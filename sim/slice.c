/* SPDX-License-Identifier: MIT */
/*
 * Hashed indexing of a cache level (`index=hash slices=N hash=...`), as in
 * the sliced last-level caches of Intel's parts since Sandy Bridge and of
 * AMD's since Zen: the physical address picks a slice, and the address bits
 * right above the line offset pick the set within it.  The slice functions,
 * one row each in `kinds`:
 *   xor     bit i of the slice is the parity of (address AND mask i), the
 *           linear hash of Intel parts with 2^k slices (Maurice et al.,
 *           RAID 2015); N = 2^(number of masks);
 *   random  a fixed pseudo-random function of the line address, from the
 *           level's seed, for any N: the undocumented non-linear hashes
 *           (12, 24, 28, 60 slices; McCalpin, TACC TR-2021-03).  Like them
 *           it is balanced: of the lines of one set (within a slice), every
 *           aligned group of N consecutive ones covers the N slices once,
 *           rotated by a pseudo-random offset drawn for the group and set.
 *           Contiguous memory of the cache's size then fills every set of
 *           every slice, as on hardware, where a capacity sweep sees one
 *           sharp edge; an unbalanced random function would overflow some
 *           sets long before the cache is full.
 * A plain level (index=virtual|physical) has none: its set is the line's low
 * bits, or their remainder (sim_sets_index).  Sets per slice must be a power
 * of two, as in hardware, where they are address bits.
 */
#include <string.h>

#include "core/lib/str.h"
#include "sim/simint.h"

static uint64_t xor_slice(const struct sim_slice *h, uint64_t line)
{
	uint64_t s = 0;

	for (uint32_t i = 0; i < h->nmasks; i++)
		s |= (uint64_t)__builtin_parityll(line & h->mask[i]) << i;
	return s;
}

/*
 * The line's rank k among the lines of its set, in groups of N: the group
 * (with the set) draws an offset, a 64-bit finalizer (two multiply-xorshift
 * rounds) of them and the seed, whose high part times N is uniform below N;
 * the slice is k's place in the group plus that offset, modulo N.
 */
static uint64_t random_slice(const struct sim_slice *h, uint64_t line)
{
	uint64_t k = line >> h->set_bits, group = k / h->slices, place = k - group * h->slices;
	uint64_t x = (group * 0x9E3779B97F4A7C15ull + (line & h->set_mask)) ^ h->salt;
	uint64_t slice;

	x = (x ^ (x >> 31)) * 0x7FB5D329728EA185ull;
	x = (x ^ (x >> 27)) * 0x81DADEF4BC2DD44Dull;
	x ^= x >> 33;
	slice = place + (uint64_t)(((unsigned __int128)x * h->slices) >> 64);
	return slice < h->slices ? slice : slice - h->slices;
}

/* One hex mask of an xor list, with or without 0x; no zero mask. */
static bool parse_mask(const char *s, size_t n, uint64_t *out)
{
	char buf[24] = "0x";

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		n -= 2;
	}
	if (n == 0 || n > 16)
		return false;
	memcpy(buf + 2, s, n);
	return mp_parse_u64(buf, n + 2, out) && *out != 0;
}

static bool parse_xor(struct mp_sim_cache_model *c, const char *args)
{
	c->nmasks = 0;
	while (args) {
		const char *comma = strchr(args, ',');
		size_t n = comma ? (size_t)(comma - args) : strlen(args);

		if (c->nmasks == MP_SIM_MAX_MASKS || !parse_mask(args, n, &c->masks[c->nmasks]))
			return false;
		c->nmasks++;
		args = comma ? comma + 1 : NULL;
	}
	return true;
}

static bool parse_random(struct mp_sim_cache_model *c, const char *args)
{
	c->nmasks = 0;
	return args == NULL;
}

static const struct kind {
	const char *word;          /* hash=WORD[:ARGS] */
	enum mp_sim_hash hash;
	bool (*parse)(struct mp_sim_cache_model *c, const char *args);  /* args NULL: none */
	uint64_t (*slice_of)(const struct sim_slice *h, uint64_t line);
} kinds[] = {
	{ "xor", MP_SIM_HASH_XOR, parse_xor, xor_slice },
	{ "random", MP_SIM_HASH_RANDOM, parse_random, random_slice },
};

static const struct kind *kind_of(enum mp_sim_hash hash)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].hash == hash)
			return &kinds[i];
	return NULL;
}

bool mp_sim_hash_parse(struct mp_sim_cache_model *c, const char *v)
{
	const char *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v);

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strlen(kinds[i].word) == n && !strncmp(kinds[i].word, v, n)) {
			c->hash = kinds[i].hash;
			return kinds[i].parse(c, colon ? colon + 1 : NULL);
		}
	return false;
}

/* Masks whose parities can make every slice number: independent over GF(2). */
static bool independent(const uint64_t *masks, uint32_t n)
{
	uint64_t basis[64] = { 0 };

	for (uint32_t i = 0; i < n; i++) {
		uint64_t v = masks[i];

		while (v) {
			int top = 63 - __builtin_clzll(v);

			if (!basis[top]) {
				basis[top] = v;
				break;
			}
			v ^= basis[top];
		}
		if (!v)
			return false;
	}
	return true;
}

static int check_xor(const struct mp_sim_cache_model *c, char *why, size_t len)
{
	if (c->slices != 1ull << c->nmasks) {
		snprintf(why, len, "hash=xor with %u masks makes %llu slices, not slices=%u",
			 c->nmasks, 1ull << c->nmasks, c->slices);
		return -1;
	}
	for (uint32_t i = 0; i < c->nmasks; i++)
		if (c->masks[i] & (c->line - 1)) {
			snprintf(why, len, "xor mask %llx has bits inside the %llu-byte line",
				 (unsigned long long)c->masks[i], (unsigned long long)c->line);
			return -1;
		}
	if (!independent(c->masks, c->nmasks)) {
		snprintf(why, len, "the xor masks are not independent: some slices get no line");
		return -1;
	}
	return 0;
}

int mp_sim_hash_check(const struct mp_sim_cache_model *c, char *why, size_t len)
{
	uint64_t sets = mp_sim_cache_sets(c);

	if (c->slices == 0 || sets % c->slices) {
		snprintf(why, len, "%llu sets do not divide into slices=%u",
			 (unsigned long long)sets, c->slices);
		return -1;
	}
	sets /= c->slices;
	if (sets & (sets - 1)) {
		snprintf(why, len, "%llu sets per slice are not a power of two (they are address "
			 "bits)", (unsigned long long)sets);
		return -1;
	}
	return c->hash == MP_SIM_HASH_XOR ? check_xor(c, why, len) : 0;
}

void sim_slice_init(struct sim_slice *h, struct sim_sets *a, const struct mp_sim_cache_model *c)
{
	uint64_t sets = a->nsets / c->slices;

	memset(h, 0, sizeof(*h));
	h->slice_of = kind_of(c->hash)->slice_of;
	h->nmasks = c->nmasks;
	for (uint32_t i = 0; i < c->nmasks; i++)
		h->mask[i] = c->masks[i] >> a->shift;
	h->slices = c->slices;
	h->salt = sim_seed(c->seed);
	h->set_mask = sets - 1;
	h->set_bits = (unsigned)__builtin_ctzll(sets);
	a->slice = h;
	a->pow2 = false;
}

/*
 * A TLB whose set is hashed from the page number (as second-level TLBs
 * may be): its sets are the slices, one set each, of the balanced random
 * function, so that every aligned run of as many pages as sets fills each
 * set once and no power-of-two stride gathers pages in fewer sets; pages
 * at random places fall unevenly.
 */
void sim_tlb_hash_init(struct sim_tlb *t)
{
	struct mp_sim_cache_model one_set_slices = {
		.slices = (uint32_t)t->a.nsets, .hash = MP_SIM_HASH_RANDOM, .seed = t->m.seed,
	};

	sim_slice_init(&t->slice, &t->a, &one_set_slices);
}

uint64_t sim_slice_set(const struct sim_slice *h, uint64_t line)
{
	return h->slice_of(h, line) << h->set_bits | (line & h->set_mask);
}
