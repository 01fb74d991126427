/* SPDX-License-Identifier: MIT */
/*
 * The identity-map builder and the walker (arch/x86_64/paging.h).  A
 * linear address is split 9/9/9/9/12: PML4, PDPT, PD and PT indexes (Intel
 * SDM Vol. 3A, section 4.5, Figures 4-8 to 4-10); a 1 GB page ends the walk
 * at the PDPT, a 2 MB page at the PD, each with PS = 1.  Tables and pages
 * we wrote carry MP_PTE_OURS; entries without it belong to the map we
 * copied (the firmware's), whose tables are copied before a change.
 */
#include "arch/x86_64/paging.h"
#include "core/lib/bits.h"

enum { PML4, PDPT, PD, PT, LEVELS };

/* Address bits each level's index starts at. */
static const unsigned shift[LEVELS] = { [PML4] = 39, [PDPT] = 30, [PD] = 21, [PT] = 12 };

/* Leaf level of each page size. */
static const struct {
	uint64_t bytes;
	unsigned level;
} page_levels[] = {
	{ MP_PAGE_BYTES_4K, PT },
	{ MP_PAGE_BYTES_2M, PD },
	{ MP_PAGE_BYTES_1G, PDPT },
};

/* Entries that point to a table of ours: present, writable, accessed. */
#define TABLE_FLAGS (MP_PTE_P | MP_PTE_RW | MP_PTE_A | MP_PTE_OURS)
/* Leaves: present, writable, accessed, dirty; PWT = PCD = PAT = 0 (PAT index 0). */
#define LEAF_FLAGS (MP_PTE_P | MP_PTE_RW | MP_PTE_A | MP_PTE_D | MP_PTE_OURS)

static unsigned index_of(uint64_t va, unsigned level)
{
	return (unsigned)((va >> shift[level]) & (MP_PT_ENTRIES - 1));
}

static uint64_t *table_at(uint64_t entry)
{
	return (uint64_t *)(uintptr_t)(entry & MP_PTE_ADDR);
}

/* Does this entry of a table at `level` point to a table of the next level? */
static bool points_to_table(uint64_t e, unsigned level)
{
	return (e & MP_PTE_P) && level != PT && (level == PML4 || !(e & MP_PTE_PS));
}

/* A zeroed table: one a larger page replaced in an earlier call, else a new page. */
static uint64_t *new_table(struct mp_pt *pt)
{
	uint64_t *t = pt->spare;

	if (t) {
		pt->spare = (uint64_t *)(uintptr_t)t[0];
	} else {
		t = pt->alloc(pt->arg);
		if (!t)
			return NULL;
		pt->tables++;
	}
	for (unsigned i = 0; i < MP_PT_ENTRIES; i++)
		t[i] = 0;
	return t;
}

/*
 * Keep a table of ours (at `level`) and ours below it for reuse.  They are
 * reused only from the next mp_pt_map on: until the caller reloads CR3 the
 * processor's paging-structure caches may still point to them.
 */
static void drop_table(struct mp_pt *pt, uint64_t *t, unsigned level, uint64_t **dropped)
{
	for (unsigned i = 0; i < MP_PT_ENTRIES; i++)
		if (points_to_table(t[i], level) && (t[i] & MP_PTE_OURS))
			drop_table(pt, table_at(t[i]), level + 1, dropped);
	t[0] = (uint64_t)(uintptr_t)*dropped;
	*dropped = t;
}

/*
 * The large page `e` at `level` as a table of the next level's pages: the
 * same frames and flags (PAT moves from bit 12 to bit 7 in 4 KB entries).
 */
static void split(uint64_t *t, uint64_t e, unsigned level)
{
	uint64_t size = 1ull << shift[level + 1];
	uint64_t frame = e & MP_PTE_ADDR & ~((1ull << shift[level]) - 1);
	uint64_t flags = e & ~MP_PTE_ADDR;

	if (level + 1 == PT)
		flags = (flags & ~MP_PTE_PS) | (e & MP_PTE_PAT_BIG ? MP_PTE_PAT_4K : 0);
	else
		flags |= e & MP_PTE_PAT_BIG;
	for (unsigned i = 0; i < MP_PT_ENTRIES; i++)
		t[i] = (frame + i * size) | flags;
}

/*
 * The table an entry at `level` leads to, ours to write: made when absent,
 * a copy when it is another map's, the large page's split when it is one.
 * NULL with *st set when no table is left.
 */
static uint64_t *descend(struct mp_pt *pt, uint64_t *entry, unsigned level, enum mp_status *st)
{
	uint64_t e = *entry, *t;

	if (points_to_table(e, level) && (e & MP_PTE_OURS))
		return table_at(e);
	t = new_table(pt);
	if (!t) {
		*st = MP_ENOMEM;
		return NULL;
	}
	if (points_to_table(e, level))
		for (unsigned i = 0; i < MP_PT_ENTRIES; i++)
			t[i] = table_at(e)[i];
	else if (e & MP_PTE_P)
		split(t, e, level);
	*entry = (uint64_t)(uintptr_t)t | TABLE_FLAGS;
	return t;
}

enum mp_status mp_pt_init(struct mp_pt *pt, mp_pt_alloc_fn alloc, void *arg)
{
	pt->alloc = alloc;
	pt->arg = arg;
	pt->tables = 0;
	pt->spare = NULL;
	pt->root = new_table(pt);
	return pt->root ? MP_OK : MP_ENOMEM;
}

enum mp_status mp_pt_init_copy(struct mp_pt *pt, mp_pt_alloc_fn alloc, void *arg,
			       const uint64_t *root)
{
	enum mp_status st = mp_pt_init(pt, alloc, arg);

	for (unsigned i = 0; st == MP_OK && i < MP_PT_ENTRIES; i++)
		pt->root[i] = root[i];
	return st;
}

static enum mp_status map_page(struct mp_pt *pt, uint64_t va, unsigned leaf, uint64_t **dropped)
{
	enum mp_status st = MP_OK;
	uint64_t *t = pt->root, old;

	for (unsigned level = PML4; level < leaf; level++) {
		t = descend(pt, &t[index_of(va, level)], level, &st);
		if (!t)
			return st;
	}
	t += index_of(va, leaf);
	old = *t;
	*t = va | LEAF_FLAGS | (leaf == PT ? 0 : MP_PTE_PS);
	if (points_to_table(old, leaf) && (old & MP_PTE_OURS))
		drop_table(pt, table_at(old), leaf + 1, dropped);
	return MP_OK;
}

enum mp_status mp_pt_map(struct mp_pt *pt, uint64_t base, uint64_t bytes, uint64_t page_bytes)
{
	unsigned leaf = LEVELS;
	enum mp_status st = MP_OK;
	uint64_t *dropped = NULL;

	for (unsigned i = 0; i < MP_COUNT_OF(page_levels); i++)
		if (page_levels[i].bytes == page_bytes)
			leaf = page_levels[i].level;
	if (leaf == LEVELS)
		return MP_UNSUPPORTED;
	if ((base | bytes) & (page_bytes - 1) || base >= MP_PT_IDENTITY_LIMIT ||
	    bytes > MP_PT_IDENTITY_LIMIT - base)
		return MP_EIO;
	for (uint64_t va = base; va < base + bytes && st == MP_OK; va += page_bytes)
		st = map_page(pt, va, leaf, &dropped);
	while (dropped) {
		uint64_t *t = dropped;

		dropped = (uint64_t *)(uintptr_t)t[0];
		t[0] = (uint64_t)(uintptr_t)pt->spare;
		pt->spare = t;
	}
	return st;
}

/* Canonical: bits 63:47 all equal (SDM Vol. 1, section 3.3.7.1). */
static bool canonical(uint64_t va)
{
	uint64_t top = va >> 47;

	return top == 0 || top == (1ull << 17) - 1;
}

bool mp_pt_walk(const uint64_t *root, uint64_t virt, struct mp_pt_walk *out)
{
	const uint64_t *t = root;

	if (!canonical(virt))
		return false;
	for (unsigned level = PML4; level < LEVELS; level++) {
		uint64_t e = t[index_of(virt, level)];
		uint64_t size = 1ull << shift[level];

		if (!(e & MP_PTE_P))
			return false;
		if (level == PT || (level != PML4 && (e & MP_PTE_PS))) {
			/* A large page's frame starts at bit `shift`: bit 12 there is PAT. */
			out->phys = (e & MP_PTE_ADDR & ~(size - 1)) | (virt & (size - 1));
			out->page_bytes = size;
			out->entry = e;
			return true;
		}
		t = table_at(e);
	}
	return false;
}

unsigned mp_pt_pat_index(uint64_t entry, uint64_t page_bytes)
{
	uint64_t pat_bit = page_bytes == MP_PAGE_BYTES_4K ? MP_PTE_PAT_4K : MP_PTE_PAT_BIG;

	return (entry & pat_bit ? 4u : 0u) | (entry & MP_PTE_PCD ? 2u : 0u) |
	       (entry & MP_PTE_PWT ? 1u : 0u);
}
