/* SPDX-License-Identifier: MIT */
/*
 * Result writers: the JSON of docs/results.md, the human report, the CSV
 * of the response curves and the HTML report (its plots: plot.h).  Each appends to a buffer; check
 * b->overflow afterwards.
 */
#ifndef MEMPROBE_CORE_RESULTS_WRITERS_H
#define MEMPROBE_CORE_RESULTS_WRITERS_H

#include "core/lib/buf.h"
#include "core/results/result.h"

void mp_write_json(struct mp_buf *b, const struct mp_result *r);
void mp_write_report(struct mp_buf *b, const struct mp_result *r);
void mp_write_csv(struct mp_buf *b, const struct mp_result *r);
/* report.html: the machine, the audit, the plots inline, the probes, the tables (html.c). */
void mp_write_html(struct mp_buf *b, const struct mp_result *r);

#endif
