/*
 * A fault-injecting OpenCL driver for tests: a shim registered through the ICD loader (an .icd
 * file naming this library, in a folder that OCL_ICD_VENDORS points to) that loads a real
 * CPU driver by path (BENCH_STUB_TARGET: PoCL's or Intel's ICD library) and presents that
 * driver's platform and its first device, with faults on top:
 *
 *   BENCH_STUB_FAULT   a comma-separated list of
 *     build              every clBuildProgram fails with CL_BUILD_PROGRAM_FAILURE and a build log
 *     oor-launch         every clEnqueueNDRangeKernel answers CL_OUT_OF_RESOURCES
 *     device-lost:N      after N counted calls every counted call answers CL_DEVICE_NOT_AVAILABLE
 *     crash:FUNC[:N]     the Nth call (default 1) of FUNC dies of SIGSEGV inside the driver
 *     hang:FUNC[:N]      the Nth call of FUNC never returns
 *     crash-load:N       the Nth process to load the stub (counted in BENCH_STUB_PROCESSES, a
 *                        file) dies of SIGSEGV as it loads: a driver lost before any call
 *     hang-load:N        the Nth process to load the stub never returns from the load
 *   BENCH_STUB_KERNEL  launch faults (oor-launch, crash or hang of clEnqueueNDRangeKernel)
 *                      only for kernels whose function name contains this text
 *   BENCH_STUB_DEVICE_TYPE  gpu or cpu: the type the device reports (default: the real one)
 *   BENCH_STUB_CONCURRENT  N: cl_intel_concurrent_dispatch offered, answering N (stub_conc.c)
 *   BENCH_STUB_TIME    a lie about time: zero, reversed, us-as-ns, wrap32[:BITS], constant,
 *                      half-rate, offset or coarse[:NS] (stub_time.h)
 *   BENCH_STUB_TIME_KERNEL  that lie only on launches of kernels whose name contains this text
 *   BENCH_STUB_FAULT_ONCE   a file name: the faults apply in the one process that makes the
 *                      file; a later process finds it and runs clean (a flaky driver)
 *
 * The counted calls are the ones below that reach the device: contexts, queues, buffers,
 * builds, kernels, every enqueue, clFinish, clFlush, clWaitForEvents. Everything else is the
 * real driver's own, so a check that no fault touches runs and validates for real.
 *
 * How: every object of an ICD driver starts with a pointer to the driver's dispatch table
 * (CL/cl_icd.h of the OpenCL headers), one table per driver (PoCL's and Intel's CPU runtime
 * both). The loader calls through that table, so the shim patches the entries it wraps in
 * the real table, once, before it returns the platform; the originals are kept for the
 * wrappers. The folder must register this shim alone: a real registration of the same
 * library would share the table.
 * A configuration the shim cannot honour prints why and presents no platform.
 */
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl_icd.h>
#include <CL/cl_ext.h>

#include "stub_conc.h"
#include "stub_time.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))
#define STUB_MAX_FAULTS 8
#define STUB_MAX_FAILED 256

enum fault_kind { FAULT_BUILD, FAULT_OOR_LAUNCH, FAULT_DEVICE_LOST, FAULT_CRASH, FAULT_HANG,
		  FAULT_CRASH_LOAD, FAULT_HANG_LOAD };

struct fault {
	enum fault_kind kind;
	char fn[64];                 /* crash, hang: the function */
	unsigned long n;             /* device-lost: calls before; crash, hang: which call; */
				     /* crash-load: which process */
	atomic_ulong seen;           /* crash, hang: calls of fn so far */
};

static struct {
	pthread_once_t once;
	bool ok;
	void *lib;
	cl_platform_id platform;
	cl_device_id device;
	cl_device_type type;         /* reported; 0: the real one */
	char platform_name[256];
	struct _cl_icd_dispatch orig; /* the real entries of those patched */
	struct fault faults[STUB_MAX_FAULTS];
	size_t n_faults;
	const char *kernel;          /* BENCH_STUB_KERNEL */
	atomic_ulong calls;          /* counted calls */
	pthread_mutex_t lock;        /* failed[] */
	cl_program failed[STUB_MAX_FAILED];
	size_t n_failed;
} stub = { .once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER };

static const char build_log[] =
	"bench stub driver: the build failed on request (BENCH_STUB_FAULT=build)\n";

/* The functions a crash or hang may name: the ones wrapped below. */
static const char *const wrapped[] = {
	"clGetDeviceIDs", "clCreateContext", "clCreateCommandQueue",
	"clCreateCommandQueueWithProperties", "clCreateBuffer", "clBuildProgram", "clCreateKernel",
	"clEnqueueNDRangeKernel", "clEnqueueReadBuffer", "clEnqueueWriteBuffer",
	"clEnqueueFillBuffer", "clEnqueueCopyBuffer", "clEnqueueMigrateMemObjects", "clFinish",
	"clFlush", "clWaitForEvents",
};

/* ---- faults ---- */

static bool fail_config(const char *fmt, const char *what)
{
	fprintf(stderr, "bench stub driver: ");
	fprintf(stderr, fmt, what);
	fprintf(stderr, "; no platform presented\n");
	return false;
}

static bool parse_count(const char *s, unsigned long *n)
{
	char *end;

	errno = 0;
	*n = strtoul(s, &end, 10);
	return *s >= '0' && *s <= '9' && !*end && !errno && *n > 0;
}

/* crash:FUNC[:N] or hang:FUNC[:N] after its kind's colon. */
static bool parse_fn(struct fault *f, const char *s)
{
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	bool known = false;

	f->n = 1;
	if (colon && !parse_count(colon + 1, &f->n))
		return fail_config("BENCH_STUB_FAULT: '%s' is not a call count of 1 or more", colon + 1);
	if (len >= sizeof(f->fn))
		return fail_config("BENCH_STUB_FAULT: '%s' is too long a function name", s);
	memcpy(f->fn, s, len);
	f->fn[len] = '\0';
	for (size_t i = 0; i < sizeof(wrapped) / sizeof(wrapped[0]); i++)
		known = known || strcmp(wrapped[i], f->fn) == 0;
	if (!known)
		return fail_config("BENCH_STUB_FAULT: '%s' is not a function the stub wraps (clGetDeviceIDs, "
				   "clCreateContext, clCreateCommandQueue[WithProperties], clCreateBuffer, "
				   "clBuildProgram, clCreateKernel, clEnqueueNDRangeKernel, "
				   "clEnqueue{Read,Write,Fill,Copy}Buffer, clEnqueueMigrateMemObjects, clFinish, "
				   "clFlush, clWaitForEvents)", f->fn);
	return true;
}

static bool parse_fault(struct fault *f, const char *s)
{
	if (strcmp(s, "build") == 0)
		f->kind = FAULT_BUILD;
	else if (strcmp(s, "oor-launch") == 0)
		f->kind = FAULT_OOR_LAUNCH;
	else if (strncmp(s, "device-lost:", 12) == 0) {
		f->kind = FAULT_DEVICE_LOST;
		if (!parse_count(s + 12, &f->n))
			return fail_config("BENCH_STUB_FAULT: device-lost:'%s' is not a call count of 1 or more",
					   s + 12);
	} else if (strncmp(s, "crash-load:", 11) == 0 || strncmp(s, "hang-load:", 10) == 0) {
		const char *n = strchr(s, ':') + 1;
		f->kind = s[0] == 'c' ? FAULT_CRASH_LOAD : FAULT_HANG_LOAD;
		snprintf(f->fn, sizeof(f->fn), "the load of the driver");
		if (!parse_count(n, &f->n))
			return fail_config("BENCH_STUB_FAULT: *-load:'%s' is not a process count of 1 or more",
					   n);
	} else if (strncmp(s, "crash:", 6) == 0) {
		f->kind = FAULT_CRASH;
		return parse_fn(f, s + 6);
	} else if (strncmp(s, "hang:", 5) == 0) {
		f->kind = FAULT_HANG;
		return parse_fn(f, s + 5);
	} else
		return fail_config("BENCH_STUB_FAULT: '%s' is not build, oor-launch, device-lost:N, "
				   "crash:FUNC[:N], hang:FUNC[:N], crash-load:N or hang-load:N", s);
	return true;
}

static bool parse_faults(void)
{
	const char *env = getenv("BENCH_STUB_FAULT");
	char buf[512];

	if (!env || !*env)
		return true;
	if (strlen(env) >= sizeof(buf))
		return fail_config("BENCH_STUB_FAULT is too long (%s)", "512 bytes at most");
	strcpy(buf, env);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (stub.n_faults == STUB_MAX_FAULTS)
			return fail_config("BENCH_STUB_FAULT: more than %s faults", "8");
		if (!parse_fault(&stub.faults[stub.n_faults++], t))
			return false;
	}
	return true;
}

/*
 * Whether this process's faults apply: always, or with BENCH_STUB_FAULT_ONCE, where this is
 * the process that first made the file (decided at its first fault, and kept).
 */
static bool faults_apply(void)
{
	static atomic_int decided;   /* 0: not yet, 1: yes, 2: no */
	const char *once = getenv("BENCH_STUB_FAULT_ONCE");

	if (!once || !*once)
		return true;
	if (!atomic_load(&decided)) {
		int fd = open(once, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		int none = 0;
		if (fd >= 0)
			close(fd);
		atomic_compare_exchange_strong(&decided, &none, fd >= 0 ? 1 : 2);
	}
	return atomic_load(&decided) == 1;
}

static bool has_fault(enum fault_kind kind)
{
	for (size_t i = 0; i < stub.n_faults; i++)
		if (stub.faults[i].kind == kind)
			return faults_apply();
	return false;
}

/*
 * A segmentation fault inside the driver: a write through a null pointer the compiler cannot see,
 * with SIGSEGV's default action back first (a sanitizer's handler would turn it into an exit).
 */
static int *volatile null_page;

__attribute__((no_sanitize("undefined")))
static void die_or_hang(const struct fault *f)
{
	fprintf(stderr, "bench stub driver: %s in %s, %s %lu (BENCH_STUB_FAULT)\n",
		f->kind == FAULT_HANG || f->kind == FAULT_HANG_LOAD ? "a call that never returns" :
		"a segmentation fault", f->fn, f->kind >= FAULT_CRASH_LOAD ? "process" : "call", f->n);
	fflush(stderr);
	if (f->kind == FAULT_CRASH || f->kind == FAULT_CRASH_LOAD) {
		signal(SIGSEGV, SIG_DFL);
		*null_page = 1;
		abort();   /* not reached */
	}
	for (;;)
		pause();
}

/*
 * Every counted call enters here: crashes or hangs where a fault names fn and its call has
 * come (eligible: the call is one launch faults apply to); true with *err set where the
 * device is lost.
 */
static bool gate(const char *fn, bool eligible, cl_int *err)
{
	unsigned long calls = atomic_fetch_add(&stub.calls, 1) + 1;

	for (size_t i = 0; i < stub.n_faults; i++) {
		struct fault *f = &stub.faults[i];
		if ((f->kind == FAULT_CRASH || f->kind == FAULT_HANG) && eligible && strcmp(f->fn, fn) == 0 &&
		    atomic_fetch_add(&f->seen, 1) + 1 == f->n && faults_apply())
			die_or_hang(f);
		if (f->kind == FAULT_DEVICE_LOST && calls > f->n && faults_apply()) {
			*err = CL_DEVICE_NOT_AVAILABLE;
			return true;
		}
	}
	return false;
}

/* Sets *errcode_ret (where given) and returns NULL: a creator's failure. */
static void *lost(cl_int *errcode_ret, cl_int err)
{
	if (errcode_ret)
		*errcode_ret = err;
	return NULL;
}

static bool kernel_matches(cl_kernel k)
{
	char name[256];

	if (!stub.kernel)
		return true;
	if (stub.orig.clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL) != CL_SUCCESS)
		return false;
	return strstr(name, stub.kernel) != NULL;
}

/* ---- answers ---- */

static cl_int answer(const void *v, size_t n, size_t size, void *value, size_t *size_ret)
{
	if (value && size < n)
		return CL_INVALID_VALUE;
	if (value)
		memcpy(value, v, n);
	if (size_ret)
		*size_ret = n;
	return CL_SUCCESS;
}

static cl_int CL_API_CALL stub_clGetPlatformInfo(cl_platform_id p, cl_platform_info what, size_t size,
						 void *value, size_t *size_ret)
{
	if (what == CL_PLATFORM_NAME)
		return answer(stub.platform_name, strlen(stub.platform_name) + 1, size, value, size_ret);
	return stub.orig.clGetPlatformInfo(p, what, size, value, size_ret);
}

static cl_int CL_API_CALL stub_clGetDeviceIDs(cl_platform_id p, cl_device_type type, cl_uint n,
					      cl_device_id *devices, cl_uint *n_ret)
{
	cl_int err;
	cl_device_type have = stub.type;

	if (gate("clGetDeviceIDs", true, &err))
		return err;
	if (p != stub.platform)
		return stub.orig.clGetDeviceIDs(p, type, n, devices, n_ret);
	if (!have)
		stub.orig.clGetDeviceInfo(stub.device, CL_DEVICE_TYPE, sizeof(have), &have, NULL);
	if (type != CL_DEVICE_TYPE_ALL && type != CL_DEVICE_TYPE_DEFAULT && !(type & have))
		return CL_DEVICE_NOT_FOUND;
	if (devices && n < 1)
		return CL_INVALID_VALUE;
	if (devices)
		devices[0] = stub.device;
	if (n_ret)
		*n_ret = 1;
	return CL_SUCCESS;
}

static cl_int CL_API_CALL stub_clGetDeviceInfo(cl_device_id d, cl_device_info what, size_t size,
					       void *value, size_t *size_ret)
{
	if (what == CL_DEVICE_TYPE && stub.type)
		return answer(&stub.type, sizeof(stub.type), size, value, size_ret);
	return stub.orig.clGetDeviceInfo(d, what, size, value, size_ret);
}

/* ---- builds ---- */

static bool build_failed(cl_program p)
{
	bool found = false;

	pthread_mutex_lock(&stub.lock);
	for (size_t i = 0; i < stub.n_failed && !found; i++)
		found = stub.failed[i] == p;
	pthread_mutex_unlock(&stub.lock);
	return found;
}

static cl_int CL_API_CALL stub_clBuildProgram(cl_program p, cl_uint n, const cl_device_id *devices,
					      const char *options,
					      void(CL_CALLBACK *notify)(cl_program, void *), void *user)
{
	cl_int err;

	if (gate("clBuildProgram", true, &err))
		return err;
	if (!has_fault(FAULT_BUILD))
		return stub.orig.clBuildProgram(p, n, devices, options, notify, user);
	pthread_mutex_lock(&stub.lock);
	stub.failed[stub.n_failed++ % STUB_MAX_FAILED] = p;
	if (stub.n_failed > STUB_MAX_FAILED)
		stub.n_failed = STUB_MAX_FAILED;
	pthread_mutex_unlock(&stub.lock);
	if (notify)
		notify(p, user);
	return CL_BUILD_PROGRAM_FAILURE;
}

static cl_int CL_API_CALL stub_clGetProgramBuildInfo(cl_program p, cl_device_id d, cl_program_build_info what,
						     size_t size, void *value, size_t *size_ret)
{
	cl_build_status status = CL_BUILD_ERROR;

	if (!build_failed(p))
		return stub.orig.clGetProgramBuildInfo(p, d, what, size, value, size_ret);
	if (what == CL_PROGRAM_BUILD_STATUS)
		return answer(&status, sizeof(status), size, value, size_ret);
	if (what == CL_PROGRAM_BUILD_LOG)
		return answer(build_log, sizeof(build_log), size, value, size_ret);
	return stub.orig.clGetProgramBuildInfo(p, d, what, size, value, size_ret);
}

/* ---- the counted calls: the fault gate, then the real driver ---- */

static cl_context CL_API_CALL stub_clCreateContext(const cl_context_properties *props, cl_uint n,
						   const cl_device_id *devices,
						   void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
						   void *user, cl_int *errcode_ret)
{
	cl_int err;

	if (gate("clCreateContext", true, &err))
		return lost(errcode_ret, err);
	return stub.orig.clCreateContext(props, n, devices, notify, user, errcode_ret);
}

static cl_command_queue CL_API_CALL stub_clCreateCommandQueue(cl_context c, cl_device_id d,
							      cl_command_queue_properties props,
							      cl_int *errcode_ret)
{
	cl_int err;

	if (gate("clCreateCommandQueue", true, &err))
		return lost(errcode_ret, err);
	return stub.orig.clCreateCommandQueue(c, d, props, errcode_ret);
}

static cl_command_queue CL_API_CALL stub_clCreateCommandQueueWithProperties(cl_context c, cl_device_id d,
									    const cl_queue_properties *props,
									    cl_int *errcode_ret)
{
	cl_int err;

	if (gate("clCreateCommandQueueWithProperties", true, &err))
		return lost(errcode_ret, err);
	return stub.orig.clCreateCommandQueueWithProperties(c, d, props, errcode_ret);
}

static cl_mem CL_API_CALL stub_clCreateBuffer(cl_context c, cl_mem_flags flags, size_t size, void *host,
					      cl_int *errcode_ret)
{
	cl_int err;

	if (gate("clCreateBuffer", true, &err))
		return lost(errcode_ret, err);
	return stub.orig.clCreateBuffer(c, flags, size, host, errcode_ret);
}

static cl_kernel CL_API_CALL stub_clCreateKernel(cl_program p, const char *name, cl_int *errcode_ret)
{
	cl_int err;

	if (gate("clCreateKernel", true, &err))
		return lost(errcode_ret, err);
	return stub.orig.clCreateKernel(p, name, errcode_ret);
}

static cl_int CL_API_CALL stub_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dims,
						      const size_t *offset, const size_t *global,
						      const size_t *local, cl_uint n_wait,
						      const cl_event *wait, cl_event *ev)
{
	bool match = kernel_matches(k);
	cl_int err;

	if (gate("clEnqueueNDRangeKernel", match, &err))
		return err;
	if (match && has_fault(FAULT_OOR_LAUNCH))
		return CL_OUT_OF_RESOURCES;
	return stub.orig.clEnqueueNDRangeKernel(q, k, dims, offset, global, local, n_wait, wait, ev);
}

static cl_int CL_API_CALL stub_clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool block,
						   size_t off, size_t size, void *ptr, cl_uint n_wait,
						   const cl_event *wait, cl_event *ev)
{
	cl_int err;

	if (gate("clEnqueueReadBuffer", true, &err))
		return err;
	return stub.orig.clEnqueueReadBuffer(q, m, block, off, size, ptr, n_wait, wait, ev);
}

static cl_int CL_API_CALL stub_clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool block,
						    size_t off, size_t size, const void *ptr, cl_uint n_wait,
						    const cl_event *wait, cl_event *ev)
{
	cl_int err;

	if (gate("clEnqueueWriteBuffer", true, &err))
		return err;
	return stub.orig.clEnqueueWriteBuffer(q, m, block, off, size, ptr, n_wait, wait, ev);
}

static cl_int CL_API_CALL stub_clEnqueueFillBuffer(cl_command_queue q, cl_mem m, const void *pattern,
						   size_t pattern_size, size_t off, size_t size,
						   cl_uint n_wait, const cl_event *wait, cl_event *ev)
{
	cl_int err;

	if (gate("clEnqueueFillBuffer", true, &err))
		return err;
	return stub.orig.clEnqueueFillBuffer(q, m, pattern, pattern_size, off, size, n_wait, wait, ev);
}

static cl_int CL_API_CALL stub_clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
						   size_t src_off, size_t dst_off, size_t size,
						   cl_uint n_wait, const cl_event *wait, cl_event *ev)
{
	cl_int err;

	if (gate("clEnqueueCopyBuffer", true, &err))
		return err;
	return stub.orig.clEnqueueCopyBuffer(q, src, dst, src_off, dst_off, size, n_wait, wait, ev);
}

static cl_int CL_API_CALL stub_clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint n, const cl_mem *mems,
							  cl_mem_migration_flags flags, cl_uint n_wait,
							  const cl_event *wait, cl_event *ev)
{
	cl_int err;

	if (gate("clEnqueueMigrateMemObjects", true, &err))
		return err;
	return stub.orig.clEnqueueMigrateMemObjects(q, n, mems, flags, n_wait, wait, ev);
}

static cl_int CL_API_CALL stub_clFinish(cl_command_queue q)
{
	cl_int err;

	if (gate("clFinish", true, &err))
		return err;
	return stub.orig.clFinish(q);
}

static cl_int CL_API_CALL stub_clFlush(cl_command_queue q)
{
	cl_int err;

	if (gate("clFlush", true, &err))
		return err;
	return stub.orig.clFlush(q);
}

static cl_int CL_API_CALL stub_clWaitForEvents(cl_uint n, const cl_event *events)
{
	cl_int err;

	if (gate("clWaitForEvents", true, &err))
		return err;
	return stub.orig.clWaitForEvents(n, events);
}

/* Keeps each real entry and puts the wrapper in its place. */
#define PATCH(d, name) (stub.orig.name = (d)->name, (d)->name = stub_##name)

static void patch_table(struct _cl_icd_dispatch *d)
{
	PATCH(d, clGetPlatformInfo);
	PATCH(d, clGetDeviceIDs);
	PATCH(d, clGetDeviceInfo);
	PATCH(d, clCreateContext);
	PATCH(d, clCreateCommandQueue);
	PATCH(d, clCreateCommandQueueWithProperties);
	PATCH(d, clCreateBuffer);
	PATCH(d, clBuildProgram);
	PATCH(d, clGetProgramBuildInfo);
	PATCH(d, clCreateKernel);
	PATCH(d, clEnqueueNDRangeKernel);
	PATCH(d, clEnqueueReadBuffer);
	PATCH(d, clEnqueueWriteBuffer);
	PATCH(d, clEnqueueFillBuffer);
	PATCH(d, clEnqueueCopyBuffer);
	PATCH(d, clEnqueueMigrateMemObjects);
	PATCH(d, clFinish);
	PATCH(d, clFlush);
	PATCH(d, clWaitForEvents);
}

/* ---- set-up ---- */

/* The real driver's entry, from its library (a function pointer read from dlsym's object pointer). */
static bool real_entry(const char *name, void *fn, size_t size)
{
	void *sym = dlsym(stub.lib, name);

	if (!sym)
		return fail_config("BENCH_STUB_TARGET does not export %s", name);
	memcpy(fn, &sym, size);
	return true;
}

static bool load_target(void)
{
	const char *target = getenv("BENCH_STUB_TARGET");
	const char *type = getenv("BENCH_STUB_DEVICE_TYPE");
	clIcdGetPlatformIDsKHR_fn get = NULL;
	void *(CL_API_CALL *gefa)(const char *) = NULL;
	cl_uint n = 0;

	if (!target || !*target)
		return fail_config("BENCH_STUB_TARGET names no driver library%s", "");
	if (type && strcmp(type, "gpu") && strcmp(type, "cpu"))
		return fail_config("BENCH_STUB_DEVICE_TYPE '%s' is not gpu or cpu", type);
	stub.type = !type ? 0 : strcmp(type, "gpu") == 0 ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_CPU;
	stub.kernel = getenv("BENCH_STUB_KERNEL");
	stub.lib = dlopen(target, RTLD_NOW | RTLD_LOCAL);
	if (!stub.lib)
		return fail_config("%s", dlerror());
	/* the loader's way: the entry from the driver's clGetExtensionFunctionAddress */
	if (!real_entry("clGetExtensionFunctionAddress", &gefa, sizeof(gefa)))
		return false;
	void *sym = gefa("clIcdGetPlatformIDsKHR");
	if (!sym)
		return fail_config("%s gives no clIcdGetPlatformIDsKHR", target);
	memcpy(&get, &sym, sizeof(get));
	if (get(1, &stub.platform, &n) != CL_SUCCESS || n == 0)
		return fail_config("%s presents no platform", target);
	return true;
}

/* The patched entry placed last in the table (OpenCL 2.0's entries follow 1.2's). */
_Static_assert(offsetof(struct _cl_icd_dispatch, clSetKernelExecInfo) >
	       offsetof(struct _cl_icd_dispatch, clCreateCommandQueueWithProperties), "table order");

/* Makes the pages of the driver's table from first to last writable. */
static bool unprotect(void *first, void *last)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)first & ~(uintptr_t)(page - 1);
	uintptr_t hi = (uintptr_t)last + sizeof(void *);

	if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE) != 0)
		return fail_config("cannot patch the driver's dispatch table: %s", strerror(errno));
	return true;
}

/* This process's place among those that loaded the stub: BENCH_STUB_PROCESSES's bytes (0: none). */
static unsigned long process_ordinal(void)
{
	const char *path = getenv("BENCH_STUB_PROCESSES");
	int fd = path && *path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
	off_t end = -1;

	if (fd >= 0 && write(fd, "p", 1) == 1)
		end = lseek(fd, 0, SEEK_END);
	if (fd >= 0)
		close(fd);
	return end > 0 ? (unsigned long)end : 0;
}

/* crash-load:N, hang-load:N: the Nth process dies or hangs as it loads the stub, before any call. */
static void crash_load(void)
{
	unsigned long me = 0;

	for (size_t i = 0; i < stub.n_faults; i++)
		if (stub.faults[i].kind == FAULT_CRASH_LOAD || stub.faults[i].kind == FAULT_HANG_LOAD) {
			me = me ? me : process_ordinal();
			if (me == stub.faults[i].n)
				die_or_hang(&stub.faults[i]);
		}
}

static void setup(void)
{
	struct _cl_icd_dispatch *d;
	char real[200] = "";

	if (!parse_faults())
		return;
	crash_load();
	if (!load_target())
		return;
	d = *(struct _cl_icd_dispatch **)stub.platform;
	if (d->clGetDeviceIDs(stub.platform, CL_DEVICE_TYPE_ALL, 1, &stub.device, NULL) != CL_SUCCESS) {
		fail_config("%s", "the driver's platform has no device");
		return;
	}
	d->clGetPlatformInfo(stub.platform, CL_PLATFORM_NAME, sizeof(real), real, NULL);
	snprintf(stub.platform_name, sizeof(stub.platform_name), "Bench stub driver over %s", real);
	if (!unprotect(d, &d->clSetKernelExecInfo))
		return;
	stub.orig.clGetKernelInfo = d->clGetKernelInfo;
	patch_table(d);
	stub.ok = stub_conc_setup(d, stub.platform, stub.device) && stub_time_setup(d);
}

EXPORT CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint n, cl_platform_id *platforms,
							      cl_uint *n_ret)
{
	pthread_once(&stub.once, setup);
	if (!stub.ok)
		return CL_PLATFORM_NOT_FOUND_KHR;
	if ((platforms && n == 0) || (!platforms && !n_ret))
		return CL_INVALID_VALUE;
	if (platforms)
		platforms[0] = stub.platform;
	if (n_ret)
		*n_ret = 1;
	return CL_SUCCESS;
}

/*
 * The loader (ocl-icd) wants clGetPlatformInfo from the library itself, by symbol or through
 * clGetExtensionFunctionAddress, before it trusts the platform: the dispatch table's entry.
 */
EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p, cl_platform_info what,
							 size_t size, void *value, size_t *size_ret)
{
	pthread_once(&stub.once, setup);
	if (!stub.ok || !p)
		return CL_INVALID_PLATFORM;
	return (*(struct _cl_icd_dispatch **)p)->clGetPlatformInfo(p, what, size, value, size_ret);
}

EXPORT CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
	void *(CL_API_CALL *real)(const char *) = NULL;
	void *sym;

	if (strcmp(name, "clIcdGetPlatformIDsKHR") == 0) {
		clIcdGetPlatformIDsKHR_fn f = clIcdGetPlatformIDsKHR;
		memcpy(&sym, &f, sizeof(sym));
		return sym;
	}
	if (strcmp(name, "clGetPlatformInfo") == 0) {
		cl_int(CL_API_CALL *f)(cl_platform_id, cl_platform_info, size_t, void *, size_t *) =
			clGetPlatformInfo;
		memcpy(&sym, &f, sizeof(sym));
		return sym;
	}
	pthread_once(&stub.once, setup);
	if (!stub.lib || !(sym = dlsym(stub.lib, "clGetExtensionFunctionAddress")))
		return NULL;
	memcpy(&real, &sym, sizeof(real));
	return real(name);
}
