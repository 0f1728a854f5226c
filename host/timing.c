/* Event-profiled timing of enqueued commands. */
#include "timing.h"

#include <stdatomic.h>
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

double time_span_ns(uint64_t start, uint64_t end)
{
	/* in integers first: a counter near 2^62 has no ns left as a double */
	return end >= start ? (double)(end - start) : -(double)(start - end);
}

bool time_stamps_ordered(const struct time_stamps *ts)
{
	if (ts->have_queued && (ts->queued > ts->submit || ts->submit > ts->start))
		return false;
	return ts->start <= ts->end;
}

static atomic_ullong stamps_cost_ns;

uint64_t time_stamps_cost_ns(void)
{
	return atomic_load(&stamps_cost_ns);
}

/* QUEUED and SUBMIT where the driver gives them (have_queued false where it refuses either). */
static void read_queued(cl_event ev, struct time_stamps *ts)
{
	cl_ulong t[2] = { 0, 0 };
	double t0 = time_now_ns();

	ts->have_queued = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_QUEUED, sizeof(t[0]), &t[0],
						  NULL) == CL_SUCCESS &&
			  clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_SUBMIT, sizeof(t[1]), &t[1],
						  NULL) == CL_SUCCESS;
	ts->queued = t[0];
	ts->submit = t[1];
	atomic_fetch_add(&stamps_cost_ns, (unsigned long long)(time_now_ns() - t0));
}

/* One command: enqueue, wait, read its profile (QUEUED and SUBMIT too where ts wants them). */
static bool time_one(cl_command_queue q, time_enqueue_fn fn, void *arg, double *dev_ns,
		     double *wall_ns, uint64_t *start_ns, struct time_stamps *ts, char *err,
		     size_t errlen)
{
	cl_event ev = NULL;
	cl_ulong t0 = 0, t1 = 0;
	cl_int status = CL_COMPLETE, e;
	double w0 = time_now_ns(), w;
	bool ok = false;

	e = fn(arg, q, &ev);
	if (!cl_record(e)) {   /* cl_last_code() tells callers which error */
		snprintf(err, errlen, "enqueue failed: %s", cl_err_name(e));
		return false;
	}
	e = clWaitForEvents(1, &ev);
	w = time_now_ns() - w0;
	if (wall_ns)
		*wall_ns = w;
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
		*dev_ns = time_span_ns(t0, t1);
	if (start_ns)
		*start_ns = t0;
	if (ts) {
		read_queued(ev, ts);
		ts->start = t0;
		ts->end = t1;
		ts->host_ns = w;
	}
	ok = true;
out:
	clReleaseEvent(ev);
	return ok;
}

bool time_run(cl_command_queue q, time_enqueue_fn fn, void *arg, unsigned warmup, unsigned reps,
	      double *dev_ns, double *wall_ns, char *err, size_t errlen)
{
	for (unsigned i = 0; i < warmup; i++)
		if (!time_one(q, fn, arg, NULL, NULL, NULL, NULL, err, errlen))
			return false;
	for (unsigned i = 0; i < reps; i++)
		if (!time_one(q, fn, arg, &dev_ns[i], &wall_ns[i], NULL, NULL, err, errlen))
			return false;
	return true;
}

bool time_once(cl_command_queue q, time_enqueue_fn fn, void *arg, double *dev_ns, double *wall_ns,
	       uint64_t *start_ns, char *err, size_t errlen)
{
	return time_one(q, fn, arg, dev_ns, wall_ns, start_ns, NULL, err, errlen);
}

bool time_once_stamps(cl_command_queue q, time_enqueue_fn fn, void *arg, struct time_stamps *ts,
		      char *err, size_t errlen)
{
	return time_one(q, fn, arg, NULL, NULL, NULL, ts, err, errlen);
}
