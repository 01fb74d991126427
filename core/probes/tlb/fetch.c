/* SPDX-License-Identifier: MIT */
/*
 * The TLB test on fetches (probe "itlb"): a serial code chain's blocks are
 * both pages and lines of the front end's block-counting structures (the
 * L1I, a decoded-op cache, the BTB), so a step of T(1,k) may be either or
 * both.  Here: the confirmation that tells them apart by holding the
 * blocks and halving the pages, the notes of steps that are no level, and
 * the two checks that keep a level hidden among the blocks from shifting
 * the numbers of the levels above it.  docs/algorithms.md, "Instruction
 * TLBs".
 */
#include "core/lib/buf.h"
#include "core/probes/tlb/tlb.h"

/*
 * Tries of pages_rose, each of which must see the pages' rise.  One try
 * in a Zen 3 guest's busy spells ran T(1,x) 3 cycles slow at 8 to 20
 * pages now and then, twice in a row once.
 */
#define HIDDEN_TRIES 3u

/*
 * Does T(1,x), `up`, run past `blocks`, what as many blocks on half the
 * pages run at, by a TLB miss and more than the noise?  Then pages rose
 * with the blocks.
 */
static bool pages_too(struct tlb_ctx *t, const struct tlb_sweep *o, double blocks, double up)
{
	struct tlb_level lv = { .below = blocks, .above = up };

	return !mp_tlb_rise_too_small(t, &lv) && blocks > 0 &&
	       mp_log2(up / blocks) > MP_STEP_NOISE_K * o->steps.noise;
}

/*
 * The blocks are held and the pages halved: T(2, k/2) timed at lo, below
 * the step, and at U, the first point of the plateau above it (U <= 2 lo),
 * beside T(1,k) at the same two points, now: a step T(1,k) no longer makes
 * is none (NOT_TLB).  T(2, k/2) stays flat across a TLB boundary, and
 * rises as T(1,k) does across a boundary in blocks (BLOCKS); under half
 * its rise, the step is a TLB's, blocks at it too perhaps (TLB_BOUNDARY:
 * a count the blocks made shows in the page test, record.c); else blocks
 * with a TLB miss's rise more on T(1,k) (MIXED).  Where U > 2 lo the two
 * cannot be told apart (UNTOLD).
 */
enum tlb_verdict mp_tlb_confirmed_code(struct tlb_ctx *t, const struct tlb_sweep *o, int32_t k)
{
	uint64_t lo = mp_tlb_confirm_point(o, k, false), up = o->s.x[o->steps.plateau[k + 1].first];
	double a1, b1, a2, b2;   /* T(1,lo), T(1,U), T(2,lo/2), T(2,U/2) */

	if (up > 2 * lo || lo < MP_TLB_MIN_PAGES)
		return UNTOLD;
	if (!mp_tlb_time_now(t, lo, 1, &a1) || !mp_tlb_time_now(t, up, 1, &b1) ||
	    !mp_tlb_time_now(t, lo / 2, 2, &a2) || !mp_tlb_time_now(t, up / 2, 2, &b2) ||
	    mp_log2(b1 / a1) <= MP_STEP_NOISE_K * o->steps.noise)
		return NOT_TLB;
	if (b2 - a2 < MP_TLB_CONFIRM_FRAC * (b1 - a1))
		return TLB_BOUNDARY;
	return pages_too(t, o, a1 + b2 - a2, b1) ? MIXED : BLOCKS;
}

/* Why a step on fetches is no level, said of the first that rises as a TLB miss would. */
static const char *const code_reject[] = {
	[BLOCKS] = "moved with the blocks too (as many blocks on half the pages rose as much): "
		   "a boundary in blocks (a cache, the front end), not a TLB",
	[MIXED] = "moved with the blocks, and rose less on half the pages: a boundary in "
		  "blocks, and perhaps a TLB's at the same place, which is not told",
	[UNTOLD] = "climbs over more than twice its pages: a boundary in blocks cannot be told "
		   "from one in pages",
};

bool mp_tlb_say_rejected(struct tlb_ctx *t, const struct tlb_sweep *o, int32_t k,
			 enum tlb_verdict v)
{
	struct tlb_level lv = mp_tlb_step_level(o, k);
	char what[MP_NOTE_LEN];

	if (!code_reject[v] || mp_tlb_rise_too_small(t, &lv))
		return false;
	mp_snprintf(what, sizeof(what), "the step between %llu and %llu pages %s; no level "
		    "recorded there", (unsigned long long)mp_tlb_confirm_point(o, k, false),
		    (unsigned long long)o->s.x[o->steps.plateau[k + 1].first], code_reject[v]);
	mp_tlb_note(t, what);
	return true;
}

/*
 * A MIXED step, or an UNTOLD one with a TLB miss's rise, may hide a TLB
 * level: the levels above it cannot be numbered.
 */
int32_t mp_tlb_first_hiding(struct tlb_ctx *t, const struct tlb_sweep *o,
			    const enum tlb_verdict *v)
{
	for (int32_t k = 0; k < o->steps.nsteps; k++) {
		struct tlb_level lv = mp_tlb_step_level(o, k);

		if ((v[k] == MIXED || v[k] == UNTOLD) && !mp_tlb_rise_too_small(t, &lv))
			return k;
	}
	return o->steps.nsteps;
}

void mp_tlb_say_unnumbered(struct tlb_ctx *t, const struct tlb_sweep *o,
			   const enum tlb_verdict *v, int32_t h)
{
	uint64_t up = h < o->steps.nsteps ? o->s.x[o->steps.plateau[h + 1].first] : 0;
	char what[MP_NOTE_LEN];
	int32_t n = 0;

	for (int32_t k = h + 1; k < o->steps.nsteps; k++)
		n += mp_tlb_is_level(v[k]);
	if (!n)
		return;
	mp_snprintf(what, sizeof(what), "%d step(s) of pages above %llu pages not recorded: the "
		    "step between %llu and %llu pages may hide a TLB level, so which levels they "
		    "are is not known", (int)n, (unsigned long long)up,
		    (unsigned long long)mp_tlb_confirm_point(o, h, false), (unsigned long long)up);
	mp_tlb_note(t, what);
}

/*
 * Does T(1,x) run slower than T(2,x/2), as many blocks on half the pages,
 * by a TLB miss, in each of HIDDEN_TRIES tries?  Then x pages are past
 * some level's entries.
 */
static bool pages_rose(struct tlb_ctx *t, const struct tlb_sweep *o, uint64_t x)
{
	for (unsigned i = 0; i < HIDDEN_TRIES; i++) {
		double t1, t2;

		if (!mp_tlb_time_now(t, x, 1, &t1) || !mp_tlb_time_now(t, x / 2, 2, &t2) ||
		    !pages_too(t, o, t2, t1))
			return false;
	}
	return true;
}

static void say_hidden(struct tlb_ctx *t, const struct tlb_sweep *o, int32_t k, uint64_t x)
{
	char what[MP_NOTE_LEN];

	mp_snprintf(what, sizeof(what), "no level recorded from the step at %llu pages up: at "
		    "%llu pages fetches ran slower than as many blocks on half the pages by a TLB "
		    "miss, a level below the step that no step showed, so which levels they are "
		    "is not known", (unsigned long long)o->s.x[o->steps.plateau[k].last],
		    (unsigned long long)x);
	mp_tlb_note(t, what);
}

/*
 * A TLB level no step showed (in a plateau above a step of blocks, rising
 * less than a step) below step k, above the level before, which holds
 * `prev` entries.  Past twice those, T(2,x/2) misses that level as T(1,x)
 * does, so pages_rose at an even grid point from there to the step's lo
 * is another level's miss.  Loads have no blocks to hide a level: false.
 */
bool mp_tlb_hidden_below(struct tlb_ctx *t, const struct tlb_sweep *o, int32_t k, uint64_t prev)
{
	uint64_t lo = mp_tlb_confirm_point(o, k, false);

	if (t->side != MP_KIND_INSTRUCTION)
		return false;
	for (uint32_t i = 0; i < o->s.n; i++) {
		uint64_t x = o->s.x[i];

		if (x > lo)
			break;
		if (x % 2 == 0 && x > 2 * prev && x / 2 >= MP_TLB_MIN_PAGES && pages_rose(t, o, x)) {
			say_hidden(t, o, k, x);
			return true;
		}
	}
	return false;
}
