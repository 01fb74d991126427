/* SPDX-License-Identifier: MIT */
/*
 * Fault-safe RDMSR and WRMSR.  An MSR the CPU (or a hypervisor) lacks
 * raises #GP(0) (Intel SDM Vol. 2B, RDMSR and WRMSR, "Protected Mode
 * Exceptions"); firmware's #GP handler prints a register dump and stops
 * the machine.  So every access loads a copy of the firmware's IDT whose
 * #GP gate points to our handler (msr_entry.S), with interrupts masked, and the
 * firmware's IDT again right after: a #GP at one of our two RDMSR/WRMSR
 * instructions skips the instruction and the access answers false; any
 * other #GP goes on to the firmware's handler.  Ring 0 only: the UEFI
 * application calls these, the Linux command never does.
 */
#ifndef MEMPROBE_ARCH_X86_64_MSR_H
#define MEMPROBE_ARCH_X86_64_MSR_H

#include <stdbool.h>
#include <stdint.h>

/* IA32_PKRS (SDM Vol. 4, Table 2-2): bits 63:32 are reserved, so a write of
 * bit 32 raises #GP on every CPU, with or without the MSR.  mp_x86_msr_check
 * makes that write to see the handler work. */
#define MP_MSR_IA32_PKRS 0x6e1u

/* false when the access raised #GP (the MSR does not exist or refuses the value). */
bool mp_x86_msr_read(uint32_t msr, uint64_t *v);
bool mp_x86_msr_write(uint32_t msr, uint64_t v);

/*
 * Provoke one #GP (a reserved bit of IA32_PKRS) and see our handler answer
 * it.  False means it did not: the write did not fault (a hypervisor that
 * ignores invalid MSR writes, such as KVM with ignore_msrs), or the
 * firmware's IDT has no #GP gate to copy.
 */
bool mp_x86_msr_check(void);

/* MSR access as data: the instructions above, or a fake in the tests. */
struct mp_msr_io {
	bool (*read)(void *arg, uint32_t msr, uint64_t *v);
	bool (*write)(void *arg, uint32_t msr, uint64_t v);
	void *arg;
};

/* mp_x86_msr_read / mp_x86_msr_write as an mp_msr_io. */
extern const struct mp_msr_io mp_x86_msr_io;

/* The 16-byte IDT gate's handler offset (SDM Vol. 3A, section 6.14.1, Figure 6-8). */
uint64_t mp_idt_gate_offset(const uint8_t gate[16]);
void mp_idt_gate_set_offset(uint8_t gate[16], uint64_t offset);

#endif
