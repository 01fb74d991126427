/* SPDX-License-Identifier: MIT */
/*
 * The Linux platform: the TSC for time, perf_event counters where the
 * kernel has them, transparent huge pages for large-page memory, physical
 * addresses from /proc/self/pagemap where readable (root).  Interrupts
 * cannot be masked from user space: that answers "unsupported".
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "host/host.h"

#define SZ_2M (2ull << 20)
#define SZ_1G (1ull << 30)
/* TSC calibration against CLOCK_MONOTONIC: 50 ms gives < 0.01% error. */
#define CALIBRATE_NS 50000000ull
/* /proc/self/pagemap: one 64-bit entry per page; bit 63 present, bits 0-54
 * the frame number (Documentation/admin-guide/mm/pagemap.rst). */
#define PAGEMAP_PRESENT (1ull << 63)
#define PAGEMAP_PFN_MASK ((1ull << 55) - 1)

struct linux_state {
	struct mp_x86_pmc pmc;
	const struct host_cli *cli;
	const char *results_dir;
};

static struct linux_state state;
static struct mp_platform platform;

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t calibrate_tsc(void)
{
	uint64_t n0 = mono_ns(), t0 = mp_x86_tsc_begin(), n1;

	while ((n1 = mono_ns()) - n0 < CALIBRATE_NS)
		;
	return (uint64_t)((double)(mp_x86_tsc_end() - t0) * 1e9 / (double)(n1 - n0));
}

static uint64_t linux_now(struct mp_platform *p)
{
	(void)p;
	return mp_x86_tsc_begin();
}

static uint64_t page_phys(const void *va)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	uint64_t entry = 0, page = (uint64_t)sysconf(_SC_PAGESIZE);
	off_t off = (off_t)((uintptr_t)va / page * sizeof(entry));

	if (fd < 0)
		return MP_PHYS_UNKNOWN;
	if (pread(fd, &entry, sizeof(entry), off) != sizeof(entry))
		entry = 0;
	close(fd);
	if (!(entry & PAGEMAP_PRESENT) || (entry & PAGEMAP_PFN_MASK) == 0)
		return MP_PHYS_UNKNOWN;
	return (entry & PAGEMAP_PFN_MASK) * page + (uintptr_t)va % page;
}

/* Are [base, base+bytes) physically contiguous, page by page? */
static bool phys_contiguous(const uint8_t *base, uint64_t bytes, uint64_t step)
{
	uint64_t first = page_phys(base);

	if (first == MP_PHYS_UNKNOWN)
		return false;
	for (uint64_t off = step; off < bytes; off += step) {
		if (page_phys(base + off) != first + off)
			return false;
	}
	return true;
}

static uint8_t *map_huge_1g(uint64_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (30 << MAP_HUGE_SHIFT), -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* Anonymous memory aligned to `align`, transparent huge pages requested. */
static uint8_t *map_aligned(uint64_t bytes, uint64_t align, bool huge)
{
	uint8_t *p = mmap(NULL, bytes + align, PROT_READ | PROT_WRITE | PROT_EXEC,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *a;

	if (p == MAP_FAILED)
		return NULL;
	a = (uint8_t *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
	if (a > p)
		munmap(p, (size_t)(a - p));
	munmap(a + bytes, (size_t)(p + bytes + align - (a + bytes)));
	if (huge)
		madvise(a, bytes, MADV_HUGEPAGE);
	return a;
}

static enum mp_status linux_alloc(struct mp_platform *p, const struct mp_mem_req *req,
				  struct mp_mem *out)
{
	bool huge = req->page == MP_PAGE_2M || req->page == MP_PAGE_1G;
	uint64_t align = huge ? SZ_2M : (req->align ? req->align : p->page_bytes);
	uint64_t bytes = (req->bytes + align - 1) & ~(align - 1);

	memset(out, 0, sizeof(*out));
	out->page_bytes = p->page_bytes;
	if (req->page == MP_PAGE_1G && (out->base = map_huge_1g((bytes + SZ_1G - 1) & ~(SZ_1G - 1))))
		out->page_bytes = SZ_1G;
	else if (!(out->base = map_aligned(bytes, align, huge)))
		return MP_ENOMEM;
	out->bytes = bytes;
	memset(out->base, 0, bytes); /* fault every page in now, not while timing */
	out->phys = page_phys(out->base);
	if (huge && out->page_bytes != SZ_1G && phys_contiguous(out->base, SZ_2M, p->page_bytes))
		out->page_bytes = SZ_2M;
	out->contiguous = phys_contiguous(out->base, bytes, out->page_bytes);
	return MP_OK;
}

static void linux_free(struct mp_platform *p, struct mp_mem *m)
{
	(void)p;
	if (m->base)
		munmap(m->base, m->page_bytes == SZ_1G ? (m->bytes + SZ_1G - 1) & ~(SZ_1G - 1)
						      : m->bytes);
	m->base = NULL;
}

static enum mp_status linux_run(struct mp_platform *p, const struct mp_run *r,
				struct mp_sample *s)
{
	return mp_x86_run(&((struct linux_state *)p->priv)->pmc, r, s);
}

static uint32_t linux_events(struct mp_platform *p)
{
	return ((struct linux_state *)p->priv)->pmc.events;
}

static enum mp_status linux_flush_line(struct mp_platform *p, const void *addr)
{
	(void)p;
	return mp_x86_flush_line(addr);
}

/* wbinvd and TLB flushes are privileged: not from user space. */
static enum mp_status linux_unsupported(struct mp_platform *p)
{
	(void)p;
	return MP_UNSUPPORTED;
}

static void linux_nothing(struct mp_platform *p)
{
	(void)p;
}

static enum mp_status linux_code_build(struct mp_platform *p, struct mp_mem *m,
				       const uint64_t *offsets, uint64_t n, void **entry)
{
	(void)p;
	return mp_x86_code_build(m, offsets, n, entry);
}

static void linux_log(struct mp_platform *p, enum mp_log_level lvl, const char *msg)
{
	host_log(p->name, lvl, msg);
}

/* Sleep: the CPU goes to whatever else wants it meanwhile. */
static bool linux_rest(struct mp_platform *p, uint32_t us)
{
	struct timespec t = { .tv_sec = us / 1000000u, .tv_nsec = (long)(us % 1000000u) * 1000 };

	(void)p;
	nanosleep(&t, NULL);
	return true;
}

static void linux_progress(struct mp_platform *p, const char *what, uint64_t done,
			   uint64_t total)
{
	host_progress(((struct linux_state *)p->priv)->cli->quiet, what, done, total);
}

static enum mp_status linux_sink(struct mp_platform *p, const char *name, const char *data,
				 size_t len)
{
	const char *dir = ((struct linux_state *)p->priv)->results_dir;

	return dir ? host_results_write(dir, name, data, len) : MP_OK;
}

static const struct mp_platform_ops linux_ops = {
	.now = linux_now,
	.mem_alloc = linux_alloc,
	.mem_free = linux_free,
	.run = linux_run,
	.events = linux_events,
	.flush_line = linux_flush_line,
	.flush_all = linux_unsupported,
	.irq_mask = linux_unsupported,
	.irq_unmask = linux_nothing,
	.code_build = linux_code_build,
	.log = linux_log,
	.rest = linux_rest,
	.progress = linux_progress,
	.sink = linux_sink,
};

/* Measure on one CPU: a migration in the middle of a chase would time two caches. */
static void pin_to_current_cpu(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

struct mp_platform *host_linux_platform(const struct host_cli *cli, const char *results_dir)
{
	char why[200];

	pin_to_current_cpu();
	state.cli = cli;
	state.results_dir = results_dir;
	host_perf_open(&state.pmc, why, sizeof(why));
	platform.name = "linux-x86_64";
	platform.ops = &linux_ops;
	platform.priv = &state;
	platform.page_bytes = (uint64_t)sysconf(_SC_PAGESIZE);
	platform.tick_hz = calibrate_tsc();
	platform.core_hz = mp_x86_core_hz(platform.tick_hz);
	if (why[0])
		host_log(platform.name, MP_LOG_WARN, why);
	return &platform;
}
