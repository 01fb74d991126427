/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for core/results/compare.c: counter values merged into the timing
 * records, the method each record ends with, comparisons[] and the notes,
 * and the parameter labels the writers print.
 */
#include "core/results/result.h"
#include "tests/check.h"

static struct mp_result r;

static const struct mp_structure l1 = { 1, MP_KIND_DATA, false, MP_NA };
static const struct mp_structure l2 = { 2, MP_KIND_UNIFIED, false, MP_NA };
static const struct mp_structure l3 = { 3, MP_KIND_UNIFIED, false, MP_NA };
static const struct mp_structure tlb = { 1, MP_KIND_DATA, true, 4096 };

static void count(const char *probe, const struct mp_structure *s, enum mp_param p, int64_t v)
{
	struct mp_vote *c = mp_result_add_counted(&r, probe, s, p);

	c->value = v;
	c->votes = c->of = 8;
}

static void timing_cache(int32_t level, enum mp_kind type, int64_t size, int64_t ways)
{
	struct mp_cache *c = mp_result_add_cache(&r);

	c->level = level;
	c->type = type;
	c->size_bytes = size;
	c->ways = ways;
	c->latency_cycles = 4.0;
	c->method = MP_METHOD_TIMING;
}

static const struct mp_comparison *find(const struct mp_structure *s, enum mp_param p)
{
	for (int32_t i = 0; i < r.ncomparisons; i++)
		if (r.comparisons[i].s.level == s->level && r.comparisons[i].s.tlb == s->tlb &&
		    r.comparisons[i].param == p)
			return &r.comparisons[i];
	return NULL;
}

static void fill(void)
{
	mp_result_init(&r, "sim");
	timing_cache(1, MP_KIND_DATA, 32768, 8);   /* counters agree */
	timing_cache(2, MP_KIND_UNIFIED, 4 << 20, 16); /* counters disagree on both */
	count("amp", &l1, MP_PARAM_SIZE, 32768);
	count("amp", &l1, MP_PARAM_WAYS, 8);
	count("amp", &l1, MP_PARAM_LINE, 64);
	count("amp", &l2, MP_PARAM_SIZE, 256 << 10);
	count("amp", &l2, MP_PARAM_WAYS, 8);
	count("papi", &l2, MP_PARAM_WAYS, 4);      /* the second probe disagrees */
	count("amp", &l3, MP_PARAM_SIZE, 4 << 20); /* only counters */
	count("amp", &l3, MP_PARAM_WRITE_ALLOCATE, MP_NO);
	count("amp", &tlb, MP_PARAM_ENTRIES, 64);
	count("amp", &tlb, MP_PARAM_PAGE, 4096);
}

static void test_merge(void)
{
	const struct mp_cache *c;

	fill();
	mp_result_reconcile(&r, true);
	c = mp_result_find_cache(&r, 1, MP_KIND_DATA);
	CHECK(c && c->method == MP_METHOD_BOTH && c->line_bytes == 64 && c->latency_cycles == 4.0,
	      "L1: both agree, the counted line added, timing's latency kept");
	c = mp_result_find_cache(&r, 2, MP_KIND_UNIFIED);
	CHECK(c && c->method == MP_METHOD_COUNTERS && c->size_bytes == 256 << 10 && c->ways == 8,
	      "L2: disagreement, the counters' (AMP's) values kept");
	c = mp_result_find_cache(&r, 3, MP_KIND_UNIFIED);
	CHECK(c && c->method == MP_METHOD_COUNTERS && c->size_bytes == 4 << 20 &&
	      c->write_allocate == MP_NO, "L3: added by the counters");
	CHECK_EQ_INT(r.ntlbs, 1, "TLB added");
	CHECK(r.tlbs[0].entries == 64 && r.tlbs[0].page_bytes == 4096 &&
	      r.tlbs[0].method == MP_METHOD_COUNTERS, "TLB entries and page");
}

static void test_comparisons(void)
{
	const struct mp_comparison *c;

	c = find(&l1, MP_PARAM_SIZE);
	CHECK(c && c->agree == MP_YES && c->timing == 32768, "L1 size agrees");
	c = find(&l2, MP_PARAM_SIZE);
	CHECK(c && c->agree == MP_NO && c->timing == 4 << 20 && c->counters == 256 << 10,
	      "L2 size disagrees, both values kept");
	c = find(&l3, MP_PARAM_SIZE);
	CHECK(c && c->agree == MP_UNKNOWN && c->timing == MP_NA, "L3 size: counters only");
	CHECK(r.nnotes == 3, "notes: L2 size, L2 ways, amp against papi (%d)", (int)r.nnotes);
	CHECK_EQ_STR(r.notes[0], "L2 unified size: timing 4M, counters 256K (counters kept)",
		     "disagreement note");
	CHECK_EQ_STR(r.notes[2], "L2 unified ways: amp 8, papi 4", "probe disagreement note");
}

static void test_no_compare(void)
{
	fill();
	mp_result_reconcile(&r, false);
	CHECK_EQ_INT(r.ncomparisons, 0, "method counters: no comparisons");
}

static void test_labels(void)
{
	char label[MP_TEXT_LEN];

	mp_param_label(label, sizeof(label), &l2, MP_PARAM_WAYS);
	CHECK_EQ_STR(label, "L2 unified ways", "cache label");
	mp_param_label(label, sizeof(label), &tlb, MP_PARAM_ENTRIES);
	CHECK_EQ_STR(label, "L1 data TLB 4K entries", "TLB label");
	CHECK(mp_param_is_size(MP_PARAM_SIZE) && mp_param_is_size(MP_PARAM_PAGE) &&
	      !mp_param_is_size(MP_PARAM_WAYS), "sizes");
	CHECK(mp_param_name(MP_PARAM_COUNT) == NULL, "out of range name");
}

int main(void)
{
	test_merge();
	test_comparisons();
	test_no_compare();
	test_labels();
	return check_done();
}
