/* SPDX-License-Identifier: MIT */
/*
 * A hash map from 64-bit keys to 64-bit values: open addressing with linear
 * probing, deletion by shifting later entries back (no tombstones), and a
 * table that doubles when half full.  The simulator uses it for the reverse
 * of scattered frames and for the shadow caches of the causes of misses.
 */
#include "sim/simint.h"

static uint64_t home(const struct sim_map *m, uint64_t key)
{
	return (key * 0x9E3779B97F4A7C15ull >> 17) & m->mask;
}

static uint64_t slot_of(const struct sim_map *m, uint64_t key)
{
	uint64_t i = home(m, key);

	while (m->key[i] != key && m->key[i] != SIM_NONE)
		i = (i + 1) & m->mask;
	return i;
}

static int alloc_table(struct sim_map *m, uint64_t slots)
{
	m->key = sim_zalloc(slots * sizeof(*m->key));
	m->val = sim_zalloc(slots * sizeof(*m->val));
	if (!m->key || !m->val) {
		sim_map_free(m);
		return -1;
	}
	m->mask = slots - 1;
	sim_map_clear(m);
	return 0;
}

int sim_map_init(struct sim_map *m, uint64_t cap)
{
	uint64_t slots = 16;

	while (slots < 2 * cap)
		slots *= 2;
	m->key = m->val = NULL;
	return alloc_table(m, slots);
}

void sim_map_free(struct sim_map *m)
{
	uint64_t slots = m->key || m->val ? m->mask + 1 : 0;

	sim_zfree(m->key, slots * sizeof(*m->key));
	sim_zfree(m->val, slots * sizeof(*m->val));
	m->key = m->val = NULL;
	m->mask = 0;
	m->n = 0;
}

void sim_map_clear(struct sim_map *m)
{
	for (uint64_t i = 0; i <= m->mask; i++)
		m->key[i] = SIM_NONE;
	m->n = 0;
}

uint64_t *sim_map_get(const struct sim_map *m, uint64_t key)
{
	uint64_t i = slot_of(m, key);

	return m->key[i] == SIM_NONE ? NULL : &m->val[i];
}

static int grow(struct sim_map *m)
{
	struct sim_map old = *m;

	if (alloc_table(m, 2 * (old.mask + 1)) < 0) {
		*m = old;
		return -1;
	}
	for (uint64_t i = 0; i <= old.mask; i++)
		if (old.key[i] != SIM_NONE)
			sim_map_put(m, old.key[i], old.val[i]);
	sim_map_free(&old);
	return 0;
}

int sim_map_put(struct sim_map *m, uint64_t key, uint64_t val)
{
	uint64_t i;

	if (2 * (m->n + 1) > m->mask + 1 && grow(m) < 0)
		return -1;
	i = slot_of(m, key);
	if (m->key[i] == SIM_NONE) {
		m->key[i] = key;
		m->n++;
	}
	m->val[i] = val;
	return 0;
}

void sim_map_del(struct sim_map *m, uint64_t key)
{
	uint64_t i = slot_of(m, key), j = i;

	if (m->key[i] == SIM_NONE)
		return;
	for (;;) {
		uint64_t k;

		j = (j + 1) & m->mask;
		if (m->key[j] == SIM_NONE)
			break;
		k = home(m, m->key[j]);
		/* an entry whose home lies cyclically in (i, j] stays put */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		m->key[i] = m->key[j];
		m->val[i] = m->val[j];
		i = j;
	}
	m->key[i] = SIM_NONE;
	m->n--;
}
