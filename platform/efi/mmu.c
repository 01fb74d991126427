/* SPDX-License-Identifier: MIT */
#include "arch/x86_64/cr.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/mtrr.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "platform/efi/fw.h"
#include "platform/efi/mmu.h"

#define PAGE 4096ull
/*
 * Tables to map the whole arena with 4 KB pages: a page table per 2 MB, a
 * page directory per 1 GB, and a few more: the PML4 and PDPT, and the
 * tables copied or split where the arena starts and ends inside a 1 GB or
 * 2 MB page of the firmware's.
 */
#define POOL_EXTRA_PAGES 16u
/* CPUID.01H:EDX (SDM Vol. 2A, CPUID, "Feature Information"): MTRR bit 12, PAT bit 16. */
#define LEAF_FEATURES 0x1u
#define EDX_MTRR (1u << 12)
#define EDX_PAT (1u << 16)
/* MAXPHYADDR: CPUID.80000008H:EAX[7:0], 36 where the leaf is absent (SDM Vol. 3A,
 * "Variable Range MTRRs"). */
#define LEAF_ADDR_SIZES 0x80000008u
#define PHYS_BITS_DEFAULT 36u

static uint64_t *pool_page(void *arg)
{
	struct mp_efi_mmu *m = arg;

	if (m->pool_used == m->pool_pages)
		return NULL;
	return (uint64_t *)(uintptr_t)(m->pool + PAGE * m->pool_used++);
}

static const char *type_name(enum mp_memtype t)
{
	return t == MP_MT_INVALID ? "mixed or undefined" : mp_memtype_name(t);
}

/* The MTRRs' type for the whole arena; MP_MT_INVALID when unknown or mixed. */
static enum mp_memtype mtrr_type(const struct mp_cpuid *c, const struct mp_efi_arena *a)
{
	struct mp_mtrr mt;
	uint32_t r[4];
	uint32_t bits = PHYS_BITS_DEFAULT;

	if (mp_cpuid_leaf(c, LEAF_ADDR_SIZES, 0, r) && (r[MP_EAX] & 0xff))
		bits = r[MP_EAX] & 0xff;
	if (!mp_mtrr_read(&mt, &mp_x86_msr_io, bits))
		return MP_MT_INVALID;
	return mp_mtrr_range_type(&mt, (uintptr_t)a->base, a->bytes);
}

/* PAT entry 0 (what our leaves select) and the MTRRs must both say WB. */
static void check_memtype(struct mp_platform *p, struct mp_efi_mmu *m,
			  const struct mp_cpuid *c, const struct mp_efi_arena *a)
{
	enum mp_memtype pat0 = MP_MT_INVALID, mtrr = MP_MT_INVALID;
	uint64_t pat;
	uint32_t r[4];

	mp_cpuid_leaf(c, LEAF_FEATURES, 0, r);
	if ((r[MP_EDX] & EDX_PAT) && mp_x86_msr_read(MP_MSR_IA32_PAT, &pat))
		pat0 = mp_pat_entry(pat, 0);
	if (r[MP_EDX] & EDX_MTRR)
		mtrr = mtrr_type(c, a);
	m->write_back = pat0 == MP_MT_WB && mtrr == MP_MT_WB;
	mp_logf(p, MP_LOG_INFO, "memory type of the arena: IA32_PAT entry 0 %s, MTRRs %s",
		    (r[MP_EDX] & EDX_PAT) ? type_name(pat0) : "absent",
		    (r[MP_EDX] & EDX_MTRR) ? type_name(mtrr) : "absent");
	if (!m->write_back)
		mp_snprintf(m->why, sizeof(m->why),
			    "the arena is not write-back memory (PAT entry 0 %s, MTRRs %s)",
			    type_name(pat0), type_name(mtrr));
}

static bool refuse(struct mp_platform *p, struct mp_efi_mmu *m, const char *why)
{
	mp_strlcpy(m->why, why, sizeof(m->why));
	mp_logf(p, MP_LOG_WARN, "%s; the firmware's page tables stay in use and every block "
		"is reported with the page size they map it with", why);
	return false;
}

bool mp_efi_mmu_open(struct mp_platform *p, struct mp_efi_mmu *m, const struct mp_cpuid *c,
		     const struct mp_efi_arena *a)
{
	uint64_t cr4 = mp_x86_read_cr4();

	mp_memset(m, 0, sizeof(*m));
	m->has_1g = mp_cpuid_has_1g_pages(c);
	check_memtype(p, m, c, a);
	if (cr4 & MP_CR4_LA57)
		return refuse(p, m, "the firmware uses 5-level paging (CR4.LA57)");
	if (cr4 & MP_CR4_PCIDE)
		return refuse(p, m, "the firmware uses PCIDs (CR4.PCIDE)");
	m->pool_pages = a->bytes / MP_PAGE_BYTES_2M + a->bytes / MP_PAGE_BYTES_1G +
			POOL_EXTRA_PAGES;
	if (mp_fw_pages_alloc(m->pool_pages * PAGE, &m->pool) != MP_FW_OK) {
		m->pool = 0;
		return refuse(p, m, "no memory for page tables");
	}
	m->fw_cr3 = mp_x86_read_cr3();
	if (mp_pt_init_copy(&m->pt, pool_page, m,
			    (const uint64_t *)(uintptr_t)(m->fw_cr3 & MP_PTE_ADDR)) != MP_OK)
		return refuse(p, m, "no memory for page tables");
	m->our_cr3 = (uint64_t)(uintptr_t)m->pt.root;
	m->ready = true;
	mp_logf(p, MP_LOG_INFO, "page tables: our own for the measurements (%llu pages for "
		"tables), arena blocks mapped with 2M pages unless a probe asks for 4K%s",
		    (unsigned long long)m->pool_pages, m->has_1g ? " or 1G" : "");
	return true;
}

enum mp_status mp_efi_mmu_map(struct mp_efi_mmu *m, const uint8_t *base, uint64_t bytes,
			      uint64_t page_bytes)
{
	enum mp_status st;

	if (!m->ready)
		return MP_UNSUPPORTED;
	if (page_bytes == MP_PAGE_BYTES_1G && !m->has_1g)
		return MP_UNSUPPORTED;
	st = mp_pt_map(&m->pt, (uintptr_t)base, bytes, page_bytes);
	if (m->loaded)
		mp_x86_write_cr3(m->our_cr3); /* no stale translation of the block stays */
	return st;
}

uint64_t mp_efi_mmu_page_of(const uint8_t *base, uint64_t bytes)
{
	const uint64_t *root = (const uint64_t *)(uintptr_t)(mp_x86_read_cr3() & MP_PTE_ADDR);
	uint64_t smallest = MP_PAGE_BYTES_1G, va = (uintptr_t)base;
	struct mp_pt_walk w;

	if (mp_x86_read_cr4() & MP_CR4_LA57)
		return PAGE;
	while (va < (uintptr_t)base + bytes) {
		if (!mp_pt_walk(root, va, &w))
			return PAGE;
		smallest = w.page_bytes < smallest ? w.page_bytes : smallest;
		va = (va & ~(w.page_bytes - 1)) + w.page_bytes;
	}
	return smallest;
}

void mp_efi_mmu_enter(struct mp_efi_mmu *m)
{
	if (m->ready && !m->loaded) {
		mp_x86_write_cr3(m->our_cr3);
		m->loaded = true;
	}
}

void mp_efi_mmu_leave(struct mp_efi_mmu *m)
{
	if (m->loaded) {
		mp_x86_write_cr3(m->fw_cr3);
		m->loaded = false;
	}
}

void mp_efi_mmu_close(struct mp_efi_mmu *m)
{
	mp_efi_mmu_leave(m);
	if (m->pool)
		mp_fw_pages_free(m->pool, m->pool_pages * PAGE);
	m->pool = 0;
	m->ready = false;
}
