/* SPDX-License-Identifier: MIT */
/*
 * Chains of code blocks (the seam's code_build, struct mp_code).  A block
 * of B bytes at address a:
 *
 *   a            padding: the recommended multi-byte NOPs, B - 17 bytes
 *   a + B - 17   48 ff cf          dec %rdi
 *   a + B - 14   0f 85 rel32       jnz next block
 *   a + B - 8    48 8d 05 rel32    lea next block(%rip), %rax
 *   a + B - 1    c3                ret
 *
 * (Intel SDM Vol. 2A/2B: DEC, Jcc, LEA, RET; NOP, table "Recommended
 * Multi-Byte Sequence of NOP Instruction".)  The processor fetches every
 * byte of every block it runs; the last block of a run returns the next
 * block's address to mp_x86_code_run, so a chain continues where it
 * stopped.  The lea and ret share the jnz's line: they add no line fetch.
 *
 * A block of a serial chain (struct mp_code.serial) reaches its successor
 * by a return the return stack predicts wrongly (a retpoline's shape), so
 * the front end learns where it goes only when the block has run:
 *
 *   a            padding: one-byte NOPs, B - 30 bytes
 *   a + B - 30   48 8d 05 rel32    lea next block(%rip), %rax
 *   a + B - 23   48 ff cf          dec %rdi
 *   a + B - 20   74 11             jz exit
 *   a + B - 18   e8 07 00 00 00    call 1f
 *   a + B - 13   cc x 7            int3: where the return stack sends fetch
 *   a + B - 6    48 89 04 24       1: mov %rax, (%rsp)
 *   a + B - 2    c3                ret: to the next block
 *   a + B - 1    c3                exit: ret, %rax the next block
 *
 * (SDM Vol. 2A/2B: CALL, INT3, MOV, RET; Vol. 3A, the return stack is a
 * predictor only.)  At MP_X86_CODE_SERIAL_MIN = 64 bytes a line holds 44
 * instructions: more than a Granite Rapids guest's decoded-op cache keeps
 * for one window (36 were kept, 40 not), so every block is fetched from
 * its cache and decoded there; a Zen 5 guest's op cache keeps such a line,
 * one a set.  docs/algorithms.md, "Code chains".
 */
#include "arch/x86_64/x86.h"

#define TAIL_BYTES MP_X86_CODE_BLOCK_MIN
#define JNZ_AT 3u                 /* offsets in the tail */
#define JNZ_END 9u                /* rel32 of the jnz is relative to here */
#define LEA_AT 9u
#define LEA_END 16u
#define NOP_MAX 9u

/* SDM Vol. 2B, NOP: the recommended sequences of 1 to 9 bytes. */
static const uint8_t nops[NOP_MAX + 1][NOP_MAX] = {
	[1] = { 0x90 },
	[2] = { 0x66, 0x90 },
	[3] = { 0x0f, 0x1f, 0x00 },
	[4] = { 0x0f, 0x1f, 0x40, 0x00 },
	[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 },
	[6] = { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 },
	[7] = { 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 },
	[8] = { 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
	[9] = { 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
};

#define SERIAL_TAIL_BYTES 30u
#define SERIAL_LEA_END 7u          /* offsets in the serial tail */
#define SERIAL_NOP 0x90u

static const uint8_t serial_tail[SERIAL_TAIL_BYTES] = {
	0x48, 0x8d, 0x05, 0, 0, 0, 0,     /* lea rel32(%rip), %rax */
	0x48, 0xff, 0xcf,                 /* dec %rdi */
	0x74, 0x11,                       /* jz exit */
	0xe8, 0x07, 0x00, 0x00, 0x00,     /* call 1f */
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, /* int3 */
	0x48, 0x89, 0x04, 0x24,           /* 1: mov %rax, (%rsp) */
	0xc3,                             /* ret */
	0xc3,                             /* exit: ret */
};

static const uint8_t tail[TAIL_BYTES] = {
	0x48, 0xff, 0xcf,                 /* dec %rdi */
	0x0f, 0x85, 0, 0, 0, 0,           /* jnz rel32 */
	0x48, 0x8d, 0x05, 0, 0, 0, 0,     /* lea rel32(%rip), %rax */
	0xc3,                             /* ret */
};

uint64_t mp_x86_nop_fill(uint8_t *at, uint64_t bytes)
{
	uint64_t left = bytes;

	while (left) {
		unsigned k = left > NOP_MAX ? NOP_MAX : (unsigned)left;

		for (unsigned i = 0; i < k; i++)
			at[i] = nops[k][i];
		at += k;
		left -= k;
	}
	return bytes;
}

void mp_x86_put_rel32(uint8_t *at, const uint8_t *from, const uint8_t *to)
{
	int32_t rel = (int32_t)(to - from);

	for (unsigned i = 0; i < 4; i++)
		at[i] = (uint8_t)((uint32_t)rel >> (8 * i));
}

static void put_block(uint8_t *at, uint64_t bytes, const uint8_t *next)
{
	uint8_t *t = at + mp_x86_nop_fill(at, bytes - TAIL_BYTES);

	for (unsigned i = 0; i < TAIL_BYTES; i++)
		t[i] = tail[i];
	mp_x86_put_rel32(t + JNZ_AT + 2, t + JNZ_END, next);
	mp_x86_put_rel32(t + LEA_AT + 3, t + LEA_END, next);
}

static void put_serial(uint8_t *at, uint64_t bytes, const uint8_t *next)
{
	uint8_t *t = at + bytes - SERIAL_TAIL_BYTES;

	for (uint8_t *q = at; q < t; q++)
		*q = SERIAL_NOP;
	for (unsigned i = 0; i < SERIAL_TAIL_BYTES; i++)
		t[i] = serial_tail[i];
	mp_x86_put_rel32(t + 3, t + SERIAL_LEA_END, next);
}

/* Every block inside the memory, none shorter than its kind's least, none overlapping its successor. */
static bool fits(const struct mp_mem *m, const struct mp_code *c)
{
	if (!c->n || c->block_bytes < (c->serial ? MP_X86_CODE_SERIAL_MIN : TAIL_BYTES))
		return false;
	for (uint64_t i = 0; i < c->n; i++)
		if (c->offsets[i] > m->bytes || m->bytes - c->offsets[i] < c->block_bytes)
			return false;
	return true;
}

enum mp_status mp_x86_code_build(struct mp_mem *m, const struct mp_code *c, void **entry)
{
	void (*put)(uint8_t *, uint64_t, const uint8_t *) = c->serial ? put_serial : put_block;

	if (!fits(m, c))
		return MP_EIO;
	for (uint64_t i = 0; i < c->n; i++)
		put(m->base + c->offsets[i], c->block_bytes, m->base + c->offsets[(i + 1) % c->n]);
	/* SDM Vol. 3A, "Handling Self- and Cross-Modifying Code": write the
	 * code, then execute a serializing instruction before running it. */
	mp_x86_serialize();
	*entry = m->base + c->offsets[0];
	return MP_OK;
}
