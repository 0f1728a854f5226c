/*
 * The harness's measuring loop: warm-up, then timed launches, each waited for on its
 * own, --reps of them, then more while a target asks for it (--min-time, --ci-width),
 * at most --max-reps. Every benchmark that times through bench_point_measure gets it.
 */
#include "harness_int.h"

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

/* ---- the harness's own kernels: --cache cold's flush, the clock probe ---- */

/*
 * Builds the harness's kernel NAME of FILE, always from the built-in copy whatever --kernels
 * names (the measuring tools are not the user's kernels), in the run's context.
 */
static bool own_kernel(struct bench_run *r, const char *file, const char *name, cl_program *prog,
		       cl_kernel *k, char *err, size_t len)
{
	struct bench_session *s = r->sess;

	s->own_pc = r->pc;
	s->own_pc.kernels_dir = NULL;
	return (*prog = prog_build(&s->own_pc, file, "", NULL, err, len)) &&
	       (*k = prog_kernel(*prog, name, err, len));
}

/* The flush kernel and its zeroed scratch of bench_flush_bytes. */
static bool cache_make(struct bench_run *r, struct bench_session *s, char *err, size_t len)
{
	uint64_t bytes = bench_flush_bytes(r);
	cl_uint zero = 0;
	cl_int e = CL_SUCCESS;

	if (!own_kernel(r, "cache_flush.cl", "cache_flush", &s->flush_prog, &s->flush_k, err, len))
		return false;
	s->flush_vecs = bytes / 16;
	s->flush_buf = clCreateBuffer(r->pc.ctx, CL_MEM_READ_ONLY, (size_t)bytes, NULL, &e);
	if (e == CL_SUCCESS)
		s->flush_sink = clCreateBuffer(r->pc.ctx, CL_MEM_WRITE_ONLY, 4, NULL, &e);
	if (e != CL_SUCCESS) {
		snprintf(err, len, "clCreateBuffer (%llu bytes of cache-flush scratch): %s",
			 (unsigned long long)bytes, cl_err_name(e));
		return false;
	}
	return CL_CHECK(clEnqueueFillBuffer(r->pc.q, s->flush_buf, &zero, sizeof(zero), 0,
					    (size_t)bytes, 0, NULL, NULL), err, len) &&
	       CL_CHECK(clFinish(r->pc.q), err, len) &&   /* before a launch on another queue */
	       PROG_SET_ARGS(s->flush_k, err, len, PROG_ARG(s->flush_buf), PROG_ARG(s->flush_sink),
			     PROG_ARG(s->flush_vecs));
}

void harness_cache_flush(struct bench_run *r, cl_command_queue q, bool wait)
{
	struct bench_session *s = r->sess;
	size_t wg = r->dev->max_wg < 256 ? r->dev->max_wg : 256;
	size_t items;
	char err[4096];

	if (!s->flush_k && !cache_make(r, s, err, sizeof(err)))
		cli_die(EXIT_FAIL, "driver: evicting the cache (--cache cold): %s", err);
	items = (size_t)r->dev->compute_units * 2048;
	if (items > s->flush_vecs)
		items = (size_t)s->flush_vecs;
	items = (items + wg - 1) / wg * wg;
	if (!CL_CHECK(clEnqueueNDRangeKernel(q, s->flush_k, 1, NULL, &items, &wg, 0, NULL, NULL),
		      err, sizeof(err)) ||
	    (wait && !CL_CHECK(clFinish(q), err, sizeof(err))))
		cli_die(EXIT_FAIL, "driver: evicting the cache (--cache cold): %s", err);
}

/* Releases one of the harness's kernels, its program and its buffers (b may be NULL), and forgets them. */
static void own_free(cl_program *prog, cl_kernel *k, cl_mem *a, cl_mem *b)
{
	cl_mem *m[2] = { a, b };

	if (*k)
		clReleaseKernel(*k);
	if (*prog)
		clReleaseProgram(*prog);
	*k = NULL;
	*prog = NULL;
	for (int i = 0; i < 2; i++)
		if (m[i] && *m[i]) {
			clReleaseMemObject(*m[i]);
			*m[i] = NULL;
		}
}

void harness_own_free(struct bench_session *s)
{
	own_free(&s->flush_prog, &s->flush_k, &s->flush_buf, &s->flush_sink);
	own_free(&s->probe_prog, &s->probe_k, &s->probe_buf, NULL);
}

/* The probe kernel and its one-word output, with its arguments set. */
static bool probe_make(struct bench_run *r, struct bench_session *s, char *err, size_t len)
{
	cl_uint rounds = HARNESS_PROBE_ROUNDS;
	cl_int e = CL_SUCCESS;

	if (!own_kernel(r, "clock_probe.cl", "clock_probe", &s->probe_prog, &s->probe_k, err, len))
		return false;
	s->probe_buf = clCreateBuffer(r->pc.ctx, CL_MEM_WRITE_ONLY, 4, NULL, &e);
	if (e != CL_SUCCESS) {
		snprintf(err, len, "clCreateBuffer (4 bytes for the clock probe): %s", cl_err_name(e));
		return false;
	}
	return PROG_SET_ARGS(s->probe_k, err, len, PROG_ARG(s->probe_buf), PROG_ARG(rounds));
}

/*
 * The clock probe on q: HARNESS_PROBE_LAUNCHES timed launches of one work-item, their times
 * in ns to dev, after warmup untimed ones (a first launch pays for the kernel's first use).
 * Exit 1 naming the driver's error where it fails.
 */
static void clock_probe(struct bench_run *r, cl_command_queue q, unsigned warmup, double *dev)
{
	struct bench_session *s = r->sess;
	double wall[HARNESS_PROBE_LAUNCHES];
	char err[4096];

	if (!s->probe_k && !probe_make(r, s, err, sizeof(err)))
		cli_die(EXIT_FAIL, "driver: the clock probe (clock_probe.cl): %s", err);
	struct time_launch l = { s->probe_k, 1, 1 };
	if (!time_run(q, time_enqueue_launch, &l, warmup, HARNESS_PROBE_LAUNCHES, dev, wall, err,
		      sizeof(err)))
		cli_die(EXIT_FAIL, "driver: the clock probe (clock_probe.cl): %s", err);
}

cl_int harness_enqueue_cold(void *arg, cl_command_queue q, cl_event *ev)
{
	struct harness_cold_cmd *c = arg;

	harness_cache_flush(c->r, q, false);
	return c->inner(c->arg, q, ev);
}

/* One timed launch, prep first; the session's time origin set by the first one. */
static bool timed_launch(struct bench_run *r, struct bench_point *pt, time_enqueue_fn fn, void *arg,
			 bench_prep_fn prep, void *prep_arg, char *err, size_t len)
{
	struct bench_session *s = r->sess;
	cl_command_queue q = pt->queue ? pt->queue : r->pc.q;
	size_t i = pt->n;
	int64_t host = s->have_origin ? 0 : unix_ns();
	uint64_t start;

	if (prep && !prep(r, prep_arg, (unsigned)i, err, len))
		return false;
	if (r->cold)   /* waited for: wall_ns is the launch's alone */
		harness_cache_flush(r, q, true);
	if (!time_once(q, fn, arg, &pt->dev_ns[i], &pt->wall_ns[i], &start, err, len))
		return false;
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
	size_t max = reps_max(r->co, r->sync != NULL);

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

	multi_sync_satisfied(r->sync);
	while (ok && pt->n < max && multi_sync_others_measuring(r->sync) && !watch_signal())
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
	samples_room(pt, 0, cap);
	/* the probe's program is the run's device's: a point on another's queue has none */
	pt->probed = q == r->pc.q;
	if (pt->probed)
		clock_probe(r, q, 1, pt->probe_ns[0]);
	ok = time_run(q, fn, arg, co->warmup, 0, NULL, NULL, err, sizeof(err));
	if (r->sync)   /* the timed launches start with the other devices' (after a failure too) */
		multi_sync_timing(r->sync, r->sync_index);
	t0 = time_now_ns();
	while (ok && stop == STOP_NONE) {
		ok = launch_more(r, pt, &cap, fn, arg, prep, prep_arg, err, sizeof(err));
		if (ok && pt->n >= co->reps)
			stop = stop_now(co, pt, pt->n, t0, &next, &ci_was);
	}
	if (r->sync && ok)
		ok = keep_load(r, pt, &cap, &stop, fn, arg, prep, prep_arg, err, sizeof(err));
	else if (r->sync)   /* failed: the others no longer wait for this one */
		multi_sync_satisfied(r->sync);
	pt->win_t0 = t0;
	pt->win_t1 = time_now_ns();
	if (ok && pt->probed)
		clock_probe(r, q, 0, pt->probe_ns[1]);
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
			 "min", (json_int_t)co->reps, "max", (json_int_t)reps_max(co, r->sync != NULL),
			 "stop", why[pt->reps.stop],
			 "ci_width_pct", adapt && co->ci_width_pct > 0 ? json_real(co->ci_width_pct) : json_null(),
			 "min_time_s", adapt && co->min_time_s > 0 ? json_real(co->min_time_s) : json_null(),
			 "timed_s", pt->reps.timed_s);
}
