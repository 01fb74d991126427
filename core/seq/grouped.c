/* SPDX-License-Identifier: MIT */
#include "core/seq/perm.h"
#include "core/seq/refstring.h"

/* The elements of the group at `head`: head first, then the others shuffled. */
static void put_group(struct mp_ref_out *o, uint64_t head, uint64_t per, uint64_t stride,
		      struct mp_rng *g)
{
	uint64_t order[MP_REF_MAX_GROUP];

	for (uint64_t i = 0; i + 1 < per; i++)
		order[i] = (i + 1) * stride;
	mp_ref_shuffle(order, per - 1, g);
	mp_ref_put(o, head);
	for (uint64_t i = 0; i + 1 < per; i++)
		mp_ref_put(o, head + order[i]);
}

void mp_ref_grouped_put(struct mp_ref_out *o, uint64_t bytes, uint64_t stride, uint64_t group,
			struct mp_rng *g)
{
	struct mp_perm groups;
	uint64_t n;

	if (group > bytes)              /* a region smaller than one group is one group */
		group = bytes - bytes % stride;
	n = bytes / group;
	mp_perm_init(&groups, n, g);
	for (uint64_t i = 0; i < n; i++)
		put_group(o, mp_perm_at(&groups, i) * group, group / stride, stride, g);
}

void *mp_ref_grouped(uint8_t *base, uint64_t bytes, uint64_t stride, uint64_t group,
		     struct mp_rng *g)
{
	struct mp_ref_out o = mp_ref_linked(base);

	mp_ref_grouped_put(&o, bytes, stride, group, g);
	return mp_ref_close(&o);
}
