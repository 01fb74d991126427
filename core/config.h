/* SPDX-License-Identifier: MIT */
/*
 * The run configuration: memprobe.cfg on the EFI partition, or the command
 * line of the Linux and simulator commands.  Lines are `key = value`, `#`
 * starts a comment.  A bad line is reported (with its number) through the
 * caller's callback and the default is kept.
 */
#ifndef MEMPROBE_CORE_CONFIG_H
#define MEMPROBE_CORE_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "core/lib/buf.h"
#include "core/results/result.h"

enum mp_profile { MP_PROFILE_QUICK = 0, MP_PROFILE_FULL };
enum mp_finish { MP_FINISH_SHUTDOWN = 0, MP_FINISH_REBOOT, MP_FINISH_RETURN };

/*
 * The `start_cpu` key: the quietest CPU of the boot CPU's core type where
 * the platform can move (core/place.c), or the CPU the suite started on.
 */
enum mp_start { MP_START_QUIETEST = 0, MP_START_FIRST };

struct mp_config {
	enum mp_profile profile;
	enum mp_method method;       /* timing, counters, both or auto */
	char probes[MP_TEXT_LEN];    /* comma-separated probe names; empty = all */
	uint64_t arena_bytes;        /* memory the probes may use */
	enum mp_finish on_finish;
	uint32_t finish_delay;       /* seconds a key press can interrupt */
	uint32_t serial_port;        /* I/O port of the 16550, 0 = none */
	uint64_t seed;               /* for random reference strings */
	uint32_t rounds;             /* a timing probe's rounds: MP_ROUNDS_AUTO or 1..MP_ROUNDS_MAX */
	uint32_t cores;              /* the multi-core probes use CPUs 0 .. cores-1; MP_CORES_ALL */
	enum mp_start start_cpu;     /* where the suite runs (core/place.c) */
};

/* The `cores` key: every logical CPU (all), the boot CPU alone (boot = 1) or the first N. */
#define MP_CORES_ALL 0

/* Rounds of each timing probe (core/rounds.c): auto adapts them to the noise. */
#define MP_ROUNDS_AUTO 0
#define MP_ROUNDS_MAX 9

/* Called once per problem: 1-based line number (0: not line-specific). */
typedef void (*mp_config_complaint)(void *arg, uint32_t line, const char *msg);

void mp_config_defaults(struct mp_config *c);

/* Apply the text of a configuration file; returns the number of problems. */
uint32_t mp_config_parse(struct mp_config *c, const char *text, size_t len,
			 mp_config_complaint complain, void *arg);

/* Apply one `key=value` setting (command-line form); 0 on success. */
int mp_config_set(struct mp_config *c, const char *key, const char *value, char *why,
		  size_t why_len);

/*
 * Every setting in effect, `key=value` words in the key table's order
 * separated by single spaces; each word is a valid mp_config_set input.
 */
void mp_config_show(const struct mp_config *c, struct mp_buf *b);

/* Is a probe selected by the `probes` list? */
int mp_config_wants(const struct mp_config *c, const char *probe);

#endif
