/* SPDX-License-Identifier: MIT */
/*
 * The processor side of a model (docs/simulator.md): `isa vector=BITS`
 * and `op NAME [width=BITS] latency=CYCLES throughput=PER_CYCLE`.  An op
 * line without a width gives the operation at every width the model has
 * (scalar, and the vector widths up to `isa vector=`, which must come
 * first); with one, at that width only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lib/str.h"
#include "sim/sim.h"

static const uint32_t widths[MP_SIM_WIDTHS] = { MP_WIDTH_SCALAR, 128, 256, 512 };

int mp_sim_width_index(uint32_t bits)
{
	for (int i = 0; i < MP_SIM_WIDTHS; i++)
		if (widths[i] == bits)
			return i;
	return -1;
}

static int complain(char *why, size_t len, const char *what, const char *v)
{
	if (v)
		snprintf(why, len, "%s '%s'", what, v);
	else
		snprintf(why, len, "%s", what);
	return -1;
}

/* key=value: the value, or NULL when tok is not that key. */
static const char *value_of(const char *tok, const char *key)
{
	size_t n = strlen(key);

	return !strncmp(tok, key, n) && tok[n] == '=' ? tok + n + 1 : NULL;
}

static bool parse_u32(const char *v, uint32_t *out)
{
	uint64_t u;

	if (!mp_parse_u64(v, strlen(v), &u) || u > UINT32_MAX)
		return false;
	*out = (uint32_t)u;
	return true;
}

int mp_sim_model_isa(struct mp_sim_model *m, char **tok, int n, char *why, size_t why_len)
{
	const char *v = n == 1 ? value_of(tok[0], "vector") : NULL;
	uint32_t bits;

	if (!v)
		return complain(why, why_len, "isa: want vector=BITS, got", n ? tok[0] : "");
	if (!parse_u32(v, &bits) || (bits && mp_sim_width_index(bits) < 1))
		return complain(why, why_len, "isa: vector= is 0, 128, 256 or 512, not", v);
	m->vector_bits = bits;
	return 0;
}

static int arith_of(const char *name)
{
	for (int op = 0; op < MP_ARITH_COUNT; op++)
		if (!strcmp(mp_arith_name((enum mp_arith)op), name))
			return op;
	return -1;
}

/* The op line's keys into o and *width (0: every width); -1 on a bad one. */
static int op_keys(char **tok, int n, struct mp_sim_op *o, uint32_t *width, char *why,
		   size_t len)
{
	bool lat = false;
	char *end;

	for (int i = 0; i < n; i++) {
		const char *v;

		if ((v = value_of(tok[i], "latency")) != NULL) {
			if (!parse_u32(v, &o->latency) || !o->latency)
				return complain(why, len, "op: latency= wants cycles, not", v);
			lat = true;
		} else if ((v = value_of(tok[i], "throughput")) != NULL) {
			o->throughput = strtod(v, &end);
			if (*end || !(o->throughput > 0 && o->throughput <= 64))
				return complain(why, len, "op: throughput= wants 0 to 64, not", v);
		} else if ((v = value_of(tok[i], "width")) != NULL) {
			if (!parse_u32(v, width) || mp_sim_width_index(*width) < 0)
				return complain(why, len, "op: width= is 64, 128, 256 or 512, not", v);
		} else {
			return complain(why, len, "op: unknown key", tok[i]);
		}
	}
	if (!lat || !(o->throughput > 0))
		return complain(why, len, "op: needs latency= and throughput=", NULL);
	return 0;
}

int mp_sim_model_op(struct mp_sim_model *m, char **tok, int n, char *why, size_t why_len)
{
	struct mp_sim_op o = { 0, 0.0, true };
	uint32_t width = 0;
	int op = n ? arith_of(tok[0]) : -1;

	if (op < 0)
		return complain(why, why_len, "op: unknown operation (int-add, int-mul, int-div, "
				"fp-add, fp-mul, fp-div, fp-fma)", n ? tok[0] : "");
	if (op_keys(tok + 1, n - 1, &o, &width, why, why_len) < 0)
		return -1;
	if (width > (m->vector_bits ? m->vector_bits : MP_WIDTH_SCALAR))
		return complain(why, why_len, "op: width= is wider than isa vector=", tok[0]);
	for (int w = 0; w < MP_SIM_WIDTHS; w++)
		if (width ? widths[w] == width
			  : widths[w] <= (m->vector_bits ? m->vector_bits : MP_WIDTH_SCALAR))
			m->ops[op][w] = o;
	return 0;
}
