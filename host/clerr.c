/* OpenCL error names (all codes of the 3.0 headers and the common extensions). */
#include "clerr.h"

#include <stdio.h>
#include <string.h>

#define E(x) { x, #x }
static const struct {
	cl_int code;
	const char *name;
} cl_errors[] = {
	E(CL_SUCCESS), E(CL_DEVICE_NOT_FOUND), E(CL_DEVICE_NOT_AVAILABLE),
	E(CL_COMPILER_NOT_AVAILABLE), E(CL_MEM_OBJECT_ALLOCATION_FAILURE),
	E(CL_OUT_OF_RESOURCES), E(CL_OUT_OF_HOST_MEMORY), E(CL_PROFILING_INFO_NOT_AVAILABLE),
	E(CL_MEM_COPY_OVERLAP), E(CL_IMAGE_FORMAT_MISMATCH), E(CL_IMAGE_FORMAT_NOT_SUPPORTED),
	E(CL_BUILD_PROGRAM_FAILURE), E(CL_MAP_FAILURE), E(CL_MISALIGNED_SUB_BUFFER_OFFSET),
	E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST), E(CL_COMPILE_PROGRAM_FAILURE),
	E(CL_LINKER_NOT_AVAILABLE), E(CL_LINK_PROGRAM_FAILURE), E(CL_DEVICE_PARTITION_FAILED),
	E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE), E(CL_INVALID_VALUE), E(CL_INVALID_DEVICE_TYPE),
	E(CL_INVALID_PLATFORM), E(CL_INVALID_DEVICE), E(CL_INVALID_CONTEXT),
	E(CL_INVALID_QUEUE_PROPERTIES), E(CL_INVALID_COMMAND_QUEUE), E(CL_INVALID_HOST_PTR),
	E(CL_INVALID_MEM_OBJECT), E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR), E(CL_INVALID_IMAGE_SIZE),
	E(CL_INVALID_SAMPLER), E(CL_INVALID_BINARY), E(CL_INVALID_BUILD_OPTIONS),
	E(CL_INVALID_PROGRAM), E(CL_INVALID_PROGRAM_EXECUTABLE), E(CL_INVALID_KERNEL_NAME),
	E(CL_INVALID_KERNEL_DEFINITION), E(CL_INVALID_KERNEL), E(CL_INVALID_ARG_INDEX),
	E(CL_INVALID_ARG_VALUE), E(CL_INVALID_ARG_SIZE), E(CL_INVALID_KERNEL_ARGS),
	E(CL_INVALID_WORK_DIMENSION), E(CL_INVALID_WORK_GROUP_SIZE), E(CL_INVALID_WORK_ITEM_SIZE),
	E(CL_INVALID_GLOBAL_OFFSET), E(CL_INVALID_EVENT_WAIT_LIST), E(CL_INVALID_EVENT),
	E(CL_INVALID_OPERATION), E(CL_INVALID_GL_OBJECT), E(CL_INVALID_BUFFER_SIZE),
	E(CL_INVALID_MIP_LEVEL), E(CL_INVALID_GLOBAL_WORK_SIZE), E(CL_INVALID_PROPERTY),
	E(CL_INVALID_IMAGE_DESCRIPTOR), E(CL_INVALID_COMPILER_OPTIONS), E(CL_INVALID_LINKER_OPTIONS),
	E(CL_INVALID_DEVICE_PARTITION_COUNT), E(CL_INVALID_PIPE_SIZE), E(CL_INVALID_DEVICE_QUEUE),
	E(CL_INVALID_SPEC_ID), E(CL_MAX_SIZE_RESTRICTION_EXCEEDED),
	{ -1001, "CL_PLATFORM_NOT_FOUND_KHR" },
	{ -1000, "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR" },
};
#undef E

/* Per thread: devices measured at once (--concurrent) fail on threads of their own. */
static _Thread_local cl_int last_code = CL_SUCCESS;

const char *cl_err_name(cl_int err)
{
	static _Thread_local char unknown[48];

	for (size_t i = 0; i < sizeof(cl_errors) / sizeof(cl_errors[0]); i++)
		if (cl_errors[i].code == err)
			return cl_errors[i].name;
	snprintf(unknown, sizeof(unknown), "CL_UNKNOWN_ERROR(%d)", (int)err);
	return unknown;
}

bool cl_record(cl_int err)
{
	if (err != CL_SUCCESS)
		last_code = err;
	return err == CL_SUCCESS;
}

cl_int cl_last_code(void)
{
	return last_code;
}

void cl_clear_last(void)
{
	last_code = CL_SUCCESS;
}

bool cl_check_at(cl_int e, const char *call, const char *file, int line, char *err, size_t errlen)
{
	const char *base = strrchr(file, '/');
	size_t name_len = strcspn(call, "( ");

	if (e == CL_SUCCESS)
		return true;
	cl_record(e);
	snprintf(err, errlen, "%.*s: %s (%s:%d)", (int)name_len, call, cl_err_name(e),
		 base ? base + 1 : file, line);
	return false;
}
