/*
 * Atomic fetch-add throughput and latency (the atomic test of the guide's Data Center GPU Max chapter, widened to
 * contention patterns).
 *
 * Built once per memory order with (set by the host):
 *   API_C11=1  OpenCL C 2.0/3.0 atomic_fetch_add_explicit with ORDER
 *              (memory_order_relaxed or memory_order_acq_rel), device scope on
 *              global memory and work-group scope on local memory;
 *   API_C11=0  OpenCL 1.x atomic_add (no memory order, no scope argument).
 *   POISON     the value counters start from (CHECK_POISON).
 *   and a sub-group backend (host/sgb.c's sgb_build_options): the sg pattern's
 *              sub-groups are that layer's (sg_id, sg_num of bench_common.h).
 *
 * Every work-item i adds v_i = 2 i + 1 (odd, distinct) `ops` times, so a
 * counter ends at POISON + ops * (sum of v_i of the items on it) (mod 2^32)
 * per launch: a lost, duplicated or misplaced add changes it.
 *
 * Counts per launch: atomics = work-items * ops (atomics_global, atomics_local),
 * ops (atomics_chain).
 */
#include "bench_common.h"

#if !SG_LAYER
#error "atomics.cl groups work-items by a sub-group backend: build with sgb_build_options"
#endif

#if API_C11
#define GLOBAL_ADD(p, v) \
	atomic_fetch_add_explicit((volatile __global atomic_uint *)(p), (v), ORDER, memory_scope_device)
#define LOCAL_ADD(p, v) \
	atomic_fetch_add_explicit((volatile __local atomic_uint *)(p), (v), ORDER, memory_scope_work_group)
#else
#define GLOBAL_ADD(p, v) atomic_add((volatile __global uint *)(p), (v))
#define LOCAL_ADD(p, v) atomic_add((volatile __local uint *)(p), (v))
#endif

/* Global patterns (host: enum at_pattern). */
#define PAT_OWN 0        /* own counter on its own cache line */
#define PAT_NEIGHBOURS 1 /* own counter, adjacent words: the guide's layout */
#define PAT_SG 2         /* one counter per sub-group */
#define PAT_WG 3         /* one counter per work-group */
#define PAT_SINGLE 4     /* one counter for everyone */

/* Word index of the counter of this work-item. */
static inline uint atomics_addr(uint pattern, uint line_words)
{
	uint i = (uint)get_global_id(0);

	switch (pattern) {
	case PAT_OWN: return i * line_words;
	case PAT_NEIGHBOURS: return i;
	/* the sub-groups of the layer the host chose (the driver's, the warp, emulated) */
	case PAT_SG: return ((uint)get_group_id(0) * sg_num() + sg_id()) * line_words;
	case PAT_WG: return (uint)get_group_id(0) * line_words;
	default: return 0;
	}
}

/* where[i] records the counter work-item i used (the host checks the mapping). */
__kernel BENCH_REQD_SG void atomics_global(__global uint *ctr, __global uint *where, uint ops,
					   uint pattern, uint line_words, __global uint *info)
{
	uint i = (uint)get_global_id(0);
	uint a = atomics_addr(pattern, line_words);
	uint v = 2u * i + 1u;
	__global uint *p = ctr + a;

	bench_record_info(info);
	where[i] = a;
	for (uint j = 0; j < ops; j++)
		GLOBAL_ADD(p, v);
}

/*
 * Local memory: shared == 0: each work-item its own local counter;
 * shared == 1: one local counter per work-group. The counters start at
 * POISON and end in out[] (per item, or per group).
 */
__kernel BENCH_REQD_SG void atomics_local(__global uint *out, uint ops, uint shared,
					  __local uint *lc, __global uint *info)
{
	uint l = (uint)get_local_id(0), i = (uint)get_global_id(0);
	uint slot = shared ? 0u : l;
	bool owner = !shared || l == 0;
	uint v = 2u * i + 1u;

	bench_record_info(info);
	if (owner)
		lc[slot] = POISON;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint j = 0; j < ops; j++)
		LOCAL_ADD(&lc[slot], v);
	barrier(CLK_LOCAL_MEM_FENCE);
	if (owner)
		out[shared ? (uint)get_group_id(0) : i] = lc[slot];
}

/*
 * Dependent chain, one work-item: `slots` counters (a power of two), one per
 * cache line; each fetch-add's returned value picks the next counter, so no
 * atomic can start before the previous one has returned. Step j adds j + 1.
 * out[0] = the last counter index. The host replays the chain exactly.
 */
__kernel void atomics_chain(__global uint *ctr, __global uint *out, uint ops, uint line_words,
			    uint slots)
{
	uint idx = 0;

	if (get_global_id(0) != 0)
		return;
	for (uint j = 0; j < ops; j++) {
		uint old = GLOBAL_ADD(ctr + idx * line_words, j + 1u);
		idx = (old ^ (old >> 7)) & (slots - 1u);
	}
	out[0] = idx;
}


#ifdef KCLOCK_SCOPE
#include "kernel_clock.h"
/*
 * The chain again, built apart with -DKCLOCK_SCOPE where the device offers
 * cl_khr_kernel_clock (atomics_chain above never reads a clock): ticks[0] = the kernel
 * clock's ticks over the `ops` dependent atomics alone. The same adds, so the host checks
 * its counters and end exactly as the chain's.
 */
__kernel void atomics_chain_clock(__global uint *ctr, __global uint *out, uint ops,
				  uint line_words, uint slots, __global ulong *ticks)
{
	uint at = 0;

	if (get_global_id(0) != 0)
		return;
	ulong t0 = KCLOCK_READ();
	for (uint j = 0; j < ops; j++) {
		uint old = GLOBAL_ADD(ctr + at * line_words, j + 1u);
		at = (old ^ (old >> 7)) & (slots - 1u);
	}
	ticks[0] = KCLOCK_READ() - t0;
	out[0] = at;
}
#endif
