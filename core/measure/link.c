/* SPDX-License-Identifier: MIT */
#include "core/measure/link.h"

/* The offsets of the code string being linked. */
static uint64_t blocks[MP_LINK_MAX_BLOCKS];

struct mp_linker mp_linker_code(struct mp_platform *p, uint64_t block)
{
	return (struct mp_linker){ p, MP_OP_CODE, block ? block : p->code_block_min, false };
}

struct mp_linker mp_linker_serial(struct mp_platform *p)
{
	return (struct mp_linker){ p, MP_OP_CODE, p->code_serial_min, true };
}

uint64_t mp_link_elem(const struct mp_linker *k)
{
	uint64_t e = sizeof(uint64_t);

	while (k->op == MP_OP_CODE && e < k->block)
		e *= 2;
	return e;
}

enum mp_status mp_link(const struct mp_linker *k, uint8_t *base, uint64_t bytes,
		       const uint64_t *offs, uint64_t n, void **start)
{
	struct mp_mem m = { .base = base, .bytes = bytes };

	if (k->op == MP_OP_CHASE) {
		for (uint64_t i = 0; i < n; i++)
			if (offs[i] > bytes || bytes - offs[i] < sizeof(uint64_t))
				return MP_EIO;
		*start = mp_ref_chain(base, offs, n);
		return MP_OK;
	}
	return k->p->ops->code_build(k->p, &m, &(struct mp_code){ offs, n, k->block, k->serial },
				     start);
}

/* One generator, put into a sink: the string's shape and the generator's own arguments. */
struct gen {
	void (*put)(struct mp_ref_out *o, const struct gen *a, struct mp_rng *g);
	uint64_t bytes, row, line;
	const struct mp_ref_pages *pages;
};

/* Data: linked in place.  Code: listed, then built. */
static enum mp_status link_gen(const struct mp_linker *k, const struct mp_mem *m,
			       const struct gen *a, struct mp_rng *g, void **start)
{
	struct mp_ref_out o;

	if (k->op == MP_OP_CHASE) {
		o = mp_ref_linked(m->base);
		a->put(&o, a, g);
		*start = mp_ref_close(&o);
		return *start ? MP_OK : MP_EIO;
	}
	o = mp_ref_listed(blocks, MP_LINK_MAX_BLOCKS);
	a->put(&o, a, g);
	if (!o.n || o.n > MP_LINK_MAX_BLOCKS)
		return MP_ENOMEM;
	return mp_link(k, m->base, m->bytes, blocks, o.n, start);
}

static void put_ck(struct mp_ref_out *o, const struct gen *a, struct mp_rng *g)
{
	mp_ref_ck_put(o, a->bytes, a->row, a->line, g);
}

static void put_pages(struct mp_ref_out *o, const struct gen *a, struct mp_rng *g)
{
	mp_ref_pages_put(o, a->pages, g);
}

enum mp_status mp_link_ck(const struct mp_linker *k, const struct mp_mem *m, uint64_t bytes,
			  uint64_t row, uint64_t line, struct mp_rng *g, void **start)
{
	struct gen a = { .put = put_ck, .bytes = bytes, .row = row, .line = line };

	return link_gen(k, m, &a, g, start);
}

enum mp_status mp_link_pages(const struct mp_linker *k, const struct mp_mem *m,
			     const struct mp_ref_pages *s, struct mp_rng *g, void **start)
{
	struct gen a = { .put = put_pages, .pages = s };

	return link_gen(k, m, &a, g, start);
}

/*
 * The grouped string threads Sattolo's cycle of its groups through the
 * memory itself: for code it is built there as data first, then walked for
 * its order, then overwritten by the blocks.
 */
enum mp_status mp_link_grouped(const struct mp_linker *k, const struct mp_mem *m,
			       uint64_t bytes, uint64_t stride, uint64_t group, struct mp_rng *g,
			       void **start)
{
	uint64_t n;

	*start = mp_ref_grouped(m->base, bytes, stride, group, g);
	if (k->op == MP_OP_CHASE)
		return MP_OK;
	n = mp_ref_walk(m->base, *start, blocks, MP_LINK_MAX_BLOCKS);
	return n ? mp_link(k, m->base, m->bytes, blocks, n, start) : MP_ENOMEM;
}
