/* SPDX-License-Identifier: MIT */
/*
 * Probe "itlb": every instruction TLB level's entries, page size, ways and
 * miss penalty, by the TLB test of core/probes/tlb/ run on fetches.  Its
 * strings are the same T(n,k) and X-Ray page sets, each element a code
 * block as short as the platform makes them, at the element's line: the
 * blocks of T(1,k) spread over the L1 instruction cache's sets as a data
 * string's lines spread over the L1 data cache's, and Cooper-Xu's
 * confirmation tells a TLB boundary from a cache boundary the same way.
 *
 * What is particular to code (docs/algorithms.md, "Instruction TLBs"): a
 * chain of k blocks is also k taken branches, so past the branch target
 * buffer's capacity every block costs a misprediction; that is a rise in
 * the block count, not in the pages, and T(2..4,k) (more blocks on as
 * many pages) rises at a fraction of the pages for it, as for a cache
 * boundary: the confirmation rejects it.  A unified second level found
 * here and by the data test is recorded once.
 */
#include "core/probes/probes.h"
#include "core/probes/tlb/tlb.h"

void mp_probe_itlb(struct mp_ctx *c)
{
	mp_tlb_test(c, MP_KIND_INSTRUCTION);
}
