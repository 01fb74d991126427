/* SPDX-License-Identifier: MIT */
/*
 * Reference strings: the one generator of pointer chains that every probe
 * and every platform uses.  An element is a pointer-sized word holding the
 * address of the next element; the chain is always one cycle, so a chase
 * of any length stays on it.  Orders are pseudo-random (seeded) so that a
 * stride prefetcher sees nothing to follow (X-Ray 4.4.3, Cooper-Xu 3.3).
 */
#ifndef MEMPROBE_CORE_REFSTRING_H
#define MEMPROBE_CORE_REFSTRING_H

#include <stdint.h>

#include "core/rng.h"

/*
 * Link n elements at base + i * stride (i < n) into one random cycle
 * (Sattolo's algorithm, in place: no scratch memory).  Returns the element
 * the chase starts from.  n >= 1, stride >= sizeof(void *).
 */
void *mp_ref_cycle(uint8_t *base, uint64_t n, uint64_t stride, struct mp_rng *g);

/*
 * Link the elements at base + offs[i] into one cycle in the given order
 * (offs is not changed).  Returns base + offs[0].
 */
void *mp_ref_chain(uint8_t *base, const uint64_t *offs, uint64_t n);

/* Shuffle offs[0..n) in place (Fisher-Yates), for a random visiting order. */
void mp_ref_shuffle(uint64_t *offs, uint64_t n, struct mp_rng *g);

/*
 * Cooper-Xu's C(k) (section 3.3, figure 6): one element at the start of
 * every `line` bytes of [0, bytes).  The rows (pages of `row` bytes) come
 * in shuffled order, and every line of a row (its column set) in shuffled
 * order before the next row, so that a chase takes at most one TLB miss
 * per page.  Pass the page size as `row` for Cooper-Xu's string; with a
 * row of `bytes` or more the whole footprint is one shuffled set, which is
 * what large pages allow (no TLB misses to amortise, and no run of
 * neighbouring lines for an adjacent-line prefetcher to exploit).
 * bytes a multiple of line; row and line powers of two, line >= 8.
 */
void *mp_ref_ck(uint8_t *base, uint64_t bytes, uint64_t row, uint64_t line, struct mp_rng *g);

/*
 * Page-spread strings for TLB tests: `per_page` elements in each of
 * groups x per_group pages.  Page q = (group g, member m) starts at
 * g * group_stride + m * page_stride.  Element e (e = q * per_page + j)
 * sits on line colperm(e mod lines-per-page) of its page, where colperm is
 * a shuffled column set: consecutive elements fall on different lines, so
 * the cache footprint is spread over every set (Cooper-Xu 3.4).  The whole
 * set of elements is visited in shuffled order.
 *   Cooper-Xu T(n, k):        groups = k / page, group_stride = page,
 *                             per_group = 1, per_page = n.
 *   X-Ray <S, n> (4.6):       groups = n, group_stride = S, per_group = 1,
 *                             per_page = 1.
 *   X-Ray <S, n, S_old, r>:   per_group = r, page_stride = S_old (4.5.1).
 * group_stride >= per_group * page_stride, per_page <= page / line.
 */
struct mp_ref_pages {
	uint64_t page;
	uint64_t line;
	uint64_t groups;
	uint64_t group_stride;
	uint64_t per_group;
	uint64_t page_stride;
	uint64_t per_page;
};

/* Bytes from base the string touches (the memory it needs). */
uint64_t mp_ref_pages_span(const struct mp_ref_pages *s);
/* Elements in the cycle. */
uint64_t mp_ref_pages_count(const struct mp_ref_pages *s);
void *mp_ref_pages(uint8_t *base, const struct mp_ref_pages *s, struct mp_rng *g);

#endif
