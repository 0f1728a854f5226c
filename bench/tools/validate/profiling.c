/*
 * bench validate's profiling chapter: the driver's clock as a suspect. Each check times the
 * clock probe (kernels/clock_probe.cl: one work-item, a chain of dependent rounds, so its time
 * is cycles and nothing else) and holds the event's timestamps against the specification's
 * words and against the host's monotonic clock around each launch. The rounds are calibrated by
 * the host's clock alone (PROF_WORK_NS of work, by differences of host waits): a driver whose
 * events lie cannot steer the calibration.
 */
#include "validate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PROF_WORK_NS 5e5          /* a calibrated launch: 0.5 ms of work by the host's clock */
#define PROF_CAL_LAUNCHES 3
#define PROF_LAUNCHES 7
#define PROF_SCALE_TOL 0.10       /* durations at 2 x and 4 x the work: within 10 % of 2 and 4 */
#define PROF_RATE_TOL 0.2         /* the events' extra time for more work: within 20 % of the host's */
#define PROF_TIMER_SPAN_NS 1e9    /* the device timer's rate, over at least 1 s */
#define PROF_TIMER_TOL 0.01       /* within 1 % of the host's */
#define PROF_MAX_ROUNDS (1u << 28)

/* One launch: the four timestamps, END - START (signed), the host's wait and bracket. */
struct prof_launch {
	cl_ulong t[4];               /* QUEUED, SUBMIT, START, END */
	double span_ns, host_ns;
	cl_ulong bracket[2];         /* clGetHostTimer before the enqueue and after the wait (0: none) */
};

struct prof {
	cl_program prog;
	cl_kernel k;
	cl_mem out;
	cl_uint rounds;              /* calibrated */
};

static void prof_free(struct prof *p)
{
	if (p->k)
		clReleaseKernel(p->k);
	if (p->prog)
		clReleaseProgram(p->prog);
	if (p->out)
		clReleaseMemObject(p->out);
}

/*
 * One launch of the probe at `rounds` on q, waited for and timed by host/timing.c (its four
 * stamps, END - START signed, the host's wait), inside the host timer's bracket; false with c
 * failed (a driver that gives no QUEUED or SUBMIT too: the chapter holds all four).
 */
static bool launch(struct val_ctx *v, struct val_check *c, struct prof *p, cl_command_queue q,
		   cl_uint rounds, struct prof_launch *l)
{
	struct time_launch tl = { p->k, 1, 1 };
	struct time_stamps ts;
	char err[1024];
	cl_int e;

	memset(l, 0, sizeof(*l));
	if ((e = clSetKernelArg(p->k, 1, sizeof(rounds), &rounds)) != CL_SUCCESS)
		return val_fail(c, "driver: the clock probe's rounds: %s", cl_err_name(e));
	if (clGetHostTimer(v->dev->id, &l->bracket[0]) != CL_SUCCESS)
		l->bracket[0] = 0;
	if (!time_once_stamps(q, time_enqueue_launch, &tl, &ts, err, sizeof(err)))
		return val_fail(c, "driver: the clock probe's launch: %s", err);
	if (l->bracket[0] && clGetHostTimer(v->dev->id, &l->bracket[1]) != CL_SUCCESS)
		l->bracket[0] = l->bracket[1] = 0;
	if (!ts.have_queued)
		return val_fail(c, "driver: clGetEventProfilingInfo gives no CL_PROFILING_COMMAND_QUEUED "
				"or SUBMIT for the clock probe's launch");
	l->t[0] = ts.queued;
	l->t[1] = ts.submit;
	l->t[2] = ts.start;
	l->t[3] = ts.end;
	l->host_ns = ts.host_ns;
	l->span_ns = time_span_ns(ts.start, ts.end);
	return true;
}

/* The probe built on the run's context, its rounds calibrated by the host's clock; false: c failed. */
static bool prof_make(struct val_ctx *v, struct val_check *c, struct prof *p)
{
	char err[8192];
	cl_int e = CL_SUCCESS;
	struct prof_launch l;
	struct prog_ctx own = v->pc;

	own.kernels_dir = NULL;   /* the measuring tool is the built-in probe, whatever --kernels names */
	memset(p, 0, sizeof(*p));
	if (!(p->prog = prog_build(&own, "clock_probe.cl", "", NULL, err, sizeof(err))) ||
	    !(p->k = prog_kernel(p->prog, "clock_probe", err, sizeof(err)))) {
		val_fail(c, "%.2000s", err);
		return false;
	}
	p->out = clCreateBuffer(v->pc.ctx, CL_MEM_WRITE_ONLY, 4, NULL, &e);
	if (e == CL_SUCCESS)
		e = clSetKernelArg(p->k, 0, sizeof(p->out), &p->out);
	if (e != CL_SUCCESS) {
		val_fail(c, "driver: the clock probe's buffer: %s", cl_err_name(e));
		return false;
	}
	if (!launch(v, c, p, v->pc.q, 1, &l))   /* a first launch pays for more than the kernel */
		return false;
	/*
	 * By the host's clock alone, and by differences, so that no launch overhead (however long a
	 * busy host makes it) counts as work: double the rounds until twice as many take the host
	 * PROF_WORK_NS more (the shortest of PROF_CAL_LAUNCHES waits of each).
	 */
	for (p->rounds = 4096; p->rounds < PROF_MAX_ROUNDS; p->rounds *= 2) {
		double h[2] = { INFINITY, INFINITY };
		for (int k = 0; k < 2; k++)
			for (int i = 0; i < PROF_CAL_LAUNCHES; i++) {
				if (!launch(v, c, p, v->pc.q, p->rounds << k, &l))
					return false;
				h[k] = l.host_ns < h[k] ? l.host_ns : h[k];
			}
		if (h[1] - h[0] >= PROF_WORK_NS)
			break;
	}
	return true;
}

/* n launches at rounds; false with c failed. */
static bool launches(struct val_ctx *v, struct val_check *c, struct prof *p, cl_command_queue q,
		     cl_uint rounds, struct prof_launch *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!launch(v, c, p, q, rounds, &l[i]))
			return false;
	return true;
}

/*
 * The launch of the n that the host waited least for: the least disturbed (a busy host lengthens
 * a wait, and on a CPU device the kernel too, never shortens them), so its event is the one to
 * hold against the work and the host.
 */
static const struct prof_launch *least_disturbed(const struct prof_launch *l, size_t n)
{
	size_t best = 0;

	for (size_t i = 1; i < n; i++)
		best = l[i].host_ns < l[best].host_ns ? i : best;
	return &l[best];
}

/* ---- the checks ---- */

static bool order(struct val_ctx *v, struct val_check *c, struct prof *p)
{
	static const char *const names[4] = { "QUEUED", "SUBMIT", "START", "END" };
	struct prof_launch l[PROF_LAUNCHES];

	if (!launches(v, c, p, v->pc.q, p->rounds, l, PROF_LAUNCHES))
		return false;
	for (size_t i = 0; i < PROF_LAUNCHES; i++)
		for (int k = 0; k < 3; k++)
			if (l[i].t[k] > l[i].t[k + 1])
				return val_fail(c, "launch %zu: %s %llu ns after %s %llu ns", i + 1, names[k],
					    (unsigned long long)l[i].t[k], names[k + 1],
					    (unsigned long long)l[i].t[k + 1]);
	return val_pass(c, "QUEUED <= SUBMIT <= START <= END in %d of %d launches", PROF_LAUNCHES, PROF_LAUNCHES);
}

static bool end_after_start(struct val_ctx *v, struct val_check *c, struct prof *p)
{
	struct prof_launch l[PROF_LAUNCHES];

	if (!launches(v, c, p, v->pc.q, p->rounds, l, PROF_LAUNCHES))
		return false;
	for (size_t i = 0; i < PROF_LAUNCHES; i++)
		if (!(l[i].span_ns > 0))
			return val_fail(c, "launch %zu of %u rounds (%.3f ms by the host): END - START = %.0f ns",
				    i + 1, p->rounds, l[i].host_ns / 1e6, l[i].span_ns);
	return val_pass(c, "END > START in %d launches of %.1f ms of work by the host's clock", PROF_LAUNCHES,
		    PROF_WORK_NS / 1e6);
}

static bool scaling(struct val_ctx *v, struct val_check *c, struct prof *p)
{
	struct prof_launch l[3][PROF_LAUNCHES];
	double m[3];

	/*
	 * 0.5, 1 and 2 ms of work: long beside any fixed cost inside an event, short enough that a
	 * CPU device's kernel can run within one time slice of a busy host, where a longer one is
	 * stretched by every other runnable thread's.
	 */
	cl_uint base = p->rounds;
	for (size_t i = 0; i < PROF_LAUNCHES; i++)   /* interleaved: a burst of load hits every size */
		for (int k = 0; k < 3; k++)
			if (!launch(v, c, p, v->pc.q, base << k, &l[k][i]))
				return false;
	for (int k = 0; k < 3; k++) {
		m[k] = l[k][0].span_ns;   /* the shortest event: interference only lengthens a kernel */
		for (size_t i = 1; i < PROF_LAUNCHES; i++)
			m[k] = l[k][i].span_ns < m[k] ? l[k][i].span_ns : m[k];
		if (!(m[k] > 0))
			return val_fail(c, "%u rounds: the shortest event of %d is %.0f ns", base << k,
				    PROF_LAUNCHES, m[k]);
	}
	for (int k = 1; k < 3; k++) {
		double want = (double)(1 << k), got = m[0] > 0 ? m[k] / m[0] : NAN;
		if (!(fabs(got - want) <= PROF_SCALE_TOL * want))
			return val_fail(c, "%u, %u and %u rounds took %.0f, %.0f and %.0f ns by the events: "
				    "%gx the work took %.3gx the time (allowed %.0f %%)", base,
				    2 * base, 4 * base, m[0], m[1], m[2], want, got,
				    100 * PROF_SCALE_TOL);
	}
	return val_pass(c, "1x, 2x, 4x the work: %.0f, %.0f, %.0f ns (ratios %.3f, %.3f)", m[0], m[1], m[2],
	     m[1] / m[0], m[2] / m[0]);
}

/*
 * Each event no longer than the host's wait, and the events' extra time for 3 x more work over
 * the host's (the least disturbed launch of each length: a launch overhead, however long a busy
 * host makes it, cancels) within PROF_RATE_TOL of 1: the device time counter counts nanoseconds.
 */
static bool host_witness(struct val_ctx *v, struct val_check *c, struct prof *p)
{
	struct prof_launch l[2][PROF_LAUNCHES];
	double res = (double)v->dev->timer_resolution_ns;

	for (int k = 0; k < 2; k++)
		if (!launches(v, c, p, v->pc.q, k ? 4 * p->rounds : p->rounds, l[k], PROF_LAUNCHES))
			return false;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < PROF_LAUNCHES; i++)
			if (l[k][i].span_ns > l[k][i].host_ns + 2 * res)
				return val_fail(c, "a launch of %u rounds: the event lasted %.3f ms, the host waited "
					    "%.3f ms for the whole launch", k ? 4 * p->rounds : p->rounds,
					    l[k][i].span_ns / 1e6, l[k][i].host_ns / 1e6);
	const struct prof_launch *a = least_disturbed(l[0], PROF_LAUNCHES);
	const struct prof_launch *b = least_disturbed(l[1], PROF_LAUNCHES);
	double dh = b->host_ns - a->host_ns, rate = dh > 0 ? (b->span_ns - a->span_ns) / dh : NAN;
	if (!(fabs(rate - 1) <= PROF_RATE_TOL))
		return val_fail(c, "%u more rounds took the host %.3f ms more and the events %.3f ms more: "
			    "%.4g x (allowed 1 +- %.0f %%)", 3 * p->rounds, dh / 1e6,
			    (b->span_ns - a->span_ns) / 1e6, rate, 100 * PROF_RATE_TOL);
	return val_pass(c, "no event longer than the host's wait over %d launches; 3 x more work: %.4g x "
		    "the host's extra time by the events", 2 * PROF_LAUNCHES, rate);
}

static cl_ulong gcd(cl_ulong a, cl_ulong b)
{
	while (b) {
		cl_ulong r = a % b;
		a = b;
		b = r;
	}
	return a;
}

/*
 * The declared resolution against the timestamps: no two closer than it, and not all of them a
 * multiple of a coarser tick apart (their differences' greatest common divisor: 1 ns for a timer
 * that counts nanoseconds, whatever the launches' spacing; 2 x the declared resolution or more
 * is a timer that ticks more coarsely than it says, as a microsecond clock declaring 1 ns does).
 */
static bool resolution(struct val_ctx *v, struct val_check *c, struct prof *p)
{
	struct prof_launch l[PROF_LAUNCHES * 2];
	cl_ulong ts[PROF_LAUNCHES * 8], step = 0, tick = 0;
	size_t n = 0, res = v->dev->timer_resolution_ns;

	if (!launches(v, c, p, v->pc.q, 1, l, PROF_LAUNCHES * 2))
		return false;
	for (size_t i = 0; i < PROF_LAUNCHES * 2; i++)
		for (int k = 0; k < 4; k++)
			ts[n++] = l[i].t[k];
	for (size_t i = 0; i < n; i++) {
		tick = gcd(tick, ts[i] > ts[0] ? ts[i] - ts[0] : ts[0] - ts[i]);
		for (size_t j = 0; j < n; j++)
			if (ts[j] > ts[i] && (!step || ts[j] - ts[i] < step))
				step = ts[j] - ts[i];
	}
	if (!res)
		return val_fail(c, "CL_DEVICE_PROFILING_TIMER_RESOLUTION is 0 ns");
	if (step && step < res)
		return val_fail(c, "timestamps %llu ns apart, finer than the declared resolution of %zu ns",
			    (unsigned long long)step, res);
	if (tick >= 2 * (cl_ulong)res)
		return val_fail(c, "declared %zu ns, but all %zu timestamps lie a multiple of %llu ns apart: "
			    "a timer that ticks at %llu ns or coarser", res, n, (unsigned long long)tick,
			    (unsigned long long)tick);
	return val_pass(c, "declared %zu ns; between %zu timestamps the smallest step %llu ns, their "
		    "common tick %llu ns", res, n, (unsigned long long)step, (unsigned long long)tick);
}

static bool monotonic(struct val_ctx *v, struct val_check *c, struct prof *p)
{
	cl_int e = CL_SUCCESS;
	cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };
	cl_command_queue q2 = clCreateCommandQueueWithProperties(v->pc.ctx, v->dev->id, props, &e);
	struct prof_launch l[2 * PROF_LAUNCHES];

	if (e != CL_SUCCESS)
		return val_fail(c, "driver: a second queue with profiling: %s", cl_err_name(e));
	for (size_t i = 0; i < 2 * PROF_LAUNCHES; i++)   /* alternately, each waited for */
		if (!launch(v, c, p, i % 2 ? q2 : v->pc.q, p->rounds / 4 + 1, &l[i]))
			goto out;
	for (size_t i = 1; i < 2 * PROF_LAUNCHES; i++)
		if (!(l[i].t[2] > l[i - 1].t[3])) {
			val_fail(c, "launch %zu (queue %zu) STARTed at %llu ns, not after launch %zu (queue %zu) "
			     "ENDed at %llu ns, though it was enqueued after that one completed", i + 1,
			     i % 2 + 1, (unsigned long long)l[i].t[2], i, (i - 1) % 2 + 1,
			     (unsigned long long)l[i - 1].t[3]);
			goto out;
		}
	val_pass(c, "%d launches on two queues, each waited for: every START after the END before it",
	     2 * PROF_LAUNCHES);
out:
	clReleaseCommandQueue(q2);
	return c->res == VAL_PASS;
}

static bool not_available(struct val_ctx *v, struct val_check *c, struct prof *p)
{
	cl_int e = CL_SUCCESS;
	cl_command_queue q = clCreateCommandQueueWithProperties(v->pc.ctx, v->dev->id, NULL, &e);
	cl_event ev = NULL;
	cl_ulong t;
	size_t one = 1;
	cl_uint rounds = 1;

	if (e != CL_SUCCESS)
		return val_fail(c, "driver: a queue without profiling: %s", cl_err_name(e));
	e = clSetKernelArg(p->k, 1, sizeof(rounds), &rounds);
	if (e == CL_SUCCESS)
		e = clEnqueueNDRangeKernel(q, p->k, 1, NULL, &one, &one, 0, NULL, &ev);
	if (e == CL_SUCCESS)
		e = clWaitForEvents(1, &ev);
	if (e != CL_SUCCESS)
		val_fail(c, "driver: a launch on a queue without profiling: %s", cl_err_name(e));
	else if ((e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(t), &t, NULL)) !=
		 CL_PROFILING_INFO_NOT_AVAILABLE)
		val_fail(c, "clGetEventProfilingInfo on a queue without CL_QUEUE_PROFILING_ENABLE answered %s; "
		     "the specification requires CL_PROFILING_INFO_NOT_AVAILABLE", cl_err_name(e));
	else
		val_pass(c, "CL_PROFILING_INFO_NOT_AVAILABLE, as required");
	if (ev)
		clReleaseEvent(ev);
	clReleaseCommandQueue(q);
	return c->res == VAL_PASS;
}

/*
 * A launch's four timestamps placed on the host timer's line through the pair (d0, h0) taken
 * before it: in order and inside the host timer's bracket of the launch, within slack (ns).
 * False with c failed, naming the first stamp outside and by how much.
 */
static bool on_host_line(struct val_check *c, const struct prof_launch *l, cl_ulong d0, cl_ulong h0,
			 double slack)
{
	static const char *const names[4] = { "QUEUED", "SUBMIT", "START", "END" };
	double lo = (double)l->bracket[0] - slack, hi = (double)l->bracket[1] + slack, h[4];

	for (int k = 0; k < 4; k++) {
		h[k] = (double)l->t[k] - (double)d0 + (double)h0;   /* ns on the host timer */
		if (k && h[k] < h[k - 1])
			return val_fail(c, "on the host timer's line %s is %.6g ms before %s", names[k],
				    (h[k - 1] - h[k]) / 1e6, names[k - 1]);
		if (h[k] < lo || h[k] > hi)
			return val_fail(c, "%s on the host timer's line is %.6g ms %s the host's bracket "
				    "%llu..%llu ns of the launch (%s %llu ns through the pair device %llu, "
				    "host %llu ns)", names[k], (h[k] > hi ? h[k] - hi : lo - h[k]) / 1e6,
				    h[k] > hi ? "after" : "before", (unsigned long long)l->bracket[0],
				    (unsigned long long)l->bracket[1], names[k], (unsigned long long)l->t[k],
				    (unsigned long long)d0, (unsigned long long)h0);
	}
	return true;
}

/*
 * The device timer against the host's over at least PROF_TIMER_SPAN_NS, and a long launch's
 * four timestamps placed on the host timer's line (through the pair taken before it) inside the
 * host timer's bracket of the launch.
 */
static bool device_host_timer(struct val_ctx *v, struct val_check *c, struct prof *p)
{
	cl_ulong d0, h0, d1, h1;
	cl_int e = clGetDeviceAndHostTimer(v->dev->id, &d0, &h0);
	struct prof_launch l;
	double slack = 2.0 * (double)v->dev->timer_resolution_ns + 1e4;   /* ns: the pair's own skew */

	if (e != CL_SUCCESS) {
		c->res = VAL_SKIP;
		snprintf(c->reason, sizeof(c->reason), "clGetDeviceAndHostTimer answered %s: the device "
			 "offers no timer pair (OpenCL 2.1 and later, optional in 3.0)", cl_err_name(e));
		return false;
	}
	if (!launch(v, c, p, v->pc.q, 4 * p->rounds, &l))
		return false;
	if (!l.bracket[0])
		return val_fail(c, "clGetHostTimer failed where clGetDeviceAndHostTimer works");
	if (!on_host_line(c, &l, d0, h0, slack))
		return false;
	double t0 = time_now_ns();
	while (time_now_ns() - t0 < PROF_TIMER_SPAN_NS)   /* the device busy meanwhile */
		if (!launch(v, c, p, v->pc.q, p->rounds, &l))
			return false;
	if ((e = clGetDeviceAndHostTimer(v->dev->id, &d1, &h1)) != CL_SUCCESS)
		return val_fail(c, "clGetDeviceAndHostTimer answered %s the second time", cl_err_name(e));
	double rate = h1 > h0 ? ((double)d1 - (double)d0) / (double)(h1 - h0) : NAN;
	if (!(fabs(rate - 1) <= PROF_TIMER_TOL))
		return val_fail(c, "over %.3f s of the host timer the device timer advanced %.6f s: %.6g x "
			    "(allowed 1 +- %.0f %%)", (double)(h1 - h0) / 1e9, ((double)d1 - (double)d0) / 1e9,
			    rate, 100 * PROF_TIMER_TOL);
	return val_pass(c, "device timer at %.6f x the host's over %.3f s; a launch's QUEUED, SUBMIT, START "
	     "and END in order inside the host's bracket", rate, (double)(h1 - h0) / 1e9);
}

typedef bool (*prof_fn)(struct val_ctx *v, struct val_check *c, struct prof *p);

static const struct prof_row {
	const char *id;
	prof_fn fn;
	const char *spec;
} prof_rows[] = {
	{ "order", order,
	  "clGetEventProfilingInfo: QUEUED is \"the current device time counter in nanoseconds when the "
	  "command identified by event is enqueued in a command-queue by the host\", SUBMIT when it \"is "
	  "submitted by the host to the device\", START when it \"starts execution on the device\", END "
	  "when it \"has finished execution on the device\": QUEUED <= SUBMIT <= START <= END" },
	{ "end-after-start", end_after_start,
	  "clGetEventProfilingInfo: END - START of a kernel that runs for milliseconds by the host is "
	  "positive" },
	{ "scaling", scaling,
	  "durations that scale with the work: a compute-bound chain at 1x, 2x and 4x its rounds takes "
	  "2x and 4x the time, within 10 % (the shortest of 7 launches of each)" },
	{ "host-witness", host_witness,
	  "each event no longer than the host's wait for its launch, and the events' extra time for 3 x "
	  "more work within 20 % of the host's: the device time counter counts nanoseconds" },
	{ "resolution", resolution,
	  "CL_DEVICE_PROFILING_TIMER_RESOLUTION \"describes the resolution of device timer. This is "
	  "measured in nanoseconds\": no two timestamps closer than it, and their differences' common "
	  "tick under twice it" },
	{ "monotonic", monotonic,
	  "timestamps monotonic across launches and across two queues of one device: a launch enqueued "
	  "after another completed STARTs after that one's END" },
	{ "not-available", not_available,
	  "clGetEventProfilingInfo: \"CL_PROFILING_INFO_NOT_AVAILABLE if the CL_QUEUE_PROFILING_ENABLE "
	  "flag is not set for the command-queue\"" },
	{ "device-host-timer", device_host_timer,
	  "clGetDeviceAndHostTimer \"returns a reasonably synchronized pair of timestamps from the device "
	  "timer and the host timer as seen by device\", and \"the timestamp returned from "
	  "clGetEventProfilingInfo for an event on a device and a device timestamp queried from the same "
	  "device will always be in the same timebase\": the device timer at the host's rate within 1 % "
	  "over at least a second, and a launch's four timestamps on the host timer's line, in order, "
	  "inside the host's bracket of it" },
};

static void prof_check(struct val_ctx *v, struct val_check *c)
{
	struct prof p;

	if (prof_make(v, c, &p))
		prof_rows[c->api_arg].fn(v, c, &p);
	prof_free(&p);
}

void val_plan_profiling(struct val_ctx *v)
{
	for (size_t i = 0; i < sizeof(prof_rows) / sizeof(prof_rows[0]); i++) {
		struct val_check *c = val_add(v, "profiling", "profiling/%s", prof_rows[i].id);
		c->api = prof_check;
		c->api_arg = (unsigned)i;
		snprintf(c->desc, sizeof(c->desc), "OpenCL 3.0 API specification, %s", prof_rows[i].spec);
	}
}
