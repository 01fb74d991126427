/* SPDX-License-Identifier: MIT */
/* The documented sources: adding them and their records, names (core/results/audit.h). */
#include "core/lib/bits.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/results/audit.h"

static void source_init(struct mp_source *s, const char *name)
{
	mp_memset(s, 0, sizeof(*s));
	mp_strlcpy(s->name, name ? name : "", sizeof(s->name));
	s->status = MP_SOURCE_OK;
	s->logical_cpus = s->cores = s->threads_per_core = MP_NA;
}

struct mp_source *mp_audit_add_source(struct mp_result *r, const char *name)
{
	struct mp_audit *a = &r->audit;
	char note[MP_NOTE_LEN];

	if (a->nsources < 0 || a->nsources >= MP_MAX_SOURCES) {
		mp_snprintf(note, sizeof(note), "audit: source %s left out: more than %d sources",
			    name ? name : "?", MP_MAX_SOURCES);
		mp_result_add_note(r, note);
		return NULL;
	}
	source_init(&a->sources[a->nsources], name);
	return &a->sources[a->nsources++];
}

void mp_audit_source_missing(struct mp_result *r, const char *name, enum mp_source_status st,
			     const char *why)
{
	struct mp_source *s = mp_audit_add_source(r, name);

	if (!s)
		return;
	s->status = st;
	mp_strlcpy(s->message, why ? why : "", sizeof(s->message));
}

struct mp_doc_cache *mp_source_add_cache(struct mp_source *s)
{
	struct mp_doc_cache *c;

	if (s->ncaches < 0 || s->ncaches >= MP_MAX_CACHES)
		return NULL;
	c = &s->caches[s->ncaches++];
	*c = (struct mp_doc_cache){
		.level = MP_NA, .type = MP_KIND_UNKNOWN, .size_bytes = MP_NA,
		.scope = MP_SCOPE_ONE, .line_bytes = MP_NA, .ways = MP_NA, .shared_by = MP_NA,
		.inclusion = MP_INCL_UNKNOWN, .write_allocate = MP_UNKNOWN,
	};
	return c;
}

struct mp_tlb *mp_source_add_tlb(struct mp_source *s)
{
	struct mp_tlb *t;

	if (s->ntlbs < 0 || s->ntlbs >= MP_MAX_TLBS)
		return NULL;
	t = &s->tlbs[s->ntlbs++];
	mp_tlb_init(t);
	t->method = MP_METHOD_DOCUMENTED;
	return t;
}

void mp_doc_cache_from(struct mp_doc_cache *d, const struct mp_cache *c)
{
	*d = (struct mp_doc_cache){
		.level = c->level, .type = c->type, .size_bytes = c->size_bytes,
		.scope = MP_SCOPE_ONE, .line_bytes = c->line_bytes, .ways = c->ways,
		.shared_by = c->shared_by, .inclusion = c->inclusion,
		.write_allocate = c->write_allocate,
	};
}

struct mp_source *mp_audit_add_documented(struct mp_result *r, const char *name,
					  const struct mp_documented *d)
{
	struct mp_source *s = mp_audit_add_source(r, name);

	for (int32_t i = 0; s && i < mp_count(d->ncaches, MP_MAX_CACHES); i++)
		mp_doc_cache_from(mp_source_add_cache(s), &d->caches[i]);
	for (int32_t i = 0; s && i < mp_count(d->ntlbs, MP_MAX_TLBS); i++)
		*mp_source_add_tlb(s) = d->tlbs[i];
	return s;
}

const char *mp_source_status_name(enum mp_source_status s)
{
	static const char *const names[] = {
		[MP_SOURCE_OK] = "ok",
		[MP_SOURCE_ABSENT] = "absent",
		[MP_SOURCE_UNREADABLE] = "unreadable",
		[MP_SOURCE_INVALID] = "invalid",
	};

	return (unsigned)s < MP_COUNT_OF(names) ? names[s] : NULL;
}

const char *mp_scope_name(enum mp_scope s)
{
	static const char *const names[] = { [MP_SCOPE_ONE] = "one", [MP_SCOPE_PACKAGE] = "package" };

	return (unsigned)s < MP_COUNT_OF(names) ? names[s] : NULL;
}
