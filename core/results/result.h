/* SPDX-License-Identifier: MIT */
/*
 * The results model: everything a run found, in one plain struct that the
 * writers (JSON, report, CSV) turn into files.  No allocation: fixed-size
 * tables, sized for the largest machine we model.
 *
 * A value not measured is "not available" and is written as null (JSON) or
 * "-" (report), never guessed:
 *   integers  MP_NA (-1)
 *   doubles   NaN (mp_na_double(), mp_is_na())
 *   tristate  MP_UNKNOWN
 *   enums     their *_UNKNOWN member
 *   strings   empty
 * The JSON schema is fixed in docs/results.md.
 */
#ifndef MEMPROBE_CORE_RESULTS_RESULT_H
#define MEMPROBE_CORE_RESULTS_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MP_TOOL_NAME "memprobe"
#define MP_VERSION "0.5.0"

#define MP_NA (-1)

#define MP_MAX_CACHES 8
#define MP_MAX_TLBS 8
#define MP_MAX_PROBES 32
#define MP_MAX_CURVES 16
#define MP_MAX_POINTS 160
#define MP_MAX_NOTES 32
#define MP_MAX_COUNTED 96
#define MP_MAX_VOTED 96
#define MP_MAX_COMPARISONS 64
#define MP_NAME_LEN 48
#define MP_TEXT_LEN 160
/* A probe's message: what it found level by level, and why a value is not measured. */
#define MP_MESSAGE_LEN 320
/* A note: a finding told whole (a note of MP_TEXT_LEN lost the ends of evset's). */
#define MP_NOTE_LEN 320

static inline double mp_na_double(void) { return __builtin_nan(""); }
static inline bool mp_is_na(double v) { return __builtin_isnan(v); }

enum mp_tristate { MP_UNKNOWN = -1, MP_NO = 0, MP_YES = 1 };

enum mp_kind { MP_KIND_UNKNOWN = -1, MP_KIND_DATA = 0, MP_KIND_INSTRUCTION, MP_KIND_UNIFIED };

enum mp_inclusion {
	MP_INCL_UNKNOWN = -1,
	MP_INCL_INCLUSIVE = 0,
	MP_INCL_EXCLUSIVE,
	MP_INCL_NONINCLUSIVE,
};

enum mp_replacement {
	MP_REPL_UNKNOWN = -1,
	MP_REPL_LRU = 0,
	MP_REPL_PLRU,
	MP_REPL_FIFO,
	MP_REPL_RANDOM,
	MP_REPL_LRU_LIKE, /* repeatable, but not told apart further */
	MP_REPL_BIMODAL,  /* simulator only: lru whose fills now and then go to the lru end */
};

enum mp_method {
	MP_METHOD_UNKNOWN = -1,
	MP_METHOD_TIMING = 0,
	MP_METHOD_COUNTERS,
	MP_METHOD_BOTH,
	MP_METHOD_DOCUMENTED,
	MP_METHOD_AUTO,      /* configuration only: the suite picks timing or both (core/suite.c) */
	MP_METHOD_EVSETS,    /* timing of minimal eviction sets (probe evset) */
};

enum mp_probe_status {
	MP_PROBE_OK = 0,
	MP_PROBE_UNSUPPORTED,
	MP_PROBE_FAILED,
	MP_PROBE_SKIPPED,
};

struct mp_cache {
	int32_t level;
	enum mp_kind type;
	int64_t size_bytes;           /* physical capacity */
	int64_t effective_size_bytes; /* what a program can use before latency rises */
	int64_t line_bytes;
	int64_t ways;                 /* fully associative: ways = lines */
	double latency_cycles;
	double latency_ns;
	enum mp_tristate write_allocate;
	enum mp_replacement replacement;
	enum mp_inclusion inclusion;
	enum mp_method method;
	int32_t shared_by;            /* logical CPUs sharing one instance (probe "cores"), MP_NA */
};

struct mp_tlb {
	int32_t level;
	enum mp_kind type;
	int64_t entries;
	int64_t page_bytes;
	int64_t ways;                 /* fully associative: ways = entries */
	double miss_penalty_cycles;
	enum mp_method method;
};

/*
 * A level of the hierarchy as instruction fetches see it (probe "icache"):
 * how much straight-line code runs at its speed, and what a line fetched
 * from it costs.  `level` is the cache level when known (the first level a
 * fetch meets is 1 unless it was found to be a lower, unified level).
 */
struct mp_fetch_level {
	int32_t level;
	int64_t effective_size_bytes;
	double line_cycles;           /* per line of straight-line code fetched from it */
	double line_ns;
};

#define MP_MAX_OPS 32

/*
 * One arithmetic operation at one operand width, as the "cpu" probe
 * measured it on generated code (X-Ray 3.2 latency, 3.3 initiation
 * interval).  `name` is the operation ("int-add", "fp-fma": core/platform.h
 * mp_arith_name).
 */
struct mp_op_timing {
	char name[16];
	int32_t width_bits;           /* 64 scalar, 128, 256, 512 */
	double latency_cycles;
	double throughput;            /* operations per cycle at best; 1 / initiation interval */
};

/* What the "cpu" probe measured beside the clocks of struct mp_cpu. */
struct mp_cpu_timing {
	double core_hz_min;           /* the core clock, measured again and again over the probe */
	double core_hz_max;
	enum mp_tristate clock_steady;/* min and max within MP_CLOCK_STEADY of each other */
	int32_t vector_bits;          /* the widest vector operation that ran; 0: none */
	enum mp_tristate fma;         /* a fused multiply-add ran */
	int32_t nops;
	struct mp_op_timing ops[MP_MAX_OPS];
};

/* What the processor documents of itself (CPUID: leaf 16H, feature flags; the ISA's registers). */
struct mp_cpu_doc {
	double base_hz;
	double max_hz;
	double bus_hz;
	char features[MP_TEXT_LEN];   /* space-separated: "sse2 sse4.1 avx avx2 fma avx512f" */
	int32_t gp_registers;         /* general registers the ISA gives */
	int32_t vector_registers;
	int32_t vector_bits;          /* the widest vector the features give */
};

struct mp_machine {
	char vendor[MP_NAME_LEN];
	char brand[MP_TEXT_LEN];
	int32_t family;
	int32_t model;
	int32_t stepping;
};

struct mp_memory {
	double latency_cycles;
	double latency_ns;
};

struct mp_cpu {
	double tsc_hz;                /* timestamp frequency */
	double core_hz;               /* core clock where known */
	int32_t logical_cpus;
	int32_t cores;
	int32_t threads_per_core;
};

struct mp_documented {
	char source[MP_TEXT_LEN];     /* e.g. "cpuid 0x8000001d", empty when none */
	int32_t ncaches;
	struct mp_cache caches[MP_MAX_CACHES];
	int32_t ntlbs;
	struct mp_tlb tlbs[MP_MAX_TLBS];
	struct mp_cpu_doc cpu;
};

struct mp_probe {
	char name[MP_NAME_LEN];
	enum mp_probe_status status;
	double seconds;
	char message[MP_MESSAGE_LEN];
};

struct mp_curve {
	char name[MP_NAME_LEN];
	char x_unit[16];
	char y_unit[16];
	int32_t npoints;
	double x[MP_MAX_POINTS];
	double y[MP_MAX_POINTS];
};

/*
 * A parameter of a cache or TLB: what the counter probes vote on and what
 * the timing-against-counters comparison is made of.  Every value is an
 * int64_t: bytes or a count, a tristate (write allocation) or an
 * enum mp_replacement; MP_NA (-1, which is also MP_UNKNOWN and
 * MP_REPL_UNKNOWN) when not available.
 */
enum mp_param {
	MP_PARAM_SIZE = 0,           /* cache: bytes */
	MP_PARAM_LINE,               /* cache: bytes */
	MP_PARAM_WAYS,               /* cache or TLB */
	MP_PARAM_WRITE_ALLOCATE,     /* cache: enum mp_tristate */
	MP_PARAM_REPLACEMENT,        /* cache: enum mp_replacement */
	MP_PARAM_ENTRIES,            /* TLB */
	MP_PARAM_PAGE,               /* TLB: bytes one entry maps */
	MP_PARAM_EFFECTIVE_SIZE,     /* cache: bytes a program can use (timing only) */
	MP_PARAM_INCLUSION,          /* cache: enum mp_inclusion (timing only) */
	MP_PARAM_COUNT
};

/* The cache or TLB a parameter belongs to. */
struct mp_structure {
	int32_t level;
	enum mp_kind type;
	bool tlb;
	int64_t page_bytes;          /* TLB: the page size mapped while measuring; else MP_NA */
};

/*
 * One value decided by votes (AMP 2.2): measured with performance counters
 * (counted[], each vote a determination from counter minimums) or by a
 * timing probe repeated in rounds (voted[], each round a vote; core/rounds.c).
 */
struct mp_vote {
	char probe[16];              /* "amp", "papi", "levels", ... */
	struct mp_structure s;
	enum mp_param param;
	int64_t value;               /* the winner; MP_NA: no vote decided, or "not measured" won */
	int32_t votes;               /* votes for the value: its confidence */
	int32_t of;                  /* votes cast */
	int64_t runner_up;           /* the second most common value; MP_NA when there is none */
	int32_t runner_up_votes;
	enum mp_tristate stable;     /* two thirds or more for the winner (core/measure/vote.h) */
};

/* One parameter as timing and counters measured it (method "both"). */
struct mp_comparison {
	struct mp_structure s;
	enum mp_param param;
	int64_t timing;              /* MP_NA: not measured that way */
	int64_t counters;
	enum mp_tristate agree;      /* MP_UNKNOWN unless both are known */
};

/*
 * The audit (core/results/audit.h): every documented source kept apart with
 * its name, and the verdicts that compare the sources with each other and
 * with the measurement.  docs/results.md, "sources" and "verdicts".
 */
#define MP_MAX_SOURCES 12
#define MP_MAX_VERDICTS 96
#define MP_SOURCE_NAME_LEN 32

enum mp_source_status {
	MP_SOURCE_OK = 0,        /* read and decoded */
	MP_SOURCE_ABSENT,        /* this machine or platform does not have it */
	MP_SOURCE_UNREADABLE,    /* it is there but could not be read (permissions) */
	MP_SOURCE_INVALID,       /* read, but not in the format of its specification */
};

/* What a documented cache size covers. */
enum mp_scope {
	MP_SCOPE_ONE = 0,        /* one cache */
	MP_SCOPE_PACKAGE,        /* every cache of that level and type in the package, together */
};

/* A cache as one source documents it; MP_NA (enums: *_UNKNOWN) where it says nothing. */
struct mp_doc_cache {
	int32_t level;
	enum mp_kind type;
	int64_t size_bytes;
	enum mp_scope scope;         /* what size_bytes covers */
	int64_t line_bytes;
	int64_t ways;                /* fully associative: ways = lines */
	int32_t shared_by;           /* logical CPUs sharing one such cache */
	enum mp_inclusion inclusion;
	enum mp_tristate write_allocate;
};

struct mp_source {
	char name[MP_SOURCE_NAME_LEN];   /* "cpuid 0x8000001d", "smbios type 7", "acpi pptt" */
	enum mp_source_status status;
	char message[MP_TEXT_LEN];       /* why it is not ok, or what else it says; empty */
	int32_t ncaches;
	struct mp_doc_cache caches[MP_MAX_CACHES];
	int32_t ntlbs;
	struct mp_tlb tlbs[MP_MAX_TLBS]; /* method "documented"; miss penalty not available */
	int32_t logical_cpus;            /* the package's, MP_NA */
	int32_t cores;
	int32_t threads_per_core;
};

/* What a verdict compares. */
enum mp_fact {
	MP_FACT_SIZE = 0,            /* cache: bytes of one cache */
	MP_FACT_LINE,
	MP_FACT_WAYS,
	MP_FACT_SHARED_BY,
	MP_FACT_INCLUSION,           /* enum mp_inclusion */
	MP_FACT_WRITE_ALLOCATE,      /* enum mp_tristate */
	MP_FACT_ENTRIES,             /* TLB */
	MP_FACT_TLB_WAYS,
	MP_FACT_LOGICAL_CPUS,        /* package */
	MP_FACT_CORES,
	MP_FACT_THREADS_PER_CORE,
	MP_FACT_COUNT
};

/*
 * One fact of one structure, as every source documents it and as measured.
 * value[i] is source i's value as compared (a package total turned into one
 * cache's size, `converted` bit i), MP_NA where it says nothing; stated[i]
 * what the source wrote.
 */
struct mp_verdict {
	struct mp_structure s;       /* level 0: the package */
	enum mp_fact fact;
	int64_t measured;
	int64_t value[MP_MAX_SOURCES];
	int64_t stated[MP_MAX_SOURCES];
	uint32_t converted;
	enum mp_tristate sources_agree;   /* MP_UNKNOWN with fewer than two values */
	enum mp_tristate measured_agrees; /* with every source's value; MP_UNKNOWN if not measured */
};

struct mp_audit {
	int32_t nsources;
	struct mp_source sources[MP_MAX_SOURCES];
	int32_t nverdicts;
	struct mp_verdict verdicts[MP_MAX_VERDICTS];
	int32_t dropped;             /* verdicts that did not fit */
};

/*
 * The logical CPUs (probes "topology", "cores" and "c2c"; docs/results.md).
 * The tables are bounded: a machine with more than MP_MAX_CPUS logical CPUs
 * is measured on its first MP_MAX_CPUS (a note says so); core types beyond
 * MP_MAX_CORE_TYPES are not measured apart (a note names them).
 */
#define MP_MAX_CPUS 1024
#define MP_MAX_CORE_TYPES 4
#define MP_MAX_PAIRS 128

/* Totals over the machine, as found; MP_NA where not known. */
struct mp_topology {
	int32_t packages;
	int32_t cores;
	int32_t threads;              /* logical CPUs */
};

/* A group of logical CPUs of one kind, measured on its first CPU. */
struct mp_core_type {
	char name[MP_NAME_LEN];
	int32_t ncpus;
	uint16_t cpus[MP_MAX_CPUS];   /* logical CPU numbers, ascending */
	int32_t ncaches;
	struct mp_cache caches[MP_MAX_CACHES];
	int32_t ntlbs;
	struct mp_tlb tlbs[MP_MAX_TLBS];
};

/* One-way transfer time of a cache line from CPU a to CPU b (a ping-pong round / 2). */
struct mp_c2c_pair {
	int32_t a, b;
	double latency;
};

struct mp_c2c {
	char unit[8];                 /* "ns", or "ticks" when the timestamp rate is unknown */
	int32_t npairs;
	struct mp_c2c_pair pairs[MP_MAX_PAIRS];
};

struct mp_result {
	char platform[24];            /* "uefi-x86_64", "linux-x86_64", "sim" */
	struct mp_machine machine;
	int32_t ncaches;
	struct mp_cache caches[MP_MAX_CACHES];
	int32_t ntlbs;
	struct mp_tlb tlbs[MP_MAX_TLBS];
	struct mp_memory memory;
	struct mp_cpu cpu;
	struct mp_documented documented;
	int32_t nprobes;
	struct mp_probe probes[MP_MAX_PROBES];
	int32_t ncurves;
	struct mp_curve curves[MP_MAX_CURVES];
	int32_t nnotes;
	char notes[MP_MAX_NOTES][MP_NOTE_LEN]; /* findings: disagreements, warnings */
	int32_t ncounted;
	struct mp_vote counted[MP_MAX_COUNTED];
	int32_t nvoted;
	struct mp_vote voted[MP_MAX_VOTED];     /* the timing probes' rounds */
	int32_t ncomparisons;
	struct mp_comparison comparisons[MP_MAX_COMPARISONS];
	int32_t nfetch;
	struct mp_fetch_level fetch[MP_MAX_CACHES];
	struct mp_cpu_timing cpu_timing;
	struct mp_audit audit;        /* documented sources and verdicts (core/results/audit.h) */
	struct mp_topology topology;
	int32_t ncore_types;
	struct mp_core_type core_types[MP_MAX_CORE_TYPES];
	struct mp_c2c core_to_core;
};

/* A table count made safe for indexing: n clamped to 0 .. max. */
static inline int32_t mp_count(int32_t n, int32_t max) { return n < 0 ? 0 : n > max ? max : n; }

/* Set every field to "not available". */
void mp_result_init(struct mp_result *r, const char *platform);
void mp_cache_init(struct mp_cache *c);
void mp_tlb_init(struct mp_tlb *t);

/* Append a record; NULL when the table is full. */
struct mp_cache *mp_result_add_cache(struct mp_result *r);
struct mp_tlb *mp_result_add_tlb(struct mp_result *r);
struct mp_fetch_level *mp_result_add_fetch(struct mp_result *r);
/* Take a record (one of r's) out, the records after it moved up. */
void mp_result_remove_cache(struct mp_result *r, const struct mp_cache *c);
void mp_result_remove_tlb(struct mp_result *r, const struct mp_tlb *t);
struct mp_op_timing *mp_result_add_op(struct mp_result *r);
/* The CPU sections' "not available" (core/results/result_cpu.c). */
void mp_cpu_timing_init(struct mp_cpu_timing *t);
void mp_cpu_doc_init(struct mp_cpu_doc *d);
struct mp_probe *mp_result_add_probe(struct mp_result *r, const char *name);
struct mp_curve *mp_result_add_curve(struct mp_result *r, const char *name, const char *x_unit,
				     const char *y_unit);
bool mp_curve_add_point(struct mp_curve *c, double x, double y);
void mp_result_add_note(struct mp_result *r, const char *text);

/* The record of the probe of that name, or NULL. */
const struct mp_probe *mp_result_find_probe(const struct mp_result *r, const char *name);

/* Find the measured cache of a level and type, or NULL. */
struct mp_cache *mp_result_find_cache(struct mp_result *r, int32_t level, enum mp_kind type);

/* The documented data or unified cache of a level (the first listed), or NULL. */
const struct mp_cache *mp_result_documented_cache(const struct mp_result *r, int32_t level);

/* Does a cache or TLB of this type serve this side (MP_KIND_DATA or MP_KIND_INSTRUCTION)? */
static inline bool mp_kind_serves(enum mp_kind type, enum mp_kind side)
{
	return type == MP_KIND_UNIFIED || type == side;
}

/* The documented cache of a level that serves `side` (the first listed), or NULL. */
const struct mp_cache *mp_result_documented_side(const struct mp_result *r, int32_t level,
						 enum mp_kind side);

/* Names used by every writer; NULL for *_UNKNOWN or a value out of range. */
const char *mp_kind_name(enum mp_kind k);
const char *mp_inclusion_name(enum mp_inclusion i);
const char *mp_replacement_name(enum mp_replacement r);
const char *mp_method_name(enum mp_method m);
const char *mp_probe_status_name(enum mp_probe_status s);

/* The parameters of a record and the tables of voted values (core/results/param.c). */
const char *mp_param_name(enum mp_param p);
/* Does the parameter belong to this kind of record (cache or TLB)? */
bool mp_param_applies(const struct mp_structure *s, enum mp_param p);
/* ... and do both timing and counters measure it (the comparisons table)? */
bool mp_param_compared(const struct mp_structure *s, enum mp_param p);
/* A parameter of a struct mp_cache or struct mp_tlb (s->tlb says which); MP_NA if not there. */
int64_t mp_param_get(const void *rec, const struct mp_structure *s, enum mp_param p);
void mp_param_set(void *rec, const struct mp_structure *s, enum mp_param p, int64_t v);
/* Is the parameter written as a name ("yes", "lru", "exclusive")?  Its value's name, or NULL. */
bool mp_param_is_named(enum mp_param p);
const char *mp_param_value_name(enum mp_param p, int64_t v);
/* Is the parameter's value written as a size? */
bool mp_param_is_size(enum mp_param p);
/* A value as the report writes it: "-", a name, a size (32K) or a number. */
struct mp_buf;
void mp_param_put(struct mp_buf *b, enum mp_param p, int64_t v);
bool mp_same_structure(const struct mp_structure *a, const struct mp_structure *b);
/* "L2 unified", "L1 data TLB 4K": the structure a parameter belongs to. */
void mp_structure_label(char *out, size_t n, const struct mp_structure *s);
/* "L2 unified ways", "L1 data TLB 4K entries": what a parameter is about. */
void mp_param_label(char *out, size_t n, const struct mp_structure *s, enum mp_param param);
/* A counter probe's value, appended; NULL when the table is full. */
struct mp_vote *mp_result_add_counted(struct mp_result *r, const char *probe,
				      const struct mp_structure *s, enum mp_param param);
/* The rounds' vote on a parameter, replacing an earlier one on the same; NULL when full. */
struct mp_vote *mp_result_vote(struct mp_result *r, const char *probe,
			       const struct mp_structure *s, enum mp_param param);
const struct mp_vote *mp_result_find_voted(const struct mp_result *r,
					   const struct mp_structure *s, enum mp_param param);
/* Is a measured parameter's value in doubt: voted on in rounds, and split? */
bool mp_result_unstable(const struct mp_result *r, const struct mp_structure *s,
			enum mp_param param);

/*
 * Merge the counter values into caches[] and tlbs[] (method "counters", or
 * "both" where timing agrees); a disagreement adds a note.  With `compare`
 * (method both) comparisons[] gets every parameter either method measured.
 * The suite calls it once, after the last probe.
 */
void mp_result_reconcile(struct mp_result *r, bool compare);

/* The CPUs of the core-to-core pairs, ascending, at most max; how many. */
int32_t mp_c2c_cpus(const struct mp_c2c *c, int32_t *cpus, int32_t max);
/* The latency between two CPUs (either order); NaN when not measured. */
double mp_c2c_latency(const struct mp_c2c *c, int32_t a, int32_t b);

/* A core type's caches and TLBs: those of a result. */
void mp_core_type_copy(struct mp_core_type *t, const struct mp_result *from);

/*
 * The boot CPU's core type (core_types[0]) made the top-level caches[] and
 * tlbs[] again, after they changed (the reconciliation); nothing without
 * core types.
 */
void mp_result_boot_type_sync(struct mp_result *r);

#endif
