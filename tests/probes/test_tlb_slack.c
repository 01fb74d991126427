/* SPDX-License-Identifier: MIT */
/*
 * The TLB geometry's tries over time (core/probes/tlb/geom.c, ways_later)
 * on a simulated 64-entry 4-way DTLB (a miss costs 20 cycles on a 10-cycle
 * load) with a neighbour that hardly ever runs, so that rests let simulated
 * time pass.  A search that ended one page past 16 sets x 4 ways is within
 * the fit rule's slack (0.04 x 10 x 65 / 20: one page): no way more is
 * tried, and no rest is taken.  One that ended four pages past them is
 * tried again over time, MP_TLB_TRIES rests.  The ways are 4 both times.
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

int main(void)
{
	uint64_t ways;
	double secs = geometry(65, &ways);

	CHECK(secs >= 0 && secs < MP_TLB_REST_US * 1e-6 && ways == 4,
	      "65 pages, one past 64 within the slack: 4 ways, no rest (%.3f s, %llu ways)", secs,
	      (unsigned long long)ways);
	secs = geometry(68, &ways);
	CHECK(secs >= MP_TLB_TRIES * MP_TLB_REST_US * 1e-6 && ways == 4,
	      "68 pages, past the slack: tried over time, still 4 ways (%.3f s, %llu ways)", secs,
	      (unsigned long long)ways);
	return check_done();
}
