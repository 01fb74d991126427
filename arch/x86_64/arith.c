/* SPDX-License-Identifier: MIT */
/*
 * Arithmetic kernels (the seam's kernel_build, struct mp_kernel; X-Ray
 * section 3).  The memory holds a pool of constants, then the code:
 *
 *   base        64 bytes: 1.0 in every double lane (floating point) or 1
 *               in every 32-bit lane (vector integer)
 *   base + 64   prologue: the chains' registers and the constant set
 *   loop:       body: `ops` operations, operation j on chain j mod chains
 *               dec %rdi; jnz loop
 *               vzeroupper (after VEX or EVEX code); ret
 *
 * Every operation is chain = chain OP one: x + 1, x * 1, x / 1, x + 1 * 1
 * (a floating-point chain counts up from 1.0 or stays at 1.0: never a
 * denormal or an overflow), integer x + 1, x * 1, and the division
 * x / 1 of 64-bit x = INT_DIVIDEND (its quotient's length sets the time of
 * DIV on some CPUs: AMD and Intel optimization guides give ranges).
 * Vector integer operations work on 32-bit lanes (VPADDD, VPMULLD), there
 * is no vector integer division.
 */
#include "arch/x86_64/enc.h"
#include "arch/x86_64/x86.h"

#define POOL_BYTES 64u
#define LOOP_ALIGN 64u
#define DOUBLE_ONE 0x3ff0000000000000ull   /* IEEE 754 binary64 1.0 */
#define INT_ONE32 0x0000000100000001ull    /* two 32-bit lanes of 1 */
#define INT_DIVIDEND 0x00007fffffffffffull /* a 47-bit quotient */

/* Registers (SDM Vol. 2A, 2.1.5): the counter, the constant, and the chains'. */
#define REG_RAX 0u
#define REG_RCX 1u
#define REG_RDX 2u
#define VEC_ONE 15u
#define VEC_CHAINS 14u
static const uint8_t gpr_chains[] = { 3, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15 };

/* The width's encodings: 0 scalar, 1 128-bit, 2 256-bit, 3 512-bit. */
enum tier { T_SCALAR, T_128, T_256, T_512, T_COUNT };

struct vform {
	struct mp_enc_op op;
	struct mp_enc_vec v;
	bool ok;                 /* the form exists at all */
};

#define L(pp, map, opc) { { pp, map, opc, 0 }, { MP_ENC_LEGACY, 0 }, true }
#define V(pp, map, opc, w, len) { { pp, map, opc, w }, { MP_ENC_VEX, len }, true }
#define E(pp, map, opc, w) { { pp, map, opc, w }, { MP_ENC_EVEX, 2 }, true }

/* SDM Vol. 2: ADDSD/ADDPD/VADDPD 58, MULSD/.. 59, DIVSD/.. 5E, VFMADD231SD B9,
 * VFMADD231PD B8, PADDD/VPADDD FE, PMULLD/VPMULLD 0F38 40, MOVSD/MOVUPD 10. */
static const struct vform vforms[MP_ARITH_COUNT][T_COUNT] = {
	[MP_ARITH_FP_ADD] = { L(MP_PP_F2, MP_MAP_0F, 0x58), L(MP_PP_66, MP_MAP_0F, 0x58),
			      V(MP_PP_66, MP_MAP_0F, 0x58, 0, 1), E(MP_PP_66, MP_MAP_0F, 0x58, 1) },
	[MP_ARITH_FP_MUL] = { L(MP_PP_F2, MP_MAP_0F, 0x59), L(MP_PP_66, MP_MAP_0F, 0x59),
			      V(MP_PP_66, MP_MAP_0F, 0x59, 0, 1), E(MP_PP_66, MP_MAP_0F, 0x59, 1) },
	[MP_ARITH_FP_DIV] = { L(MP_PP_F2, MP_MAP_0F, 0x5e), L(MP_PP_66, MP_MAP_0F, 0x5e),
			      V(MP_PP_66, MP_MAP_0F, 0x5e, 0, 1), E(MP_PP_66, MP_MAP_0F, 0x5e, 1) },
	[MP_ARITH_FP_FMA] = { V(MP_PP_66, MP_MAP_0F38, 0xb9, 1, 0),
			      V(MP_PP_66, MP_MAP_0F38, 0xb8, 1, 0),
			      V(MP_PP_66, MP_MAP_0F38, 0xb8, 1, 1),
			      E(MP_PP_66, MP_MAP_0F38, 0xb8, 1) },
	[MP_ARITH_INT_ADD] = { { { 0 } }, L(MP_PP_66, MP_MAP_0F, 0xfe),
			       V(MP_PP_66, MP_MAP_0F, 0xfe, 0, 1), E(MP_PP_66, MP_MAP_0F, 0xfe, 0) },
	[MP_ARITH_INT_MUL] = { { { 0 } }, L(MP_PP_66, MP_MAP_0F38, 0x40),
			       V(MP_PP_66, MP_MAP_0F38, 0x40, 0, 1),
			       E(MP_PP_66, MP_MAP_0F38, 0x40, 0) },
};

static const struct vform loads[T_COUNT] = {
	L(MP_PP_F2, MP_MAP_0F, 0x10), L(MP_PP_66, MP_MAP_0F, 0x10),
	V(MP_PP_66, MP_MAP_0F, 0x10, 0, 1), E(MP_PP_66, MP_MAP_0F, 0x10, 1),
};

static bool is_fp(enum mp_arith op)
{
	return op >= MP_ARITH_FP_ADD;
}

static enum tier tier_of(uint32_t width)
{
	return width == 128 ? T_128 : width == 256 ? T_256 : width == 512 ? T_512 : T_SCALAR;
}

/* Does the CPU run this operation at this width (its encoding and its register state)? */
static bool usable(const struct mp_x86_isa *isa, const struct mp_kernel *k)
{
	enum tier t = tier_of(k->width);
	bool fp = is_fp(k->op);

	if (k->width != MP_WIDTH_SCALAR && t == T_SCALAR)
		return false;
	if (t == T_SCALAR && !fp)
		return true;                           /* general registers */
	if (!vforms[k->op][t].ok || (k->op == MP_ARITH_FP_FMA && !isa->fma))
		return false;
	if (t == T_512)
		return isa->avx512f;
	if (t == T_256)
		return fp ? isa->avx : isa->avx2;
	return k->op != MP_ARITH_INT_MUL || isa->sse41;
}

static uint32_t max_chains(const struct mp_kernel *k)
{
	return k->width == MP_WIDTH_SCALAR && !is_fp(k->op) ? sizeof(gpr_chains) : VEC_CHAINS;
}

/* ---- general registers ---- */

static const uint8_t op_add[] = { 0x01 };         /* ADD r/m64, r64 */
static const uint8_t op_imul[] = { 0x0f, 0xaf };  /* IMUL r64, r/m64 */
static const uint8_t op_mov[] = { 0x8b };         /* MOV r64, r/m64 */
static const uint8_t op_div[] = { 0xf7 };         /* F7 /6: DIV r/m64 */
#define DIV_EXT 6u

static void gpr_prologue(struct mp_enc *e, const struct mp_kernel *k)
{
	mp_enc_mov_imm(e, REG_RCX, 1);
	for (uint32_t c = 0; c < k->chains; c++)
		mp_enc_mov_imm(e, gpr_chains[c], k->op == MP_ARITH_INT_DIV ? INT_DIVIDEND : 1);
}

/* x = x / 1 through RDX:RAX (the moves are renamed away on current cores). */
static void gpr_div(struct mp_enc *e, unsigned x)
{
	mp_enc_rr(e, op_mov, 1, REG_RAX, x);
	mp_enc_byte(e, 0x31);                      /* xor %edx, %edx */
	mp_enc_byte(e, 0xd2);
	mp_enc_rr(e, op_div, 1, DIV_EXT, REG_RCX);
	mp_enc_rr(e, op_mov, 1, x, REG_RAX);
}

static void gpr_op(struct mp_enc *e, enum mp_arith op, unsigned x)
{
	if (op == MP_ARITH_INT_ADD)
		mp_enc_rr(e, op_add, 1, REG_RCX, x);
	else if (op == MP_ARITH_INT_MUL)
		mp_enc_rr(e, op_imul, 2, x, REG_RCX);
	else
		gpr_div(e, x);
}

/* ---- vector registers ---- */

static void vec_prologue(struct mp_enc *e, const struct mp_kernel *k, const uint8_t *pool)
{
	const struct vform *ld = &loads[tier_of(k->width)];

	mp_enc_vload(e, ld->v, &ld->op, VEC_ONE, pool);
	for (uint32_t c = 0; c < k->chains; c++)
		mp_enc_vload(e, ld->v, &ld->op, c, pool);
}

static void vec_op(struct mp_enc *e, const struct mp_kernel *k, unsigned x)
{
	const struct vform *f = &vforms[k->op][tier_of(k->width)];

	/* FMA231: x = one * one + x; the others x = x op one. */
	mp_enc_vreg(e, f->v, &f->op, x, k->op == MP_ARITH_FP_FMA ? VEC_ONE : x, VEC_ONE);
}

static bool vector(const struct mp_kernel *k)
{
	return k->width != MP_WIDTH_SCALAR || is_fp(k->op);
}

static bool uses_vex(const struct mp_kernel *k)
{
	return vector(k) && vforms[k->op][tier_of(k->width)].v.form != MP_ENC_LEGACY;
}

static void put_pool(uint8_t *pool, enum mp_arith op)
{
	uint64_t v = is_fp(op) ? DOUBLE_ONE : INT_ONE32;

	for (unsigned i = 0; i < POOL_BYTES; i++)
		pool[i] = (uint8_t)(v >> (8 * (i % 8)));
}

/* NOPs up to the next LOOP_ALIGN boundary: the loop starts a fetch line. */
static void pad(struct mp_enc *e)
{
	uint64_t n = (LOOP_ALIGN - (uintptr_t)e->at % LOOP_ALIGN) % LOOP_ALIGN;

	if ((uint64_t)(e->end - e->at) < n)
		e->full = true;
	else
		e->at += mp_x86_nop_fill(e->at, n);
}

static void emit(struct mp_enc *e, const struct mp_kernel *k, const uint8_t *pool)
{
	uint8_t *loop;

	if (vector(k))
		vec_prologue(e, k, pool);
	else
		gpr_prologue(e, k);
	pad(e);
	loop = e->at;
	for (uint32_t j = 0; j < k->ops; j++) {
		uint32_t c = j % k->chains;

		if (vector(k))
			vec_op(e, k, c);
		else
			gpr_op(e, k->op, gpr_chains[c]);
	}
	mp_enc_byte(e, 0x48);                      /* dec %rdi */
	mp_enc_byte(e, 0xff);
	mp_enc_byte(e, 0xcf);
	mp_enc_byte(e, 0x0f);                      /* jnz loop */
	mp_enc_byte(e, 0x85);
	mp_enc_u32(e, (uint32_t)(int32_t)(loop - (e->at + 4)));
	if (uses_vex(k)) {
		mp_enc_byte(e, 0xc5);              /* vzeroupper: no AVX-SSE transition after */
		mp_enc_byte(e, 0xf8);
		mp_enc_byte(e, 0x77);
	}
	mp_enc_byte(e, 0xc3);                      /* ret */
}

enum mp_status mp_x86_kernel_build(const struct mp_x86_isa *isa, struct mp_mem *m,
				   const struct mp_kernel *k, void **entry)
{
	struct mp_enc e = { m->base + POOL_BYTES, m->base + m->bytes, false };

	if (!k->chains || !k->ops || k->ops % k->chains || k->op >= MP_ARITH_COUNT)
		return MP_EIO;
	if (!usable(isa, k) || k->chains > max_chains(k))
		return MP_UNSUPPORTED;
	if (m->bytes < 2 * POOL_BYTES)
		return MP_EIO;
	put_pool(m->base, k->op);
	emit(&e, k, m->base);
	if (e.full)
		return MP_EIO;
	mp_x86_serialize();
	*entry = m->base + POOL_BYTES;
	return MP_OK;
}
