/* Event-profiled timing of enqueued commands. */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include "clerr.h"
#include <stddef.h>
#include <stdint.h>

/* Enqueues one command and returns its event (caller releases). */
typedef cl_int (*time_enqueue_fn)(void *arg, cl_command_queue q, cl_event *ev);

/* One 1-D kernel launch; local == 0 leaves the work-group size to the driver. */
struct time_launch {
	cl_kernel kernel;
	size_t global;
	size_t local;
};

/* One launch of 1, 2 or 3 dimensions; local[0] == 0 leaves the work-group to the driver. */
struct time_launch_nd {
	cl_kernel kernel;
	cl_uint dims;
	size_t global[3], local[3];
};

/* One buffer-to-buffer copy of `bytes`. */
struct time_copy {
	cl_mem src, dst;
	size_t bytes;
};

cl_int time_enqueue_launch(void *arg, cl_command_queue q, cl_event *ev);
cl_int time_enqueue_launch_nd(void *arg, cl_command_queue q, cl_event *ev);
cl_int time_enqueue_copy(void *arg, cl_command_queue q, cl_event *ev);

/*
 * Runs `warmup` untimed commands, then `reps` timed ones, each waited for on
 * its own: dev_ns[i] = COMMAND_END - COMMAND_START from the profiling event (signed:
 * time_span_ns),
 * wall_ns[i] = host monotonic time from enqueue to completion. False with the
 * error's name in err when a command fails; a refused enqueue is also recorded
 * for cl_last_code().
 */
bool time_run(cl_command_queue q, time_enqueue_fn fn, void *arg, unsigned warmup, unsigned reps,
	      double *dev_ns, double *wall_ns, char *err, size_t errlen);

/*
 * What the driver said of one timed command, beside the host's bracket of it: the four
 * profiling counters (ns on the device's profiling clock) as given, and whether QUEUED and
 * SUBMIT were given at all (a driver may refuse them; START and END it must give).
 */
struct time_stamps {
	uint64_t queued, submit, start, end;
	bool have_queued;
	double host_ns;              /* host monotonic ns from before the enqueue to after the wait */
};

/*
 * END - START as a signed figure, ns: negative where a driver gives END before START (as
 * unsigned integers the difference would read as some 1.8e19 ns).
 */
double time_span_ns(uint64_t start, uint64_t end);
/*
 * Host ns spent so far, by every thread, reading QUEUED and SUBMIT beside START and END: what
 * the second witness costs the timed launches (in the document's phases_s.witness).
 */
uint64_t time_stamps_cost_ns(void);
/* Whether QUEUED <= SUBMIT <= START <= END (only START <= END where QUEUED was not given). */
bool time_stamps_ordered(const struct time_stamps *ts);

/*
 * One timed command, waited for: its profiled time (END - START), its host time from
 * enqueue to completion, and its device CL_PROFILING_COMMAND_START (ns on the device's
 * profiling clock, which only differences between commands of one device make sense of).
 * False as time_run.
 */
bool time_once(cl_command_queue q, time_enqueue_fn fn, void *arg, double *dev_ns, double *wall_ns,
	       uint64_t *start_ns, char *err, size_t errlen);
/* The same, with every counter the driver gave and the host's bracket in *ts. */
bool time_once_stamps(cl_command_queue q, time_enqueue_fn fn, void *arg, struct time_stamps *ts,
		      char *err, size_t errlen);

/* Host monotonic clock, ns. */
double time_now_ns(void);

#endif
