/* SPDX-License-Identifier: MIT */
/*
 * The "sim" platform through the seam of core/platform.h, as a probe uses
 * it: memory, the four run operations, counters, flushes, code chains,
 * errors, result files and the causes of misses per probe.
 */
#include <stdlib.h>
#include <unistd.h>

#include "platform/sim/platform.h"
#include "tests/check.h"
#include "tests/output.h"

/* 2 GHz; L1 hit 4, memory 100, a DTLB miss 20, ITLB miss 30. */
static const char *model_text =
	"clock freq=2G\n"
	"cache L1D size=32K line=64 ways=8 latency=4\n"
	"cache L1I size=32K line=64 ways=8 latency=3\n"
	"tlb DTLB1 entries=64 ways=full page=4K latency=20\n"
	"tlb DTLB1-2M entries=8 ways=full page=2M latency=20\n"
	"tlb ITLB1 entries=64 ways=full page=4K latency=30\n"
	"memory latency=100\n";

static struct mp_platform *platform(const char *text, bool explain)
{
	static struct mp_sim_model m;
	struct mp_platform *p;
	char err[256];

	if (mp_sim_model_parse(&m, "test", text, strlen(text), err, sizeof(err)) < 0) {
		CHECK(0, "model: %s", err);
		return NULL;
	}
	p = mp_sim_open(&m, test_output());
	if (p)
		mp_sim_explain(mp_sim_of(p), explain);
	return p;
}

static enum mp_status alloc(struct mp_platform *p, uint64_t bytes, enum mp_page page,
			    struct mp_mem *m)
{
	struct mp_mem_req req = { .bytes = bytes, .align = 4096, .page = page };

	return p->ops->mem_alloc(p, &req, m);
}

/* A cyclic chain through n elements `gap` bytes apart, in address order. */
static void *chain(struct mp_mem *m, uint64_t n, uint64_t gap)
{
	for (uint64_t i = 0; i < n; i++)
		*(void **)(m->base + i * gap) = m->base + ((i + 1) % n) * gap;
	return m->base;
}

static enum mp_status run(struct mp_platform *p, enum mp_op op, void *start, uint64_t steps,
			  struct mp_sample *out)
{
	struct mp_run r = { .op = op, .start = start, .stride = 64, .count = 16, .steps = steps,
			    .events = 0xffffffffu, .region = "chain" };

	return p->ops->run(p, &r, out);
}

/* CHECK evaluates its arguments twice: a run is made once, then checked. */
static void expect_run(struct mp_platform *p, enum mp_op op, void *start, uint64_t steps,
		       struct mp_sample *out, enum mp_status want, const char *what)
{
	enum mp_status st = run(p, op, start, steps, out);

	CHECK_EQ_INT(st, want, what);
}

static void test_fields_and_memory(void)
{
	struct mp_platform *p = platform(model_text, false);
	struct mp_mem m, h;
	enum mp_status st;

	CHECK_EQ_STR(p->name, "sim", "name");
	CHECK(p->tick_hz == 2000000000ull && p->core_hz == p->tick_hz, "ticks are 2 GHz cycles");
	CHECK_EQ_INT(p->page_bytes, 4096, "base page");
	st = alloc(p, 1 << 20, MP_PAGE_ANY, &m);
	CHECK(st == MP_OK && ((uintptr_t)m.base & 4095) == 0 && m.page_bytes == 4096,
	      "1M of 4K pages");
	CHECK(m.contiguous && m.phys == (uint64_t)(uintptr_t)m.base, "contiguous: identity");
	st = alloc(p, 4 << 20, MP_PAGE_2M, &h);
	CHECK(st == MP_OK && h.page_bytes == (2 << 20) &&
	      ((uintptr_t)h.base & ((2 << 20) - 1)) == 0, "2M pages where the model has a 2M TLB");
	p->ops->mem_free(p, &m);
	p->ops->mem_free(p, &h);
	st = p->ops->irq_mask(p);
	CHECK_EQ_INT(st, MP_OK, "irq_mask succeeds");
	p->ops->irq_unmask(p);
	mp_sim_close(p);

	p = platform("cache L1D size=4K line=64 ways=4 latency=1\nmemory latency=9\n"
		     "frames mode=scattered seed=1\n", false);
	st = alloc(p, 1 << 20, MP_PAGE_2M, &m);
	CHECK(st == MP_OK && m.page_bytes == 4096 && !m.contiguous &&
	      m.phys != (uint64_t)(uintptr_t)m.base, "scattered: 4K frames, not contiguous");
	p->ops->mem_free(p, &m);
	mp_sim_close(p);
}

/* Scattered frames grant a request for contiguous memory (the identity map)
 * unless the model refuses it. */
static void test_contiguous_request(void)
{
	static const char *const frames[] = { "frames mode=scattered seed=1\n",
					      "frames mode=scattered seed=1 contiguous=refused\n" };
	struct mp_mem_req req = { .bytes = 1 << 20, .align = 4096, .contiguous = true };

	for (int refused = 0; refused < 2; refused++) {
		char text[256];
		struct mp_platform *p;
		struct mp_mem m;
		enum mp_status st;

		snprintf(text, sizeof(text), "cache L1D size=4K line=64 ways=4 latency=1\n"
			 "memory latency=9\n%s", frames[refused]);
		p = platform(text, false);
		st = p->ops->mem_alloc(p, &req, &m);
		CHECK(st == MP_OK && m.contiguous == !refused &&
		      (m.phys == (uint64_t)(uintptr_t)m.base) == !refused,
		      "scattered, contiguous %s: contiguous=%d", refused ? "refused" : "granted",
		      m.contiguous);
		p->ops->mem_free(p, &m);
		mp_sim_close(p);
	}
}

/*
 * An access in one 4K piece of a large page (its TLB entry made there),
 * then va in another, a hit, a flush: the next access to va goes to
 * memory (latency 9).
 */
static bool flushed_misses(struct mp_sim *sim, uint64_t first, uint64_t va)
{
	uint64_t c0;

	mp_sim_access(sim, first, MP_SIM_LOAD);
	mp_sim_access(sim, va, MP_SIM_LOAD);
	mp_sim_access(sim, va, MP_SIM_LOAD);
	mp_sim_flush_line(sim, va);
	c0 = mp_sim_cycles(sim);
	mp_sim_access(sim, va, MP_SIM_LOAD);
	return mp_sim_cycles(sim) - c0 >= 9;
}

/*
 * A virtual machine's host (frames host=4K): a 2M page of the guest is
 * mapped as one (page_bytes) but backed by 4K frames scattered apart, and
 * the platform says so (frame_bytes); lines 4K apart in it are not 4K apart
 * physically.
 */
static void test_host_frames(void)
{
	static const char *const host[] = { "", " host=4K" };

	for (int h = 0; h < 2; h++) {
		char text[256];
		struct mp_platform *p;
		struct mp_mem m;
		uint64_t pa0 = 0, pa1 = 0;
		enum mp_status st;

		snprintf(text, sizeof(text), "cache L1D size=4K line=64 ways=4 latency=1\n"
			 "memory latency=9\ntlb DTLB1 entries=64 ways=4 page=4K level=1 latency=7\n"
			 "tlb DTLB2M entries=32 ways=4 page=2M level=1 latency=7\n"
			 "frames mode=scattered seed=1%s\n", host[h]);
		p = platform(text, false);
		st = alloc(p, 4 << 20, MP_PAGE_2M, &m);
		mp_sim_translate(mp_sim_of(p), (uint64_t)(uintptr_t)m.base, &pa0);
		mp_sim_translate(mp_sim_of(p), (uint64_t)(uintptr_t)m.base + 4096, &pa1);
		CHECK(st == MP_OK && m.page_bytes == (2 << 20) && !m.contiguous,
		      "host%s: two 2M pages, not contiguous", host[h]);
		CHECK(m.frame_bytes == (h ? 4096u : 2u << 20), "host%s: frame bytes %llu", host[h],
		      (unsigned long long)m.frame_bytes);
		CHECK((pa1 - pa0 == 4096) == !h, "host%s: 4K apart physically: %d", host[h],
		      pa1 - pa0 == 4096);
		CHECK(flushed_misses(mp_sim_of(p), (uint64_t)(uintptr_t)m.base,
				     (uint64_t)(uintptr_t)m.base + 5 * 4096 + 64),
		      "host%s: a flushed line misses (the TLB's frame is not the line's)", host[h]);
		p->ops->mem_free(p, &m);
		mp_sim_close(p);
	}
}

/* 64 lines in one page: the first pass misses each line, later passes hit. */
static void test_chase(void)
{
	struct mp_platform *p = platform(model_text, false);
	struct mp_sample s;
	struct mp_mem m;
	uint64_t t0;
	void *start;

	alloc(p, 1 << 20, MP_PAGE_ANY, &m);
	start = chain(&m, 64, 64);
	t0 = p->ops->now(p);
	expect_run(p, MP_OP_CHASE, start, 640, &s, MP_OK, "chase runs");
	CHECK(s.count[MP_EV_LOADS] == 640 && s.count[MP_EV_INSTRUCTIONS] == 640, "640 loads");
	CHECK_EQ_INT(s.count[MP_EV_L1D_MISS], 64, "64 cold misses");
	CHECK_EQ_INT(s.count[MP_EV_DTLB1_MISS], 1, "one page");
	CHECK_EQ_INT(s.ticks, 20 + 64 * 100 + 576 * 4, "ticks");
	CHECK_EQ_INT(s.count[MP_EV_CYCLES], s.ticks, "cycles = ticks");
	CHECK(p->ops->now(p) - t0 == s.ticks, "now() moved by the run's ticks");
	CHECK(s.end == start, "640 steps end where they started");
	CHECK(s.valid == (0xffffffffu & p->ops->events(p)) && !(s.valid & MP_EV_BIT(MP_EV_L2_MISS)),
	      "valid: what the model counts");
	run(p, MP_OP_CHASE, start, 640, &s);
	CHECK(s.count[MP_EV_L1D_MISS] == 0 && s.ticks == 640 * 4, "warm: all L1 hits");
	p->ops->flush_line(p, m.base + 5 * 64);
	run(p, MP_OP_CHASE, start, 64, &s);
	CHECK_EQ_INT(s.count[MP_EV_L1D_MISS], 1, "flush_line: one miss");
	p->ops->flush_all(p);
	run(p, MP_OP_CHASE, start, 64, &s);
	CHECK(s.count[MP_EV_L1D_MISS] == 64 && s.count[MP_EV_DTLB1_MISS] == 1,
	      "flush_all: caches and TLBs empty");
	p->ops->mem_free(p, &m);
	expect_run(p, MP_OP_CHASE, start, 10, &s, MP_EIO, "freed memory: EIO, no crash");
	mp_sim_close(p);
}

/* The most runs time_hits takes. */
#define HIT_RUNS 2445

/* One-line chases that hit the L1, timed back to back (time_hits). */
struct hits {
	uint64_t ticks[HIT_RUNS], cycles[HIT_RUNS];   /* each run's ticks, counted cycles */
	uint64_t t0;            /* now() before the first */
	uint64_t sum;           /* their ticks */
	uint64_t elapsed;       /* now() after the last, less t0 */
};

/*
 * n one-line chases (n at most HIT_RUNS), each an L1 hit of 4 cycles,
 * after a first that warms the line, on a model whose clock line is
 * `clock`.
 */
static void time_hits(const char *clock, unsigned n, struct hits *h)
{
	char text[256];
	struct mp_platform *p;
	struct mp_sample s;
	struct mp_mem m;
	void *start;

	snprintf(text, sizeof(text), "%s\ncache L1D size=32K line=64 ways=8 latency=4\n"
		 "memory latency=100\n", clock);
	p = platform(text, false);
	alloc(p, 1 << 20, MP_PAGE_ANY, &m);
	start = chain(&m, 1, 64);
	run(p, MP_OP_CHASE, start, 1, &s);
	h->t0 = p->ops->now(p);
	h->sum = 0;
	for (unsigned i = 0; i < n; i++) {
		run(p, MP_OP_CHASE, start, 1, &s);
		h->ticks[i] = s.ticks;
		h->cycles[i] = s.count[MP_EV_CYCLES];
		h->sum += s.ticks;
	}
	h->elapsed = p->ops->now(p) - h->t0;
	p->ops->mem_free(p, &m);
	mp_sim_close(p);
}

/* Back to back, n runs' ticks add up to the cycles spent, within a step. */
static void check_adds_up(const struct hits *h, unsigned n, uint64_t step)
{
	CHECK(h->sum == h->elapsed && h->sum + step > n * 4ull && h->sum < n * 4ull + step,
	      "the runs' ticks add up to the cycles (%llu for %u)", (unsigned long long)h->sum,
	      n * 4);
}

/*
 * clock step=26: the platform's clock reads in steps of 26 cycles (AMD's
 * TSC), one L1 hit a run reads 0 or 26, and back to back the runs' ticks
 * add up to the cycles spent; the counters' cycles stay exact.
 */
static void test_clock_step(void)
{
	static struct hits h;
	unsigned steps = 0, exact = 0;

	time_hits("clock freq=2G step=26", 260, &h);
	for (unsigned i = 0; i < 260; i++) {
		steps += h.ticks[i] % 26 == 0;
		exact += h.cycles[i] == 4;
	}
	CHECK(steps == 260 && h.t0 % 26 == 0, "ticks and now() in steps of 26");
	CHECK(exact == 260, "the counters' cycles stay exact: 4 a run");
	check_adds_up(&h, 260, 26);
}

/*
 * clock step=24.45: a TSC of 2.445 GHz that a hypervisor updates at 100
 * MHz (this project's Zen 3 guest) reads in steps of 24 and 25 in turn:
 * one L1 hit a run reads 0, 24 or 25, both steps seen, and back to back
 * the runs' ticks add up to the cycles spent.
 */
static void test_clock_fraction(void)
{
	static struct hits h;
	unsigned seen24 = 0, seen25 = 0, other = 0;

	time_hits("clock freq=2.445G step=24.45", HIT_RUNS, &h);
	for (unsigned i = 0; i < HIT_RUNS; i++) {
		seen24 += h.ticks[i] == 24;
		seen25 += h.ticks[i] == 25;
		other += h.ticks[i] != 0 && h.ticks[i] != 24 && h.ticks[i] != 25;
	}
	CHECK(other == 0 && seen24 > 0 && seen25 > 0,
	      "runs read 0, 24 or 25 (24: %u, 25: %u, other: %u)", seen24, seen25, other);
	check_adds_up(&h, HIT_RUNS, 25);
}

/* Two counters: the two lowest events asked that the model has, and only those counted. */
static void test_counters(void)
{
	char text[1024];
	struct mp_platform *p;
	struct mp_run r = { .op = MP_OP_CHASE, .steps = 64, .region = "chain" };
	struct mp_sample s;
	struct mp_mem m;

	snprintf(text, sizeof(text), "%spmu counters=2\n", model_text);
	p = platform(text, false);
	alloc(p, 1 << 20, MP_PAGE_ANY, &m);
	r.start = chain(&m, 64, 64);
	r.events = MP_EV_BIT(MP_EV_L2_MISS) | MP_EV_BIT(MP_EV_L1D_MISS) |
		   MP_EV_BIT(MP_EV_DTLB1_MISS) | MP_EV_BIT(MP_EV_LOADS);
	p->ops->run(p, &r, &s);
	CHECK(s.valid == (MP_EV_BIT(MP_EV_LOADS) | MP_EV_BIT(MP_EV_L1D_MISS)),
	      "counters=2: loads and L1D misses, not L2 (not modelled) nor DTLB1 (valid %#x)",
	      s.valid);
	CHECK(s.count[MP_EV_L1D_MISS] == 64 && s.count[MP_EV_DTLB1_MISS] == 0,
	      "counters=2: the counted event counts, the other reads 0");
	r.events = MP_EV_BIT(MP_EV_DTLB1_MISS);
	p->ops->flush_all(p);
	p->ops->run(p, &r, &s);
	CHECK(s.valid == MP_EV_BIT(MP_EV_DTLB1_MISS) && s.count[MP_EV_DTLB1_MISS] == 1,
	      "counters=2: DTLB1 asked alone is counted");
	p->ops->mem_free(p, &m);
	mp_sim_close(p);
}

/* A block of 100 bytes spans three 64-byte lines from offset 32, and from 12192 too (two pages). */
static void test_block_lines(void)
{
	struct mp_platform *p = platform(model_text, false);
	struct mp_mem_req req = { .bytes = 1 << 16, .align = 4096, .exec = true };
	static const uint64_t offsets[] = { 32, 8192 + 4000 };
	struct mp_mem code;
	struct mp_sample s;
	void *entry = NULL;

	p->ops->mem_alloc(p, &req, &code);
	CHECK_EQ_INT(p->ops->code_build(p, &code, &(struct mp_code){ offsets, 2, 100, false }, &entry),
		     MP_OK, "code_build of long blocks");
	expect_run(p, MP_OP_CODE, entry, 2, &s, MP_OK, "long blocks run");
	CHECK(s.count[MP_EV_L1I_MISS] == 6 && s.count[MP_EV_ITLB1_MISS] == 3,
	      "every line a block spans is fetched: 3 + 3 lines, the second block on two pages "
	      "(%llu misses, %llu ITLB misses)", (unsigned long long)s.count[MP_EV_L1I_MISS],
	      (unsigned long long)s.count[MP_EV_ITLB1_MISS]);
	expect_run(p, MP_OP_CODE, entry, 20, &s, MP_OK, "long blocks run again");
	CHECK(s.count[MP_EV_L1I_MISS] == 0 && s.ticks == 20 * 3 * 6 / 2,
	      "then every line hits: 6 lines of 3 cycles per two blocks (%llu ticks)",
	      (unsigned long long)s.ticks);
	p->ops->mem_free(p, &code);
	mp_sim_close(p);
}

static void test_sweeps_and_code(void)
{
	struct mp_platform *p = platform(model_text, false);
	struct mp_mem_req req = { .bytes = 1 << 20, .align = 4096, .exec = true };
	static const uint64_t offsets[] = { 0, 4096, 8192 };
	struct mp_sample s;
	struct mp_mem m, code;
	void *entry = NULL;
	enum mp_status st;
	int local;

	alloc(p, 1 << 20, MP_PAGE_ANY, &m);
	run(p, MP_OP_LOAD_SWEEP, m.base, 32, &s);
	CHECK(s.count[MP_EV_LOADS] == 32 && s.count[MP_EV_L1D_MISS] == 16,
	      "load sweep wraps at 16");
	run(p, MP_OP_STORE_SWEEP, m.base, 32, &s);
	CHECK(s.count[MP_EV_STORES] == 32 && s.count[MP_EV_LOADS] == 0, "store sweep");
	p->ops->mem_alloc(p, &req, &code);
	st = p->ops->code_build(p, &code, &(struct mp_code){ offsets, 3, 16, false }, &entry);
	CHECK_EQ_INT(st, MP_OK, "code_build");
	CHECK(entry == code.base, "entry is the first block");
	expect_run(p, MP_OP_CODE, entry, 30, &s, MP_OK, "code runs");
	CHECK(s.count[MP_EV_INSTRUCTIONS] == 30 && s.count[MP_EV_L1I_MISS] == 3 &&
	      s.count[MP_EV_ITLB1_MISS] == 3 && s.count[MP_EV_L1D_MISS] == 0,
	      "code: 3 blocks on 3 pages fetched 10 times");
	expect_run(p, MP_OP_CODE, entry, 31, &s, MP_OK, "code runs on");
	CHECK(s.end == code.base + 4096, "a run ends at the block after the last one run");
	st = p->ops->code_build(p, &code, &(struct mp_code){ offsets, 3, 15, false }, &entry);
	CHECK_EQ_INT(st, MP_EIO, "a block shorter than the platform's shortest is refused");
	expect_run(p, MP_OP_CODE, m.base, 3, &s, MP_EIO, "no chain there: EIO");
	expect_run(p, MP_OP_CHASE, &local, 3, &s, MP_EIO, "unmapped start: EIO");
	expect_run(p, MP_OP_COUNT, m.base, 3, &s, MP_UNSUPPORTED, "unknown op");
	p->ops->mem_free(p, &code);
	p->ops->mem_free(p, &m);
	mp_sim_close(p);
}

/* n blocks 256 bytes apart (one set of a 4-set decoded-op cache of 64-byte lines), timed after a warm run. */
static uint64_t opcache_cycles(struct mp_platform *p, struct mp_mem *code, uint64_t n, bool serial)
{
	static const uint64_t offsets[] = { 0, 256, 512 };
	struct mp_sample s;
	void *entry = NULL;

	CHECK_EQ_INT(p->ops->code_build(p, code, &(struct mp_code){ offsets, n, 16, serial }, &entry),
		     MP_OK, "code_build");
	expect_run(p, MP_OP_CODE, entry, 30, &s, MP_OK, "warm");
	expect_run(p, MP_OP_CODE, s.end, 60, &s, MP_OK, "timed");
	return s.ticks;
}

/*
 * The decoded-op cache (`opcache`, 8 lines of 2 ways, 1 cycle) delivers a
 * predicted chain's lines it holds, never a serial chain's; an over-full
 * set and a flushed line are fetched from the L1I (3 cycles).
 */
static void test_opcache(void)
{
	char text[512];
	struct mp_platform *p;
	struct mp_mem_req req = { .bytes = 1 << 16, .align = 4096, .exec = true };
	struct mp_mem code;
	struct mp_sample s;

	snprintf(text, sizeof(text), "%sopcache windows=8 ways=2 latency=1\n", model_text);
	p = platform(text, false);
	if (!p)
		return;
	p->ops->mem_alloc(p, &req, &code);
	CHECK_EQ_INT(opcache_cycles(p, &code, 2, false), 60, "two predicted lines in one set: 1 cycle each");
	CHECK_EQ_INT(opcache_cycles(p, &code, 2, true), 180, "serial: 3 cycles each, from the L1I");
	CHECK_EQ_INT(opcache_cycles(p, &code, 3, false), 180, "three in two ways: every one from the L1I");
	opcache_cycles(p, &code, 2, false);
	p->ops->flush_line(p, code.base);
	expect_run(p, MP_OP_CODE, code.base, 2, &s, MP_OK, "after a flush of block 0's line");
	CHECK_EQ_INT(s.ticks, 1 + 100, "its line comes from memory, block 1's from the op cache");
	p->ops->mem_free(p, &code);
	mp_sim_close(p);
}

/* Every platform rounds an allocation up to whole pages, and the rest may be used. */
static void test_alloc_rounds_up(void)
{
	struct mp_platform *p = platform(model_text, false);
	struct mp_mem m;
	enum mp_status st = alloc(p, 5000, MP_PAGE_4K, &m);

	CHECK(st == MP_OK && m.bytes == 8192, "5000 bytes of 4K pages: 8192 (got %llu)",
	      (unsigned long long)m.bytes);
	m.base[8191] = 1;
	st = run(p, MP_OP_LOAD_SWEEP, m.base + 8128, 1, &(struct mp_sample){ 0 });
	CHECK_EQ_INT(st, MP_OK, "the rounded-up part is mapped");
	p->ops->mem_free(p, &m);
	mp_sim_close(p);
}

static uint64_t sum(const uint64_t c[MP_SIM_NCAUSES])
{
	uint64_t n = 0;

	for (int i = 0; i < MP_SIM_NCAUSES; i++)
		n += c[i];
	return n;
}

/* probe_begin names the probe misses are counted under, probe_end ends it. */
static void test_explain(void)
{
	struct mp_platform *p = platform(model_text, true);
	uint64_t c[MP_SIM_NCAUSES];
	struct mp_sample s;
	struct mp_mem m;

	alloc(p, 1 << 20, MP_PAGE_ANY, &m);
	p->ops->probe_begin(p, "demo");
	run(p, MP_OP_CHASE, chain(&m, 64, 64), 128, &s);
	CHECK(mp_sim_causes(mp_sim_of(p), "demo", "chain", "L1D", c) && c[MP_SIM_COLD] == 64,
	      "64 cold misses under probe demo, region chain");
	p->ops->probe_end(p, "demo");
	p->ops->flush_all(p);
	run(p, MP_OP_CHASE, m.base, 64, &s);
	CHECK(mp_sim_causes(mp_sim_of(p), "demo", "chain", "L1D", c) && sum(c) == 64,
	      "after probe_end, no more misses under probe demo (%llu)",
	      (unsigned long long)sum(c));
	CHECK(mp_sim_causes(mp_sim_of(p), "-", "chain", "L1D", c) && sum(c) == 64,
	      "but under no probe (%llu)", (unsigned long long)sum(c));
	p->ops->mem_free(p, &m);
	mp_sim_close(p);
}

int main(void)
{
	test_fields_and_memory();
	test_contiguous_request();
	test_host_frames();
	test_chase();
	test_clock_step();
	test_clock_fraction();
	test_counters();
	test_sweeps_and_code();
	test_block_lines();
	test_opcache();
	test_alloc_rounds_up();
	test_explain();
	return check_done();
}
