/* SPDX-License-Identifier: MIT */
/*
 * report.html: one self-contained page for people (no scripts, no network,
 * the plots inline as SVG), opened from the stick on any laptop.  The
 * machine; the audit (every documented source and every disagreement);
 * the plots; the probes and their times; then the text report, whose
 * tables are all there is.
 */
#include "core/lib/str.h"
#include "core/results/audit.h"
#include "core/results/plot.h"
#include "core/results/report_int.h"
#include "core/results/writers.h"

/* Room for the text report inside the page. */
#define REPORT_BYTES (1u << 18)

static const char style[] =
	"body{font-family:sans-serif;margin:2em auto;max-width:1100px;padding:0 1em;color:#222}"
	"table{border-collapse:collapse;margin:.5em 0}"
	"th,td{border:1px solid #ccc;padding:2px 8px;text-align:left;vertical-align:top}"
	"th{background:#f0f0f0}.bad{color:#b00}.ok{color:#070}"
	"pre{font-size:12px;background:#f6f6f6;padding:1em;overflow-x:auto}"
	"figure{margin:1em 0}figcaption{font-size:13px;color:#555}";

static char report_mem[REPORT_BYTES];

static void cell(struct mp_buf *b, const char *tag, const char *text)
{
	mp_buf_printf(b, "<%s>", tag);
	mp_markup_text(b, text && text[0] ? text : "-");
	mp_buf_printf(b, "</%s>", tag);
}

static void row(struct mp_buf *b, const char *const *cells, int n, const char *tag)
{
	mp_buf_puts(b, "<tr>");
	for (int i = 0; i < n; i++)
		cell(b, tag, cells[i]);
	mp_buf_puts(b, "</tr>\n");
}

static void machine(struct mp_buf *b, const struct mp_result *r)
{
	char fms[64], clock[64];
	const char *const rows[][2] = {
		{ "platform", r->platform },
		{ "vendor", r->machine.vendor },
		{ "brand", r->machine.brand },
		{ "family, model, stepping", fms },
		{ "core clock", clock },
	};

	fms[0] = clock[0] = '\0';
	if (r->machine.family != MP_NA)
		mp_snprintf(fms, sizeof(fms), "%d, %d, %d", (int)r->machine.family,
			    (int)r->machine.model, (int)r->machine.stepping);
	if (!mp_is_na(r->cpu.core_hz))
		mp_snprintf(clock, sizeof(clock), "%.0f MHz", r->cpu.core_hz / 1e6);
	mp_buf_puts(b, "<table>\n");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		row(b, rows[i], 2, "td");
	mp_buf_puts(b, "</table>\n");
}

static void sources(struct mp_buf *b, const struct mp_result *r)
{
	static const char *const head[] = { "source", "status", "caches", "TLBs", "message" };
	char caches[16], tlbs[16];

	mp_buf_puts(b, "<table>\n");
	row(b, head, 5, "th");
	for (int32_t i = 0; i < mp_count(r->audit.nsources, MP_MAX_SOURCES); i++) {
		const struct mp_source *s = &r->audit.sources[i];
		const char *cells[] = { s->name, mp_source_status_name(s->status), caches, tlbs,
					s->message };

		mp_snprintf(caches, sizeof(caches), "%d", (int)s->ncaches);
		mp_snprintf(tlbs, sizeof(tlbs), "%d", (int)s->ntlbs);
		row(b, cells, 5, "td");
	}
	mp_buf_puts(b, "</table>\n");
}

static void audit(struct mp_buf *b, const struct mp_result *r)
{
	char label[MP_TEXT_LEN], text[2 * MP_TEXT_LEN];
	struct mp_buf t;
	int32_t n = mp_audit_disagreements(r);

	mp_buf_puts(b, "<h2 id=\"audit\">Audit</h2>\n");
	sources(b, r);
	mp_buf_printf(b, "<p class=\"%s\">%d disagreement(s) in %d verdicts</p>\n<ul>\n",
		      n ? "bad" : "ok", (int)n, (int)r->audit.nverdicts);
	for (int32_t i = 0; i < mp_count(r->audit.nverdicts, MP_MAX_VERDICTS); i++) {
		const struct mp_verdict *v = &r->audit.verdicts[i];

		if (!mp_verdict_disagrees(v))
			continue;
		mp_verdict_label(label, sizeof(label), v);
		mp_buf_init(&t, text, sizeof(text));
		mp_buf_printf(&t, "%s: ", label);
		mp_verdict_describe(&t, r, v);
		mp_buf_puts(b, "<li class=\"bad\">");
		mp_markup_text(b, text);
		mp_buf_puts(b, "</li>\n");
	}
	mp_buf_puts(b, "</ul>\n");
}

static void plots(struct mp_buf *b, const struct mp_result *r)
{
	char name[MP_NAME_LEN + 16];

	mp_buf_puts(b, "<h2 id=\"plots\">Plots</h2>\n");
	for (int32_t i = 0; i < mp_count(r->ncurves, MP_MAX_CURVES); i++) {
		mp_plot_name(name, sizeof(name), r, i);
		mp_buf_printf(b, "<figure id=\"%.*s\">\n", (int)(mp_strlen(name) - 4), name);
		mp_svg_element(b, r, i);
		mp_buf_puts(b, "<figcaption>");
		mp_markup_text(b, r->curves[i].name);
		mp_buf_printf(b, " (also %s)</figcaption>\n</figure>\n", name);
	}
	if (r->ncurves <= 0)
		mp_buf_puts(b, "<p>No curve was measured.</p>\n");
	if (r->core_to_core.npairs <= 0)
		return;
	mp_buf_puts(b, "<figure id=\"core-to-core\">\n");
	mp_heatmap_element(b, r);
	mp_buf_puts(b, "<figcaption>core-to-core latency (also " MP_HEATMAP_NAME ")</figcaption>\n"
		       "</figure>\n");
}

static void probes(struct mp_buf *b, const struct mp_result *r)
{
	static const char *const head[] = { "probe", "status", "seconds", "message" };
	char secs[32];

	mp_buf_puts(b, "<h2 id=\"probes\">Probes</h2>\n<table>\n");
	row(b, head, 4, "th");
	for (int32_t i = 0; i < mp_count(r->nprobes, MP_MAX_PROBES); i++) {
		const struct mp_probe *p = &r->probes[i];
		const char *cells[] = { p->name, mp_probe_status_name(p->status), secs, p->message };

		secs[0] = '\0';
		if (!mp_is_na(p->seconds))
			mp_snprintf(secs, sizeof(secs), "%.3f", p->seconds);
		row(b, cells, 4, "td");
	}
	mp_buf_puts(b, "</table>\n");
}

/* The text report, every table in it. */
static void tables(struct mp_buf *b, const struct mp_result *r)
{
	struct mp_buf t;

	mp_buf_init(&t, report_mem, sizeof(report_mem));
	mp_write_report(&t, r);
	mp_buf_puts(b, "<h2 id=\"tables\">Tables</h2>\n<pre>");
	mp_markup_text(b, t.data);
	mp_buf_puts(b, t.overflow ? "\n(cut short)</pre>\n" : "</pre>\n");
}

void mp_write_html(struct mp_buf *b, const struct mp_result *r)
{
	mp_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		       "<title>" MP_TOOL_NAME " report: ");
	mp_markup_text(b, r->machine.brand[0] ? r->machine.brand : r->platform);
	mp_buf_printf(b, "</title>\n<style>%s</style>\n</head>\n<body>\n", style);
	mp_buf_puts(b, "<h1>" MP_TOOL_NAME " " MP_VERSION " report</h1>\n");
	machine(b, r);
	audit(b, r);
	plots(b, r);
	probes(b, r);
	tables(b, r);
	mp_buf_puts(b, "</body>\n</html>\n");
}
