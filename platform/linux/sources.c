/* SPDX-License-Identifier: MIT */
/*
 * The kernel's description of the caches, /sys/devices/system/cpu/cpuN/
 * cache/indexM/ (Documentation/ABI/testing/sysfs-devices-system-cpu): one
 * directory per cache of CPU N with `level`, `type` (Data, Instruction,
 * Unified), `size` (with a K suffix), `coherency_line_size`,
 * `ways_of_associativity` and `shared_cpu_list`; and of the package,
 * cpuN/topology/ `package_cpus_list` and `core_cpus_list` (older kernels:
 * `core_siblings_list` and `thread_siblings_list`).  On x86 the kernel
 * builds these from CPUID itself, its own way: a separate source.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/lib/str.h"
#include "core/results/audit.h"
#include "platform/linux/sources.h"

/* A CPU's directory, one of its cache directories, a file in either. */
#define CPU_DIR_LEN 384
#define DIR_LEN 448
#define PATH_LEN 512
#define MAX_INDEX 16

static const struct {
	const char *word;
	enum mp_kind kind;
} kinds[] = {
	{ "Data", MP_KIND_DATA }, { "Instruction", MP_KIND_INSTRUCTION },
	{ "Unified", MP_KIND_UNIFIED },
};

/* The first line of a small file, without its newline; false when unreadable. */
static bool read_line(const char *path, char *out, size_t n)
{
	FILE *f = fopen(path, "r");
	bool ok = f && fgets(out, (int)n, f);

	if (f)
		fclose(f);
	if (ok)
		out[strcspn(out, "\n")] = '\0';
	return ok;
}

static int64_t read_size(const char *dir, const char *name)
{
	char path[PATH_LEN], text[64];
	uint64_t v;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!read_line(path, text, sizeof(text)) || !mp_parse_size(text, strlen(text), &v) || v == 0)
		return MP_NA;
	return (int64_t)v;
}

/* CPUs in a list such as "0-3,8-11"; 0 when unreadable. */
static int32_t count_cpus(const char *path)
{
	char text[4096], *p = text;
	int32_t n = 0;

	if (!read_line(path, text, sizeof(text)))
		return 0;
	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p)
			return 0;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		n += (int32_t)(hi - lo + 1);
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return 0;
	}
	return n;
}

static enum mp_kind kind_of(const char *dir)
{
	char path[PATH_LEN], text[32];

	snprintf(path, sizeof(path), "%s/type", dir);
	if (read_line(path, text, sizeof(text)))
		for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			if (strcmp(text, kinds[i].word) == 0)
				return kinds[i].kind;
	return MP_KIND_UNKNOWN;
}

/* One indexM directory; false when there is none. */
static bool add_index(struct mp_source *s, const char *dir)
{
	char path[PATH_LEN];
	int64_t level = read_size(dir, "level");
	struct mp_doc_cache *c;
	int32_t shared;

	if (level == MP_NA)
		return false;
	c = mp_source_add_cache(s);
	if (!c)
		return true;
	c->level = (int32_t)level;
	c->type = kind_of(dir);
	c->size_bytes = read_size(dir, "size");
	c->line_bytes = read_size(dir, "coherency_line_size");
	c->ways = read_size(dir, "ways_of_associativity");
	snprintf(path, sizeof(path), "%s/shared_cpu_list", dir);
	shared = count_cpus(path);
	c->shared_by = shared > 0 ? shared : MP_NA;
	return true;
}

/* A topology list, under its current name or the one older kernels use. */
static int32_t topology_count(const char *cpu_dir, const char *name, const char *old)
{
	char path[PATH_LEN];
	int32_t n;

	snprintf(path, sizeof(path), "%s/topology/%s", cpu_dir, name);
	n = count_cpus(path);
	if (n > 0)
		return n;
	snprintf(path, sizeof(path), "%s/topology/%s", cpu_dir, old);
	return count_cpus(path);
}

static void add_package(struct mp_source *s, const char *cpu_dir)
{
	int32_t logical = topology_count(cpu_dir, "package_cpus_list", "core_siblings_list");
	int32_t threads = topology_count(cpu_dir, "core_cpus_list", "thread_siblings_list");

	if (logical > 0)
		s->logical_cpus = logical;
	if (threads > 0)
		s->threads_per_core = threads;
	if (logical > 0 && threads > 0 && logical % threads == 0)
		s->cores = logical / threads;
}

void mp_linux_sysfs_source(struct mp_result *r, const char *sys, int cpu)
{
	char cpu_dir[CPU_DIR_LEN], dir[DIR_LEN];
	struct mp_source *s;
	int i;

	snprintf(cpu_dir, sizeof(cpu_dir), "%.300s/devices/system/cpu/cpu%d", sys, cpu);
	snprintf(dir, sizeof(dir), "%s/cache/index0/level", cpu_dir);
	if (access(dir, R_OK) != 0) {
		mp_audit_source_missing(r, MP_SOURCE_SYSFS, MP_SOURCE_ABSENT,
					"the kernel describes no caches in sysfs");
		return;
	}
	s = mp_audit_add_source(r, MP_SOURCE_SYSFS);
	for (i = 0; s && i < MAX_INDEX; i++) {
		snprintf(dir, sizeof(dir), "%s/cache/index%d", cpu_dir, i);
		if (!add_index(s, dir))
			break;
	}
	if (s)
		add_package(s, cpu_dir);
}

void mp_linux_sources(struct mp_result *r, const char *sys, int cpu)
{
	mp_linux_sysfs_source(r, sys, cpu < 0 ? 0 : cpu);
	mp_linux_firmware_sources(r, sys);
}
