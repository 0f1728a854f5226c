/*
 * Pointer-chase latency. The host lays a random cyclic chain through a
 * buffer: node k sits at word k * stride_words and holds the word index of
 * the next node; the chain passes every node once per lap (one cycle, built
 * with Sattolo's algorithm), in an order no prefetcher can guess.
 *
 * chase:        work-group g (of one work-item) starts at state[g], follows
 *               `loads` pointers and leaves its position in state[g]; launches
 *               continue where the last one stopped, so every load of a
 *               launch touches a node last visited one lap earlier.
 * chase_check:  one work-item, one lap from state[0]: state[0] = end node,
 *               state[1] = times the start node was reached, state[2] = sum
 *               of the visited word indices. One cycle through all n nodes
 *               gives end = start, exactly 1 return and the sum of all nodes.
 * chase_local(_check): the same in local memory (stride one word): the chain
 *               is copied in by the work-group, then work-item 0 chases.
 *
 * Counts per launch: `loads` dependent 4-byte loads per chase.
 */

__kernel void chase(__global const uint *buf, __global uint *state, uint loads)
{
	uint g = (uint)get_group_id(0);
	uint idx = state[g];

	for (uint j = 0; j < loads; j++)
		idx = buf[idx];
	state[g] = idx;
}

/*
 * One checked lap through `mem` (global or local: OpenCL C 1.2 has no generic
 * address space): state[0] the index reached, state[1] the returns to the
 * start, state[2] the sum of the indices visited.
 */
#define CHASE_CHECK_LAP(mem)                                                  \
	do {                                                                  \
		uint start = state[0], idx = start, returns = 0, sum = 0;     \
		for (uint j = 0; j < loads; j++) {                            \
			idx = (mem)[idx];                                     \
			sum += idx;                                           \
			returns += idx == start;                              \
		}                                                             \
		state[0] = idx;                                               \
		state[1] = returns;                                           \
		state[2] = sum;                                               \
	} while (0)

__kernel void chase_check(__global const uint *buf, __global uint *state, uint loads)
{
	CHASE_CHECK_LAP(buf);
}

static inline void chase_local_copy(__global const uint *src, __local uint *lbuf, uint n)
{
	for (uint k = (uint)get_local_id(0); k < n; k += (uint)get_local_size(0))
		lbuf[k] = src[k];
	barrier(CLK_LOCAL_MEM_FENCE);
}

__kernel void chase_local(__global const uint *src, __global uint *state, uint n, uint loads,
			  __local uint *lbuf)
{
	chase_local_copy(src, lbuf, n);
	if (get_local_id(0) != 0)
		return;
	uint idx = state[0];
	for (uint j = 0; j < loads; j++)
		idx = lbuf[idx];
	state[0] = idx;
}

__kernel void chase_local_check(__global const uint *src, __global uint *state, uint n,
				uint loads, __local uint *lbuf)
{
	chase_local_copy(src, lbuf, n);
	if (get_local_id(0) == 0)
		CHASE_CHECK_LAP(lbuf);
}

#ifdef KCLOCK_SCOPE
#include "kernel_clock.h"
/*
 * The chases again, built apart with -DKCLOCK_SCOPE where the device offers
 * cl_khr_kernel_clock (the timed kernels above never read a clock): ticks[g] = the
 * kernel clock's ticks over the `loads` dependent loads alone (no launch, no copy in).
 * They go on from state[] as the timed chases do, so the host checks where they end.
 */
__kernel void chase_clock(__global const uint *buf, __global uint *state, uint loads,
			  __global ulong *ticks)
{
	uint g = (uint)get_group_id(0);
	uint at = state[g];
	ulong t0 = KCLOCK_READ();

	for (uint j = 0; j < loads; j++)
		at = buf[at];
	ticks[g] = KCLOCK_READ() - t0;
	state[g] = at;
}

__kernel void chase_local_clock(__global const uint *src, __global uint *state, uint n,
				uint loads, __local uint *lbuf, __global ulong *ticks)
{
	chase_local_copy(src, lbuf, n);
	if (get_local_id(0) != 0)
		return;
	uint at = state[0];
	ulong t0 = KCLOCK_READ();
	for (uint j = 0; j < loads; j++)
		at = lbuf[at];
	ticks[0] = KCLOCK_READ() - t0;
	state[0] = at;
}
#endif
