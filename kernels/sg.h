/*
 * Portable sub-group layer: one spelling for the kernels, four backends.
 * The host (host/sgb.c) picks the backend per device and sets:
 *
 *   SG_BACKEND  1 intel:    cl_intel_subgroups (shuffles, block reads/writes),
 *                           sizes required with cl_intel_required_subgroup_size
 *               2 khr:      cl_khr_subgroups or OpenCL C 3.0 __opencl_c_subgroups,
 *                           shuffles from cl_khr_subgroup_shuffle; no block I/O
 *               3 nv:       NVIDIA's 32-wide warp: shuffles by inline PTX shfl.sync,
 *                           the lane from %laneid, block I/O as coalesced loads and
 *                           stores of the same addresses; OpenCL C 1.2 only
 *               4 emulated: sub-groups of SG_WIDTH consecutive work-items emulated
 *                           in local memory with barriers (devices with no
 *                           sub-groups, e.g. PoCL 3.1); no block I/O
 *   SG_WIDTH    the sub-group width the kernel is built for (the required size,
 *               the warp, the emulated width); 0 where the driver chooses
 *   SG_WG_MAX   work-items per work-group at most (the emulated scratch)
 *   REQD_SG     required sub-group size (intel_reqd_sub_group_size), intel/khr
 *
 * Rules for kernels: declare SG_SCRATCH at the top of a kernel that shuffles,
 * and call sg_shuffle*() only where every work-item of the work-group gets
 * (emulated: barriers) and every lane of the sub-group (nv: shfl.sync with a
 * full member mask): never in divergent code, never with partial sub-groups.
 * Block I/O (SG_HAS_BLOCK_IO) reads p[lane + k * max sub-group size]: 4-byte
 * aligned reads, 16-byte aligned writes, full sub-groups only.
 */
#ifndef BENCH_SG_CLH
#define BENCH_SG_CLH

#define SG_INTEL 1
#define SG_KHR 2
#define SG_NV 3
#define SG_EMULATED 4

#ifndef SG_BACKEND
#error "SG_BACKEND is set by the host (host/sgb.c)"
#endif
#ifndef SG_WIDTH
#define SG_WIDTH 0
#endif
#ifndef SG_WG_MAX
#define SG_WG_MAX 1024
#endif

#if SG_BACKEND == SG_INTEL || SG_BACKEND == SG_KHR
#define HAVE_SG 1
#endif
#include "bench_common.h"

#define SG_REQD BENCH_REQD_SG

/* Linear local id and size, spelled for OpenCL C 1.2 (no get_local_linear_id). */
static inline uint sg_llid(void)
{
	return (uint)(get_local_id(0) +
		      get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));
}

static inline uint sg_lsize(void)
{
	return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}

#if SG_BACKEND == SG_INTEL || SG_BACKEND == SG_KHR

#define SG_SCRATCH
static inline uint sg_size(void) { return get_sub_group_size(); }
static inline uint sg_max_size(void) { return get_max_sub_group_size(); }
static inline uint sg_id(void) { return get_sub_group_id(); }
static inline uint sg_local_id(void) { return get_sub_group_local_id(); }
static inline uint sg_num(void) { return get_num_sub_groups(); }
#if SG_BACKEND == SG_INTEL
#define sg_shuffle(x, lane) intel_sub_group_shuffle((uint)(x), (uint)(lane))
#define sg_shuffle_xor(x, m) intel_sub_group_shuffle_xor((uint)(x), (uint)(m))
#define SG_HAS_BLOCK_IO 1
#define sg_block_read8(p) intel_sub_group_block_read8(p)
#define sg_block_write8(p, v) intel_sub_group_block_write8((p), (v))
#else
#define sg_shuffle(x, lane) sub_group_shuffle((uint)(x), (uint)(lane))
#define sg_shuffle_xor(x, m) sub_group_shuffle_xor((uint)(x), (uint)(m))
#define SG_HAS_BLOCK_IO 0
#endif

#elif SG_BACKEND == SG_NV

#if SG_WIDTH != 32
#error "the nv backend's sub-group is the 32-wide warp: SG_WIDTH must be 32"
#endif
/* Warps are 32 consecutive linear local ids; %laneid is read from the hardware. */
#define SG_SCRATCH
static inline uint sg_size(void)
{
	uint first = sg_llid() & ~31u, n = sg_lsize() - first;
	return n < 32u ? n : 32u;
}
static inline uint sg_max_size(void) { return 32u; }
static inline uint sg_id(void) { return sg_llid() >> 5; }
static inline uint sg_local_id(void)
{
	uint lane;
	asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
	return lane;
}
static inline uint sg_num(void) { return (sg_lsize() + 31u) >> 5; }
static inline uint sg_nv_shfl_idx(uint x, uint lane)
{
	uint r;
	asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(x), "r"(lane));
	return r;
}
static inline uint sg_nv_shfl_bfly(uint x, uint m)
{
	uint r;
	asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(x), "r"(m));
	return r;
}
#define sg_shuffle(x, lane) sg_nv_shfl_idx((uint)(x), (uint)(lane))
#define sg_shuffle_xor(x, m) sg_nv_shfl_bfly((uint)(x), (uint)(m))
/* The addresses of intel_sub_group_block_read8: lane + k * 32, one 128-byte line per k. */
#define SG_HAS_BLOCK_IO 1
static inline uint8 sg_block_read8(const __global uint *p)
{
	uint l = sg_local_id();
	return (uint8)(p[l], p[l + 32], p[l + 64], p[l + 96], p[l + 128], p[l + 160], p[l + 192],
		       p[l + 224]);
}
static inline void sg_block_write8(__global uint *p, uint8 v)
{
	uint l = sg_local_id();
	p[l] = v.s0;
	p[l + 32] = v.s1;
	p[l + 64] = v.s2;
	p[l + 96] = v.s3;
	p[l + 128] = v.s4;
	p[l + 160] = v.s5;
	p[l + 192] = v.s6;
	p[l + 224] = v.s7;
}

#elif SG_BACKEND == SG_EMULATED

#if SG_WIDTH < 1 || (SG_WIDTH & (SG_WIDTH - 1)) != 0
#error "the emulated width must be a power of two"
#endif
/* One word per work-item: a shuffle is store, barrier, load of the source lane. */
#define SG_SCRATCH __local uint sg_scratch_[SG_WG_MAX]
static inline uint sg_size(void)
{
	uint first = sg_llid() & ~(uint)(SG_WIDTH - 1), n = sg_lsize() - first;
	return n < (uint)SG_WIDTH ? n : (uint)SG_WIDTH;
}
static inline uint sg_max_size(void) { return (uint)SG_WIDTH; }
static inline uint sg_id(void) { return sg_llid() / (uint)SG_WIDTH; }
static inline uint sg_local_id(void) { return sg_llid() & (uint)(SG_WIDTH - 1); }
static inline uint sg_num(void) { return (sg_lsize() + SG_WIDTH - 1) / (uint)SG_WIDTH; }
static inline uint sg_emu_shuffle(uint x, uint lane, __local uint *scratch)
{
	uint me = sg_llid();
	uint r;

	barrier(CLK_LOCAL_MEM_FENCE); /* the previous shuffle's loads are done */
	scratch[me] = x;
	barrier(CLK_LOCAL_MEM_FENCE);
	r = scratch[(me & ~(uint)(SG_WIDTH - 1)) + (lane & (uint)(SG_WIDTH - 1))];
	return r;
}
#define sg_shuffle(x, lane) sg_emu_shuffle((uint)(x), (uint)(lane), sg_scratch_)
#define sg_shuffle_xor(x, m) sg_emu_shuffle((uint)(x), sg_local_id() ^ (uint)(m), sg_scratch_)
#define SG_HAS_BLOCK_IO 0

#else
#error "unknown SG_BACKEND"
#endif

/*
 * What the launch ran with, written by global id 0: info[0] max sub-group
 * size, info[1] its sub-group size, info[2] local size, info[3] groups.
 */
static inline void sg_record(__global uint *info)
{
	if (get_global_id(0) != 0 || get_global_id(1) != 0)
		return;
	info[0] = sg_max_size();
	info[1] = sg_size();
	info[2] = sg_lsize();
	info[3] = (uint)(get_num_groups(0) * get_num_groups(1));
}

#endif
