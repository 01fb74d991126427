/* SPDX-License-Identifier: MIT */
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/cr.h"
#include "arch/x86_64/ring0.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "platform/efi/cpus.h"
#include "platform/efi/fw.h"

/* The standing job's state: waiting for work, working, told to end. */
enum { S_IDLE = 0, S_WORK, S_QUIT };

/*
 * A job on an AP.  The firmware starts it with its own page tables and
 * state (EDK II restores them before every procedure and saves them after
 * it); the job masks interrupts (nothing of the firmware may run on the AP
 * meanwhile), loads our page tables (CR3 is each processor's own: the BSP's
 * does not reach the AP) and the BSP's XCR0 (the kernels' vector
 * registers), serializes (code the BSP wrote, SDM Vol. 3A, 9.1.3
 * "Handling Self- and Cross-Modifying Code"), and puts everything back
 * before it says it is done.  A job starts with an empty TLB (the
 * firmware's CR3 write on wake-up and ours drop its entries): hence the
 * standing job below, whose TLB lives on from run to run.
 */
static void ap_job(void *arg)
{
	struct mp_efi_job *j = arg;
	uint64_t flags = mp_x86_irq_save(), cr3 = mp_x86_read_cr3(), cr4 = mp_x86_read_cr4();
	uint64_t xcr0 = 0;

	if (j->c->mmu->ready)
		mp_x86_write_cr3(j->c->mmu->our_cr3);
	if (j->c->xcr0) {
		mp_x86_write_cr4(cr4 | MP_CR4_OSXSAVE);
		xcr0 = mp_x86_xgetbv(0);
		mp_x86_xsetbv(0, j->c->xcr0);
	}
	mp_x86_serialize();
	j->fn(j->arg);
	if (j->c->xcr0) {
		mp_x86_xsetbv(0, xcr0);
		mp_x86_write_cr4(cr4);
	}
	mp_x86_write_cr3(cr3);
	mp_x86_irq_restore(flags);
	__atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
}

/* A firmware call, in the firmware's page tables and interrupt state (the platform's bracket). */
static enum mp_fw_status fw_call(struct mp_efi_cpus *c, enum mp_fw_status (*call)(uint32_t n,
				 mp_fw_ap_fn fn, void *arg), uint32_t cpu, struct mp_efi_job *j)
{
	enum mp_fw_status st;

	c->fw_begin(c->fw_ctx);
	st = call(c->fw[cpu], ap_job, j);
	c->fw_end(c->fw_ctx);
	return st;
}

static uint32_t load32(const volatile uint32_t *w)
{
	return __atomic_load_n(w, __ATOMIC_ACQUIRE);
}

static void store32(volatile uint32_t *w, uint32_t v)
{
	__atomic_store_n(w, v, __ATOMIC_RELEASE);
}

/*
 * The selected AP's standing job (inside ap_job): each posted piece of
 * work at once, with no firmware call and no CR3 write in between, so the
 * TLB lives on from run to run as on the BSP; CR3 is written again only
 * when our tables have changed since the last piece.
 */
static void standing_fn(void *arg)
{
	struct mp_efi_cpus *c = arg;
	uint64_t tables = c->tables;
	uint32_t st;

	for (;;) {
		while ((st = load32(&c->standing_state)) == S_IDLE)
			mp_x86_pause();
		if (st == S_QUIT)
			return;
		if (c->tables != tables) {
			tables = c->tables;
			mp_x86_write_cr3(mp_x86_read_cr3());
		}
		mp_x86_serialize();
		c->posted->fn(c->posted->arg);
		store32(&c->standing_state, S_IDLE);
	}
}

static void post(struct mp_efi_cpus *c, struct mp_efi_job *j)
{
	c->posted = j;
	store32(&c->standing_state, S_WORK);
}

static void posted_wait(struct mp_efi_cpus *c)
{
	while (load32(&c->standing_state) != S_IDLE)
		mp_x86_pause();
}

/*
 * A job on `cpu` until it is over: the BSP runs it itself, the selected
 * AP's standing job takes it, another AP runs it through the firmware.
 */
static enum mp_status job_run(struct mp_efi_cpus *c, uint32_t cpu, struct mp_efi_job *j)
{
	j->c = c;
	j->done = 0;
	if (cpu == 0) {
		j->fn(j->arg);
		return MP_OK;
	}
	if (cpu == c->standing_cpu) {
		post(c, j);
		posted_wait(c);
		return MP_OK;
	}
	return fw_call(c, mp_fw_mp_run, cpu, j) == MP_FW_OK ? MP_OK : MP_EIO;
}

/* A job on AP `cpu` that runs on while the caller goes on; job_end waits for it. */
static enum mp_status job_start(struct mp_efi_cpus *c, uint32_t cpu, struct mp_efi_job *j)
{
	j->c = c;
	j->done = 0;
	if (cpu == c->standing_cpu) {
		post(c, j);
		return MP_OK;
	}
	return fw_call(c, mp_fw_mp_start, cpu, j) == MP_FW_OK ? MP_OK : MP_EIO;
}

static enum mp_fw_status reclaim(uint32_t n, mp_fw_ap_fn fn, void *arg)
{
	(void)fn;
	(void)arg;
	return mp_fw_mp_reclaim(n);
}

/*
 * The started job's end, then the AP idle for the firmware.  After a
 * failure of its partner the job may never end: the firmware's timeout on
 * the reclaiming run resets the AP then; a standing job so stuck is given
 * up.
 */
static void job_end(struct mp_efi_cpus *c, uint32_t cpu, struct mp_efi_job *j, bool partner_ok)
{
	if (cpu == c->standing_cpu) {
		if (partner_ok)
			posted_wait(c);
		else
			c->standing_cpu = 0;
		return;
	}
	while (partner_ok && !__atomic_load_n(&j->done, __ATOMIC_ACQUIRE))
		mp_x86_pause();
	fw_call(c, reclaim, cpu, j);
}

/* The standing job told to end, and its AP idle in the firmware again. */
static void standing_stop(struct mp_efi_cpus *c)
{
	uint32_t cpu = c->standing_cpu;

	if (cpu == 0)
		return;
	c->standing_cpu = 0;
	store32(&c->standing_state, S_QUIT);
	job_end(c, cpu, &c->standing, true);
}

enum mp_status mp_efi_cpus_select(struct mp_efi_cpus *c, uint32_t cpu)
{
	if (cpu >= c->n)
		return MP_EIO;
	if (cpu == c->selected)
		return MP_OK;
	standing_stop(c);
	if (cpu != 0) {
		c->standing = (struct mp_efi_job){ .fn = standing_fn, .arg = c };
		c->standing_state = S_IDLE;
		if (job_start(c, cpu, &c->standing) != MP_OK)
			return MP_EIO;
		c->standing_cpu = cpu;
	}
	c->selected = cpu;
	return MP_OK;
}

/*
 * Two jobs at once on two CPUs: `bg` started on its AP, `fg` run to its
 * end; where bg's CPU is the BSP, the other way round.
 */
static enum mp_status job_pair(struct mp_efi_cpus *c, uint32_t bg_cpu, struct mp_efi_job *bg,
			       uint32_t fg_cpu, struct mp_efi_job *fg)
{
	bool swap = bg_cpu == 0;
	uint32_t start_cpu = swap ? fg_cpu : bg_cpu, run_cpu = swap ? bg_cpu : fg_cpu;
	struct mp_efi_job *start = swap ? fg : bg, *run = swap ? bg : fg;
	enum mp_status st;

	if (job_start(c, start_cpu, start) != MP_OK)
		return MP_EIO;
	st = job_run(c, run_cpu, run);
	job_end(c, start_cpu, start, st == MP_OK);
	return st;
}

struct run_args {
	const struct mp_x86_pmc *pmc;
	const struct mp_run *r;
	struct mp_sample *s;
	enum mp_status st;
};

static void run_fn(void *arg)
{
	struct run_args *a = arg;

	a->st = mp_x86_run(a->pmc, a->r, a->s);
}

enum mp_status mp_efi_cpus_run(struct mp_efi_cpus *c, const struct mp_x86_pmc *pmc,
			       const struct mp_run *r, struct mp_sample *s)
{
	struct run_args a = { c->selected ? NULL : pmc, r, s, MP_EIO };
	struct mp_efi_job j = { .fn = run_fn, .arg = &a };

	if (c->selected == 0)
		return mp_x86_run(pmc, r, s);
	return job_run(c, c->selected, &j) == MP_OK ? a.st : MP_EIO;
}

static void flush_fn(void *arg)
{
	(void)arg;
	mp_x86_wbinvd();
	mp_x86_write_cr3(mp_x86_read_cr3());
}

enum mp_status mp_efi_cpus_flush_all(struct mp_efi_cpus *c)
{
	struct mp_efi_job j = { .fn = flush_fn };

	return job_run(c, c->selected, &j);
}

struct beside_args {
	struct mp_x86_beside b;
	struct run_args run;
};

static void load_fn(void *arg)
{
	mp_x86_beside_load(&((struct beside_args *)arg)->b);
}

static void beside_fn(void *arg)
{
	struct beside_args *a = arg;

	a->run.st = mp_x86_beside_run(&a->b, a->run.pmc, a->run.r, a->run.s);
}

enum mp_status mp_efi_cpus_run_beside(struct mp_efi_cpus *c, const struct mp_x86_pmc *pmc,
				      const struct mp_run *r, struct mp_sample *out,
				      uint32_t other, const struct mp_run *load)
{
	struct beside_args a = { .b = { .load = load },
				 .run = { c->selected ? NULL : pmc, r, out, MP_EIO } };
	struct mp_efi_job loader = { .fn = load_fn, .arg = &a }, measured = { .fn = beside_fn, .arg = &a };

	if (other >= c->n)
		return MP_EIO;
	if (other == c->selected)
		return MP_UNSUPPORTED;
	if (job_pair(c, other, &loader, c->selected, &measured) != MP_OK)
		return MP_EIO;
	return a.run.st;
}

struct side_args {
	struct mp_x86_pingpong *pp;
	bool first;
};

static void side_fn(void *arg)
{
	struct side_args *a = arg;

	mp_x86_pingpong_side(a->pp, a->first);
}

enum mp_status mp_efi_cpus_pingpong(struct mp_efi_cpus *c, uint32_t a, uint32_t b, void *line,
				    uint64_t rounds, struct mp_sample *out)
{
	struct mp_x86_pingpong pp = { .line = line, .rounds = rounds };
	struct side_args sa = { &pp, true }, sb = { &pp, false };
	struct mp_efi_job ja = { .fn = side_fn, .arg = &sa }, jb = { .fn = side_fn, .arg = &sb };

	if (a >= c->n || b >= c->n || a == b)
		return MP_EIO;
	*(volatile uint64_t *)line = 0;
	if (job_pair(c, b, &jb, a, &ja) != MP_OK)
		return MP_EIO;
	mp_memset(out, 0, sizeof(*out));
	out->ticks = pp.ticks;
	return MP_OK;
}

/* What an AP's CPUID says of it. */
static void cpuid_fn(void *arg)
{
	struct mp_cpuid id;

	mp_cpuid_open(&id, mp_cpuid_hw, NULL);
	mp_cpuid_cpu_info(&id, arg);
}

/* Where CPUID is silent, the firmware's location. */
static void merge(struct mp_cpu_info *i, const struct mp_fw_cpu *f)
{
	if (i->apic_id == MP_CPU_UNKNOWN)
		i->apic_id = (uint32_t)f->apic_id;
	if (i->package == MP_CPU_UNKNOWN)
		i->package = f->package;
	if (i->core == MP_CPU_UNKNOWN)
		i->core = f->core;
	if (i->thread == MP_CPU_UNKNOWN)
		i->thread = f->thread;
}

static void put_id(struct mp_buf *b, const char *name, uint32_t v)
{
	if (v == MP_CPU_UNKNOWN)
		mp_buf_printf(b, " %s -", name);
	else
		mp_buf_printf(b, " %s %u", name, (unsigned)v);
}

/* What the CPU's CPUID told ("-" where it did not), then the firmware's location. */
static void log_cpu(struct mp_platform *p, uint32_t cpu, const struct mp_cpu_info *i,
		    const struct mp_fw_cpu *f)
{
	char line[200];
	struct mp_buf b;

	mp_buf_init(&b, line, sizeof(line));
	mp_buf_printf(&b, "cpu %u:", (unsigned)cpu);
	put_id(&b, "x2APIC ID", i->apic_id);
	put_id(&b, "package", i->package);
	put_id(&b, "die", i->die);
	put_id(&b, "cluster", i->cluster);
	put_id(&b, "core", i->core);
	put_id(&b, "thread", i->thread);
	if (i->type[0])
		mp_buf_printf(&b, " type %s", i->type);
	mp_buf_printf(&b, " (firmware: APIC ID %llu package %u core %u thread %u%s)",
		      (unsigned long long)f->apic_id, (unsigned)f->package, (unsigned)f->core,
		      (unsigned)f->thread, f->bsp ? ", BSP" : "");
	mp_log(p, MP_LOG_INFO, line);
}

/* The firmware's processor n as seam CPU c->n, if it is enabled and its job came back. */
static void add_cpu(struct mp_platform *p, struct mp_efi_cpus *c, uint32_t n)
{
	struct mp_fw_cpu f = { 0 };
	struct mp_efi_job j = { .fn = cpuid_fn, .arg = &c->info[c->n] };

	if (mp_fw_mp_cpu(n, &f) != MP_FW_OK || !f.enabled) {
		mp_logf(p, MP_LOG_WARN, "processor %u: %s: not used", (unsigned)n,
			f.enabled ? "the firmware does not describe it" : "disabled");
		return;
	}
	c->fw[c->n] = n;
	if (job_run(c, c->n, &j) != MP_OK) {
		mp_logf(p, MP_LOG_WARN, "processor %u (APIC ID %llu): did not run a job: not used",
			(unsigned)n, (unsigned long long)f.apic_id);
		return;
	}
	log_cpu(p, c->n, &c->info[c->n], &f);
	merge(&c->info[c->n], &f);
	c->n++;
}

/* The BSP alone, its place from its CPUID. */
static void single(struct mp_platform *p, struct mp_efi_cpus *c, const char *why,
		   struct mp_result *r)
{
	char text[MP_TEXT_LEN];

	cpuid_fn(&c->info[0]);
	c->n = 1;
	mp_snprintf(text, sizeof(text), "uefi: one logical CPU, the boot processor: %s", why);
	mp_log(p, MP_LOG_WARN, text);
	mp_result_add_note(r, text);
}

void mp_efi_cpus_open(struct mp_platform *p, struct mp_efi_cpus *c, struct mp_result *r)
{
	uint32_t count = 1, self = 0;
	char why[120];
	bool mp = mp_fw_mp_open(&count, &self, why, sizeof(why));

	c->n = c->selected = c->standing_cpu = 0;
	c->fw = &c->fw0;
	c->info = &c->info0;
	if (!mp) {
		single(p, c, why, r);
		return;
	}
	c->fw = mp_fw_pool_alloc(count * sizeof(*c->fw));
	c->info = mp_fw_pool_alloc(count * sizeof(*c->info));
	if (!c->fw || !c->info) {
		mp_efi_cpus_close(c);
		single(p, c, "no memory for the processors' table", r);
		return;
	}
	add_cpu(p, c, self);
	if (c->n == 0) {
		single(p, c, "the MP services do not describe the boot processor", r);
		return;
	}
	for (uint32_t n = 0; n < count; n++)
		if (n != self)
			add_cpu(p, c, n);
	mp_logf(p, MP_LOG_INFO, "logical CPUs: %u of the firmware's %u; %u APs started, ran a job "
		"and came back; each stays idle in the firmware unless it is measuring",
		(unsigned)c->n, (unsigned)count, (unsigned)(c->n - 1));
}

void mp_efi_cpus_close(struct mp_efi_cpus *c)
{
	standing_stop(c);
	c->selected = 0;
	mp_fw_mp_close();
	if (c->fw && c->fw != &c->fw0)
		mp_fw_pool_free(c->fw);
	if (c->info && c->info != &c->info0)
		mp_fw_pool_free(c->info);
	c->fw = &c->fw0;
	c->info = &c->info0;
}
