/* SPDX-License-Identifier: MIT */
/*
 * The logical CPUs on bare metal (docs/uefi.md, "The other processors"):
 * the processors the firmware's MP services count and enabled, the boot
 * processor (BSP) first.  Work for an AP is a job the firmware starts there
 * (StartupThisAP); the job masks interrupts, loads our page tables and the
 * BSP's vector state, runs, and puts the AP's own back.  The selected AP
 * keeps one standing job that takes each run the BSP posts to it; APs not
 * running a job stay idle in the firmware.
 */
#ifndef MEMPROBE_PLATFORM_EFI_CPUS_H
#define MEMPROBE_PLATFORM_EFI_CPUS_H

#include "arch/x86_64/x86.h"
#include "core/platform.h"
#include "core/results/result.h"
#include "platform/efi/mmu.h"

/* Work for one CPU: fn(arg), and the flag an AP job sets when it is over. */
struct mp_efi_job {
	struct mp_efi_cpus *c;
	void (*fn)(void *arg);
	void *arg;
	volatile uint32_t done;
};

struct mp_efi_cpus {
	uint32_t n;                 /* logical CPUs the seam offers */
	uint32_t selected;
	uint32_t *fw;               /* the firmware's number of each */
	struct mp_cpu_info *info;   /* each one's place, read at open */
	struct mp_efi_mmu *mmu;     /* our tables, which a job loads */
	uint64_t xcr0;              /* the BSP's XCR0 for the session, 0 without XSAVE */
	/* around each firmware call: the firmware's page tables and interrupt state */
	void (*fw_begin)(void *ctx), (*fw_end)(void *ctx);
	void *fw_ctx;
	volatile uint64_t tables;   /* changes when our page tables do (mem_alloc, mem_free) */
	/* the selected AP's standing job and the work posted to it */
	uint32_t standing_cpu;      /* 0: none */
	volatile uint32_t standing_state;
	struct mp_efi_job standing, *posted;
	uint32_t fw0;               /* fw and info when there is no memory for more: the BSP's */
	struct mp_cpu_info info0;
};

/*
 * Count the CPUs and read each one's place from its own CPUID (an AP job
 * each, so every AP has started and come back once); log them.  Without
 * MP services: one CPU, the BSP, and a note in r.  c comes with mmu, xcr0
 * and the fw_ bracket set.
 */
void mp_efi_cpus_open(struct mp_platform *p, struct mp_efi_cpus *c, struct mp_result *r);
void mp_efi_cpus_close(struct mp_efi_cpus *c);

/* Later runs on `cpu`: an AP gets a standing job, the one selected before is let go. */
enum mp_status mp_efi_cpus_select(struct mp_efi_cpus *c, uint32_t cpu);

/* run on the selected CPU: the BSP's own counters there, none on an AP. */
enum mp_status mp_efi_cpus_run(struct mp_efi_cpus *c, const struct mp_x86_pmc *pmc,
			       const struct mp_run *r, struct mp_sample *s);
/* flush_all on the selected CPU: wbinvd, and its TLB by writing CR3 back. */
enum mp_status mp_efi_cpus_flush_all(struct mp_efi_cpus *c);
enum mp_status mp_efi_cpus_run_beside(struct mp_efi_cpus *c, const struct mp_x86_pmc *pmc,
				      const struct mp_run *r, struct mp_sample *out,
				      uint32_t other, const struct mp_run *load);
enum mp_status mp_efi_cpus_pingpong(struct mp_efi_cpus *c, uint32_t a, uint32_t b, void *line,
				    uint64_t rounds, struct mp_sample *out);

#endif
