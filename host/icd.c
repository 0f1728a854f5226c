/* The ICD loader and the drivers behind its platforms. */
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS   /* clGetExtensionFunctionAddress: the loader's own */
#include "icd.h"

#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

bool icd_loader_is_ocl_icd(void)
{
	/* ocl-icd answers for its own function; a driver or another loader knows no such name */
	return clGetExtensionFunctionAddress("clGetICDLoaderInfoOCLICD") != NULL;
}

bool icd_driver_file(cl_platform_id p, char *buf, size_t len)
{
	const struct _cl_icd_dispatch *d;
	Dl_info info;
	void *code;

	if (!p || !icd_loader_is_ocl_icd())
		return false;
	d = *(const struct _cl_icd_dispatch *const *)p;
	memcpy(&code, &d->clGetDeviceInfo, sizeof(code));   /* a function's address, as dladdr takes it */
	if (!code || !dladdr(code, &info) || !info.dli_fname || info.dli_fname[0] != '/')
		return false;
	snprintf(buf, len, "%s", info.dli_fname);
	return true;
}
