/* Kernel-side helpers shared by the suite's kernels. Included by the host's expander. */
#ifndef BENCH_COMMON_CLH
#define BENCH_COMMON_CLH

/*
 * HAVE_SG (set by the host): the device offers sub-group built-ins.
 * REQD_SG (set by the host): required sub-group size via cl_intel_required_subgroup_size.
 */
#if defined(HAVE_KHR_SG)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

#ifdef REQD_SG
#define BENCH_REQD_SG __attribute__((intel_reqd_sub_group_size(REQD_SG)))
#else
#define BENCH_REQD_SG
#endif

/*
 * Records what the kernel really ran with, written by global id 0:
 * info[0] local size, info[1] number of groups, info[2] max sub-group size
 * (0 without sub-groups), info[3] sub-group size of work-item 0.
 */
static inline void bench_record_info(__global uint *info)
{
	if (get_global_id(0) != 0)
		return;
	info[0] = (uint)get_local_size(0);
	info[1] = (uint)get_num_groups(0);
#ifdef HAVE_SG
	info[2] = get_max_sub_group_size();
	info[3] = get_sub_group_size();
#else
	info[2] = 0;
	info[3] = 0;
#endif
}

#endif
