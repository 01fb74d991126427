/* SPDX-License-Identifier: MIT */
/*
 * A small x86-64 instruction encoder for generated kernels (arch/x86_64/
 * arith.c): the legacy SSE, VEX and EVEX forms of register-register
 * vector operations and RIP-relative loads, and the few general-register
 * instructions the integer kernels use.  Encodings: Intel SDM Vol. 2A,
 * chapter 2 ("Instruction Format", "VEX", "EVEX") and each instruction's
 * page; AMD APM Vol. 3 describes the same.
 */
#ifndef MEMPROBE_ARCH_X86_64_ENC_H
#define MEMPROBE_ARCH_X86_64_ENC_H

#include <stdbool.h>
#include <stdint.h>

/* Where the next byte goes; `full` once a write did not fit. */
struct mp_enc {
	uint8_t *at;
	uint8_t *end;
	bool full;
};

/* Encodings of a vector instruction: the SIMD prefix, the opcode map, REX.W / VEX.W / EVEX.W. */
enum mp_enc_form { MP_ENC_LEGACY = 0, MP_ENC_VEX, MP_ENC_EVEX };
enum mp_enc_pp { MP_PP_NONE = 0, MP_PP_66 = 1, MP_PP_F3 = 2, MP_PP_F2 = 3 };
enum mp_enc_map { MP_MAP_0F = 1, MP_MAP_0F38 = 2 };

struct mp_enc_op {
	enum mp_enc_pp pp;
	enum mp_enc_map map;
	uint8_t opcode;
	uint8_t w;
};

/* Vector length: 0 for scalar and 128-bit, 1 for 256, 2 for 512 (EVEX L'L). */
struct mp_enc_vec {
	enum mp_enc_form form;
	unsigned len;
};

void mp_enc_byte(struct mp_enc *e, uint8_t b);
void mp_enc_u32(struct mp_enc *e, uint32_t v);
void mp_enc_u64(struct mp_enc *e, uint64_t v);

/* op reg, src2 (register form); src1 the VEX/EVEX vvvv operand (ignored in legacy form). */
void mp_enc_vreg(struct mp_enc *e, struct mp_enc_vec v, const struct mp_enc_op *op, unsigned reg,
		 unsigned src1, unsigned src2);
/* op reg, [rip + disp] with disp such that the operand is at `target`. */
void mp_enc_vload(struct mp_enc *e, struct mp_enc_vec v, const struct mp_enc_op *op, unsigned reg,
		  const uint8_t *target);

/* General registers (numbers 0-15: rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8-r15). */
void mp_enc_rr(struct mp_enc *e, const uint8_t *opcode, unsigned n, unsigned reg, unsigned rm);
void mp_enc_mov_imm(struct mp_enc *e, unsigned reg, uint64_t imm);

#endif
