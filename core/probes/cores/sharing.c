/* SPDX-License-Identifier: MIT */
/*
 * Which logical CPUs share each data cache level, measured (X-Ray's SMT and
 * SMP tests; docs/algorithms.md, "Sharing").  CPU A, the core type's first
 * usable CPU, chases a footprint of 15/16 of the level (it fits
 * the level, not the one above); partner B sweeps a footprint of the whole
 * level beside it (run_beside).  If they share the level, B's lines push A's
 * out and A's chase slows down to the next level's latency; if not, B's
 * sweep stays in its own cache.  The control is the same run with B
 * sweeping a few lines only, so that what the sibling thread takes of the
 * core's pipeline is not mistaken for sharing.
 *
 * Partners are a bounded sample, not every CPU: A's SMT sibling; then the
 * other cores of A's package in order of distance (higher core numbers
 * first, then lower), where the sharing cores are taken to be a prefix of
 * that order (a cluster of neighbouring cores) and found by a galloping
 * search; then, when the whole package shares, a CPU of another package.  Each test
 * is decided by votes.  shared_by counts the usable logical CPUs of the
 * sharing cores.
 */
#include "core/lib/bits.h"
#include "core/lib/buf.h"
#include "core/lib/rng.h"
#include "core/measure/timing.h"
#include "core/measure/vote.h"
#include "core/probes/cores/cores.h"
#include "core/seq/refstring.h"

/* Votes on one partner: 3 of 5 decide (mp_tally_settled stops early). */
#define SHARE_VOTES 5u
/*
 * The control load: a sweep of one line, which keeps the sibling's load
 * pipeline as busy as the real sweep and takes no room from A's footprint
 * (16 lines filled the last eighth of an 8K L1 beside A's seven: the
 * control itself missed).
 */
#define SHARE_IDLE_LINES 1u
/*
 * A's slowdown that says "shared": a quarter of the way from the level's
 * latency to the next level's (full eviction slows A by the whole step),
 * within these bounds; the upper one when a latency is not known.  The
 * lower bound is the smallest latency step the step analysis accepts
 * between levels (MP_STEP_MIN_RISE, 10%).  The upper one is low because
 * eviction may be partial: in the simulator B's sweep advances in
 * simulated time, as slowly as its misses, and the hybrid model's P-core
 * L2 shared with the SMT sibling slowed A by 1.34 to 1.45 only (a private
 * level slows it by 1.00 there; on hardware B's independent loads overlap
 * and evict much more).
 */
#define SHARE_STEP_PART 4.0
#define SHARE_MIN_SLOWDOWN 1.10
#define SHARE_MAX_SLOWDOWN 1.25
/*
 * A's footprint: this fraction of the level (in sixteenths).  Close to the
 * whole level, so that little of B's sweep pushes A out: the simulator
 * interleaves the two in simulated time, and a sweep that misses is slower
 * there than A's hits (on hardware the sweep's independent loads overlap
 * and it runs ahead).  At 3/4 the SMT model's L2 (skylake-smt) and at 7/8
 * the hybrid's P-core L2 (alderlake-hybrid: a miss costs 65 cycles against
 * 15, so B makes a quarter as many accesses as A) were found not shared.
 */
#define SHARE_CHASE_SIXTEENTHS 15u
/*
 * The sweep's stride when the line was not measured: 32 bytes, the
 * smallest line of the modelled and documented machines, so that every
 * line of the level is touched whatever its size.
 */
#define SHARE_LINE_GUESS 32u

struct test {
	struct mp_ctx *c;
	uint32_t a;                  /* the CPU chasing */
	int32_t level;
	struct mp_chase ch;
	uint64_t steps;              /* loads of A per timed run: whole passes */
	struct mp_run load, idle;    /* B's sweep of the level; the control's few lines */
	double threshold;
	const char *why;             /* why the last test decided nothing */
};

/* The data or unified level of t below `level` that is closest to it, or NULL. */
static const struct mp_cache *above(const struct mp_core_type *t, int32_t level)
{
	const struct mp_cache *best = NULL;

	for (int32_t i = 0; i < mp_count(t->ncaches, MP_MAX_CACHES); i++) {
		const struct mp_cache *k = &t->caches[i];

		if (k->type != MP_KIND_INSTRUCTION && k->level < level &&
		    (!best || k->level > best->level))
			best = k;
	}
	return best;
}

static int64_t bytes_of(const struct mp_cache *k)
{
	return !k ? 0 : k->size_bytes > 0 ? k->size_bytes : k->effective_size_bytes;
}

static double slowdown_needed(const struct mp_core_type *t, const struct mp_cache *k,
			      double memory_cycles)
{
	const struct mp_cache *next = NULL;
	double step, lo = k->latency_cycles, hi = memory_cycles;

	for (int32_t i = 0; i < mp_count(t->ncaches, MP_MAX_CACHES); i++)
		if (t->caches[i].type != MP_KIND_INSTRUCTION && t->caches[i].level > k->level &&
		    (!next || t->caches[i].level < next->level))
			next = &t->caches[i];
	hi = next ? next->latency_cycles : hi;
	if (mp_is_na(lo) || mp_is_na(hi) || lo <= 0)
		return SHARE_MAX_SLOWDOWN;
	step = 1.0 + (hi / lo - 1.0) / SHARE_STEP_PART;
	return step < SHARE_MIN_SLOWDOWN ? SHARE_MIN_SLOWDOWN
	       : step > SHARE_MAX_SLOWDOWN ? SHARE_MAX_SLOWDOWN : step;
}

/* B's run beside A's chase, interrupts masked where the platform can; A's ticks. */
static enum mp_status beside(struct test *t, uint32_t b, const struct mp_run *load,
			     uint64_t *ticks)
{
	struct mp_platform *p = t->c->p;
	struct mp_run r = { .op = MP_OP_CHASE, .start = t->ch.cursor, .steps = t->steps,
			    .region = "sharing" };
	struct mp_sample s = { 0 };
	enum mp_status masked, st;

	masked = p->ops->irq_mask(p);
	st = p->ops->run_beside(p, &r, &s, b, load);
	if (masked == MP_OK)
		p->ops->irq_unmask(p);
	t->ch.cursor = st == MP_OK ? s.end : t->ch.cursor;
	*ticks = s.ticks;
	return st;
}

/* Does B share the level with A: MP_YES, MP_NO, or MP_UNKNOWN when a run failed. */
static enum mp_tristate shares(struct test *t, uint32_t b)
{
	int64_t votes[SHARE_VOTES];
	struct mp_tally tally = mp_tally_none();
	unsigned n = 0;

	double slowdown = 0;

	while (n < SHARE_VOTES && !(n && mp_tally_settled(&tally, SHARE_VOTES - n))) {
		uint64_t quiet, loaded;

		/* warm once: the control evicts nothing, the loaded run after it starts warm */
		if (mp_chase_warm(t->c, &t->ch) != MP_OK || beside(t, b, &t->idle, &quiet) != MP_OK ||
		    beside(t, b, &t->load, &loaded) != MP_OK) {
			t->why = "a run beside another CPU failed";
			return MP_UNKNOWN;
		}
		slowdown = quiet ? (double)loaded / (double)quiet : 0;
		votes[n++] = slowdown >= t->threshold;
		mp_tally_count(votes, n, &tally);
	}
	mp_logf(t->c->p, MP_LOG_INFO, "cores: L%d of CPU %u beside CPU %u: %s (%d of %d votes; "
		"last slowdown %.2f)", (int)t->level, (unsigned)t->a, (unsigned)b,
		!mp_tally_stable(&tally) ? "votes split" : tally.value ? "shared" : "not shared",
		(int)tally.votes, (int)tally.of, slowdown);
	if (!mp_tally_stable(&tally)) {
		t->why = "the votes on a partner split (under two thirds agreed)";
		return MP_UNKNOWN;
	}
	return tally.value ? MP_YES : MP_NO;
}

/* ---- the partners ---- */

/* A's SMT sibling (the first usable), or MP_CPU_UNKNOWN. */
static uint32_t sibling(const struct mp_cpus *s, uint32_t a)
{
	for (uint32_t i = 0; i < s->usable; i++)
		if (i != a && mp_cpu_same_core(&s->info[i], &s->info[a]))
			return i;
	return MP_CPU_UNKNOWN;
}

/* Is CPU i the first usable CPU of its core? */
static bool core_first(const struct mp_cpus *s, uint32_t i)
{
	for (uint32_t j = 0; j < i; j++)
		if (mp_cpu_same_core(&s->info[j], &s->info[i]))
			return false;
	return true;
}

/* The order of distance from A's core: higher core numbers upward, then lower downward. */
static uint64_t distance(uint32_t a, uint32_t core)
{
	return core > a ? core - a : ((uint64_t)1 << 32) + (a - core);
}

/* Is CPU x's core nearer A's than CPU y's? */
static bool nearer(const struct mp_cpu_info *a, const struct mp_cpus *s, uint32_t x, uint32_t y)
{
	return distance(a->core, s->info[x].core) < distance(a->core, s->info[y].core);
}

static uint32_t order[MP_MAX_CPUS];

/* The first CPU of every other core of A's package, nearest first; how many. */
static uint32_t other_cores(const struct mp_cpus *s, uint32_t a)
{
	const struct mp_cpu_info *ia = &s->info[a];
	uint32_t n = 0;

	for (uint32_t i = 0; i < s->usable; i++)
		if (s->info[i].package == ia->package && !mp_cpu_same_core(&s->info[i], ia) &&
		    core_first(s, i))
			order[n++] = i;
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t j = i; j > 0 && nearer(ia, s, order[j], order[j - 1]); j--) {
			uint32_t tmp = order[j];

			order[j] = order[j - 1];
			order[j - 1] = tmp;
		}
	return n;
}

/* Usable CPUs of A's core and of the first `k` cores of the order; of the package (k = all). */
static int32_t count_cpus(const struct mp_cpus *s, uint32_t a, uint32_t k, bool package)
{
	int32_t n = 0;

	for (uint32_t i = 0; i < s->usable; i++) {
		bool in = package ? s->info[i].package == s->info[a].package
				  : mp_cpu_same_core(&s->info[i], &s->info[a]);

		for (uint32_t j = 0; !in && j < k; j++)
			in = mp_cpu_same_core(&s->info[i], &s->info[order[j]]);
		n += in;
	}
	return n;
}

/* A usable CPU of another package, or MP_CPU_UNKNOWN. */
static uint32_t other_package(const struct mp_cpus *s, uint32_t a)
{
	for (uint32_t i = 0; i < s->usable; i++)
		if (s->info[i].package != s->info[a].package)
			return i;
	return MP_CPU_UNKNOWN;
}

/*
 * How many of the ordered cores share with A; -1 on failure.  The sharing
 * cores are a prefix of the order: positions 0, 2, 6, 14, ... are tried
 * (each step twice the last) until one does not share, then the boundary
 * is found by binary search between the last that shares and it.  A private
 * level costs one test, a prefix of k cores about 2 log2 k.
 */
static int64_t sharing_cores(struct test *t, uint32_t n)
{
	int64_t lo = -1, hi = n, step = 1;

	while (hi == n && lo < (int64_t)n - 1) {
		int64_t at = lo + step < (int64_t)n ? lo + step : (int64_t)n - 1;
		enum mp_tristate got = shares(t, order[at]);

		if (got == MP_UNKNOWN)
			return -1;
		*(got == MP_YES ? &lo : &hi) = at;
		step *= 2;
	}
	while (hi - lo > 1) {
		int64_t mid = (lo + hi) / 2;
		enum mp_tristate got = shares(t, order[mid]);

		if (got == MP_UNKNOWN)
			return -1;
		*(got == MP_YES ? &lo : &hi) = mid;
	}
	return lo + 1;
}

/* Logical CPUs sharing the level with A, or MP_NA when a run failed. */
static int32_t sharing_of(struct test *t, const struct mp_cpus *s, uint32_t a)
{
	uint32_t sib = sibling(s, a), n = other_cores(s, a), far;
	enum mp_tristate got = sib == MP_CPU_UNKNOWN ? MP_YES : shares(t, sib);
	int64_t k;

	if (got != MP_YES)
		return got == MP_NO ? 1 : MP_NA;
	k = sharing_cores(t, n);
	if (k < 0)
		return MP_NA;
	if (k < (int64_t)n || (far = other_package(s, a)) == MP_CPU_UNKNOWN)
		return count_cpus(s, a, (uint32_t)k, false);
	got = shares(t, far);
	return got == MP_YES ? (int32_t)s->usable
	       : got == MP_NO ? count_cpus(s, a, 0, true) : MP_NA;
}

/* ---- one level ---- */

/* A's chase over its footprint and B's sweeps, in memory of their own; false when not possible. */
static bool set_up(struct test *t, const struct mp_core_type *ty, const struct mp_cache *k,
		   struct mp_mem *chase, struct mp_mem *load, double memory_cycles)
{
	uint64_t size = (uint64_t)bytes_of(k);
	uint64_t line = k->line_bytes > 0 ? (uint64_t)k->line_bytes : SHARE_LINE_GUESS;
	uint64_t foot = size / 16 * SHARE_CHASE_SIXTEENTHS / line * line;
	struct mp_rng g;
	void *start;

	if (mp_probe_alloc_contig(t->c, foot, chase) != MP_OK)
		return false;
	if (mp_probe_alloc_contig(t->c, size, load) != MP_OK) {
		t->c->p->ops->mem_free(t->c->p, chase);
		return false;
	}
	mp_rng_seed(&g, t->c->cfg->seed);
	start = mp_ref_ck(chase->base, foot, mp_pow2_floor(foot) * 2, line, &g);
	t->ch = (struct mp_chase){ start, foot / line, "sharing", MP_OP_CHASE };
	t->steps = (MP_WINDOW_STEPS + t->ch.length - 1) / t->ch.length * t->ch.length;
	t->load = (struct mp_run){ .op = MP_OP_LOAD_SWEEP, .start = load->base, .stride = line,
				   .count = size / line, .steps = size / line, .region = "sharer" };
	t->idle = t->load;
	t->idle.count = t->idle.steps = SHARE_IDLE_LINES;
	t->threshold = slowdown_needed(ty, k, memory_cycles);
	return true;
}

/*
 * Why a level's sharing cannot be measured, or NULL.  Without its physical
 * size the footprints come from its effective size, and "not shared" means
 * something only where the two together overfill what the level may be:
 * its documented size (docs/algorithms.md, "Sharing").
 */
static const char *unmeasurable(const struct mp_ctx *c, const struct mp_core_type *t,
				const struct mp_cache *k)
{
	uint64_t size = (uint64_t)bytes_of(k), prev = (uint64_t)bytes_of(above(t, k->level));
	const struct mp_cache *d = mp_result_documented_cache(c->r, k->level);
	uint64_t doc = d && d->size_bytes > 0 ? (uint64_t)d->size_bytes : 0;

	if (size == 0)
		return "its size was not measured";
	if (k->size_bytes <= 0 && (!doc || size + size / 16 * SHARE_CHASE_SIXTEENTHS <= doc))
		return "its physical size is not measured, and two footprints of its effective "
		       "size do not overfill what it may be (its documented size)";
	if (size / 16 * SHARE_CHASE_SIXTEENTHS <= prev)
		return "it is hardly larger than the level above";
	if (size * 2 > c->cfg->arena_bytes)
		return "two footprints of its size do not fit the arena";
	return NULL;
}

/* A level whose sharing the tests could not decide: said in the log and the notes. */
static void note_unmeasured(struct mp_ctx *c, const struct mp_core_type *t,
			    const struct mp_cache *k, const char *why)
{
	char text[MP_NOTE_LEN];

	mp_snprintf(text, sizeof(text), "cores: %s L%d sharing not measured: %s", t->name,
		    (int)k->level, why ? why : "?");
	mp_log(c->p, MP_LOG_INFO, text);
	mp_result_add_note(c->r, text);
}

static void measure_level(struct mp_ctx *c, const struct mp_cpus *s, struct mp_core_type *t,
			  struct mp_cache *k, uint32_t a, double memory_cycles)
{
	const char *why = unmeasurable(c, t, k);
	struct test test = { .c = c, .a = a, .level = k->level };
	struct mp_mem chase, load;

	if (why) {
		mp_logf(c->p, MP_LOG_INFO, "cores: %s L%d sharing not measured: %s", t->name,
			(int)k->level, why);
		return;
	}
	if (!set_up(&test, t, k, &chase, &load, memory_cycles))
		return;
	k->shared_by = sharing_of(&test, s, a);
	if (k->shared_by == MP_NA)
		note_unmeasured(c, t, k, test.why);
	else
		mp_logf(c->p, MP_LOG_INFO, "cores: %s L%d shared by %d logical CPU(s) (slowdown "
			"that says shared: %.2f)", t->name, (int)k->level, (int)k->shared_by,
			test.threshold);
	c->p->ops->mem_free(c->p, &load);
	c->p->ops->mem_free(c->p, &chase);
}

void mp_sharing_measure(struct mp_ctx *c, const struct mp_cpus *s, struct mp_core_type *t,
			double memory_cycles)
{
	uint32_t a = mp_core_type_first(s, t);

	if (a == MP_CPU_UNKNOWN || s->usable < 2 || !c->p->ops->run_beside ||
	    mp_cpu_select(c->p, a) != MP_OK)
		return;
	for (int32_t i = 0; i < mp_count(t->ncaches, MP_MAX_CACHES); i++) {
		if (t->caches[i].type == MP_KIND_INSTRUCTION)
			continue;
		mp_progress(c->p, "sharing", (uint64_t)i, (uint64_t)t->ncaches);
		measure_level(c, s, t, &t->caches[i], a, memory_cycles);
	}
	mp_cpu_select(c->p, 0);
}
