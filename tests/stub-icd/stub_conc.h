/*
 * The stub driver's cl_intel_concurrent_dispatch (stub_conc.c), offered where
 * BENCH_STUB_CONCURRENT=N is set: clGetKernelMaxConcurrentWorkGroupCountINTEL answers N for every
 * kernel and local size, and the concurrent dispatch type is accepted (the launch stays the real
 * driver's), so bench's three answers for residency can agree or disagree by a chosen amount.
 */
#ifndef BENCH_STUB_CONC_H
#define BENCH_STUB_CONC_H

#include <CL/cl_icd.h>
#include <stdbool.h>

/*
 * Reads BENCH_STUB_CONCURRENT and, where set, wraps the table's clGetDeviceInfo (the extension
 * listed on dev), clGetExtensionFunctionAddressForPlatform and clSetKernelExecInfo (the table
 * writable). False with the reason on stderr where the variable is not a count.
 */
bool stub_conc_setup(struct _cl_icd_dispatch *d, cl_platform_id p, cl_device_id dev);

#endif
