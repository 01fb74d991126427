/* SPDX-License-Identifier: MIT */
/*
 * Privileged instructions for the bare-metal platform: port I/O, the
 * interrupt flag and the cache write-back.  Each faults outside ring 0
 * (Intel SDM Vol. 2: IN, OUT, CLI, STI and WBINVD check CPL and IOPL), so
 * only the UEFI application may call them; the Linux command never does.
 */
#ifndef MEMPROBE_ARCH_X86_64_RING0_H
#define MEMPROBE_ARCH_X86_64_RING0_H

#include <stdint.h>

/* RFLAGS.IF, the interrupt enable flag (Intel SDM Vol. 1, section 3.4.3.3). */
#define MP_X86_RFLAGS_IF (1ull << 9)

static inline void mp_x86_outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t mp_x86_inb(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* Mask maskable interrupts; returns RFLAGS as it was, for mp_x86_irq_restore. */
static inline uint64_t mp_x86_irq_save(void)
{
	uint64_t flags;

	__asm__ volatile("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

/* Unmask interrupts again if they were enabled when mp_x86_irq_save ran. */
static inline void mp_x86_irq_restore(uint64_t flags)
{
	if (flags & MP_X86_RFLAGS_IF)
		__asm__ volatile("sti" : : : "memory");
}

/* Write back and invalidate every cache level (Intel SDM Vol. 2B, WBINVD). */
static inline void mp_x86_wbinvd(void)
{
	__asm__ volatile("wbinvd" : : : "memory");
}

#endif
