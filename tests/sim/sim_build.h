/* SPDX-License-Identifier: MIT */
/* The simulator tests' one way to build a machine from a model's text. */
#ifndef MEMPROBE_TESTS_SIM_BUILD_H
#define MEMPROBE_TESTS_SIM_BUILD_H

#include "sim/sim.h"
#include "tests/check.h"

/*
 * A simulated machine from `text`, with `span` bytes mapped at `base` in
 * pages of `page` bytes (0: the model's base page), frames contiguous or
 * not; NULL, after a failed check, when the model or the mapping is refused.
 */
static inline struct mp_sim *sb_build(const char *text, uint64_t base, uint64_t span,
				      uint64_t page, bool contiguous)
{
	char err[256];
	struct mp_sim *s = mp_sim_from_text(text, err, sizeof(err));

	if (!s) {
		CHECK(0, "model builds: %s", err);
		return NULL;
	}
	if (!mp_sim_map(s, base, span, page, contiguous)) {
		CHECK(0, "the region of %llu bytes maps", (unsigned long long)span);
		mp_sim_free(s);
		return NULL;
	}
	return s;
}

#endif
