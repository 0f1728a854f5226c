/* The harness: one session and one point loop for every benchmark row. */
#include "harness.h"
#include "sgb.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- options ---- */

static void parse_sg_backend(void *base, const char *arg)
{
	enum sgb_backend b;
	char list[128] = "";

	if (!sgb_parse(arg, &b)) {
		for (int i = SGB_FIRST; i <= SGB_LAST; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i > SGB_FIRST ? ", " : "", sgb_name((enum sgb_backend)i));
		cli_usage_error("--sg-backend '%s' is not one of: %s", arg, list);
	}
	((struct common_opts *)base)->sg_backend = arg;
}

#define CO(f) offsetof(struct common_opts, f)
static const struct cli_opt common_cli[] = {
	{ "device", "SPEC", CLI_STR, CO(device), .help = "index, platform:device, or name substring (env BENCH_DEVICE)" },
	{ "reps", "N", CLI_UINT, CO(reps), 1, 100000, .help = "timed launches per point (1..100000, default 10)" },
	{ "warmup", "N", CLI_UINT, CO(warmup), 0, 1000, .help = "untimed launches before them (0..1000, default 2)" },
	{ "json", "FILE", CLI_STR, CO(json_path), .help = "write the results document (results/README.md)" },
	{ "csv", "FILE", CLI_STR, CO(csv_path), .help = "write one CSV row per point" },
	{ "kernels", "DIR", CLI_STR, CO(kernels_dir), .help = "load kernel sources from DIR instead of the built-in copies" },
	{ "quiet", NULL, CLI_FLAG, CO(quiet), .help = "print no table" },
	{ "timeout", "SECONDS", CLI_UINT, CO(timeout_s), 0, 86400,
	  .help = "a point still running after SECONDS fails and the run ends, writing\n"
		  "what it measured (0: never; default 600)" },
	{ "noisy-cv", "PCT", CLI_UINT, CO(noisy_cv), 1, 1000,
	  .help = "flag a point whose timed launches vary by more than PCT % (CV;\n"
		  "default 10)" },
	{ 0 } };
static const struct cli_opt sg_cli[] = {
	{ "sg-backend", "B", CLI_FN, 0, .fn = parse_sg_backend,
	  .help = "sub-group backend: intel, khr, nv or emulated (default: the first\nthe device runs)" },
	{ 0 } };

void bench_usage(const struct bench_ops *ops, FILE *f)
{
	fputs(ops->synopsis, f);
	if (ops->opts)
		cli_print_opts(f, ops->opts);
	if (ops->flags & BENCH_SG)
		cli_print_opts(f, sg_cli);
	if (ops->flags & BENCH_DEVICE)
		cli_print_opts(f, common_cli);
}

static const struct bench_ops *usage_ops;
static void usage_cb(FILE *f)
{
	bench_usage(usage_ops, f);
}

/* ---- outputs: reserved before any work, removed by an early exit ---- */

static struct res_out out_json, out_csv;

static void drop_reserved_outputs(void)
{
	res_out_abort(&out_json);
	res_out_abort(&out_csv);
}

static void outputs_open(const struct common_opts *o)
{
	char err[1024];

	out_json.fd = out_csv.fd = -1;
	atexit(drop_reserved_outputs);
	if (o->json_path && o->csv_path && strcmp(o->json_path, o->csv_path) == 0)
		cli_usage_error("--json and --csv name the same file '%s'", o->json_path);
	if (o->json_path && !res_out_open(&out_json, o->json_path, err, sizeof(err)))
		cli_usage_error("--json %s", err);
	if (o->csv_path && !res_out_open(&out_csv, o->csv_path, err, sizeof(err)))
		cli_usage_error("--csv %s", err);
}

static int outputs_write(const struct common_opts *o, const json_t *doc)
{
	char err[1024];
	int rc = EXIT_OK;

	if (o->json_path && !res_write_json(&out_json, doc, err, sizeof(err))) {
		fprintf(stderr, "bench %s: %s\n", cli_cmd, err);
		rc = EXIT_FAIL;
	}
	if (o->csv_path && !res_write_csv(&out_csv, doc, err, sizeof(err))) {
		fprintf(stderr, "bench %s: %s\n", cli_cmd, err);
		rc = EXIT_FAIL;
	}
	return rc;
}

/* ---- the session ---- */

static void session_open(struct bench_run *r)
{
	const struct common_opts *o = r->co;
	char err[4096];

	if (o->kernels_dir && access(o->kernels_dir, R_OK | X_OK) != 0)
		cli_usage_error("--kernels '%s' is not a readable folder", o->kernels_dir);
	outputs_open(o);
	if (!dev_list_query(&r->devs, err, sizeof(err)) ||
	    !(r->dev = dev_select(&r->devs, o->device, err, sizeof(err))))
		cli_die(EXIT_USAGE, "%s%s", o->device && r->devs.n ? "--device " : "", err);
	if (!prog_ctx_create(&r->pc, r->dev, o->kernels_dir, err, sizeof(err)))
		cli_die(EXIT_FAIL, "driver: %s on '%s'", err, r->dev->name);
	r->doc = res_doc_new(cli_argc, cli_argv, r->dev, r->ops->name);
	occ_live_init(&r->model, r->dev);
	json_object_set_new(r->doc, "model_device", r->model.known ? occ_params_json(&r->model.dev)
								    : json_string(r->model.note));
}

static void session_close(struct bench_run *r)
{
	for (size_t i = 0; i < r->n_points; i++) {
		struct bench_point *pt = &r->points[i];
		free(pt->params);
		free(pt->dev_ns);
		json_decref(pt->ceil_stats);
		json_decref(pt->model_json);
		json_decref(pt->metrics);
		json_decref(pt->extra);
	}
	free(r->points);
	json_decref(r->ceil_stats);
	json_decref(r->doc);
	prog_ctx_release(&r->pc);
	dev_list_free(&r->devs);
}

/* "[12/48] groups=12" on stderr, overwritten in place, only when stderr is a terminal. */
static void progress(const struct bench_run *r, size_t i)
{
	char label[128];

	if (!isatty(STDERR_FILENO))
		return;
	if (i >= r->n_points) {
		fprintf(stderr, "\r\033[K");
	} else {
		if (r->ops->label)
			r->ops->label(r, i, label, sizeof(label));
		else
			snprintf(label, sizeof(label), "point %zu", i + 1);
		fprintf(stderr, "\r\033[K[%zu/%zu] %s %s", i + 1, r->n_points, r->ops->name, label);
	}
	fflush(stderr);
}

/* ---- one point ---- */

static void set_reason(struct bench_point *pt, const char *fmt, va_list ap)
{
	size_t len = strlen(pt->reason);

	/* a note adds to earlier ones; a failure or skip replaces them */
	if (pt->status != POINT_OK || !len)
		len = 0;
	else
		len += (size_t)snprintf(pt->reason + len, sizeof(pt->reason) - len, "; ");
	if (len < sizeof(pt->reason))
		vsnprintf(pt->reason + len, sizeof(pt->reason) - len, fmt, ap);
}

void bench_fail(struct bench_point *pt, const char *fmt, ...)
{
	va_list ap;

	pt->status = POINT_FAILED;
	va_start(ap, fmt);
	set_reason(pt, fmt, ap);
	va_end(ap);
}

void bench_skip(struct bench_point *pt, const char *fmt, ...)
{
	va_list ap;

	pt->status = POINT_SKIPPED;
	va_start(ap, fmt);
	set_reason(pt, fmt, ap);
	va_end(ap);
}

void bench_note(struct bench_point *pt, const char *fmt, ...)
{
	va_list ap;

	if (pt->status != POINT_OK)
		return;
	va_start(ap, fmt);
	set_reason(pt, fmt, ap);
	va_end(ap);
}

void bench_point_time_launch(struct bench_point *pt, cl_kernel k, size_t global, size_t local)
{
	pt->launch = (struct time_launch){ k, global, local };
	pt->enqueue = time_enqueue_launch;
	pt->enqueue_arg = &pt->launch;
}

void bench_point_model(struct bench_point *pt, const struct kernel_res *res, unsigned wg,
		       unsigned simd, bool barrier, uint64_t groups)
{
	pt->res = *res;
	pt->model_wg = wg;
	pt->model_simd = simd;
	pt->model_barrier = barrier;
	pt->model_groups = groups;
}

bool bench_point_measure(struct bench_run *r, struct bench_point *pt, time_enqueue_fn fn, void *arg)
{
	unsigned reps = r->co->reps;
	char err[1024];

	free(pt->dev_ns);
	pt->dev_ns = bench_alloc(2 * (size_t)reps * sizeof(double));
	pt->wall_ns = pt->dev_ns + reps;
	pt->n = 0;
	if (!time_run(r->pc.q, fn, arg, r->co->warmup, reps, pt->dev_ns, pt->wall_ns, err,
		      sizeof(err))) {
		bench_fail(pt, "%s", err);
		return false;
	}
	pt->n = reps;
	stats_compute(pt->dev_ns, reps, &pt->time);
	pt->noisy = reps > 1 && pt->time.cv > r->co->noisy_cv;
	return true;
}

bool bench_enqueue_once(struct bench_run *r, time_enqueue_fn fn, void *arg, char *err, size_t len)
{
	double d, w;

	cl_clear_last();
	return time_run(r->pc.q, fn, arg, 0, 1, &d, &w, err, len);
}

bool bench_launch_once(struct bench_run *r, cl_kernel k, size_t global, size_t local,
		       const struct kernel_res *res, const char *wg_opt, char *err, size_t len)
{
	struct time_launch l = { k, global, local };
	char lim[256];

	if (bench_enqueue_once(r, time_enqueue_launch, &l, err, len))
		return true;
	if (local && res && cl_last_code() == CL_INVALID_WORK_GROUP_SIZE)
		cli_usage_error("--%s %zu: '%s' refused the launch (CL_INVALID_WORK_GROUP_SIZE); %s",
				wg_opt, local, r->dev->name, prog_wg_limits(res, lim, sizeof(lim)));
	return false;
}

const char *bench_wg_note(unsigned wg, const struct kernel_res *res, char *buf, size_t len)
{
	if (!res->wg_max || wg <= res->wg_max)
		return NULL;
	snprintf(buf, len, "work-group %u exceeds the kernel's CL_KERNEL_WORK_GROUP_SIZE %zu, yet "
		 "the driver launched it", wg, res->wg_max);
	return buf;
}

/* The copy ceiling of pt->ceil_bytes, measured once for consecutive points of the same bytes. */
static void measure_ceiling(struct bench_run *r, struct bench_point *pt)
{
	unsigned reps = r->co->reps;
	struct time_copy c = { pt->ceil_src, pt->ceil_dst, pt->ceil_bytes };
	struct stats st;
	char err[1024];

	if (r->ceil_bytes != pt->ceil_bytes) {
		double *t = bench_alloc(2 * (size_t)reps * sizeof(double));
		if (!time_run(r->pc.q, time_enqueue_copy, &c, r->co->warmup, reps, t, t + reps, err,
			      sizeof(err)))
			cli_die(EXIT_FAIL, "driver: the copy ceiling of %zu bytes: %s", pt->ceil_bytes, err);
		stats_compute(t, reps, &st);
		json_decref(r->ceil_stats);
		r->ceil_stats = res_stats_json(&st, t, reps);
		r->ceil_ns = st.median;
		r->ceil_bytes = pt->ceil_bytes;
		free(t);
	}
	pt->ceil_ns = r->ceil_ns;
	pt->ceil_stats = json_incref(r->ceil_stats);
}

static void run_point(struct bench_run *r, struct bench_point *pt)
{
	pt->params = bench_alloc(r->ops->params_size ? r->ops->params_size : 1);
	memset(pt->params, 0, r->ops->params_size ? r->ops->params_size : 1);
	r->ops->point(r, pt);
	if (pt->status == POINT_OK && pt->enqueue && !pt->n)
		bench_point_measure(r, pt, pt->enqueue, pt->enqueue_arg);
	if (pt->status == POINT_OK && pt->n && pt->ceil_bytes)
		measure_ceiling(r, pt);
	if (!pt->model_json && pt->model_groups) {
		struct occ_kernel k;
		occ_kernel_from_res(&k, &pt->res, pt->model_wg, pt->model_simd, pt->model_barrier);
		pt->model_json = occ_live_point(&r->model, &k, pt->model_groups, &pt->model);
	}
	if (pt->status == POINT_OK) {
		r->n_ok++;
	} else if (pt->status == POINT_SKIPPED) {
		r->n_skipped++;
	} else {
		json_t *pa = r->ops->params_json(r, pt);
		char *s = json_dumps(pa, JSON_COMPACT);
		r->n_failed++;
		fprintf(stderr, "bench %s: point %s failed: %s\n", cli_cmd, s ? s : "?",
			pt->reason[0] ? pt->reason : "(no reason recorded)");
		free(s);
		json_decref(pa);
	}
}

/* ---- views ---- */

static const char *const status_names[] = { "ok", "failed", "skipped" };

double bench_point_gbps(const struct bench_point *pt)
{
	return pt->n && pt->bytes > 0 ? pt->bytes / pt->time.median : 0;
}

double bench_point_copy_gbps(const struct bench_point *pt)
{
	return pt->ceil_ns > 0 ? 2.0 * (double)pt->ceil_bytes / pt->ceil_ns : 0;
}

static json_t *metrics_json(const struct bench_point *pt)
{
	json_t *m = json_object();

	if (pt->n && pt->bytes > 0) {
		json_object_set_new(m, "bytes", json_real(pt->bytes));
		json_object_set_new(m, "gbps", json_real(bench_point_gbps(pt)));
		if (pt->ceil_ns > 0) {
			json_object_set_new(m, "copy_gbps", json_real(bench_point_copy_gbps(pt)));
			json_object_set_new(m, "fraction_of_copy",
					    json_real(bench_point_gbps(pt) / bench_point_copy_gbps(pt)));
		}
	}
	if (pt->n && pt->ops > 0)
		json_object_set_new(m, "gops", json_real(pt->ops / pt->time.median));
	if (pt->metrics)
		json_object_update(m, pt->metrics);
	if (!json_object_size(m)) {
		json_decref(m);
		return NULL;
	}
	return m;
}

static json_t *point_json(const struct bench_run *r, const struct bench_point *pt)
{
	json_t *p = json_object(), *m;
	struct stats st;

	json_object_set_new(p, "params", r->ops->params_json(r, pt));
	json_object_set_new(p, "status", json_string(status_names[pt->status]));
	json_object_set_new(p, "reason", pt->reason[0] ? json_string(pt->reason) : json_null());
	json_object_set_new(p, "validated", json_boolean(pt->validated));
	if (pt->n) {
		json_object_set_new(p, "noisy", json_boolean(pt->noisy));
		json_object_set_new(p, "time_ns", res_stats_json(&pt->time, pt->dev_ns, pt->n));
		stats_compute(pt->wall_ns, pt->n, &st);
		json_object_set_new(p, "wall_ns", res_stats_json(&st, pt->wall_ns, pt->n));
	}
	if (pt->ceil_stats)
		json_object_set(p, "copy_time_ns", pt->ceil_stats);
	if ((m = metrics_json(pt)))
		json_object_set_new(p, "metrics", m);
	if (pt->model_json)
		json_object_set(p, "model", pt->model_json);
	if (pt->extra)
		json_object_update(p, pt->extra);
	return p;
}

/* Numbers the distinct notes of ok points 1, 2, ... in order of first appearance. */
static size_t number_notes(struct bench_run *r, size_t n)
{
	size_t k = 0;

	for (size_t p = 0; p < n; p++) {
		struct bench_point *q = &r->points[p];
		q->note_id = 0;
		if (q->status != POINT_OK || !q->reason[0])
			continue;
		for (size_t j = 0; j < p && !q->note_id; j++)
			if (r->points[j].note_id && strcmp(r->points[j].reason, q->reason) == 0)
				q->note_id = r->points[j].note_id;
		if (!q->note_id)
			q->note_id = ++k;
	}
	return k;
}

/* The table of the first n points, then their notes. */
static void print_table(struct bench_run *r, size_t n)
{
	const struct bench_col *c = r->ops->cols;
	const char *head[TABLE_MAX_COLS] = { 0 }, *cells[TABLE_MAX_COLS] = { 0 };
	char buf[TABLE_MAX_COLS][96];
	struct table t;
	size_t nc = 0, notes = number_notes(r, n);

	while (c[nc].head)
		nc++;
	for (size_t i = 0; i < nc; i++) {
		head[i] = c[i].head;
		cells[i] = buf[i];
	}
	table_init(&t, nc, head);
	for (size_t p = 0; p < n; p++) {
		for (size_t i = 0; i < nc; i++)
			c[i].cell(r, &r->points[p], buf[i], sizeof(buf[i]));
		table_add(&t, cells);
	}
	if (r->ops->title)
		r->ops->title(r, stdout);
	table_print(&t, stdout);
	table_free(&t);
	for (size_t k = 1; k <= notes; k++)
		for (size_t p = 0; p < n; p++)
			if (r->points[p].note_id == k) {
				printf("%s  (note %zu) %s\n", k == 1 ? "notes:\n" : "", k, r->points[p].reason);
				break;
			}
	fflush(stdout);
}

/* ---- interrupts and hung kernels: a watchdog thread ---- */

/*
 * SIGINT and SIGTERM are blocked in every thread (the drivers' too, which inherit the
 * mask) and taken by the watchdog with sigtimedwait, so no handler runs inside a
 * driver. A first signal lets the point in flight finish (for at most GRACE_S), then
 * the run writes what it measured, marked interrupted; a second signal, or a point
 * past --timeout (an OpenCL kernel cannot be cancelled), ends the process from the
 * watchdog after writing the points completed so far.
 */
#define GRACE_S 5

static struct {
	pthread_t th;
	bool running;
	struct bench_run *r;
	atomic_int sig;              /* first signal taken, 0: none */
	atomic_size_t done;          /* points completed */
	atomic_llong started_ns;     /* start of the point in flight, 0: none */
	atomic_bool finishing;       /* the outputs are being written (by whoever set it) */
	atomic_bool stop;
} watch;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static int signal_exit_code(int sig)
{
	return 128 + sig;
}

static const char *sig_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : "SIGTERM";
}


/* Marks the document interrupted: by what, and how far the run came. */
static void mark_interrupted(struct bench_run *r, const char *by, size_t done)
{
	json_t *o = json_object();

	json_object_set_new(o, "by", json_string(by));
	json_object_set_new(o, "points_done", json_integer((json_int_t)done));
	json_object_set_new(o, "points_planned", json_integer((json_int_t)r->n_points));
	json_object_set_new(r->doc, "interrupted", o);
}

static int outputs_write(const struct common_opts *o, const json_t *doc);

/* From the watchdog: writes the points completed (and a timed-out one), then ends the process. */
static noreturn void abandon(struct bench_run *r, const char *by, int code, bool timed_out)
{
	size_t done = atomic_load(&watch.done);

	if (r->doc && r->points) {
		size_t n = done;
		if (timed_out && done < r->n_points) {
			struct bench_point *pt = &r->points[done];
			pt->status = POINT_FAILED;
			pt->n = 0;
			snprintf(pt->reason, sizeof(pt->reason), "timed out after %u s", r->co->timeout_s);
			n++;
		}
		for (size_t i = 0; i < n; i++)
			res_doc_add_point(r->doc, point_json(r, &r->points[i]));
		mark_interrupted(r, by, done);
		if (!r->co->quiet && r->ops->cols)
			print_table(r, n);
		outputs_write(r->co, r->doc);
	} else {
		drop_reserved_outputs();
	}
	fflush(stdout);
	if (timed_out)
		fprintf(stderr, "bench %s: a point ran longer than --timeout %u s (a hung kernel cannot be "
			"cancelled): the results of the %zu points completed are written\n", cli_cmd,
			r->co->timeout_s, done);
	else
		fprintf(stderr, "bench %s: interrupted by %s: the results of the %zu points completed "
			"are written\n", cli_cmd, by, done);
	fflush(stderr);
	_exit(code);
}

static void *watch_main(void *arg)
{
	struct bench_run *r = arg;
	sigset_t set;
	long long sig_at = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	while (!atomic_load(&watch.stop)) {
		struct timespec ts = { 0, 100000000 };
		int s = sigtimedwait(&set, NULL, &ts);
		long long start = atomic_load(&watch.started_ns), t = now_ns();
		if (s > 0) {
			int first = 0;
			if (!atomic_compare_exchange_strong(&watch.sig, &first, s)) {
				/* a second signal: stop now */
				if (atomic_exchange(&watch.finishing, true))
					_exit(signal_exit_code(first));   /* the main thread is writing */
				abandon(r, sig_name(first), signal_exit_code(first), false);
			}
			sig_at = t;
			fprintf(stderr, "\nbench %s: %s: finishing the point in flight (again to stop now)\n",
				cli_cmd, sig_name(s));
		}
		bool grace = sig_at && t - sig_at > GRACE_S * 1000000000ll;
		bool late = r->co->timeout_s && start && t - start > (long long)r->co->timeout_s * 1000000000ll;
		if ((grace || late) && !atomic_exchange(&watch.finishing, true)) {
			int sig = atomic_load(&watch.sig);
			abandon(r, late ? "timeout" : sig_name(sig),
				late ? EXIT_FAIL : signal_exit_code(sig), late);
		}
	}
	return NULL;
}

static void watch_start(struct bench_run *r)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	watch.r = r;
	watch.running = pthread_create(&watch.th, NULL, watch_main, r) == 0;
}

static void watch_stop(void)
{
	atomic_store(&watch.stop, true);
	if (watch.running)
		pthread_join(watch.th, NULL);
	watch.running = false;
}

/* Whether the main thread may write the outputs (false: the watchdog is, and will exit). */
static bool watch_claim_finish(void)
{
	if (!atomic_exchange(&watch.finishing, true))
		return true;
	for (;;)
		pause();
}

/* ---- the run ---- */

/* The point loop; returns the number of points completed (fewer when a signal came). */
static size_t loop_points(struct bench_run *r)
{
	for (size_t i = 0; i < r->n_points; i++) {
		if (atomic_load(&watch.sig))
			return i;
		r->points[i].index = i;
		progress(r, i);
		atomic_store(&watch.started_ns, now_ns());
		run_point(r, &r->points[i]);
		atomic_store(&watch.started_ns, 0);
		atomic_store(&watch.done, i + 1);
	}
	progress(r, r->n_points);
	return r->n_points;
}

static int run_points(struct bench_run *r)
{
	int rc, rrc = EXIT_OK, sig;
	size_t done;

	watch_start(r);
	session_open(r);
	r->n_points = r->ops->plan(r);
	r->points = bench_alloc((r->n_points ? r->n_points : 1) * sizeof(*r->points));
	memset(r->points, 0, (r->n_points ? r->n_points : 1) * sizeof(*r->points));
	done = loop_points(r);
	watch_claim_finish();
	sig = atomic_load(&watch.sig);
	if (done == r->n_points && r->ops->relate)
		r->ops->relate(r);
	for (size_t i = 0; i < done; i++)
		res_doc_add_point(r->doc, point_json(r, &r->points[i]));
	if (done < r->n_points)
		mark_interrupted(r, sig_name(sig), done);
	if (!r->co->quiet && r->ops->cols)
		print_table(r, done);
	if (r->ops->report && done == r->n_points)
		rrc = r->ops->report(r);
	rc = outputs_write(r->co, r->doc);
	if (r->n_failed) {
		fprintf(stderr, "bench %s: %u of %zu points failed (see their status and reason)\n",
			cli_cmd, r->n_failed, r->n_points);
		rc = EXIT_FAIL;
	}
	if (done < r->n_points) {
		fprintf(stderr, "bench %s: interrupted by %s: the results of the %zu points completed "
			"are written\n", cli_cmd, sig_name(sig), done);
		rc = signal_exit_code(sig);
	}
	watch_stop();
	if (r->ops->teardown)
		r->ops->teardown(r);
	session_close(r);
	return rc != EXIT_OK ? rc : rrc;
}

int bench_run_main(const struct bench_ops *ops, int argc, char **argv)
{
	struct common_opts co = { .device = getenv("BENCH_DEVICE"), .reps = 10, .warmup = 2,
				  .timeout_s = 600, .noisy_cv = 10 };
	bool given[CLI_MAX_OPTS] = { 0 }, co_given[CLI_MAX_OPTS] = { 0 };
	struct cli_set sets[3];
	size_t n = 0;
	struct bench_run r = { .ops = ops, .co = &co };
	int rc;

	if (ops->legacy_main) {
		if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
			ops->legacy_usage(stdout);
			return EXIT_OK;
		}
		return ops->legacy_main(argc, argv);
	}
	r.opts = bench_alloc(ops->opts_size ? ops->opts_size : 1);
	memset(r.opts, 0, ops->opts_size ? ops->opts_size : 1);
	if (ops->defaults)
		ops->defaults(r.opts);
	if (ops->opts)
		sets[n++] = (struct cli_set){ ops->opts, r.opts, given };
	if (ops->flags & BENCH_SG)
		sets[n++] = (struct cli_set){ sg_cli, &co, NULL };
	if (ops->flags & BENCH_DEVICE)
		sets[n++] = (struct cli_set){ common_cli, &co, co_given };
	usage_ops = ops;
	struct cli_operands *operands = ops->flags & BENCH_OPERANDS
		? (struct cli_operands *)((char *)r.opts + ops->operands_off) : NULL;
	cli_parse_operands(argc, argv, sets, n, usage_cb, operands);
	if (ops->check)
		ops->check(r.opts, &sets[0]);
	rc = ops->main ? ops->main(r.opts) : run_points(&r);
	if (operands)
		free(operands->v);
	free(r.opts);
	return rc;
}

/* ---- helpers for benchmarks ---- */

void *bench_alloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);

	if (!p)
		cli_die(EXIT_FAIL, "out of host memory for %zu bytes", bytes);
	return p;
}

/* The first number in a file (a /proc or cgroup value); false where there is none. */
static bool read_number(const char *path, const char *fmt, unsigned long long *v)
{
	FILE *f = fopen(path, "r");
	char line[256];
	bool ok = false;

	if (!f)
		return false;
	while (!ok && fgets(line, sizeof(line), f))
		ok = sscanf(line, fmt, v) == 1;
	fclose(f);
	return ok;
}

/*
 * Host memory available, bytes (0: unknown): BENCH_HOST_MEMORY where set, otherwise
 * MemAvailable, capped by the cgroup's memory.max (a container sees the host's meminfo).
 */
static uint64_t host_available(void)
{
	const char *env = getenv("BENCH_HOST_MEMORY");
	unsigned long long kib = 0, max, cur;
	uint64_t avail;

	char err[512];
	uint64_t v;

	if (env) {
		if (!parse_size(env, 1, UINT64_MAX, &v, err, sizeof(err)))
			cli_usage_error("BENCH_HOST_MEMORY (environment) %s", err);
		return v;
	}
	if (!read_number("/proc/meminfo", "MemAvailable: %llu kB", &kib))
		return 0;
	avail = (uint64_t)kib * 1024;
	if (read_number("/sys/fs/cgroup/memory.max", "%llu", &max) &&
	    read_number("/sys/fs/cgroup/memory.current", "%llu", &cur) && max > cur && max - cur < avail)
		avail = max - cur;
	return avail;
}

void bench_host_fits(const struct bench_run *r, uint64_t host_bytes, uint64_t device_bytes,
		     const char *what)
{
	uint64_t avail = host_available();
	bool shared = r->dev->type & CL_DEVICE_TYPE_CPU;
	uint64_t need = host_bytes + (shared ? device_bytes : 0);

	if (avail && need > avail)
		cli_usage_error("the run needs %llu bytes of host memory (%s: %llu; the CPU device's "
				"buffers, in host memory too: %llu), but the host has %llu bytes available "
				"(BENCH_HOST_MEMORY overrides)", (unsigned long long)need, what,
				(unsigned long long)host_bytes, (unsigned long long)(shared ? device_bytes : 0),
				(unsigned long long)avail);
}

cl_kernel bench_build(struct bench_run *r, const char *file, const char *kname, const char *options,
		      cl_program *prog, char **log)
{
	char err[16384];
	cl_kernel k = NULL;

	*prog = prog_build(&r->pc, file, options, log, err, sizeof(err));
	if (!*prog || !(k = prog_kernel(*prog, kname, err, sizeof(err))))
		cli_die(EXIT_FAIL, "%s", err);
	return k;
}

cl_mem bench_buffer(struct bench_run *r, cl_mem_flags flags, size_t bytes)
{
	char err[512];
	cl_mem m = prog_buffer(&r->pc, flags, bytes, err, sizeof(err));

	if (!m)
		cli_die(EXIT_FAIL, "driver: %s", err);
	return m;
}

/* ---- standard cells ---- */

static const char *model_str(const struct bench_point *pt, const char *key)
{
	const json_t *v = json_object_get(pt->model_json, key);

	return json_is_string(v) ? json_string_value(v) : "-";
}

void bench_cell_occupancy(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, "%s", model_str(pt, "occupancy"));
}

void bench_cell_limiter(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, "%s", model_str(pt, "limiter"));
}

void bench_cell_median_us(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, pt->n ? "%.2f" : "-", pt->time.median / 1e3);
}

void bench_cell_cv(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, pt->n ? "%.1f" : "-", pt->time.cv);
}

void bench_cell_gbps(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, pt->n && pt->bytes > 0 ? "%.2f" : "-", bench_point_gbps(pt));
}

void bench_cell_copy_gbps(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, pt->ceil_ns > 0 ? "%.2f" : "-", bench_point_copy_gbps(pt));
}

void bench_cell_of_copy(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, pt->ceil_ns > 0 && pt->n ? "%.3f" : "-",
		 pt->ceil_ns > 0 ? bench_point_gbps(pt) / bench_point_copy_gbps(pt) : 0);
}

void bench_cell_status(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	char note[32] = "";

	(void)r;
	if (pt->status == POINT_OK && pt->note_id)
		snprintf(note, sizeof(note), " (note %zu)", pt->note_id);
	snprintf(b, n, "%s%s%s", status_names[pt->status], note, pt->noisy ? ", noisy" : "");
}

json_t *bench_json_uint0(uint64_t v)
{
	return v ? json_integer((json_int_t)v) : json_null();
}

json_t *bench_json_str0(const char *s)
{
	return s ? json_string(s) : json_null();
}
