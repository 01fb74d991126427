/* SPDX-License-Identifier: MIT */
/*
 * Virtual memory of the simulated machine.  A mapping (region) covers host
 * memory the platform allocated, or any range a test names; the host address
 * is the virtual address.  Frames come from the model's `frames` mode:
 *
 *   contiguous  physical = virtual, the identity map of bare metal;
 *   scattered   every page gets a frame drawn from a seeded permutation,
 *               as Linux hands out 4K pages.  Frames of each page size live
 *               in their own 1 TB window above 2^52, far from the identity
 *               range, and never repeat; a map from frame to page gives the
 *               reverse (a line leaving a physically indexed cache).
 *               A mapping that asks for contiguous memory gets the identity
 *               map instead (host addresses lie far below the frames), as
 *               bare metal or Linux's 1G hugetlbfs pages would give it,
 *               unless the model says `contiguous=refused`.  With `host=`
 *               (the base page) a larger page gets a frame per base page,
 *               as a virtual machine's host backs a guest's 2M page with
 *               4K pages of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/simint.h"

#define SCATTER_BASE (1ull << 52)
#define SCATTER_WINDOW_BITS 40  /* bytes of frames per page size: 1 TB */

int sim_vm_page_index(const struct mp_sim *s, uint64_t page_bytes)
{
	for (int i = 0; i < s->npages; i++)
		if (s->page_bytes[i] == page_bytes)
			return i;
	return -1;
}

uint64_t mp_sim_base_page(const struct mp_sim *s)
{
	return s->page_bytes[0];
}

uint64_t mp_sim_page_size(const struct mp_sim *s, uint64_t want)
{
	int i = want ? sim_vm_page_index(s, want) : 0;

	return s->page_bytes[i < 0 ? 0 : i];
}

/* A bijection of [0, 2^bits): counter in, frame number out. */
static uint64_t scatter(uint64_t n, unsigned bits, uint64_t seed)
{
	uint64_t mask = (1ull << bits) - 1;
	uint64_t x = (n ^ seed) & mask;

	for (int round = 0; round < 3; round++) {
		x = (x * 0x9E3779B97F4A7C15ull) & mask;  /* odd multiplier */
		x ^= x >> (bits / 2 + 1);
		x = (x + (seed >> (8 * round))) & mask;
	}
	return x;
}

static uint64_t next_frame(struct mp_sim *s, uint32_t page)
{
	unsigned bits = SCATTER_WINDOW_BITS - s->page_shift[page];
	uint64_t n = scatter(s->frames_next[page]++, bits, sim_seed(s->model.frames.seed));

	return SCATTER_BASE + ((uint64_t)page << (SCATTER_WINDOW_BITS + 4)) +
	       (n << s->page_shift[page]);
}

static struct sim_region *free_slot(struct mp_sim *s)
{
	for (int i = 0; i < s->nregions; i++)
		if (!s->region[i].bytes)
			return &s->region[i];
	if (s->nregions == SIM_MAX_REGIONS)
		return NULL;
	return &s->region[s->nregions++];
}

static bool overlaps(const struct mp_sim *s, uint64_t va, uint64_t bytes)
{
	for (int i = 0; i < s->nregions; i++) {
		const struct sim_region *r = &s->region[i];

		if (r->bytes && va < r->va + r->bytes && r->va < va + bytes)
			return true;
	}
	return false;
}

static bool identity(const struct mp_sim *s, bool contiguous)
{
	return s->model.frames.mode == MP_SIM_FRAMES_CONTIGUOUS ||
	       (contiguous && !s->model.frames.refuse_contiguous);
}

/* The page index of a scattered region's frames: its page's, or the host's base page. */
static uint32_t frame_page(const struct mp_sim *s, const struct sim_region *r)
{
	return s->model.frames.host ? 0 : r->page;
}

static bool give_frames(struct mp_sim *s, struct sim_region *r, bool contiguous)
{
	uint32_t fp = frame_page(s, r);
	uint64_t pages;

	r->fshift = r->shift;
	if (identity(s, contiguous)) {
		r->pa = r->va;
		return true;
	}
	r->fshift = s->page_shift[fp];
	pages = r->bytes >> r->fshift;
	r->frame = malloc(pages * sizeof(*r->frame));
	if (!r->frame)
		return false;
	for (uint64_t i = 0; i < pages; i++) {
		r->frame[i] = next_frame(s, fp);
		if (sim_map_put(&s->frame_owner, r->frame[i], r->va + (i << r->fshift)) < 0) {
			while (i--)
				sim_map_del(&s->frame_owner, r->frame[i]);
			free(r->frame);
			r->frame = NULL;
			return false;
		}
	}
	r->pa = r->frame[0];
	return true;
}

bool sim_vm_va(const struct mp_sim *s, uint64_t pa, uint64_t *va)
{
	uint64_t window = (pa - SCATTER_BASE) >> (SCATTER_WINDOW_BITS + 4);
	uint64_t frame, *owner;

	if (s->model.frames.mode == MP_SIM_FRAMES_CONTIGUOUS || pa < SCATTER_BASE) {
		*va = pa;
		return true;
	}
	if (window >= (uint64_t)s->npages)
		return false;
	frame = pa & ~((1ull << s->page_shift[window]) - 1);
	owner = sim_map_get(&s->frame_owner, frame);
	if (!owner)
		return false;
	*va = *owner + (pa - frame);
	return true;
}

uint64_t mp_sim_map(struct mp_sim *s, uint64_t va, uint64_t bytes, uint64_t page_bytes,
		    bool contiguous)
{
	uint64_t size = mp_sim_page_size(s, page_bytes);
	int page = sim_vm_page_index(s, size);
	struct sim_region *r;

	bytes = (bytes + size - 1) & ~(size - 1);
	if (!bytes || va % size || va + bytes < va || overlaps(s, va, bytes))
		return 0;
	r = free_slot(s);
	if (!r)
		return 0;
	memset(r, 0, sizeof(*r));
	r->va = va;
	r->bytes = bytes;
	r->page = (uint32_t)page;
	r->shift = s->page_shift[page];
	if (!give_frames(s, r, contiguous)) {
		r->bytes = 0;
		return 0;
	}
	return size;
}

/* An unmapped range leaves every TLB (the shootdown an OS does). */
static void shoot_down(struct mp_sim *s, const struct sim_region *r)
{
	for (int i = 0; i < s->ntlbs; i++) {
		struct sim_sets *a = &s->tlb[i].a;

		for (uint64_t set = 0; set < a->nsets; set++)
			for (uint32_t w = 0; w < a->ways; w++) {
				uint64_t e = sim_sets_entry(a, set, w);
				uint64_t va = a->key[e] << a->shift;

				if (a->key[e] != SIM_NONE && va - r->va < r->bytes)
					sim_sets_drop(a, e);
			}
	}
}

void mp_sim_unmap(struct mp_sim *s, uint64_t va)
{
	for (int i = 0; i < s->nregions; i++) {
		struct sim_region *r = &s->region[i];

		if (!r->bytes || r->va != va)
			continue;
		shoot_down(s, r);
		for (uint64_t p = 0; r->frame && p < r->bytes >> r->fshift; p++)
			sim_map_del(&s->frame_owner, r->frame[p]);
		free(r->frame);
		for (int c = 0; c < MP_SIM_MAX_CACHES; c++)
			free(r->left[c]);
		memset(r, 0, sizeof(*r));
		s->last_region = NULL;
		return;
	}
}

struct sim_region *sim_vm_find(struct mp_sim *s, uint64_t va)
{
	struct sim_region *r = s->last_region;

	if (r && va - r->va < r->bytes)
		return r;
	for (int i = 0; i < s->nregions; i++) {
		r = &s->region[i];
		if (r->bytes && va - r->va < r->bytes) {
			s->last_region = r;
			return r;
		}
	}
	return NULL;
}

bool mp_sim_contiguous(struct mp_sim *s, uint64_t va)
{
	const struct sim_region *r = sim_vm_find(s, va);

	return r && (!r->frame || r->bytes == 1ull << r->fshift);
}

uint64_t mp_sim_frame_bytes(struct mp_sim *s, uint64_t va)
{
	const struct sim_region *r = sim_vm_find(s, va);

	return r ? 1ull << r->fshift : 0;
}

bool mp_sim_translate(struct mp_sim *s, uint64_t va, uint64_t *pa)
{
	const struct sim_region *r = sim_vm_find(s, va);

	if (!r)
		return false;
	*pa = sim_vm_pa(r, va);
	return true;
}
