/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "platform/hosted/map.h"
#include "platform/linux/platform.h"

/* TSC calibration against CLOCK_MONOTONIC: 50 ms gives < 0.01% error. */
#define CALIBRATE_NS 50000000ull
/* /proc/self/pagemap: one 64-bit entry per page; bit 63 present, bits 0-54
 * the frame number (Documentation/admin-guide/mm/pagemap.rst). */
#define PAGEMAP_PRESENT (1ull << 63)
#define PAGEMAP_PFN_MASK ((1ull << 55) - 1)

/* Mappings kept for reuse after they are freed, and the most bytes they may hold. */
struct made;
#define LINUX_KEPT 4u
#define LINUX_KEPT_BYTES (1ull << 30)

struct linux_state {
	struct mp_platform p;
	struct mp_x86_pmc pmc;
	struct mp_x86_isa isa;
	struct mp_linux_cpus cpus;
	bool guest;                 /* under a hypervisor: physical addresses are the guest's */
	struct made *kept[LINUX_KEPT]; /* the last mappings freed, oldest first (keep_or_unmap) */
	uint32_t nkept;
};

static struct linux_state *me(struct mp_platform *p)
{
	return p->priv;
}

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

/* The physical address of va from the pagemap open at fd, or MP_PHYS_UNKNOWN. */
static uint64_t pagemap_phys(int fd, const void *va)
{
	uint64_t entry = 0, page = (uint64_t)sysconf(_SC_PAGESIZE);
	off_t off = (off_t)((uintptr_t)va / page * sizeof(entry));

	if (fd < 0 || pread(fd, &entry, sizeof(entry), off) != sizeof(entry))
		entry = 0;
	if (!(entry & PAGEMAP_PRESENT) || (entry & PAGEMAP_PFN_MASK) == 0)
		return MP_PHYS_UNKNOWN;
	return (entry & PAGEMAP_PFN_MASK) * page + (uintptr_t)va % page;
}

static uint64_t page_phys(const void *va)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	uint64_t phys = pagemap_phys(fd, va);

	if (fd >= 0)
		close(fd);
	return phys;
}

/* Are [base, base+bytes) physically contiguous, page by page? */
static bool phys_contiguous(const uint8_t *base, uint64_t bytes, uint64_t step)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	uint64_t first = pagemap_phys(fd, base), off = step;

	while (first != MP_PHYS_UNKNOWN && off < bytes && pagemap_phys(fd, base + off) == first + off)
		off += step;
	if (fd >= 0)
		close(fd);
	return first != MP_PHYS_UNKNOWN && off >= bytes;
}

static uint64_t round_up(uint64_t x, uint64_t to)
{
	return (x + to - 1) & ~(to - 1);
}

/* A 1G page from hugetlbfs, where the system has one reserved. */
static uint8_t *map_huge_1g(uint64_t bytes, bool exec)
{
	void *p = mmap(NULL, bytes, mp_hosted_prot(exec),
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (30 << MAP_HUGE_SHIFT), -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static bool huge_req(const struct mp_mem_req *req)
{
	return req->page == MP_PAGE_2M || req->page == MP_PAGE_1G;
}

/* What a mapping's bytes are rounded up to: its pages (transparent huge ones 2M). */
static uint64_t map_unit(const struct mp_platform *p, const struct mp_mem_req *req,
			 uint64_t page_bytes)
{
	if (page_bytes == MP_PAGE_BYTES_1G)
		return MP_PAGE_BYTES_1G;
	return huge_req(req) ? MP_PAGE_BYTES_2M : p->page_bytes;
}

/* A 1G page where asked and reserved; else transparent huge pages where asked. */
static uint8_t *map(struct mp_platform *p, const struct mp_mem_req *req, struct mp_mem *out)
{
	bool huge = huge_req(req);
	uint64_t page = map_unit(p, req, p->page_bytes);
	struct mp_hosted_map_req m = {
		.bytes = round_up(req->bytes, page),
		.align = req->align > page ? req->align : page,
		.huge = huge,
		.exec = req->exec,
	};

	out->page_bytes = p->page_bytes;
	out->bytes = m.bytes;
	if (req->page == MP_PAGE_1G) {
		out->base = map_huge_1g(round_up(req->bytes, MP_PAGE_BYTES_1G), req->exec);
		if (out->base) {
			out->page_bytes = MP_PAGE_BYTES_1G;
			out->bytes = round_up(req->bytes, MP_PAGE_BYTES_1G);
			return out->base;
		}
	}
	return out->base = mp_hosted_map(&m);
}

/*
 * The last mappings freed are kept for later requests of the same page
 * size that fit in them (a probe's next round asks for the same memory,
 * and a later probe for less): every fresh page costs the kernel's
 * zeroing, and on this project's AMD EPYC guest, whose host backs it with
 * 4K pages, a fresh 256M of transparent huge pages took 0.3 to 1.3 s to
 * fault in, zeroing a kept one 0.04 s.  A request takes the smallest kept
 * mapping it fits in, from its first address of the request's alignment.
 * At most LINUX_KEPT mappings of LINUX_KEPT_BYTES in all are kept (a
 * larger one alone), and all go when a new mapping fails.  Each mapping's
 * handle says how it was made (struct made); a request served from it
 * gets a part of it, and gives the whole back when freed.
 */
struct made {
	struct mp_mem_req req;  /* the request it was made for (exec: as it is now) */
	uint8_t *base;          /* the whole mapping */
	uint64_t bytes;
	uint64_t unit;          /* what its request's bytes were rounded up to */
	uint64_t page_bytes;    /* the pages map() gave */
	bool contiguous;        /* the whole known physically contiguous: so is every part */
};

static void unmade(struct made *how)
{
	mp_hosted_unmap(how->base, how->bytes);
	free(how);
}

static void unmap(struct mp_mem *m)
{
	if (m->handle)
		unmade(m->handle);
	else
		mp_hosted_unmap(m->base, m->bytes);
}

/* Forget kept mapping i (its memory stays wherever it went). */
static void forget(struct linux_state *s, uint32_t i)
{
	memmove(&s->kept[i], &s->kept[i + 1], (s->nkept - i - 1) * sizeof(s->kept[0]));
	s->nkept--;
}

static void drop_oldest(struct linux_state *s)
{
	unmade(s->kept[0]);
	forget(s, 0);
}

static void drop_kept(struct linux_state *s)
{
	while (s->nkept)
		drop_oldest(s);
}

static uint64_t kept_bytes(const struct linux_state *s)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < s->nkept; i++)
		sum += s->kept[i]->bytes;
	return sum;
}

/*
 * Where req would start in a kept mapping, or NULL where it does not fit
 * or its pages are another size than req asks for.  (`contiguous` is only
 * a wish here: map() cannot act on it.)
 */
static uint8_t *fit(const struct made *how, const struct mp_mem_req *req)
{
	uintptr_t at = round_up((uintptr_t)how->base, req->align);

	if (how->req.page != req->page || at + round_up(req->bytes, how->unit) >
						  (uintptr_t)how->base + how->bytes)
		return NULL;
	return (uint8_t *)at;
}

/* The kept mapping req fits in that is smallest, or -1. */
static int32_t best_fit(const struct linux_state *s, const struct mp_mem_req *req)
{
	int32_t best = -1;

	for (uint32_t i = 0; i < s->nkept; i++)
		if (fit(s->kept[i], req) && (best < 0 || s->kept[i]->bytes < s->kept[best]->bytes))
			best = (int32_t)i;
	return best;
}

/* A part of the smallest kept mapping req fits in, zeroed, not yet described. */
static bool reuse_kept(struct linux_state *s, const struct mp_mem_req *req, struct mp_mem *out)
{
	int32_t i = best_fit(s, req);
	struct made *how;

	if (i < 0)
		return false;
	how = s->kept[i];
	if (how->req.exec != req->exec &&
	    mprotect(how->base, how->bytes, mp_hosted_prot(req->exec)) != 0)
		return false;
	how->req.exec = req->exec;
	forget(s, (uint32_t)i);
	*out = (struct mp_mem){ .base = fit(how, req), .bytes = round_up(req->bytes, how->unit),
				.page_bytes = how->page_bytes, .handle = how };
	memset(out->base, 0, out->bytes);
	return true;
}

static void keep_or_unmap(struct linux_state *s, struct mp_mem *m)
{
	struct made *how = m->handle;

	if (!how) {
		unmap(m);
	} else {
		while (s->nkept == LINUX_KEPT ||
		       (s->nkept && kept_bytes(s) + how->bytes > LINUX_KEPT_BYTES))
			drop_oldest(s);
		s->kept[s->nkept++] = how;
	}
	m->base = NULL;
}

/* A new mapping; the kept ones go first if there is no room for it. */
static bool map_new(struct mp_platform *p, const struct mp_mem_req *req, struct mp_mem *out)
{
	if (map(p, req, out))
		return true;
	drop_kept(me(p));
	return map(p, req, out) != NULL;
}

/* A new mapping's handle: how it was made, or NULL (then it is not kept). */
static struct made *made_of(const struct mp_platform *p, const struct mp_mem_req *req,
			    const struct mp_mem *m)
{
	struct made *how = malloc(sizeof(*how));

	if (how)
		*how = (struct made){ .req = *req, .base = m->base, .bytes = m->bytes,
				      .unit = map_unit(p, req, m->page_bytes),
				      .page_bytes = m->page_bytes };
	return how;
}

/*
 * Where out's memory lies: its first frame, its pages, how far it is
 * contiguous (a part of a mapping known contiguous is, without reading
 * every page of it again).
 */
static void describe(struct mp_platform *p, const struct mp_mem_req *req, struct mp_mem *out,
		     bool within_contiguous)
{
	out->phys = page_phys(out->base);
	if (req->page >= MP_PAGE_2M && out->page_bytes < MP_PAGE_BYTES_2M &&
	    phys_contiguous(out->base, MP_PAGE_BYTES_2M, p->page_bytes))
		out->page_bytes = MP_PAGE_BYTES_2M;
	/* A guest's frames are contiguous in its own physical memory only. */
	out->frame_bytes = me(p)->guest ? p->page_bytes : out->page_bytes;
	out->contiguous = !me(p)->guest &&
			  (within_contiguous ||
			   phys_contiguous(out->base, out->bytes, out->page_bytes));
}

static enum mp_status linux_alloc(struct mp_platform *p, const struct mp_mem_req *req,
				  struct mp_mem *out)
{
	struct made *how;

	if (reuse_kept(me(p), req, out)) {
		describe(p, req, out, ((struct made *)out->handle)->contiguous);
		return MP_OK;
	}
	memset(out, 0, sizeof(*out));
	if (!map_new(p, req, out))
		return MP_ENOMEM;
	out->handle = how = made_of(p, req, out);
	memset(out->base, 0, out->bytes); /* fault every page in now, not while timing */
	describe(p, req, out, false);
	if (how)
		how->contiguous = out->contiguous;
	return MP_OK;
}

static void linux_free(struct mp_platform *p, struct mp_mem *m)
{
	if (m->base)
		keep_or_unmap(me(p), m);
}

static enum mp_status linux_run(struct mp_platform *p, const struct mp_run *r,
				struct mp_sample *s)
{
	return mp_x86_run(&me(p)->pmc, r, s);
}

static uint32_t linux_events(struct mp_platform *p)
{
	return me(p)->pmc.events;
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
				       const struct mp_code *c, void **entry)
{
	(void)p;
	return mp_x86_code_build(m, c, entry);
}

static enum mp_status linux_kernel_build(struct mp_platform *p, struct mp_mem *m,
					 const struct mp_kernel *k, void **entry)
{
	return mp_x86_kernel_build(&me(p)->isa, m, k, entry);
}

/* Sleep: the CPU goes to whatever else wants it meanwhile. */
static bool linux_rest(struct mp_platform *p, uint32_t us)
{
	struct timespec t = { .tv_sec = us / 1000000u, .tv_nsec = (long)(us % 1000000u) * 1000 };

	(void)p;
	nanosleep(&t, NULL);
	return true;
}

static uint32_t linux_cpu_count(struct mp_platform *p)
{
	return me(p)->cpus.n;
}

static enum mp_status linux_cpu_info(struct mp_platform *p, uint32_t cpu, struct mp_cpu_info *out)
{
	return mp_linux_cpu_info(&me(p)->cpus, cpu, out);
}

static enum mp_status linux_cpu_select(struct mp_platform *p, uint32_t cpu)
{
	return mp_linux_cpu_select(&me(p)->cpus, cpu);
}

static enum mp_status linux_cpu_home(struct mp_platform *p, uint32_t cpu)
{
	return mp_linux_cpu_home(&me(p)->cpus, cpu);
}

static enum mp_status linux_run_beside(struct mp_platform *p, const struct mp_run *r,
				       struct mp_sample *out, uint32_t other,
				       const struct mp_run *load)
{
	return mp_linux_run_beside(&me(p)->cpus, &me(p)->pmc, r, out, other, load);
}

static enum mp_status linux_pingpong(struct mp_platform *p, uint32_t a, uint32_t b, void *line,
				     uint64_t rounds, struct mp_sample *out)
{
	return mp_linux_pingpong(&me(p)->cpus, a, b, line, rounds, out);
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
	.kernel_build = linux_kernel_build,
	.rest = linux_rest,
	.cpu_count = linux_cpu_count,
	.cpu_info = linux_cpu_info,
	.cpu_select = linux_cpu_select,
	.cpu_home = linux_cpu_home,
	.run_beside = linux_run_beside,
	.pingpong = linux_pingpong,
};

struct mp_platform *mp_linux_open(const struct mp_output *out)
{
	struct linux_state *s = calloc(1, sizeof(*s));
	struct mp_cpuid c;
	char why[200];

	if (!s)
		return NULL;
	/* Measure on one CPU: a migration in the middle of a chase would time two caches. */
	mp_linux_cpus_open(&s->cpus);
	mp_linux_cpu_select(&s->cpus, 0);
	s->p = (struct mp_platform){
		.name = MP_LINUX_PLATFORM,
		.ops = &linux_ops,
		.out = out,
		.priv = s,
		.page_bytes = (uint64_t)sysconf(_SC_PAGESIZE),
		.code_block_min = MP_X86_CODE_BLOCK_MIN,
		.code_serial_min = MP_X86_CODE_SERIAL_MIN,
		.code_serial_redirects = true,
		.tick_hz = calibrate_tsc(),
	};
	mp_cpuid_open(&c, mp_cpuid_hw, NULL);
	s->guest = mp_cpuid_hypervisor(&c);
	if (s->guest)
		mp_log(&s->p, MP_LOG_INFO, "a virtual machine: memory is counted physically "
		       "contiguous within base pages only (the host's mapping is not visible)");
	mp_x86_isa_read(&c, mp_x86_isa_xcr0(&c), &s->isa);
	s->p.core_hz = mp_x86_core_hz(s->p.tick_hz);
	mp_linux_perf_open(&s->pmc, why, sizeof(why));
	if (why[0])
		mp_log(&s->p, MP_LOG_WARN, why);
	return &s->p;
}

void mp_linux_close(struct mp_platform *p)
{
	if (!p)
		return;
	mp_linux_perf_close(&me(p)->pmc);
	drop_kept(me(p));
	free(me(p));
}
