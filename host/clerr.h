/* OpenCL error names, and the last failure for callers that must tell which error it was. */
#ifndef BENCH_CLERR_H
#define BENCH_CLERR_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300   /* the 3.0 API; what each device offers is checked at run time */
#endif
#include <CL/cl.h>
#include <stdbool.h>

/* "CL_INVALID_WORK_GROUP_SIZE" for -54; "CL_UNKNOWN_ERROR(-9999)" otherwise (static buffer). */
const char *cl_err_name(cl_int err);

/* Records a failure (err != CL_SUCCESS) for cl_last_code(); true when err == CL_SUCCESS. */
bool cl_record(cl_int err);

/* The error code of the last failure recorded, CL_SUCCESS if none. */
cl_int cl_last_code(void);

/* Forgets the last failure (before a step whose own failure the caller will ask about). */
void cl_clear_last(void);

#endif
