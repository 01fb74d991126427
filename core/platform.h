/* SPDX-License-Identifier: MIT */
/*
 * The platform seam: the only way a probe reaches the machine.
 *
 * Three platforms implement it, each in platform/<name>/ with the same
 * pair mp_<name>_open / mp_<name>_close: bare metal under UEFI (efi), a
 * Linux process (linux) and the cache/TLB simulator (sim).  A probe sees
 * nothing else.  Every operation a platform cannot provide answers
 * MP_UNSUPPORTED and the probe falls back to what it can do (the AMP
 * paper's middle layer, section 2.1).  See docs/design.md.
 *
 * The machine is behind `ops`; what the user sees (log lines, progress,
 * result files) goes to `out`, which the program around the suite gives
 * the platform when it opens it.
 */
#ifndef MEMPROBE_CORE_PLATFORM_H
#define MEMPROBE_CORE_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Status of a seam operation. */
enum mp_status {
	MP_OK = 0,
	MP_UNSUPPORTED = 1, /* the platform lacks this capability */
	MP_ENOMEM = 2,      /* not enough memory of the requested kind */
	MP_EIO = 3,         /* the operation was attempted and failed */
};

/* Page size preference for an allocation. */
enum mp_page {
	MP_PAGE_ANY = 0,  /* whatever the platform maps by default */
	MP_PAGE_4K = 1,
	MP_PAGE_2M = 2,
	MP_PAGE_1G = 3,
};

/* The bytes each page size maps: x86-64's three (SDM Vol. 3A, 4.5), also the sizes the
 * simulator and Linux's huge pages offer. */
#define MP_PAGE_BYTES_4K (1ull << 12)
#define MP_PAGE_BYTES_2M (1ull << 21)
#define MP_PAGE_BYTES_1G (1ull << 30)

/* Bytes of a page size; 0 for MP_PAGE_ANY. */
static inline uint64_t mp_page_bytes(enum mp_page pg)
{
	static const uint64_t bytes[] = {
		[MP_PAGE_4K] = MP_PAGE_BYTES_4K,
		[MP_PAGE_2M] = MP_PAGE_BYTES_2M,
		[MP_PAGE_1G] = MP_PAGE_BYTES_1G,
	};

	return pg <= MP_PAGE_1G ? bytes[pg] : 0;
}

#define MP_PHYS_UNKNOWN UINT64_MAX

/* What a probe asks for. */
struct mp_mem_req {
	uint64_t bytes;
	uint64_t align;        /* power of two, at least 4096 */
	enum mp_page page;     /* preferred page size */
	bool contiguous;       /* wants physically contiguous memory */
	bool exec;             /* memory will hold generated code */
};

/*
 * What the platform gave.  `bytes` is req->bytes rounded up to whole pages
 * of `page_bytes`, on every platform: the rounded-up part is mapped too and
 * may be used.  `frame_bytes` is how far the memory is known to be
 * physically contiguous from each frame_bytes boundary: the page itself
 * natively, but only the base page in a virtual machine, whose host may
 * back a guest's large page with small pages of its own (the guest cannot
 * see that mapping); all of `bytes` when `contiguous`.
 */
struct mp_mem {
	uint8_t *base;         /* virtual address, aligned to req->align and to page_bytes */
	uint64_t bytes;
	uint64_t phys;         /* physical address of base, or MP_PHYS_UNKNOWN */
	uint64_t page_bytes;   /* page size actually mapped (what the TLBs see) */
	uint64_t frame_bytes;  /* physically contiguous run, at most page_bytes (above) */
	bool contiguous;       /* known to be physically contiguous */
	void *handle;          /* platform-private */
};

/*
 * Counter events.  A platform reports which of them it can count
 * (events()); a probe asks for a subset per run.  Cache misses are counted
 * per level as the hardware or the model defines the level.
 */
enum mp_event {
	MP_EV_CYCLES = 0,      /* core cycles */
	MP_EV_INSTRUCTIONS,
	MP_EV_LOADS,
	MP_EV_STORES,
	MP_EV_L1D_MISS,
	MP_EV_L1I_MISS,
	MP_EV_L2_MISS,
	MP_EV_L3_MISS,
	MP_EV_L4_MISS,
	MP_EV_DTLB1_MISS,      /* first-level data TLB misses */
	MP_EV_DTLB2_MISS,      /* second-level (walk-causing) data TLB misses */
	MP_EV_ITLB1_MISS,
	MP_EV_ITLB2_MISS,
	MP_EV_COUNT
};

#define MP_EV_BIT(e) (1u << (e))

/* What a run does with the memory it is given. */
enum mp_op {
	/*
	 * Dependent loads: each element holds the address of the next one
	 * (a reference string built by core/seq/cycle.c); `steps` loads from
	 * `start`.  The chain must be a cycle.
	 */
	MP_OP_CHASE = 0,
	/* Independent loads of base + i * stride, i = 0 .. count-1, `steps` total. */
	MP_OP_LOAD_SWEEP,
	/* Independent stores to base + i * stride, same shape as LOAD_SWEEP. */
	MP_OP_STORE_SWEEP,
	/*
	 * Execute a chain of code blocks (code_build) for `steps` blocks from
	 * the block at `start`; mp_sample.end is the block after the last one
	 * run, so a chain continues where it stopped, as a chase does.
	 */
	MP_OP_CODE,
	/*
	 * Run an arithmetic kernel (kernel_build) for `steps` iterations of its
	 * loop, each performing mp_kernel.ops operations.
	 */
	MP_OP_KERNEL,
	MP_OP_COUNT
};

/*
 * A chain of code blocks: the instruction-side twin of a pointer cycle.
 * Block i starts at m->base + offsets[i] and spans exactly block_bytes
 * bytes, every one of which the processor fetches: instructions that do
 * nothing, then a jump to block i + 1 (the last to block 0).  The layout
 * (offsets in visiting order) comes from core/seq/, the same generator as
 * the data strings'; the platform only encodes it.  block_bytes is at
 * least mp_platform.code_block_min, and no two blocks overlap.
 *
 * A serial chain (docs/algorithms.md, "Code chains") hides each block's
 * successor from the front end until the block has run, so that no fetch
 * runs ahead of execution and each costs its level's latency; its blocks
 * hold as many instructions per line as the platform can, more than most
 * decoded-op caches keep, so that lines are fetched and decoded (not on
 * every processor: "Code chains").  Its blocks are at least
 * mp_platform.code_serial_min bytes.
 */
struct mp_code {
	const uint64_t *offsets;
	uint64_t n;
	uint64_t block_bytes;
	bool serial;
};

/* The operations an arithmetic kernel times (X-Ray section 3). */
enum mp_arith {
	MP_ARITH_INT_ADD = 0,
	MP_ARITH_INT_MUL,
	MP_ARITH_INT_DIV,
	MP_ARITH_FP_ADD,
	MP_ARITH_FP_MUL,
	MP_ARITH_FP_DIV,
	MP_ARITH_FP_FMA,        /* fused multiply-add: x = x + a * b */
	MP_ARITH_COUNT
};

/* "int-add", "fp-fma", ...: the names in model files and results; NULL out of range. */
const char *mp_arith_name(enum mp_arith op);

/* Operand widths in bits: a scalar, and the vector widths (SSE, AVX2, AVX-512). */
#define MP_WIDTH_SCALAR 64u
#define MP_WIDTH_MAX 512u

/*
 * An arithmetic kernel: a loop whose body performs `ops` operations of one
 * kind and width in `chains` independent dependency chains (operation j
 * belongs to chain j mod chains; each depends on the one before it in its
 * chain, across iterations too).  One chain times the latency; enough
 * chains, the throughput.  Integer operations are on 64-bit integers
 * (scalar) or 32-bit lanes (vectors), floating point on doubles; the
 * platform chooses operand values that keep every result an ordinary
 * number (no overflow, no denormal).  ops is a multiple of chains.
 */
struct mp_kernel {
	enum mp_arith op;
	uint32_t width;        /* MP_WIDTH_SCALAR, 128, 256 or 512 */
	uint32_t chains;
	uint32_t ops;
};

struct mp_run {
	enum mp_op op;
	void *start;           /* CHASE/CODE: first element; SWEEP: base */
	uint64_t stride;       /* SWEEP only */
	uint64_t count;        /* SWEEP only: elements before wrapping */
	uint64_t steps;        /* accesses (or blocks) to perform */
	uint32_t events;       /* MP_EV_BIT mask of counters wanted */
	const char *region;    /* name of the reference string, for the simulator's causes of misses */
};

/* What a run measured. */
struct mp_sample {
	uint64_t ticks;               /* elapsed, in tick_hz units */
	uint32_t valid;               /* MP_EV_BIT mask of counted events */
	uint64_t count[MP_EV_COUNT];  /* deltas, valid where the bit is set */
	void *end;                    /* CHASE: the element reached (keeps the chase honest) */
};

enum mp_log_level { MP_LOG_INFO = 0, MP_LOG_WARN, MP_LOG_ERROR };

/* "", "warning: ", "error: ": how every program prefixes a log line of that level. */
const char *mp_log_prefix(enum mp_log_level lvl);

/*
 * Where what the user sees goes: given by the program around the suite
 * (the UEFI application, the Linux commands) when it opens a platform.
 * `ctx` is passed back to each.
 */
struct mp_output {
	void (*log)(void *ctx, enum mp_log_level lvl, const char *msg);
	/* Long work reports how far it is: `what` done of `total`. */
	void (*progress)(void *ctx, const char *what, uint64_t done, uint64_t total);
	/* Store a result file (whole contents) under this run's directory. */
	enum mp_status (*sink)(void *ctx, const char *name, const char *data, size_t len);
	void *ctx;
};

/*
 * Logical CPUs (the multi-processor part of the seam).  A platform numbers
 * the logical CPUs it can run on 0 .. cpu_count-1; CPU 0 is the one the
 * suite started on (the boot processor).  The structure comes from the
 * processor itself where it tells (CPUID's topology leaves), else from the
 * operating system or firmware; MP_CPU_UNKNOWN where nobody says.
 */
#define MP_CPU_UNKNOWN UINT32_MAX
#define MP_CPU_TYPE_LEN 24

struct mp_cpu_info {
	uint32_t apic_id;      /* x2APIC ID (the simulator: the CPU's index) */
	uint32_t package;      /* socket */
	uint32_t die;          /* die, CCD or module; MP_CPU_UNKNOWN where the CPU has none */
	uint32_t cluster;      /* core complex (AMD CCX) sharing a last-level cache; MP_CPU_UNKNOWN where none */
	uint32_t core;         /* core within the package */
	uint32_t thread;       /* SMT thread within the core */
	char type[MP_CPU_TYPE_LEN]; /* core type ("P-core", "E-core", a model's cpu name); "" when one kind */
};

struct mp_platform;

struct mp_platform_ops {
	/* Monotonic timestamp in units of mp_platform.tick_hz. */
	uint64_t (*now)(struct mp_platform *p);

	enum mp_status (*mem_alloc)(struct mp_platform *p, const struct mp_mem_req *req,
				    struct mp_mem *out);
	void (*mem_free)(struct mp_platform *p, struct mp_mem *m);

	/* Perform a run; the inner loop lives here so hardware can unroll it
	 * and the simulator can see every address. */
	enum mp_status (*run)(struct mp_platform *p, const struct mp_run *r, struct mp_sample *out);

	/* MP_EV_BIT mask of the events run() can count. */
	uint32_t (*events)(struct mp_platform *p);

	/* Flush one line (clflush) or every cache and TLB. */
	enum mp_status (*flush_line)(struct mp_platform *p, const void *addr);
	enum mp_status (*flush_all)(struct mp_platform *p);

	/* Mask interrupts for a bounded measurement window; unmask after. */
	enum mp_status (*irq_mask)(struct mp_platform *p);
	void (*irq_unmask)(struct mp_platform *p);

	/*
	 * Turn executable memory (mp_mem_req.exec) into a chain of code
	 * blocks (struct mp_code); *entry receives block 0, where an
	 * MP_OP_CODE run may start (as may any block).  The code is written,
	 * then the processor is serialized, so that no stale instruction runs.
	 * MP_EIO when a block does not fit the memory or is too short.
	 */
	enum mp_status (*code_build)(struct mp_platform *p, struct mp_mem *m,
				     const struct mp_code *c, void **entry);

	/*
	 * Write an arithmetic kernel into executable memory; *entry is where
	 * an MP_OP_KERNEL run starts.  MP_UNSUPPORTED when the processor has
	 * no such operation at that width, or not that many registers for the
	 * chains; MP_EIO when it does not fit the memory.
	 */
	enum mp_status (*kernel_build)(struct mp_platform *p, struct mp_mem *m,
				       const struct mp_kernel *k, void **entry);

	/*
	 * Let about `us` microseconds pass without measuring, so that other
	 * activity on the machine (a hypervisor, a neighbour sharing the
	 * core) may move on before a measurement is repeated.  False when
	 * waiting changes nothing (the simulator without a modelled
	 * neighbour).  Optional: NULL where nothing else runs (bare metal,
	 * where the other processors wait in the firmware).
	 */
	bool (*rest)(struct mp_platform *p, uint32_t us);

	/*
	 * The suite starts the probe `name` / has finished it.  Optional: the
	 * simulator counts the causes of misses per probe.
	 */
	void (*probe_begin)(struct mp_platform *p, const char *name);
	void (*probe_end)(struct mp_platform *p, const char *name);

	/*
	 * The logical CPUs.  Optional, all of them: a platform without them
	 * has one CPU, number 0, that every run uses.
	 *
	 * cpu_count: how many logical CPUs the platform can run on.
	 * cpu_info: what CPU `cpu` is (MP_EIO when the platform cannot tell).
	 * cpu_select: every later run (and now(), kernels, code) executes on
	 *   logical CPU `cpu` until the next cpu_select; memory allocated
	 *   before stays valid on it.  Only the seam's operations move.
	 * run_beside: perform `r` on the selected CPU, as run() does, while
	 *   logical CPU `other` performs `load` over and over from the moment
	 *   r starts until it ends (X-Ray's SMP/SMT interference: `load` sweeps
	 *   a footprint of its own).  `out` is r's sample.  MP_UNSUPPORTED when
	 *   `other` cannot run beside the selected CPU.
	 * cpu_home: logical CPU `cpu` becomes CPU 0, the suite's own, and is
	 *   selected; the CPU that was 0 takes its number (nothing else moves).
	 *   NULL where the suite cannot move (bare metal runs on the boot
	 *   processor).
	 * pingpong: logical CPUs `a` and `b` take turns writing the 64-bit word
	 *   at `line`: a writes an odd value, b waits to see it and writes the
	 *   next even one, a waits for that, `rounds` times.  out->ticks is the
	 *   time of all the rounds, as the selected CPU's now() counts it
	 *   (tick_hz), so one round is two transfers of the line.
	 */
	uint32_t (*cpu_count)(struct mp_platform *p);
	enum mp_status (*cpu_info)(struct mp_platform *p, uint32_t cpu, struct mp_cpu_info *out);
	enum mp_status (*cpu_select)(struct mp_platform *p, uint32_t cpu);
	enum mp_status (*cpu_home)(struct mp_platform *p, uint32_t cpu);
	enum mp_status (*run_beside)(struct mp_platform *p, const struct mp_run *r,
				     struct mp_sample *out, uint32_t other,
				     const struct mp_run *load);
	enum mp_status (*pingpong)(struct mp_platform *p, uint32_t a, uint32_t b, void *line,
				   uint64_t rounds, struct mp_sample *out);
};

struct mp_platform {
	const char *name;        /* "uefi-x86_64", "linux-x86_64", "sim" */
	uint64_t tick_hz;        /* frequency of now() and mp_sample.ticks */
	uint64_t core_hz;        /* core clock, 0 when unknown */
	uint64_t page_bytes;     /* base page size */
	uint64_t code_block_min; /* bytes of the shortest block code_build makes */
	uint64_t code_serial_min; /* and of the shortest block of a serial chain */
	bool code_serial_redirects; /* a serial block's time holds a redirect beside its fetch */
	const struct mp_platform_ops *ops;
	const struct mp_output *out;
	void *priv;              /* the platform's own state */
};

/* Short forms so a probe reads naturally. */
static inline uint64_t mp_now(struct mp_platform *p) { return p->ops->now(p); }

/* Rest `us` microseconds; false where the platform has nothing to wait for. */
static inline bool mp_rest(struct mp_platform *p, uint32_t us)
{
	return p->ops->rest && p->ops->rest(p, us);
}

/* Logical CPUs the platform can run on: 1 where it cannot choose. */
static inline uint32_t mp_cpu_count(struct mp_platform *p)
{
	return p->ops->cpu_count ? p->ops->cpu_count(p) : 1;
}

/* Run later operations on logical CPU `cpu`; CPU 0 is always there. */
static inline enum mp_status mp_cpu_select(struct mp_platform *p, uint32_t cpu)
{
	if (!p->ops->cpu_select)
		return cpu == 0 ? MP_OK : MP_UNSUPPORTED;
	return p->ops->cpu_select(p, cpu);
}

static inline enum mp_status mp_run(struct mp_platform *p, const struct mp_run *r,
				    struct mp_sample *s)
{
	return p->ops->run(p, r, s);
}

static inline void mp_log(struct mp_platform *p, enum mp_log_level l, const char *m)
{
	p->out->log(p->out->ctx, l, m);
}

static inline void mp_progress(struct mp_platform *p, const char *what, uint64_t done,
			       uint64_t total)
{
	p->out->progress(p->out->ctx, what, done, total);
}

static inline enum mp_status mp_sink(struct mp_platform *p, const char *name, const char *data,
				     size_t len)
{
	return p->out->sink(p->out->ctx, name, data, len);
}

/* mp_log of a line formatted as by mp_buf_printf, cut short at two result texts' length. */
void mp_logf(struct mp_platform *p, enum mp_log_level lvl, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
