/* SPDX-License-Identifier: MIT */
/*
 * Replacement policy of one cache level, by timing.
 *
 * AMP 3.5: fill a set with A lines, touch the first A-1 again, bring in an
 * A+1st; then see which line left.  Always the same one: some LRU-like
 * policy; a different one each time: random.  Here the experiment runs on
 * `sets` sets of the level at once (each set a row of consecutive lines,
 * so one timed chase over a row probes a line in every set) and the
 * outcome of a set is read from the time of that chase.  Random
 * replacement shows as every line missing in a few sets instead of one
 * line missing in all, and in other sets each run.
 *
 * nanoBench's cache analyzer goes further: it runs access sequences whose
 * outcomes differ between policies and compares with simulations.  So do
 * we, with the simulations of core/probes/policy/set_model.c: sequences are drawn at
 * random until one tells the policies still in the running apart, and the
 * ones whose prediction fails are dropped.
 *
 * Every access to a line of the level under test is followed by enough
 * other lines in the same sets of the levels above, but in other sets of
 * this level, to push it out of the levels above (nanoBench does the
 * same), so that every access of the sequence reaches this level.  Before
 * each experiment the lines are flushed and the sets filled with A lines
 * missed in a row, which leaves LRU, FIFO and tree PLRU in a known state
 * whatever came before.
 */
#include "core/lib/bits.h"
#include "core/measure/timing.h"
#include "core/probes/policy/policy.h"
#include "core/probes/policy/set_model.h"
#include "core/seq/refstring.h"

/*
 * A probed line is "clean" when present in all but REPL_CLEAN of the sets
 * or in no more than REPL_CLEAN of them.  Random replacement of an A-way
 * set loses a line in about 1/A of the sets (a few of the TIMED_SETS), a
 * policy that decides by the history in all or none.
 */
#define REPL_CLEAN 0.1
/*
 * Sets probed at once: enough that the probe's time difference dwarfs the
 * clock's noise, and at most 1 / REPL_SET_SHARE of the sets a row could
 * span: a row is read as a run of consecutive lines, and a stride
 * prefetcher then fetches a few lines past its end, which must fall in
 * sets the experiment does not use, not on the next row's lines.
 */
#define TIMED_SETS 32u
#define REPL_SET_SHARE 2u
/* Runs of an experiment; the minimum is kept (AMP 2.2 takes the minimum of 8). */
#define REPL_REPEATS 5u
/* Sets apart that random replacement moves a lost line by, from run to run, at least. */
#define REPL_MOVED 0.5
/* Distinguishing experiments after AMP's, and random sequences tried to find each. */
#define REPL_TESTS 6u
#define REPL_CANDIDATES 400u
/*
 * The fallback test (repeatable): the spread of its repeats that counts as
 * random: REPL_SPREAD_K times that of a string that fits, and at least
 * REPL_SPREAD_MIN (a thousandth: well above the simulator's exact repeats,
 * below the tenths of a percent to percents by which random replacement
 * moves from one repeat to the next).
 */
#define REPL_SPREAD_REPEATS 3u
#define REPL_OVER_DIV 4u
#define REPL_SPREAD_K 4.0
#define REPL_SPREAD_MIN 0.001
/* Rows: A fillers and the experiment's A + 2 lines. */
#define REPL_MAX_ROWS (2u * MP_SET_MODEL_MAX_WAYS + 2u)
#define REPL_EXTRA 2u

struct repl {
	struct pol_ctx *p;
	const struct pol_level *lv;
	uint64_t sets;           /* sets probed at once */
	uint64_t up_way;         /* way size of the levels above (0: none) */
	uint64_t up_ways;        /* evictions after each access */
	uint64_t span;           /* evictor slots: way strides inside one of ours */
	uint64_t pool, next_ev;
	uint64_t rows;
	void *chain[REPL_MAX_ROWS];
	double t_hit, t_miss;
	bool exclusive;
	uint32_t murky;          /* AMP's test: its line lost in the most mixed share of sets */
	const char *why;         /* the policy not told: why */
};

/* The experiment's lines (block b) come after the A fillers. */
static uint64_t row_of(const struct repl *r, uint64_t b)
{
	return r->lv->ways + b;
}

static uint8_t *row_at(const struct repl *r, uint64_t k)
{
	return r->p->m->base + k * r->lv->way_bytes;
}

static enum mp_status sweep(struct repl *r, uint8_t *at)
{
	struct mp_run run = {
		.op = MP_OP_LOAD_SWEEP, .start = at, .stride = r->lv->line, .count = r->sets,
		.steps = r->sets, .region = "policy",
	};
	struct mp_sample s;

	return mp_run(r->p->c->p, &run, &s);
}

/* Lines in the same sets of the levels above, other sets here, in turn. */
static enum mp_status evict(struct repl *r)
{
	enum mp_status st = MP_OK;

	for (uint64_t i = 0; i < r->up_ways && st == MP_OK; i++) {
		uint64_t e = r->next_ev++ % r->pool;
		uint64_t j = 1 + e % r->span, m = e / r->span;

		st = sweep(r, r->p->m->base + j * r->up_way + m * r->lv->way_bytes);
	}
	return st;
}

static enum mp_status touch(struct repl *r, uint64_t k)
{
	enum mp_status st = sweep(r, row_at(r, k));

	return st == MP_OK ? evict(r) : st;
}

static enum mp_status reset(struct repl *r)
{
	enum mp_status st = MP_OK;

	for (uint64_t k = 0; k < r->rows && st == MP_OK; k++)
		st = mp_policy_flush(r->p, row_at(r, k), r->sets * r->lv->line, r->lv->line);
	for (uint64_t k = 0; k < r->lv->ways && st == MP_OK; k++)
		st = touch(r, k);
	return st;
}

/*
 * One run: reset, the sequence, the timed probe of line `probe`.  Just
 * before the probe, one load of a line beside its row (in a set the
 * experiment leaves alone) brings the row's page into the TLB, so that the
 * probe times the cache alone.
 */
static enum mp_status once(struct repl *r, const uint8_t *seq, uint32_t len, uint32_t probe,
			   double *ticks)
{
	uint8_t *row = row_at(r, row_of(r, probe));
	struct mp_run run = {
		.op = MP_OP_CHASE, .start = r->chain[row_of(r, probe)], .steps = r->sets,
		.region = "policy",
	};
	struct mp_run page = {
		.op = MP_OP_LOAD_SWEEP, .start = row + r->sets * r->lv->line, .stride = r->lv->line,
		.count = 1, .steps = 1, .region = "policy",
	};
	struct mp_sample s;
	enum mp_status st = reset(r);

	for (uint32_t i = 0; i < len && st == MP_OK; i++)
		st = touch(r, row_of(r, seq[i]));
	if (st == MP_OK)
		st = mp_run(r->p->c->p, &page, &s);
	if (st == MP_OK)
		st = mp_run(r->p->c->p, &run, &s);
	*ticks = (double)s.ticks;
	return st;
}

static enum mp_status timed(struct repl *r, const uint8_t *seq, uint32_t len, uint32_t probe,
			    double *ticks)
{
	*ticks = 1e300;
	for (unsigned k = 0; k < REPL_REPEATS; k++) {
		double t;
		enum mp_status st = once(r, seq, len, probe, &t);

		if (st != MP_OK)
			return st;
		*ticks = t < *ticks ? t : *ticks;
	}
	return MP_OK;
}

/* Fraction of the probed sets where `probe` was still there; NaN on failure. */
static double present(struct repl *r, const uint8_t *seq, uint32_t len, uint32_t probe)
{
	double t, f;

	if (timed(r, seq, len, probe, &t) != MP_OK)
		return mp_na_double();
	f = 1.0 - (t - r->t_hit) / (r->t_miss - r->t_hit);
	return f < 0 ? 0 : (f > 1 ? 1 : f);
}

/* Does `policy` predict that `probe` is still there after the sequence? */
static bool predict(const struct repl *r, enum mp_replacement policy, const uint8_t *seq,
		    uint32_t len, uint32_t probe)
{
	static struct mp_set_model s;

	mp_set_model_init(&s, (uint32_t)r->lv->ways, policy, r->exclusive);
	for (uint32_t k = 0; k < r->lv->ways; k++)
		mp_set_model_access(&s, MP_SET_MODEL_MAX_WAYS * 4 + k);
	for (uint32_t i = 0; i < len; i++)
		mp_set_model_access(&s, seq[i]);
	return mp_set_model_holds(&s, probe);
}

struct cands {
	uint32_t n;
	enum mp_replacement p[3];
};

/* Keep the policies whose prediction for (seq, probe) matches what was measured. */
static void keep(const struct repl *r, struct cands *c, const uint8_t *seq, uint32_t len,
		 uint32_t probe, bool there)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < c->n; i++)
		if (predict(r, c->p[i], seq, len, probe) == there)
			c->p[k++] = c->p[i];
	c->n = k;
}

/*
 * AMP's test: A lines, the first A-1 again, one more; then probe each of
 * the A.  A policy that decides by the history leaves every line either
 * there in every set or gone from every set (LRU and FIFO: exactly one
 * gone; tree PLRU may lose more); random replacement loses lines here and
 * there.  Returns 1 with there[] filled when every line came out clean,
 * 0 for random, -1 when nothing clear came out.
 */
static int amp_test(struct repl *r, uint8_t *seq, uint32_t *len, bool *there)
{
	uint32_t a = (uint32_t)r->lv->ways, gone = 0, murky = 0;
	double lost = 0, most = -1.0;

	*len = 0;
	for (uint32_t i = 0; i < a; i++)
		seq[(*len)++] = (uint8_t)i;
	for (uint32_t i = 0; i + 1 < a; i++)
		seq[(*len)++] = (uint8_t)i;
	seq[(*len)++] = (uint8_t)a;
	if (timed(r, seq, *len, a, &r->t_hit) != MP_OK)
		return -1;
	r->t_miss = r->t_hit + (double)r->sets * (r->lv->next - r->lv->hit);
	for (uint32_t i = 0; i < a; i++) {
		double f = present(r, seq, *len, i), mix;

		if (mp_is_na(f))
			return -1;
		there[i] = f >= MP_POLICY_HALF;
		gone += !there[i];
		murky += f > REPL_CLEAN && f < 1.0 - REPL_CLEAN;
		mix = f < 1.0 - f ? f : 1.0 - f;     /* how near half the sets lost it */
		if (mix > most) {
			most = mix;
			r->murky = i;
		}
		lost += 1.0 - f;
	}
	if (gone > 0 && murky == 0)
		return 1;
	return lost >= MP_POLICY_HALF ? 0 : -1;
}

/*
 * How far the runs of (seq, probe) lie apart, in sets where the probed line
 * was lost: the second slowest of REPL_REPEATS runs against the fastest (a
 * burst of noise slows one run).
 */
static enum mp_status moves(struct repl *r, const uint8_t *seq, uint32_t len, uint32_t probe,
			    double *sets)
{
	double t[REPL_REPEATS], lo = 1e300, hi = 0, second = 0;
	uint32_t top = 0;

	for (uint32_t k = 0; k < REPL_REPEATS; k++) {
		enum mp_status st = once(r, seq, len, probe, &t[k]);

		if (st != MP_OK)
			return st;
		lo = t[k] < lo ? t[k] : lo;
		top = t[k] > hi ? k : top;
		hi = t[k] > hi ? t[k] : hi;
	}
	for (uint32_t k = 0; k < REPL_REPEATS; k++)
		second = k != top && t[k] > second ? t[k] : second;
	*sets = (second - lo) * (double)r->sets / (r->t_miss - r->t_hit);
	return MP_OK;
}

/*
 * AMP's test lost a line in some sets only.  Random replacement loses it
 * in other sets each run; a policy of the history whose sets the probe's
 * lines do not all reach alike (a next-line prefetcher refetches a line in
 * some sets) loses it in the same sets every run.  Random when the runs of
 * the most mixed line differ by REPL_MOVED sets or more, and by more than
 * those of the line brought in last, whose presence no choice of this
 * level's changes (noise, and random levels above, move both).
 */
static enum mp_replacement random_or_not(struct repl *r, const uint8_t *seq, uint32_t len)
{
	double mixed, there;

	if (moves(r, seq, len, r->murky, &mixed) != MP_OK ||
	    moves(r, seq, len, (uint32_t)r->lv->ways, &there) != MP_OK)
		return MP_REPL_UNKNOWN;
	if (mixed >= REPL_MOVED && mixed > there)
		return MP_REPL_RANDOM;
	r->why = "replacement not measured: lines were lost in some sets only, but in the same "
		 "sets every run (not random; a policy of the history the probe could not model)";
	return MP_REPL_UNKNOWN;
}

static void random_test(struct repl *r, uint8_t *seq, uint32_t *len, uint32_t *probe)
{
	uint64_t a = r->lv->ways;

	*len = (uint32_t)(a + mp_rng_below(&r->p->g, 2 * a + 1));
	for (uint32_t i = 0; i < *len; i++)
		seq[i] = (uint8_t)mp_rng_below(&r->p->g, a + REPL_EXTRA);
	*probe = (uint32_t)mp_rng_below(&r->p->g, a + REPL_EXTRA);
}

/* A sequence and probe on which the candidates disagree; false if none was found. */
static bool splitting_test(struct repl *r, const struct cands *c, uint8_t *seq, uint32_t *len,
			   uint32_t *probe)
{
	for (unsigned k = 0; k < REPL_CANDIDATES; k++) {
		random_test(r, seq, len, probe);
		for (uint32_t i = 1; i < c->n; i++)
			if (predict(r, c->p[i], seq, *len, *probe) !=
			    predict(r, c->p[0], seq, *len, *probe))
				return true;
	}
	return false;
}

/*
 * nanoBench's step: run tests that split the candidates until one is left.
 * Candidates no sequence can tell apart behave alike at these ways (tree
 * PLRU is LRU at two ways): the first, in the order lru, plru, fifo.
 */
static enum mp_replacement tell_apart(struct repl *r, struct cands *c)
{
	static uint8_t seq[3 * MP_SET_MODEL_MAX_WAYS + 1];
	uint32_t len, probe;

	for (unsigned t = 0; t < REPL_TESTS && c->n > 1; t++) {
		double f;

		if (!splitting_test(r, c, seq, &len, &probe))
			return c->p[0];      /* no sequence tells them apart at these ways */
		f = present(r, seq, len, probe);
		if (mp_is_na(f))
			return MP_REPL_UNKNOWN;
		keep(r, c, seq, len, probe, f >= MP_POLICY_HALF);
	}
	if (c->n == 1)
		return c->p[0];
	return c->n == 0 ? MP_REPL_LRU_LIKE : MP_REPL_UNKNOWN;
}

static enum mp_replacement classify(struct repl *r)
{
	static uint8_t seq[2 * MP_SET_MODEL_MAX_WAYS + 1];
	static bool there[MP_SET_MODEL_MAX_WAYS];
	static const enum mp_replacement all[] = { MP_REPL_LRU, MP_REPL_PLRU, MP_REPL_FIFO };
	struct cands c = { 0 };
	uint32_t len;
	int clean = amp_test(r, seq, &len, there);

	if (clean == 0)
		return random_or_not(r, seq, len);
	if (clean < 0)
		return MP_REPL_UNKNOWN;
	for (unsigned i = 0; i < 3; i++)
		if (mp_set_model_supports(all[i], (uint32_t)r->lv->ways))
			c.p[c.n++] = all[i];
	for (uint32_t i = 0; i < r->lv->ways; i++)
		keep(r, &c, seq, len, i, there[i]);
	return c.n == 0 ? MP_REPL_LRU_LIKE : tell_apart(r, &c);
}

/*
 * Lines that must follow a line in its sets above for it to leave them all:
 * the most ways of any level above (the same lines push it out of each),
 * but where a level is exclusive the line only reaches it when pushed out
 * of the level above, so its ways add to those (L1 8 + exclusive L2 8:
 * 16 before a line reaches an exclusive L3; with 8 it stayed in the L2 and
 * an LRU L3 looked random).  A tree-PLRU set whose ways are not a power of
 * two does not always reach every way in as many misses: its tree's leaves
 * are counted (16 for a 12-way L1, which kept lines past 12 misses).
 */
static uint64_t ways_above(const struct pol_level *lv, int32_t i)
{
	uint64_t w = 0;

	for (int32_t u = 0; u < i; u++) {
		uint64_t leaves = mp_pow2_floor(2 * lv[u].ways - 1);

		w = lv[u].exclusive ? w + leaves : (leaves > w ? leaves : w);
	}
	return w;
}

/* Geometry of the experiment for lv[i]; false when it cannot be set up. */
static bool setup(struct repl *r, struct pol_ctx *p, const struct pol_level *lv, int32_t i)
{
	const struct pol_level *l = &lv[i];

	r->p = p;
	r->lv = l;
	r->up_way = 0;
	r->up_ways = 0;
	for (int32_t u = 0; u < i; u++)
		r->up_way = lv[u].way_bytes > r->up_way ? lv[u].way_bytes : r->up_way;
	r->up_ways = ways_above(lv, i);
	r->sets = (i ? r->up_way : l->way_bytes) / l->line / REPL_SET_SHARE;
	r->sets = r->sets < TIMED_SETS ? r->sets : TIMED_SETS;
	r->rows = 2 * l->ways + REPL_EXTRA;
	r->span = i && l->way_bytes > r->up_way ? l->way_bytes / r->up_way - 1 : 1;
	r->pool = r->span * r->rows;
	r->next_ev = 0;
	r->exclusive = l->exclusive;
	if (r->sets == 0 || l->ways < 2 || l->ways > MP_SET_MODEL_MAX_WAYS ||
	    (i && l->way_bytes <= r->up_way) ||
	    (i && r->pool <= 2 * r->up_ways) || r->rows * l->way_bytes > p->m->bytes ||
	    !(l->next > l->hit))
		return false;
	for (uint64_t k = 0; k < r->rows; k++)
		r->chain[k] = mp_ref_cycle(row_at(r, k), r->sets, l->line, &p->g);
	return true;
}

/* Empty the caches of the string: everything where the platform can, else its lines. */
static enum mp_status empty(struct pol_ctx *p, uint64_t bytes, uint64_t line)
{
	enum mp_status st = p->c->p->ops->flush_all(p->c->p);

	return st == MP_OK ? st : mp_policy_flush(p, p->m->base, bytes, line);
}

/*
 * The same experiment REPL_SPREAD_REPEATS times from empty caches: a warming walk
 * and one timed pass over a fixed string of `bytes`.  Returns the spread of
 * the passes, (max - min) / min.
 */
static double spread(struct pol_ctx *p, uint64_t bytes, uint64_t line)
{
	struct mp_chase ch = { .length = bytes / line, .region = "policy" };
	double lo = 1e300, hi = 0, t;

	ch.cursor = mp_ref_ck(p->m->base, bytes, bytes, line, &p->g);
	for (unsigned k = 0; k < REPL_SPREAD_REPEATS; k++) {
		enum mp_status st = empty(p, bytes, line);

		if (st == MP_OK)
			st = mp_chase_warm(p->c, &ch);
		if (st == MP_OK)
			st = mp_chase_pass(p->c, &ch, &t);
		if (st != MP_OK)
			return mp_na_double();
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	return (hi - lo) / lo;
}

uint64_t mp_policy_holds(const struct pol_level *lv, int32_t i)
{
	uint64_t sum = lv[i].size;

	for (int32_t u = i - 1; u >= 0 && lv[u + 1].exclusive; u--)
		sum += lv[u].size;
	return sum;
}

/*
 * AMP's criterion where the sets cannot be reached one by one (scattered
 * frames under a way larger than a page, or a level whose way equals the
 * way above, or smaller): the same experiment repeated from empty caches, a
 * string a quarter larger than the level (1 / REPL_OVER_DIV) and the levels
 * above it lacks if exclusive (mp_policy_holds), warmed and timed.  A policy that
 * decides by the history (LRU, PLRU, FIFO) misses the same lines every
 * time; random replacement misses different ones, so its times differ by
 * more than those of a string that fits.
 */
static enum mp_replacement repeatable(struct pol_ctx *p, const struct pol_level *lv, int32_t i)
{
	const struct pol_level *l = &lv[i];
	uint64_t most = mp_policy_holds(lv, i), over = most + most / REPL_OVER_DIV, fit = l->size / 2;
	double s_over, s_fit;

	over -= over % l->line;
	fit -= fit % l->line;
	if (over > p->m->bytes || fit < l->line)
		return MP_REPL_UNKNOWN;
	s_fit = spread(p, fit, l->line);
	s_over = spread(p, over, l->line);
	if (mp_is_na(s_fit) || mp_is_na(s_over))
		return MP_REPL_UNKNOWN;

	return s_over > REPL_SPREAD_K * s_fit && s_over > REPL_SPREAD_MIN ? MP_REPL_RANDOM
									  : MP_REPL_LRU_LIKE;
}

enum mp_replacement mp_policy_replacement(struct pol_ctx *p, const struct pol_level *lv,
					  int32_t i, const char **why)
{
	static struct repl r;
	enum mp_replacement got;

	*why = NULL;
	if (lv[i].way_bytes > p->m->frame_bytes && !p->m->contiguous)
		return repeatable(p, lv, i);
	if (!setup(&r, p, lv, i))
		return lv[i].ways < 2 ? MP_REPL_UNKNOWN : repeatable(p, lv, i);
	r.why = NULL;
	got = classify(&r);
	*why = r.why;
	return got;
}
