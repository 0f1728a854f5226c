/* What bench was built with and runs on (build_info.h). */
#include "build_info.h"
#include "build_conf.h"
#include "paths.h"
#include "results.h"

#define CL_USE_DEPRECATED_OPENCL_1_1_APIS   /* clGetExtensionFunctionAddress: no platform needed */
#include <CL/cl.h>
#include <dlfcn.h>
#include <string.h>

#define STR_(x) #x
#define STR(x) STR_(x)

/* The CL_VERSION_X_Y macros the headers define (CL_TARGET_OPENCL_VERSION leaves them all). */
static const char *const header_versions[] = {
#ifdef CL_VERSION_1_0
	"1.0",
#endif
#ifdef CL_VERSION_1_1
	"1.1",
#endif
#ifdef CL_VERSION_1_2
	"1.2",
#endif
#ifdef CL_VERSION_2_0
	"2.0",
#endif
#ifdef CL_VERSION_2_1
	"2.1",
#endif
#ifdef CL_VERSION_2_2
	"2.2",
#endif
#ifdef CL_VERSION_3_0
	"3.0",
#endif
	NULL };

static void print_headers(FILE *f)
{
	fprintf(f, "OpenCL headers: CL_TARGET_OPENCL_VERSION %s, CL_VERSION_X_Y for",
		STR(CL_TARGET_OPENCL_VERSION));
	for (size_t i = 0; header_versions[i]; i++)
		fprintf(f, " %s", header_versions[i]);
	if (BENCH_OPENCL_HEADERS_PC_VERSION[0])
		fprintf(f, ", pkg-config OpenCL-Headers %s", BENCH_OPENCL_HEADERS_PC_VERSION);
	fputc('\n', f);
	fprintf(f, "ICD loader built against: pkg-config OpenCL %s, %s%s\n", BENCH_OPENCL_PC_VERSION,
		BENCH_OCL_ICD_PC_VERSION[0] ? "ocl-icd " : "ocl-icd: no ocl-icd.pc (ocl-icd-dev)",
		BENCH_OCL_ICD_PC_VERSION);
}

/*
 * The loaded loader's own answer: ocl-icd (and loaders with the cl_loader_info extension)
 * answer clGetICDLoaderInfoOCLICD, reached through clGetExtensionFunctionAddress (ocl-icd does
 * not export it), which loads the registered drivers, as any command that lists devices does.
 * The library's file comes from the dynamic linker.
 */
enum { ICDL_OCL_VERSION = 1, ICDL_VERSION = 2, ICDL_NAME = 3, ICDL_VENDOR = 4 };
typedef cl_int (*icdl_info_fn)(cl_uint, size_t, void *, size_t *);

static const char *icdl_string(icdl_info_fn fn, cl_uint what, char *buf, size_t len)
{
	size_t got = 0;

	if (fn(what, len - 1, buf, &got) != CL_SUCCESS || got == 0 || got > len - 1)
		return "?";
	buf[got] = '\0';
	return buf;
}

static void print_loaded(FILE *f)
{
	void *sym = clGetExtensionFunctionAddress("clGetICDLoaderInfoOCLICD");
	void *platforms = dlsym(RTLD_DEFAULT, "clGetPlatformIDs");
	char name[128], version[128], ocl[128];
	icdl_info_fn fn;
	Dl_info where;

	fprintf(f, "ICD loader loaded: ");
	if (sym) {
		memcpy(&fn, &sym, sizeof(fn));
		fprintf(f, "%s %s (%s)", icdl_string(fn, ICDL_NAME, name, sizeof(name)),
			icdl_string(fn, ICDL_VERSION, version, sizeof(version)),
			icdl_string(fn, ICDL_OCL_VERSION, ocl, sizeof(ocl)));
	} else {
		fprintf(f, "one without clGetICDLoaderInfoOCLICD");
	}
	if (platforms && dladdr(platforms, &where) && where.dli_fname)
		fprintf(f, ", %s", where.dli_fname);
	fputc('\n', f);
}

void build_info_print(FILE *f)
{
	char data[4096];

	fprintf(f, "bench %s (%s)\n", res_tool_version(), res_tool_describe());
	print_headers(f);
	print_loaded(f);
	paths_dir(PATHS_DATA, data, sizeof(data));
	fprintf(f, "data: %s (%s)\n", data,
		paths_build_tree() ? "the source tree, for this build folder's bench" : "installed");
}
