/* SPDX-License-Identifier: MIT */
/*
 * The run configuration (core/config.h): defaults, `key = value` lines and
 * the probe selection.  A bad setting is explained, naming the key, what it
 * accepts and the value kept; the run goes on with that value.
 */
#include "core/config.h"
#include "core/lib/bits.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"

#define DEFAULT_ARENA_BYTES (256ull << 20)
#define DEFAULT_FINISH_DELAY 30
#define MAX_FINISH_DELAY 3600
/* COM1: the PC/AT serial port base every PC-compatible firmware keeps. */
#define DEFAULT_SERIAL_PORT 0x3F8
/* x86 I/O space is 64K 8-bit ports (SDM vol. 1, ch. 19 "Input/Output", I/O port addressing). */
#define MAX_IO_PORT 0xFFFF
#define WHY_LEN 384
/* Bytes of a bad line, key or value that a message quotes (mp_buf_quoted). */
#define QUOTE_MAX 40

/* A slice of the configuration text. */
struct slice {
	const char *s;
	size_t n;
};

static const char *const profile_words[] = { "quick", "full", NULL };
static const char *const method_words[] = { "timing", "counters", "both", "auto", NULL };
/* What each method word selects; auto is resolved by the suite (core/suite.c). */
static const enum mp_method method_of[] = {
	MP_METHOD_TIMING, MP_METHOD_COUNTERS, MP_METHOD_BOTH, MP_METHOD_AUTO,
};
static const char *const finish_words[] = { "shutdown", "reboot", "return", NULL };
static const char *const start_words[] = { "quietest", "first", NULL };

void mp_config_defaults(struct mp_config *c)
{
	mp_memset(c, 0, sizeof(*c));
	c->profile = MP_PROFILE_QUICK;
	c->method = MP_METHOD_AUTO;
	c->probes[0] = '\0';
	c->arena_bytes = DEFAULT_ARENA_BYTES;
	c->on_finish = MP_FINISH_SHUTDOWN;
	c->finish_delay = DEFAULT_FINISH_DELAY;
	c->serial_port = DEFAULT_SERIAL_PORT;
	c->seed = 1;
	c->rounds = MP_ROUNDS_AUTO;
	c->cores = MP_CORES_ALL;
}

static bool is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\v' || ch == '\f';
}

static struct slice trim(struct slice v)
{
	while (v.n > 0 && is_space(v.s[0])) {
		v.s++;
		v.n--;
	}
	while (v.n > 0 && is_space(v.s[v.n - 1]))
		v.n--;
	return v;
}

static bool equals(struct slice v, const char *word)
{
	for (size_t i = 0; i < v.n; i++)
		if (word[i] == '\0' || word[i] != v.s[i])
			return false;
	return word[v.n] == '\0';
}

/* Index of v in a NULL-terminated word list, or -1. */
static int word_index(const char *const *words, struct slice v)
{
	for (int i = 0; words[i]; i++)
		if (equals(v, words[i]))
			return i;
	return -1;
}

/* words[i], or "?" when i is not in the list. */
static void put_word(struct mp_buf *b, const char *const *words, int i)
{
	for (int k = 0; words[k]; k++) {
		if (k == i) {
			mp_buf_puts(b, words[k]);
			return;
		}
	}
	mp_buf_puts(b, "?");
}

/* ---- one setter and one printer per key ---- */

static bool set_profile(struct mp_config *c, struct slice v)
{
	int i = word_index(profile_words, v);

	if (i >= 0)
		c->profile = (enum mp_profile)i;
	return i >= 0;
}

static void show_profile(const struct mp_config *c, struct mp_buf *b)
{
	put_word(b, profile_words, (int)c->profile);
}

static bool set_method(struct mp_config *c, struct slice v)
{
	int i = word_index(method_words, v);

	if (i >= 0)
		c->method = method_of[i];
	return i >= 0;
}

static void show_method(const struct mp_config *c, struct mp_buf *b)
{
	int i = 0;

	while (i < (int)MP_COUNT_OF(method_of) && method_of[i] != c->method)
		i++;
	put_word(b, method_words, i);
}

static bool set_on_finish(struct mp_config *c, struct slice v)
{
	int i = word_index(finish_words, v);

	if (i >= 0)
		c->on_finish = (enum mp_finish)i;
	return i >= 0;
}

static void show_on_finish(const struct mp_config *c, struct mp_buf *b)
{
	put_word(b, finish_words, (int)c->on_finish);
}

static bool set_start_cpu(struct mp_config *c, struct slice v)
{
	int i = word_index(start_words, v);

	if (i >= 0)
		c->start_cpu = (enum mp_start)i;
	return i >= 0;
}

static void show_start_cpu(const struct mp_config *c, struct mp_buf *b)
{
	put_word(b, start_words, (int)c->start_cpu);
}

static bool is_name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch == '-' || ch == '.';
}

/* Append one trimmed probe name to the list being built; false when it is not a name. */
static bool add_probe(struct mp_buf *list, struct slice item)
{
	item = trim(item);
	if (item.n == 0)
		return false;
	for (size_t i = 0; i < item.n; i++)
		if (!is_name_char(item.s[i]))
			return false;
	if (list->len > 0)
		mp_buf_putc(list, ',');
	mp_buf_printf(list, "%.*s", (int)item.n, item.s);
	return true;
}

/* Stored without blanks ("latency, tlb" becomes "latency,tlb"); "all" or "" is the empty list. */
static bool set_probes(struct mp_config *c, struct slice v)
{
	char mem[MP_TEXT_LEN];
	struct mp_buf list;
	size_t start = 0;

	mp_buf_init(&list, mem, sizeof(mem));
	if (v.n > 0 && !equals(v, "all")) {
		for (size_t i = 0; i <= v.n; i++) {
			if (i < v.n && v.s[i] != ',')
				continue;
			if (!add_probe(&list, (struct slice){ v.s + start, i - start }))
				return false;
			start = i + 1;
		}
	}
	if (list.overflow)
		return false;
	mp_strlcpy(c->probes, mem, sizeof(c->probes));
	return true;
}

static void show_probes(const struct mp_config *c, struct mp_buf *b)
{
	mp_buf_puts(b, c->probes[0] ? c->probes : "all");
}

static bool set_arena(struct mp_config *c, struct slice v)
{
	uint64_t bytes;

	if (!mp_parse_size(v.s, v.n, &bytes) || bytes == 0)
		return false;
	c->arena_bytes = bytes;
	return true;
}

static void show_arena(const struct mp_config *c, struct mp_buf *b)
{
	mp_buf_size(b, c->arena_bytes);
}

static bool set_finish_delay(struct mp_config *c, struct slice v)
{
	uint64_t s;

	if (!mp_parse_u64(v.s, v.n, &s) || s > MAX_FINISH_DELAY)
		return false;
	c->finish_delay = (uint32_t)s;
	return true;
}

static void show_finish_delay(const struct mp_config *c, struct mp_buf *b)
{
	mp_buf_u64(b, c->finish_delay);
}

static bool set_serial_port(struct mp_config *c, struct slice v)
{
	uint64_t port;

	if (equals(v, "none")) {
		c->serial_port = 0;
		return true;
	}
	if (!mp_parse_u64(v.s, v.n, &port) || port > MAX_IO_PORT)
		return false;
	c->serial_port = (uint32_t)port;
	return true;
}

static void show_serial_port(const struct mp_config *c, struct mp_buf *b)
{
	if (c->serial_port == 0)
		mp_buf_puts(b, "none");
	else
		mp_buf_printf(b, "0x%x", (unsigned)c->serial_port);
}

static bool set_seed(struct mp_config *c, struct slice v)
{
	return mp_parse_u64(v.s, v.n, &c->seed);
}

static void show_seed(const struct mp_config *c, struct mp_buf *b)
{
	mp_buf_u64(b, c->seed);
}

_Static_assert(MP_ROUNDS_MAX == 9, "the rounds key's message says 1 to 9");

static bool set_rounds(struct mp_config *c, struct slice v)
{
	uint64_t n;

	if (equals(v, "auto")) {
		c->rounds = MP_ROUNDS_AUTO;
		return true;
	}
	if (!mp_parse_u64(v.s, v.n, &n) || n < 1 || n > MP_ROUNDS_MAX)
		return false;
	c->rounds = (uint32_t)n;
	return true;
}

static void show_rounds(const struct mp_config *c, struct mp_buf *b)
{
	if (c->rounds == MP_ROUNDS_AUTO)
		mp_buf_puts(b, "auto");
	else
		mp_buf_u64(b, c->rounds);
}

_Static_assert(MP_MAX_CPUS == 1024, "the cores key's message says 1 to 1024");

static bool set_cores(struct mp_config *c, struct slice v)
{
	uint64_t n;

	if (equals(v, "all") || equals(v, "boot")) {
		c->cores = equals(v, "all") ? MP_CORES_ALL : 1;
		return true;
	}
	if (!mp_parse_u64(v.s, v.n, &n) || n < 1 || n > MP_MAX_CPUS)
		return false;
	c->cores = (uint32_t)n;
	return true;
}

static void show_cores(const struct mp_config *c, struct mp_buf *b)
{
	if (c->cores == MP_CORES_ALL)
		mp_buf_puts(b, "all");
	else if (c->cores == 1)
		mp_buf_puts(b, "boot");
	else
		mp_buf_u64(b, c->cores);
}

/* ---- the key table ---- */

struct key {
	const char *name;
	const char *const *words;  /* the accepted words, or NULL: see `accepts` */
	const char *accepts;       /* what else the key accepts, for messages */
	bool (*set)(struct mp_config *c, struct slice v);
	void (*show)(const struct mp_config *c, struct mp_buf *b);
};

static const struct key keys[] = {
	{ "profile", profile_words, NULL, set_profile, show_profile },
	{ "method", method_words, NULL, set_method, show_method },
	{ "probes", NULL, "a comma-separated list of probe names (or all)", set_probes,
	  show_probes },
	{ "arena", NULL, "a size in bytes above 0 with an optional K, M or G suffix", set_arena,
	  show_arena },
	{ "on_finish", finish_words, NULL, set_on_finish, show_on_finish },
	{ "finish_delay", NULL, "a number of seconds from 0 to 3600", set_finish_delay,
	  show_finish_delay },
	{ "serial_port", NULL, "an I/O port number up to 0xffff (like 0x3f8) or none",
	  set_serial_port, show_serial_port },
	{ "seed", NULL, "an unsigned decimal or 0x number", set_seed, show_seed },
	{ "rounds", NULL, "auto or a number of rounds from 1 to 9", set_rounds, show_rounds },
	{ "cores", NULL, "all, boot or a number of logical CPUs from 1 to 1024", set_cores,
	  show_cores },
	{ "start_cpu", start_words, NULL, set_start_cpu, show_start_cpu },
};

#define NKEYS (MP_COUNT_OF(keys))

static const struct key *find_key(struct slice name)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (equals(name, keys[i].name))
			return &keys[i];
	return NULL;
}


static void why_unknown(struct mp_buf *why, struct slice name)
{
	mp_buf_puts(why, "unknown key ");
	mp_buf_quoted(why, name.s, name.n, QUOTE_MAX);
	mp_buf_puts(why, "; ");
	mp_buf_puts(why, "known keys are");
	for (size_t i = 0; i < NKEYS; i++)
		mp_buf_printf(why, "%s %s", i ? "," : "", keys[i].name);
}

/* `on_finish: "sleep" is not one of shutdown, reboot, return; using shutdown` */
static void why_bad(struct mp_buf *why, const struct key *k, const struct mp_config *c,
		    struct slice v)
{
	mp_buf_printf(why, "%s: ", k->name);
	mp_buf_quoted(why, v.s, v.n, QUOTE_MAX);
	mp_buf_puts(why, " is not ");
	if (k->words) {
		mp_buf_puts(why, "one of");
		for (size_t i = 0; k->words[i]; i++)
			mp_buf_printf(why, "%s %s", i ? "," : "", k->words[i]);
	} else {
		mp_buf_puts(why, k->accepts);
	}
	mp_buf_puts(why, "; using ");
	k->show(c, why);
}

static int set_slices(struct mp_config *c, struct slice name, struct slice v, struct mp_buf *why)
{
	const struct key *k;

	name = trim(name);
	v = trim(v);
	k = find_key(name);
	if (!k) {
		why_unknown(why, name);
		return -1;
	}
	if (!k->set(c, v)) {
		why_bad(why, k, c, v);
		return -1;
	}
	return 0;
}

int mp_config_set(struct mp_config *c, const char *key, const char *value, char *why,
		  size_t why_len)
{
	char scratch[1];
	struct mp_buf b;

	if (why && why_len > 0)
		mp_buf_init(&b, why, why_len);
	else
		mp_buf_init(&b, scratch, sizeof(scratch));
	return set_slices(c, (struct slice){ key, mp_strlen(key) },
			  (struct slice){ value, mp_strlen(value) }, &b);
}

void mp_config_show(const struct mp_config *c, struct mp_buf *b)
{
	for (size_t i = 0; i < NKEYS; i++) {
		mp_buf_printf(b, "%s%s=", i ? " " : "", keys[i].name);
		keys[i].show(c, b);
	}
}

/* ---- files ---- */

static size_t find_char(struct slice v, char ch)
{
	size_t i = 0;

	while (i < v.n && v.s[i] != ch)
		i++;
	return i;
}

/* One line without its '\n'; returns the number of problems (0 or 1). */
static uint32_t parse_line(struct mp_config *c, struct slice line, uint32_t no,
			   mp_config_complaint complain, void *arg)
{
	char mem[WHY_LEN];
	struct mp_buf why;
	size_t eq;

	line.n = find_char(line, '#');
	line = trim(line);
	if (line.n == 0)
		return 0;
	mp_buf_init(&why, mem, sizeof(mem));
	eq = find_char(line, '=');
	if (eq == line.n || eq == 0) {
		mp_buf_quoted(&why, line.s, line.n, QUOTE_MAX);
		mp_buf_printf(&why, ": missing %s; expected key = value", eq ? "'='" : "the key");
	} else if (set_slices(c, (struct slice){ line.s, eq },
			    (struct slice){ line.s + eq + 1, line.n - eq - 1 }, &why) == 0)
		return 0;
	if (complain)
		complain(arg, no, mem);
	return 1;
}

uint32_t mp_config_parse(struct mp_config *c, const char *text, size_t len,
			 mp_config_complaint complain, void *arg)
{
	static const char bom[] = "\xEF\xBB\xBF"; /* UTF-8 byte order mark */
	struct slice rest = { text, len };
	uint32_t problems = 0, no = 0;

	if (len >= 3 && mp_strncmp(text, bom, 3) == 0) {
		rest.s += 3;
		rest.n -= 3;
	}
	while (rest.n > 0) {
		size_t end = find_char(rest, '\n');

		problems += parse_line(c, (struct slice){ rest.s, end }, ++no, complain, arg);
		end += end < rest.n; /* past the '\n' */
		rest.s += end;
		rest.n -= end;
	}
	return problems;
}

int mp_config_wants(const struct mp_config *c, const char *probe)
{
	struct slice rest = { c->probes, mp_strlen(c->probes) };

	if (rest.n == 0)
		return 1;
	if (!probe)
		return 0;
	while (rest.n > 0) {
		size_t end = find_char(rest, ',');

		if (equals(trim((struct slice){ rest.s, end }), probe))
			return 1;
		end += end < rest.n;
		rest.s += end;
		rest.n -= end;
	}
	return 0;
}
