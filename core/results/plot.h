/* SPDX-License-Identifier: MIT */
/*
 * Pictures of the results: each response curve as an SVG plot (svg.c), with
 * the level boundaries measured and the sizes documented marked on it (the
 * caches on a curve over bytes, the TLBs on one over pages), and the HTML
 * report that holds them inline (html.c, writers.h).  SVG and HTML are text:
 * core/ writes them like the other result files.  docs/results.md,
 * "report.html and the plots".
 */
#ifndef MEMPROBE_CORE_RESULTS_PLOT_H
#define MEMPROBE_CORE_RESULTS_PLOT_H

#include <stddef.h>
#include <stdint.h>

#include "core/lib/buf.h"
#include "core/results/result.h"

/* The plot of curve i as a file of its own (an XML declaration, then the <svg> element). */
void mp_write_svg(struct mp_buf *b, const struct mp_result *r, int32_t i);

/* The same <svg> element alone, to be placed inside HTML. */
void mp_svg_element(struct mp_buf *b, const struct mp_result *r, int32_t i);

/* The plot's file name: "plot-01-latency.svg" (letters, digits and '-' only). */
void mp_plot_name(char *out, size_t n, const struct mp_result *r, int32_t i);

/* The core-to-core heat map as a file of its own, and its <svg> element alone (svg_heat.c). */
#define MP_HEATMAP_NAME "plot-core-to-core.svg"
void mp_write_heatmap(struct mp_buf *b, const struct mp_result *r);
void mp_heatmap_element(struct mp_buf *b, const struct mp_result *r);

/* Text for XML and HTML: &, <, >, " and ' escaped, control characters dropped. */
void mp_markup_text(struct mp_buf *b, const char *s);

#endif
