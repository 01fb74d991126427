/* SPDX-License-Identifier: MIT */
/*
 * The probe suite: one table of probes, run in order against a platform.
 * After every probe the result files are written again through the
 * platform's sink, so a crash keeps everything measured so far.
 */
#ifndef MEMPROBE_CORE_SUITE_H
#define MEMPROBE_CORE_SUITE_H

#include "core/probe.h"

struct mp_probe_def {
	const char *name;
	const char *what;            /* one line for --help and the docs */
	mp_probe_fn run;
	/*
	 * How it measures: MP_METHOD_TIMING (0, the default) runs unless the
	 * configured method is counters, MP_METHOD_COUNTERS unless it is
	 * timing; any other value always runs.
	 */
	enum mp_method method;
};

/* The probe table, in run order. */
extern const struct mp_probe_def mp_probes[];
extern const unsigned mp_nprobes;

/*
 * Run the configured probes, filling r (whose machine, cpu, documented
 * and audit sections the caller may have filled already), with method
 * auto resolved first.  After each probe the verdicts are judged again
 * and result.json, report.txt, curves.csv, report.html and every plot
 * written through the sink.
 */
void mp_suite_run(struct mp_platform *p, const struct mp_config *cfg, struct mp_result *r);

/* Write the result files and the plots now; MP_OK when every file was stored. */
enum mp_status mp_suite_save(struct mp_platform *p, const struct mp_result *r);

#endif
