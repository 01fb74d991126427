/* SPDX-License-Identifier: MIT */
/*
 * The cache and TLB simulator: machine models read from sim/models/ *.model
 * and a simulated memory hierarchy that tests can drive one access at a
 * time.  platform/sim/ makes it a platform the suite runs against.
 * docs/simulator.md describes the model syntax and what is modelled.
 */
#ifndef MEMPROBE_SIM_SIM_H
#define MEMPROBE_SIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/platform.h"
#include "core/results/result.h"

#define MP_SIM_NAME_LEN 16
#define MP_SIM_DEFAULT_HZ 1000000000ull   /* clock when the model names none */
#define MP_SIM_MAX_LEVEL 8                /* deepest cache or TLB level */
#define MP_SIM_MAX_PAGE_SIZES 4           /* distinct TLB page sizes in one model */
#define MP_SIM_MAX_LINES (1ull << 24)     /* lines (entries) of one cache (TLB) */
#define MP_SIM_MAX_CACHES 16              /* cache lines of a model (every core type's) */
#define MP_SIM_MAX_TLBS 16                /* tlb lines of a model */
#define MP_SIM_MAX_TYPES 8                /* cpu lines of a model */
#define MP_SIM_MAX_CPUS 1024              /* logical CPUs of a model */
#define MP_SIM_SHARED_ALL 0u              /* shared=all: every core that has the structure */

/*
 * How a cache level picks the set of a line (`index=`): from the virtual or
 * the physical address bits above the line offset (plain), or hashed: the
 * physical address picks one of `slices` slices (`hash=`), and the bits above
 * the line offset the set within it (sim/slice.c, docs/simulator.md).
 */
enum mp_sim_index { MP_SIM_INDEX_VIRTUAL = 0, MP_SIM_INDEX_PHYSICAL, MP_SIM_INDEX_HASH };
enum mp_sim_hash {
	MP_SIM_HASH_NONE = 0,        /* plain index: one slice */
	MP_SIM_HASH_XOR,             /* bit i of the slice: parity(address & masks[i]) */
	MP_SIM_HASH_RANDOM,          /* a fixed pseudo-random function of the line, from seed */
};
#define MP_SIM_MAX_MASKS 8           /* xor: up to 256 slices */

/* One cache level as the model file describes it. */
struct mp_sim_cache_model {
	char name[MP_SIM_NAME_LEN];
	int32_t level;
	enum mp_kind type;
	uint64_t size;               /* bytes */
	uint64_t line;               /* bytes, a power of two */
	uint64_t ways;               /* size / line when fully associative */
	uint32_t latency;            /* load-to-use cycles of a hit here */
	enum mp_replacement replacement;
	bool write_allocate;
	enum mp_inclusion inclusion; /* towards the levels above this one */
	bool physical;               /* physically indexed (index physical or hash) */
	enum mp_sim_index index;
	/*
	 * The ground truth of a hashed level: `slices` slices of
	 * size / line / ways / slices sets each (a power of two); 1 and
	 * MP_SIM_HASH_NONE when plain.
	 */
	uint32_t slices;
	enum mp_sim_hash hash;
	uint32_t nmasks;             /* xor: slices = 2^nmasks */
	uint64_t masks[MP_SIM_MAX_MASKS]; /* xor: address masks, slice bit 0 first */
	uint64_t seed;               /* random replacement and the random hash */
	char cpu[MP_CPU_TYPE_LEN];   /* the core type that has it; "": every type */
	uint32_t shared;             /* cores sharing one instance; MP_SIM_SHARED_ALL */
	uint32_t line_no;            /* where the model defines it */
};

/* The cache's sets, over all its slices. */
static inline uint64_t mp_sim_cache_sets(const struct mp_sim_cache_model *c)
{
	return c->size / c->line / c->ways;
}

/* One TLB structure. */
struct mp_sim_tlb_model {
	char name[MP_SIM_NAME_LEN];
	int32_t level;
	enum mp_kind type;
	uint64_t entries;
	uint64_t ways;               /* entries when fully associative */
	uint64_t page;               /* bytes mapped by one entry */
	bool hashed;                 /* index=hash: the set a balanced random function of the page */
	uint32_t latency;            /* cycles a miss here adds */
	enum mp_replacement replacement;
	uint64_t seed;
	char cpu[MP_CPU_TYPE_LEN];
	uint32_t shared;
	uint32_t line_no;
};

/*
 * A core type (`cpu` line): `cores` cores of `threads` threads each.  A
 * model without cpu lines has one type of one core of one thread, named "".
 */
struct mp_sim_cpu_model {
	char name[MP_CPU_TYPE_LEN];
	uint32_t cores;
	uint32_t threads;
	uint32_t line_no;
};

/*
 * The processor's instruction timings (`op` lines): latency in cycles and
 * throughput in operations per cycle of each arithmetic operation at each
 * width (MP_SIM_WIDTHS: scalar, 128, 256, 512 bits); `set` false where the
 * model has no such operation.  An arithmetic kernel of `ops` operations
 * in `chains` chains takes max(ops / chains * latency, ops / throughput)
 * cycles per iteration.
 */
#define MP_SIM_WIDTHS 4
#define MP_SIM_MAX_CHAINS 16u        /* registers for this many chains */
struct mp_sim_op {
	uint32_t latency;
	double throughput;
	bool set;
};

enum mp_sim_prefetch {
	MP_SIM_PF_NONE = 0, MP_SIM_PF_NEXT_LINE, MP_SIM_PF_STRIDE, MP_SIM_PF_ADJACENT
};
enum mp_sim_frames { MP_SIM_FRAMES_CONTIGUOUS = 0, MP_SIM_FRAMES_SCATTERED };

struct mp_sim_model {
	char name[MP_NAME_LEN];
	uint64_t clock_hz;
	uint32_t clock_step_x100;    /* hundredths of the cycles the platform's clock moves by
					 at once (100: each cycle; 2445: 24 or 25, a TSC of 2.445
					 GHz that a hypervisor updates at 100 MHz) */
	uint32_t clock_read;         /* cycles a timed run spends reading the clock (0: none) */
	uint32_t memory_latency;     /* cycles of a load that misses every level */
	int32_t ntypes;
	struct mp_sim_cpu_model types[MP_SIM_MAX_TYPES];
	int32_t ncaches;
	struct mp_sim_cache_model caches[MP_SIM_MAX_CACHES];
	int32_t ntlbs;
	struct mp_sim_tlb_model tlbs[MP_SIM_MAX_TLBS];
	struct {
		enum mp_sim_prefetch kind;
		int32_t level;       /* trains on, and fills, this cache level */
		uint32_t degree;     /* lines fetched ahead per trigger */
	} prefetch;
	struct {
		double rate;         /* disturbances per access */
		uint32_t cycles;     /* added by one disturbance */
		uint32_t lines;      /* lines evicted per cache level */
		uint32_t tlb_entries;/* entries evicted per TLB */
		uint64_t seed;
	} noise;
	struct {
		uint32_t entries;    /* held in every TLB while it runs */
		uint32_t ways;       /* held in each set used of the caches of `level` while it runs */
		uint32_t level;
		uint64_t on, off;    /* it runs `on` cycles of every `on + off` */
		uint32_t every;      /* it touches its pages once every this many of our accesses */
		uint32_t set;        /* one_set: the one set of each cache it holds ways of */
		bool one_set;        /* `set=` given: its lines lie in that set only */
		uint32_t extra;      /* ways more it holds, while it runs, */
		uint64_t extra_on, extra_off; /* in spans of extra_on cycles, about extra_off apart */
		uint32_t cpu;        /* one_cpu: the one CPU it runs beside */
		bool one_cpu;        /* `cpu=` given: beside that CPU alone, else beside every one */
	} neighbour;
	struct {
		enum mp_sim_frames mode;
		uint64_t seed;
		bool refuse_contiguous; /* scattered: a request for contiguous memory is not granted */
		uint64_t host;          /* scattered: frames of the base page inside larger pages
					 * (a virtual machine's host), 0: a frame per page */
	} frames;
	struct {
		uint32_t windows;    /* decoded fetch lines held; 0: no decoded-op cache */
		uint32_t ways;
		uint32_t latency;    /* cycles of a line it delivers */
	} opcache;
	uint32_t counters;           /* events one run counts together; 0: every one asked */
	uint32_t vector_bits;        /* widest vector (`isa vector=`), 0: scalar only */
	struct mp_sim_op ops[MP_ARITH_COUNT][MP_SIM_WIDTHS];
};

/* Does the model have a neighbour (entries in the TLBs, or ways in a cache)? */
static inline bool sim_has_neighbour(const struct mp_sim_model *m)
{
	return m->neighbour.entries || m->neighbour.ways;
}

/* Index of a width in mp_sim_model.ops (64, 128, 256, 512 bits), -1 for any other. */
int mp_sim_width_index(uint32_t bits);

/*
 * Parse a `hash=` value (xor:MASK,MASK,... or random) into c's hash, masks
 * and nmasks (sim/slice.c); false when it is neither.  The checks that need
 * the rest of the line (slices=, line=) are mp_sim_hash_check's.
 */
bool mp_sim_hash_parse(struct mp_sim_cache_model *c, const char *v);
/* Do c's slices, hash and geometry agree?  -1 with a message in why. */
int mp_sim_hash_check(const struct mp_sim_cache_model *c, char *why, size_t why_len);

/* Parse an `op` or `isa` line's words after the statement word; -1 with a message in why. */
int mp_sim_model_op(struct mp_sim_model *m, char **tok, int n, char *why, size_t why_len);
int mp_sim_model_isa(struct mp_sim_model *m, char **tok, int n, char *why, size_t why_len);

/*
 * Read a model.  On a problem returns -1 and writes "FILE:LINE: problem"
 * into err; `file` names the text in messages.
 */
int mp_sim_model_parse(struct mp_sim_model *m, const char *file, const char *text, size_t len,
		       char *err, size_t err_len);
int mp_sim_model_load(struct mp_sim_model *m, const char *path, char *err, size_t err_len);
/* The checks across lines (levels, paths, page sizes); the parser runs them last. */
int mp_sim_model_check(const struct mp_sim_model *m, const char *file, char *err,
		       size_t err_len);

/*
 * Describe the model as documented parameters (source "model <name>"): the
 * caches and TLBs of the first core type, where logical CPU 0 is.
 */
void mp_sim_model_document(const struct mp_sim_model *m, struct mp_documented *d);

/* ---- Core types (docs/simulator.md, "Multi-core models") ---- */

/* Index of the type named `name` ("" : the first type when it has no name), or -1. */
int mp_sim_type_index(const struct mp_sim_model *m, const char *name);
/* Does core type t have the structure given to `cpu` ("" : every type)? */
bool mp_sim_type_has(const struct mp_sim_model *m, int t, const char *cpu);
/* Logical CPUs of the model: every type's cores times its threads. */
uint32_t mp_sim_model_cpus(const struct mp_sim_model *m);
/* Logical CPUs sharing one instance of a structure given to `cpu` on core type t. */
uint32_t mp_sim_shared_by(const struct mp_sim_model *m, int t, const char *cpu, uint32_t shared);
/*
 * Instances of a structure given to `cpu` with shared=`shared`, numbered
 * type after type, group after group: how many, and which one core `core`
 * (within its type t) uses.
 */
uint32_t mp_sim_instances(const struct mp_sim_model *m, const char *cpu, uint32_t shared);
uint32_t mp_sim_instance(const struct mp_sim_model *m, const char *cpu, uint32_t shared, int t,
			 uint32_t core);
/*
 * The model as one core of type t sees it: only the caches and TLBs that
 * type has, and t as the only cpu line (its cores and threads kept): the
 * parameters a probe run on that type measures (what is shared with other
 * types is not: shared=all then spans t's cores only).
 */
void mp_sim_model_type(const struct mp_sim_model *m, int t, struct mp_sim_model *out);

/* ---- The simulator, access by access ---- */

struct mp_sim;

enum mp_sim_kind { MP_SIM_LOAD = 0, MP_SIM_STORE, MP_SIM_FETCH };

/* Causes of misses (MemSpy, thesis section 4.2.7). */
enum mp_sim_cause {
	MP_SIM_COLD = 0,       /* first reference (since a flush) */
	MP_SIM_CAPACITY,       /* replaced; a fully associative LRU cache would miss too */
	MP_SIM_CONFLICT,       /* replaced; a fully associative LRU cache would hit */
	MP_SIM_INVALIDATION,   /* removed by inclusion (back-invalidation) */
	MP_SIM_NOISE,          /* evicted by a modelled disturbance */
	MP_SIM_NCAUSES
};

struct mp_sim *mp_sim_new(const struct mp_sim_model *m);
/* Parse a model text and build it: the shortest way for a test (NULL: see err). */
struct mp_sim *mp_sim_from_text(const char *text, char *err, size_t err_len);
void mp_sim_free(struct mp_sim *s);
const struct mp_sim_model *mp_sim_model(const struct mp_sim *s);

/*
 * Map [va, va + bytes) (page aligned) with pages of page_bytes (0: the base
 * page; a size no TLB of the model maps falls back to the base page).
 * Frames follow the model's `frames` mode; `contiguous` asks for one
 * physically contiguous range (the identity map), which scattered frames
 * grant unless the model refuses.  Returns the page size used, 0 when the
 * range overlaps a mapping or the table is full.
 */
uint64_t mp_sim_map(struct mp_sim *s, uint64_t va, uint64_t bytes, uint64_t page_bytes,
		    bool contiguous);
/* Is the mapping at va physically contiguous (identity-mapped, or one page)? */
bool mp_sim_contiguous(struct mp_sim *s, uint64_t va);
/* Bytes physically contiguous from each frame boundary of the mapping at va: its
 * page, or the base page where the model's host (frames host=) backs it so. */
uint64_t mp_sim_frame_bytes(struct mp_sim *s, uint64_t va);
/* The model's base page: the smallest page any TLB maps, else 4K (frames host= must be it). */
uint64_t mp_sim_model_base_page(const struct mp_sim_model *m);
void mp_sim_unmap(struct mp_sim *s, uint64_t va);
bool mp_sim_translate(struct mp_sim *s, uint64_t va, uint64_t *pa);
uint64_t mp_sim_base_page(const struct mp_sim *s);
/* The page size a mapping asking for `want` bytes per page gets. */
uint64_t mp_sim_page_size(const struct mp_sim *s, uint64_t want);

/* One access by the selected CPU: the level that hit (1, 2, ...), 0 for memory, -1 unmapped. */
int mp_sim_access(struct mp_sim *s, uint64_t va, enum mp_sim_kind kind);

/* Is the line of va held by the named cache or TLB (the selected CPU's instance)? */
bool mp_sim_holds(struct mp_sim *s, const char *name, uint64_t va);
/*
 * Where the line of va goes in the named cache: its slice (0 for a plain
 * index) and its set within the slice.  Lines of equal slice and set are
 * congruent: they compete for the set's ways.  False when va is unmapped or
 * no cache has that name.
 */
bool mp_sim_locate(struct mp_sim *s, const char *name, uint64_t va, uint64_t *slice,
		   uint64_t *set);

uint64_t mp_sim_cycles(const struct mp_sim *s);
/*
 * Let `us` microseconds of simulated time pass without an access: only a
 * modelled neighbour notices (it may have stopped or started).  False, and
 * no time passes, when the model has none.
 */
bool mp_sim_rest(struct mp_sim *s, uint64_t us);
/* Let `cycles` pass on the selected CPU without an access (a run's reading of its clock). */
void mp_sim_spend(struct mp_sim *s, uint64_t cycles);
/* The selected CPU's count of e (cycles: the machine's clock). */
uint64_t mp_sim_count(const struct mp_sim *s, enum mp_event e);
/* Every CPU's counts of e added up. */
uint64_t mp_sim_count_all(const struct mp_sim *s, enum mp_event e);
uint32_t mp_sim_events(const struct mp_sim *s);   /* MP_EV_BIT mask the model counts */

void mp_sim_flush_line(struct mp_sim *s, uint64_t va);
void mp_sim_flush_all(struct mp_sim *s);

/* Runs of the seam's operations; false when an address is unmapped. */
bool mp_sim_chase(struct mp_sim *s, void *start, uint64_t steps, void **end);
bool mp_sim_sweep(struct mp_sim *s, uint64_t base, uint64_t stride, uint64_t count,
		  uint64_t steps, enum mp_sim_kind kind);
/*
 * A chain of code blocks as the sim platform's code_build writes it into
 * host memory: at each block's address its successor's address, its length
 * and whether the chain is serial.  A fetch run fetches every line of the
 * first fetch-side cache that each block spans, in order, block after
 * block, from the model's decoded-op cache where it holds the line and the
 * chain is not serial; *end is the block after the last one run.
 */
struct mp_sim_block {
	uint64_t next;
	uint32_t bytes;
	uint32_t serial;
};
#define MP_SIM_BLOCK_MAX (1ull << 20)   /* a longer block is taken as a broken chain */
bool mp_sim_fetch_chain(struct mp_sim *s, void *start, uint64_t steps, void **end);
/* An arithmetic kernel for `steps` iterations: its time by the model's `op` lines; false if none. */
bool mp_sim_kernel(struct mp_sim *s, const struct mp_kernel *k, uint64_t steps);

/* ---- Logical CPUs (sim/cpus.c) ---- */

/*
 * CPUs are numbered in the order of cpu lines, cores, threads; CPU 0 is
 * selected when the simulator is made.  Selecting one sends later accesses
 * down its paths (and counts them in its counters); the clock runs on.
 * False for a CPU the model has not (or no memory for its caches).
 */
uint32_t mp_sim_cpus(const struct mp_sim *s);
uint32_t mp_sim_selected(const struct mp_sim *s);
bool mp_sim_select(struct mp_sim *s, uint32_t cpu);
/* apic_id = cpu, package 0, cluster = the instance of its last cache level. */
bool mp_sim_cpu_info(const struct mp_sim *s, uint32_t cpu, struct mp_cpu_info *out);

/* A run performed a few steps at a time: step(ctx, n) does n more; false on a fault. */
struct mp_sim_stepper {
	bool (*step)(void *ctx, uint64_t n);
	void *ctx;
};
/*
 * `steps` steps of `run` on the selected CPU while CPU `other` performs
 * `load` over and over, interleaved in simulated time; the clock ends
 * where the run's own time ends.  False when other is the selected CPU or
 * not there, or a step failed.
 */
bool mp_sim_beside(struct mp_sim *s, uint64_t steps, const struct mp_sim_stepper *run,
		   uint32_t other, const struct mp_sim_stepper *load);
/*
 * CPUs a and b take turns writing the line of va, `rounds` times: *cycles
 * (also added to the clock) is 2 * rounds transfers (docs/simulator.md).
 */
bool mp_sim_pingpong(struct mp_sim *s, uint32_t a, uint32_t b, uint64_t va, uint64_t rounds,
		     uint64_t *cycles);

/*
 * Causes of misses.  Off by default (it costs the fast path); when on,
 * every miss is counted under the current probe and region.
 */
void mp_sim_explain(struct mp_sim *s, bool on);
void mp_sim_set_probe(struct mp_sim *s, const char *probe);
void mp_sim_set_region(struct mp_sim *s, const char *region);
/* Misses by cause in the named cache for a probe and region; false if none. */
bool mp_sim_causes(const struct mp_sim *s, const char *probe, const char *region,
		   const char *cache, uint64_t out[MP_SIM_NCAUSES]);
void mp_sim_print_causes(const struct mp_sim *s, FILE *f);

#endif
