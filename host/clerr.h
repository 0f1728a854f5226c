/* OpenCL error names and the one checking macro every call goes through. */
#ifndef BENCH_CLERR_H
#define BENCH_CLERR_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdbool.h>

/* "CL_INVALID_WORK_GROUP_SIZE" for -54; "CL_UNKNOWN_ERROR(-9999)" otherwise (static buffer). */
const char *cl_err_name(cl_int err);

/*
 * Records a failed call (call text, file, line, error name) so that callers
 * can report it; returns true when err == CL_SUCCESS.
 */
bool cl_check_at(cl_int err, const char *call, const char *file, int line);

/* The last failure recorded by cl_check_at: "clBuildProgram: CL_BUILD_PROGRAM_FAILURE (host/prog.c:80)". */
const char *cl_last_error(void);

/* The error code of the last failure recorded, CL_SUCCESS if none. */
cl_int cl_last_code(void);

/* Forgets the last failure (before a step whose own failure the caller will ask about). */
void cl_clear_last(void);

#define CL_CHECK(call_result, call_text) cl_check_at((call_result), (call_text), __FILE__, __LINE__)

/* Evaluates an OpenCL call returning cl_int; jumps to label out on failure. */
#define CL_TRY(expr)                                                    \
	do {                                                            \
		if (!cl_check_at((expr), #expr, __FILE__, __LINE__))    \
			goto out;                                       \
	} while (0)

#endif
