/* SPDX-License-Identifier: MIT */
/*
 * The Linux platform's memory: mappings freed are kept for later requests
 * of their page size that fit in them, several at once (a probe's rounds
 * and its two page sizes take turns), and come back zeroed, also to a
 * request that only wishes for physically contiguous memory, which mmap
 * cannot act on.  A smaller request takes the smallest kept mapping it
 * fits in, at its own alignment, and gives the whole back; a request
 * larger than any kept, or of another page size, is mapped anew.
 */
#include <stdint.h>
#include <string.h>

#include "platform/linux/platform.h"
#include "tests/check.h"
#include "tests/output.h"

static uint8_t *get_aligned(struct mp_platform *p, uint64_t mb, enum mp_page page,
			   uint64_t align, struct mp_mem *m)
{
	struct mp_mem_req req = { .bytes = mb << 20, .align = align, .page = page };

	CHECK(p->ops->mem_alloc(p, &req, m) == MP_OK, "%llu M of memory mapped",
	      (unsigned long long)mb);
	return m->base;
}

static uint8_t *get(struct mp_platform *p, uint64_t mb, enum mp_page page, struct mp_mem *m)
{
	return get_aligned(p, mb, page, 4096, m);
}

static bool zero(const uint8_t *b, uint64_t bytes)
{
	for (uint64_t i = 0; i < bytes; i += 4096)
		if (b[i] || b[i + 4095])
			return false;
	return true;
}

int main(void)
{
	struct mp_platform *p = mp_linux_open(test_output());
	struct mp_mem a, b, again;
	uint8_t *first_a, *first_b;

	first_a = get(p, 8, MP_PAGE_4K, &a);
	first_b = get(p, 16, MP_PAGE_2M, &b);
	memset(a.base, 0xa5, a.bytes);
	memset(b.base, 0x5a, b.bytes);
	p->ops->mem_free(p, &a);
	p->ops->mem_free(p, &b);
	CHECK(get(p, 8, MP_PAGE_4K, &again) == first_a,
	      "the first mapping freed comes back after a second was freed");
	CHECK(zero(again.base, again.bytes), "and comes back zeroed");
	p->ops->mem_free(p, &again);
	CHECK(get(p, 16, MP_PAGE_2M, &again) == first_b, "so does the second");
	CHECK(zero(again.base, again.bytes), "zeroed too");
	p->ops->mem_free(p, &again);
	{
		struct mp_mem_req req = { .bytes = 16u << 20, .align = 4096, .page = MP_PAGE_2M,
					  .contiguous = true };

		CHECK(p->ops->mem_alloc(p, &req, &again) == MP_OK && again.base == first_b,
		      "a request that only wishes for contiguity is served by the same mapping");
		p->ops->mem_free(p, &again);
	}
	get(p, 4, MP_PAGE_4K, &again);
	CHECK(again.base == first_a && again.bytes == 4u << 20,
	      "a smaller request takes a kept mapping of its page size, as much as it asked");
	get_aligned(p, 4, MP_PAGE_2M, 8u << 20, &b);
	CHECK(b.base >= first_b && b.base + b.bytes <= first_b + (16u << 20) &&
	      (uintptr_t)b.base % (8u << 20) == 0 && zero(b.base, b.bytes),
	      "at its own alignment, zeroed");
	p->ops->mem_free(p, &b);
	p->ops->mem_free(p, &again);
	CHECK(get(p, 8, MP_PAGE_4K, &again) == first_a && again.bytes == 8u << 20,
	      "the whole mapping comes back once the part is freed");
	get(p, 12, MP_PAGE_4K, &a);
	CHECK(a.base != first_a && a.base != first_b, "a request larger than any kept is mapped anew");
	p->ops->mem_free(p, &again);
	p->ops->mem_free(p, &a);
	CHECK(get(p, 6, MP_PAGE_4K, &again) == first_a,
	      "the smallest kept mapping a request fits in serves it, not the last freed");
	p->ops->mem_free(p, &again);
	get(p, 1, MP_PAGE_1G, &again);
	CHECK(again.base != first_a && again.base != first_b,
	      "a request of another page size is mapped anew");
	p->ops->mem_free(p, &again);
	mp_linux_close(p);
	return check_done();
}
