/* OpenCL error names, and the last failure for callers that must tell which error it was. */
#ifndef BENCH_CLERR_H
#define BENCH_CLERR_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300   /* the 3.0 API; what each device offers is checked at run time */
#endif
#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>

/* "CL_INVALID_WORK_GROUP_SIZE" for -54; "CL_UNKNOWN_ERROR(-9999)" otherwise (the thread's buffer). */
const char *cl_err_name(cl_int err);

/* Records a failure (err != CL_SUCCESS) for cl_last_code(); true when err == CL_SUCCESS. */
bool cl_record(cl_int err);

/* The error code of the last failure this thread recorded, CL_SUCCESS if none. */
cl_int cl_last_code(void);

/*
 * Checks what an OpenCL call returned: true on CL_SUCCESS; otherwise records the
 * failure for cl_last_code() and writes "clFoo: CL_NAME (FILE:LINE)" to err.
 * Use through CL_CHECK, which names the call and the place.
 */
bool cl_check_at(cl_int e, const char *call, const char *file, int line, char *err, size_t errlen);
#define CL_CHECK(call, err, errlen) cl_check_at((call), #call, __FILE__, __LINE__, (err), (errlen))

/* Forgets the last failure (before a step whose own failure the caller will ask about). */
void cl_clear_last(void);

#endif
