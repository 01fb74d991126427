/* SPDX-License-Identifier: MIT */
/*
 * The guarded MSR instructions and the #GP handler that guards them
 * (arch/x86_64/msr.h).  msr.c loads an IDT whose #GP gate points to
 * mp_x86_gp_handler only around a call of the two accessors below, with
 * interrupts masked.
 *
 * A fault at one of the two sites is ours: the handler moves the saved RIP
 * past the instruction (RDMSR is 0F 32, WRMSR 0F 30: two bytes; Intel SDM
 * Vol. 2B), sets %r8 to 1, which the accessor cleared and reads after the
 * instruction, drops the error code and returns with IRETQ.  Any other #GP
 * jumps to the firmware's handler with the stack as the CPU left it.
 *
 * The stack at entry (SDM Vol. 3A, section 6.14.2, Figure 6-9, 64-bit mode,
 * no privilege change): error code, RIP, CS, RFLAGS, RSP, SS.
 */
#define MSR_INSN_BYTES 2

	.text

/* bool mp_x86_rdmsr_guarded(uint32_t msr, uint64_t *v) */
	.globl mp_x86_rdmsr_guarded
mp_x86_rdmsr_guarded:
	mov	%edi, %ecx
	xor	%r8d, %r8d
mp_x86_rdmsr_site:
	rdmsr
	test	%r8d, %r8d
	jnz	1f
	shl	$32, %rdx
	or	%rdx, %rax
	mov	%rax, (%rsi)
	mov	$1, %eax
	ret
1:	xor	%eax, %eax
	ret

/* bool mp_x86_wrmsr_guarded(uint32_t msr, uint64_t v) */
	.globl mp_x86_wrmsr_guarded
mp_x86_wrmsr_guarded:
	mov	%edi, %ecx
	mov	%rsi, %rax
	mov	%rsi, %rdx
	shr	$32, %rdx
	xor	%r8d, %r8d
mp_x86_wrmsr_site:
	wrmsr
	xor	%eax, %eax
	test	%r8d, %r8d
	sete	%al
	ret

/* The #GP handler: the two sites above, else the firmware's handler. */
	.globl mp_x86_gp_handler
mp_x86_gp_handler:
	push	%rax
	push	%rcx
	mov	24(%rsp), %rax		/* RIP: above %rcx, %rax and the error code */
	lea	mp_x86_rdmsr_site(%rip), %rcx
	cmp	%rcx, %rax
	je	1f
	lea	mp_x86_wrmsr_site(%rip), %rcx
	cmp	%rcx, %rax
	je	1f
	pop	%rcx
	pop	%rax
	jmp	*mp_x86_gp_chain(%rip)
1:	add	$MSR_INSN_BYTES, %rax
	mov	%rax, 24(%rsp)
	mov	$1, %r8d
	pop	%rcx
	pop	%rax
	add	$8, %rsp		/* the error code */
	iretq

	.data
	.balign 8
/* The firmware's #GP handler, taken from its IDT by msr.c. */
	.globl mp_x86_gp_chain
mp_x86_gp_chain:
	.quad	0

	.section .note.GNU-stack,"",@progbits
