/* SPDX-License-Identifier: MIT */
/*
 * The decoders' collector: records in, merged, ordered and cut to the
 * result's tables out, with the `source` string naming the leaves used.
 */
#include "arch/x86_64/cpuid_int.h"
#include "core/lib/bits.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"


/* Leaf names for `source`, in enum mp_cpuid_src bit order. */
static const char *const src_names[] = {
	"4", "0x8000001d", "2", "0x18", "0x80000005", "0x80000006", "0x80000019",
};

void mp_cl_cache(struct mp_cpuid_list *l, uint32_t src, struct mp_cache_rec r)
{
	struct mp_cache *c;

	if (l->only && !(l->only & src))
		return;
	if (l->ncaches >= MP_CL_CACHES) {
		l->dropped++;
		return;
	}
	c = &l->caches[l->ncaches++];
	mp_cache_init(c);
	c->level = r.level;
	c->type = r.kind;
	c->size_bytes = r.size;
	c->line_bytes = r.line;
	c->ways = r.ways;
	c->inclusion = r.inclusion;
	c->shared_by = r.shared_by;
	if (r.shared_by != MP_NA && l->package_cpus > 0 && r.shared_by > l->package_cpus)
		c->shared_by = l->package_cpus;
	c->method = MP_METHOD_DOCUMENTED;
	l->sources |= src;
}

static struct mp_tlb *find_tlb(struct mp_cpuid_list *l, const struct mp_tlb_rec *r)
{
	for (int32_t i = 0; i < l->ntlbs; i++) {
		struct mp_tlb *t = &l->tlbs[i];

		if (t->level == r->level && t->type == r->kind && t->page_bytes == r->page)
			return t;
	}
	return NULL;
}

/* Ways add up only when both structures have the same number of sets. */
static void merge_tlb(struct mp_tlb *t, const struct mp_tlb_rec *r, enum mp_tlb_merge m)
{
	bool same_sets = t->ways > 0 && r->ways > 0 && t->entries / t->ways == r->entries / r->ways;

	if (m == MP_MERGE_LARGER) {
		if (r->entries > t->entries) {
			t->entries = r->entries;
			t->ways = r->ways;
		}
		return;
	}
	t->ways = same_sets ? t->ways + r->ways : MP_NA;
	t->entries += r->entries;
}

void mp_cl_tlb(struct mp_cpuid_list *l, uint32_t src, struct mp_tlb_rec r, enum mp_tlb_merge m)
{
	struct mp_tlb *t;

	if (r.entries <= 0 || (l->only && !(l->only & src)))
		return;
	l->sources |= src;
	t = find_tlb(l, &r);
	if (t) {
		merge_tlb(t, &r, m);
		return;
	}
	if (l->ntlbs >= MP_CL_TLBS) {
		l->dropped++;
		return;
	}
	t = &l->tlbs[l->ntlbs++];
	mp_tlb_init(t);
	t->level = r.level;
	t->type = r.kind;
	t->page_bytes = r.page;
	t->entries = r.entries;
	t->ways = r.ways;
	t->method = MP_METHOD_DOCUMENTED;
}

static uint32_t kind_rank(enum mp_kind k)
{
	return k == MP_KIND_DATA ? 0 : k == MP_KIND_INSTRUCTION ? 1 : k == MP_KIND_UNIFIED ? 2 : 3;
}

static uint32_t page_rank(int64_t page)
{
	return page <= (int64_t)MP_PAGE_BYTES_4K ? 0 : page <= (int64_t)MP_PAGE_BYTES_2M ? 1 : 2;
}

/* Report order: by level, then data, instruction, unified. */
static uint32_t cache_show_key(const void *p)
{
	const struct mp_cache *c = p;

	return (uint32_t)c->level * 10 + kind_rank(c->type);
}

static uint32_t tlb_show_key(const void *p)
{
	const struct mp_tlb *t = p;

	return (uint32_t)t->level * 100 + kind_rank(t->type) * 10 + page_rank(t->page_bytes);
}

/*
 * Which TLBs stay when there are more than MP_MAX_TLBS: every data and
 * unified TLB first (the data probes measure them), then instruction TLBs
 * by page size, 4K before 2M before 1G.
 */
static uint32_t tlb_keep_key(const void *p)
{
	const struct mp_tlb *t = p;

	if (t->type == MP_KIND_INSTRUCTION)
		return 1000 + page_rank(t->page_bytes) * 10 + (uint32_t)t->level;
	return (uint32_t)t->level * 10 + page_rank(t->page_bytes);
}

/* Stable insertion sort of n records of `size` bytes by key. */
static void sort_by(void *base, size_t n, size_t size, uint32_t (*key)(const void *))
{
	unsigned char tmp[sizeof(struct mp_cache) > sizeof(struct mp_tlb) ? sizeof(struct mp_cache)
									: sizeof(struct mp_tlb)];
	unsigned char *a = base;

	for (size_t i = 1; i < n; i++) {
		size_t j = i;

		mp_memcpy(tmp, a + i * size, size);
		for (; j > 0 && key(a + (j - 1) * size) > key(tmp); j--)
			mp_memcpy(a + j * size, a + (j - 1) * size, size);
		mp_memcpy(a + j * size, tmp, size);
	}
}

static void write_source(const struct mp_cpuid_list *l, char *out, size_t n)
{
	struct mp_buf b;

	mp_buf_init(&b, out, n);
	for (size_t i = 0; i < MP_COUNT_OF(src_names); i++) {
		if (!(l->sources & (1u << i)))
			continue;
		mp_buf_puts(&b, b.len == 0 ? "cpuid " : ", ");
		mp_buf_puts(&b, src_names[i]);
	}
}

int32_t mp_cl_finish(struct mp_cpuid_list *l, struct mp_documented *d)
{
	int32_t nc = l->ncaches < MP_MAX_CACHES ? l->ncaches : MP_MAX_CACHES;
	int32_t nt = l->ntlbs < MP_MAX_TLBS ? l->ntlbs : MP_MAX_TLBS;

	sort_by(l->caches, (size_t)l->ncaches, sizeof(l->caches[0]), cache_show_key);
	sort_by(l->tlbs, (size_t)l->ntlbs, sizeof(l->tlbs[0]), tlb_keep_key);
	sort_by(l->tlbs, (size_t)nt, sizeof(l->tlbs[0]), tlb_show_key);
	d->ncaches = nc;
	d->ntlbs = nt;
	for (int32_t i = 0; i < MP_MAX_CACHES; i++) {
		if (i < nc)
			d->caches[i] = l->caches[i];
		else
			mp_cache_init(&d->caches[i]);
	}
	for (int32_t i = 0; i < MP_MAX_TLBS; i++) {
		if (i < nt)
			d->tlbs[i] = l->tlbs[i];
		else
			mp_tlb_init(&d->tlbs[i]);
	}
	write_source(l, d->source, sizeof(d->source));
	return l->dropped + (l->ncaches - nc) + (l->ntlbs - nt);
}
