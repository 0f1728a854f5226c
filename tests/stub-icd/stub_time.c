/* The stub driver's lies about time: see stub_time.h. */
#define CL_TARGET_OPENCL_VERSION 300
#include "stub_time.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum time_fault { T_ZERO, T_REVERSED, T_US_AS_NS, T_WRAP, T_CONSTANT, T_HALF_RATE, T_OFFSET, T_COARSE };

/* Each lie's name and, for the two that take one, its argument's default and range. */
static const struct {
	const char *name;
	unsigned long long def, min, max;
} lies_t[] = {
	{ "zero", 0, 0, 0 }, { "reversed", 0, 0, 0 }, { "us-as-ns", 0, 0, 0 },
	{ "wrap32", 32, 8, 63 },                 /* bits of the counter */
	{ "constant", 0, 0, 0 }, { "half-rate", 0, 0, 0 }, { "offset", 0, 0, 0 },
	{ "coarse", 1000, 2, 1000000000 },       /* ns: the tick */
};

#define CONSTANT_NS 1000000000ull       /* what `constant` reads: 1 s */
#define OFFSET_NS (1ull << 62)           /* what `offset` adds */

static struct {
	enum time_fault fault;
	unsigned long long arg;          /* wrap32: bits; coarse: the tick, ns */
	atomic_ullong first;             /* half-rate: the first timestamp read, 0: none yet */
	cl_api_clGetEventProfilingInfo profiling;
	cl_api_clGetDeviceAndHostTimer timers;
	const char *kernel;              /* BENCH_STUB_TIME_KERNEL; NULL: every event lies */
	cl_api_clEnqueueNDRangeKernel enqueue;
	cl_api_clReleaseEvent release;
	cl_api_clGetEventInfo event_info;
	cl_api_clGetKernelInfo kernel_info;
} t;

/*
 * With BENCH_STUB_TIME_KERNEL: the live events of the launches whose kernel matches, the only
 * ones that lie. An event leaves at its last release; a launch of another kernel whose event
 * takes an address again, and an event that is no kernel's, read true whatever the set says.
 */
static struct {
	pthread_mutex_t lock;
	cl_event *ev;
	size_t n, cap;
} lying = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* ev's place in lying.ev, or lying.n; with the lock held. */
static size_t lying_find(cl_event ev)
{
	size_t i = 0;

	while (i < lying.n && lying.ev[i] != ev)
		i++;
	return i;
}

/* Puts ev in the set (in) or takes it out; a set that cannot grow leaves ev true. */
static void lying_mark(cl_event ev, bool in)
{
	pthread_mutex_lock(&lying.lock);
	size_t i = lying_find(ev);
	if (!in && i < lying.n) {
		lying.ev[i] = lying.ev[--lying.n];
	} else if (in && i == lying.n) {
		if (lying.n == lying.cap) {
			size_t cap = lying.cap ? 2 * lying.cap : 64;
			cl_event *grown = realloc(lying.ev, cap * sizeof(*grown));
			if (grown) {
				lying.ev = grown;
				lying.cap = cap;
			}
		}
		if (lying.n < lying.cap)
			lying.ev[lying.n++] = ev;
	}
	pthread_mutex_unlock(&lying.lock);
}

/* Whether ev's timestamps lie: every event's, or with a kernel named, a matching launch's. */
static bool lies(cl_event ev)
{
	cl_command_type type = 0;

	if (!t.kernel)
		return true;
	if (t.event_info(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL) != CL_SUCCESS ||
	    type != CL_COMMAND_NDRANGE_KERNEL)
		return false;
	pthread_mutex_lock(&lying.lock);
	bool in = lying_find(ev) < lying.n;
	pthread_mutex_unlock(&lying.lock);
	return in;
}

static bool kernel_matches(cl_kernel k)
{
	char name[256];

	return t.kernel_info(k, CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL) == CL_SUCCESS &&
	       strstr(name, t.kernel) != NULL;
}

static cl_int CL_API_CALL stub_time_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dims,
							   const size_t *offset, const size_t *global,
							   const size_t *local, cl_uint n_wait,
							   const cl_event *wait, cl_event *ev)
{
	cl_int e = t.enqueue(q, k, dims, offset, global, local, n_wait, wait, ev);

	if (e == CL_SUCCESS && ev && *ev)
		lying_mark(*ev, kernel_matches(k));
	return e;
}

static cl_int CL_API_CALL stub_time_clReleaseEvent(cl_event ev)
{
	cl_uint refs = 0;

	if (ev && t.event_info(ev, CL_EVENT_REFERENCE_COUNT, sizeof(refs), &refs, NULL) == CL_SUCCESS &&
	    refs <= 1)
		lying_mark(ev, false);
	return t.release(ev);
}

/* The clock's lie: what a real timestamp v reads as (for events and, where it follows, the timer). */
static cl_ulong lie(cl_ulong v)
{
	unsigned long long zero = 0;

	switch (t.fault) {
	case T_US_AS_NS:
		return v / 1000;
	case T_WRAP:
		return v & ((1ull << t.arg) - 1);
	case T_COARSE:
		return v - v % t.arg;
	case T_CONSTANT:
		return CONSTANT_NS;
	case T_HALF_RATE:
		atomic_compare_exchange_strong(&t.first, &zero, (unsigned long long)v);
		zero = atomic_load(&t.first);
		return v >= zero ? zero + (v - zero) / 2 : zero - (zero - v) / 2;
	case T_OFFSET:
		return v + OFFSET_NS;
	default:
		return v;
	}
}

static bool is_stamp(cl_profiling_info what)
{
	return what == CL_PROFILING_COMMAND_QUEUED || what == CL_PROFILING_COMMAND_SUBMIT ||
	       what == CL_PROFILING_COMMAND_START || what == CL_PROFILING_COMMAND_END ||
	       what == CL_PROFILING_COMMAND_COMPLETE;
}

static cl_int CL_API_CALL stub_clGetEventProfilingInfo(cl_event ev, cl_profiling_info what,
						       size_t size, void *value, size_t *size_ret)
{
	cl_profiling_info asked = what;
	cl_ulong v;
	cl_int e;

	if (!is_stamp(what) || !value || size < sizeof(cl_ulong) || !lies(ev))
		return t.profiling(ev, what, size, value, size_ret);
	if (t.fault == T_REVERSED && (what == CL_PROFILING_COMMAND_START || what == CL_PROFILING_COMMAND_END))
		asked = what == CL_PROFILING_COMMAND_START ? CL_PROFILING_COMMAND_END : CL_PROFILING_COMMAND_START;
	if (t.fault == T_ZERO && what == CL_PROFILING_COMMAND_END)
		asked = CL_PROFILING_COMMAND_START;
	e = t.profiling(ev, asked, sizeof(v), &v, NULL);
	if (e != CL_SUCCESS)
		return e;
	v = lie(v);
	memcpy(value, &v, sizeof(v));
	if (size_ret)
		*size_ret = sizeof(v);
	return CL_SUCCESS;
}

static cl_int CL_API_CALL stub_clGetDeviceAndHostTimer(cl_device_id d, cl_ulong *dev_ts,
						       cl_ulong *host_ts)
{
	cl_int e = t.timers(d, dev_ts, host_ts);

	/* the timer follows the events' clock, except where only some commands' stamps lie */
	if (e == CL_SUCCESS && dev_ts && !t.kernel && t.fault != T_OFFSET && t.fault != T_ZERO &&
	    t.fault != T_REVERSED)
		*dev_ts = lie(*dev_ts);
	return e;
}

/* BENCH_STUB_TIME's value into t; false naming it where it names no fault. */
static bool parse(const char *env)
{
	char *end;

	for (size_t i = 0; i < sizeof(lies_t) / sizeof(lies_t[0]); i++) {
		size_t n = strlen(lies_t[i].name);
		if (strncmp(env, lies_t[i].name, n) != 0)
			continue;
		t.fault = (enum time_fault)i;
		t.arg = lies_t[i].def;
		if (!env[n])
			return true;
		if (!lies_t[i].max || env[n] != ':')
			break;
		errno = 0;
		unsigned long long a = strtoull(env + n + 1, &end, 10);
		if (env[n + 1] < '0' || env[n + 1] > '9' || errno || *end || a < lies_t[i].min ||
		    a > lies_t[i].max)
			break;
		t.arg = a;
		return true;
	}
	fprintf(stderr, "bench stub driver: BENCH_STUB_TIME '%s' is not one of zero, reversed, "
		"us-as-ns, wrap32[:8..63], constant, half-rate, offset, coarse[:2..1000000000]; no "
		"platform presented\n", env);
	return false;
}

/* BENCH_STUB_TIME_KERNEL into t.kernel, with what restricting a lie needs; false naming why. */
static bool restrict_to_kernel(struct _cl_icd_dispatch *d)
{
	const char *k = getenv("BENCH_STUB_TIME_KERNEL");

	if (!k)
		return true;
	if (!*k) {
		fprintf(stderr, "bench stub driver: BENCH_STUB_TIME_KERNEL is empty; no platform presented\n");
		return false;
	}
	t.kernel = k;
	t.event_info = d->clGetEventInfo;
	t.kernel_info = d->clGetKernelInfo;
	t.enqueue = d->clEnqueueNDRangeKernel;
	d->clEnqueueNDRangeKernel = stub_time_clEnqueueNDRangeKernel;
	t.release = d->clReleaseEvent;
	d->clReleaseEvent = stub_time_clReleaseEvent;
	return true;
}

bool stub_time_setup(struct _cl_icd_dispatch *d)
{
	const char *env = getenv("BENCH_STUB_TIME");

	if (!env) {
		if (!getenv("BENCH_STUB_TIME_KERNEL"))
			return true;
		fprintf(stderr, "bench stub driver: BENCH_STUB_TIME_KERNEL without BENCH_STUB_TIME "
			"restricts no lie; no platform presented\n");
		return false;
	}
	if (!parse(env) || !restrict_to_kernel(d))
		return false;
	t.profiling = d->clGetEventProfilingInfo;
	d->clGetEventProfilingInfo = stub_clGetEventProfilingInfo;
	if (!d->clGetDeviceAndHostTimer)
		return true;
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)&d->clGetDeviceAndHostTimer & ~(uintptr_t)(page - 1);
	uintptr_t hi = (uintptr_t)&d->clGetDeviceAndHostTimer + sizeof(void *);
	if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE) != 0) {
		fprintf(stderr, "bench stub driver: cannot patch clGetDeviceAndHostTimer: %s; no "
			"platform presented\n", strerror(errno));
		return false;
	}
	t.timers = d->clGetDeviceAndHostTimer;
	d->clGetDeviceAndHostTimer = stub_clGetDeviceAndHostTimer;
	return true;
}
