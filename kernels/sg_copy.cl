/*
 * Three copies of n uints (the guide: sg_mem_access_0..2), each work-item moving 16.
 *
 * sg_copy_gather:  work-item i copies [16 i, 16 i + 16): each work-item's words
 *                  are contiguous, so a sub-group's reads are gathered and its
 *                  writes scattered (stride 64 bytes between lanes).
 * sg_copy_strided: sub-group s of the launch owns [16 W s, 16 W (s + 1)), W its
 *                  maximum size; lane l copies l + k W for k < 16: every step
 *                  a sub-group moves W consecutive words.
 * sg_copy_block:   as strided, moved as two 8-word sub-group blocks each way
 *                  (sg_block_read8/write8: intel_sub_group_block_read8/write8,
 *                  or on nv coalesced loads and stores of the same addresses).
 *                  Blocks start at multiples of 64 bytes (the 16-byte write
 *                  alignment holds) and the host launches full sub-groups only.
 *
 * Every variant loads its 16 words before storing them: the variants differ
 * in the addresses (and block in the instructions) only.
 *
 * SGC_VARIANT (set by the host) selects one kernel per program, so that a
 * driver that cannot link block reads fails that variant alone.
 *
 * Counts per launch: bytes = 8 n (n words read, n written), n = 16 x global size.
 * info: bench_record_info (what the launch ran with).
 */
#include "bench_common.h"

#if !SG_LAYER
#error "built with a sub-group backend only (host/sgb.c, sgb_build_options)"
#endif

#if SGC_VARIANT != 0
/* First word of the calling sub-group's 16 W words. */
static inline size_t sg_copy_base(void)
{
	return ((size_t)get_group_id(0) * get_local_size(0) + (size_t)sg_id() * sg_max_size()) * 16;
}
#endif

#if SGC_VARIANT == 0
__kernel BENCH_REQD_SG void sg_copy_gather(__global const uint *restrict src,
					   __global uint *restrict dst, __global uint *info)
{
	size_t i = get_global_id(0) * 16;
	uint x[16];

	bench_record_info(info);
#pragma unroll
	for (uint k = 0; k < 16; k++)
		x[k] = src[i + k];
#pragma unroll
	for (uint k = 0; k < 16; k++)
		dst[i + k] = x[k];
}
#endif

#if SGC_VARIANT == 1
__kernel BENCH_REQD_SG void sg_copy_strided(__global const uint *restrict src,
					    __global uint *restrict dst, __global uint *info)
{
	uint w = sg_max_size();
	size_t i = sg_copy_base() + sg_local_id();
	uint x[16];

	bench_record_info(info);
#pragma unroll
	for (uint k = 0; k < 16; k++)
		x[k] = src[i + (size_t)k * w];
#pragma unroll
	for (uint k = 0; k < 16; k++)
		dst[i + (size_t)k * w] = x[k];
}
#endif

#if SGC_VARIANT == 2 && SG_HAS_BLOCK_IO
__kernel BENCH_REQD_SG void sg_copy_block(__global const uint *restrict src,
					  __global uint *restrict dst, __global uint *info)
{
	size_t base = sg_copy_base(), second = (size_t)8 * sg_max_size();
	uint8 x, y;

	bench_record_info(info);
	x = sg_block_read8(src + base);
	y = sg_block_read8(src + base + second);
	sg_block_write8(dst + base, x);
	sg_block_write8(dst + base + second, y);
}
#endif
