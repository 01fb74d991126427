/* SPDX-License-Identifier: MIT */
#include "core/seq/refstring.h"

static inline void link(uint8_t *from, uint8_t *to)
{
	*(uint64_t *)(void *)from = (uint64_t)(uintptr_t)to;
}

/* Chain the elements of the group at head in shuffled order, head first, then to next. */
static void link_group(uint8_t *head, uint8_t *next, uint64_t per, uint64_t stride,
		       struct mp_rng *g)
{
	uint64_t order[MP_REF_MAX_GROUP];
	uint8_t *at = head;

	for (uint64_t i = 0; i + 1 < per; i++)
		order[i] = (i + 1) * stride;
	mp_ref_shuffle(order, per - 1, g);
	for (uint64_t i = 0; i + 1 < per; i++) {
		link(at, head + order[i]);
		at = head + order[i];
	}
	link(at, next);
}

uint64_t mp_ref_walk(const uint8_t *base, const void *start, uint64_t *offs, uint64_t max)
{
	const uint8_t *e = start;
	uint64_t n = 0;

	do {
		if (n == max)
			return 0;
		offs[n++] = (uint64_t)(e - base);
		e = (const uint8_t *)(uintptr_t)*(const uint64_t *)(const void *)e;
	} while (e != start);
	return n;
}

void *mp_ref_grouped(uint8_t *base, uint64_t bytes, uint64_t stride, uint64_t group,
		    struct mp_rng *g)
{
	uint8_t *cur = base;
	uint64_t per;

	if (group > bytes)              /* a region smaller than one group is one group */
		group = bytes - bytes % stride;
	per = group / stride;

	/* The group heads first form a shuffled cycle of their own ... */
	mp_ref_cycle(base, bytes / group, group, g);
	if (per <= 1)
		return base;
	/* ... then each group is threaded in between its head and the next. */
	do {
		uint8_t *next = (uint8_t *)(uintptr_t)*(uint64_t *)(void *)cur;

		link_group(cur, next, per, stride, g);
		cur = next;
	} while (cur != base);
	return base;
}
