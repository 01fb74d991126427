/* SPDX-License-Identifier: MIT */
/* The probe tests' one search of a result's notes. */
#ifndef MEMPROBE_TESTS_PROBES_NOTES_H
#define MEMPROBE_TESTS_PROBES_NOTES_H

#include <string.h>

#include "core/results/result.h"

/* The first note of r that contains `part`, or NULL. */
static inline const char *ps_note(const struct mp_result *r, const char *part)
{
	for (int32_t i = 0; i < mp_count(r->nnotes, MP_MAX_NOTES); i++)
		if (strstr(r->notes[i], part))
			return r->notes[i];
	return NULL;
}

#endif
