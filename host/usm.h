/* Intel's unified shared memory (cl_intel_unified_shared_memory): its entry points. */
#ifndef BENCH_USM_H
#define BENCH_USM_H

#include "clerr.h"
#include <CL/cl_ext.h>
#include <stdbool.h>

/* Intel's unified shared memory entry points (cl_intel_unified_shared_memory). */
struct usm_fns {
	clDeviceMemAllocINTEL_fn alloc;
	clMemBlockingFreeINTEL_fn free;
	clGetMemAllocInfoINTEL_fn info;
	clSetKernelArgMemPointerINTEL_fn arg;
	clEnqueueMemcpyINTEL_fn copy;
};

/* The entry points of platform p into u; false where one is missing. */
bool usm_fns_load(cl_platform_id p, struct usm_fns *u);

#endif
