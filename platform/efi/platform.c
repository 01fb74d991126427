/* SPDX-License-Identifier: MIT */
#include "arch/x86_64/cr.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/pmc.h"
#include "arch/x86_64/ring0.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/x86.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "platform/efi/cpus.h"
#include "platform/efi/fw.h"
#include "platform/efi/mmu.h"
#include "platform/efi/platform.h"

/* TSC calibration against the firmware's Stall(): the shortest of a few
 * 50 ms waits, as Stall() may only overshoot. */
#define CALIBRATE_US 50000u
#define CALIBRATE_TRIES 3u
/* The base page size: what UEFI promises (Specification 2.10, section 2.3.4). */
#define BASE_PAGE_BYTES 4096u
/*
 * The longest interrupt-masked window.  EDK II's timer drivers tick every
 * 10 ms (DEFAULT_TIMER_TICK_DURATION, 100 ns units) and the interrupt
 * controller holds one pending tick, so a window this long delays the
 * firmware's timer by at most two ticks and loses at most one.  The core's
 * windows take about 5 ms (MP_WINDOW_STEPS); after one that overran, the
 * remaining windows run with interrupts enabled.
 */
#define MASK_MAX_US 20000u

struct efi_state {
	struct mp_platform p;
	struct mp_efi_arena *arena;
	const struct mp_output *app;   /* the application's output, called on the firmware's CR3 */
	struct mp_output out;          /* what the probes call: the same, around a CR3 switch */
	struct mp_efi_mmu mmu;
	struct mp_pmc pmc;
	struct mp_x86_pmc counters;
	struct mp_x86_isa isa;
	uint64_t fw_cr4, fw_xcr0;      /* as the firmware had them, restored at close */
	bool session;                /* our page tables are in CR3 between firmware calls */
	uint64_t irq_flags, mask_t0, mask_limit, mask_longest, mask_windows;
	bool masked;                 /* inside an interrupt-masked window */
	uint64_t fw_t0;              /* when the firmware call inside a window began */
	bool mask_off;               /* a window overran: no more masking */
	bool code_refused;           /* code_build said why it cannot run code */
	bool guest;                  /* under a hypervisor: "physical" is the guest's */
	struct mp_efi_cpus cpus;
};

static struct efi_state *st(struct mp_platform *p)
{
	return p->priv;
}

/*
 * Firmware services run on the firmware's own page tables (platform/efi/mmu.h),
 * and with interrupts as the firmware had them: a call inside a masked window
 * (starting an AP for run_beside, say) unmasks for its while, which does not
 * count towards the window's bound.
 */
static void firmware_begin(struct efi_state *s)
{
	if (s->masked) {
		s->fw_t0 = mp_x86_tsc_begin();
		s->masked = false;
	mp_x86_irq_restore(s->irq_flags);
	}
	mp_efi_mmu_leave(&s->mmu);
}

static void firmware_end(struct efi_state *s)
{
	if (s->session)
		mp_efi_mmu_enter(&s->mmu);
	if (s->masked) {
		mp_x86_irq_save();
		s->mask_t0 += mp_x86_tsc_end() - s->fw_t0;
	}
}

static void fw_begin(void *ctx)
{
	firmware_begin(ctx);
}

static void fw_end(void *ctx)
{
	firmware_end(ctx);
}

static uint64_t efi_now(struct mp_platform *p)
{
	(void)p;
	return mp_x86_tsc_begin();
}

/* An arena block at a page size's alignment, mapped with pages of that size. */
static enum mp_status alloc_paged(struct efi_state *s, const struct mp_mem_req *req,
				  enum mp_page pg, struct mp_mem *out)
{
	uint64_t page = mp_page_bytes(pg);
	uint64_t bytes = (req->bytes + page - 1) & ~(page - 1);
	uint8_t *base = mp_efi_arena_alloc(s->arena, bytes, req->align > page ? req->align : page);
	enum mp_status st = MP_ENOMEM;

	if (base)
		st = s->mmu.ready ? mp_efi_mmu_map(&s->mmu, base, bytes, page) : MP_OK;
	if (st != MP_OK) {
		mp_efi_arena_free(s->arena, base);
		return st;
	}
	s->cpus.tables++; /* the selected AP's TLB must see the new mapping */
	mp_memset(base, 0, bytes);
	out->base = base;
	out->bytes = bytes;
	out->phys = (uintptr_t)base; /* identity mapped */
	out->page_bytes = s->mmu.ready ? page : mp_efi_mmu_page_of(base, bytes);
	/* One block of the firmware's pages; in a virtual machine, of the guest's. */
	out->frame_bytes = s->guest ? BASE_PAGE_BYTES : out->page_bytes;
	out->contiguous = !s->guest;
	return MP_OK;
}

/* The page size asked for (2M for "any"), else the next smaller that fits. */
static enum mp_status efi_alloc(struct mp_platform *p, const struct mp_mem_req *req,
				struct mp_mem *out)
{
	enum mp_page pg = req->page == MP_PAGE_ANY ? MP_PAGE_2M : req->page;

	mp_memset(out, 0, sizeof(*out));
	if (pg == MP_PAGE_1G && !st(p)->mmu.has_1g)
		pg = MP_PAGE_2M;
	for (;; pg = (enum mp_page)(pg - 1)) {
		if (alloc_paged(st(p), req, pg, out) == MP_OK)
			return MP_OK;
		if (pg == MP_PAGE_4K)
			return MP_ENOMEM;
	}
}

static void efi_free(struct mp_platform *p, struct mp_mem *m)
{
	if (m->base)
		mp_efi_arena_free(st(p)->arena, m->base);
	m->base = NULL;
}

static enum mp_status efi_run(struct mp_platform *p, const struct mp_run *r, struct mp_sample *s)
{
	return mp_efi_cpus_run(&st(p)->cpus, &st(p)->counters, r, s);
}

/* The counters are the BSP's: an AP counts nothing. */
static uint32_t efi_events(struct mp_platform *p)
{
	return st(p)->cpus.selected ? 0 : st(p)->counters.events;
}

static enum mp_status efi_flush_line(struct mp_platform *p, const void *addr)
{
	(void)p;
	return mp_x86_flush_line(addr);
}

/* Caches by wbinvd; the TLB by writing CR3 back, which drops non-global entries. */
static enum mp_status efi_flush_all(struct mp_platform *p)
{
	return mp_efi_cpus_flush_all(&st(p)->cpus);
}

/* On an AP every job runs with interrupts masked (cpus.c): nothing to do here then. */
static enum mp_status efi_irq_mask(struct mp_platform *p)
{
	struct efi_state *s = st(p);

	if (s->cpus.selected)
		return MP_OK;
	if (s->mask_off)
		return MP_UNSUPPORTED;
	s->irq_flags = mp_x86_irq_save();
	s->masked = true;
	s->mask_t0 = mp_x86_tsc_begin();
	return MP_OK;
}

static void efi_irq_unmask(struct mp_platform *p)
{
	struct efi_state *s = st(p);
	uint64_t t = mp_x86_tsc_end() - s->mask_t0;

	if (s->cpus.selected)
		return;
	s->masked = false;
	mp_x86_irq_restore(s->irq_flags);
	s->mask_windows++;
	s->mask_longest = t > s->mask_longest ? t : s->mask_longest;
	if (t <= s->mask_limit || s->mask_off)
		return;
	s->mask_off = true;
	mp_logf(p, MP_LOG_WARN, "an interrupt-masked window took %.1f ms, over the %u ms bound: "
		"the rest run with interrupts enabled", (double)t * 1e3 / (double)p->tick_hz,
		MASK_MAX_US / 1000);
}

/*
 * Generated code runs only from arena blocks our page tables map
 * executable.  To the firmware the arena is data (EfiLoaderData), which it
 * may map non-executable (the image is NX-compatible), so without our
 * tables there is no code to run: "unsupported", and the reason once.
 */
static bool code_runs(struct mp_platform *p)
{
	struct efi_state *s = st(p);

	if (s->mmu.ready)
		return true;
	if (!s->code_refused)
		mp_logf(p, MP_LOG_WARN, "generated code is not run: %s, and the firmware's own "
			"tables may map the arena non-executable", s->mmu.why);
	s->code_refused = true;
	return false;
}

static enum mp_status efi_code_build(struct mp_platform *p, struct mp_mem *m,
				     const struct mp_code *c, void **entry)
{
	if (!code_runs(p))
		return MP_UNSUPPORTED;
	return mp_x86_code_build(m, c, entry);
}

static enum mp_status efi_kernel_build(struct mp_platform *p, struct mp_mem *m,
				       const struct mp_kernel *k, void **entry)
{
	if (!code_runs(p))
		return MP_UNSUPPORTED;
	return mp_x86_kernel_build(&st(p)->isa, m, k, entry);
}

/* The application's output, each call with the firmware's page tables in CR3. */
static void fw_log(void *ctx, enum mp_log_level lvl, const char *msg)
{
	struct efi_state *s = ctx;

	firmware_begin(s);
	s->app->log(s->app->ctx, lvl, msg);
	firmware_end(s);
}

static void fw_progress(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	struct efi_state *s = ctx;

	firmware_begin(s);
	s->app->progress(s->app->ctx, what, done, total);
	firmware_end(s);
}

static enum mp_status fw_sink(void *ctx, const char *name, const char *data, size_t len)
{
	struct efi_state *s = ctx;
	enum mp_status r;

	firmware_begin(s);
	r = s->app->sink(s->app->ctx, name, data, len);
	firmware_end(s);
	return r;
}

static uint32_t efi_cpu_count(struct mp_platform *p)
{
	return st(p)->cpus.n;
}

static enum mp_status efi_cpu_info(struct mp_platform *p, uint32_t cpu, struct mp_cpu_info *out)
{
	if (cpu >= st(p)->cpus.n)
		return MP_EIO;
	*out = st(p)->cpus.info[cpu];
	return MP_OK;
}

static enum mp_status efi_cpu_select(struct mp_platform *p, uint32_t cpu)
{
	return mp_efi_cpus_select(&st(p)->cpus, cpu);
}

static enum mp_status efi_run_beside(struct mp_platform *p, const struct mp_run *r,
				     struct mp_sample *out, uint32_t other,
				     const struct mp_run *load)
{
	return mp_efi_cpus_run_beside(&st(p)->cpus, &st(p)->counters, r, out, other, load);
}

static enum mp_status efi_pingpong(struct mp_platform *p, uint32_t a, uint32_t b, void *line,
				   uint64_t rounds, struct mp_sample *out)
{
	return mp_efi_cpus_pingpong(&st(p)->cpus, a, b, line, rounds, out);
}

static const struct mp_platform_ops efi_ops = {
	.now = efi_now,
	.mem_alloc = efi_alloc,
	.mem_free = efi_free,
	.run = efi_run,
	.events = efi_events,
	.flush_line = efi_flush_line,
	.flush_all = efi_flush_all,
	.irq_mask = efi_irq_mask,
	.irq_unmask = efi_irq_unmask,
	.code_build = efi_code_build,
	.kernel_build = efi_kernel_build,
	.cpu_count = efi_cpu_count,
	.cpu_info = efi_cpu_info,
	.cpu_select = efi_cpu_select,
	.run_beside = efi_run_beside,
	.pingpong = efi_pingpong,
};

static uint64_t calibrate_tsc(void)
{
	uint64_t best = UINT64_MAX;

	for (unsigned i = 0; i < CALIBRATE_TRIES; i++) {
		uint64_t t0 = mp_x86_tsc_begin();

		mp_fw_stall(CALIBRATE_US);
		uint64_t t = mp_x86_tsc_end() - t0;
		if (t < best)
			best = t;
	}
	return best * (1000000u / CALIBRATE_US);
}

/* The TSC rate from CPUID 15H where the CPU enumerates it, else calibrated. */
static void clocks(struct mp_platform *p, const struct mp_cpuid *c)
{
	const char *source = "CPUID 15H";

	p->tick_hz = mp_x86_tsc_hz_cpuid(c);
	if (!p->tick_hz) {
		p->tick_hz = calibrate_tsc();
		source = "calibrated against the firmware's Stall";
	}
	p->core_hz = mp_x86_core_hz(p->tick_hz);
	mp_logf(p, MP_LOG_INFO, "TSC %llu kHz (%s), core clock %llu kHz",
		(unsigned long long)(p->tick_hz / 1000), source,
		(unsigned long long)(p->core_hz / 1000));
	if (!mp_x86_tsc_invariant(c))
		mp_log(p, MP_LOG_WARN, "the TSC is not invariant: its rate may follow the core clock");
}

static void note(struct mp_result *r, const char *what, const char *why)
{
	char text[MP_TEXT_LEN];

	mp_snprintf(text, sizeof(text), "%s: %s", what, why);
	mp_result_add_note(r, text);
}

/* Some thousand dependent adds: work for the counter check to count. */
static void counter_work(void)
{
	mp_x86_add_chain(4096);
}

static unsigned bits_set(uint32_t v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

static void counters(struct efi_state *s, const struct mp_cpuid *c, struct mp_result *r)
{
	struct mp_pmu_cpu cpu;
	char list[MP_TEXT_LEN];
	struct mp_buf b;

	mp_pmu_cpu_read(c, &cpu);
	mp_pmc_open(&s->pmc, &cpu, &mp_x86_msr_io, counter_work);
	mp_pmc_backend(&s->pmc, &s->counters);
	if (!s->counters.events) {
		mp_logf(&s->p, MP_LOG_INFO, "counters: none: %s", s->pmc.why);
		note(r, "uefi: no performance counters", s->pmc.why);
		return;
	}
	mp_buf_init(&b, list, sizeof(list));
	for (unsigned e = 0; e < MP_EV_COUNT; e++)
		if (s->counters.events & MP_EV_BIT(e))
			mp_buf_printf(&b, " %s", mp_pmc_event_name((enum mp_event)e));
	mp_logf(&s->p, MP_LOG_INFO, "counters: %s (%s events), %u general of %u bits, %u fixed; "
		"events:%s", s->pmc.pmu.ops->name, s->pmc.pmu.table, bits_set(s->pmc.gp_ok),
		s->pmc.pmu.gp_bits, bits_set(s->pmc.fixed_ok), list);
}

/*
 * The vector registers' state: firmware need not enable AVX or AVX-512 (UEFI
 * 2.10, 2.3.4, promises only SSE).  Where the CPU has XSAVE, CR4.OSXSAVE is
 * set and XCR0 given every component the CPU supports, so the kernels can
 * use them; the firmware's values come back at close.  The kernels run with
 * interrupts masked, so no firmware handler sees the wider registers.
 */
static void vector_state(struct efi_state *s, const struct mp_cpuid *c)
{
	s->fw_cr4 = mp_x86_read_cr4();
	if (mp_x86_isa_has_xsave(c)) {
		if (!(s->fw_cr4 & MP_CR4_OSXSAVE))
			mp_x86_write_cr4(s->fw_cr4 | MP_CR4_OSXSAVE);
		s->fw_xcr0 = mp_x86_xgetbv(0);
		mp_x86_xsetbv(0, mp_x86_isa_xcr0_all(c));
	}
	mp_x86_isa_read(c, mp_x86_isa_xcr0(c), &s->isa);
	mp_logf(&s->p, MP_LOG_INFO, "vector state: XCR0 0x%llx (firmware's 0x%llx)",
		(unsigned long long)mp_x86_isa_xcr0(c), (unsigned long long)s->fw_xcr0);
}

static void vector_state_restore(struct efi_state *s)
{
	if (!(mp_x86_read_cr4() & MP_CR4_OSXSAVE))
		return;
	if (s->fw_xcr0)
		mp_x86_xsetbv(0, s->fw_xcr0);
	mp_x86_write_cr4(s->fw_cr4);
}

static void guard_check(struct mp_platform *p)
{
	if (mp_x86_msr_check())
		mp_log(p, MP_LOG_INFO, "MSR guard: a #GP from an MSR write (IA32_PKRS, reserved "
		       "bit) was caught and answered \"unsupported\"");
	else
		mp_log(p, MP_LOG_WARN, "MSR guard not exercised: an invalid MSR write did not fault");
}

struct mp_platform *mp_efi_open(struct mp_efi_arena *arena, const struct mp_output *out,
				struct mp_result *r)
{
	struct efi_state *s = mp_fw_pool_alloc(sizeof(*s));
	struct mp_cpuid c;

	if (!s)
		return NULL;
	*s = (struct efi_state){
		.p = { .name = MP_EFI_PLATFORM, .page_bytes = BASE_PAGE_BYTES, .ops = &efi_ops,
		       .code_block_min = MP_X86_CODE_BLOCK_MIN,
		       .code_serial_min = MP_X86_CODE_SERIAL_MIN, .code_serial_redirects = true,
		       .out = &s->out, .priv = s },
		.arena = arena,
		.app = out,
		.out = { .log = fw_log, .progress = fw_progress, .sink = fw_sink, .ctx = s },
	};
	mp_cpuid_open(&c, mp_cpuid_hw, NULL);
	s->guest = mp_cpuid_hypervisor(&c);
	if (s->guest)
		note(r, "uefi: memory", "a virtual machine: counted physically contiguous within "
		     "base pages only (the host's mapping is not visible)");
	clocks(&s->p, &c);
	s->mask_limit = s->p.tick_hz / 1000000u * MASK_MAX_US;
	guard_check(&s->p);
	vector_state(s, &c);
	if (!mp_efi_mmu_open(&s->p, &s->mmu, &c, arena))
		note(r, "uefi: firmware page tables", s->mmu.why);
	else if (!s->mmu.write_back)
		note(r, "uefi: memory type", s->mmu.why);
	counters(s, &c, r);
	s->cpus = (struct mp_efi_cpus){
		.mmu = &s->mmu,
		.xcr0 = (mp_x86_read_cr4() & MP_CR4_OSXSAVE) ? mp_x86_xgetbv(0) : 0,
		.fw_begin = fw_begin,
		.fw_end = fw_end,
		.fw_ctx = s,
	};
	mp_efi_cpus_open(&s->p, &s->cpus, r);
	s->session = true;
	mp_efi_mmu_enter(&s->mmu);
	return &s->p;
}

void mp_efi_close(struct mp_platform *p)
{
	struct efi_state *s;

	if (!p)
		return;
	s = st(p);
	s->session = false;
	mp_efi_mmu_leave(&s->mmu);
	mp_logf(p, MP_LOG_INFO, "%llu interrupt-masked windows, the longest %.2f ms (bound %u ms)",
		(unsigned long long)s->mask_windows,
		(double)s->mask_longest * 1e3 / (double)p->tick_hz, MASK_MAX_US / 1000);
	mp_pmc_close(&s->pmc);
	mp_efi_cpus_close(&s->cpus);
	vector_state_restore(s);
	mp_efi_mmu_close(&s->mmu);
	mp_fw_pool_free(s);
}
