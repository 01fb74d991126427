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
 * may be used.
 */
struct mp_mem {
	uint8_t *base;         /* virtual address, aligned to req->align and to page_bytes */
	uint64_t bytes;
	uint64_t phys;         /* physical address of base, or MP_PHYS_UNKNOWN */
	uint64_t page_bytes;   /* page size actually mapped */
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
	/* Execute generated code (see code_build) for `steps` blocks. */
	MP_OP_CODE,
	MP_OP_COUNT
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
	 * Turn executable memory into a chain of code blocks: block i starts
	 * at m->base + offsets[i] and jumps to block i+1; the last jumps to
	 * the first.  *entry receives the start for an MP_OP_CODE run.
	 */
	enum mp_status (*code_build)(struct mp_platform *p, struct mp_mem *m,
				     const uint64_t *offsets, uint64_t n, void **entry);

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
};

struct mp_platform {
	const char *name;        /* "uefi-x86_64", "linux-x86_64", "sim" */
	uint64_t tick_hz;        /* frequency of now() and mp_sample.ticks */
	uint64_t core_hz;        /* core clock, 0 when unknown */
	uint64_t page_bytes;     /* base page size */
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
