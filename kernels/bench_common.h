/*
 * The one header of the suite's kernels: launch records and the portable
 * sub-group layer (one spelling for the kernels, four backends). The host's
 * backend table (host/sgb.c, sgb_build_options) sets:
 *
 *   SG_INTEL     cl_intel_subgroups (shuffles, block reads/writes), sizes
 *                required with cl_intel_required_subgroup_size
 *   SG_KHR       cl_khr_subgroups or OpenCL C 3.0 __opencl_c_subgroups, shuffles
 *                from cl_khr_subgroup_shuffle; no block I/O
 *   SG_NV        NVIDIA's 32-wide warp: shuffles by inline PTX shfl.sync, the
 *                lane from %laneid, block I/O as coalesced loads and stores of
 *                the same addresses; OpenCL C 1.2 only
 *   SG_EMULATED  sub-groups of SG_WIDTH consecutive work-items emulated in local
 *                memory with barriers (devices with no sub-groups, e.g. PoCL 3.1)
 *                (one of these defined to 1: the backend; none of them: no
 *                sub-group layer, the launch records report 0 for sub-groups)
 *   SG_WIDTH     the sub-group width the kernel is built for (the required size,
 *                the warp, the emulated width); 0 where the driver chooses
 *   SG_WG_MAX    work-items per work-group at most (the emulated scratch)
 *   REQD_SG      required sub-group size (intel_reqd_sub_group_size): BENCH_REQD_SG
 *   SG_HAS_BLOCK_IO  1 where the table gives the backend block I/O
 *   HAVE_KHR_SG  cl_khr_subgroups must be enabled by its pragma (OpenCL C 2.0)
 *
 * HAVE_SG is defined here for the driver's own sub-groups (intel, khr); options
 * built by hand may still define it alone (the driver's sub-groups, no shuffles).
 *
 * Rules for kernels: declare SG_SCRATCH at the top of a kernel that shuffles,
 * and call sg_shuffle*() only where every work-item of the work-group gets
 * (emulated: barriers) and every lane of the sub-group (nv: shfl.sync with a
 * full member mask): never in divergent code, never with partial sub-groups.
 * Block I/O (SG_HAS_BLOCK_IO) reads p[lane + k * max sub-group size]: 4-byte
 * aligned reads, 16-byte aligned writes, full sub-groups only.
 */
#ifndef BENCH_COMMON_CLH
#define BENCH_COMMON_CLH

#if defined(SG_INTEL) + defined(SG_KHR) + defined(SG_NV) + defined(SG_EMULATED) > 1
#error "one sub-group backend at a time (host/sgb.c sets one)"
#endif
#if (defined(SG_INTEL) || defined(SG_KHR)) && !defined(HAVE_SG)
#define HAVE_SG 1
#endif
#if defined(HAVE_SG) || defined(SG_NV) || defined(SG_EMULATED)
#define SG_LAYER 1       /* sg_size() and the rest below exist */
#else
#define SG_LAYER 0
#endif
#ifndef SG_WIDTH
#define SG_WIDTH 0
#endif
#ifndef SG_WG_MAX
#define SG_WG_MAX 1024
#endif
#ifndef SG_HAS_BLOCK_IO
#define SG_HAS_BLOCK_IO 0
#endif

#if defined(HAVE_KHR_SG)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

#ifdef REQD_SG
#define BENCH_REQD_SG __attribute__((intel_reqd_sub_group_size(REQD_SG)))
#else
#define BENCH_REQD_SG
#endif

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

#if defined(HAVE_SG)

#define SG_SCRATCH
static inline uint sg_size(void) { return get_sub_group_size(); }
static inline uint sg_max_size(void) { return get_max_sub_group_size(); }
static inline uint sg_id(void) { return get_sub_group_id(); }
static inline uint sg_local_id(void) { return get_sub_group_local_id(); }
static inline uint sg_num(void) { return get_num_sub_groups(); }
#if defined(SG_INTEL)
#define sg_shuffle(x, lane) intel_sub_group_shuffle((uint)(x), (uint)(lane))
#define sg_shuffle_xor(x, m) intel_sub_group_shuffle_xor((uint)(x), (uint)(m))
#define SG_BLOCK_IO_IMPL 1
#define sg_block_read8(p) intel_sub_group_block_read8(p)
#define sg_block_write8(p, v) intel_sub_group_block_write8((p), (v))
#elif defined(SG_KHR)
#define sg_shuffle(x, lane) sub_group_shuffle((uint)(x), (uint)(lane))
#define sg_shuffle_xor(x, m) sub_group_shuffle_xor((uint)(x), (uint)(m))
#endif

#elif defined(SG_NV)

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
#define SG_BLOCK_IO_IMPL 1
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

#elif defined(SG_EMULATED)

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

#endif

#if SG_HAS_BLOCK_IO && !defined(SG_BLOCK_IO_IMPL)
#error "SG_HAS_BLOCK_IO set for a backend without block I/O (host/sgb.c's table)"
#endif

/*
 * What the launch ran with, written by the work-item of global id 0:
 * info[0] work-group size (linear), info[1] number of work-groups, info[2]
 * maximum sub-group size, info[3] sub-group size of work-item 0 (both 0
 * without a sub-group layer).
 */
static inline void bench_record_info(__global uint *info)
{
	if (get_global_id(0) != 0 || get_global_id(1) != 0 || get_global_id(2) != 0)
		return;
	info[0] = sg_lsize();
	info[1] = (uint)(get_num_groups(0) * get_num_groups(1) * get_num_groups(2));
#if SG_LAYER
	info[2] = sg_max_size();
	info[3] = sg_size();
#else
	info[2] = 0;
	info[3] = 0;
#endif
}

#endif
