/* The stub driver's cl_intel_concurrent_dispatch (stub_conc.h). */
#include "stub_conc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONC_EXT "cl_intel_concurrent_dispatch"
#define CONC_EXEC_INFO 0x4257   /* CL_KERNEL_EXEC_INFO_DISPATCH_TYPE_INTEL */

static struct {
	unsigned long count;      /* the driver's answer, 0: not offered */
	cl_platform_id platform;
	cl_device_id device;
	struct _cl_icd_dispatch orig;
} conc;

/* The wrapped driver's extension list with cl_intel_concurrent_dispatch added. */
static cl_int extensions(cl_device_id d, size_t size, void *value, size_t *size_ret)
{
	size_t n = 0;
	char *buf;
	cl_int err = conc.orig.clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &n);

	if (err != CL_SUCCESS)
		return err;
	if (!(buf = malloc(n + sizeof(CONC_EXT) + 1)))
		return CL_OUT_OF_HOST_MEMORY;
	err = conc.orig.clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, n, buf, NULL);
	if (err != CL_SUCCESS) {
		free(buf);
		return err;
	}
	buf[n ? n - 1 : 0] = '\0';
	snprintf(buf + strlen(buf), sizeof(CONC_EXT) + 1, " %s", CONC_EXT);
	n = strlen(buf) + 1;
	if (err == CL_SUCCESS && value && size < n)
		err = CL_INVALID_VALUE;
	else if (err == CL_SUCCESS && value)
		memcpy(value, buf, n);
	if (err == CL_SUCCESS && size_ret)
		*size_ret = n;
	free(buf);
	return err;
}

static cl_int CL_API_CALL conc_clGetDeviceInfo(cl_device_id d, cl_device_info what, size_t size,
					       void *value, size_t *size_ret)
{
	if (what == CL_DEVICE_EXTENSIONS && d == conc.device)
		return extensions(d, size, value, size_ret);
	return conc.orig.clGetDeviceInfo(d, what, size, value, size_ret);
}

/* The extension's query: BENCH_STUB_CONCURRENT, whatever the kernel and local size. */
static cl_int CL_API_CALL conc_max_groups(cl_command_queue q, cl_kernel k, cl_uint dims,
					  const size_t *offset, const size_t *local, size_t *count)
{
	(void)q;
	(void)k;
	(void)offset;
	if (dims < 1 || dims > 3)
		return CL_INVALID_WORK_DIMENSION;
	if (!local)
		return CL_INVALID_WORK_GROUP_SIZE;
	if (!count)
		return CL_INVALID_VALUE;
	*count = conc.count;
	return CL_SUCCESS;
}

static void *CL_API_CALL conc_clGetExtensionFunctionAddressForPlatform(cl_platform_id p,
								       const char *name)
{
	cl_int (CL_API_CALL *fn)(cl_command_queue, cl_kernel, cl_uint, const size_t *,
				 const size_t *, size_t *) = conc_max_groups;
	void *sym;

	if (p != conc.platform || strcmp(name, "clGetKernelMaxConcurrentWorkGroupCountINTEL") != 0)
		return conc.orig.clGetExtensionFunctionAddressForPlatform(p, name);
	memcpy(&sym, &fn, sizeof(sym));
	return sym;
}

/* The concurrent dispatch type accepted; the launches stay the real driver's. */
static cl_int CL_API_CALL conc_clSetKernelExecInfo(cl_kernel k, cl_kernel_exec_info what, size_t size,
						   const void *value)
{
	if (what == CONC_EXEC_INFO)
		return size == sizeof(cl_uint) && value ? CL_SUCCESS : CL_INVALID_VALUE;
	return conc.orig.clSetKernelExecInfo(k, what, size, value);
}

#define WRAP(d, name) (conc.orig.name = (d)->name, (d)->name = conc_##name)

bool stub_conc_setup(struct _cl_icd_dispatch *d, cl_platform_id p, cl_device_id dev)
{
	const char *env = getenv("BENCH_STUB_CONCURRENT");
	char *end;

	if (!env)
		return true;
	conc.count = strtoul(env, &end, 10);
	if (*end || !conc.count) {
		fprintf(stderr, "bench stub driver: BENCH_STUB_CONCURRENT '%s' is not a count of 1 or "
			"more; no platform presented\n", env);
		return false;
	}
	conc.platform = p;
	conc.device = dev;
	WRAP(d, clGetDeviceInfo);
	WRAP(d, clGetExtensionFunctionAddressForPlatform);
	WRAP(d, clSetKernelExecInfo);
	return true;
}
