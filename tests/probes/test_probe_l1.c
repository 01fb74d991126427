/* SPDX-License-Identifier: MIT */
/*
 * The "l1" probe against every simulated machine: the L1 data cache's
 * size, line and ways exactly as the model file gives them (read with the
 * simulator's own parser), the gap test and X-Ray agreeing, the hit
 * latency within 10%.  Every model runs twice: as the probe sees bare
 * metal (frames contiguous, the identity map), and as a rough copy with
 * noise and scattered frames (tests/probes/probe_cset_sim.h): the L1 is
 * still exact there.
 *
 * Two cases cannot be, and the test says so on an INFO line instead:
 *  - a physically indexed L1 whose way is larger than a page, on scattered
 *    frames (Cortex-A9: 8 KB ways, 4 KB pages): which of its sets a line
 *    falls in depends on frames the probe cannot see.  The probe must then
 *    record nothing and say why, which is checked.
 *  - a FIFO L1 under the rough copy's noise (Power3's 128 ways): each
 *    disturbance empties ways at random, after which a set cycled through
 *    A + 1 lines no longer misses on every one (FIFO evicts the oldest
 *    fill, no longer the next line wanted), so the decisive signal fades;
 *    the gap test and X-Ray then disagree, and what they disagree on must
 *    not be recorded.
 */
#include "tests/probes/l1_neighbour.h"
#include "tests/probes/notes.h"

#define LATENCY_TOL 0.10

static const struct mp_cache *l1_found(const struct mp_result *r)
{
	for (int32_t i = 0; i < r->ncaches; i++)
		if (r->caches[i].level == 1 && r->caches[i].type == MP_KIND_DATA)
			return &r->caches[i];
	return NULL;
}

/* Why this run cannot be exact, or NULL. */
static const char *limitation(const struct ps_run *s, const struct mp_sim_cache_model *mc)
{
	uint64_t page = mp_sim_base_page(mp_sim_of(s->p));

	if (s->model.frames.mode == MP_SIM_FRAMES_SCATTERED && mc->physical &&
	    mc->size / mc->ways > page)
		return "physically indexed, ways larger than a page, frames scattered";
	if (s->model.noise.rate > 0 && mc->replacement == MP_REPL_FIFO)
		return "FIFO under noise";
	return NULL;
}

static void check_exact(const struct ps_run *s, const struct mp_sim_cache_model *mc,
			const struct mp_cache *got)
{
	const struct mp_probe *p = &s->r.probes[0];

	CHECK(got != NULL, "%s: L1 data cache recorded", s->name);
	if (!got)
		return;
	CHECK_EQ_INT(got->size_bytes, mc->size, s->name);
	CHECK_EQ_INT(got->line_bytes, mc->line, s->name);
	CHECK_EQ_INT(got->ways, mc->ways, s->name);
	CHECK(ps_within(got->latency_cycles, mc->latency, LATENCY_TOL),
	      "%s: L1 latency %.2f cycles, model %u", s->name, got->latency_cycles, mc->latency);
	CHECK(strstr(p->message, "agree") && !strstr(p->message, "disagree"),
	      "%s: gap test and X-Ray agree (%s)", s->name, p->message);
}

/* Where it cannot be exact: nothing wrong recorded, and a reason given. */
static void check_honest(const struct ps_run *s, const char *why, const struct mp_cache *got)
{
	const struct mp_sim_cache_model *mc = ps_cache(&s->model, 1);
	bool exact = got && got->size_bytes == (int64_t)mc->size;

	printf("INFO %s: L1 %s (%s): %s\n", s->name, exact ? "exact all the same" : "not exact",
	       why, s->r.probes[0].message);
	ps_check_no_wrong(s, "L1", mc, got);
	CHECK(s->r.probes[0].message[0] != '\0', "%s: the probe says why", s->name);
}

static void run(const char *path, int rough)
{
	const struct mp_sim_cache_model *mc;
	const char *why;
	struct ps_run s;

	if (!pc_open(&s, path, rough))
		return;
	mc = ps_cache(&s.model, 1);
	why = mc ? limitation(&s, mc) : "no L1 data cache in the model";
	if (why) {
		ps_probe_run(&s, "l1", mp_probe_l1);
		check_honest(&s, why, l1_found(&s.r));
	} else {
		ps_probe(&s, "l1", mp_probe_l1);
		check_exact(&s, mc, l1_found(&s.r));
	}
	printf("INFO %s: l1 probe %.2f s\n", s.name, s.wall);
	ps_close(&s);
}

/*
 * An L1 indexed by a hash over slices (no model's; in the spirit of a
 * front end the two tests cannot see through, as this project's Zen 5
 * class guest's L1I, recorded 1-way for 8): the gap test's capacity does
 * not refine, and it must then name no ways (its ways loop ends at 1 when
 * nothing hits, which agreed with X-Ray's unconfirmed 1-way there), and
 * nothing wrong is recorded.
 */
static void hashed_l1(void)
{
	static const char *const text =
		"name = hashed-l1\nclock freq=3G\n"
		"cache L1D size=32K line=64 ways=8 latency=4 index=hash slices=4 hash=random\n"
		"cache L2 size=1M line=64 ways=16 latency=14\nmemory latency=200\n";
	struct ps_run s;
	const char *gap;

	if (!ps_open_text(&s, "hashed-l1", text, PS_EXACT))
		return;
	ps_probe_run(&s, "l1", mp_probe_l1);
	gap = strstr(s.r.probes[0].message, "; gap ");
	CHECK(gap && (strncmp(gap, "; gap - ", 8) != 0 || strncmp(gap, "; gap - --way", 13) == 0),
	      "hashed L1: the gap test names no ways without a capacity (%s)",
	      s.r.probes[0].message);
	check_honest(&s, "hashed over slices", l1_found(&s.r));
	ps_close(&s);
}

static void run_neighbour(const char *path, int variant)
{
	const struct mp_sim_cache_model *mc;
	struct ps_run s;

	(void)variant;
	if (!open_neighbour(&s, path, &half_time))
		return;
	mc = ps_cache(&s.model, 1);
	if (mc && mc->ways >= 4 * NB_WAYS) {
		ps_probe(&s, "l1", mp_probe_l1);
		check_exact(&s, mc, l1_found(&s.r));
		CHECK(ps_note(&s.r, "after rests") != NULL,
		      "%s: a note says the ways grew over time", s.name);
	} else if (mc) {
		ps_probe_run(&s, "l1", mp_probe_l1);
		check_honest(&s, "a neighbour holds half the ways or more", l1_found(&s.r));
	}
	printf("INFO %s: l1 probe %.2f s\n", s.name, s.wall);
	ps_close(&s);
}

static void run_flicker(const char *path, int variant)
{
	struct ps_run s;

	(void)variant;
	if (!open_neighbour(&s, path, &flickering))
		return;
	if (ps_cache(&s.model, 1)) {
		ps_probe_run(&s, "l1", mp_probe_l1);
		check_honest(&s, "a neighbour that never leaves", l1_found(&s.r));
	}
	printf("INFO %s: l1 probe %.2f s\n", s.name, s.wall);
	ps_close(&s);
}

int main(void)
{
	hashed_l1();
	ps_each_model(NULL, run_neighbour, PS_ONLY(PS_EXACT));
	ps_each_model(NULL, run_flicker, PS_ONLY(PS_EXACT));
	return ps_each_model(NULL, run, PS_UPTO(PS_ROUGH));
}
