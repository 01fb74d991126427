/* SPDX-License-Identifier: MIT */
/*
 * A PMU with fewer counters than the events a measurement asks for (Intel
 * cores have 4 general counters, AMP's opening asks for 6 miss events,
 * PAPI's cacheSize for every level's at once): the counter probes count the
 * rest in further passes, each with its own preparation.  A copy of a model
 * with `pmu counters=N` must give exactly the counter results of the model
 * without a limit, and no counter may be found unreliable for it.
 */
#include <sys/prctl.h>

#include "tests/probes/counter_sim.h"

#define DEFAULT_MODEL PS_MODELS_DIR "/zen4.model"
#define TEXT_BYTES (64u << 10)

/* The counters a limited copy has: fewer than a cacheSize footprint and AMP's opening ask. */
static const unsigned limits[] = { 2, 1 };
#define NLIMITS (sizeof(limits) / sizeof(limits[0]))
/*
 * The timing probes the counter probes build on take as many rounds in
 * every copy: with rounds bounded in (simulated) time, a copy counting in
 * passes took another number, and its counter probes other inputs.
 */
#define FIXED_ROUNDS 2u

static int read_text(const char *path, char *text, size_t len)
{
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(text, 1, len - 1, f) : 0;

	if (f)
		fclose(f);
	text[n] = '\0';
	CHECK(n > 0 && n < len - 1, "%s read (%zu bytes)", path, n);
	return n > 0 && n < len - 1;
}

static int count_notes(const struct mp_result *r, const char *part)
{
	int n = 0;

	for (int32_t i = 0; i < r->nnotes; i++)
		n += strstr(r->notes[i], part) != NULL;
	return n;
}

static const struct mp_vote *same(const struct mp_result *r, const struct mp_vote *c)
{
	for (int32_t i = 0; i < r->ncounted; i++) {
		const struct mp_vote *o = &r->counted[i];

		if (!strcmp(o->probe, c->probe) && o->param == c->param &&
		    o->s.level == c->s.level && o->s.type == c->s.type && o->s.tlb == c->s.tlb &&
		    o->s.page_bytes == c->s.page_bytes)
			return o;
	}
	return NULL;
}

/* Every value the unlimited run counted, the limited one counted the same. */
static void compare(const struct cs_run *full, const struct cs_run *few, unsigned n)
{
	int differ = 0;

	for (int32_t i = 0; i < full->r.ncounted; i++) {
		const struct mp_vote *c = &full->r.counted[i], *o = same(&few->r, c);
		char label[MP_TEXT_LEN];

		if (o && o->value == c->value)
			continue;
		differ++;
		mp_param_label(label, sizeof(label), &c->s, c->param);
		printf("# %s, %u counters: %s %s: %lld, unlimited %lld\n", full->name, n, c->probe,
		       label, o ? (long long)o->value : -1LL, (long long)c->value);
	}
	CHECK(full->r.ncounted > 0 && few->r.ncounted == full->r.ncounted && !differ,
	      "%s, %u counters: the %d counted values of the unlimited model (%d, %d differ)",
	      full->name, n, (int)full->r.ncounted, (int)few->r.ncounted, differ);
}

static void limited(const char *path, const char *text, const struct cs_run *full, unsigned n)
{
	static char copy[TEXT_BYTES + 64];
	static struct cs_run s;

	snprintf(copy, sizeof(copy), "%s\npmu counters=%u\n", text, n);
	if (!cs_open_text(&s, path, copy, MP_METHOD_COUNTERS, "amp,papi"))
		return;
	s.cfg.rounds = FIXED_ROUNDS;
	cs_suite(&s);
	for (unsigned p = 0; p < 2; p++) {
		const char *probe = p ? "papi" : "amp";

		CHECK(cs_probe_status(&s, probe) == MP_PROBE_OK, "%s, %u counters: probe %s ok",
		      s.name, n, probe);
	}
	CHECK(!count_notes(&s.r, "unreliable"), "%s, %u counters: no counter found unreliable "
	      "(%d notes say so)", s.name, n, count_notes(&s.r, "unreliable"));
	compare(full, &s, n);
	cs_close(&s);
}

static void one(const char *path)
{
	static char text[TEXT_BYTES];
	static struct cs_run full;

	if (!read_text(path, text, sizeof(text)) ||
	    !cs_open_text(&full, path, text, MP_METHOD_COUNTERS, "amp,papi"))
		return;
	full.cfg.rounds = FIXED_ROUNDS;
	cs_suite(&full);
	CHECK(!count_notes(&full.r, "unreliable"), "%s: no counter unreliable without a limit",
	      full.name);
	/*
	 * Closed before the limited copies run (its results stay).  Each copy
	 * maps its memory at the same host addresses, which the simulator
	 * derives from the order of the requests (docs/simulator.md) and the
	 * model's identity frames make physical: a hashed L3 at other
	 * addresses can tell AMP another answer (zen4's L3 "not told" at some
	 * addresses), whatever the counters.
	 */
	cs_close(&full);
	for (unsigned i = 0; i < NLIMITS; i++)
		limited(path, text, &full, limits[i]);
}

int main(int argc, char **argv)
{
	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	if (argc < 2)
		one(DEFAULT_MODEL);
	for (int i = 1; i < argc; i++)
		one(argv[i]);
	return check_done();
}
