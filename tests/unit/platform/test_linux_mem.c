/* SPDX-License-Identifier: MIT */
/*
 * The Linux platform's memory: mappings freed are kept for the next
 * request like theirs, several at once (a probe's rounds and its two page
 * sizes take turns), and come back zeroed, also to a request that only
 * wishes for physically contiguous memory, which mmap cannot act on; a
 * request unlike any is mapped anew.
 */
#include <stdint.h>
#include <string.h>

#include "platform/linux/platform.h"
#include "tests/check.h"
#include "tests/output.h"

static uint8_t *get(struct mp_platform *p, uint64_t mb, enum mp_page page, struct mp_mem *m)
{
	struct mp_mem_req req = { .bytes = mb << 20, .align = 4096, .page = page };

	CHECK(p->ops->mem_alloc(p, &req, m) == MP_OK, "%llu M of memory mapped",
	      (unsigned long long)mb);
	return m->base;
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
	CHECK(again.base != first_a && again.base != first_b,
	      "a request unlike any kept is mapped anew");
	p->ops->mem_free(p, &again);
	mp_linux_close(p);
	return check_done();
}
