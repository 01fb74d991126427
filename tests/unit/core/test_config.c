/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for core/config.c: defaults, the file syntax, complaints, probe
 * selection and the shown configuration.
 */
#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"
#include "tests/check.h"

/* The complaints of one parse, "N: message" per line. */
struct complaints {
	char text[2048];
	unsigned n;
};

static void collect(void *arg, uint32_t line, const char *msg)
{
	struct complaints *c = arg;
	size_t len = strlen(c->text);

	snprintf(c->text + len, sizeof(c->text) - len, "%u: %s\n", line, msg);
	c->n++;
}

/* Compare text line by line, so every PASS or FAIL stays on one line. */
static void check_lines(const char *got, const char *want, const char *name)
{
	char g[256], w[256], label[96];
	unsigned line = 1;

	for (; *got || *want; line++) {
		size_t gn = strcspn(got, "\n"), wn = strcspn(want, "\n");

		snprintf(g, sizeof(g), "%.*s", (int)gn, got);
		snprintf(w, sizeof(w), "%.*s", (int)wn, want);
		snprintf(label, sizeof(label), "%s, line %u", name, line);
		CHECK_EQ_STR(g, w, label);
		got += gn + (got[gn] == '\n');
		want += wn + (want[wn] == '\n');
	}
}

static uint32_t parse(struct mp_config *c, struct complaints *out, const char *text)
{
	memset(out, 0, sizeof(*out));
	mp_config_defaults(c);
	return mp_config_parse(c, text, strlen(text), collect, out);
}

static void test_defaults(void)
{
	struct mp_config c;

	mp_config_defaults(&c);
	CHECK_EQ_INT(c.profile, MP_PROFILE_QUICK, "default profile");
	CHECK_EQ_INT(c.method, MP_METHOD_AUTO, "default method");
	CHECK_EQ_STR(c.probes, "", "default probes");
	CHECK_EQ_INT(c.arena_bytes, 256ull << 20, "default arena");
	CHECK_EQ_INT(c.on_finish, MP_FINISH_SHUTDOWN, "default on_finish");
	CHECK_EQ_INT(c.finish_delay, 30, "default finish_delay");
	CHECK_EQ_INT(c.serial_port, 0x3F8, "default serial_port");
	CHECK_EQ_INT(c.seed, 1, "default seed");
}

static void test_good_file(void)
{
	static const char text[] = "\xEF\xBB\xBF# memprobe.cfg\r\n"
				   "profile = full\r\n"
				   "\r\n"
				   "  method=both   # counters and timing\r\n"
				   "probes = latency , tlb,assoc\r\n"
				   "arena\t=\t1G\r\n"
				   "on_finish = return\n"
				   "finish_delay = 3600\n"
				   "serial_port = 0x2f8\n"
				   "seed = 0xfeed"; /* no final newline */
	struct complaints out;
	struct mp_config c;

	CHECK_EQ_INT(parse(&c, &out, text), 0, "good file: no problems");
	check_lines(out.text, "", "good file: no complaints");
	CHECK_EQ_INT(c.profile, MP_PROFILE_FULL, "profile full");
	CHECK_EQ_INT(c.method, MP_METHOD_BOTH, "method both (comment after value)");
	CHECK_EQ_STR(c.probes, "latency,tlb,assoc", "probes list stored without blanks");
	CHECK_EQ_INT(c.arena_bytes, 1ull << 30, "arena 1G with tabs");
	CHECK_EQ_INT(c.on_finish, MP_FINISH_RETURN, "on_finish return");
	CHECK_EQ_INT(c.finish_delay, 3600, "finish_delay at its maximum");
	CHECK_EQ_INT(c.serial_port, 0x2f8, "serial_port hex");
	CHECK_EQ_INT(c.seed, 0xfeed, "seed on the last line without a newline");
}

static void test_bad_file(void)
{
	static const char text[] = "profile = full\n"
				   "on_finish = reboot\n"
				   "on_finish = sleep\n"
				   "colour = blue\n"
				   "method timing\n"
				   "finish_delay = 3601\n"
				   "serial_port = 0x10000\n"
				   "arena = 0\n"
				   "arena = 12X\n"
				   "profile = Full\n"
				   "= 3\n"
				   "probes = a,,b\n"
				   "seed = -1\n";
	static const char want[] =
		"3: on_finish: \"sleep\" is not one of shutdown, reboot, return; using reboot\n"
		"4: unknown key \"colour\"; known keys are profile, method, probes, arena, "
		"on_finish, finish_delay, serial_port, seed, rounds, cores, start_cpu\n"
		"5: \"method timing\": missing '='; expected key = value\n"
		"6: finish_delay: \"3601\" is not a number of seconds from 0 to 3600; using 30\n"
		"7: serial_port: \"0x10000\" is not an I/O port number up to 0xffff (like 0x3f8) "
		"or none; using 0x3f8\n"
		"8: arena: \"0\" is not a size in bytes above 0 with an optional K, M or G suffix; "
		"using 256M\n"
		"9: arena: \"12X\" is not a size in bytes above 0 with an optional K, M or G "
		"suffix; using 256M\n"
		"10: profile: \"Full\" is not one of quick, full; using full\n"
		"11: \"= 3\": missing the key; expected key = value\n"
		"12: probes: \"a,,b\" is not a comma-separated list of probe names (or all); "
		"using all\n"
		"13: seed: \"-1\" is not an unsigned decimal or 0x number; using 1\n";
	struct complaints out;
	struct mp_config c;

	CHECK_EQ_INT(parse(&c, &out, text), 11, "bad file: problem count");
	CHECK_EQ_INT(out.n, 11, "bad file: one complaint per problem");
	check_lines(out.text, want, "bad file: complaints");
	CHECK_EQ_INT(c.profile, MP_PROFILE_FULL, "bad profile keeps the earlier value");
	CHECK_EQ_INT(c.on_finish, MP_FINISH_REBOOT, "bad on_finish keeps the earlier value");
	CHECK_EQ_INT(c.method, MP_METHOD_AUTO, "line without '=' changes nothing");
	CHECK_EQ_INT(c.finish_delay, 30, "bad finish_delay keeps the default");
	CHECK_EQ_INT(c.serial_port, 0x3F8, "bad serial_port keeps the default");
	CHECK_EQ_INT(c.arena_bytes, 256ull << 20, "bad arena keeps the default");
	CHECK_EQ_STR(c.probes, "", "bad probes keeps the default");
	CHECK_EQ_INT(c.seed, 1, "bad seed keeps the default");
}

static void test_odd_files(void)
{
	struct complaints out;
	struct mp_config c;
	char long_probes[400];

	CHECK_EQ_INT(parse(&c, &out, ""), 0, "empty file");
	CHECK_EQ_INT(parse(&c, &out, "\n\n   \n# only comments\n\t\n"), 0, "blank lines");
	CHECK_EQ_INT(parse(&c, &out, "serial_port = none\nprobes =\n"), 0, "none and empty list");
	CHECK_EQ_INT(c.serial_port, 0, "serial_port none is 0");
	CHECK_EQ_INT(parse(&c, &out, "\r\nprofile = fast\r\n"), 1, "CRLF bad line");
	check_lines(out.text, "2: profile: \"fast\" is not one of quick, full; using quick\n",
		    "CRLF line numbers and no CR in the message");
	memset(long_probes, 'p', sizeof(long_probes));
	memcpy(long_probes, "probes=", 7);
	long_probes[sizeof(long_probes) - 1] = '\0';
	CHECK_EQ_INT(parse(&c, &out, long_probes), 1, "a probes list too long to keep");
	CHECK_EQ_STR(c.probes, "", "the too-long list is not kept in part");
	CHECK_EQ_INT(mp_config_parse(&c, "profile=full", 7, NULL, NULL), 1,
		     "len bounds the text; no callback is fine");
}

/* Binary garbage: every byte that is not printable ASCII is shown as \xNN, and
 * a long line is quoted in part, so no message puts control bytes on a console. */
static void test_garbage(void)
{
	static const char bin[] = "\x1b[2J\x07\"\\\xff\x00" "a\nkey\x01 = 1\nprofile = \x80\x81\n";
	static const char want[] =
		"1: \"\\x1b[2J\\x07\\x22\\x5c\\xff\\x00a\": missing '='; expected key = value\n"
		"2: unknown key \"key\\x01\"; known keys are profile, method, probes, arena, "
		"on_finish, finish_delay, serial_port, seed, rounds, cores, start_cpu\n"
		"3: profile: \"\\x80\\x81\" is not one of quick, full; using quick\n"
		"4: \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"...: missing '='; expected key = value\n";
	char text[sizeof(bin) - 1 + 101];
	struct complaints out;
	struct mp_config c;

	memcpy(text, bin, sizeof(bin) - 1);
	memset(text + sizeof(bin) - 1, 'x', 100);
	text[sizeof(text) - 1] = '\n';
	memset(&out, 0, sizeof(out));
	mp_config_defaults(&c);
	CHECK_EQ_INT(mp_config_parse(&c, text, sizeof(text), collect, &out), 4,
		     "garbage: one problem a line");
	check_lines(out.text, want, "garbage: complaints");
}

static void test_set(void)
{
	struct mp_config c;
	char why[160];

	mp_config_defaults(&c);
	CHECK_EQ_INT(mp_config_set(&c, "arena", "64M", why, sizeof(why)), 0, "set arena");
	CHECK_EQ_INT(c.arena_bytes, 64ull << 20, "set arena value");
	CHECK_EQ_INT(mp_config_set(&c, " method ", " counters ", why, sizeof(why)), 0,
		     "set trims key and value");
	CHECK_EQ_INT(c.method, MP_METHOD_COUNTERS, "set method value");
	CHECK(mp_config_set(&c, "method", "guess", why, sizeof(why)) != 0, "set bad value fails");
	CHECK_EQ_STR(why, "method: \"guess\" is not one of timing, counters, both, auto; using counters",
		     "set bad value: why");
	CHECK(mp_config_set(&c, "nokey", "1", why, 16) != 0, "set unknown key fails");
	CHECK_EQ_STR(why, "unknown key \"no", "why is truncated to its buffer");
	CHECK(mp_config_set(&c, "seed", "x", NULL, 0) != 0, "set without a why buffer");
}

static void test_wants(void)
{
	struct mp_config c;

	mp_config_defaults(&c);
	CHECK_EQ_INT(mp_config_wants(&c, "latency"), 1, "empty list wants every probe");
	mp_config_set(&c, "probes", "latency, tlb", NULL, 0);
	CHECK_EQ_INT(mp_config_wants(&c, "latency"), 1, "wants first item");
	CHECK_EQ_INT(mp_config_wants(&c, "tlb"), 1, "wants last item");
	CHECK_EQ_INT(mp_config_wants(&c, "lat"), 0, "a prefix is not an item");
	CHECK_EQ_INT(mp_config_wants(&c, "tlbs"), 0, "a longer name is not an item");
	CHECK_EQ_INT(mp_config_wants(&c, "latency,tlb"), 0, "the whole list is not an item");
	CHECK_EQ_INT(mp_config_wants(&c, ""), 0, "the empty name is not an item");
	mp_config_set(&c, "probes", "all", NULL, 0);
	CHECK_EQ_INT(mp_config_wants(&c, "assoc"), 1, "all wants every probe");
}

static bool same_config(const struct mp_config *a, const struct mp_config *b)
{
	return a->profile == b->profile && a->method == b->method &&
	       strcmp(a->probes, b->probes) == 0 && a->arena_bytes == b->arena_bytes &&
	       a->on_finish == b->on_finish && a->finish_delay == b->finish_delay &&
	       a->serial_port == b->serial_port && a->seed == b->seed && a->rounds == b->rounds &&
	       a->cores == b->cores && a->start_cpu == b->start_cpu;
}

/* Show c, check the text, then parse it one word a line over `over`: c again. */
static void check_show(const struct mp_config *c, struct mp_config *over, const char *want,
		       const char *name)
{
	char mem[512], label[96];
	struct complaints out = { 0 };
	struct mp_buf b;

	mp_buf_init(&b, mem, sizeof(mem));
	mp_config_show(c, &b);
	snprintf(label, sizeof(label), "show %s", name);
	CHECK_EQ_STR(mem, want, label);
	for (char *s = mem; *s; s++)
		*s = *s == ' ' ? '\n' : *s;
	snprintf(label, sizeof(label), "show %s: parsed without problems", name);
	CHECK_EQ_INT(mp_config_parse(over, mem, b.len, collect, &out), 0, label);
	check_lines(out.text, "", label);
	CHECK(same_config(over, c), "show %s: parsed back to the same settings", name);
}

static void test_rounds(void)
{
	static const struct { const char *value; int ok; uint32_t rounds; } cases[] = {
		{ "auto", 1, MP_ROUNDS_AUTO }, { "1", 1, 1 }, { "9", 1, 9 }, { "0", 0, 0 },
		{ "10", 0, 0 }, { "many", 0, 0 },
	};
	struct mp_config c;
	char why[160];

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		mp_config_defaults(&c);
		c.rounds = 3;
		CHECK((mp_config_set(&c, "rounds", cases[i].value, why, sizeof(why)) == 0) ==
			      cases[i].ok && (!cases[i].ok || c.rounds == cases[i].rounds),
		      "rounds=%s %s", cases[i].value, cases[i].ok ? "accepted" : "refused");
	}
}

static void test_cores(void)
{
	static const struct { const char *value; int ok; uint32_t cores; } cases[] = {
		{ "all", 1, MP_CORES_ALL }, { "boot", 1, 1 }, { "1", 1, 1 }, { "16", 1, 16 },
		{ "1024", 1, 1024 }, { "0", 0, 0 }, { "1025", 0, 0 }, { "half", 0, 0 },
	};
	struct mp_config c;
	char why[160];

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		mp_config_defaults(&c);
		c.cores = 3;
		CHECK((mp_config_set(&c, "cores", cases[i].value, why, sizeof(why)) == 0) ==
			      cases[i].ok && (!cases[i].ok || c.cores == cases[i].cores),
		      "cores=%s %s", cases[i].value, cases[i].ok ? "accepted" : "refused");
	}
}

static void test_start_cpu(void)
{
	static const struct { const char *value; int ok; enum mp_start start; } cases[] = {
		{ "quietest", 1, MP_START_QUIETEST }, { "first", 1, MP_START_FIRST },
		{ "boot", 0, 0 }, { "", 0, 0 },
	};
	struct mp_config c;
	char why[160];

	mp_config_defaults(&c);
	CHECK(c.start_cpu == MP_START_QUIETEST, "start_cpu defaults to quietest");
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		mp_config_defaults(&c);
		c.start_cpu = (enum mp_start)7;
		CHECK((mp_config_set(&c, "start_cpu", cases[i].value, why, sizeof(why)) == 0) ==
			      cases[i].ok && (!cases[i].ok || c.start_cpu == cases[i].start),
		      "start_cpu=%s %s", cases[i].value, cases[i].ok ? "accepted" : "refused");
	}
}

static void test_show(void)
{
	struct mp_config def, full, odd, over;
	struct complaints out;

	mp_config_defaults(&def);
	parse(&full, &out, "profile=full\nmethod=both\nprobes=latency, tlb\narena=1G\n"
			   "on_finish=return\nfinish_delay=3600\nserial_port=0x2f8\nseed=0xfeed\nrounds=7\ncores=12\n"
			   "start_cpu=first");
	parse(&odd, &out, "method=counters\narena=12345\non_finish=reboot\nfinish_delay=0\n"
			  "serial_port=none\nseed=18446744073709551615\ncores=boot");
	over = full;
	check_show(&def, &over, "profile=quick method=auto probes=all arena=256M "
		   "on_finish=shutdown finish_delay=30 serial_port=0x3f8 seed=1 rounds=auto cores=all "
		   "start_cpu=quietest", "defaults");
	over = def;
	check_show(&full, &over, "profile=full method=both probes=latency,tlb arena=1G "
		   "on_finish=return finish_delay=3600 serial_port=0x2f8 seed=65261 rounds=7 cores=12 "
		   "start_cpu=first", "full");
	over = full;
	check_show(&odd, &over, "profile=quick method=counters probes=all arena=12345 "
		   "on_finish=reboot finish_delay=0 serial_port=none seed=18446744073709551615 rounds=auto cores=boot "
		   "start_cpu=quietest", "odd");
}

int main(void)
{
	test_defaults();
	test_good_file();
	test_bad_file();
	test_odd_files();
	test_garbage();
	test_set();
	test_cores();
	test_start_cpu();
	test_wants();
	test_show();
	test_rounds();
	return check_done();
}
