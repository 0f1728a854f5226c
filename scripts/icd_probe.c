/*
 * Loads every OpenCL driver that OCL_ICD_VENDORS names and, on each device, creates a context
 * and builds a small kernel: what any bench run does first. scripts/setup.sh builds it with
 * -fsanitize=address and runs it on each driver alone, to keep out of the sanitizer registry
 * the drivers that cannot run in such a process (a dlopen with RTLD_DEEPBIND aborts it).
 * Prints "PLATFORMS DEVICES"; exit 0 unless the process dies.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

static const char *src = "kernel void probe(global int *a) { a[get_global_id(0)] = 1; }";

static unsigned probe_platform(cl_platform_id p)
{
	cl_device_id d[16];
	cl_uint nd = 0;

	if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 16, d, &nd) != CL_SUCCESS)
		return 0;
	nd = nd < 16 ? nd : 16;
	for (cl_uint i = 0; i < nd; i++) {
		cl_int e;
		cl_context c = clCreateContext(NULL, 1, &d[i], NULL, NULL, &e);
		cl_program pr = c ? clCreateProgramWithSource(c, 1, &src, NULL, &e) : NULL;
		if (pr) {
			clBuildProgram(pr, 1, &d[i], "", NULL, NULL);
			clReleaseProgram(pr);
		}
		if (c)
			clReleaseContext(c);
	}
	return nd;
}

int main(void)
{
	cl_platform_id p[32];
	cl_uint np = 0;
	unsigned nd = 0;

	if (clGetPlatformIDs(32, p, &np) != CL_SUCCESS)
		np = 0;
	np = np < 32 ? np : 32;
	for (cl_uint i = 0; i < np; i++)
		nd += probe_platform(p[i]);
	printf("%u %u\n", np, nd);
	return 0;
}
