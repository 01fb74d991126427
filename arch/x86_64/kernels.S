/* SPDX-License-Identifier: MIT */
/*
 * Measurement kernels.  Written in assembly so that the instructions inside
 * the timed region are exactly these, whatever the compiler and flags.
 * System V calling convention (the UEFI build calls them from code compiled
 * for the same convention; uefi_call_wrapper is only used for firmware).
 */
	.text

/*
 * uint64_t mp_x86_tsc_begin(void): mfence waits for earlier stores and line
 * flushes (CLFLUSHOPT's are not ordered by anything else), lfence orders
 * rdtsc after earlier work, and the lfence after it keeps the timed loads
 * from starting before the read: rdtsc takes tens of cycles (about 40 on
 * AMD Zen), and a load that overlaps it hides that much of its latency
 * (on an AMD EPYC guest, a one-load run read an L1, L2 and L3 hit alike).
 */
	.globl mp_x86_tsc_begin
mp_x86_tsc_begin:
	mfence
	lfence
	rdtsc
	lfence
	shl	$32, %rdx
	or	%rdx, %rax
	ret

/*
 * uint64_t mp_x86_tsc_end(void): the first lfence waits for every earlier
 * instruction (the timed loads) to complete, the second keeps later work
 * from starting before the read.  Not rdtscp: older CPUs and QEMU's
 * default CPU models lack it.
 */
	.globl mp_x86_tsc_end
mp_x86_tsc_end:
	lfence
	rdtsc
	lfence
	shl	$32, %rdx
	or	%rdx, %rax
	ret

/* void *mp_x86_chase(void *start, uint64_t steps): steps dependent loads, unrolled by 8. */
	.globl mp_x86_chase
mp_x86_chase:
	mov	%rdi, %rax
	mov	%rsi, %rcx
	shr	$3, %rcx
	jz	2f
1:	mov	(%rax), %rax
	mov	(%rax), %rax
	mov	(%rax), %rax
	mov	(%rax), %rax
	mov	(%rax), %rax
	mov	(%rax), %rax
	mov	(%rax), %rax
	mov	(%rax), %rax
	dec	%rcx
	jnz	1b
2:	and	$7, %rsi
	jz	4f
3:	mov	(%rax), %rax
	dec	%rsi
	jnz	3b
4:	ret

/*
 * void mp_x86_load_sweep(base, stride, count, steps) and
 * void mp_x86_store_sweep(base, stride, count, steps): independent loads
 * (stores) of base + i*stride, i wrapping at count.  One loop shape, the
 * access instruction given by the macro's argument.
 */
	.macro SWEEP name, access:vararg
	.globl \name
\name:
	test	%rcx, %rcx
	jz	3f
	mov	%rdx, %r8		/* elements left before wrapping */
	mov	%rdi, %r9		/* current address */
1:	\access
	add	%rsi, %r9
	dec	%r8
	jnz	2f
	mov	%rdi, %r9
	mov	%rdx, %r8
2:	dec	%rcx
	jnz	1b
3:	ret
	.endm

	SWEEP mp_x86_load_sweep, mov (%r9), %rax
	SWEEP mp_x86_store_sweep, mov %r9, (%r9)

/*
 * void *mp_x86_code_run(void *entry, uint64_t steps): run `steps` blocks of
 * a chain built by mp_x86_code_build (arch/x86_64/code.c); each block
 * decrements %rdi, and the one that reaches zero returns the next block's
 * address in %rax.  No steps: entry itself.
 */
	.globl mp_x86_code_run
mp_x86_code_run:
	mov	%rdi, %rax
	mov	%rsi, %rdi
	test	%rdi, %rdi
	jz	1f
	call	*%rax
1:	ret

/*
 * void mp_x86_kernel_run(void *entry, uint64_t steps): run an arithmetic
 * kernel (arch/x86_64/arith.c) for steps > 0 iterations.  Its code may use
 * every general register but %rsp: the callee-saved ones are kept here.
 */
	.globl mp_x86_kernel_run
mp_x86_kernel_run:
	push	%rbx
	push	%rbp
	push	%r12
	push	%r13
	push	%r14
	push	%r15
	mov	%rdi, %rax
	mov	%rsi, %rdi
	call	*%rax
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbp
	pop	%rbx
	ret

/* void mp_x86_serialize(void): CPUID, a serializing instruction (SDM Vol. 3A, "Serializing Instructions"). */
	.globl mp_x86_serialize
mp_x86_serialize:
	push	%rbx
	xor	%eax, %eax
	xor	%ecx, %ecx
	cpuid
	pop	%rbx
	ret

/* uint64_t mp_x86_xgetbv(uint32_t xcr): XGETBV (SDM Vol. 2C); only where CPUID says OSXSAVE. */
	.globl mp_x86_xgetbv
mp_x86_xgetbv:
	mov	%edi, %ecx
	xgetbv
	shl	$32, %rdx
	or	%rdx, %rax
	ret

/*
 * void mp_x86_add_chain(uint64_t n): n dependent adds, unrolled by 8.  The
 * addend is a register: Intel's renamer since Golden Cove folds an add of a
 * small immediate into the register it renames, so that a chain of them
 * runs several a cycle and would read as a clock several times too fast
 * (docs/algorithms.md, "Timing discipline", units).
 */
	.globl mp_x86_add_chain
mp_x86_add_chain:
	xor	%eax, %eax
	mov	$1, %edx
	shr	$3, %rdi
	jz	2f
1:	add	%rdx, %rax
	add	%rdx, %rax
	add	%rdx, %rax
	add	%rdx, %rax
	add	%rdx, %rax
	add	%rdx, %rax
	add	%rdx, %rax
	add	%rdx, %rax
	dec	%rdi
	jnz	1b
2:	ret

/* void mp_x86_clflush(const void *addr) */
	.globl mp_x86_clflush
mp_x86_clflush:
	clflush	(%rdi)
	mfence
	ret

/* void mp_x86_clflushopt(const void *addr): not waited for (see mp_x86_tsc_begin). */
	.globl mp_x86_clflushopt
mp_x86_clflushopt:
	clflushopt	(%rdi)
	ret

	.section .note.GNU-stack,"",@progbits
