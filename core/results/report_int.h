/* SPDX-License-Identifier: MIT */
/*
 * Internal to the report writers (core/results/report*.c): the aligned
 * table of report.c for the other sections, and those sections.
 */
#ifndef MEMPROBE_CORE_RESULTS_REPORT_INT_H
#define MEMPROBE_CORE_RESULTS_REPORT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "core/lib/buf.h"
#include "core/results/result.h"

/* Columns of a report table; the bytes of a cell: a probe's message at most. */
#define MP_REPORT_COLS 12
#define MP_REPORT_CELL MP_MESSAGE_LEN

/* Fill the cells of row i (all empty on entry). */
typedef void (*mp_report_row_fn)(const struct mp_result *r, int32_t i,
				 char cells[MP_REPORT_COLS][MP_REPORT_CELL]);

/* A table with these column titles (NULL-terminated), aligned; "(none)" without rows. */
void mp_report_table(struct mp_buf *b, const char *const *head, int32_t nrows,
		     mp_report_row_fn row, const struct mp_result *r);

/* The audit: every disagreement in one line each, at the top of the report. */
void mp_write_report_audit(struct mp_buf *b, const struct mp_result *r);

/* The sources, each record with its source's name, and the verdicts. */
void mp_write_report_sources(struct mp_buf *b, const struct mp_result *r);

/* "32M (cpuid 0x8000001d, linux sysfs), 320M (cpuid 0x80000006)": the values, grouped. */
void mp_verdict_groups(struct mp_buf *b, const struct mp_result *r, const struct mp_verdict *v);

/* The same and "; measured 32M". */
void mp_verdict_describe(struct mp_buf *b, const struct mp_result *r, const struct mp_verdict *v);

/* The topology, the core types and their sharing, the core-to-core matrix (report_cores.c). */
void mp_write_report_cores(struct mp_buf *b, const struct mp_result *r);

/* "0-7,16-23": a list of logical CPUs with runs as ranges, "..." when cut short. */
void mp_cpu_list(char *out, size_t n, const uint16_t *cpus, int32_t count);

#endif
