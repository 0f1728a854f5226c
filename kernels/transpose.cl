/*
 * Matrix transpose dst = src^T of n x n uints, n a multiple of 16 (the guide:
 * sg_shuffle, and the full-matrix version it leaves as an exercise).
 *
 * transpose_shuffle: sub-groups transposing T x T tiles in registers, in the
 *   shape the host builds (TRS_TILE T = 16, 32, 64; TRS_VEC V = 1, 2, 4 ints per
 *   global load and store; TRS_PER_SG P tiles per sub-group; TRS_XOR the exchange).
 *   A tile is held by A = min(W, T) lanes of a sub-group of W, W / A tiles side by
 *   side; each lane holds E = T^2 / A words. The A lanes load V ints each: A V / T
 *   whole rows of the tile per load where A V >= T (one 128-byte row at T = 32,
 *   V = 1; four at V = 4), else A V columns of one row. The transposed tile is
 *   stored the same way, so loads and stores are equally coalesced.
 *   The transpose swaps each of the log2 A lane-index bits with one register-index
 *   bit (the layouts are bit permutations of row and column); the other register
 *   bits are renamed, which moves no data. Two ways to swap (TRS_XOR):
 *     0 butterfly: per lane bit E / 2 shuffles (sg_shuffle_xor), 3 selects each:
 *       E log2(A) / 2 shuffles per lane per tile;
 *     1 xor (the diagonal): per group of A registers, registers permuted by the lane
 *       index (log2 A rounds of selects), A - 1 shuffles, the same permutation
 *       again: E (A - 1) / A shuffles and 2 E log2(A) selects per lane per tile.
 *   With P > 1 a sub-group transposes P tiles stacked down the matrix (so each
 *   output row gets P T contiguous ints from one sub-group) and issues the loads
 *   of the next tile before the exchange of the current one (2 E registers).
 *   The order sub-groups take tiles in is TRS_WALK: 0 (rows) consecutive sub-groups
 *   take tiles side by side along the source's rows, so their reads are adjacent;
 *   1 (cols) down its columns, so their writes are adjacent along the destination's
 *   rows (on an H200 the faster order: 0.90-0.92 of the ceiling against 0.88, docs/measured.md).
 *   T = 16, V = 1, P = 1, butterfly is the suite's first shuffle transpose: with
 *   W >= 16 lane L holds column L of a 16-row strip, 4 x 8 shuffles.
 * transpose_bcast: the guide's algorithm: for every register of every lane a
 *   broadcast from each lane (256 shuffles per tile), each lane keeping the
 *   values of its own output column. The guide calls the shuffle inside
 *   `if (sgId == n)`; here every lane shuffles and a select keeps the value,
 *   so no shuffle sits in divergent code. With n = 16 and src == dst it is the
 *   guide's in-place 16 x 16 example. Tiles of 16 x 16: with W >= 16 a
 *   sub-group owns a strip of 16 rows and W columns, lane L column L; with W < 16
 *   columns c W + L, c < 16 / W.
 * transpose_local: 32 x 32 tiles through local memory (32 x 33, no bank
 *   conflicts), work-groups of 32 x 8, each work-item 4 rows (the CUDA samples'
 *   transposeCoalesced with the padding of transposeNoBankConflicts).
 * transpose_naive: one work-item per element, reads along rows, writes down
 *   columns.
 *
 * The host builds one program per shuffle shape (TR_SG=1 and the TRS_ macros),
 * one for the guide's broadcasts (TR_SG=1) and one for local and naive (TR_SG=0),
 * so that a failure stays with its kernels.
 *
 * Counts per launch: bytes = 8 n^2 (every word read once and written once).
 * info: bench_record_info (the shuffle kernels).
 */
#include "bench_common.h"

#if !SG_LAYER
#error "built with a sub-group backend only (host/sgb.c, sgb_build_options)"
#endif

#if SG_WIDTH > 0 && TR_SG
/*
 * m ? a : b with m all ones or zero, spelled in bits: a compiler may turn a
 * select between two array elements into a load from a computed index, which
 * sends the whole array to memory.
 */
static inline uint tr_mask(bool c)
{
	return 0u - (uint)c;
}

static inline uint tr_pick(uint m, uint a, uint b)
{
	return (a & m) | (b & ~m);
}

#if defined(TRS_TILE)
#if !defined(TRS_VEC) || !defined(TRS_PER_SG) || !defined(TRS_XOR) || !defined(TRS_WALK)
#error "a shuffle shape is TRS_TILE, TRS_VEC, TRS_PER_SG, TRS_XOR and TRS_WALK together (bench/measure/transpose/)"
#endif
#define TRS_LOG2(x)                                                                            \
	((x) >= 256 ? 8 : (x) >= 128 ? 7 : (x) >= 64 ? 6 : (x) >= 32 ? 5 : (x) >= 16 ? 4 :    \
	 (x) >= 8 ? 3 : (x) >= 4 ? 2 : (x) >= 2 ? 1 : 0)
#define TRS_A (SG_WIDTH < TRS_TILE ? SG_WIDTH : TRS_TILE)   /* lanes per tile */
#define TRS_S (SG_WIDTH / TRS_A)                            /* tiles side by side */
#define TRS_E (TRS_TILE * TRS_TILE / TRS_A)                 /* words per lane per tile */
#define TRS_NV (TRS_E / TRS_VEC)                            /* loads (stores) per lane per tile */
#define TRS_LT TRS_LOG2(TRS_TILE)
#define TRS_LV TRS_LOG2(TRS_VEC)
#define TRS_LA TRS_LOG2(TRS_A)
#define TRS_LE TRS_LOG2(TRS_E)
/* Bits of the lane (within its tile) for the column, then for the row. */
#define TRS_LC (TRS_LT - TRS_LV < TRS_LA ? TRS_LT - TRS_LV : TRS_LA)
#define TRS_LR (TRS_LA - TRS_LC)
/* Column bits in the register index past the vector's (where A V < T). */
#define TRS_KC (TRS_LT - TRS_LV - TRS_LC)
#if TRS_E > 256 || TRS_TILE < TRS_VEC || (TRS_VEC != 1 && TRS_VEC != 2 && TRS_VEC != 4)
#error "the host builds shapes with T >= V, V of 1, 2, 4 and at most 256 words per lane"
#endif

/*
 * Load layout: register q = comp + V k of lane l holds row LROW(l) + KROW(k) and
 * column LCOL(l) + KCOL(k) + comp of the tile; the register index's bits, from the
 * lowest: the column's low log2 V, KC more column bits, then the row's bits from LR
 * up. The store layout is the same with the rows and columns of the output.
 */
#define TRS_LROW(l) ((l) >> TRS_LC)
#define TRS_LCOL(l) (((l) & ((1u << TRS_LC) - 1u)) << TRS_LV)
#define TRS_KROW(k) (((k) >> TRS_KC) << TRS_LR)
#define TRS_KCOL(k) (((k) & ((1u << TRS_KC) - 1u)) << (TRS_LV + TRS_LC))
/* The register bit that lane bit i swaps with: the bit holding the output lane's coordinate. */
#define TRS_J(i) ((i) < TRS_LC ? 2 * TRS_LV + TRS_KC + (i) - TRS_LR : (i) - TRS_LC)
/*
 * After the swaps: the bit of the current register index that holds bit j of the
 * store layout's register index (the renaming), and the index it gives for q.
 */
#define TRS_M(j) (TRS_LR + (j) - TRS_LV - TRS_KC)
#define TRS_P(j)                                                                               \
	((j) < TRS_LV ? ((j) < TRS_LR ? (j) : TRS_LV + TRS_KC + (j) - TRS_LR)                   \
	 : (j) < TRS_LV + TRS_KC ? TRS_LV + TRS_KC + TRS_LC + (j) - TRS_LR                      \
	 : TRS_M(j) < TRS_LV ? TRS_M(j)                                                         \
	 : TRS_M(j) < TRS_LV + TRS_LC ? TRS_LV + TRS_KC + TRS_M(j) - TRS_LR                     \
				      : TRS_M(j) - TRS_LC)
#define TRS_SB(q, j) ((j) < TRS_LE ? (((q) >> (j)) & 1u) << TRS_P(j) : 0u)
#define TRS_SRC(q)                                                                             \
	(TRS_SB(q, 0) | TRS_SB(q, 1) | TRS_SB(q, 2) | TRS_SB(q, 3) | TRS_SB(q, 4) |             \
	 TRS_SB(q, 5) | TRS_SB(q, 6) | TRS_SB(q, 7))
/* The xor exchange: the lane mask by which register q travels (its bits J(0), J(1), ...). */
#define TRS_MB(q, i) ((i) < TRS_LA ? (((q) >> TRS_J(i)) & 1u) << (i) : 0u)
#define TRS_MASK(q)                                                                            \
	(TRS_MB(q, 0) | TRS_MB(q, 1) | TRS_MB(q, 2) | TRS_MB(q, 3) | TRS_MB(q, 4) | TRS_MB(q, 5))

#if TRS_VEC == 1
#define TRS_VT uint
#define TRS_PUT(v, k, x) (v[k] = (x))
#define TRS_GET(v, k) (v[TRS_SRC(k)])
#elif TRS_VEC == 2
#define TRS_VT uint2
#define TRS_PUT(v, k, x) (v[2 * (k)] = (x).s0, v[2 * (k) + 1] = (x).s1)
#define TRS_GET(v, k) ((uint2)(v[TRS_SRC(2 * (k))], v[TRS_SRC(2 * (k) + 1)]))
#else
#define TRS_VT uint4
#define TRS_PUT(v, k, x)                                                                       \
	(v[4 * (k)] = (x).s0, v[4 * (k) + 1] = (x).s1, v[4 * (k) + 2] = (x).s2,                 \
	 v[4 * (k) + 3] = (x).s3)
#define TRS_GET(v, k)                                                                          \
	((uint4)(v[TRS_SRC(4 * (k))], v[TRS_SRC(4 * (k) + 1)], v[TRS_SRC(4 * (k) + 2)],         \
		 v[TRS_SRC(4 * (k) + 3)]))
#endif

/*
 * The loops below are written as one loop each (nested loops flattened), so that
 * the `#pragma unroll` before each use unrolls all of it: every register index is
 * then a constant and the arrays stay in registers.
 *
 * On the emulated backend the exchange stays rolled (TRS_EXCHANGE_UNROLL, `#pragma
 * unroll 1` there): each emulated shuffle is two barriers, and PoCL 3.1 spends
 * minutes on hundreds of them unrolled.
 *
 * Tiles lie wholly inside the matrix or wholly outside (the host runs T dividing
 * n): one predicate per lane, no test per word. p is the lane's first word in the
 * tile (LROW, LCOL), so each access adds a constant row count times n and a
 * constant column to it.
 */
#if defined(SG_EMULATED)
#define TRS_EXCHANGE_UNROLL _Pragma("unroll 1")
#else
#define TRS_EXCHANGE_UNROLL _Pragma("unroll")
#endif

#define TRS_LOAD(v, p, n, live)                                                                \
	for (uint k_ = 0; k_ < TRS_NV; k_++) {                                                 \
		TRS_VT x_ = (live) ? *(const __global TRS_VT *)((p) + (size_t)TRS_KROW(k_) * (n) + \
								 TRS_KCOL(k_))                 \
				   : (TRS_VT)(0);                                               \
		TRS_PUT(v, k_, x_);                                                            \
	}

#define TRS_STORE(v, p, n, live)                                                               \
	for (uint k_ = 0; k_ < TRS_NV; k_++)                                                   \
		if (live)                                                                      \
			*(__global TRS_VT *)((p) + (size_t)TRS_KROW(k_) * (n) + TRS_KCOL(k_)) =      \
				TRS_GET(v, k_)

/* Pair x of the E / 2 pairs of registers differing in bit j: the lower one. */
#define TRS_LO(x, j) ((((x) >> (j)) << ((j) + 1)) | ((x) & ((1u << (j)) - 1u)))
#define TRS_PAIRS (TRS_E / 2)

#if !TRS_XOR
/*
 * Lane bit i with register bit J(i), for each i in turn: of each pair of registers
 * differing in bit J(i) the lane whose bit i is 0 sends the upper, the other the
 * lower, and each keeps what it gets in the one it sent.
 */
#define TRS_EXCHANGE(v, l)                                                                     \
	for (uint x_ = 0; x_ < TRS_LA * TRS_PAIRS; x_++) {                                     \
		uint i_ = x_ / TRS_PAIRS, b_ = 1u << TRS_J(i_);                                \
		uint lo_ = TRS_LO(x_ % TRS_PAIRS, TRS_J(i_)), hi_ = lo_ | b_;                   \
		uint up_ = tr_mask((((l) >> i_) & 1u) != 0);                                    \
		uint got_ = sg_shuffle_xor(tr_pick(up_, v[lo_], v[hi_]), 1u << i_);             \
		v[lo_] = tr_pick(up_, got_, v[lo_]);                                           \
		v[hi_] = tr_pick(up_, v[hi_], got_);                                           \
	}
#else
/*
 * All lane bits at once, per group of A registers: with m the lane mask of a
 * register (TRS_MASK), v[m] becomes v[m ^ lane] (selects: for each set bit i of the
 * lane, the pairs differing in bit J(i) swap), register m goes to lane ^ m by one
 * shuffle each (m = 0 stays), then the same permutation again. Steps: the first
 * permutation, the shuffles, the second, as one loop.
 */
#define TRS_PERM_STEPS (TRS_LA * TRS_PAIRS)
#define TRS_EXCHANGE(v, l)                                                                     \
	for (uint x_ = 0; x_ < 2 * TRS_PERM_STEPS + TRS_E; x_++) {                             \
		if (x_ >= TRS_PERM_STEPS && x_ < TRS_PERM_STEPS + TRS_E) {                     \
			uint q_ = x_ - TRS_PERM_STEPS;                                         \
			if (TRS_MASK(q_))                                                      \
				v[q_] = sg_shuffle_xor(v[q_], TRS_MASK(q_));                   \
			continue;                                                              \
		}                                                                              \
		uint y_ = x_ < TRS_PERM_STEPS ? x_ : x_ - TRS_PERM_STEPS - TRS_E;              \
		uint i_ = y_ / TRS_PAIRS, b_ = 1u << TRS_J(i_);                                \
		uint lo_ = TRS_LO(y_ % TRS_PAIRS, TRS_J(i_)), hi_ = lo_ | b_;                   \
		uint m_ = tr_mask((((l) >> i_) & 1u) != 0), a_ = v[lo_], c_ = v[hi_];           \
		v[lo_] = tr_pick(m_, c_, a_);                                                  \
		v[hi_] = tr_pick(m_, a_, c_);                                                  \
	}
#endif

__kernel BENCH_REQD_SG void transpose_shuffle(__global const uint *restrict src,
					      __global uint *restrict dst, uint n,
					      __global uint *info)
{
	SG_SCRATCH;
	uint lane = sg_local_id(), l = lane & (TRS_A - 1u);
	uint g = (uint)get_group_id(0) * (uint)(get_local_size(0) / SG_WIDTH) + sg_id();
	/*
	 * sub-group g: P tiles down by S across, at block (bi, bj) of the across x downs
	 * blocks; consecutive sub-groups along the rows (TRS_WALK 0) or down the columns (1).
	 * Sub-groups past the last block get bi or bj past the matrix and store nothing.
	 */
	uint across = (n / TRS_TILE + TRS_S - 1) / TRS_S;
	uint downs = (n / TRS_TILE + TRS_PER_SG - 1) / TRS_PER_SG;
	uint bi = TRS_WALK ? g % downs : g / across, bj = TRS_WALK ? g / downs : g % across;
	uint ai = bi * (TRS_PER_SG * TRS_TILE);
	uint aj = (bj * TRS_S + lane / TRS_A) * TRS_TILE;
	/* the lane's first word of the tile at (ai, aj), and of its transpose at (aj, ai) */
	const __global uint *ps = src + (size_t)(ai + TRS_LROW(l)) * n + aj + TRS_LCOL(l);
	__global uint *pd = dst + (size_t)(aj + TRS_LROW(l)) * n + ai + TRS_LCOL(l);
	size_t down = (size_t)TRS_TILE * n;   /* words from a tile to the one below */
	bool live = aj < n;
	uint v[TRS_E];
#if TRS_PER_SG > 1
	uint w[TRS_E];
#endif

	bench_record_info(info);
#pragma unroll
	TRS_LOAD(v, ps, n, live && ai < n);
#if TRS_PER_SG > 1
	/*
	 * Tiles in pairs, so that v and w keep their roles (no copies), and no exchange
	 * (barriers, emulated) sits in a conditional of this loop: PoCL 3.1 gave wrong
	 * results where one did and its condition changed between iterations (the last
	 * of an odd number of tiles).
	 */
#pragma unroll 1
	for (uint p = 0; p + 1 < TRS_PER_SG; p += 2) {
#pragma unroll
		TRS_LOAD(w, ps + down, n, live && ai + TRS_TILE < n);
		TRS_EXCHANGE_UNROLL
		TRS_EXCHANGE(v, l);
#pragma unroll
		TRS_STORE(v, pd, n, live && ai < n);
		if (p + 2 < TRS_PER_SG) {
#pragma unroll
			TRS_LOAD(v, ps + 2 * down, n, live && ai + 2 * TRS_TILE < n);
		}
		TRS_EXCHANGE_UNROLL
		TRS_EXCHANGE(w, l);
#pragma unroll
		TRS_STORE(w, pd + TRS_TILE, n, live && ai + TRS_TILE < n);
		ps += 2 * down;
		pd += 2 * TRS_TILE;
		ai += 2 * TRS_TILE;
	}
#endif
#if TRS_PER_SG % 2
	TRS_EXCHANGE_UNROLL
	TRS_EXCHANGE(v, l);
#pragma unroll
	TRS_STORE(v, pd, n, live && ai < n);
#endif
}

#else /* the guide's broadcasts */
#define TR_TL (SG_WIDTH < 16 ? SG_WIDTH : 16)   /* lanes per tile row */
#define TR_C (16 / TR_TL)                       /* columns held per lane */
#define TR_SW (SG_WIDTH < 16 ? 16 : SG_WIDTH)   /* strip width */
#define TR_LOG2TL (TR_TL == 1 ? 0 : TR_TL == 2 ? 1 : TR_TL == 4 ? 2 : TR_TL == 8 ? 3 : 4)

/* Where the calling lane's strip starts, and its place in it. */
struct tr_lane {
	size_t ai, aj;   /* first row and column of the strip */
	uint l, h;       /* lane within its tile, first lane of the tile */
	bool live;       /* the lane's tile lies inside the matrix */
};

static inline struct tr_lane tr_lane_of(uint n)
{
	struct tr_lane t;
	size_t sg = (size_t)get_group_id(0) * (get_local_size(0) / SG_WIDTH) + sg_id();
	size_t strips = (n + TR_SW - 1) / TR_SW;
	uint lane = sg_local_id();

	t.ai = sg / strips * 16;
	t.aj = sg % strips * TR_SW;
	t.l = lane & (TR_TL - 1);
	t.h = lane - t.l;
	t.live = t.ai < n && t.aj + t.h < n;
	return t;
}

/* v[c * 16 + r] = src[ai + r][aj + h + c TL + l]; one loop, unrolled where used. */
#define TR_LOAD(v, t, src, n)                                                                  \
	for (uint k_ = 0; k_ < 16 * TR_C; k_++)                                                \
		v[k_] = (t).live ? src[((t).ai + k_ % 16) * (n) + (t).aj + (t).h +              \
				       k_ / 16 * TR_TL + (t).l]                                \
				 : 0u

/* dst[aj + h + r][ai + c TL + l] = v[c * 16 + r] */
#define TR_STORE(v, t, dst, n)                                                                 \
	for (uint k_ = 0; k_ < 16 * TR_C; k_++)                                                \
		if ((t).live)                                                                  \
			dst[((t).aj + (t).h + k_ % 16) * (n) + (t).ai + k_ / 16 * TR_TL + (t).l] = \
				v[k_]

/* No restrict: the guide's example runs in place (src == dst, n = 16, one tile). */
__kernel BENCH_REQD_SG void transpose_bcast(__global const uint *src, __global uint *dst,
					    uint n, __global uint *info)
{
	SG_SCRATCH;
	struct tr_lane t = tr_lane_of(n);
	uint v[16 * TR_C], u[16 * TR_C];

	bench_record_info(info);
#pragma unroll
	TR_LOAD(v, t, src, n);
#pragma unroll
	for (uint k = 0; k < 16 * TR_C; k++)
		u[k] = 0;
	/*
	 * Register q = c * 16 + r is broadcast from each lane of the tile in turn;
	 * lane r % TL keeps the values. The loop stays rolled, v rotating so that
	 * v[0] holds register q: unrolled, compilers hoist all 256 shuffles ahead of
	 * the selects and run out of registers.
	 */
#pragma unroll 1
	for (uint q = 0; q < 16 * TR_C; q++) {
		uint c = q / 16, r = q % 16, first = v[0];
		uint keep = tr_mask(t.l == r % TR_TL);
#pragma unroll
		for (uint k = 0; k < TR_TL; k++) {
			uint d = (r / TR_TL) * 16 + c * TR_TL + k;
			u[d] = tr_pick(keep, sg_shuffle(first, t.h + k), u[d]);
		}
#pragma unroll
		for (uint i = 0; i + 1 < 16 * TR_C; i++)
			v[i] = v[i + 1];
		v[16 * TR_C - 1] = first;
	}
#pragma unroll
	TR_STORE(u, t, dst, n);
}
#endif
#endif

#if !TR_SG
#define TR_TILE 32
#define TR_ROWS 8

__kernel __attribute__((reqd_work_group_size(TR_TILE, TR_ROWS, 1))) void
transpose_local(__global const uint *restrict src, __global uint *restrict dst, uint n)
{
	__local uint tile[TR_TILE][TR_TILE + 1];
	size_t bx = get_group_id(0) * TR_TILE, by = get_group_id(1) * TR_TILE;
	uint tx = (uint)get_local_id(0), ty = (uint)get_local_id(1);

	for (uint k = 0; k < TR_TILE; k += TR_ROWS) {
		size_t x = bx + tx, y = by + ty + k;
		if (x < n && y < n)
			tile[ty + k][tx] = src[y * n + x];
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint k = 0; k < TR_TILE; k += TR_ROWS) {
		size_t x = by + tx, y = bx + ty + k;
		if (x < n && y < n)
			dst[y * n + x] = tile[tx][ty + k];
	}
}

__kernel void transpose_naive(__global const uint *restrict src, __global uint *restrict dst,
			      uint n)
{
	size_t x = get_global_id(0), y = get_global_id(1);

	if (x < n && y < n)
		dst[x * n + y] = src[y * n + x];
}
#endif
