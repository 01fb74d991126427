/* SPDX-License-Identifier: MIT */
/*
 * The audit: what every documented source says (result.audit.sources[],
 * each kept apart with its name) and the verdicts that compare each fact of
 * each cache, TLB and the package across the sources and with the
 * measurement (result.audit.verdicts[]).  The programs add the sources
 * before the suite runs (docs/design.md, "Documented sources"); the suite
 * judges again before it writes the result files.  docs/results.md gives
 * the rules.
 */
#ifndef MEMPROBE_CORE_RESULTS_AUDIT_H
#define MEMPROBE_CORE_RESULTS_AUDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/results/result.h"

/*
 * Add a source named `name` with status ok and nothing documented yet; NULL
 * when the table is full (a note says so).
 */
struct mp_source *mp_audit_add_source(struct mp_result *r, const char *name);

/* A source that could not be used: its status (not ok) and why, one line. */
void mp_audit_source_missing(struct mp_result *r, const char *name, enum mp_source_status st,
			     const char *why);

/* Append a record, set to "not documented"; NULL when the source's table is full. */
struct mp_doc_cache *mp_source_add_cache(struct mp_source *s);
struct mp_tlb *mp_source_add_tlb(struct mp_source *s);

/* The documented cache `c` of the merged list as one source's record (scope one). */
void mp_doc_cache_from(struct mp_doc_cache *d, const struct mp_cache *c);

/* A source named `name` holding the records of d (scope one); NULL when the table is full. */
struct mp_source *mp_audit_add_documented(struct mp_result *r, const char *name,
					  const struct mp_documented *d);

/* Fill result.audit.verdicts from the sources and the measured caches and TLBs. */
void mp_audit_judge(struct mp_result *r);

/* Does the verdict find a disagreement (among the sources, or with the measurement)? */
bool mp_verdict_disagrees(const struct mp_verdict *v);

/* How many verdicts find a disagreement. */
int32_t mp_audit_disagreements(const struct mp_result *r);

/* "L2 unified size", "L1 data TLB 4K entries", "package cores". */
void mp_verdict_label(char *out, size_t n, const struct mp_verdict *v);

/* A fact's value as text: a size (32K), a count, yes/no, an inclusion name, or "-". */
void mp_fact_value(char *out, size_t n, enum mp_fact f, int64_t v);

/* Is the fact's value a boolean (write allocate) or a name (inclusion) in JSON? */
bool mp_fact_is_bool(enum mp_fact f);
bool mp_fact_is_name(enum mp_fact f);

/* Names for the writers; NULL out of range. */
const char *mp_source_status_name(enum mp_source_status s);
const char *mp_scope_name(enum mp_scope s);

#endif
