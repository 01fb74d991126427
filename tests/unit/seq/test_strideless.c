/* SPDX-License-Identifier: MIT */
/*
 * mp_ref_shuffle_strideless (core/seq/cycle.c): a permutation of the
 * elements whose cycle never takes the same step into and out of an
 * element, for the overfill chains a stride prefetcher must not follow
 * (docs/algorithms.md, "Counter-based probes", hashed sets).
 */
#include <stdint.h>
#include <stdlib.h>

#include "core/seq/refstring.h"
#include "tests/check.h"

#define GAP 131072u
#define MAX_N 1024u

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Does offs[0..n) hold each multiple of GAP below n GAP once? */
static int permutation(const uint64_t *offs, uint64_t n)
{
	static uint64_t sorted[MAX_N];

	for (uint64_t i = 0; i < n; i++)
		sorted[i] = offs[i];
	qsort(sorted, n, sizeof(sorted[0]), by_value);
	for (uint64_t i = 0; i < n; i++)
		if (sorted[i] != i * GAP)
			return 0;
	return 1;
}

/* Elements the cycle enters and leaves by the same step. */
static uint64_t equal_steps(const uint64_t *offs, uint64_t n)
{
	uint64_t count = 0;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t a = offs[(i + n - 1) % n], b = offs[i], c = offs[(i + 1) % n];

		count += b - a == c - b;
	}
	return count;
}

int main(void)
{
	static const uint64_t sizes[] = { 9, 17, 33, 65, 129, 481, 901 };
	static uint64_t offs[MAX_N];

	for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (uint64_t seed = 1; seed <= 16; seed++) {
			uint64_t n = sizes[s], eq;
			struct mp_rng g;

			mp_rng_seed(&g, seed);
			for (uint64_t i = 0; i < n; i++)
				offs[i] = i * GAP;
			mp_ref_shuffle_strideless(offs, n, &g);
			eq = equal_steps(offs, n);
			CHECK(permutation(offs, n) && eq == 0,
			      "%llu elements, seed %llu: a permutation with no equal steps in a row "
			      "(%llu)", (unsigned long long)n, (unsigned long long)seed,
			      (unsigned long long)eq);
		}
	return check_done();
}
