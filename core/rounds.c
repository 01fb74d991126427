/* SPDX-License-Identifier: MIT */
/*
 * A timing probe repeated in rounds, each an independent determination of
 * everything it finds, and every discrete value voted on (docs/algorithms.md,
 * "Votes").  Each round starts from the result as it stood before the probe;
 * the round that agrees with the most winners is kept whole (its curves,
 * notes, latencies), every voted value set to its winner, and the votes
 * recorded in voted[].
 *
 * The number of rounds adapts: a profile's minimum, then more while a value
 * is split, up to its maximum or its time bound.  A quiet machine gives
 * unanimous rounds and stops at the minimum.
 */
#include "core/lib/bits.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "core/measure/timing.h"
#include "core/measure/vote.h"
#include "core/rounds.h"

static const struct {
	unsigned min, max;
	double seconds;       /* no new round once the next would end past this */
} plans[] = {
	[MP_PROFILE_QUICK] = { 2, 5, 2.0 },
	[MP_PROFILE_FULL] = { 3, MP_ROUNDS_MAX, 30.0 },
};

/*
 * A record of the result: a cache by level and type, a TLB also by its
 * page (MP_NA where not measured) and its place among its like: a level
 * found on 4K pages in one round and on 2M pages in another is two levels.
 */
struct key {
	struct mp_structure s;
	int32_t nth;
};

/* One parameter of one record, as each round found it. */
struct field {
	struct key k;
	enum mp_param p;
	int64_t found[MP_ROUNDS_MAX];
	struct mp_tally t;
	struct mp_tally tie;    /* two measured values tied for the most votes (split) */
};

#define MAX_FIELDS ((MP_MAX_CACHES + MP_MAX_TLBS) * MP_PARAM_COUNT)

static struct mp_result before, rounds[MP_ROUNDS_MAX];
static struct field fields[MAX_FIELDS];
static unsigned nfields;
/* The message of a round that failed and was run again in its place (retry), or "". */
static char failed_why[MP_MESSAGE_LEN];

static bool tlb_like(const struct mp_tlb *t, const struct mp_structure *s)
{
	return t->level == s->level && t->type == s->type && t->page_bytes == s->page_bytes;
}

static void *find_record(struct mp_result *r, const struct key *k)
{
	int32_t nth = 0;

	for (int32_t i = 0; !k->s.tlb && i < mp_count(r->ncaches, MP_MAX_CACHES); i++)
		if (r->caches[i].level == k->s.level && r->caches[i].type == k->s.type)
			return &r->caches[i];
	for (int32_t i = 0; k->s.tlb && i < mp_count(r->ntlbs, MP_MAX_TLBS); i++)
		if (tlb_like(&r->tlbs[i], &k->s) && nth++ == k->nth)
			return &r->tlbs[i];
	return NULL;
}

static int64_t value_in(struct mp_result *r, const struct field *f)
{
	return mp_param_get(find_record(r, &f->k), &f->k.s, f->p);
}

static bool same_field(const struct field *f, const struct key *k, enum mp_param p)
{
	return f->p == p && f->k.nth == k->nth && f->k.s.level == k->s.level &&
	       f->k.s.type == k->s.type && f->k.s.tlb == k->s.tlb &&
	       f->k.s.page_bytes == k->s.page_bytes;
}

static void add_field(const struct key *k, enum mp_param p)
{
	for (unsigned i = 0; i < nfields; i++)
		if (same_field(&fields[i], k, p))
			return;
	if (nfields < MAX_FIELDS)
		fields[nfields++] = (struct field){ .k = *k, .p = p };
}

/* Every parameter of every record a round holds, as fields (the list grows round by round). */
static void add_fields_of(const struct mp_result *r)
{
	struct key k = { { 0, MP_KIND_UNKNOWN, false, MP_NA }, 0 };

	for (int32_t i = 0; i < mp_count(r->ncaches, MP_MAX_CACHES); i++) {
		k.s = (struct mp_structure){ r->caches[i].level, r->caches[i].type, false, MP_NA };
		for (int p = 0; p < MP_PARAM_COUNT; p++)
			if (mp_param_applies(&k.s, (enum mp_param)p))
				add_field(&k, (enum mp_param)p);
	}
	for (int32_t i = 0; i < mp_count(r->ntlbs, MP_MAX_TLBS); i++) {
		k.s = (struct mp_structure){ r->tlbs[i].level, r->tlbs[i].type, true,
					     r->tlbs[i].page_bytes };
		k.nth = 0;
		for (int32_t j = 0; j < i; j++)
			k.nth += tlb_like(&r->tlbs[j], &k.s);
		for (int p = 0; p < MP_PARAM_COUNT; p++)
			if (mp_param_applies(&k.s, (enum mp_param)p))
				add_field(&k, (enum mp_param)p);
	}
}

/* Did this probe determine the field: did some round find other than what stood before? */
static bool determined(const struct field *f, unsigned n)
{
	int64_t was = value_in(&before, f);

	for (unsigned i = 0; i < n; i++)
		if (f->found[i] != was)
			return true;
	return false;
}

/* In how many of the first n rounds does record k stand? */
static unsigned found_in(const struct key *k, unsigned n)
{
	unsigned rounds_with = 0;

	for (unsigned j = 0; j < n; j++)
		rounds_with += find_record(&rounds[j], k) != NULL;
	return rounds_with;
}

/* Did the probe add record k, and in no more of the first n rounds than not? */
static bool unfound(const struct key *k, unsigned n)
{
	return !find_record(&before, k) && 2 * found_in(k, n) <= n;
}

/*
 * A record the probe adds in no more rounds than not is not found: each
 * of its fields is won by "not measured" (the rounds without the record),
 * whatever the others found.  A round that finds a level nobody else finds
 * is a step of noise in its curve (this guest's shared L3 gave "levels" a
 * fourth level in one round of two), where a round that found the level
 * and not one of its values only failed to measure that value.
 */
static void not_found(struct field *f, unsigned n)
{
	if (f->t.value == MP_NA || !unfound(&f->k, n))
		return;
	f->t.runner_up = f->t.value;
	f->t.runner_up_votes = f->t.votes;
	f->t.value = MP_NA;
	f->t.votes = (int32_t)(n - found_in(&f->k, n));
}

/*
 * The parameters a tie between two measured values leaves not measured:
 * the hardware's own values, one of which is wrong.  The effective size is
 * a point on a curve, which rounds find a step or two apart (this guest's
 * shared L2 gave 1408K and 1504K in 2 rounds of 9 each), and the other
 * probes take it as it is: the tie rule stands there.
 */
static const bool tie_unmeasured[MP_PARAM_COUNT] = {
	[MP_PARAM_SIZE] = true,           [MP_PARAM_LINE] = true,
	[MP_PARAM_WAYS] = true,           [MP_PARAM_WRITE_ALLOCATE] = true,
	[MP_PARAM_REPLACEMENT] = true,    [MP_PARAM_ENTRIES] = true,
	[MP_PARAM_INCLUSION] = true,
};

/*
 * Two measured values with the most votes alike are no determination:
 * the field is won by "not measured" (the rounds that did not measure it,
 * perhaps none), the two kept in f->tie for a note (note_ties).  A tie went
 * to the value that reached its votes first: on this project's AMD EPYC
 * guest evset's quick rounds found its L2 16-way and 15-way (a thread
 * sharing the core held a way), and the order of the rounds picked 16; in
 * the other order 15 would have stood, marked unstable.  A tie with "not
 * measured" keeps its rule: a round that found the level but not the value
 * is no vote for another.
 */
static void split(struct field *f, unsigned n)
{
	unsigned none = 0;

	f->tie.of = 0;
	if (!tie_unmeasured[f->p] || f->t.value == MP_NA || f->t.runner_up == MP_NA ||
	    f->t.runner_up_votes < f->t.votes)
		return;
	for (unsigned j = 0; j < n; j++)
		none += f->found[j] == MP_NA;
	f->tie = f->t;
	f->t.runner_up = f->t.value;
	f->t.runner_up_votes = f->t.votes;
	f->t.value = MP_NA;
	f->t.votes = (int32_t)none;
}

/* Tally every field over the first n rounds; how many the probe determined. */
static unsigned tally(unsigned n)
{
	unsigned voted = 0;

	nfields = 0;
	for (unsigned i = 0; i < n; i++)
		add_fields_of(&rounds[i]);
	for (unsigned i = 0; i < nfields; i++) {
		struct field *f = &fields[i];

		for (unsigned j = 0; j < n; j++)
			f->found[j] = value_in(&rounds[j], f);
		mp_tally_count(f->found, n, &f->t);
		split(f, n);
		not_found(f, n);
		if (!determined(f, n))
			f->t.of = 0;            /* not this probe's: no vote */
		voted += f->t.of > 0;
	}
	return voted;
}

/* Would another round change nothing: every vote unanimous, or every winner certain? */
static bool decided(unsigned done, unsigned max)
{
	bool unanimous = true, settled = true;

	for (unsigned i = 0; i < nfields; i++) {
		if (fields[i].t.of == 0)
			continue;
		unanimous &= fields[i].t.runner_up_votes == 0;
		settled &= mp_tally_settled(&fields[i].t, max - done);
	}
	return unanimous || settled;
}

/* The round that agrees with the most winners; the first of those tied. */
static unsigned representative(unsigned n)
{
	unsigned best = 0, best_agree = 0;

	for (unsigned j = 0; j < n; j++) {
		unsigned agree = 0;

		for (unsigned i = 0; i < nfields; i++)
			agree += fields[i].t.of > 0 && fields[i].found[j] == fields[i].t.value;
		if (agree > best_agree || j == 0) {
			best = j;
			best_agree = agree;
		}
	}
	return best;
}

/* The record for a key in r, added when the winner has a value and r has none. */
static void *record_for(struct mp_result *r, const struct key *k, int64_t winner)
{
	void *rec = find_record(r, k);

	if (rec || winner == MP_NA)
		return rec;
	if (k->s.tlb) {
		struct mp_tlb *t = mp_result_add_tlb(r);

		if (t)
			t->level = k->s.level, t->type = k->s.type, t->page_bytes = k->s.page_bytes;
		return t;
	}
	struct mp_cache *c = mp_result_add_cache(r);

	if (c)
		c->level = k->s.level, c->type = k->s.type;
	return c;
}

static void apply(struct mp_result *r, const char *probe)
{
	for (unsigned i = 0; i < nfields; i++) {
		struct field *f = &fields[i];
		struct mp_structure s = f->k.s;
		struct mp_vote *v;
		void *rec;

		if (f->t.of == 0)
			continue;
		rec = record_for(r, &f->k, f->t.value);
		if (rec && !(s.tlb && f->p == MP_PARAM_PAGE))   /* a TLB's page is its key */
			mp_param_set(rec, &s, f->p, f->t.value);
		if (rec && s.tlb)
			s.page_bytes = ((const struct mp_tlb *)rec)->page_bytes;
		if ((v = mp_result_vote(r, probe, &s, f->p)) != NULL)
			mp_vote_from(v, &f->t);
	}
}

/*
 * Take out the records this probe added in no more rounds than not: the
 * last first, so that a TLB's place among its like still finds it.  How
 * many.
 */
static unsigned drop_unfound(struct mp_result *r, unsigned n)
{
	unsigned dropped = 0;

	for (unsigned i = nfields; i-- > 0;) {
		const struct key *k = &fields[i].k;
		void *rec = find_record(r, k);

		if (!rec || !unfound(k, n))
			continue;
		if (k->s.tlb)
			mp_result_remove_tlb(r, rec);
		else
			mp_result_remove_cache(r, rec);
		dropped++;
	}
	return dropped;
}

/* The message of the round kept, told what the votes left out of it. */
static void say_dropped(struct mp_probe *self, unsigned dropped)
{
	char said[sizeof(self->message)];
	struct mp_buf b;

	if (dropped == 0)
		return;
	mp_strlcpy(said, self->message, sizeof(said));
	mp_buf_init(&b, self->message, sizeof(self->message));
	mp_buf_printf(&b, "%s%s%u record(s) left out: found in no more rounds than not", said,
		      said[0] ? "; " : "", dropped);
}

/* The result says which round failed and was run again, and why it failed. */
static void note_retried(struct mp_result *r, const char *probe)
{
	char text[MP_NOTE_LEN];
	struct mp_buf b;

	if (!failed_why[0])
		return;
	mp_buf_init(&b, text, sizeof(text));
	mp_buf_printf(&b, "%s: a failed round run again: %s", probe, failed_why);
	mp_result_add_note(r, text);
}

/* A note for every field split leaves not measured, naming its two values. */
static void note_ties(struct mp_result *r, const char *probe)
{
	for (unsigned i = 0; i < nfields; i++) {
		const struct field *f = &fields[i];
		char text[MP_NOTE_LEN], label[MP_NOTE_LEN];
		struct mp_buf b;

		if (f->t.of == 0 || f->tie.of == 0)
			continue;
		mp_param_label(label, sizeof(label), &f->k.s, f->p);
		mp_buf_init(&b, text, sizeof(text));
		mp_buf_printf(&b, "%s: %s not measured: the rounds split, ", probe, label);
		mp_param_put(&b, f->p, f->tie.value);
		mp_buf_printf(&b, " in %d and ", (int)f->tie.votes);
		mp_param_put(&b, f->p, f->tie.runner_up);
		mp_buf_printf(&b, " in %d of %d", (int)f->tie.runner_up_votes, (int)f->tie.of);
		mp_result_add_note(r, text);
	}
}

static void run_round(struct mp_platform *p, const struct mp_config *cfg,
		      const struct mp_probe_def *def, int32_t self, unsigned i)
{
	struct mp_result *r = &rounds[i];
	struct mp_ctx ctx = { .p = p, .cfg = cfg, .r = r, .self = &r->probes[self], .round = i };

	mp_memcpy(r, &before, sizeof(*r));
	def->run(&ctx);
}

/*
 * Run round i again in its place: the first round of the probe to fail,
 * where it took less than the plan's time bound.  A failed round found
 * nothing, so it is no vote against what the others find; counted, it
 * would end the rounds where it is the first (nothing determined) and
 * make "not measured" win a tie with a round that measured.  The full
 * profile's L1 on this project's AMD EPYC guest failed so in one run of
 * seven (X-Ray's sets "gave other answers elsewhere in memory" while the
 * core's other thread was busy), and every probe after it lost the L1's
 * geometry.  Once only: a probe that fails for good costs one round more.
 */
static bool retry(struct mp_platform *p, const struct mp_config *cfg,
		  const struct mp_probe_def *def, int32_t self, unsigned i, uint64_t start)
{
	const struct mp_probe *rec = &rounds[i].probes[self];

	if (failed_why[0] || rec->status != MP_PROBE_FAILED ||
	    mp_seconds_since(p, start) >= plans[cfg->profile].seconds)
		return false;
	mp_strlcpy(failed_why, rec->message[0] ? rec->message : "no reason given",
		   sizeof(failed_why));
	mp_logf(p, MP_LOG_INFO, "probe %s: round %u failed, run again: %s", def->name, i + 1,
		failed_why);
	return true;
}

/* Rounds until decided, or the plan's maximum, or its time bound; how many ran (fields tallied). */
static unsigned run_rounds(struct mp_platform *p, const struct mp_config *cfg,
			   const struct mp_probe_def *def, int32_t self)
{
	unsigned min = plans[cfg->profile].min, max = plans[cfg->profile].max, n = 0;
	uint64_t t0 = mp_now(p), start;

	if (cfg->rounds != MP_ROUNDS_AUTO)
		min = max = cfg->rounds;
	failed_why[0] = '\0';
	for (;;) {
		start = mp_now(p);
		run_round(p, cfg, def, self, n);
		if (retry(p, cfg, def, self, n, start))
			continue;
		n++;
		if (tally(n) == 0 || n >= max)
			return n;                  /* nothing to vote on, or no more rounds */
		if (n >= min && decided(n, max))
			return n;
		if (n >= min && mp_seconds_since(p, t0) * (double)(n + 1) / (double)n >
					plans[cfg->profile].seconds)
			return n;
		mp_logf(p, MP_LOG_INFO, "probe %s: round %u of at most %u", def->name, n + 1, max);
	}
}

void mp_rounds_run(struct mp_platform *p, const struct mp_config *cfg, struct mp_result *r,
		   const struct mp_probe_def *def, struct mp_probe *self)
{
	unsigned n, voted = 0, unstable = 0;

	mp_memcpy(&before, r, sizeof(before));
	n = run_rounds(p, cfg, def, (int32_t)(self - r->probes));
	mp_memcpy(r, &rounds[representative(n)], sizeof(*r));
	apply(r, def->name);
	say_dropped(self, drop_unfound(r, n));
	note_retried(r, def->name);
	note_ties(r, def->name);
	for (unsigned i = 0; i < nfields; i++) {
		voted += fields[i].t.of > 0;
		unstable += fields[i].t.of > 0 && !mp_tally_stable(&fields[i].t);
	}
	if (n > 1)
		mp_logf(p, MP_LOG_INFO, "probe %s: %u rounds, %u value(s) voted, %u unstable",
			def->name, n, voted, unstable);
}
