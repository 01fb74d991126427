/* SPDX-License-Identifier: MIT */
/*
 * The identity-map builder and the walker (arch/x86_64/paging.h).  A
 * linear address is split 9/9/9/9/12: PML4, PDPT, PD and PT indexes (Intel
 * SDM Vol. 3A, section 4.5, Figures 4-8 to 4-10); a 1 GB page ends the walk
 * at the PDPT, a 2 MB page at the PD, each with PS = 1.
 */
#include "arch/x86_64/paging.h"

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

/* Entries that point to a table: present, writable, accessed. */
#define TABLE_FLAGS (MP_PTE_P | MP_PTE_RW | MP_PTE_A)
/* Leaves: present, writable, accessed, dirty; PWT = PCD = PAT = 0 (PAT index 0). */
#define LEAF_FLAGS (MP_PTE_P | MP_PTE_RW | MP_PTE_A | MP_PTE_D)

static unsigned index_of(uint64_t va, unsigned level)
{
	return (unsigned)((va >> shift[level]) & (MP_PT_ENTRIES - 1));
}

static uint64_t *table_at(uint64_t entry)
{
	return (uint64_t *)(uintptr_t)(entry & MP_PTE_ADDR);
}

static uint64_t *new_table(struct mp_pt *pt)
{
	uint64_t *t = pt->alloc(pt->arg);

	if (!t)
		return NULL;
	for (unsigned i = 0; i < MP_PT_ENTRIES; i++)
		t[i] = 0;
	pt->tables++;
	return t;
}

enum mp_status mp_pt_init(struct mp_pt *pt, mp_pt_alloc_fn alloc, void *arg)
{
	pt->alloc = alloc;
	pt->arg = arg;
	pt->tables = 0;
	pt->root = new_table(pt);
	return pt->root ? MP_OK : MP_ENOMEM;
}

/* The table an entry points to, made when absent; NULL with *st set on failure. */
static uint64_t *descend(struct mp_pt *pt, uint64_t *entry, enum mp_status *st)
{
	uint64_t *t;

	if (*entry & MP_PTE_P) {
		if (*entry & MP_PTE_PS) {
			*st = MP_EIO; /* a large page already covers this address */
			return NULL;
		}
		return table_at(*entry);
	}
	t = new_table(pt);
	if (!t) {
		*st = MP_ENOMEM;
		return NULL;
	}
	*entry = (uint64_t)(uintptr_t)t | TABLE_FLAGS;
	return t;
}

static enum mp_status map_page(struct mp_pt *pt, uint64_t va, unsigned leaf)
{
	enum mp_status st = MP_OK;
	uint64_t *t = pt->root, want = va | LEAF_FLAGS | (leaf == PT ? 0 : MP_PTE_PS);

	for (unsigned level = PML4; level < leaf; level++) {
		t = descend(pt, &t[index_of(va, level)], &st);
		if (!t)
			return st;
	}
	t += index_of(va, leaf);
	if (*t & MP_PTE_P)
		return *t == want ? MP_OK : MP_EIO;
	*t = want;
	return MP_OK;
}

enum mp_status mp_pt_map(struct mp_pt *pt, uint64_t base, uint64_t bytes, uint64_t page_bytes)
{
	unsigned leaf = LEVELS;
	enum mp_status st = MP_OK;

	for (unsigned i = 0; i < sizeof(page_levels) / sizeof(page_levels[0]); i++)
		if (page_levels[i].bytes == page_bytes)
			leaf = page_levels[i].level;
	if (leaf == LEVELS)
		return MP_UNSUPPORTED;
	if ((base | bytes) & (page_bytes - 1) || base >= MP_PT_IDENTITY_LIMIT ||
	    bytes > MP_PT_IDENTITY_LIMIT - base)
		return MP_EIO;
	for (uint64_t va = base; va < base + bytes && st == MP_OK; va += page_bytes)
		st = map_page(pt, va, leaf);
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
