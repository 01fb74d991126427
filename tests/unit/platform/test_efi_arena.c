/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for platform/efi/arena.c, the UEFI application's probe arena, against
 * a fake firmware: AllocatePages answers with page-aligned (never 2 MB
 * aligned) memory up to a limit.  The arena is plain C, so it is compiled
 * here directly.
 */
#include <stdint.h>
#include <stdlib.h>

#include "platform/efi/arena.c"
#include "tests/check.h"

#define MB (1ull << 20)

static uint64_t fw_limit;      /* the largest allocation the fake firmware grants */
static uint64_t freed_addr, freed_bytes;
static void *fw_block;

enum mp_fw_status mp_fw_pages_alloc(uint64_t bytes, uint64_t *addr)
{
	if (bytes > fw_limit || fw_block)
		return MP_FW_NO_MEMORY;
	fw_block = aligned_alloc(MP_EFI_ARENA_ALIGN, bytes + MP_EFI_ARENA_ALIGN);
	/* One page past a 2 MB boundary: the arena must align by itself. */
	*addr = (uintptr_t)fw_block + PAGE_BYTES;
	return fw_block ? MP_FW_OK : MP_FW_NO_MEMORY;
}

void mp_fw_pages_free(uint64_t addr, uint64_t bytes)
{
	freed_addr = addr;
	freed_bytes = bytes;
	free(fw_block);
	fw_block = NULL;
}

static void test_take(void)
{
	struct mp_efi_arena a;

	fw_limit = 1024 * MB;
	CHECK(mp_efi_arena_take(&a, 64 * MB), "take 64M");
	CHECK_EQ_INT(a.bytes, 64 * MB, "all of it");
	CHECK((uintptr_t)a.base % MP_EFI_ARENA_ALIGN == 0, "2 MB aligned");
	CHECK((uintptr_t)a.base + a.bytes <= a.fw_addr + a.fw_bytes, "inside the firmware's pages");
	mp_efi_arena_give_back(&a);
	CHECK(freed_bytes > 64 * MB && freed_addr % PAGE_BYTES == 0, "given back whole");

	fw_limit = 40 * MB;
	CHECK(mp_efi_arena_take(&a, 64 * MB), "take 64M with 40M free");
	CHECK_EQ_INT(a.bytes, 32 * MB, "halved to 32M");
	mp_efi_arena_give_back(&a);

	fw_limit = 16 * MB;
	CHECK(mp_efi_arena_take(&a, 64 * MB), "take 64M with exactly 16M free");
	CHECK_EQ_INT(a.bytes, 16 * MB, "the minimum, unaligned");
	mp_efi_arena_give_back(&a);

	fw_limit = 8 * MB;
	CHECK(!mp_efi_arena_take(&a, 64 * MB), "refused below the minimum");
}

static void test_alloc(void)
{
	struct mp_efi_arena a;
	uint8_t *p1, *p2, *p3;
	unsigned n = 0;

	fw_limit = 1024 * MB;
	mp_efi_arena_take(&a, 32 * MB);
	p1 = mp_efi_arena_alloc(&a, 1 * MB, 4096);
	p2 = mp_efi_arena_alloc(&a, 2 * MB, 2 * MB);
	CHECK(p1 == a.base, "first fit at the start");
	CHECK(p2 && (uintptr_t)p2 % (2 * MB) == 0, "2 MB alignment honoured");
	CHECK(p2 >= p1 + 1 * MB, "no overlap");
	CHECK(!mp_efi_arena_alloc(&a, 32 * MB, 4096), "too large: NULL");
	mp_efi_arena_free(&a, p1);
	p3 = mp_efi_arena_alloc(&a, 512 * 1024, 4096);
	CHECK(p3 == p1, "a freed block is reused");
	mp_efi_arena_free(&a, p3);
	mp_efi_arena_free(&a, p2);
	CHECK_EQ_INT(a.n, 0, "all freed");
	while (mp_efi_arena_alloc(&a, 4096, 4096))
		n++;
	CHECK_EQ_INT(n, MP_EFI_ARENA_SLOTS, "the slot table bounds live blocks");
	mp_efi_arena_give_back(&a);
}

int main(void)
{
	test_take();
	test_alloc();
	return check_done();
}
