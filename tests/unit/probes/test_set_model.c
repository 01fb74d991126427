/* SPDX-License-Identifier: MIT */
/* The one-set policy simulations (core/probes/policy/set_model.c) on hand-worked sequences. */
#include "core/probes/policy/set_model.h"
#include "tests/check.h"

/* Run a sequence of blocks (letters), return the hit/miss string ("H", "M"). */
static void run(struct mp_set_model *s, const char *seq, char *out)
{
	for (; *seq; seq++)
		*out++ = mp_set_model_access(s, (uint32_t)(*seq - 'a')) ? 'H' : 'M';
	*out = '\0';
}

static void check(enum mp_replacement pol, bool excl, uint32_t ways, const char *seq,
		  const char *want, const char *name)
{
	struct mp_set_model s;
	char got[64];

	mp_set_model_init(&s, ways, pol, excl);
	run(&s, seq, got);
	CHECK_EQ_STR(got, want, name);
}

int main(void)
{
	/* 2 ways: a b a c b -- LRU evicts b at c, FIFO evicts a. */
	check(MP_REPL_LRU, false, 2, "abacb", "MMHMM", "LRU 2-way a b a c b");
	check(MP_REPL_FIFO, false, 2, "abacb", "MMHMH", "FIFO 2-way a b a c b");
	check(MP_REPL_PLRU, false, 2, "abacb", "MMHMM", "PLRU 2-way equals LRU");
	/*
	 * 4 ways, a b c d a e: LRU evicts b, FIFO a; tree PLRU after a (left
	 * pair, way 0) points the root right and the right pair at d's
	 * sibling c (d was touched last there), so e replaces c.
	 */
	check(MP_REPL_LRU, false, 4, "abcdaebc", "MMMMHMMM", "LRU 4-way");
	check(MP_REPL_FIFO, false, 4, "abcdaeba", "MMMMHMHM", "FIFO 4-way");
	check(MP_REPL_PLRU, false, 4, "abcdaeb", "MMMMHMH", "PLRU 4-way keeps b");
	check(MP_REPL_PLRU, false, 4, "abcdaec", "MMMMHMM", "PLRU 4-way evicts c");
	/* Exclusive FIFO: a hit refills the line, so FIFO order follows use like LRU. */
	check(MP_REPL_FIFO, true, 2, "abacb", "MMHMM", "exclusive FIFO acts as LRU");
	check(MP_REPL_LRU, true, 2, "abacb", "MMHMM", "exclusive LRU as LRU");
	/* 3-way tree PLRU over 4 leaves: a b c fill ways 0 1 2; after c the root points left
	 * and the left pair at a (b was touched after a), so d replaces a. */
	check(MP_REPL_PLRU, false, 3, "abcdb", "MMMMH", "3-way PLRU replaces a");
	check(MP_REPL_PLRU, false, 3, "abcda", "MMMMM", "3-way PLRU lost a");
	CHECK(mp_set_model_supports(MP_REPL_PLRU, 8) && mp_set_model_supports(MP_REPL_PLRU, 12) &&
	      mp_set_model_supports(MP_REPL_LRU, 12) && !mp_set_model_supports(MP_REPL_RANDOM, 4) &&
	      !mp_set_model_supports(MP_REPL_LRU, MP_SET_MODEL_MAX_WAYS + 1),
	      "supported policies and way counts");
	return check_done();
}
