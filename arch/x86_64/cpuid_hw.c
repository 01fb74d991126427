/* SPDX-License-Identifier: MIT */
/* The CPUID instruction behind mp_cpuid_fn (Intel SDM Vol. 2A, CPUID). */
#include "arch/x86_64/cpuid.h"

void mp_cpuid_hw(void *arg, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	(void)arg;
	__asm__ volatile("cpuid"
			 : "=a"(regs[MP_EAX]), "=b"(regs[MP_EBX]), "=c"(regs[MP_ECX]),
			   "=d"(regs[MP_EDX])
			 : "a"(leaf), "c"(subleaf));
}
