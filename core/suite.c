/* SPDX-License-Identifier: MIT */
#include "core/lib/bits.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/measure/counter.h"
#include "core/measure/timing.h"
#include "core/place.h"
#include "core/probes/cores/cores.h"
#include "core/probes/probes.h"
#include "core/results/audit.h"
#include "core/results/plot.h"
#include "core/results/writers.h"
#include "core/rounds.h"
#include "core/suite.h"

/* Large enough for a full result with every curve at full resolution. */
#define OUT_BYTES (1u << 20)

/*
 * The multi-core probes come last, when every level of the boot CPU is
 * known.  They vote or take minima themselves, so they are not repeated in
 * rounds (method MP_METHOD_BOTH: the suite runs them as they are; they skip
 * themselves under method counters).  The topology is read before the
 * table (mp_cores_topology).
 */
const struct mp_probe_def mp_probes[] = {
	{ "latency", "load latency against footprint; L1 data hit latency", mp_probe_latency,
	  MP_METHOD_TIMING },
	{ "l1", "L1 data cache: gap test and X-Ray compact sets", mp_probe_l1, MP_METHOD_TIMING },
	{ "levels", "multi-level test: every cache level's effective capacity and latency",
	  mp_probe_levels, MP_METHOD_TIMING },
	{ "compact", "lower levels: physical size, ways, line, inclusion from compact sets",
	  mp_probe_compact, MP_METHOD_TIMING },
	{ "evset", "lower levels: physical size, ways, line from minimal eviction sets, where "
		   "compact sets cannot work (memory not contiguous, a hashed index)", mp_probe_evset,
	  MP_METHOD_TIMING },
	{ "tlb", "TLB test: every data TLB level's entries, page size, ways, miss penalty",
	  mp_probe_tlb, MP_METHOD_TIMING },
	{ "policy", "write allocation and replacement policy of every cache level",
	  mp_probe_policy, MP_METHOD_TIMING },
	{ "icache", "instruction caches: the L1I's size, ways, line (gap test, X-Ray) and every "
		    "level as straight-line code sees it, by fetches of code blocks", mp_probe_icache,
	  MP_METHOD_TIMING },
	{ "itlb", "instruction TLBs: every level's entries, page size, ways, miss penalty, by "
		  "fetches of code blocks", mp_probe_itlb, MP_METHOD_TIMING },
	{ "cpu", "the core clock, and latency and throughput of integer and floating-point "
		 "arithmetic at every vector width (X-Ray 3)", mp_probe_cpu, MP_METHOD_TIMING },
	{ "amp", "counters (AMP): line, size, ways, write allocation, replacement, split or "
		 "unified of caches and data TLBs", mp_probe_amp, MP_METHOD_COUNTERS },
	{ "papi", "counters (PAPI cacheSize, cacheBlock): size, line, ways of caches and data TLBs",
	  mp_probe_papi, MP_METHOD_COUNTERS },
	{ "cores", "every core type's caches and TLBs on one of its CPUs; which logical CPUs share "
		   "each data cache level, measured (X-Ray SMT/SMP)", mp_probe_cores,
	  MP_METHOD_BOTH },
	{ "c2c", "core-to-core latency: a cache line passed between two logical CPUs",
	  mp_probe_c2c, MP_METHOD_BOTH },
};
const unsigned mp_nprobes = MP_COUNT_OF(mp_probes);

static char out_mem[OUT_BYTES];

typedef void (*writer_fn)(struct mp_buf *b, const struct mp_result *r);

static const struct {
	const char *name;
	writer_fn write;
} outputs[] = {
	{ "result.json", mp_write_json },
	{ "report.txt", mp_write_report },
	{ "curves.csv", mp_write_csv },
	{ "report.html", mp_write_html },
};

/* Write one file through the sink: what `b` holds, said when it was cut short. */
static enum mp_status store(struct mp_platform *p, const char *name, const struct mp_buf *b)
{
	if (b->overflow)
		mp_logf(p, MP_LOG_WARN, "%s is larger than %u bytes and was cut short", name,
			OUT_BYTES);
	return mp_sink(p, name, b->data, b->len);
}

enum mp_status mp_suite_save(struct mp_platform *p, const struct mp_result *r)
{
	enum mp_status worst = MP_OK, st;
	char name[MP_NAME_LEN + 16];
	struct mp_buf b;

	for (unsigned i = 0; i < MP_COUNT_OF(outputs); i++) {
		mp_buf_init(&b, out_mem, sizeof(out_mem));
		outputs[i].write(&b, r);
		st = store(p, outputs[i].name, &b);
		worst = st != MP_OK ? st : worst;
	}
	for (int32_t i = 0; i < mp_count(r->ncurves, MP_MAX_CURVES); i++) {
		mp_buf_init(&b, out_mem, sizeof(out_mem));
		mp_write_svg(&b, r, i);
		mp_plot_name(name, sizeof(name), r, i);
		st = store(p, name, &b);
		worst = st != MP_OK ? st : worst;
	}
	if (r->core_to_core.npairs > 0) {
		mp_buf_init(&b, out_mem, sizeof(out_mem));
		mp_write_heatmap(&b, r);
		st = store(p, MP_HEATMAP_NAME, &b);
		worst = st != MP_OK ? st : worst;
	}
	return worst;
}

/* A timing probe does not run with method counters, a counter probe not with timing. */
static bool method_wants(const struct mp_config *cfg, const struct mp_probe_def *def)
{
	if (def->method == MP_METHOD_TIMING)
		return cfg->method != MP_METHOD_COUNTERS;
	if (def->method == MP_METHOD_COUNTERS)
		return cfg->method != MP_METHOD_TIMING;
	return true;
}

static const char *method_why(const struct mp_config *cfg)
{
	return cfg->method == MP_METHOD_TIMING ? "method is timing" : "method is counters";
}

static void run_probe(struct mp_platform *p, const struct mp_config *cfg, struct mp_result *r,
		      const struct mp_probe_def *def)
{
	struct mp_probe *rec = mp_result_add_probe(r, def->name);
	struct mp_ctx ctx = { .p = p, .cfg = cfg, .r = r, .self = rec };
	uint64_t t0;

	if (!rec)
		return;
	if (!mp_config_wants(cfg, def->name) || !method_wants(cfg, def)) {
		rec->status = MP_PROBE_SKIPPED;
		mp_strlcpy(rec->message, mp_config_wants(cfg, def->name) ? method_why(cfg)
					 : "not selected", sizeof(rec->message));
		mp_logf(p, MP_LOG_INFO, "probe %s: skipped: %s", def->name, rec->message);
		return;
	}
	rec->status = MP_PROBE_OK;
	mp_logf(p, MP_LOG_INFO, "probe %s: start: %s", def->name, def->what);
	if (p->ops->probe_begin)
		p->ops->probe_begin(p, def->name);
	t0 = mp_now(p);
	if (def->method == MP_METHOD_TIMING && cfg->rounds != 1)
		mp_rounds_run(p, cfg, r, def, rec);
	else
		def->run(&ctx);
	rec->seconds = mp_seconds_since(p, t0);
	if (p->ops->probe_end)
		p->ops->probe_end(p, def->name);
	mp_logf(p, MP_LOG_INFO, "probe %s: %s in %.2f s%s%s", def->name,
		mp_probe_status_name(rec->status), rec->seconds, rec->message[0] ? ": " : "",
		rec->message);
}

static void check_selection(struct mp_platform *p, const struct mp_config *cfg,
			    struct mp_result *r)
{
	unsigned known = 0;

	for (unsigned i = 0; i < mp_nprobes; i++)
		known += mp_config_wants(cfg, mp_probes[i].name) ? 1 : 0;
	if (known == 0) {
		mp_logf(p, MP_LOG_WARN, "no known probe in \"%s\"; nothing to run", cfg->probes);
		mp_result_add_note(r, "the probes setting named no known probe");
	}
}

/*
 * Method auto: timing and counters (both) where the platform offers the
 * counter probes' events, which it does only for counters that passed its
 * self-check (docs/design.md, `events`); timing alone elsewhere.  Said in
 * the log and in a note.
 */
static enum mp_method resolve_method(struct mp_platform *p, const struct mp_config *cfg,
				     struct mp_result *r)
{
	uint32_t events = p->ops->events ? p->ops->events(p) : 0;
	bool counters = (events & (MP_COUNTER_CACHE_EVENTS | MP_COUNTER_TLB_EVENTS)) != 0;
	const char *what = counters ? "method auto: counters passed their self-check: timing "
				      "and counters (both)"
				    : "method auto: no counter passed its self-check: timing alone";

	if (cfg->method != MP_METHOD_AUTO)
		return cfg->method;
	mp_log(p, MP_LOG_INFO, what);
	mp_result_add_note(r, what);
	return counters ? MP_METHOD_BOTH : MP_METHOD_TIMING;
}

void mp_suite_run(struct mp_platform *p, const struct mp_config *config, struct mp_result *r)
{
	struct mp_config run = *config;
	const struct mp_config *cfg = &run;

	r->cpu.tsc_hz = (double)p->tick_hz;
	if (p->core_hz)
		r->cpu.core_hz = (double)p->core_hz;
	run.method = resolve_method(p, config, r);
	check_selection(p, cfg, r);
	mp_place(p, cfg, r);
	mp_cores_topology(p, cfg, r);
	for (unsigned i = 0; i < mp_nprobes; i++) {
		run_probe(p, cfg, r, &mp_probes[i]);
		mp_audit_judge(r);
		if (mp_suite_save(p, r) != MP_OK)
			mp_logf(p, MP_LOG_WARN, "results could not be stored after probe %s",
				mp_probes[i].name);
	}
	mp_result_reconcile(r, cfg->method == MP_METHOD_BOTH);
	mp_result_boot_type_sync(r);
	mp_audit_judge(r);
	if (mp_suite_save(p, r) != MP_OK)
		mp_log(p, MP_LOG_WARN, "results could not be stored after the merge of methods");
}
