/*
 * The harness's measuring loop: warm-up, then timed launches, each waited for on its
 * own, --reps of them, then more while a target asks for it (--min-time, --ci-width),
 * at most --max-reps. Every benchmark that times through bench_point_measure gets it.
 */
#define HARNESS_LAYER HARNESS_LAYER_MEASURE
#include "measure.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Room for cap samples of each kind, keeping the first n (one allocation: dev_ns). */
static void samples_room(struct bench_point *pt, size_t n, size_t cap)
{
	double *b = bench_alloc(3 * cap * sizeof(double));

	if (pt->dev_ns && n) {
		memcpy(b, pt->dev_ns, n * sizeof(double));
		memcpy(b + cap, pt->wall_ns, n * sizeof(double));
		if (pt->start_ns)
			memcpy(b + 2 * cap, pt->start_ns, n * sizeof(double));
	}
	free(pt->dev_ns);
	pt->dev_ns = b;
	pt->wall_ns = b + cap;
	pt->start_ns = b + 2 * cap;
}

static int64_t unix_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Whether the median's 95 % interval of the n samples lies within +-pct % of the median. */
static bool ci_within(const double *x, size_t n, double pct)
{
	struct stats st;
	double lo, hi, level;

	if (!stats_median_ci(x, n, 0.95, &lo, &hi, &level))
		return false;
	stats_compute(x, n, &st);
	return lo >= st.median * (1 - pct / 100) && hi <= st.median * (1 + pct / 100);
}

/* The most timed launches of a point (measured at once with other devices: --max-reps). */
static size_t reps_max(const struct common_opts *co, bool together)
{
	size_t max;

	if (co->min_time_s <= 0 && co->ci_width_pct <= 0 && !together)
		return co->reps;
	max = co->max_reps ? co->max_reps : BENCH_MAX_REPS_DEFAULT;
	return max > co->reps ? max : co->reps;
}

/*
 * After n >= --reps timed launches: STOP_NONE to go on, else why to stop. Targets are
 * checked after every launch up to 100, then every n / 20 (sorting n samples each time).
 */
static enum bench_stop stop_now(const struct common_opts *co, const struct bench_point *pt,
				size_t n, double t0, size_t *next, bool *ci_was)
{
	bool time_ok, ci_ok;

	if (co->min_time_s <= 0 && co->ci_width_pct <= 0)
		return STOP_REPS;
	if (n >= reps_max(co, false))
		return STOP_MAX_REPS;
	if (n < *next)
		return STOP_NONE;
	*next = n + (n < 100 ? 1 : n / 20);
	time_ok = co->min_time_s <= 0 || time_now_ns() - t0 >= co->min_time_s * 1e9;
	ci_ok = co->ci_width_pct <= 0 || ci_within(pt->dev_ns, n, co->ci_width_pct);
	if (!time_ok || !ci_ok) {
		*ci_was = ci_ok && co->ci_width_pct > 0;
		return STOP_NONE;
	}
	/* the target met last decides the name; both at once: the interval */
	return co->ci_width_pct <= 0 || (co->min_time_s > 0 && *ci_was) ? STOP_MIN_TIME : STOP_CI;
}

/* One timed launch, prep first; the session's time origin set by the first one. */
static bool timed_launch(struct bench_run *r, struct bench_point *pt, time_enqueue_fn fn, void *arg,
			 bench_prep_fn prep, void *prep_arg, char *err, size_t len)
{
	struct bench_session *s = r->sess;
	cl_command_queue q = pt->queue ? pt->queue : r->pc.q;
	size_t i = pt->n;
	int64_t host = s->have_origin ? 0 : unix_ns();
	struct time_stamps ts;
	uint64_t start;

	if (prep && !prep(r, prep_arg, (unsigned)i, err, len))
		return false;
	if (r->cold)   /* waited for: wall_ns is the launch's alone */
		harness_cache_flush(r, q, true);
	if (!time_once_stamps(q, fn, arg, &ts, err, len))
		return false;
	pt->dev_ns[i] = time_span_ns(ts.start, ts.end);
	pt->wall_ns[i] = ts.host_ns;
	start = ts.start;
	if (!time_stamps_ordered(&ts) && !pt->clock.disordered++)
		pt->clock.first_disorder = ts;
	if (!s->have_origin) {
		s->have_origin = true;
		s->origin_dev_ns = start;
		s->origin_unix_ns = host;
	}
	/* a device clock that went backwards (none should) reads as a negative offset */
	pt->start_ns[i] = start >= s->origin_dev_ns ? (double)(start - s->origin_dev_ns)
						    : -(double)(s->origin_dev_ns - start);
	pt->n++;
	return true;
}

/* One more timed launch, the samples grown to hold it (at most the most a point takes). */
static bool launch_more(struct bench_run *r, struct bench_point *pt, size_t *cap, time_enqueue_fn fn,
			void *arg, bench_prep_fn prep, void *prep_arg, char *err, size_t len)
{
	size_t max = reps_max(r->co, r->h->sync != NULL);

	if (pt->n == *cap) {
		*cap = *cap * 2 < max ? *cap * 2 : max;
		samples_room(pt, pt->n, *cap);
	}
	return timed_launch(r, pt, fn, arg, prep, prep_arg, err, len);
}

/*
 * Measured at once with other devices (--concurrent): after its own targets a point goes on
 * launching, every launch timed, while another device is still short of its own, so each
 * device's figures are taken under the others' load; at most --max-reps launches (1000).
 */
static bool keep_load(struct bench_run *r, struct bench_point *pt, size_t *cap, enum bench_stop *stop,
		      time_enqueue_fn fn, void *arg, bench_prep_fn prep, void *prep_arg, char *err,
		      size_t len)
{
	size_t before = pt->n, max = reps_max(r->co, true);
	bool ok = true;

	sync_satisfied(r->h->sync);
	while (ok && pt->n < max && sync_others_measuring(r->h->sync) && !watch_signal())
		ok = launch_more(r, pt, cap, fn, arg, prep, prep_arg, err, len);
	if (pt->n > before)
		*stop = STOP_DEVICES;
	return ok;
}

bool bench_point_measure_prep(struct bench_run *r, struct bench_point *pt, time_enqueue_fn fn,
			      void *arg, bench_prep_fn prep, void *prep_arg)
{
	const struct common_opts *co = r->co;
	cl_command_queue q = pt->queue ? pt->queue : r->pc.q;
	size_t cap = co->reps, next = co->reps;
	enum bench_stop stop = STOP_NONE;
	char err[1024];
	bool ok, ci_was = false;
	double t0;

	free(pt->dev_ns);
	pt->dev_ns = NULL;
	pt->n = 0;
	pt->reps = (struct bench_reps){ 0 };
	pt->clock.disordered = 0;
	samples_room(pt, 0, cap);
	/* the probe's program is the run's device's: a point on another's queue has none */
	pt->probed = q == r->pc.q;
	if (pt->probed)
		harness_clock_probe(r, q, 1, pt->probe_ns[0]);
	ok = time_run(q, fn, arg, co->warmup, 0, NULL, NULL, err, sizeof(err));
	if (r->h->sync)   /* the timed launches start with the other devices' (after a failure too) */
		sync_timing(r->h->sync, r->h->sync_index);
	t0 = time_now_ns();
	while (ok && stop == STOP_NONE) {
		ok = launch_more(r, pt, &cap, fn, arg, prep, prep_arg, err, sizeof(err));
		if (ok && pt->n >= co->reps)
			stop = stop_now(co, pt, pt->n, t0, &next, &ci_was);
	}
	if (r->h->sync && ok)
		ok = keep_load(r, pt, &cap, &stop, fn, arg, prep, prep_arg, err, sizeof(err));
	else if (r->h->sync)   /* failed: the others no longer wait for this one */
		sync_satisfied(r->h->sync);
	pt->win_t0 = t0;
	pt->win_t1 = time_now_ns();
	if (ok && pt->probed)
		harness_clock_probe(r, q, 0, pt->probe_ns[1]);
	if (!ok) {
		pt->n = 0;
		bench_fail(pt, "%s", err);
		return false;
	}
	pt->reps = (struct bench_reps){ stop, (pt->win_t1 - t0) / 1e9 };
	stats_compute(pt->dev_ns, pt->n, &pt->time);
	pt->noisy = pt->n > 1 && pt->time.cv > co->noisy_cv;
	return true;
}

bool bench_point_measure(struct bench_run *r, struct bench_point *pt, time_enqueue_fn fn, void *arg)
{
	return bench_point_measure_prep(r, pt, fn, arg, NULL, NULL);
}

/* The point's `repetitions` member: how many timed launches and why no more. */
json_t *harness_reps_json(const struct bench_run *r, const struct bench_point *pt)
{
	static const char *const why[] = { NULL, "reps", "ci_width", "min_time", "max_reps", "devices" };
	const struct common_opts *co = r->co;
	bool adapt = co->min_time_s > 0 || co->ci_width_pct > 0;

	if (pt->reps.stop == STOP_NONE)
		return NULL;
	return json_pack("{s:I, s:I, s:I, s:s, s:o, s:o, s:f}", "taken", (json_int_t)pt->n,
			 "min", (json_int_t)co->reps, "max", (json_int_t)reps_max(co, r->h->sync != NULL),
			 "stop", why[pt->reps.stop],
			 "ci_width_pct", adapt && co->ci_width_pct > 0 ? json_real(co->ci_width_pct) : json_null(),
			 "min_time_s", adapt && co->min_time_s > 0 ? json_real(co->min_time_s) : json_null(),
			 "timed_s", pt->reps.timed_s);
}
