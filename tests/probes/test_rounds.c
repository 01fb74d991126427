/* SPDX-License-Identifier: MIT */
/*
 * Rounds (core/rounds.c) on the simulator's platform, with a scripted
 * probe whose every round reports the L2 size the script says: unanimous
 * rounds stop at the profile's minimum, split ones go on until the winner
 * is certain or the maximum is reached, a split vote is unstable and no
 * disagreement in the audit, the round kept whole is one that agrees with
 * the winners, a value the probe does not determine gets no vote, a level
 * found in no more rounds than not is not recorded, a round that fails
 * is run again once, and TLB levels of different pages are told apart.
 */
#include "core/results/audit.h"
#include "core/rounds.h"
#include "tests/probes/counter_sim.h"
#include "tests/probes/notes.h"

static const char tiny[] =
	"name = tiny\n"
	"clock freq=1G\n"
	"cache L1D size=4K line=32 ways=2 latency=2 replacement=lru\n"
	"memory latency=60\n";

#define K 1024
/* A script's round that fails (mp_probe_fail), finding nothing. */
#define FAILS (-2)
static const int64_t *script;
static unsigned nscript, calls;
/* Also an L1 of 48K 12-way, its size and ways measured in even rounds only. */
static bool anchored;

/* One round: an L2 of the script's next size (none for 0), 8 ways, and a curve naming the round. */
static void scripted(struct mp_ctx *c)
{
	int64_t size = script[calls % nscript];
	struct mp_cache *l2 = size && size != FAILS ? mp_result_add_cache(c->r) : NULL;
	char name[MP_NAME_LEN];

	if (size == FAILS) {
		calls++;
		return mp_probe_fail(c, "scripted failure");
	}
	if (l2) {
		l2->level = 2;
		l2->type = MP_KIND_UNIFIED;
		l2->size_bytes = size;
		l2->ways = 8;
	}
	if (anchored) {
		struct mp_cache *l1 = mp_result_add_cache(c->r);

		l1->level = 1;
		l1->type = MP_KIND_DATA;
		l1->size_bytes = calls % 2 ? MP_NA : 48 * K;
		l1->ways = calls % 2 ? MP_NA : 12;
	}
	snprintf(name, sizeof(name), "round-%u", calls);
	if (c->self)
		snprintf(c->self->message, sizeof(c->self->message), "%s", name);
	mp_result_add_curve(c->r, name, "bytes", "cycles");
	calls++;
}

static const struct mp_probe_def def = { "scripted", "a scripted probe", scripted,
					 MP_METHOD_TIMING };

static struct cs_run s;

/* Run the scripted probe in rounds; the vote on the L2's size, or NULL. */
static const struct mp_vote *run(const int64_t *sizes, unsigned n, uint32_t rounds)
{
	struct mp_structure l2 = { 2, MP_KIND_UNIFIED, false, MP_NA };
	struct mp_probe *self;

	script = sizes, nscript = n, calls = 0;
	s.cfg.rounds = rounds;
	mp_result_init(&s.r, "sim");
	self = mp_result_add_probe(&s.r, def.name);
	mp_rounds_run(s.p, &s.cfg, &s.r, &def, self);
	return mp_result_find_voted(&s.r, &l2, MP_PARAM_SIZE);
}

static void test_unanimous(void)
{
	const int64_t sizes[] = { 512 * K };
	const struct mp_vote *v = run(sizes, 1, MP_ROUNDS_AUTO);
	const struct mp_cache *c = mp_result_find_cache(&s.r, 2, MP_KIND_UNIFIED);

	CHECK_EQ_INT(calls, 2, "unanimous: the quick profile's 2 rounds");
	CHECK(v && v->value == 512 * K && v->votes == 2 && v->of == 2 && v->stable == MP_YES &&
	      v->runner_up == MP_NA, "unanimous: 512K, 2 of 2, stable");
	CHECK(c && c->size_bytes == 512 * K && c->ways == 8, "the record holds the winners");
	CHECK(s.r.nvoted == 2, "size and ways voted, nothing else (%d)", (int)s.r.nvoted);
}

/* 1M, 2M, 1M, 1M: after 4 rounds 3 against 1 with one to come, the winner is certain. */
static void test_split_then_certain(void)
{
	const int64_t sizes[] = { 1024 * K, 2048 * K, 1024 * K, 1024 * K, 2048 * K };
	const struct mp_vote *v = run(sizes, 5, MP_ROUNDS_AUTO);

	CHECK_EQ_INT(calls, 4, "split: rounds go on until the winner is certain");
	CHECK(v && v->value == 1024 * K && v->votes == 3 && v->of == 4 && v->runner_up == 2048 * K &&
	      v->runner_up_votes == 1 && v->stable == MP_YES, "1M 3 of 4, runner-up 2M 1 of 4");
	CHECK(strcmp(s.r.curves[0].name, "round-0") == 0, "the first round that agrees is kept (%s)",
	      s.r.curves[0].name);
}

/* 2M, 1M, 2M, 4M, 8M: no winner is certain, the maximum ends it, the vote is split. */
static void test_unstable(void)
{
	const int64_t sizes[] = { 2048 * K, 1024 * K, 2048 * K, 4096 * K, 8192 * K };
	struct mp_source *doc;
	struct mp_doc_cache *dc;
	const struct mp_vote *v = run(sizes, 5, MP_ROUNDS_AUTO);

	CHECK_EQ_INT(calls, 5, "split to the end: the quick profile's maximum, 5");
	CHECK(v && v->value == 2048 * K && v->votes == 2 && v->of == 5 && v->stable == MP_NO,
	      "2M wins 2 of 5: unstable");
	doc = mp_audit_add_source(&s.r, "model");
	dc = mp_source_add_cache(doc);
	*dc = (struct mp_doc_cache){ 2, MP_KIND_UNIFIED, 1024 * K, MP_SCOPE_ONE, MP_NA, MP_NA,
				     MP_NA, MP_INCL_UNKNOWN, MP_UNKNOWN };
	mp_audit_judge(&s.r);
	CHECK(s.r.audit.nverdicts == 1 && s.r.audit.verdicts[0].measured == 2048 * K &&
	      !mp_verdict_disagrees(&s.r.audit.verdicts[0]),
	      "an unstable measurement against the documented 1M is no disagreement");
}

/*
 * Two measured values tied for the most votes: the size is not measured
 * (whichever round came first), a note names both, and the ways the
 * rounds agree on stand.  A tie with "not measured" is another matter
 * (test_found_as_often_as_not).
 */
static void test_tie(void)
{
	const int64_t two[] = { 2048 * K, 1024 * K }, four[] = { 1024 * K, 2048 * K, 1024 * K,
								  2048 * K, 4096 * K };
	const struct mp_cache *c;
	const struct mp_vote *v = run(two, 2, 2);

	c = mp_result_find_cache(&s.r, 2, MP_KIND_UNIFIED);
	CHECK(v && v->value == MP_NA && v->votes == 0 && v->of == 2 && v->runner_up == 2048 * K &&
	      v->runner_up_votes == 1 && v->stable == MP_NO,
	      "2M and 1M, 1 round each: not measured, 0 of 2");
	CHECK(c && c->size_bytes == MP_NA && c->ways == 8, "the L2 recorded: its ways, no size");
	CHECK(ps_note(&s.r, "scripted: L2 unified size not measured: the rounds split, 2M in 1 "
			    "and 1M in 1 of 2") != NULL, "a note names the two values");
	v = run(four, 5, MP_ROUNDS_AUTO);
	CHECK(v && v->value == MP_NA && v->runner_up == 1024 * K && v->runner_up_votes == 2 &&
	      v->of == 5, "1M and 2M, 2 rounds of 5 each: not measured");
}

static void test_fixed_rounds(void)
{
	const int64_t sizes[] = { 256 * K };
	const struct mp_vote *v = run(sizes, 1, 3);

	CHECK(calls == 3 && v && v->votes == 3 && v->of == 3, "rounds = 3: exactly 3 rounds");
}

/* A probe that finds what stood before determines nothing: one round, no vote. */
static void test_nothing_determined(void)
{
	const int64_t sizes[] = { 512 * K };
	struct mp_structure l2 = { 2, MP_KIND_UNIFIED, false, MP_NA };
	struct mp_probe *self;

	script = sizes, nscript = 1, calls = 0;
	s.cfg.rounds = MP_ROUNDS_AUTO;
	mp_result_init(&s.r, "sim");
	scripted(&(struct mp_ctx){ .p = s.p, .cfg = &s.cfg, .r = &s.r });
	calls = 0;
	self = mp_result_add_probe(&s.r, def.name);
	mp_rounds_run(s.p, &s.cfg, &s.r, &def, self);
	CHECK_EQ_INT(calls, 1, "nothing new: one round");
	CHECK(mp_result_find_voted(&s.r, &l2, MP_PARAM_SIZE) == NULL, "nothing new: no vote");
}

/*
 * A level found in one round of two is not recorded, its votes won by not
 * measured, even where the round kept whole is the one that found it (an
 * L1 measured in the first round only makes it that round: a tie with "not
 * measured" goes to the value); found in two of three it is.
 * A level found in both rounds, one of which did not measure its size,
 * keeps the size the other found.
 */
static void test_found_as_often_as_not(void)
{
	const int64_t half[] = { 512 * K, 0 }, most[] = { 512 * K, 0, 512 * K };
	const int64_t unmeasured[] = { 512 * K, MP_NA };
	const struct mp_vote *v;

	anchored = true;
	v = run(half, 2, 2);
	anchored = false;
	CHECK(strcmp(s.r.curves[0].name, "round-0") == 0, "the round that found the L2 is kept");
	CHECK(mp_result_find_cache(&s.r, 2, MP_KIND_UNIFIED) == NULL && v && v->value == MP_NA &&
	      v->runner_up == 512 * K && v->votes == 1 && v->of == 2,
	      "an L2 in 1 round of 2: not recorded, its vote says 1 of 2 found 512K");
	CHECK(strcmp(s.r.probes[0].message,
		     "round-0; 1 record(s) left out: found in no more rounds than not") == 0,
	      "the kept round's message says so (%s)", s.r.probes[0].message);
	v = run(most, 3, 3);
	CHECK(mp_result_find_cache(&s.r, 2, MP_KIND_UNIFIED) != NULL && v && v->value == 512 * K &&
	      v->votes == 2, "an L2 in 2 rounds of 3: recorded");
	v = run(unmeasured, 2, 2);
	CHECK(mp_result_find_cache(&s.r, 2, MP_KIND_UNIFIED) != NULL && v && v->value == 512 * K &&
	      v->votes == 1 && v->runner_up == MP_NA,
	      "an L2 in both rounds, its size measured in one: 512K, 1 of 2");
}

/* The note a failed round run again leaves, or NULL. */
static const char *retried_note(void)
{
	return ps_note(&s.r, "scripted: a failed round run again: scripted failure");
}

/*
 * A failed round is run again in its place, once: the first failing
 * takes nothing from the vote, a second counts as not measured, and a
 * probe that always fails stops after two.
 */
static void test_failed_round_again(void)
{
	const int64_t first[] = { FAILS, 512 * K, 512 * K, 512 * K }, twice[] = { FAILS, 512 * K, FAILS, 1024 * K };
	const int64_t always[] = { FAILS };
	const struct mp_vote *v = run(first, 4, MP_ROUNDS_AUTO);

	CHECK_EQ_INT(calls, 3, "a failed first round: run again, then the quick profile's 2");
	CHECK(v && v->value == 512 * K && v->votes == 2 && v->of == 2,
	      "the failed round is no vote: 512K 2 of 2");
	CHECK(retried_note() != NULL, "a note says a failed round was run again");
	v = run(twice, 4, 3);
	CHECK(calls == 4 && v && v->value == 512 * K && v->of == 3 && v->votes == 1,
	      "a second failure is a round: 3 rounds of 4 calls, 512K 1 of 3");
	run(always, 1, MP_ROUNDS_AUTO);
	CHECK(calls == 2 && s.r.probes[0].status == MP_PROBE_FAILED && retried_note() != NULL,
	      "a probe that always fails: 2 calls, failed, the note");
}

/* A round of the scripted TLB probe: an L1 ITLB of this page (0: none) and entries. */
struct tlb_round {
	int64_t page, entries;
};

static const struct tlb_round *tlb_script;
static unsigned ntlb_script;

static void scripted_tlb(struct mp_ctx *c)
{
	const struct tlb_round *w = &tlb_script[calls++ % ntlb_script];
	struct mp_tlb *t = w->page ? mp_result_add_tlb(c->r) : NULL;

	if (t)
		*t = (struct mp_tlb){ 1, MP_KIND_INSTRUCTION, w->entries, w->page, MP_NA, 0.0,
				      MP_METHOD_TIMING };
}

static const struct mp_probe_def tlb_def = { "scripted-tlb", "a scripted TLB probe",
					     scripted_tlb, MP_METHOD_TIMING };

/*
 * A TLB is the same level from round to round only on the same page: one
 * round's 2M level (42 entries) and two rounds' 4K level (55 entries in
 * one, not measured in the other) are two records, and the 2M one, found
 * in one round of three, is not recorded.  Matched by their place among
 * the L1 ITLBs, the 2M level's 42 won the entries (the first of three
 * values) and the 4K rounds the page: a 42-entry 4K level no round found.
 */
static void test_tlb_pages_apart(void)
{
	const struct tlb_round w[] = { { 2 << 20, 42 }, { 4 * K, 55 }, { 4 * K, MP_NA } };
	struct mp_probe *self;

	tlb_script = w, ntlb_script = 3, calls = 0;
	s.cfg.rounds = 3;
	mp_result_init(&s.r, "sim");
	self = mp_result_add_probe(&s.r, tlb_def.name);
	mp_rounds_run(s.p, &s.cfg, &s.r, &tlb_def, self);
	CHECK(s.r.ntlbs == 1 && s.r.tlbs[0].page_bytes == 4 * K && s.r.tlbs[0].entries != 42,
	      "one record, of 4K pages, without the 2M level's entries (%d: %lld entries of "
	      "%lld)", (int)s.r.ntlbs, (long long)s.r.tlbs[0].entries,
	      (long long)s.r.tlbs[0].page_bytes);
}

int main(void)
{
	if (!cs_open_text(&s, "tiny", tiny, MP_METHOD_TIMING, ""))
		return check_done();
	test_unanimous();
	test_split_then_certain();
	test_unstable();
	test_tie();
	test_fixed_rounds();
	test_nothing_determined();
	test_found_as_often_as_not();
	test_failed_round_again();
	test_tlb_pages_apart();
	cs_close(&s);
	return check_done();
}
