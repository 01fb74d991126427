/* SPDX-License-Identifier: MIT */
/*
 * The parameters of a cache or TLB record (enum mp_param): where each lives
 * in struct mp_cache and struct mp_tlb, how it is named and written, and
 * the tables of voted values that hold them (counted[], voted[]).
 */
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/results/result.h"

/* Where each parameter lives in a cache or TLB record; -1: not there. */
struct slot {
	const char *name;
	int cache_off;
	int tlb_off;
	bool wide;       /* int64_t; otherwise an enum */
	bool size;       /* printed as a size */
	bool compared;   /* both methods measure it: in the timing-against-counters table */
};

#define C_OFF(f) ((int)__builtin_offsetof(struct mp_cache, f))
#define T_OFF(f) ((int)__builtin_offsetof(struct mp_tlb, f))

static const struct slot slots[MP_PARAM_COUNT] = {
	[MP_PARAM_SIZE] = { "size", C_OFF(size_bytes), -1, true, true, true },
	[MP_PARAM_LINE] = { "line", C_OFF(line_bytes), -1, true, false, true },
	[MP_PARAM_WAYS] = { "ways", C_OFF(ways), T_OFF(ways), true, false, true },
	[MP_PARAM_WRITE_ALLOCATE] = { "write allocate", C_OFF(write_allocate), -1, false, false,
				      true },
	[MP_PARAM_REPLACEMENT] = { "replacement", C_OFF(replacement), -1, false, false, true },
	[MP_PARAM_ENTRIES] = { "entries", -1, T_OFF(entries), true, false, true },
	[MP_PARAM_PAGE] = { "page", -1, T_OFF(page_bytes), true, true, true },
	[MP_PARAM_EFFECTIVE_SIZE] = { "effective size", C_OFF(effective_size_bytes), -1, true,
				      true, false },
	[MP_PARAM_INCLUSION] = { "inclusion", C_OFF(inclusion), -1, false, false, false },
};

static bool known(enum mp_param p)
{
	return p >= 0 && p < MP_PARAM_COUNT;
}

const char *mp_param_name(enum mp_param p)
{
	return known(p) ? slots[p].name : NULL;
}

bool mp_param_is_size(enum mp_param p)
{
	return known(p) && slots[p].size;
}

static int offset_of(const struct mp_structure *s, enum mp_param p)
{
	return !known(p) ? -1 : s->tlb ? slots[p].tlb_off : slots[p].cache_off;
}

bool mp_param_applies(const struct mp_structure *s, enum mp_param p)
{
	return offset_of(s, p) >= 0;
}

bool mp_param_compared(const struct mp_structure *s, enum mp_param p)
{
	return mp_param_applies(s, p) && slots[p].compared;
}

int64_t mp_param_get(const void *rec, const struct mp_structure *s, enum mp_param p)
{
	const char *at = (const char *)rec + offset_of(s, p);

	if (!rec || offset_of(s, p) < 0)
		return MP_NA;
	return slots[p].wide ? *(const int64_t *)(const void *)at : *(const int *)(const void *)at;
}

void mp_param_set(void *rec, const struct mp_structure *s, enum mp_param p, int64_t v)
{
	char *at = (char *)rec + offset_of(s, p);

	if (offset_of(s, p) < 0)
		return;
	if (slots[p].wide)
		*(int64_t *)(void *)at = v;
	else
		*(int *)(void *)at = (int)v;
}

const char *mp_param_value_name(enum mp_param p, int64_t v)
{
	if (v == MP_NA)
		return NULL;
	if (p == MP_PARAM_WRITE_ALLOCATE)
		return v ? "yes" : "no";
	if (p == MP_PARAM_REPLACEMENT)
		return mp_replacement_name((enum mp_replacement)v);
	if (p == MP_PARAM_INCLUSION)
		return mp_inclusion_name((enum mp_inclusion)v);
	return NULL;
}

bool mp_param_is_named(enum mp_param p)
{
	return p == MP_PARAM_WRITE_ALLOCATE || p == MP_PARAM_REPLACEMENT || p == MP_PARAM_INCLUSION;
}

void mp_param_put(struct mp_buf *b, enum mp_param p, int64_t v)
{
	const char *name = mp_param_value_name(p, v);

	if (v == MP_NA)
		mp_buf_puts(b, "-");
	else if (mp_param_is_named(p))
		mp_buf_puts(b, name ? name : "?");
	else if (mp_param_is_size(p))
		mp_buf_size(b, (uint64_t)v);
	else
		mp_buf_i64(b, v);
}

bool mp_same_structure(const struct mp_structure *a, const struct mp_structure *b)
{
	return a->level == b->level && a->type == b->type && a->tlb == b->tlb &&
	       (!a->tlb || a->page_bytes == b->page_bytes);
}

void mp_structure_label(char *out, size_t n, const struct mp_structure *s)
{
	const char *kind = mp_kind_name(s->type);
	struct mp_buf b;

	mp_buf_init(&b, out, n);
	mp_buf_printf(&b, "L%d %s", (int)s->level, kind ? kind : "?");
	if (s->tlb) {
		mp_buf_puts(&b, " TLB ");
		if (s->page_bytes > 0)
			mp_buf_size(&b, (uint64_t)s->page_bytes);
		else
			mp_buf_putc(&b, '?');
	}
}

void mp_param_label(char *out, size_t n, const struct mp_structure *s, enum mp_param param)
{
	size_t len;

	mp_structure_label(out, n, s);
	len = mp_strlen(out);
	mp_snprintf(out + len, n - len, " %s", mp_param_name(param) ? mp_param_name(param) : "?");
}

/* ---- the tables of voted values ---- */

static struct mp_vote *vote_init(struct mp_vote *v, const char *probe,
				 const struct mp_structure *s, enum mp_param param)
{
	*v = (struct mp_vote){ .s = *s, .param = param, .value = MP_NA, .runner_up = MP_NA,
			       .stable = MP_UNKNOWN };
	mp_strlcpy(v->probe, probe, sizeof(v->probe));
	return v;
}

struct mp_vote *mp_result_add_counted(struct mp_result *r, const char *probe,
				      const struct mp_structure *s, enum mp_param param)
{
	if (r->ncounted < 0 || r->ncounted >= MP_MAX_COUNTED)
		return NULL;
	return vote_init(&r->counted[r->ncounted++], probe, s, param);
}

const struct mp_vote *mp_result_find_voted(const struct mp_result *r,
					   const struct mp_structure *s, enum mp_param param)
{
	for (int32_t i = 0; i < mp_count(r->nvoted, MP_MAX_VOTED); i++)
		if (r->voted[i].param == param && mp_same_structure(&r->voted[i].s, s))
			return &r->voted[i];
	return NULL;
}

struct mp_vote *mp_result_vote(struct mp_result *r, const char *probe,
			       const struct mp_structure *s, enum mp_param param)
{
	const struct mp_vote *had = mp_result_find_voted(r, s, param);

	if (had)
		return vote_init(&r->voted[had - r->voted], probe, s, param);
	if (r->nvoted < 0 || r->nvoted >= MP_MAX_VOTED)
		return NULL;
	return vote_init(&r->voted[r->nvoted++], probe, s, param);
}

bool mp_result_unstable(const struct mp_result *r, const struct mp_structure *s,
			enum mp_param param)
{
	const struct mp_vote *v = mp_result_find_voted(r, s, param);

	return v && v->stable == MP_NO;
}
