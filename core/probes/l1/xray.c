/* SPDX-License-Identifier: MIT */
/*
 * X-Ray's L1 data cache algorithm (Yotov et al. 4.4, figures 8 and 10):
 * <S, n> is n words S bytes apart; as S doubles the shortest non-compact n
 * halves until it bottoms out at A + 1 (Theorem 1).  Figure 8 finds A and
 * C, figure 10 the line.  docs/algorithms.md, "L1 data cache".
 */
#include "core/probes/l1/l1.h"

/*
 * The ladder's first stride, in elements: 64 bytes of loads; 512 bytes of
 * x86 serial code blocks, since blocks in adjacent lines are what a
 * next-line prefetch serves (docs/algorithms.md, "Instruction caches").
 */
#define XRAY_S0_ELEMS 8u
/* The ladder's last stride. */
#define XRAY_S_MAX (256ull << 10)

/* Smallest n in (lo, hi] that spills; lo does not, hi does. */
static int smallest_spill(struct mp_compact_set *s, uint64_t stride, uint64_t lo, uint64_t hi,
			  uint64_t *n)
{
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		int m = mp_l1_spills(s, stride, mid);

		if (m < 0)
			return -1;
		if (m)
			hi = mid;
		else
			lo = mid;
	}
	*n = hi;
	return 0;
}

/* Figure 8's first loop: n doubles (from 2: one word always fits) until <S, n> spills. */
static int first_spill(struct mp_compact_set *s, uint64_t stride, uint64_t *n)
{
	for (uint64_t k = 2; k <= MP_COMPACT_SET_MAX_ELEMS; k *= 2) {
		int m = mp_l1_spills(s, stride, k);

		if (m < 0)
			return -1;
		if (m)
			return smallest_spill(s, stride, k / 2, k, n);
	}
	return 1;
}

/* Figure 8's second loop; 1 when the ladder ran out before n settled. */
static int ladder(struct mp_compact_set *s, uint64_t *ways, uint64_t *way)
{
	uint64_t stride = XRAY_S0_ELEMS * s->elem, n, old;
	int st = first_spill(s, stride, &n);

	while (st == 0) {
		old = n;
		stride *= 2;
		if (stride > XRAY_S_MAX)
			return 1;
		if ((st = smallest_spill(s, stride, 1, old, &n)) != 0)
			break;
		if (n == old) {
			*ways = n - 1;
			*way = stride / 2;
			return 0;
		}
	}
	return st;
}

/*
 * Figure 10 on <C/A, 2H, b>, H = (A + 2) / 2 words a half (X-Ray moves A
 * of 2A): together the halves over-fill a set by a line or two, apart each
 * leaves (A - 1) / 2 ways to a neighbour on the core, whose lines would
 * make both halves of 2A spill at the line and fit only further (docs/
 * algorithms.md, "L1 data cache", over time).  0 when no b below the way
 * made the set compact.
 */
static int block(struct mp_compact_set *s, uint64_t ways, uint64_t way, uint64_t *line)
{
	for (uint64_t b = s->elem; b < way; b *= 2) {
		struct mp_ref_stride x = mp_ref_xray_block(way, (ways + 2) / 2, b);
		int c = mp_compact_set_compact(s, &x);

		if (c != 0) {
			*line = b;
			return c;
		}
	}
	return 0;
}

/*
 * The ways and way again at other places in memory (each round of a
 * compact-set test takes a random offset): A words a way apart fit and
 * A + 1 do not, 2A half a way apart fit and 2A + 2 do not (2A + 1 over-fill
 * one set of the two: half the signal, under the compact-set threshold
 * where a miss costs little more than a hit, as fetches do).  A physically
 * indexed L1 on scattered frames answers differently.  A set that should
 * fit is tried again over time before it counts as spilling (a neighbour
 * on the core takes ways for a while, never gives any).
 */
#define XRAY_VERIFY_ROUNDS 2u

static int verify(struct mp_compact_set *s, uint64_t ways, uint64_t way)
{
	static const struct { uint64_t div, mul, extra; int spill; } checks[] = {
		{ 1, 1, 0, 0 }, { 1, 1, 1, 1 }, { 2, 2, 0, 0 }, { 2, 2, 2, 1 },
	};

	for (unsigned k = 0; k < XRAY_VERIFY_ROUNDS * 4; k++) {
		uint64_t stride = way / checks[k % 4].div;
		uint64_t n = ways * checks[k % 4].mul + checks[k % 4].extra;
		int m = checks[k % 4].spill ? mp_l1_spills(s, stride, n) :
					      mp_l1_spills_over_time(s, stride, n);

		if (m < 0)
			return -1;
		if (m != checks[k % 4].spill)
			return 0;
	}
	return 1;
}

/*
 * The ways must be a sharp edge (mp_l1_edge_over_time): where a thread on
 * the core holds ways, the ladder, the growth and the checks can all have
 * run while it held them (this project's Zen 5 class guest, its other SMT
 * thread busy for seconds at a time: 40K 10-way for 48K 12-way, the gap
 * test agreeing).  1 sharp, 0 not (out->why says why), -1 not timed.
 */
static int sharp(struct mp_compact_set *s, uint64_t ways, uint64_t way, struct mp_l1_found *out)
{
	static const char *const what[] = {
		[MP_L1_EDGE_UNSTEADY] = "%llu lines a way apart ran slow in %d%% of passes here "
					"and there",
		[MP_L1_EDGE_MORE] = "%llu lines a way apart ran steadily, but one more fitted too "
				    "(%d%% slow)",
		[MP_L1_EDGE_HELD] = "%llu lines a way apart fitted in no try after rests (%d%% "
				    "slow)",
	};
	static char why[MP_NOTE_LEN];
	double slow = 1.0;
	enum mp_l1_edge e = mp_l1_edge_over_time(s, way, ways, &slow);
	struct mp_buf b;

	if (e == MP_L1_EDGE_SHARP || e == MP_L1_EDGE_UNTIMED)
		return e == MP_L1_EDGE_SHARP ? 1 : -1;
	mp_buf_init(&b, why, sizeof(why));
	mp_buf_printf(&b, "X-Ray: %llu ways no sharp edge: ", (unsigned long long)ways);
	mp_buf_printf(&b, what[e], (unsigned long long)ways, (int)(slow * 100.0 + 0.5));
	mp_buf_puts(&b, " (a thread sharing the core takes ways)");
	out->why = why;
	return 0;
}

int mp_l1_xray(struct mp_compact_set *s, struct mp_l1_found *out)
{
	uint64_t ways = 0, way = 0;
	int st;

	*out = (struct mp_l1_found){ MP_NA, MP_NA, MP_NA, NULL, 0 };
	st = ladder(s, &ways, &way);
	if (st != 0) {
		out->why = "X-Ray: n(S) did not settle below 256 KB strides";
		return st < 0 ? -1 : 0;
	}
	out->grown = (int64_t)mp_l1_grow(s, way, ways) - (int64_t)ways;
	ways += (uint64_t)out->grown;
	if ((st = verify(s, ways, way)) <= 0) {
		out->why = "X-Ray: the sets gave other answers elsewhere in memory (a physically "
			   "indexed L1 on scattered frames?)";
		return st;
	}
	if ((st = sharp(s, ways, way, out)) <= 0)
		return st;
	out->ways = (int64_t)ways;
	out->size = (int64_t)(ways * way);
	return mp_l1_xray_line(s, out);
}

int mp_l1_xray_line(struct mp_compact_set *s, struct mp_l1_found *out)
{
	uint64_t line, ways = (uint64_t)out->ways;
	int st = block(s, ways, (uint64_t)out->size / ways, &line);

	if (st <= 0) {
		out->why = "X-Ray: no offset below the way made <C/A,2H,b> compact";
		return st < 0 ? -1 : 0;
	}
	out->line = (int64_t)line;
	out->why = NULL;
	return 0;
}
