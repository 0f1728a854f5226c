/*
 * The sub-group mapping of every work-item (the guide: sg_size, sg_max_size).
 *
 * Work-item g writes SG_INFO_WORDS words at rec[g * SG_INFO_WORDS]: global id,
 * work-group id, local id, sub-group id, sub-group local id, sub-group size,
 * maximum sub-group size, number of sub-groups in its work-group. The host
 * checks the mapping for consistency; nothing here assumes it.
 *
 * Counts per launch: 32 bytes written per work-item, nothing read.
 */
#include "bench_common.h"

#if !SG_LAYER
#error "built with a sub-group backend only (host/sgb.c, sgb_build_options)"
#endif

#define SG_INFO_WORDS 8

__kernel BENCH_REQD_SG void sg_info(__global uint *rec)
{
	__global uint *r = rec + get_global_id(0) * SG_INFO_WORDS;

	r[0] = (uint)get_global_id(0);
	r[1] = (uint)get_group_id(0);
	r[2] = (uint)get_local_id(0);
	r[3] = sg_id();
	r[4] = sg_local_id();
	r[5] = sg_size();
	r[6] = sg_max_size();
	r[7] = sg_num();
}
