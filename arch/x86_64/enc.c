/* SPDX-License-Identifier: MIT */
#include "arch/x86_64/enc.h"

#define REX 0x40u
#define REX_W 0x08u
#define REX_R 0x04u
#define REX_B 0x01u
#define VEX3 0xc4u
#define EVEX 0x62u
#define ESC 0x0fu
#define ESC_38 0x38u
#define MODRM_REG 0xc0u            /* mod 11: register operand */
#define MODRM_RIP 0x05u            /* mod 00, rm 101: [rip + disp32] in 64-bit mode */
#define MOV_IMM64 0xb8u            /* REX.W B8+r io: MOV r64, imm64 */

static const uint8_t legacy_prefix[] = { [MP_PP_66] = 0x66, [MP_PP_F3] = 0xf3, [MP_PP_F2] = 0xf2 };

void mp_enc_byte(struct mp_enc *e, uint8_t b)
{
	if (e->at >= e->end) {
		e->full = true;
		return;
	}
	*e->at++ = b;
}

void mp_enc_u32(struct mp_enc *e, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		mp_enc_byte(e, (uint8_t)(v >> (8 * i)));
}

void mp_enc_u64(struct mp_enc *e, uint64_t v)
{
	mp_enc_u32(e, (uint32_t)v);
	mp_enc_u32(e, (uint32_t)(v >> 32));
}

static uint8_t hi(unsigned r)
{
	return (r >> 3) & 1u;
}

/* Legacy SSE: [66/F2/F3] [REX] 0F [38] opcode. */
static void legacy(struct mp_enc *e, const struct mp_enc_op *op, unsigned reg, unsigned rm)
{
	uint8_t rex = (uint8_t)(REX | (op->w ? REX_W : 0) | (hi(reg) ? REX_R : 0) |
				(hi(rm) ? REX_B : 0));

	if (op->pp != MP_PP_NONE)
		mp_enc_byte(e, legacy_prefix[op->pp]);
	if (rex != REX)
		mp_enc_byte(e, rex);
	mp_enc_byte(e, ESC);
	if (op->map == MP_MAP_0F38)
		mp_enc_byte(e, ESC_38);
	mp_enc_byte(e, op->opcode);
}

/* VEX, three-byte form: C4 [~R ~X ~B mmmmm] [W ~vvvv L pp] opcode. */
static void vex(struct mp_enc *e, const struct mp_enc_op *op, unsigned len, unsigned reg,
		unsigned vvvv, unsigned rm)
{
	mp_enc_byte(e, VEX3);
	mp_enc_byte(e, (uint8_t)((!hi(reg) << 7) | (1u << 6) | (!hi(rm) << 5) | op->map));
	mp_enc_byte(e, (uint8_t)((op->w << 7) | ((~vvvv & 0xfu) << 3) | ((len & 1u) << 2) | op->pp));
	mp_enc_byte(e, op->opcode);
}

/*
 * EVEX: 62 [~R ~X ~B ~R' 0 0 mm] [W ~vvvv 1 pp] [z L'L b ~V' aaa] opcode,
 * registers 0-15 only (R', V' and the X of a register operand set), no
 * masking, no broadcast.
 */
static void evex(struct mp_enc *e, const struct mp_enc_op *op, unsigned len, unsigned reg,
		 unsigned vvvv, unsigned rm)
{
	mp_enc_byte(e, EVEX);
	mp_enc_byte(e, (uint8_t)((!hi(reg) << 7) | (1u << 6) | (!hi(rm) << 5) | (1u << 4) |
				 op->map));
	mp_enc_byte(e, (uint8_t)((op->w << 7) | ((~vvvv & 0xfu) << 3) | (1u << 2) | op->pp));
	mp_enc_byte(e, (uint8_t)((len << 5) | (1u << 3)));
	mp_enc_byte(e, op->opcode);
}

static void prefix(struct mp_enc *e, struct mp_enc_vec v, const struct mp_enc_op *op,
		   unsigned reg, unsigned vvvv, unsigned rm)
{
	if (v.form == MP_ENC_LEGACY)
		legacy(e, op, reg, rm);
	else if (v.form == MP_ENC_VEX)
		vex(e, op, v.len, reg, vvvv, rm);
	else
		evex(e, op, v.len, reg, vvvv, rm);
}

void mp_enc_vreg(struct mp_enc *e, struct mp_enc_vec v, const struct mp_enc_op *op, unsigned reg,
		 unsigned src1, unsigned src2)
{
	prefix(e, v, op, reg, src1, src2);
	mp_enc_byte(e, (uint8_t)(MODRM_REG | ((reg & 7u) << 3) | (src2 & 7u)));
}

void mp_enc_vload(struct mp_enc *e, struct mp_enc_vec v, const struct mp_enc_op *op, unsigned reg,
		  const uint8_t *target)
{
	prefix(e, v, op, reg, 0, 0);          /* no vvvv operand: encoded as 1111b */
	mp_enc_byte(e, (uint8_t)(MODRM_RIP | ((reg & 7u) << 3)));
	mp_enc_u32(e, (uint32_t)(int32_t)(target - (e->at + 4)));
}

void mp_enc_rr(struct mp_enc *e, const uint8_t *opcode, unsigned n, unsigned reg, unsigned rm)
{
	mp_enc_byte(e, (uint8_t)(REX | REX_W | (hi(reg) ? REX_R : 0) | (hi(rm) ? REX_B : 0)));
	for (unsigned i = 0; i < n; i++)
		mp_enc_byte(e, opcode[i]);
	mp_enc_byte(e, (uint8_t)(MODRM_REG | ((reg & 7u) << 3) | (rm & 7u)));
}

void mp_enc_mov_imm(struct mp_enc *e, unsigned reg, uint64_t imm)
{
	mp_enc_byte(e, (uint8_t)(REX | REX_W | (hi(reg) ? REX_B : 0)));
	mp_enc_byte(e, (uint8_t)(MOV_IMM64 | (reg & 7u)));
	mp_enc_u64(e, imm);
}
