/* SPDX-License-Identifier: MIT */
/*
 * A reference string made runnable.  core/seq/ generates every string; a
 * linker makes it run on one side of the processor: data (MP_OP_CHASE), a
 * pointer cycle built in place, chased by loads; code (MP_OP_CODE), a chain
 * of code blocks the platform's code_build makes at the string's offsets,
 * run by fetches.  Every string is built through a linker, so compact sets,
 * the footprint sweep, the TLB test and AMP's experiments run unchanged on
 * either side.  docs/algorithms.md, "Code chains".
 */
#ifndef MEMPROBE_CORE_MEASURE_LINK_H
#define MEMPROBE_CORE_MEASURE_LINK_H

#include "core/platform.h"
#include "core/seq/refstring.h"

struct mp_linker {
	struct mp_platform *p;
	enum mp_op op;           /* MP_OP_CHASE or MP_OP_CODE */
	uint64_t block;          /* MP_OP_CODE: bytes of every block */
	bool serial;             /* MP_OP_CODE: a serial chain (struct mp_code) */
};

/* Blocks a code string may have (its offsets are kept in a static table). */
#define MP_LINK_MAX_BLOCKS (1u << 18)

static inline struct mp_linker mp_linker_data(struct mp_platform *p)
{
	return (struct mp_linker){ p, MP_OP_CHASE, 0, false };
}

/* Code blocks of `block` bytes; 0: the platform's shortest. */
struct mp_linker mp_linker_code(struct mp_platform *p, uint64_t block);
/* A serial chain of the platform's shortest serial blocks: every fetch costs its latency. */
struct mp_linker mp_linker_serial(struct mp_platform *p);

/*
 * The least distance between two elements that never overlap, a power of
 * two: a chase's 8-byte word, or a code block rounded up.  Strings that put
 * several elements in a line step by it (an X-Ray block offset, a TLB twin).
 */
uint64_t mp_link_elem(const struct mp_linker *k);

/*
 * The elements at base + offs[i] linked in that order; *start is element
 * 0.  [base, base + bytes) is the memory they lie in.  MP_EIO when an
 * element (a word, a code block) does not fit it.
 */
enum mp_status mp_link(const struct mp_linker *k, uint8_t *base, uint64_t bytes,
		       const uint64_t *offs, uint64_t n, void **start);

/* The generators of core/seq/refstring.h, linked; MP_ENOMEM: more code blocks than the table. */
enum mp_status mp_link_ck(const struct mp_linker *k, const struct mp_mem *m, uint64_t bytes,
			  uint64_t row, uint64_t line, struct mp_rng *g, void **start);
enum mp_status mp_link_pages(const struct mp_linker *k, const struct mp_mem *m,
			     const struct mp_ref_pages *s, struct mp_rng *g, void **start);
enum mp_status mp_link_grouped(const struct mp_linker *k, const struct mp_mem *m,
			       uint64_t bytes, uint64_t stride, uint64_t group, struct mp_rng *g,
			       void **start);

#endif
