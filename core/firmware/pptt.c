/* SPDX-License-Identifier: MIT */
/*
 * The Processor Properties Topology Table (ACPI Specification 6.6, section
 * 5.2.31): a tree of processor hierarchy nodes (type 0, 5.2.31.1), each
 * with a parent and a list of private resources, and cache type structures
 * (type 1, 5.2.31.2), each pointing to the next level of cache.  References
 * are byte offsets from the start of the table.
 *
 * Levels are not written in the table: a leaf processor's private caches
 * are level 1, and each "next level of cache" one more; a node above it
 * starts its caches one level below the deepest found under it (the
 * specification's examples, and how operating systems read it).  A cache
 * held by a node is shared by every leaf processor under that node.
 *
 * What firmware gets wrong is checked, never trusted: a reference outside
 * the table or to the wrong structure type ends that walk, parent and
 * next-level chains are bounded (a loop would not end otherwise), a field
 * is used only when its flag says it is valid, and every size that is not
 * sets x ways x line is named in the source's message.
 */
#include "core/firmware/bytes.h"
#include "core/firmware/firmware.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/results/audit.h"

#define HEADER_LEN 36                /* the System Description Table Header (5.2.6) */
#define REVISION 8

#define NODE 0
#define NODE_MIN_LEN 20
#define NODE_FLAGS 4
#define NODE_PARENT 8
#define NODE_NRES 16
#define NODE_RES 20
#define NODE_PACKAGE (1u << 0)       /* Physical package */
#define NODE_THREAD (1u << 2)        /* Processor is a thread (revision 2+) */

#define CACHE 1
#define CACHE_MIN_LEN 24
#define CACHE_FLAGS 4
#define CACHE_NEXT 8
#define CACHE_SIZE 12
#define CACHE_SETS 16
#define CACHE_ASSOC 20
#define CACHE_ATTR 21
#define CACHE_LINE 22
/* Flags: which fields are valid. */
#define VALID_SIZE (1u << 0)
#define VALID_SETS (1u << 1)
#define VALID_ASSOC (1u << 2)
#define VALID_ALLOC (1u << 3)
#define VALID_TYPE (1u << 4)
#define VALID_LINE (1u << 6)
/* Attributes: [1:0] allocation (0 read, 1 write, 2 or 3 both), [3:2] type (0 data,
 * 1 instruction, 2 or 3 unified). */
#define ATTR_ALLOC(a) ((a) & 3u)
#define ATTR_TYPE(a) (((a) >> 2) & 3u)

/* Longest parent or next-level chain followed: deeper than any real hierarchy. */
#define MAX_DEPTH 16

struct pptt {
	const uint8_t *t;
	uint32_t len;
	struct mp_source *src;
	uint32_t seen[MP_MAX_CACHES]; /* caches recorded, by offset */
	int nseen;
};

/* The structure of `type` at offset `off`, at least `min` long and inside the table; else NULL. */
static const uint8_t *structure(const struct pptt *p, uint32_t off, uint8_t type, uint32_t min)
{
	const uint8_t *s;

	if (off < HEADER_LEN || off + 2 > p->len)
		return NULL;
	s = p->t + off;
	if (s[0] != type || s[1] < min || off + s[1] > p->len)
		return NULL;
	return s;
}

static const uint8_t *node_at(const struct pptt *p, uint32_t off)
{
	const uint8_t *n = structure(p, off, NODE, NODE_MIN_LEN);

	return n && NODE_RES + 4 * (uint64_t)mp_le32(n, NODE_NRES) <= n[1] ? n : NULL;
}

/* Each structure in table order: its offset, 0 at the end. */
static uint32_t next_structure(const struct pptt *p, uint32_t off)
{
	uint32_t here = off ? off + p->t[off + 1] : HEADER_LEN;

	return here + 2 <= p->len && p->t[here + 1] >= 2 && here + p->t[here + 1] <= p->len ? here : 0;
}

static bool has_child(const struct pptt *p, uint32_t node)
{
	for (uint32_t off = next_structure(p, 0); off; off = next_structure(p, off))
		if (node_at(p, off) && mp_le32(p->t + off, NODE_PARENT) == node)
			return true;
	return false;
}

/* Is `off` below `ancestor` (or the node itself)? */
static bool under(const struct pptt *p, uint32_t off, uint32_t ancestor)
{
	for (int d = 0; d < MAX_DEPTH && node_at(p, off); d++) {
		if (off == ancestor)
			return true;
		off = mp_le32(p->t + off, NODE_PARENT);
	}
	return false;
}

static uint32_t first_leaf(const struct pptt *p)
{
	for (uint32_t off = next_structure(p, 0); off; off = next_structure(p, off))
		if (node_at(p, off) && !has_child(p, off))
			return off;
	return 0;
}

static bool is_thread(const struct pptt *p, uint32_t off)
{
	return (mp_le32(p->t + off, NODE_FLAGS) & NODE_THREAD) != 0;
}

static bool has_thread_child(const struct pptt *p, uint32_t node)
{
	for (uint32_t off = next_structure(p, 0); off; off = next_structure(p, off))
		if (node_at(p, off) && mp_le32(p->t + off, NODE_PARENT) == node &&
		    is_thread(p, off))
			return true;
	return false;
}

/*
 * Leaf processors under `node`, or with `cores` its cores: a leaf that is
 * not a thread, or a node whose children are threads (revision 2 flags).
 */
static int32_t count_under(const struct pptt *p, uint32_t node, bool cores)
{
	int32_t n = 0;

	for (uint32_t off = next_structure(p, 0); off; off = next_structure(p, off)) {
		bool leaf;

		if (!node_at(p, off) || !under(p, off, node))
			continue;
		leaf = !has_child(p, off);
		if (!cores)
			n += leaf;
		else
			n += leaf ? !is_thread(p, off) : has_thread_child(p, off);
	}
	return n;
}

/* ---- caches ---- */

static const enum mp_kind kinds[] = {
	MP_KIND_DATA, MP_KIND_INSTRUCTION, MP_KIND_UNIFIED, MP_KIND_UNIFIED,
};

static int64_t valid(uint32_t flags, uint32_t bit, int64_t v)
{
	return (flags & bit) && v > 0 ? v : MP_NA;
}

static void check_geometry(struct pptt *p, const struct mp_doc_cache *c, int64_t sets)
{
	char label[MP_TEXT_LEN];
	struct mp_buf b;

	size_t used = mp_strlen(p->src->message);

	if (c->size_bytes == MP_NA || sets == MP_NA || c->ways == MP_NA ||
	    c->line_bytes == MP_NA || c->size_bytes == sets * c->ways * c->line_bytes)
		return;
	mp_snprintf(label, sizeof(label), "L%d %s", (int)c->level,
		    mp_kind_name(c->type) ? mp_kind_name(c->type) : "?");
	mp_buf_init(&b, p->src->message + used, sizeof(p->src->message) - used);
	mp_buf_printf(&b, "%s%s: size ", used ? "; " : "", label);
	mp_buf_size(&b, (uint64_t)c->size_bytes);
	mp_buf_printf(&b, " is not %lld sets x %lld ways x %lld B", (long long)sets,
		      (long long)c->ways, (long long)c->line_bytes);
}

static bool seen(struct pptt *p, uint32_t off)
{
	for (int i = 0; i < p->nseen; i++)
		if (p->seen[i] == off)
			return true;
	if (p->nseen < MP_MAX_CACHES)
		p->seen[p->nseen++] = off;
	return false;
}

static void record(struct pptt *p, const uint8_t *s, int32_t level, int32_t sharing)
{
	uint32_t flags = mp_le32(s, CACHE_FLAGS), attr = s[CACHE_ATTR];
	struct mp_doc_cache *c = mp_source_add_cache(p->src);
	int64_t sets = valid(flags, VALID_SETS, mp_le32(s, CACHE_SETS));

	if (!c)
		return;
	c->level = level;
	c->type = flags & VALID_TYPE ? kinds[ATTR_TYPE(attr)] : MP_KIND_UNKNOWN;
	c->size_bytes = valid(flags, VALID_SIZE, mp_le32(s, CACHE_SIZE));
	c->line_bytes = valid(flags, VALID_LINE, mp_le16(s, CACHE_LINE));
	c->ways = valid(flags, VALID_ASSOC, s[CACHE_ASSOC]);
	c->shared_by = sharing > 0 ? sharing : MP_NA;
	if (flags & VALID_ALLOC)
		c->write_allocate = ATTR_ALLOC(attr) != 0 ? MP_YES : MP_NO;
	check_geometry(p, c, sets);
}

/* A chain of caches from `off`, levels from `level` on; returns the last level. */
static int32_t walk_caches(struct pptt *p, uint32_t off, int32_t level, int32_t sharing)
{
	const uint8_t *s;

	for (int d = 0; d < MAX_DEPTH && (s = structure(p, off, CACHE, CACHE_MIN_LEN)); d++) {
		level++;
		if (!seen(p, off))
			record(p, s, level, sharing);
		off = mp_le32(s, CACHE_NEXT);
	}
	return level;
}

/* The caches a node holds, from `level` on; returns the deepest level reached. */
static int32_t node_caches(struct pptt *p, uint32_t node, int32_t level)
{
	const uint8_t *n = node_at(p, node);
	int32_t sharing = count_under(p, node, false), deepest = level;

	for (uint32_t i = 0; i < mp_le32(n, NODE_NRES); i++) {
		int32_t last = walk_caches(p, mp_le32(n, NODE_RES + 4 * (size_t)i), level, sharing);

		deepest = last > deepest ? last : deepest;
	}
	return deepest;
}

/* Up from the first leaf: its caches, then each ancestor's; returns the package node. */
static uint32_t walk_up(struct pptt *p, uint32_t leaf)
{
	uint32_t node = leaf, package = leaf;
	int32_t level = 0;

	for (int d = 0; d < MAX_DEPTH && node_at(p, node); d++) {
		level = node_caches(p, node, level);
		package = node;
		if (mp_le32(p->t + node, NODE_FLAGS) & NODE_PACKAGE)
			break;
		node = mp_le32(p->t + node, NODE_PARENT);
	}
	return package;
}

static void package_counts(struct pptt *p, uint32_t package)
{
	int32_t logical = count_under(p, package, false);
	int32_t cores = p->t[REVISION] >= 2 ? count_under(p, package, true) : MP_NA;

	p->src->logical_cpus = logical > 0 ? logical : MP_NA;
	p->src->cores = cores > 0 ? cores : MP_NA;
	if (logical > 0 && cores > 0 && logical % cores == 0)
		p->src->threads_per_core = logical / cores;
}

static bool header_ok(const uint8_t *t, size_t len)
{
	return len >= HEADER_LEN && mp_strncmp((const char *)t, "PPTT", 4) == 0 &&
	       mp_le32(t, 4) <= len && mp_le32(t, 4) >= HEADER_LEN;
}

void mp_pptt_source(struct mp_result *r, const uint8_t *table, size_t len)
{
	struct mp_source *src = mp_audit_add_source(r, MP_SOURCE_PPTT);
	struct pptt p = { .t = table, .src = src };
	uint32_t leaf;

	if (!src)
		return;
	if (!header_ok(table, len)) {
		src->status = MP_SOURCE_INVALID;
		mp_strlcpy(src->message, "not a PPTT, or shorter than its header says",
			   sizeof(src->message));
		return;
	}
	p.len = mp_le32(table, 4);
	leaf = first_leaf(&p);
	if (leaf == 0) {
		src->status = MP_SOURCE_INVALID;
		mp_strlcpy(src->message, "no processor node", sizeof(src->message));
		return;
	}
	package_counts(&p, walk_up(&p, leaf));
	if (src->ncaches == 0 && !src->message[0])
		mp_strlcpy(src->message, "processor nodes only, no cache structure",
			   sizeof(src->message));
}
