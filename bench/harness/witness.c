/*
 * The host's clock against the driver's: no figure rests on the driver's profiling clock
 * alone. Every timed launch is bracketed by the host's monotonic clock (host/timing.c), and
 * the two are held against each other here:
 *
 *   the session's check   once per session, before the first point is judged: the clock
 *                         probe (kernels/clock_probe.cl, one work-item's chain of dependent
 *                         rounds) launched at R and 4R rounds, R calibrated by the host clock
 *                         alone so that a launch takes at least WIT_MIN_HOST_NS and
 *                         WIT_OVERHEAD_MULT launch overheads. The extra work's time by the
 *                         events over its time by the host is the rate of the driver's clock
 *                         against the host's; outside 1/WIT_RATE_TOL..WIT_RATE_TOL every timed
 *                         figure of the session is suspect (a clock that says 1 ns, counts
 *                         microseconds as nanoseconds, runs at half rate, stands still).
 *   each point            END before START; an event longer than the host's whole wait for
 *                         its launch; END equal to START in the median launch; QUEUED <= SUBMIT <= START <= END broken; and an event
 *                         that is a vanishing fraction of a long wait: the host waited, in
 *                         its shortest launch, over WIT_VANISH times the event's median beyond
 *                         the launch overhead measured by the check (the work was done outside
 *                         the timed command, as a driver that migrates a buffer first does).
 *
 * The thresholds come from the run: the launch overhead is the device's own (the host's wait
 * less the event for a probe of one round), the slack of "longer than the host waited" is the
 * rate measured and the declared timer resolution. The shortest host wait of a point's launches
 * is the one taken, since a busy host only ever lengthens a wait.
 */
#define HARNESS_LAYER HARNESS_LAYER_MEASURE
#include "measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WIT_LAUNCHES 5          /* launches of each length in the session's check */
#define WIT_MIN_HOST_NS 1e6     /* the shorter check launch: at least 1 ms by the host... */
#define WIT_OVERHEAD_MULT 20    /* ...and 20 launch overheads */
#define WIT_MAX_ROUNDS (1u << 28) /* 4 x this still fits the kernel's uint */
/*
 * The most the driver's clock may run fast or slow against the host's in the session's check:
 * a coarse gate against broken clocks (bench validate's profiling chapter measures the rate
 * to 1 % over a second); beyond it by the measurement's own interval too, the clock is wrong.
 */
#define WIT_RATE_TOL 1.25
#define WIT_ATTEMPTS 3          /* measurements of the rate, each on launches 4 x as long */
#define WIT_VANISH 100          /* an event under 1 % of the host's unexplained wait */

struct harness_witness {
	bool made, ok;
	double rate;                       /* events' extra time / the host's for the extra work */
	double overhead_ns, overhead_max_ns;/* host wait less event of a one-round probe: median, max */
	double res_ns;                     /* CL_DEVICE_PROFILING_TIMER_RESOLUTION */
	cl_uint rounds;                    /* of the shorter launches (the longer: 4 x) */
	unsigned attempts;
	double host_min[2], event_at_min[2];/* shorter, longer: the shortest host wait, its event */
	char reason[512];
};

static double pick(const double *x, size_t n, int what)   /* -1 min, 0 median, 1 max */
{
	struct stats st;

	stats_compute(x, n, &st);
	return what < 0 ? st.min : what > 0 ? st.max : st.median;
}

/* One launch of the probe at `rounds`; exit 1 naming the driver's error. */
static void probe(struct bench_run *r, cl_command_queue q, cl_uint rounds, unsigned n, double *dev,
		  double *host)
{
	char err[4096];

	if (!harness_probe_times(r, q, rounds, n, dev, host, err, sizeof(err)))
		cli_die(EXIT_FAIL, "driver: the check of the profiling clock (clock_probe.cl): %s", err);
}

/* The launch overhead: host wait less event of a one-round probe, after a first launch. */
static void measure_overhead(struct bench_run *r, cl_command_queue q, struct harness_witness *w)
{
	double d[WIT_LAUNCHES], h[WIT_LAUNCHES], gap[WIT_LAUNCHES];

	probe(r, q, 1, 1, d, h);   /* the kernel's first use pays for more than a launch */
	probe(r, q, 1, WIT_LAUNCHES, d, h);
	for (size_t i = 0; i < WIT_LAUNCHES; i++)
		gap[i] = h[i] - (d[i] > 0 ? d[i] : 0);
	w->overhead_ns = pick(gap, WIT_LAUNCHES, 0);
	w->overhead_max_ns = pick(gap, WIT_LAUNCHES, 1);
	if (w->overhead_ns < 0)
		w->overhead_ns = 0;
	if (w->overhead_max_ns < 0)
		w->overhead_max_ns = 0;
}

/* The rounds whose launch takes the host at least `target` ns (by the host's clock alone). */
static cl_uint calibrate(struct bench_run *r, cl_command_queue q, double target)
{
	cl_uint rounds = HARNESS_PROBE_ROUNDS;
	double d, h;

	for (;;) {
		probe(r, q, rounds, 1, &d, &h);
		if (h >= target || rounds >= WIT_MAX_ROUNDS)
			return rounds;
		double grow = h > 0 ? 1.5 * target / h : 64;
		grow = grow < 2 ? 2 : grow > 64 ? 64 : grow;
		rounds = (double)rounds * grow >= WIT_MAX_ROUNDS ? WIT_MAX_ROUNDS
								 : (cl_uint)((double)rounds * grow);
	}
}

/*
 * The rate at `rounds` and 4 x, launches alternated; true where it lies within the gate. Of
 * each length the launch the host waited least for, and that launch's event: a busy host
 * lengthens a wait (and, on a CPU device, the kernel itself), never shortens it, so that
 * launch is the least disturbed, and its two clocks saw the same run.
 */
static bool measure_rate(struct bench_run *r, cl_command_queue q, struct harness_witness *w)
{
	double d[2][WIT_LAUNCHES], h[2][WIT_LAUNCHES];
	double dh;

	for (size_t i = 0; i < WIT_LAUNCHES; i++)
		for (int k = 0; k < 2; k++)
			probe(r, q, k ? 4 * w->rounds : w->rounds, 1, &d[k][i], &h[k][i]);
	for (int k = 0; k < 2; k++) {   /* the launch the host waited least for, and its event */
		size_t best = 0;
		for (size_t i = 1; i < WIT_LAUNCHES; i++)
			best = h[k][i] < h[k][best] ? i : best;
		w->host_min[k] = h[k][best];
		w->event_at_min[k] = d[k][best];
	}
	dh = w->host_min[1] - w->host_min[0];
	w->rate = dh > 0 ? (w->event_at_min[1] - w->event_at_min[0]) / dh : NAN;
	if (!(dh > 0))   /* four times the work was no longer by the host: nothing to judge by */
		return true;
	return w->rate >= 1 / WIT_RATE_TOL && w->rate <= WIT_RATE_TOL;
}

static void check_clock(struct bench_run *r, struct harness_witness *w)
{
	cl_command_queue q = r->pc.q;

	w->made = true;
	w->res_ns = (double)r->dev->timer_resolution_ns;
	measure_overhead(r, q, w);
	double target = WIT_OVERHEAD_MULT * (w->overhead_ns > 0 ? w->overhead_ns : 1);
	w->rounds = calibrate(r, q, target > WIT_MIN_HOST_NS ? target : WIT_MIN_HOST_NS);
	/*
	 * A rate outside the gate is measured again on launches four times as long, which quarters
	 * a busy host's share of them (on a 2-core host running five busy processes, 3 first
	 * measurements of 12 on PoCL read 0.86-1.3, each within 0.9-1.13 the second time), up to
	 * WIT_ATTEMPTS; the last decides.
	 */
	for (w->attempts = 1; !(w->ok = measure_rate(r, q, w)) && w->attempts < WIT_ATTEMPTS;
	     w->attempts++)
		w->rounds = w->rounds <= WIT_MAX_ROUNDS / 4 ? 4 * w->rounds : WIT_MAX_ROUNDS;
	if (!w->ok)
		snprintf(w->reason, sizeof(w->reason),
			 "the driver's profiling clock ran at %.4g x the host's: %u more rounds of the "
			 "clock probe took the host %.3f ms more and the events %.6f ms more (allowed "
			 "%.2f..%.2f x)", w->rate, 3 * w->rounds, (w->host_min[1] - w->host_min[0]) / 1e6,
			 (w->event_at_min[1] - w->event_at_min[0]) / 1e6, 1 / WIT_RATE_TOL, WIT_RATE_TOL);
}

static struct harness_witness *witness_of(struct bench_run *r)
{
	struct bench_session *s = r->sess;

	if (!s->witness)
		s->witness = bench_zalloc(sizeof(*s->witness));
	if (!s->witness->made)
		check_clock(r, s->witness);
	return s->witness;
}

/*
 * The rules of each launch, then of the samples together: the first thing that disagreed in
 * why ("" where nothing did); *unexplained the host's shortest wait beyond the launch overhead
 * and the event's median. A vanishing event is told apart (*vanished) from the rest.
 */
static void judge(const struct harness_witness *w, const double *dev, const double *host, size_t n,
		  char *why, size_t len, double *host_min, double *unexplained, bool *vanished)
{
	/* the clock's own rate (within the gate where the check passed) as slack */
	double slack = w->rate > 1 && w->rate <= WIT_RATE_TOL ? w->rate : 1;
	double ev = pick(dev, n, 0), res = w->res_ns > 1 ? w->res_ns : 1;
	size_t back = 0, longer = 0, first_back = 0, first_longer = 0;

	*vanished = false;
	why[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (dev[i] < 0 && !back++)
			first_back = i;
		if (dev[i] > host[i] * slack + 2 * res && !longer++)
			first_longer = i;
	}
	*host_min = pick(host, n, -1);
	*unexplained = *host_min - w->overhead_max_ns - (ev > 0 ? ev : 0);
	if (back)
		snprintf(why, len, "END before START in %zu of %zu launches (END - START = %.0f ns in "
			 "launch %zu)", back, n, dev[first_back], first_back + 1);
	else if (longer)
		snprintf(why, len, "the event lasted longer than the host waited for the whole launch in "
			 "%zu of %zu launches (launch %zu: %.3f us by the event, %.3f us by the host)",
			 longer, n, first_longer + 1, dev[first_longer] / 1e3, host[first_longer] / 1e3);
	else if (!w->ok)
		snprintf(why, len, "%s", w->reason);
	else if (ev <= 0)   /* a kernel that does work takes time */
		snprintf(why, len, "END equals START in the median of %zu launches, which the host waited "
			 "at least %.3f us for", n, *host_min / 1e3);
	else if (*unexplained > WIT_VANISH * (ev > res ? ev : res) &&
		 *unexplained > WIT_OVERHEAD_MULT * w->overhead_max_ns) {
		*vanished = true;
		snprintf(why, len, "the event says %.3f us (median) where the host waited at least "
			 "%.3f us beyond the launch overhead (%.3f us): the command's work is not inside "
			 "its event", ev / 1e3, *unexplained / 1e3, w->overhead_max_ns / 1e3);
	}
}

void harness_witness_samples(struct bench_run *r, const double *dev, const double *wall, size_t n,
			     char *why, size_t len)
{
	double host_min, unexplained;
	bool vanished;

	why[0] = '\0';
	if (n && wall)
		judge(witness_of(r), dev, wall, n, why, len, &host_min, &unexplained, &vanished);
}

/*
 * A row that times by the host's clock: the host's waits become the point's samples (dev_ns,
 * its `time_ns` and every figure), the events' times stand beside them (wall_ns, its
 * `event_ns`).
 */
static void host_figure(struct bench_point *pt)
{
	for (size_t i = 0; i < pt->n; i++) {
		double t = pt->dev_ns[i];
		pt->dev_ns[i] = pt->wall_ns[i];
		pt->wall_ns[i] = t;
	}
	stats_compute(pt->dev_ns, pt->n, &pt->time);
}

void harness_witness_point(struct bench_run *r, struct bench_point *pt)
{
	struct bench_clock *c = &pt->clock;
	bool vanished;

	if (pt->status != POINT_OK || !pt->n || !pt->wall_ns)
		return;
	judge(witness_of(r), pt->dev_ns, pt->wall_ns, pt->n, c->finding, sizeof(c->finding),
	      &c->host_min_ns, &c->unexplained_ns, &vanished);
	if (!c->finding[0] && c->disordered)
		snprintf(c->finding, sizeof(c->finding), "QUEUED <= SUBMIT <= START <= END fails in %u "
			 "of %zu launches (first: QUEUED %llu, SUBMIT %llu, START %llu, END %llu ns)",
			 c->disordered, pt->n, (unsigned long long)c->first_disorder.queued,
			 (unsigned long long)c->first_disorder.submit,
			 (unsigned long long)c->first_disorder.start,
			 (unsigned long long)c->first_disorder.end);
	c->judged = true;
	c->agree = !c->finding[0];
	if (c->host_figure)
		host_figure(pt);
	if (c->agree)
		return;
	if (c->host_figure && vanished)   /* the row's figure is the host's: the event stands beside */
		bench_note(pt, "the event is not the figure: %s", c->finding);
	else
		bench_suspect(pt, "clock: %s", c->finding);
}

json_t *harness_clock_json(const struct bench_point *pt)
{
	const struct bench_clock *c = &pt->clock;

	if (!c->judged)
		return NULL;
	return json_pack("{s:s, s:b, s:f, s:f, s:I, s:o}", "figure", c->host_figure ? "host" : "event",
			 "agree", c->agree, "host_min_ns", c->host_min_ns, "unexplained_ns",
			 c->unexplained_ns, "disordered", (json_int_t)c->disordered, "finding",
			 c->finding[0] ? json_string(c->finding) : json_null());
}

static json_t *finite_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *harness_clock_check_json(const struct bench_session *s)
{
	const struct harness_witness *w = s->witness;

	if (!w || !w->made)
		return json_null();
	return json_pack("{s:b, s:o, s:[f, f], s:I, s:I, s:I, s:f, s:f, s:f, s:[f, f], s:[f, f], s:o}",
			 "ok", w->ok, "rate", finite_or_null(w->rate), "rate_allowed",
			 1 / WIT_RATE_TOL, WIT_RATE_TOL, "rounds", (json_int_t)w->rounds, "launches",
			 (json_int_t)WIT_LAUNCHES, "attempts", (json_int_t)w->attempts,
			 "launch_overhead_ns", w->overhead_ns, "launch_overhead_max_ns",
			 w->overhead_max_ns, "timer_resolution_ns", w->res_ns, "host_min_ns",
			 w->host_min[0], w->host_min[1], "event_ns", w->event_at_min[0],
			 w->event_at_min[1], "reason", w->reason[0] ? json_string(w->reason) : json_null());
}

void harness_witness_free(struct bench_session *s)
{
	free(s->witness);
	s->witness = NULL;
}
