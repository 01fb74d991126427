/* SPDX-License-Identifier: MIT */
/*
 * The IDT copy that routes #GP to msr_entry.S while one MSR instruction runs
 * (arch/x86_64/msr.h).  The copy is made from the firmware's IDT at the
 * first access, and again whenever the firmware's IDTR changes; it is
 * loaded with interrupts masked and only around the instruction, so every
 * interrupt and every other exception reaches the firmware's own IDT (an
 * NMI in between finds the copied gate).
 */
#include "arch/x86_64/msr.h"
#include "arch/x86_64/ring0.h"
#include "core/lib/str.h"

/* #GP is vector 13 (SDM Vol. 3A, Table 6-1 "Protected-Mode Exceptions and Interrupts"). */
#define VEC_GP 13u
/* 64-bit IDT gates are 16 bytes, at most 256 of them (SDM Vol. 3A, section 6.14.1). */
#define GATE_BYTES 16u
#define IDT_MAX_BYTES (256u * GATE_BYTES)

/* The IDTR image of SIDT and LIDT (SDM Vol. 3A, section 6.10, Figure 6-1). */
struct __attribute__((packed)) idtr {
	uint16_t limit;
	uint64_t base;
};

bool mp_x86_rdmsr_guarded(uint32_t msr, uint64_t *v);
bool mp_x86_wrmsr_guarded(uint32_t msr, uint64_t v);
extern char mp_x86_gp_handler[];
extern uint64_t mp_x86_gp_chain;

static uint8_t idt_copy[IDT_MAX_BYTES] __attribute__((aligned(16)));
static struct idtr ours;       /* the copy */
static struct idtr copied;     /* the firmware's IDTR when the copy was made */
static uint64_t faults;        /* accesses the handler answered */

uint64_t mp_idt_gate_offset(const uint8_t gate[16])
{
	return (uint64_t)gate[0] | (uint64_t)gate[1] << 8 | (uint64_t)gate[6] << 16 |
	       (uint64_t)gate[7] << 24 | (uint64_t)gate[8] << 32 | (uint64_t)gate[9] << 40 |
	       (uint64_t)gate[10] << 48 | (uint64_t)gate[11] << 56;
}

/* Offset bits 15:0 in bytes 0-1, 31:16 in bytes 6-7, 63:32 in bytes 8-11; the
 * selector, IST, type, DPL and P stay as they are. */
void mp_idt_gate_set_offset(uint8_t gate[16], uint64_t offset)
{
	static const uint8_t at[8] = { 0, 1, 6, 7, 8, 9, 10, 11 };

	for (unsigned i = 0; i < 8; i++)
		gate[at[i]] = (uint8_t)(offset >> (8 * i));
}

static void sidt(struct idtr *d)
{
	__asm__ volatile("sidt %0" : "=m"(*d));
}

static void lidt(const struct idtr *d)
{
	__asm__ volatile("lidt %0" : : "m"(*d) : "memory");
}

/* The copy for this firmware IDTR, made when it changed; false if the IDT has no #GP gate. */
static bool copy_ready(const struct idtr *fw)
{
	uint32_t bytes = (uint32_t)fw->limit + 1;
	uint8_t *gp = idt_copy + VEC_GP * GATE_BYTES;

	if (fw->base == copied.base && fw->limit == copied.limit && ours.base)
		return true;
	if (bytes > IDT_MAX_BYTES || bytes < (VEC_GP + 1) * GATE_BYTES)
		return false;
	mp_memcpy(idt_copy, (const void *)(uintptr_t)fw->base, bytes);
	mp_x86_gp_chain = mp_idt_gate_offset(gp);
	mp_idt_gate_set_offset(gp, (uint64_t)(uintptr_t)mp_x86_gp_handler);
	ours.limit = fw->limit;
	ours.base = (uint64_t)(uintptr_t)idt_copy;
	copied = *fw;
	return true;
}

/* One instruction with the copy loaded and interrupts masked. */
static bool guarded(uint32_t msr, uint64_t *v, bool write)
{
	uint64_t flags = mp_x86_irq_save();
	struct idtr fw;
	bool ok;

	sidt(&fw);
	ok = copy_ready(&fw);
	if (ok) {
		lidt(&ours);
		ok = write ? mp_x86_wrmsr_guarded(msr, *v) : mp_x86_rdmsr_guarded(msr, v);
		lidt(&fw);
		faults += ok ? 0 : 1;
	}
	mp_x86_irq_restore(flags);
	return ok;
}

bool mp_x86_msr_read(uint32_t msr, uint64_t *v)
{
	return guarded(msr, v, false);
}

bool mp_x86_msr_write(uint32_t msr, uint64_t v)
{
	return guarded(msr, &v, true);
}

bool mp_x86_msr_check(void)
{
	uint64_t before = faults;

	mp_x86_msr_write(MP_MSR_IA32_PKRS, 1ull << 32);
	return faults == before + 1;
}

static bool io_read(void *arg, uint32_t msr, uint64_t *v)
{
	(void)arg;
	return mp_x86_msr_read(msr, v);
}

static bool io_write(void *arg, uint32_t msr, uint64_t v)
{
	(void)arg;
	return mp_x86_msr_write(msr, v);
}

const struct mp_msr_io mp_x86_msr_io = { .read = io_read, .write = io_write, .arg = NULL };
