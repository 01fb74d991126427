/* SPDX-License-Identifier: MIT */
#include "core/seq/perm.h"

void mp_perm_init(struct mp_perm *p, uint64_t n, struct mp_rng *g)
{
	unsigned bits = 0;

	while (bits < 63 && (1ull << bits) < n)
		bits++;
	p->n = n;
	p->mask = (1ull << bits) - 1;
	p->shift = bits / 2 + 1;
	for (unsigned i = 0; i < MP_PERM_ROUNDS; i++) {
		p->add[i] = mp_rng_next(g);
		p->mul[i] = mp_rng_next(g) | 1;
	}
}

uint64_t mp_perm_at(const struct mp_perm *p, uint64_t i)
{
	do {
		for (unsigned k = 0; k < MP_PERM_ROUNDS; k++) {
			i = ((i + p->add[k]) * p->mul[k]) & p->mask;
			i ^= i >> p->shift;
		}
	} while (i >= p->n);
	return i;
}
