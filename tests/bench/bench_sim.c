/* SPDX-License-Identifier: MIT */
/*
 * Simulator speed (issue 3): simulated accesses per second for a pointer
 * chase that always hits level 1 and for ones that miss every level and the
 * TLBs, on the Zen 4 model.  Goal: 100 million per second on hits.  A miss
 * costs host cache misses of its own (the chain and the simulated caches'
 * state), so its rate depends on the host's memory latency.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include "sim/sim.h"

#define MODEL "sim/models/zen4.model"

static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* A random cyclic chain through `n` elements `gap` bytes apart. */
static void **make_chain(uint64_t bytes, uint64_t gap)
{
	uint64_t n = bytes / gap;
	uint64_t *order = malloc(n * sizeof(*order));
	char *mem = aligned_alloc(1 << 21, bytes);
	uint64_t x = 88172645463325252ull;

	if (!order || !mem)
		return NULL;
	madvise(mem, bytes, MADV_HUGEPAGE);
	for (uint64_t i = 0; i < n; i++)
		order[i] = i;
	for (uint64_t i = n - 1; i > 0; i--) {
		uint64_t j, t;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = x % (i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (uint64_t i = 0; i < n; i++)
		*(void **)(mem + order[i] * gap) = mem + order[(i + 1) % n] * gap;
	free(order);
	return (void **)mem;
}

/* Best of three timed runs after a warming pass (the host is shared and noisy). */
static int bench(const struct mp_sim_model *m, const char *what, uint64_t bytes, uint64_t gap,
		 uint64_t steps)
{
	struct mp_sim *s = mp_sim_new(m);
	void **chain = make_chain(bytes, gap);
	double best = 0, cycles = 0;
	void *end;

	if (!s || !chain || !mp_sim_map(s, (uint64_t)(uintptr_t)chain, bytes, 0, false)) {
		printf("%s: cannot set up\n", what);
		return 1;
	}
	mp_sim_chase(s, chain, bytes / gap, &end);
	for (int run = 0; run < 3; run++) {
		uint64_t c0 = mp_sim_cycles(s);
		double t0 = seconds(), rate;

		mp_sim_chase(s, chain, steps, &end);
		rate = steps / (seconds() - t0);
		if (rate > best)
			best = rate;
		cycles = (double)(mp_sim_cycles(s) - c0) / steps;
	}
	printf("%-34s %8.1f million simulated accesses/s  (%.1f simulated cycles each)\n", what,
	       best / 1e6, cycles);
	mp_sim_free(s);
	free(chain);
	return 0;
}

int main(void)
{
	struct mp_sim_model m;
	char err[300];
	int bad = 0;

	if (mp_sim_model_load(&m, MODEL, err, sizeof(err)) < 0) {
		printf("bench_sim: %s\n", err);
		return 1;
	}
	bad |= bench(&m, "all-L1-hit chase (16K, 64B apart)", 16 << 10, 64, 100000000);
	bad |= bench(&m, "all-miss chase (512M, 4K apart)", 512ull << 20, 4096, 2000000);
	bad |= bench(&m, "all-miss chase (256M, 64B apart)", 256ull << 20, 64, 2000000);
	return bad;
}
