/* Event-profiled timing of enqueued commands. */
#include "timing.h"

#include <stdio.h>
#include <time.h>

double time_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

cl_int time_enqueue_launch(void *arg, cl_command_queue q, cl_event *ev)
{
	const struct time_launch *l = arg;

	return clEnqueueNDRangeKernel(q, l->kernel, 1, NULL, &l->global, l->local ? &l->local : NULL,
				      0, NULL, ev);
}

cl_int time_enqueue_launch_nd(void *arg, cl_command_queue q, cl_event *ev)
{
	const struct time_launch_nd *l = arg;

	return clEnqueueNDRangeKernel(q, l->kernel, l->dims, NULL, l->global, l->local[0] ? l->local : NULL,
				      0, NULL, ev);
}

cl_int time_enqueue_copy(void *arg, cl_command_queue q, cl_event *ev)
{
	const struct time_copy *c = arg;

	return clEnqueueCopyBuffer(q, c->src, c->dst, 0, 0, c->bytes, 0, NULL, ev);
}

/* One command: enqueue, wait, read its profile. */
static bool time_one(cl_command_queue q, time_enqueue_fn fn, void *arg, double *dev_ns,
		     double *wall_ns, uint64_t *start_ns, char *err, size_t errlen)
{
	cl_event ev = NULL;
	cl_ulong t0 = 0, t1 = 0;
	cl_int status = CL_COMPLETE, e;
	double w0 = time_now_ns();
	bool ok = false;

	e = fn(arg, q, &ev);
	if (!cl_record(e)) {   /* cl_last_code() tells callers which error */
		snprintf(err, errlen, "enqueue failed: %s", cl_err_name(e));
		return false;
	}
	e = clWaitForEvents(1, &ev);
	if (wall_ns)
		*wall_ns = time_now_ns() - w0;
	if (e == CL_SUCCESS)
		e = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, NULL);
	if (e != CL_SUCCESS || status < 0) {
		snprintf(err, errlen, "command failed: %s", cl_err_name(e != CL_SUCCESS ? e : status));
		goto out;
	}
	e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(t0), &t0, NULL);
	if (e == CL_SUCCESS)
		e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(t1), &t1, NULL);
	if (e != CL_SUCCESS) {
		snprintf(err, errlen, "clGetEventProfilingInfo: %s", cl_err_name(e));
		goto out;
	}
	if (dev_ns)
		*dev_ns = (double)(t1 - t0);
	if (start_ns)
		*start_ns = t0;
	ok = true;
out:
	clReleaseEvent(ev);
	return ok;
}

bool time_run(cl_command_queue q, time_enqueue_fn fn, void *arg, unsigned warmup, unsigned reps,
	      double *dev_ns, double *wall_ns, char *err, size_t errlen)
{
	for (unsigned i = 0; i < warmup; i++)
		if (!time_one(q, fn, arg, NULL, NULL, NULL, err, errlen))
			return false;
	for (unsigned i = 0; i < reps; i++)
		if (!time_one(q, fn, arg, &dev_ns[i], &wall_ns[i], NULL, err, errlen))
			return false;
	return true;
}

bool time_once(cl_command_queue q, time_enqueue_fn fn, void *arg, double *dev_ns, double *wall_ns,
	       uint64_t *start_ns, char *err, size_t errlen)
{
	return time_one(q, fn, arg, dev_ns, wall_ns, start_ns, err, errlen);
}
