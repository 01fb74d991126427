/* SPDX-License-Identifier: MIT */
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/cr.h"
#include "arch/x86_64/ring0.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/x86.h"
#include "core/result.h"
#include "core/str.h"
#include "efi/fw.h"
#include "efi/out.h"
#include "efi/platform.h"

/* TSC calibration against the firmware's Stall(): the shortest of a few
 * 50 ms waits, as Stall() may only overshoot. */
#define CALIBRATE_US 50000u
#define CALIBRATE_TRIES 3u
/* The page size of the firmware's identity map: UEFI promises the map
 * (Specification 2.10, section 2.3.4) but not its page size, so 4 KB is
 * what we can claim; issue 6 maps our own. */
#define FW_PAGE_BYTES 4096u
/* Progress lines per piece of work: one per tenth done. */
#define PROGRESS_STEPS 10u

static const uint64_t page_align[] = {
	[MP_PAGE_ANY] = FW_PAGE_BYTES,
	[MP_PAGE_4K] = 4096,
	[MP_PAGE_2M] = 2ull << 20,
	[MP_PAGE_1G] = 1ull << 30,
};

static const char *const level_prefix[] = {
	[MP_LOG_INFO] = "",
	[MP_LOG_WARN] = "warning: ",
	[MP_LOG_ERROR] = "error: ",
};

struct efi_state {
	struct mp_efi_arena *arena;
	struct mp_efi_results *results;
	uint64_t irq_flags;
	char progress_what[MP_NAME_LEN];
	uint64_t progress_step;
};

static struct efi_state state;
static struct mp_platform platform;

static struct efi_state *st(struct mp_platform *p)
{
	return p->priv;
}

static uint64_t efi_now(struct mp_platform *p)
{
	(void)p;
	return mp_x86_tsc_begin();
}

static enum mp_status efi_alloc(struct mp_platform *p, const struct mp_mem_req *req,
				struct mp_mem *out)
{
	uint64_t bytes = (req->bytes + FW_PAGE_BYTES - 1) & ~(uint64_t)(FW_PAGE_BYTES - 1);
	uint64_t align = req->align, want = page_align[req->page];
	uint8_t *base = NULL;

	/* The page size's alignment first, so that large pages can map it later. */
	if (want > align)
		base = mp_efi_arena_alloc(st(p)->arena, bytes, want);
	if (!base)
		base = mp_efi_arena_alloc(st(p)->arena, bytes, align);
	mp_memset(out, 0, sizeof(*out));
	if (!base)
		return MP_ENOMEM;
	mp_memset(base, 0, bytes);
	out->base = base;
	out->bytes = bytes;
	out->phys = (uintptr_t)base; /* identity mapped */
	out->page_bytes = p->page_bytes;
	out->contiguous = true;
	return MP_OK;
}

static void efi_free(struct mp_platform *p, struct mp_mem *m)
{
	if (m->base)
		mp_efi_arena_free(st(p)->arena, m->base);
	m->base = NULL;
}

static enum mp_status efi_run(struct mp_platform *p, const struct mp_run *r, struct mp_sample *s)
{
	(void)p;
	return mp_x86_run(NULL, r, s);
}

static uint32_t efi_events(struct mp_platform *p)
{
	(void)p;
	return 0;
}

static enum mp_status efi_flush_line(struct mp_platform *p, const void *addr)
{
	(void)p;
	return mp_x86_flush_line(addr);
}

/* Caches by wbinvd; the TLB by writing CR3 back, which drops non-global entries. */
static enum mp_status efi_flush_all(struct mp_platform *p)
{
	(void)p;
	mp_x86_wbinvd();
	mp_x86_write_cr3(mp_x86_read_cr3());
	return MP_OK;
}

static enum mp_status efi_irq_mask(struct mp_platform *p)
{
	st(p)->irq_flags = mp_x86_irq_save();
	return MP_OK;
}

static void efi_irq_unmask(struct mp_platform *p)
{
	mp_x86_irq_restore(st(p)->irq_flags);
}

static enum mp_status efi_code_build(struct mp_platform *p, struct mp_mem *m,
				     const uint64_t *offsets, uint64_t n, void **entry)
{
	(void)p;
	return mp_x86_code_build(m, offsets, n, entry);
}

static void efi_log(struct mp_platform *p, enum mp_log_level lvl, const char *msg)
{
	(void)p;
	mp_efi_sayf("memprobe: %s%s\n", level_prefix[lvl], msg);
}

/* One line when the work changes and one per tenth done. */
static void efi_progress(struct mp_platform *p, const char *what, uint64_t done, uint64_t total)
{
	struct efi_state *s = st(p);
	uint64_t step = total ? done * PROGRESS_STEPS / total : 0;

	if (mp_strcmp(what, s->progress_what) == 0 && step == s->progress_step)
		return;
	mp_strlcpy(s->progress_what, what, sizeof(s->progress_what));
	s->progress_step = step;
	mp_efi_sayf("memprobe: %s: %llu/%llu\n", what, (unsigned long long)done,
		    (unsigned long long)total);
}

static enum mp_status efi_sink(struct mp_platform *p, const char *name, const char *data,
			       size_t len)
{
	return mp_efi_results_store(st(p)->results, name, data, len);
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
	.log = efi_log,
	.progress = efi_progress,
	.sink = efi_sink,
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
static void clocks(struct mp_platform *p)
{
	const char *source = "CPUID 15H";
	struct mp_cpuid c;

	mp_cpuid_open(&c, mp_cpuid_hw, NULL);
	p->tick_hz = mp_x86_tsc_hz_cpuid(&c);
	if (!p->tick_hz) {
		p->tick_hz = calibrate_tsc();
		source = "calibrated against the firmware's Stall";
	}
	p->core_hz = mp_x86_core_hz(p->tick_hz);
	mp_efi_sayf("memprobe: TSC %llu kHz (%s), core clock %llu kHz\n",
		    (unsigned long long)(p->tick_hz / 1000), source,
		    (unsigned long long)(p->core_hz / 1000));
	if (!mp_x86_tsc_invariant(&c))
		mp_efi_say("memprobe: warning: the TSC is not invariant: its rate may follow "
			   "the core clock\n");
}

struct mp_platform *mp_efi_platform(struct mp_efi_arena *arena, struct mp_efi_results *res)
{
	state = (struct efi_state){ .arena = arena, .results = res };
	platform = (struct mp_platform){
		.name = MP_EFI_PLATFORM,
		.page_bytes = FW_PAGE_BYTES,
		.ops = &efi_ops,
		.priv = &state,
	};
	clocks(&platform);
	return &platform;
}
