/* SPDX-License-Identifier: MIT */
/*
 * Probe "itlb": every instruction TLB level's entries, page size, ways and
 * miss penalty, by the TLB test of core/probes/tlb/ run on fetches of a
 * serial code chain (no fetch runs ahead, none comes from a decoded-op
 * cache), each block at its element's line.
 * What differs on code (the confirmation, the page test, the least
 * penalty): docs/algorithms.md, "Instruction TLBs".  A unified second level
 * found here and by the data test is recorded once.
 */
#include "core/probes/probes.h"
#include "core/probes/tlb/tlb.h"

void mp_probe_itlb(struct mp_ctx *c)
{
	mp_tlb_test(c, MP_KIND_INSTRUCTION);
}
