/* SPDX-License-Identifier: MIT */
/*
 * The logical CPUs of the Linux platform: those the process may run on
 * (sched_getaffinity when it opens), the one it started on first.  A CPU's
 * place comes from its own CPUID, read by the calling thread pinned there,
 * unless its APIC ID there is not the kernel's (/proc/cpuinfo), and where
 * CPUID does not tell, or is not believed, from sysfs
 * (Documentation/ABI/stable/sysfs-devices-system-cpu: topology/ and
 * cache/index*).  Selecting a CPU pins the calling thread; a run beside
 * and a ping-pong run on threads of their own, pinned.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lib/str.h"
#include "platform/linux/platform.h"

#define SYS_CPU "/sys/devices/system/cpu/cpu%d/"

static bool pin(int os_cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(os_cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) == 0;
}

void mp_linux_cpus_open(struct mp_linux_cpus *c)
{
	cpu_set_t set;
	int here = sched_getcpu();

	c->n = 0;
	c->selected = 0;
	if (here < 0 || sched_getaffinity(0, sizeof(set), &set) != 0 || !CPU_ISSET(here, &set)) {
		c->os[c->n++] = here < 0 ? 0 : here;
		return;
	}
	c->os[c->n++] = here;
	for (int cpu = 0; cpu < CPU_SETSIZE && c->n < MP_LINUX_MAX_CPUS; cpu++)
		if (cpu != here && CPU_ISSET(cpu, &set))
			c->os[c->n++] = cpu;
}

/* One line of a sysfs file of a CPU, without its newline; false when absent. */
static bool sys_read(int os_cpu, const char *file, char *buf, size_t cap)
{
	char path[160];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), SYS_CPU "%s", os_cpu, file);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fgets(buf, (int)cap, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static uint32_t sys_number(int os_cpu, const char *file)
{
	char buf[32], *end;
	long v;

	if (!sys_read(os_cpu, file, buf, sizeof(buf)))
		return MP_CPU_UNKNOWN;
	v = strtol(buf, &end, 10);
	return end == buf || v < 0 ? MP_CPU_UNKNOWN : (uint32_t)v;
}

/*
 * The number of a part that splits the package (its CPU list differs from
 * the package's), else none: one die or one last-level cache for the
 * whole package is no die, no cluster (core/platform.h).
 */
static uint32_t sys_split(int os_cpu, const char *list, const char *id)
{
	char mine[256], package[256];

	if (!sys_read(os_cpu, list, mine, sizeof(mine)) ||
	    !sys_read(os_cpu, "topology/package_cpus_list", package, sizeof(package)) ||
	    strcmp(mine, package) == 0)
		return MP_CPU_UNKNOWN;
	return sys_number(os_cpu, id);
}

/* cache/indexN of the highest level: the last-level cache; -1 when none is listed. */
static int llc_index(int os_cpu)
{
	char file[48];
	uint32_t best = 0;
	int idx = -1;

	for (int i = 0; i < 8; i++) {
		snprintf(file, sizeof(file), "cache/index%d/level", i);
		uint32_t level = sys_number(os_cpu, file);
		if (level != MP_CPU_UNKNOWN && level >= best) {
			best = level;
			idx = i;
		}
	}
	return idx;
}

static uint32_t llc_cluster(int os_cpu)
{
	char list[48], id[48];
	int i = llc_index(os_cpu);

	if (i < 0)
		return MP_CPU_UNKNOWN;
	snprintf(list, sizeof(list), "cache/index%d/shared_cpu_list", i);
	snprintf(id, sizeof(id), "cache/index%d/id", i);
	return sys_split(os_cpu, list, id);
}

/* /proc/cpuinfo's "apicid" of each kernel CPU, read once (read_apicids). */
static uint32_t apicids[CPU_SETSIZE];
static pthread_once_t apicids_once = PTHREAD_ONCE_INIT;

static void read_apicids(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	long cpu = -1, id;

	for (int i = 0; i < CPU_SETSIZE; i++)
		apicids[i] = MP_CPU_UNKNOWN;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "processor : %ld", &cpu);
		if (cpu >= 0 && cpu < CPU_SETSIZE && sscanf(line, "apicid : %ld", &id) == 1 && id >= 0)
			apicids[cpu] = (uint32_t)id;
	}
	fclose(f);
}

/*
 * /proc/cpuinfo's "apicid" of kernel CPU os_cpu: the kernel's own;
 * MP_CPU_UNKNOWN when not listed.  The file is read once for all CPUs:
 * read for each, it made asking every CPU quadratic in their number.
 */
static uint32_t kernel_apicid(int os_cpu)
{
	pthread_once(&apicids_once, read_apicids);
	return os_cpu >= 0 && os_cpu < CPU_SETSIZE ? apicids[os_cpu] : MP_CPU_UNKNOWN;
}

/*
 * CPUID that does not describe the CPU it runs on, a hypervisor's that
 * passes another CPU's APIC ID through: its place is the kernel's alone
 * (from_sysfs).  This project's AMD guest "Turin-like" reads APIC IDs 51
 * and 31 on the kernel's CPUs 0 and 1 (CPUID 0x8000001E; leaf 0xB reads 0
 * on both), which the kernel numbers 0 and 1.
 */
static void kernel_place(int os_cpu, struct mp_cpu_info *out)
{
	uint32_t id = kernel_apicid(os_cpu);
	struct mp_cpu_info k = { .apic_id = id, .package = MP_CPU_UNKNOWN, .die = MP_CPU_UNKNOWN,
				 .cluster = MP_CPU_UNKNOWN, .core = MP_CPU_UNKNOWN,
				 .thread = MP_CPU_UNKNOWN };

	if (id == MP_CPU_UNKNOWN || id == out->apic_id)
		return;
	mp_strlcpy(k.type, out->type, sizeof(k.type));
	*out = k;
}

/* Fill what CPUID left unknown from sysfs. */
static void from_sysfs(int os_cpu, struct mp_cpu_info *out)
{
	if (out->package == MP_CPU_UNKNOWN)
		out->package = sys_number(os_cpu, "topology/physical_package_id");
	if (out->core == MP_CPU_UNKNOWN)
		out->core = sys_number(os_cpu, "topology/core_id");
	if (out->die == MP_CPU_UNKNOWN)
		out->die = sys_split(os_cpu, "topology/die_cpus_list", "topology/die_id");
	if (out->cluster == MP_CPU_UNKNOWN)
		out->cluster = llc_cluster(os_cpu);
}

enum mp_status mp_linux_cpu_info(struct mp_linux_cpus *c, uint32_t cpu, struct mp_cpu_info *out)
{
	struct mp_cpuid id;

	if (cpu >= c->n || !pin(c->os[cpu]))
		return MP_EIO;
	mp_cpuid_open(&id, mp_cpuid_hw, NULL);
	mp_cpuid_cpu_info(&id, out);
	pin(c->os[c->selected]);
	kernel_place(c->os[cpu], out);
	from_sysfs(c->os[cpu], out);
	return MP_OK;
}

enum mp_status mp_linux_cpu_select(struct mp_linux_cpus *c, uint32_t cpu)
{
	if (cpu >= c->n || !pin(c->os[cpu]))
		return MP_EIO;
	c->selected = cpu;
	return MP_OK;
}

enum mp_status mp_linux_cpu_home(struct mp_linux_cpus *c, uint32_t cpu)
{
	int was = c->os[0];

	if (cpu >= c->n)
		return MP_EIO;
	c->os[0] = c->os[cpu];
	c->os[cpu] = was;
	return mp_linux_cpu_select(c, 0);
}

/* A thread pinned to a CPU, running fn(arg). */
static bool start_pinned(pthread_t *t, int os_cpu, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	cpu_set_t set;
	bool ok;

	CPU_ZERO(&set);
	CPU_SET(os_cpu, &set);
	pthread_attr_init(&attr);
	ok = pthread_attr_setaffinity_np(&attr, sizeof(set), &set) == 0 &&
	     pthread_create(t, &attr, fn, arg) == 0;
	pthread_attr_destroy(&attr);
	return ok;
}

static void *beside_load(void *arg)
{
	mp_x86_beside_load(arg);
	return NULL;
}

enum mp_status mp_linux_run_beside(struct mp_linux_cpus *c, const struct mp_x86_pmc *pmc,
				   const struct mp_run *r, struct mp_sample *out, uint32_t other,
				   const struct mp_run *load)
{
	struct mp_x86_beside b = { .load = load };
	enum mp_status st;
	pthread_t t;

	if (other >= c->n)
		return MP_EIO;
	if (other == c->selected)
		return MP_UNSUPPORTED;
	if (!start_pinned(&t, c->os[other], beside_load, &b))
		return MP_EIO;
	st = mp_x86_beside_run(&b, pmc, r, out);
	pthread_join(t, NULL);
	return st;
}

static void *pingpong_b(void *arg)
{
	mp_x86_pingpong_side(arg, false);
	return NULL;
}

/* b on a thread of its own, a on the calling thread pinned there for the while. */
enum mp_status mp_linux_pingpong(struct mp_linux_cpus *c, uint32_t a, uint32_t b, void *line,
				 uint64_t rounds, struct mp_sample *out)
{
	struct mp_x86_pingpong pp = { .line = line, .rounds = rounds };
	pthread_t t;

	if (a >= c->n || b >= c->n || a == b || !pin(c->os[a]))
		return MP_EIO;
	*(volatile uint64_t *)line = 0;
	if (!start_pinned(&t, c->os[b], pingpong_b, &pp)) {
		pin(c->os[c->selected]);
		return MP_EIO;
	}
	mp_x86_pingpong_side(&pp, true);
	pthread_join(t, NULL);
	pin(c->os[c->selected]);
	memset(out, 0, sizeof(*out));
	out->ticks = pp.ticks;
	return MP_OK;
}
