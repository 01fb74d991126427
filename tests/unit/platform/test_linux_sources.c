/* SPDX-License-Identifier: MIT */
/*
 * platform/linux/sources.c and firmware.c against a sysfs tree of their own:
 * the caches and topology of CPU 1 as the kernel writes them, an SMBIOS
 * table with its entry point, no PPTT.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/firmware/firmware.h"
#include "core/results/audit.h"
#include "platform/linux/sources.h"
#include "tests/check.h"
#include "tests/unit/firmware/fwbuild.h"

static struct mp_result r;
static char root[256];

static void put_file(const char *rel, const void *data, size_t len)
{
	char path[512], dir[600];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "mkdir -p \"$(dirname '%s')\"", path);
	if (system(dir) != 0)
		return;
	FILE *f = fopen(path, "wb");

	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

static void put_text(const char *rel, const char *text)
{
	put_file(rel, text, strlen(text));
}

/* index<i> of CPU 1: level, type, size, line, ways, shared_cpu_list. */
static void cache_dir(int i, const char *level, const char *type, const char *size,
		      const char *ways, const char *shared)
{
	static const char *const names[] = { "level", "type", "size", "coherency_line_size",
					     "ways_of_associativity", "shared_cpu_list" };
	const char *values[] = { level, type, size, "64\n", ways, shared };
	char rel[128];

	for (int k = 0; k < 6; k++) {
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu1/cache/index%d/%s", i, names[k]);
		put_text(rel, values[k]);
	}
}

/* A one-structure SMBIOS table: an L2 of 4 x 512K, 8-way, and its 3.0 entry point. */
static void smbios(void)
{
	struct tb t = { .n = 0 }, ep = { .n = 0 };

	tb_grow(&t, 0x1B);
	tb_put(&t, 0, 7, 1);
	tb_put(&t, 1, 0x1B, 1);
	tb_put(&t, 2, 0x40, 2);
	tb_put(&t, 5, 0x0181, 2);
	tb_put(&t, 9, 2048, 2);
	tb_put(&t, 0x11, 5, 1);
	tb_put(&t, 0x12, 7, 1);
	tb_grow(&t, 2);
	tb_grow(&t, 4);
	tb_put(&t, t.n - 4, 127, 1);
	tb_put(&t, t.n - 3, 4, 1);
	tb_grow(&t, 2);
	put_file("firmware/dmi/tables/DMI", t.b, t.n);
	tb_grow(&ep, 0x18);
	tb_bytes(&ep, 0, "_SM3_", 5);
	tb_put(&ep, 6, 0x18, 1);
	tb_put(&ep, 7, 3, 1);
	tb_put(&ep, 8, 4, 1);
	tb_checksum(&ep, 0, 0x18, 5);
	put_file("firmware/dmi/tables/smbios_entry_point", ep.b, ep.n);
}

static const struct mp_source *source(const char *name)
{
	for (int32_t i = 0; i < r.audit.nsources; i++)
		if (strcmp(r.audit.sources[i].name, name) == 0)
			return &r.audit.sources[i];
	return NULL;
}

static void test_tree(void)
{
	const struct mp_source *s;

	cache_dir(0, "1\n", "Data\n", "48K\n", "12\n", "1,5\n");
	cache_dir(1, "1\n", "Instruction\n", "32K\n", "8\n", "1,5\n");
	cache_dir(2, "2\n", "Unified\n", "512K\n", "8\n", "1,5\n");
	cache_dir(3, "3\n", "Unified\n", "16384K\n", "16\n", "0-3,4-7\n");
	put_text("devices/system/cpu/cpu1/topology/package_cpus_list", "0-7\n");
	put_text("devices/system/cpu/cpu1/topology/core_cpus_list", "1,5\n");
	smbios();
	mp_result_init(&r, "test");
	r.cpu.logical_cpus = 8;
	mp_linux_sources(&r, root, 1);
	s = source(MP_SOURCE_SYSFS);
	CHECK(s && s->ncaches == 4, "sysfs: four caches of CPU 1");
	if (!s || s->ncaches != 4)
		return;
	CHECK(s->caches[0].level == 1 && s->caches[0].type == MP_KIND_DATA &&
		      s->caches[0].size_bytes == 48 * 1024 && s->caches[0].ways == 12 &&
		      s->caches[0].line_bytes == 64 && s->caches[0].shared_by == 2,
	      "sysfs: L1 data 48K, 12 ways, 64 B, shared by CPUs 1 and 5");
	CHECK(s->caches[3].size_bytes == 16 * 1024 * 1024 && s->caches[3].shared_by == 8,
	      "sysfs: L3 16M shared by 0-3,4-7");
	CHECK(s->logical_cpus == 8 && s->threads_per_core == 2 && s->cores == 4,
	      "sysfs: package of 8 CPUs, 2 per core, 4 cores");
	s = source(MP_SOURCE_SMBIOS_CACHES);
	CHECK(s && s->status == MP_SOURCE_OK && s->ncaches == 1 && s->caches[0].size_bytes == 2 << 20 &&
		      strcmp(s->message, "SMBIOS 3.4") == 0,
	      "SMBIOS from the DMI file, version from its entry point (%s)", s ? s->message : "-");
	s = source(MP_SOURCE_PPTT);
	CHECK(s && s->status == MP_SOURCE_ABSENT && strstr(s->message, "PPTT"),
	      "no PPTT file: absent, and said (%s)", s ? s->message : "-");
	mp_audit_judge(&r);
	CHECK(mp_audit_disagreements(&r) == 0, "the SMBIOS L2 of 2M for the package is 4 x 512K");
}

static void test_no_tree(void)
{
	const struct mp_source *s;
	char none[300];

	snprintf(none, sizeof(none), "%s/nothing", root);
	mp_result_init(&r, "test");
	mp_linux_sources(&r, none, 0);
	s = source(MP_SOURCE_SYSFS);
	CHECK(s && s->status == MP_SOURCE_ABSENT, "no sysfs cache directory: absent");
	s = source(MP_SOURCE_SMBIOS_CPU);
	CHECK(s && s->status == MP_SOURCE_ABSENT && strstr(s->message, "No such file"),
	      "no DMI table: absent, with the reason (%s)", s ? s->message : "-");
}

int main(void)
{
	char cmd[400];

	snprintf(root, sizeof(root), "build/tests/linux-sources.%d", (int)getpid());
	test_tree();
	test_no_tree();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("note: could not remove %s\n", root);
	return check_done();
}
