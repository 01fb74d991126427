/* SPDX-License-Identifier: MIT */
/*
 * Reference strings: the one generator of pointer chains that every probe
 * and every platform uses.  An element is a pointer-sized word holding the
 * address of the next element; the chain is always one cycle.  Orders are
 * pseudo-random (seeded).  docs/algorithms.md, "Reference strings".
 */
#ifndef MEMPROBE_CORE_SEQ_REFSTRING_H
#define MEMPROBE_CORE_SEQ_REFSTRING_H

#include <stdint.h>

#include "core/lib/rng.h"

/*
 * Where a generator puts its elements, in visiting order.  Linked
 * (mp_ref_linked): the elements are words at base + offset, each given the
 * address of the next and the last the first's: a pointer cycle for a data
 * chase, built in place.  Listed (mp_ref_listed): the offsets are written
 * out, at most `max` of them, for the platform's code_build to turn into a
 * chain of code blocks.  One generator of every string serves both.
 */
struct mp_ref_out {
	uint8_t *base;         /* linked: the elements' memory */
	uint64_t *offs;        /* listed: the offsets (NULL when linked) */
	uint64_t max;          /* listed: room in offs */
	uint64_t n;            /* elements put so far (listed: also past max) */
	uint64_t *first, *prev;
};

static inline struct mp_ref_out mp_ref_linked(uint8_t *base)
{
	return (struct mp_ref_out){ .base = base };
}

static inline struct mp_ref_out mp_ref_listed(uint64_t *offs, uint64_t max)
{
	return (struct mp_ref_out){ .offs = offs, .max = max };
}

/* The next element in visiting order, at base + off. */
void mp_ref_put(struct mp_ref_out *o, uint64_t off);
/*
 * The string is complete.  Linked: the cycle is closed and its first
 * element returned.  Listed: NULL (o->n says how many were put; more than
 * max means the list was cut short).
 */
void *mp_ref_close(struct mp_ref_out *o);

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
 * The same, then elements that the cycle enters and leaves by the same
 * step swapped with random ones, a few rounds: no two equal steps in a row
 * for a stride prefetcher to follow (where the elements allow).
 */
#define MP_REF_STRIDELESS_ROUNDS 8u
void mp_ref_shuffle_strideless(uint64_t *offs, uint64_t n, struct mp_rng *g);

/*
 * Cooper-Xu's C(k) (section 3.3, figure 6): one element at the start of
 * every `line` bytes of [0, bytes).  The rows (pages of `row` bytes) come
 * in shuffled order, and every line of a row in shuffled order before the
 * next row.  Pass the page size as `row` for Cooper-Xu's string; with a row
 * of `bytes` or more the whole footprint is one shuffled set
 * (docs/algorithms.md, "Multi-level caches").  bytes a multiple of line;
 * row and line powers of two, line >= 8.
 */
void *mp_ref_ck(uint8_t *base, uint64_t bytes, uint64_t row, uint64_t line, struct mp_rng *g);
void mp_ref_ck_put(struct mp_ref_out *o, uint64_t bytes, uint64_t row, uint64_t line,
		   struct mp_rng *g);

/*
 * Page-spread strings for TLB tests: `per_page` elements in each of
 * groups x per_group pages.  Page q = (group g, member m) starts at
 * g * group_stride + m * page_stride.  Element e (e = q * per_page + j)
 * sits on line colperm((e + turn(e / L)) mod L) of its page (L lines per
 * page, colperm a shuffled column set, turn a pseudo-random rotation per
 * round of L elements).  The elements are visited in per_page rounds, each
 * visiting every page once in one shuffled page order, round j on each
 * page's j-th element (docs/algorithms.md, "TLBs", T(n,k)).
 *   Cooper-Xu T(n, k):        groups = k / page, group_stride = page,
 *                             per_group = 1, per_page = n.
 *   X-Ray <S, n> (4.6):       groups = n, group_stride = S, per_group = 1,
 *                             per_page = 1.
 *   X-Ray <S, n, S_old, r>:   per_group = r, page_stride = S_old (4.5.1).
 *   Groups at random places:  slots = P (> groups): each group takes its own
 *                             of P places group_stride apart, drawn at
 *                             random (what a set index hashed over the page
 *                             number overflows and a fully associative
 *                             level does not).
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
	uint64_t slots;        /* 0: group q at q * group_stride; else a random place of these */
};

/* Bytes from base the string touches (the memory it needs). */
uint64_t mp_ref_pages_span(const struct mp_ref_pages *s);
/* Elements in the cycle. */
uint64_t mp_ref_pages_count(const struct mp_ref_pages *s);
void *mp_ref_pages(uint8_t *base, const struct mp_ref_pages *s, struct mp_rng *g);
void mp_ref_pages_put(struct mp_ref_out *o, const struct mp_ref_pages *s, struct mp_rng *g);

/*
 * Strided address sets: the L1 gap test's G(n, k, o) and X-Ray's compact
 * sets.  `groups` groups of `n` elements; element e of group g sits at
 *     g * group_stride + e * stride  (+ shift when e >= shift_from).
 *   Cooper-Xu G(n, k, o) (3.2):   stride k, shift o from element n - 1.
 *   X-Ray <S, n> (4.2):           stride S, no shift, one group.
 *   X-Ray <C/A, 2A, b> (4.4.1):   stride C/A, n = 2A, shift b from element A.
 *   X-Ray <S, n, S_old, r> (4.5.1): r groups group_stride = S_old apart.
 * Offsets are multiples of 8 (one 8-byte element each) and all distinct:
 * group_stride * groups <= stride when groups > 1, shift < stride.
 */
struct mp_ref_stride {
	uint64_t stride;
	uint64_t n;
	uint64_t shift_from;   /* first element that is shifted (n: none) */
	uint64_t shift;
	uint64_t groups;       /* at least 1 */
	uint64_t group_stride;
	uint64_t chunk;        /* elements of a group visited in a row (0: the whole group) */
};

static inline struct mp_ref_stride mp_ref_gap(uint64_t n, uint64_t k, uint64_t o)
{
	return (struct mp_ref_stride){ k, n, n - 1, o, 1, 0, 0 };
}

static inline struct mp_ref_stride mp_ref_xray(uint64_t s, uint64_t n)
{
	return (struct mp_ref_stride){ s, n, n, 0, 1, 0, 0 };
}

static inline struct mp_ref_stride mp_ref_xray_block(uint64_t way, uint64_t assoc, uint64_t b)
{
	return (struct mp_ref_stride){ way, 2 * assoc, assoc, b, 1, 0, 0 };
}

/* Elements in the set, and the bytes from base it reaches. */
uint64_t mp_ref_stride_count(const struct mp_ref_stride *s);
uint64_t mp_ref_stride_span(const struct mp_ref_stride *s);

/*
 * Write the set's offsets into offs[0 .. count) in a pseudo-random visiting
 * order a prefetcher cannot follow (X-Ray 4.4.3): each group's elements
 * shuffled, visited `chunk` at a time, the groups taking turns in one
 * shuffled order (whole groups where chunk is 0), and no two steps in a
 * row alike where a group has more than three elements (docs/algorithms.md,
 * "Reference strings").  A group is what one set of the level under test
 * holds (X-Ray 4.5.1); between two chunks of a group the other groups pass
 * through the sets above, so that its lines leave them (chunk sizes:
 * docs/algorithms.md, "Lower levels: compact sets").  Links the elements at
 * base + offs[i] into one cycle in that order; offs keeps the order.
 * Returns the element a chase starts from.
 */
void *mp_ref_stride_chain(uint8_t *base, const struct mp_ref_stride *s, uint64_t *offs,
			  struct mp_rng *g);
/* The same visiting order, written into offs only (a code chain's layout). */
void mp_ref_stride_order(const struct mp_ref_stride *s, uint64_t *offs, struct mp_rng *g);

/*
 * The back-invalidation string (core/probes/compact/inclusion.c): lines
 * k * stride, k < xlines + m.  The first xlines ("x") are visited word by
 * word, `words` words each, the lines taking turns, and the other m lines
 * ("y") once each in shuffled order (no two steps in a row alike), the x
 * words spread evenly between them.  The x lines are moved by xoff, the y
 * lines by yoff (docs/algorithms.md, "Inclusion").  Writes xlines * words +
 * m offsets into offs (the visiting order), returns that.  No x words
 * (xlines or words 0): the y lines alone.
 */
uint64_t mp_ref_evict_order(uint64_t xoff, uint64_t xlines, uint64_t words, uint64_t m,
			    uint64_t stride, uint64_t yoff, uint64_t *offs, struct mp_rng *g);

/*
 * The TLB twin of a visiting order: element i moves to another element
 * slot of its own page, on line i mod (page / line): the same pages in the
 * same order, its lines spread evenly over the sets of any cache whose way
 * is at most a page (docs/algorithms.md, "L1 data cache", the compact-set
 * test).  A slot is `elem` bytes (mp_link_elem).  Writes out[0 .. n);
 * base + offs[i] must be elem-aligned; page, line and elem powers of two,
 * elem <= line.  Distinct offsets as long as no page holds page / elem
 * elements or more.
 */
void mp_ref_twin(const uint64_t *offs, uint64_t n, uint64_t page, uint64_t line, uint64_t elem,
		 uint64_t *out);

/*
 * The counter probes' strings (grouped.c): no constant stride for a
 * prefetcher to train on (docs/algorithms.md, "Reference strings").
 */

/* Elements of one group: 4096 bytes of 8-byte words is the largest group. */
#define MP_REF_MAX_GROUP 512u

/*
 * One cycle through the elements base + i * stride, i < bytes / stride.
 * The groups of `group` bytes come in shuffled order and every element of
 * a group, in shuffled order, before the next group.  group == stride is a
 * plain shuffled cycle.  stride >= 8 divides group, group divides bytes,
 * group / stride <= MP_REF_MAX_GROUP.  Returns the element a chase starts
 * from.
 */
void *mp_ref_grouped(uint8_t *base, uint64_t bytes, uint64_t stride, uint64_t group,
		     struct mp_rng *g);

/*
 * The offsets of a cycle linked in place, in its order from `start`, into
 * offs (at most max; returns how many the cycle has, 0 when it has more).
 * A generator that threads its cycle through the memory itself
 * (mp_ref_grouped) gives a code chain its layout this way.
 */
uint64_t mp_ref_walk(const uint8_t *base, const void *start, uint64_t *offs, uint64_t max);

#endif
