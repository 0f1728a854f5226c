/*
 * Vector add, variants 1-4 of the occupancy experiments.
 *
 * Every variant computes out[k] = mix^iter(a[k] + b[k]) (see vecadd_elem):
 * iter = 0 is a plain add; iter > 0 appends a dependent chain of xorshift
 * rounds that no compiler can fold (it is not linear and iter is a run-time
 * argument), so the work-items stay resident and the result still proves
 * that every round ran. The host computes the same function for validation.
 *
 * VARIANT 1: one work-item per element, local size left to the driver.
 * VARIANT 2..4: work-group g adds its own slice [g*slice, min((g+1)*slice, n)),
 *   work-items striding by the work-group size.
 * BARRIER (variant 4): barriers at the start and at the end.
 * VARIANT 5 (streaming): the same function on VEC-wide vectors (VEC 1, 2, 4, 8, 16),
 *   n counting vectors; LOOP 0 strides by the whole grid (each work-item's accesses
 *   are a grid apart, neighbours adjacent: coalesced), LOOP 1 gives each work-item
 *   PER_ITEM consecutive vectors (neighbours PER_ITEM vectors apart).
 *
 * Counts per launch (host: vecadd_bytes, vecadd_ops): bytes = 12 * n elements
 * (two 4-byte reads, one 4-byte write), ops = n * (1 + 4 * iter) integer operations.
 */
#include "bench_common.h"

#if VARIANT == 5
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#if VEC == 1
#define VT uint
#else
#define VT CAT(uint, VEC)
#endif
#else
#define VT uint
#endif

static inline VT vecadd_elem(VT a, VT b, uint iter)
{
	VT v = a + b;

	for (uint j = 0; j < iter; j++) {
		v ^= v << 13;
		v ^= v >> 17;
		v ^= v << 5;
		v += j;
	}
	return v;
}

__kernel BENCH_REQD_SG void vecadd(__global const VT *restrict a, __global const VT *restrict b,
				   __global VT *restrict out, ulong n, ulong slice, uint iter,
				   __global uint *info)
{
	bench_record_info(info);
#if VARIANT == 5
	(void)slice;
#if LOOP == 0
	size_t stride = get_global_size(0);

	for (size_t k = get_global_id(0); k < n; k += stride)
		out[k] = vecadd_elem(a[k], b[k], iter);
#else
	size_t start = get_global_id(0) * PER_ITEM;
	size_t end = min(start + PER_ITEM, (size_t)n);

	for (size_t k = start; k < end; k++)
		out[k] = vecadd_elem(a[k], b[k], iter);
#endif
#elif VARIANT == 1
	size_t i = get_global_id(0);

	if (i < n)
		out[i] = vecadd_elem(a[i], b[i], iter);
#else
#if BARRIER
	barrier(CLK_LOCAL_MEM_FENCE);
#endif
	size_t start = get_group_id(0) * slice;
	size_t end = min(start + slice, (size_t)n);
	size_t wg = get_local_size(0);

	for (size_t k = start + get_local_id(0); k < end; k += wg)
		out[k] = vecadd_elem(a[k], b[k], iter);
#if BARRIER
	barrier(CLK_GLOBAL_MEM_FENCE);
#endif
#endif
}
