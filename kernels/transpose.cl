/*
 * Matrix transpose dst = src^T of n x n uints, n a multiple of 16 (the guide:
 * sg_shuffle, and the full-matrix version it leaves as an exercise).
 *
 * transpose_shuffle: each sub-group transposes 16 x 16 tiles in registers.
 *   A sub-group of W lanes owns a strip of 16 rows and max(W, 16) columns: with
 *   W >= 16 lane L holds column L of the strip (W / 16 tiles side by side);
 *   with W < 16 it holds columns c W + L, c < 16 / W. Rows are loaded and
 *   stored W words at a time. The tile is transposed by swapping the 4 column
 *   bits with the 4 row bits: the bits held in the lane by butterfly shuffles
 *   (sg_shuffle_xor, log2 min(W, 16) rounds of 8 per column set), the bits held
 *   in the register index by renaming registers (no data moves).
 * transpose_bcast: the guide's algorithm: for every register of every lane a
 *   broadcast from each lane (256 shuffles per tile), each lane keeping the
 *   values of its own output column. The guide calls the shuffle inside
 *   `if (sgId == n)`; here every lane shuffles and a select keeps the value,
 *   so no shuffle sits in divergent code. With n = 16 and src == dst it is the
 *   guide's in-place 16 x 16 example.
 * transpose_local: 32 x 32 tiles through local memory (32 x 33, no bank
 *   conflicts), work-groups of 32 x 8, each work-item 4 rows.
 * transpose_naive: one work-item per element, reads along rows, writes down
 *   columns.
 *
 * TR_SG (set by the host) builds the two shuffle kernels; the host builds
 * them apart from the other two, so that a failure stays with them.
 *
 * Counts per launch: bytes = 8 n^2 (every word read once and written once).
 * info: bench_record_info (the shuffle kernels).
 */
#include "bench_common.h"

#if !SG_LAYER
#error "built with a sub-group backend only (host/sgb.c, sgb_build_options)"
#endif

#if SG_WIDTH > 0 && TR_SG
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

__kernel BENCH_REQD_SG void transpose_shuffle(__global const uint *restrict src,
					      __global uint *restrict dst, uint n,
					      __global uint *info)
{
	SG_SCRATCH;
	struct tr_lane t = tr_lane_of(n);
	uint v[16 * TR_C], u[16 * TR_C];

	bench_record_info(info);
#pragma unroll
	TR_LOAD(v, t, src, n);
	/* Lane bits: swap bit j of the lane with bit j of the row, 8 shuffles per column set. */
#pragma unroll
	for (uint j = 0; j < TR_LOG2TL; j++) {
		uint s = 1u << j;
		uint up = tr_mask((t.l & s) != 0);
#pragma unroll
		for (uint c = 0; c < TR_C; c++)
#pragma unroll
			for (uint i = 0; i < 16; i++) {
				if (i & s)
					continue;
				uint lo = c * 16 + i, hi = c * 16 + (i | s);
				uint got = sg_shuffle_xor(tr_pick(up, v[lo], v[hi]), s);
				v[lo] = tr_pick(up, got, v[lo]);
				v[hi] = tr_pick(up, v[hi], got);
			}
	}
	/* Register bits: column bit j (bit j - log2 TL of c) with row bit j, by renaming. */
#pragma unroll
	for (uint j = TR_LOG2TL; j < 4; j++) {
		uint cb = j - TR_LOG2TL;
#pragma unroll
		for (uint c = 0; c < TR_C; c++)
#pragma unroll
			for (uint r = 0; r < 16; r++) {
				uint sc = (c & ~(1u << cb)) | (((r >> j) & 1u) << cb);
				uint sr = (r & ~(1u << j)) | (((c >> cb) & 1u) << j);
				u[c * 16 + r] = v[sc * 16 + sr];
			}
#pragma unroll
		for (uint k = 0; k < 16 * TR_C; k++)
			v[k] = u[k];
	}
#pragma unroll
	TR_STORE(v, t, dst, n);
}

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
