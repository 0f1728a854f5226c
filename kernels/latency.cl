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
 * chase_sum:    the chain as a kernel reads it, every node at once: work-item
 *               i mixes each node k = i, i + G, ... (G work-items) with its
 *               index and leaves the sum in sums[i]; the host adds the G sums
 *               and compares them with its chain's (host/chase.c). With the
 *               chain built as one cycle on the host, a node read wrong or
 *               from another node's place fails it, at the cost of one pass
 *               over the buffer rather than one lap of dependent loads.
 * chase_local(_check): the chase in local memory (stride one word): the chain
 *               is copied in by the work-group, then work-item 0 chases; the
 *               check is one lap from state[0]: state[0] = end node, state[1]
 *               = times the start node was reached, state[2] = sum of the
 *               visited word indices. One cycle through all n nodes gives end
 *               = start, exactly 1 return and the sum of all nodes.
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

/* murmur3's 32-bit finaliser of the node's word and index, as host/chase.c's chase_mix. */
static inline uint chase_mix(uint k, uint word)
{
	uint x = word ^ (k * 0x9e3779b9u);

	x ^= x >> 16;
	x *= 0x85ebca6bu;
	x ^= x >> 13;
	x *= 0xc2b2ae35u;
	return x ^ (x >> 16);
}

__kernel void chase_sum(__global const uint *buf, __global uint *sums, uint n, uint words)
{
	uint i = (uint)get_global_id(0), step = (uint)get_global_size(0), sum = 0;

	for (uint k = i; k < n; k += step)
		sum += chase_mix(k, buf[k * words]);
	sums[i] = sum;
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
	if (get_local_id(0) != 0)
		return;
	/* one lap: state[0] the index reached, state[1] the returns to the start, state[2]
	   the sum of the indices visited */
	uint start = state[0], idx = start, returns = 0, sum = 0;
	for (uint j = 0; j < loads; j++) {
		idx = lbuf[idx];
		sum += idx;
		returns += idx == start;
	}
	state[0] = idx;
	state[1] = returns;
	state[2] = sum;
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
