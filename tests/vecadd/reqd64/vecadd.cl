/*
 * Test kernel folder for the refused-launch path: vecadd's interface and result
 * (variants 2-4 only), compiled for a required work-group of 64, so that a launch
 * with any other work-group size is refused with CL_INVALID_WORK_GROUP_SIZE.
 */
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void vecadd(__global const uint *a, __global const uint *b, __global uint *out, ulong n,
	    ulong slice, uint iter, __global uint *info)
{
	size_t start = get_group_id(0) * slice, end = min(start + slice, (size_t)n);

	if (get_global_id(0) == 0) {
		info[0] = (uint)get_local_size(0);
		info[1] = (uint)get_num_groups(0);
		info[2] = 0;
		info[3] = 0;
	}
	for (size_t k = start + get_local_id(0); k < end; k += get_local_size(0)) {
		uint v = a[k] + b[k];
		for (uint j = 0; j < iter; j++) {
			v ^= v << 13;
			v ^= v >> 17;
			v ^= v << 5;
			v += j;
		}
		out[k] = v;
	}
}
