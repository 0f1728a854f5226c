/*
 * Residency probe: how many work-groups are resident at once, counted two ways
 * in the same launch.
 *
 * state[g] packs group g's work-items that started (low 16 bits) and finished
 * (high 16 bits) into one word, so all its events fall in one total order.
 *   whole:    a group arrives when its last work-item starts before any has
 *             finished, and departs when its first work-item finishes after
 *             all have started (c[0] now, c[1] peak, c[2] arrivals). Both tests
 *             read the same word: a group either arrives and departs, or does
 *             neither (its first work-items finished before its last started:
 *             it was never whole on the device).
 *   occupied: a group arrives when its first work-item starts and departs when
 *             its last finishes (c[4] now, c[5] peak, c[6] arrivals).
 * c[3] flags a departure without an arrival. On a GPU the work-items of a
 * resident group run at once and "whole" is what the model predicts; hardware
 * that frees a finished warp's slots before its group completes lets more
 * groups be "occupied" than "whole" when the kernel has no barrier. On a CPU a
 * group's work-items run one SIMD chunk after another on one worker thread,
 * so without a barrier no group is ever whole, and "occupied" is residency.
 * With BARRIER=1 the work-items finish after a barrier, so every group is
 * whole once; with BARRIER=0 the kernel has no barrier at all.
 *
 * Why each peak is exact for its definition:
 * - No over-count: a count includes only groups that are resident by its
 *   definition at that moment. Each departing decrement's result is used
 *   (c[3]), so that work-item waits for it before retiring: a group departs
 *   before the slots that ends its residency are freed, so a group that needs
 *   them arrives after it.
 * - No under-count of the peak: a count rises only at arrivals, so its largest
 *   value is the value some arrival produced, and that arrival writes it into
 *   the peak with atomic_max (the increment's own result, not a re-read).
 * - The latency-bound chain of `spin` dependent rounds keeps every group
 *   resident long enough for all the groups the device can hold to overlap;
 *   the host doubles spin until the peak stops changing, and launches several
 *   times the predicted capacity (a peak equal to the launch size is only a
 *   lower bound).
 *
 * out[gid] = chain(seed(gid % 1024), spin) ^ gid (+ a local-memory term), so
 * the host validates every work-item from 1024 reference chains.
 * Counts per launch: ops = groups * wg * 4 * spin integer operations.
 *
 * ND3=1 (bench barrier): the guide's 3-D ND-range, a work-group of (1, R, 128)
 * in SYCL's order, (128, R, 1) in OpenCL's (SYCL's last dimension is OpenCL's
 * first). Group, local and global ids are linearised with dimension 0 fastest,
 * and the barrier fences global memory, as the guide's
 * item.barrier(access::fence_space::global_space).
 */
#include "bench_common.h"

#ifndef SLM_WORDS
#define SLM_WORDS 0
#endif
#ifndef BARRIER
#define BARRIER 1
#endif
#ifndef ND3
#define ND3 0
#endif

#define OCC_DONE_ONE 0x10000

#if ND3
#define OCC_LINEAR(id, n) (id(0) + n(0) * (id(1) + n(1) * id(2)))
#define OCC_GROUP_ID() OCC_LINEAR(get_group_id, get_num_groups)
#define OCC_LOCAL_ID() OCC_LINEAR(get_local_id, get_local_size)
#define OCC_GLOBAL_ID() OCC_LINEAR(get_global_id, get_global_size)
#define OCC_FENCE CLK_GLOBAL_MEM_FENCE
#else
#define OCC_GROUP_ID() get_group_id(0)
#define OCC_LOCAL_ID() get_local_id(0)
#define OCC_GLOBAL_ID() get_global_id(0)
#define OCC_FENCE (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)
#endif

__kernel BENCH_REQD_SG void occ_probe(__global volatile int *c, __global volatile int *state,
				      __global uint *out, uint spin, __global uint *info)
{
	size_t g = OCC_GROUP_ID(), lid = OCC_LOCAL_ID(), gid = OCC_GLOBAL_ID();
	int wg = (int)sg_lsize();
#if SLM_WORDS > 0
	__local volatile uint slm[SLM_WORDS];
#endif

	bench_record_info(info);
	int old = atomic_inc(&state[g]);
	if (old == 0) {        /* the first to start: occupied */
		int now = atomic_inc(&c[4]) + 1;
		atomic_max(&c[5], now);
		atomic_inc(&c[6]);
	}
	if (old == wg - 1) {   /* the last to start, none finished yet: whole */
		int now = atomic_inc(&c[0]) + 1;
		atomic_max(&c[1], now);
		atomic_inc(&c[2]);
	}
	uint v = (uint)(gid % 1024) * 2654435761u + 1u;
#if SLM_WORDS > 0
	for (size_t k = lid; k < SLM_WORDS; k += sg_lsize())
		slm[k] = (uint)k ^ spin;
#endif
	for (uint j = 0; j < spin; j++) {
		v ^= v << 13;
		v ^= v >> 17;
		v ^= v << 5;
		v += j;
	}
	v ^= (uint)gid;
#if SLM_WORDS > 0
	if (lid < SLM_WORDS)
		v += slm[lid];   /* its own write: no barrier needed */
#endif
	out[gid] = v;
#if BARRIER
	barrier(OCC_FENCE);
#endif
	old = atomic_add(&state[g], OCC_DONE_ONE);
	if (old == wg && atomic_dec(&c[0]) <= 0)
		c[3] = 1;   /* the first to finish, all started: no longer whole */
	if (old == (((wg - 1) << 16) | wg) && atomic_dec(&c[4]) <= 0)
		c[3] = 2;   /* the last to finish: no longer occupied */
}
