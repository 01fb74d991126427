/* SPDX-License-Identifier: MIT */
/*
 * The simulator's insides, shared by its files and by nobody else:
 *   sets.c     a set-associative array of keys (caches and TLBs are built on it)
 *   slice.c    hashed indexing: the slice and set of a line in a sliced cache
 *   map.c      a hash map (reverse frames, shadow caches)
 *   vm.c       virtual-to-physical mappings and frames
 *   hier.c     the hierarchy: translation, the walk down the levels, fills,
 *              inclusion, noise
 *   prefetch.c the hardware prefetcher
 *   causes.c   MemSpy's causes of misses
 *   sim.c      building the simulator from a model; queries and flushes
 *   cpus.c     the logical CPUs: their paths through the instances, select,
 *              a run beside another CPU's, ping-pong
 *   run.c      the seam's operations as loops over sim_access()
 * and, on sim.h alone, model*.c (the model files), platform.c (the seam) and
 * main.c (memprobe-sim).
 *
 * Speed follows MemSpy's hit bypassing (thesis section 5.3.2): an access
 * that hits the first TLB and the first cache costs two set probes (a way
 * predictor makes each one compare at any associativity) and two replacement
 * updates, with no unpredictable branch; everything else is the slow path.
 */
#ifndef MEMPROBE_SIM_SIMINT_H
#define MEMPROBE_SIM_SIMINT_H

#include "sim/sim.h"

#define SIM_NONE UINT64_MAX
#define SIM_MAX_PAGES MP_SIM_MAX_PAGE_SIZES
#define SIM_MAX_REGIONS 512
#define SIM_HINT_MAX 4096      /* entry-predictor slots per array */
#define SIM_BIMODAL_LOW 32     /* bimodal: one fill in this many goes to the lru end */

#define sim_likely(x) __builtin_expect(!!(x), 1)
#define sim_unlikely(x) __builtin_expect(!!(x), 0)

/* xorshift64*: every random choice the simulator makes is seeded. */
static inline uint64_t sim_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1Dull;
}

/* A uniform integer below n. */
static inline uint64_t sim_below(uint64_t *state, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)sim_rand(state) * n) >> 64);
}

/* The seed of the gaps between a neighbour's extra spans (sim/hier.c, neighbour_ways). */
#define SIM_EXTRA_SEED 7u

static inline uint64_t sim_seed(uint64_t seed)
{
	return seed ? seed * 0x9E3779B97F4A7C15ull : 0x853C49E6748FEA9Bull;
}

/* ---- slice.c ---- */

/* A hashed index (index=hash): set = slice(line) * sets per slice + low bits of line. */
struct sim_slice {
	uint64_t (*slice_of)(const struct sim_slice *h, uint64_t line);
	uint64_t mask[MP_SIM_MAX_MASKS]; /* xor: the masks shifted to line numbers */
	uint32_t nmasks;
	uint64_t slices;
	uint64_t salt;             /* random: from the seed */
	uint64_t set_mask;         /* sets per slice - 1 */
	unsigned set_bits;         /* log2 of sets per slice */
};

/* The set (slice * sets per slice + set in slice) of a line number. */
uint64_t sim_slice_set(const struct sim_slice *h, uint64_t line);

/* ---- sets.c ---- */

/* Zeroed memory for simulator state; large blocks get huge pages (host TLB). */
void *sim_zalloc(uint64_t bytes);
void sim_zfree(void *p, uint64_t bytes);

/*
 * The fields a hit reads come first, in the first two host cache lines.
 * Row s (stride words) holds the keys of set s, then its stamps or tree
 * bits; entry e = s * stride + way, and its stamp is stamp[e].
 */
struct sim_sets {
	uint64_t *key;         /* nsets rows; SIM_NONE marks an empty way */
	uint32_t *hint;        /* entry predictor indexed by key */
	uint64_t *stamp;       /* key + ways: lru last use, fifo fill time (else NULL) */
	uint64_t *plru;        /* key + ways: tree bits, row s at plru[s * stride] (else NULL) */
	uint64_t *plru_and;    /* per way, when one word holds the tree: */
	uint64_t *plru_or;     /*   touch = (bits & and) | or */
	uint64_t *aux;         /* a value kept with each key (TLBs: the frame), or NULL */
	uint64_t set_mask;     /* nsets - 1 when nsets is a power of two */
	uint64_t low_mask;     /* bytes one key covers - 1 */
	uint64_t clock;
	uint32_t ways;
	uint32_t stride;       /* words per row */
	uint32_t hint_mask;
	unsigned shift;        /* log2 of the bytes one key covers */
	enum mp_replacement repl;
	bool pow2;
	uint64_t nsets;
	unsigned __int128 recip; /* for the remainder when nsets is no power of two */
	const struct sim_slice *slice; /* a hashed index (pow2 is then false), or NULL */
	uint32_t plru_words;
	uint32_t plru_depth;
	uint64_t rng;
};

int sim_sets_init(struct sim_sets *a, uint64_t entries, uint64_t ways, unsigned shift,
		  enum mp_replacement repl, uint64_t seed, bool with_aux);
void sim_sets_free(struct sim_sets *a);
void sim_sets_clear(struct sim_sets *a);
/* The key a fill of set would displace; SIM_NONE for none or not known (random). */
uint64_t sim_sets_peek(const struct sim_sets *a, uint64_t set);
/* Place key (and aux) in its set; returns the key it displaced, SIM_NONE for none. */
uint64_t sim_sets_fill(struct sim_sets *a, uint64_t set, uint64_t key, uint64_t ikey,
		       uint64_t aux);
void sim_sets_drop(struct sim_sets *a, uint64_t entry);
void sim_plru_touch_tree(struct sim_sets *a, uint64_t set, uint32_t way);

/* map.c: 64-bit keys (not SIM_NONE) to 64-bit values */
struct sim_map {
	uint64_t *key;
	uint64_t *val;
	uint64_t mask;
	uint64_t n;
};

int sim_map_init(struct sim_map *m, uint64_t cap);
void sim_map_free(struct sim_map *m);
void sim_map_clear(struct sim_map *m);
uint64_t *sim_map_get(const struct sim_map *m, uint64_t key);
int sim_map_put(struct sim_map *m, uint64_t key, uint64_t val);
void sim_map_del(struct sim_map *m, uint64_t key);

/* n mod d by multiplying with a 128-bit reciprocal (exact for every 64-bit n). */
static inline uint64_t sim_mod(uint64_t n, unsigned __int128 recip, uint64_t d)
{
	unsigned __int128 low = recip * n;
	unsigned __int128 lo = (unsigned __int128)(uint64_t)low * d;
	unsigned __int128 hi = (unsigned __int128)(uint64_t)(low >> 64) * d;

	return (uint64_t)((hi + (lo >> 64)) >> 64);
}

static inline uint64_t sim_sets_entry(const struct sim_sets *a, uint64_t set, uint32_t way)
{
	return set * a->stride + way;
}

/* The set of n: its low bits, their remainder, or a hashed index (off the hit path). */
static inline uint64_t sim_sets_index(const struct sim_sets *a, uint64_t n)
{
	if (sim_likely(a->pow2))
		return n & a->set_mask;
	if (a->slice)
		return sim_slice_set(a->slice, n);
	return sim_mod(n, a->recip, a->nsets);
}

/*
 * The entry holding key in the set whose row starts at entry `first`
 * (set * stride), or -1.  ikey is the number the set was indexed by (the
 * virtual line for a virtually indexed cache): the predictor, indexed by it
 * too, remembers the entry it last used, so its guess can be read before the
 * physical key is known.  A guess outside the set is not even read (in a
 * large cache that read would be one more host cache miss); a wrong one
 * costs a scan.
 */
static inline int64_t sim_sets_find(struct sim_sets *a, uint64_t first, uint64_t key,
				    uint64_t ikey)
{
	uint32_t e = a->hint[ikey & a->hint_mask];

	if (sim_likely(e - first < a->ways && a->key[e] == key))
		return e;
	for (uint64_t i = first; i < first + a->ways; i++) {
		if (a->key[i] == key) {
			a->hint[ikey & a->hint_mask] = (uint32_t)i;
			return (int64_t)i;
		}
	}
	return -1;
}

/* A use of entry, in the set whose row starts at `first`. */
static inline void sim_sets_touch(struct sim_sets *a, uint64_t first, uint64_t entry)
{
	if (a->repl == MP_REPL_LRU || a->repl == MP_REPL_BIMODAL) {
		a->stamp[entry] = ++a->clock;
	} else if (a->repl == MP_REPL_PLRU) {
		uint32_t way = (uint32_t)(entry - first);
		uint64_t *bits = a->plru + first;

		if (sim_likely(a->plru_and != NULL))
			*bits = (*bits & a->plru_and[way]) | a->plru_or[way];
		else
			sim_plru_touch_tree(a, first / a->stride, way);
	}
}

struct sim_tlb;
/* A hashed TLB (index=hash): every set a slice of one set, by the balanced random hash. */
void sim_tlb_hash_init(struct sim_tlb *t);
/* Give a's sets (slices * sets per slice of them) c's hashed index, kept in h. */
void sim_slice_init(struct sim_slice *h, struct sim_sets *a, const struct mp_sim_cache_model *c);

/* ---- the hierarchy ---- */

/*
 * One instance of a cache line of the model: a core's own, or one shared
 * by the cores lo .. hi-1 (global core numbers).  Its sets are made when a
 * CPU using it is first selected (a.key NULL until then).
 */
struct sim_cache {
	struct sim_sets a;
	struct mp_sim_cache_model m;
	struct sim_slice slice;    /* index=hash: a.slice points here */
	struct sim_cache *below;   /* next level down on this cache's path */
	int idx;                   /* the model's cache line: mp_sim.model.caches[idx] */
	uint32_t lo, hi;           /* the cores that use it */
	struct sim_cache **ups;    /* made instances above it on its cores' paths (inclusion) */
	int nups, cap_ups;
	bool victims_matter;       /* inclusive, or an exclusive level below takes them */
	bool explained;            /* on CPU 0's paths: the causes of misses follow it */
};

struct sim_tlb {
	struct sim_sets a;
	struct mp_sim_tlb_model m;
	struct sim_slice slice;    /* index=hash: a.slice points here */
};

/* The TLB structures one kind of access looks up for one page size. */
struct sim_tlbpath {
	int n;
	struct sim_tlb *t[MP_MAX_TLBS];
	int8_t ev[MP_MAX_TLBS];    /* counter a miss there bumps, -1 none */
};

/* Everything a data access (path 0) or an instruction fetch (path 1) meets. */
struct sim_path {
	struct sim_sets *tlb1;     /* first TLB for the page size used last, or NULL */
	struct sim_sets *l1;       /* first cache; NULL when none or every access is slow */
	uint32_t l1_latency;
	int l1_level;
	bool l1_physical;
	bool slow;                 /* every access takes the slow path */
	uint32_t page;             /* page size (index) of the last access */
	int n;
	struct sim_cache *c[MP_MAX_CACHES];
	int8_t ev[MP_MAX_CACHES];  /* counter a miss there bumps, -1 none */
	struct sim_tlbpath tlb[SIM_MAX_PAGES];
	int pf;                    /* position the prefetcher watches, -1 none */
};

struct sim_region {
	uint64_t va;
	uint64_t bytes;
	uint64_t pa;               /* contiguous: physical address of va */
	uint64_t *frame;           /* scattered: physical base of each page */
	uint8_t *left[MP_SIM_MAX_CACHES]; /* causes: why each line last left each cache line */
	uint32_t page;             /* index into mp_sim.page_bytes */
	unsigned shift;
	unsigned fshift;           /* of a frame: the page's, or the base page's (frames host=) */
};

struct sim_prefetcher {
	uint64_t last;
	int64_t stride;
	uint32_t confirmed;
};

struct sim_causes;

/* A logical CPU: its paths through the instances, its counters, its prefetcher. */
struct sim_cpu {
	struct sim_path path[2];
	uint64_t count[MP_EV_COUNT];
	struct sim_prefetcher pf;
	uint64_t fetch_line;       /* line of the first fetch-side cache: a fetch's unit */
	int ncaches;               /* the instances it uses */
	struct sim_cache *cache[MP_MAX_CACHES];
	int ntlbs;
	struct sim_tlb *tlb[MP_MAX_TLBS];
	int type;                  /* in mp_sim.model.types[] */
	uint32_t core;             /* global core number (types in order) */
	uint32_t core_in_type;
	uint32_t thread;
	bool built;                /* its instances' sets are made */
};

struct mp_sim {
	uint64_t cycles;           /* the machine's clock */
	uint64_t event_left;       /* accesses until the next disturbance or neighbour's turn */
	uint64_t event_span;       /* what event_left was armed with */
	uint64_t noise_due;        /* accesses from the last event to the next disturbance */
	uint64_t neighbour_due;    /* ... to the neighbour's next turn */
	struct sim_path *path;     /* the selected CPU's (cur->path) */
	uint64_t *count;           /* the selected CPU's (cur->count) */
	struct sim_cpu *cur;
	uint32_t memory_latency;
	int ncaches;               /* instances of every cache line */
	struct sim_cache *cache;
	int ntlbs;
	struct sim_tlb *tlb;
	uint32_t ncpus;
	struct sim_cpu *cpu;
	int npages;
	uint64_t page_bytes[SIM_MAX_PAGES];
	unsigned page_shift[SIM_MAX_PAGES];
	int nregions;
	struct sim_region region[SIM_MAX_REGIONS];
	struct sim_region *last_region;
	uint64_t frames_next[SIM_MAX_PAGES];
	struct sim_map frame_owner; /* scattered: frame -> virtual page */
	uint64_t noise_rng;
	uint64_t extra_rng;        /* the neighbour's extra ways: the gaps between their spans */
	uint64_t extra_switch;     /* the cycle they are next taken or left */
	bool extra_held;
	struct sim_causes *causes; /* NULL unless explaining */
	struct sim_sets opcache;   /* the decoded-op cache's fetch lines (key NULL: none) */
	struct mp_sim_model model;
};

/* cpus.c: make the sets of the instances CPU c uses; -1 out of memory */
int sim_cpu_build(struct sim_cpu *c);

/* Do a level holding `a` and one holding `b` meet on some kind of access? */
static inline bool sim_shares_path(const struct sim_cache *a, const struct sim_cache *b)
{
	return a->m.type == MP_KIND_UNIFIED || b->m.type == MP_KIND_UNIFIED ||
	       a->m.type == b->m.type;
}

/* vm.c */
struct sim_region *sim_vm_find(struct mp_sim *s, uint64_t va);
int sim_vm_page_index(const struct mp_sim *s, uint64_t page_bytes);
/* The virtual address of a physical one (the reverse of the mapping). */
bool sim_vm_va(const struct mp_sim *s, uint64_t pa, uint64_t *va);
static inline uint64_t sim_vm_pa(const struct sim_region *r, uint64_t va)
{
	uint64_t off = va - r->va;

	if (!r->frame)
		return r->pa + off;
	return r->frame[off >> r->fshift] + (off & ((1ull << r->fshift) - 1));
}

/* Is va mapped?  The last region used answers most of the time. */
static inline bool sim_vm_mapped(struct mp_sim *s, uint64_t va)
{
	const struct sim_region *r = s->last_region;

	if (sim_likely(r && va - r->va < r->bytes))
		return true;
	return sim_vm_find(s, va) != NULL;
}

/* hier.c */
/* Translate va through the TLBs (misses counted and timed); SIM_NONE if unmapped. */
uint64_t sim_translate(struct mp_sim *s, struct sim_path *p, uint64_t va);
int sim_walk(struct mp_sim *s, struct sim_path *p, uint64_t va, uint64_t pa,
	     enum mp_sim_kind kind);
void sim_fill_range(struct mp_sim *s, struct sim_path *p, int lo, int h, uint64_t va,
		    uint64_t pa, bool store);
int sim_lookup_from(struct mp_sim *s, struct sim_path *p, int from, uint64_t va, uint64_t pa,
		    bool demand);
void sim_prefetch_next(struct mp_sim *s, struct sim_path *p, uint64_t va);
/* The disturbances and the neighbour's turns: arm them, and run the one due. */
void sim_events_start(struct mp_sim *s);
void sim_event(struct mp_sim *s, uint64_t va, enum mp_sim_kind kind);
void sim_cache_remove(struct mp_sim *s, struct sim_cache *c, uint64_t va, uint64_t pa, int why);

/* prefetch.c */
void sim_prefetch_observe(struct mp_sim *s, struct sim_path *p, uint64_t va, uint64_t pa,
			  bool hit);

/* causes.c: why a line left a cache */
enum sim_left { SIM_LEFT_NEVER = 0, SIM_LEFT_REPLACED, SIM_LEFT_INVALIDATED, SIM_LEFT_NOISE,
		SIM_LEFT_MOVED, SIM_LEFT_FLUSHED };
struct sim_causes *sim_causes_new(struct mp_sim *s);
void sim_causes_free(struct sim_causes *k);
void sim_causes_hit(struct mp_sim *s, struct sim_cache *c, uint64_t key);
void sim_causes_miss(struct mp_sim *s, struct sim_cache *c, uint64_t va, uint64_t key);
void sim_causes_fill(struct mp_sim *s, struct sim_cache *c, uint64_t va, uint64_t key);
void sim_causes_left(struct mp_sim *s, struct sim_cache *c, uint64_t va, uint64_t key, int why);
void sim_causes_access(struct mp_sim *s);
void sim_causes_reset(struct mp_sim *s);

/*
 * Translate through a hit in the first TLB of the page size used last;
 * SIM_NONE sends the caller to sim_translate().
 */
static inline __attribute__((always_inline)) uint64_t
sim_translate_fast(struct sim_path *p, uint64_t va)
{
	struct sim_sets *a = p->tlb1;
	uint64_t vpn, first;
	int64_t e;

	if (sim_unlikely(!a))
		return SIM_NONE;
	vpn = va >> a->shift;
	first = sim_sets_index(a, vpn) * a->stride;
	e = sim_sets_find(a, first, vpn, vpn);
	if (sim_unlikely(e < 0 || a->aux[e] == SIM_NONE))
		return SIM_NONE;  /* a miss, or a page of scattered frames: the slow path */
	sim_sets_touch(a, first, (uint64_t)e);
	return a->aux[e] + (va & a->low_mask);
}

/* One access: the level that hit, 0 for memory, -1 when va is unmapped. */
static inline __attribute__((always_inline)) int
sim_access(struct mp_sim *s, uint64_t va, enum mp_sim_kind kind)
{
	struct sim_path *p = &s->path[kind == MP_SIM_FETCH];
	struct sim_sets *a = p->l1;
	uint64_t pa, key, ikey, first;
	int64_t e;

	if (sim_unlikely(--s->event_left == 0))
		sim_event(s, va, kind);
	pa = sim_translate_fast(p, va);
	if (sim_unlikely(pa == SIM_NONE)) {
		pa = sim_translate(s, p, va);
		if (pa == SIM_NONE)
			return -1;
	}
	if (sim_unlikely(!a))
		return sim_walk(s, p, va, pa, kind);
	key = pa >> a->shift;
	ikey = p->l1_physical ? key : va >> a->shift;
	first = sim_sets_index(a, ikey) * a->stride;
	e = sim_sets_find(a, first, key, ikey);
	if (sim_unlikely(e < 0))
		return sim_walk(s, p, va, pa, kind);
	sim_sets_touch(a, first, (uint64_t)e);
	s->cycles += p->l1_latency;
	return p->l1_level;
}

#endif
