/* SPDX-License-Identifier: MIT */
/*
 * The Linux platform's logical CPUs on this machine, against what the
 * kernel says: every CPU of the affinity mask found, CPU 0 the one the
 * process started on, each one's x2APIC ID equal to /proc/cpuinfo's
 * "apicid", two CPUs in one cluster exactly when they share the
 * last-level cache (sysfs shared_cpu_list), selection moving the thread,
 * a run beside another CPU's load, and a ping-pong whose every round
 * happened (the line's last value).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/linux/platform.h"
#include "tests/check.h"
#include "tests/output.h"

#define ROUNDS 2000u
#define SWEEP_BYTES (256u * 1024u)

/* /proc/cpuinfo's "apicid" of kernel CPU `os_cpu`; -1 when not listed. */
static long proc_apicid(int os_cpu)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	long cpu = -1, id = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "processor : %ld", &cpu);
		if (cpu == os_cpu && sscanf(line, "apicid : %ld", &id) == 1)
			break;
	}
	fclose(f);
	return id;
}

/* The last-level cache's shared_cpu_list of a kernel CPU (the highest index's). */
static void llc_list(int os_cpu, char *buf, size_t cap)
{
	buf[0] = '\0';
	for (int i = 0; i < 8; i++) {
		char path[128];
		FILE *f;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", os_cpu, i);
		f = fopen(path, "r");
		if (!f)
			break;
		if (!fgets(buf, (int)cap, f))
			buf[0] = '\0';
		fclose(f);
	}
}

static void check_places(struct mp_platform *p, uint32_t n, const int *os)
{
	struct mp_cpu_info info[8];
	char llc[8][256], name[96];

	for (uint32_t i = 0; i < n && i < 8; i++) {
		snprintf(name, sizeof(name), "cpu %u (kernel's %d): info", i, os[i]);
		CHECK(p->ops->cpu_info(p, i, &info[i]) == MP_OK, "%s", name);
		snprintf(name, sizeof(name), "cpu %u: x2APIC ID as /proc/cpuinfo's apicid", i);
		CHECK_EQ_INT(info[i].apic_id, proc_apicid(os[i]), name);
		llc_list(os[i], llc[i], sizeof(llc[i]));
		printf("# cpu %u: kernel %d x2APIC %u package %d die %d cluster %d core %d "
		       "thread %d type \"%s\", LLC shared by %s", i, os[i], info[i].apic_id,
		       (int)info[i].package, (int)info[i].die, (int)info[i].cluster,
		       (int)info[i].core, (int)info[i].thread, info[i].type, llc[i]);
	}
	for (uint32_t i = 0; i < n && i < 8; i++)
		for (uint32_t j = i + 1; j < n && j < 8; j++) {
			bool same_llc = strcmp(llc[i], llc[j]) == 0;
			bool same = info[i].package == info[j].package &&
				    info[i].cluster == info[j].cluster;
			bool distinct = info[i].package != info[j].package ||
					info[i].core != info[j].core ||
					info[i].thread != info[j].thread;

			snprintf(name, sizeof(name), "cpus %u and %u: one cluster exactly when they "
				 "share the LLC (%s)", i, j, same_llc ? "shared" : "not shared");
			CHECK(same == same_llc, "%s", name);
			CHECK(distinct, "cpus %u and %u: different places", i, j);
		}
}

static void check_select(struct mp_platform *p, uint32_t n, int *os)
{
	for (uint32_t i = n; i-- > 0;) {
		CHECK(mp_cpu_select(p, i) == MP_OK, "select cpu %u", i);
		os[i] = sched_getcpu();
	}
	CHECK(mp_cpu_select(p, n) != MP_OK, "cpu %u (one past the last) refused", n);
}

/* cpu_home: the last CPU becomes CPU 0, and runs there; the first takes its number. */
static void check_home(struct mp_platform *p, uint32_t n, const int *os)
{
	CHECK(p->ops->cpu_home(p, n - 1) == MP_OK && sched_getcpu() == os[n - 1],
	      "home cpu %u: the process runs on kernel CPU %d", n - 1, os[n - 1]);
	CHECK(mp_cpu_select(p, n - 1) == MP_OK && sched_getcpu() == os[0],
	      "then cpu %u is the kernel's CPU %d, where it started", n - 1, os[0]);
	CHECK(p->ops->cpu_home(p, n - 1) == MP_OK && sched_getcpu() == os[0],
	      "home again: back where it started");
}

static void check_beside(struct mp_platform *p, uint8_t *mine, uint8_t *theirs)
{
	struct mp_run r = { .op = MP_OP_LOAD_SWEEP, .start = mine, .stride = 64,
			    .count = SWEEP_BYTES / 64, .steps = 1u << 20 };
	struct mp_run load = r;
	struct mp_sample s = { 0 };

	load.start = theirs;
	CHECK(p->ops->run_beside(p, &r, &s, 1, &load) == MP_OK && s.ticks > 0,
	      "a sweep on cpu 0 beside cpu 1's sweep: %llu ticks", (unsigned long long)s.ticks);
	CHECK(p->ops->run_beside(p, &r, &s, 0, &load) == MP_UNSUPPORTED,
	      "no load beside itself (cpu 0 beside cpu 0)");
}

static void check_pingpong(struct mp_platform *p, uint64_t *line)
{
	struct mp_sample s = { 0 };

	CHECK(p->ops->pingpong(p, 0, 1, line, ROUNDS, &s) == MP_OK && s.ticks > 0,
	      "ping-pong cpu 0 and 1: %u rounds in %llu ticks (%.0f ns a transfer)", ROUNDS,
	      (unsigned long long)s.ticks, (double)s.ticks * 1e9 / (double)p->tick_hz / 2 / ROUNDS);
	CHECK_EQ_INT(*line, 2 * ROUNDS, "ping-pong: the line's last value, every round's");
	CHECK(p->ops->pingpong(p, 1, 1, line, ROUNDS, &s) != MP_OK, "no ping-pong with itself");
}

int main(void)
{
	cpu_set_t set;
	int started = sched_getcpu(), os[8] = { 0 };
	struct mp_platform *p;
	uint32_t n;

	sched_getaffinity(0, sizeof(set), &set);
	p = mp_linux_open(test_output());
	n = mp_cpu_count(p);
	CHECK_EQ_INT(n, CPU_COUNT(&set), "logical CPUs: those of the affinity mask");
	CHECK_EQ_INT(sched_getcpu(), started, "cpu 0: the one the process started on");
	check_select(p, n, os);
	CHECK_EQ_INT(os[0], started, "cpu 0 selected: back where it started");
	check_places(p, n, os);
	if (n >= 2) {
		uint8_t *a = aligned_alloc(4096, SWEEP_BYTES), *b = aligned_alloc(4096, SWEEP_BYTES);
		uint64_t *line = aligned_alloc(64, 64);

		check_beside(p, a, b);
		check_pingpong(p, line);
		check_home(p, n, os);
		free(a);
		free(b);
		free(line);
	}
	mp_linux_close(p);
	return check_done();
}
