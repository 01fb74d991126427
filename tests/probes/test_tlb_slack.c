/* SPDX-License-Identifier: MIT */
/*
 * The TLB test's tries over time against the fit rule's slack (the pages a
 * string may hold past a level's entries and still fit).
 *
 * The geometry (core/probes/tlb/geom.c, ways_later) on a simulated
 * 64-entry 4-way DTLB (a miss costs 20 cycles on a 10-cycle load) with a
 * neighbour that hardly ever runs, so that rests let simulated time pass.
 * A search that ended one page past 16 sets x 4 ways is within the fit
 * rule's slack (0.04 x 10 x 65 / 20: one page): no way more is tried, and
 * no rest is taken.  One that ended four pages past them is tried again
 * over time, MP_TLB_TRIES rests.  The ways are 4 both times.
 *
 * The search for the entries (core/probes/tlb/probe.c, try_search) on a
 * 1536-entry 12-way DTLB (a slack of about 30 pages), with a neighbour
 * that holds entries for the first half second of simulated time only.
 * Two entries held move the count by less than the slack when the
 * neighbour leaves: one series of MP_TLB_TRIES tries in all.  64 held move
 * it by more: the series begins again.  The entries are exact both times
 * (sets x ways).
 */
#include "core/probes/tlb/tlb.h"
#include "tests/probes/probe_sim.h"

static const char *const text =
	"name = slack\nclock freq=1G\n"
	"cache L1D size=32K line=64 ways=8 latency=10 replacement=lru\n"
	"tlb DTLB1 entries=64 ways=4 page=4K latency=20\n"
	"memory latency=100\n"
	"neighbour entries=2 on=1 off=1099511627776\n";

static struct mp_ref_pages pages(uint64_t page, uint64_t n)
{
	struct mp_ref_pages s = { .page = page, .line = 64, .groups = n, .group_stride = page,
				  .per_group = 1, .page_stride = page, .per_page = 1 };

	return s;
}

/* Simulated seconds mp_tlb_geometry takes for a search that ended at `entries`; the ways. */
static double geometry(uint64_t entries, uint64_t *ways)
{
	struct ps_run s;
	struct mp_ctx c;
	struct mp_mem m;
	struct tlb_ctx t;
	struct tlb_level lv[1] = { { .entries = entries } };
	struct mp_ref_pages fit, miss;
	uint64_t t0;
	double secs = -1.0;

	*ways = 0;
	if (!ps_open_text(&s, "slack", text, PS_EXACT))
		return secs;
	c = (struct mp_ctx){ .p = s.p, .cfg = &s.cfg, .r = &s.r,
			     .self = mp_result_add_probe(&s.r, "tlb") };
	t = (struct tlb_ctx){ .c = &c, .m = &m, .link = mp_linker_data(s.p),
			      .side = MP_KIND_DATA, .page = s.p->page_bytes, .line = 64 };
	mp_rng_seed(&t.g, 1);
	fit = pages(t.page, 32);
	miss = pages(t.page, 256);
	if (mp_probe_alloc(&c, 512 * t.page, MP_PAGE_4K, &m) == MP_OK &&
	    mp_tlb_time(&t, &fit, &lv[0].below) == MP_OK &&
	    mp_tlb_time(&t, &miss, &lv[0].above) == MP_OK) {
		t0 = mp_now(s.p);
		mp_tlb_geometry(&t, lv, 0);
		secs = (double)(mp_now(s.p) - t0) / (double)s.p->tick_hz;
		*ways = lv[0].ways;
	}
	ps_close(&s);
	return secs;
}

static const char *const held_model =
	"name = series\nclock freq=1G\n"
	"cache L1D size=32K line=64 ways=8 latency=4\n"
	"cache L2 size=1M line=64 ways=16 latency=14\n"
	"tlb DTLB1 entries=1536 ways=12 page=4K latency=30\n"
	"memory latency=200\n"
	"neighbour entries=%u on=536870912 off=1099511627776\n";

static const struct mp_platform_ops *real;
static unsigned rests;

static bool counted_rest(struct mp_platform *p, uint32_t us)
{
	rests++;
	return real->rest(p, us);
}

/* The rests the TLB probe takes with a neighbour holding `held` entries; its entries. */
static unsigned series(unsigned held, int64_t *entries)
{
	static struct mp_platform_ops ops;
	char text[512];
	struct ps_run s;

	*entries = -1;
	rests = 0;
	snprintf(text, sizeof text, held_model, held);
	if (!ps_open_text(&s, "series", text, PS_EXACT))
		return 0;
	real = s.p->ops;
	ops = *real;
	ops.rest = counted_rest;
	s.p->ops = &ops;
	ps_probe(&s, "tlb", mp_probe_tlb);
	if (s.r.ntlbs == 1)
		*entries = s.r.tlbs[0].entries;
	ps_close(&s);
	return rests;
}

int main(void)
{
	uint64_t ways;
	double secs = geometry(65, &ways);
	int64_t e;
	unsigned n;

	CHECK(secs >= 0 && secs < MP_TLB_REST_US * 1e-6 && ways == 4,
	      "65 pages, one past 64 within the slack: 4 ways, no rest (%.3f s, %llu ways)", secs,
	      (unsigned long long)ways);
	secs = geometry(68, &ways);
	/* Each rest is drawn from half to one and a half times MP_TLB_REST_US. */
	CHECK(secs >= MP_TLB_TRIES * MP_TLB_REST_US * 0.5e-6 && ways == 4,
	      "68 pages, past the slack: tried over time, still 4 ways (%.3f s, %llu ways)", secs,
	      (unsigned long long)ways);
	n = series(2, &e);
	CHECK(n == MP_TLB_TRIES && e == 1536, "2 entries held, within the slack: one series "
	      "of tries (%u rests), 1536 entries (%lld)", n, (long long)e);
	n = series(64, &e);
	CHECK(n > MP_TLB_TRIES && e == 1536, "64 entries held, past the slack: the series "
	      "begins again (%u rests), 1536 entries (%lld)", n, (long long)e);
	return check_done();
}
