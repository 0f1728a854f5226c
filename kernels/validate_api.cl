/*
 * The kernels of bench validate's API checks (bench/tools/validate/api.c): small launches whose
 * point is what the driver answers to a misuse, and a positive control beside each.
 *
 * Counts per launch: none that matter (not timed); each writes one word per work-item.
 */

/* out[i] = v + i: the control launch, and the kernel refused at sizes it must refuse. */
__kernel void fill(__global uint *out, uint v)
{
	size_t i = get_global_id(0) + get_global_id(1) * get_global_size(0) +
		   get_global_id(2) * get_global_size(0) * get_global_size(1);

	out[i] = v + (uint)i;
}

/* A kernel whose work-group size is fixed in the source (RWG work-items, default 64). */
#ifndef RWG
#define RWG 64
#endif
__kernel __attribute__((reqd_work_group_size(RWG, 1, 1))) void fill_reqd(__global uint *out, uint v)
{
	out[get_global_id(0)] = v + (uint)get_global_id(0);
}

/* A NULL global pointer must arrive as NULL: out[i] = (p == 0). */
__kernel void null_arg(__global const uint *p, __global uint *out)
{
	out[get_global_id(0)] = p == 0 ? 1u : 0u;
}

/* A local buffer argument, to misuse its size. */
__kernel void with_local(__global uint *out, __local uint *tmp)
{
	size_t l = get_local_id(0);

	tmp[l] = (uint)l;
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = tmp[get_local_size(0) - 1 - l];
}

#ifdef REQD_SG_UNLISTED
/* A required sub-group size the device does not list (cl_intel_required_subgroup_size). */
__kernel __attribute__((intel_reqd_sub_group_size(REQD_SG_UNLISTED))) void sg_unlisted(__global uint *out)
{
	out[get_global_id(0)] = get_max_sub_group_size();
}
#endif
