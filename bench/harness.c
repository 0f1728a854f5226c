/* The harness: one session and one point loop for every benchmark row. */
#include "harness_int.h"
#include "chase.h"
#include "sgb.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- options ---- */

/* A real number in (0, max], strictly: no trailing characters. */
static double parse_positive(const char *opt, const char *arg, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !isfinite(v) || !(v > 0) || v > max)
		cli_usage_error("--%s '%s' is not a number in (0, %g]", opt, arg, max);
	return v;
}

static void parse_min_time(void *base, const char *arg)
{
	((struct common_opts *)base)->min_time_s = parse_positive("min-time", arg, 86400);
}

static void parse_ci_width(void *base, const char *arg)
{
	((struct common_opts *)base)->ci_width_pct = parse_positive("ci-width", arg, 100);
}

static void parse_sub_devices(void *base, const char *arg)
{
	struct common_opts *co = base;
	char err[512];

	if (!dev_part_parse(arg, &co->part, err, sizeof(err)))
		cli_usage_error("--sub-devices %s", err);
	co->sub_devices = arg;
}

static void parse_sg_backend(void *base, const char *arg)
{
	enum sgb_backend b;
	char list[128];

	if (!sgb_parse(arg, &b))
		cli_usage_error("--sg-backend '%s' is not one of: %s", arg, sgb_names_str(list, sizeof(list)));
	((struct common_opts *)base)->sg_backend = arg;
}

static const char *const cache_names[] = { [BENCH_CACHE_WARM] = "warm", [BENCH_CACHE_COLD] = "cold" };

static void parse_cache(void *base, const char *arg)
{
	((struct common_opts *)base)->cache = BENCH_CACHE_WARM +
		cli_choice("cache", arg, cache_names + BENCH_CACHE_WARM, 2);
}

#define CO(f) offsetof(struct common_opts, f)
static const struct cli_opt common_cli[] = {
	{ "device", "SPEC", CLI_STR, CO(device),
	  .help = "index, platform:device, or name substring (env BENCH_DEVICE); all,\n"
		  "gpu, cpu or a comma-separated list: each of those devices in turn,\n"
		  "one document holding every device's points" },
	{ "sub-devices", "numa|equally:N|counts:A,B", CLI_FN, 0, .fn = parse_sub_devices,
	  .help = "partition each device (clCreateSubDevices) and run on every\n"
		  "sub-device: numa (affinity domain: the stacks of an Intel GPU in\n"
		  "COMPOSITE mode), equally:N or counts:A,B,... compute units" },
	{ "concurrent", NULL, CLI_FLAG, CO(concurrent),
	  .help = "run on each device alone, then on all at once (a host thread\n"
		  "each): per-device figures, the aggregate, and the sum alone" },
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
	{ "validate-only", NULL, CLI_FLAG, CO(validate_only),
	  .help = "one validated launch per point: no timing, ceiling or model (the\n"
		  "correctness side alone, as bench validate runs it)" },
	{ "min-time", "SECONDS", CLI_FN, 0, .fn = parse_min_time,
	  .help = "after --reps, keep launching until a point's timed launches have\n"
		  "taken SECONDS (at most --max-reps)" },
	{ "ci-width", "PCT", CLI_FN, 0, .fn = parse_ci_width,
	  .help = "after --reps, keep launching until the 95 % interval of the median\n"
		  "(order statistics) lies within +-PCT % of it (at most --max-reps)" },
	{ "max-reps", "N", CLI_UINT, CO(max_reps), 1, 1000000,
	  .help = "the most timed launches of a point with --min-time or --ci-width\n"
		  "(default 1000)" },
	{ "require-device", "gpu|cpu|NAME", CLI_STR, CO(require),
	  .help = "measure only on such a device (a name: in the device or platform\n"
		  "name); none found: exit 77 instead of measuring another" },
	{ "cache", "warm|cold", CLI_FN, 0, .fn = parse_cache,
	  .help = "the cache each timed launch starts from: as the launch before left\n"
		  "it, or cold: evicted first by reading max(2 x --llc, 64 MiB) (default:\n"
		  "cold on a GPU for vecadd, sg-copy and transpose, else warm)" },
	{ "llc", "SIZE", CLI_SIZE, CO(llc), 1024, 1ull << 40,
	  .help = "the last-level cache's size, for --cache cold and latency's labels\n"
		  "(default: the device's figure)" },
	{ 0 } };
static const struct cli_opt sg_cli[] = {
	{ "sg-backend", "B", CLI_FN, 0, .fn = parse_sg_backend,
	  .help = "sub-group backend: intel, khr, nv or emulated (default: the first the\n"
		  "device runs; vecadd and occupancy: the driver's own sub-groups, or none)" },
	{ "grf", "MODE", CLI_CHOICE, CO(grf), .names = sgb_grf_names, .n_names = 2,
	  .help = "Intel GPUs' register file: small (128 registers a thread, default) or\n"
		  "large (" SGB_GRF_LARGE_OPTION ": 256, half the threads per XVE;\n"
		  "Xe-HPG and Xe-HPC)" },
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

/* ---- the run's state ---- */

static void run_free(struct bench_run *r)
{
	for (size_t i = 0; i < r->n_points; i++) {
		struct bench_point *pt = &r->points[i];
		free(pt->params);
		free(pt->dev_ns);
		json_decref(pt->ceil_stats);
		json_decref(pt->ceil_kernel_stats);
		json_decref(pt->model_json);
		json_decref(pt->metrics);
		json_decref(pt->extra);
		json_decref(pt->build);
	}
	free(r->points);
	r->points = NULL;
	r->n_points = 0;
	bench_ceiling_free(r);
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

void bench_progress_step(const struct bench_run *r, size_t i, const char *fmt, ...)
{
	char label[128];
	va_list ap;

	if (!isatty(STDERR_FILENO))
		return;
	if (i >= r->n_points) {   /* during plan */
		fprintf(stderr, "\r\033[K%s: ", r->ops->name);
	} else {
		if (r->ops->label)
			r->ops->label(r, i, label, sizeof(label));
		else
			snprintf(label, sizeof(label), "point %zu", i + 1);
		fprintf(stderr, "\r\033[K[%zu/%zu] %s %s: ", i + 1, r->n_points, r->ops->name, label);
	}
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
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

/* Host monotonic time, ns. */
static double mono_ns(void)
{
	return time_now_ns();
}

/* Adds the time since *t0 to phase ph and restarts the clock. */
static void phase(struct bench_run *r, enum bench_phase ph, double *t0)
{
	double t = mono_ns();

	r->phase_ns[ph] += t - *t0;
	*t0 = t;
}

static void run_point(struct bench_run *r, struct bench_point *pt)
{
	double t0 = mono_ns();

	pt->params = bench_alloc(r->ops->params_size ? r->ops->params_size : 1);
	memset(pt->params, 0, r->ops->params_size ? r->ops->params_size : 1);
	r->ops->point(r, pt);
	phase(r, PHASE_POINTS, &t0);
	if (r->co->validate_only) {
		/* the correctness side alone: the model only where the point measured on its own */
		pt->ceil_bytes = 0;
		if (!pt->n)
			pt->model_groups = 0;
	} else if (pt->status == POINT_OK && pt->enqueue && !pt->n)
		bench_point_measure(r, pt, pt->enqueue, pt->enqueue_arg);
	phase(r, PHASE_TIMED, &t0);
	if (pt->ceil_bytes) {   /* also for a failed or skipped point: its size's ceiling */
		bench_ceiling_measure(r, pt);
		phase(r, PHASE_CEILING, &t0);
	}
	if (pt->status == POINT_OK && pt->n && pt->ceil_bytes) {
		if (bench_point_gbps(pt) > bench_point_ceiling_gbps(pt))
			bench_note(pt, "%.3f of the ceiling: faster than both copies of the same bytes in this "
				   "run (clEnqueueCopyBuffer %.2f GB/s, stream_copy kernel %.2f GB/s)",
				   bench_point_gbps(pt) / bench_point_ceiling_gbps(pt),
				   bench_point_copy_gbps(pt),
				   pt->ceil_kernel_ns > 0 ? 2.0 * (double)pt->ceil_bytes / pt->ceil_kernel_ns : 0);
	}
	if (pt->status == POINT_OK && pt->res.spill_mem)
		bench_note(pt, "the kernel spills: %llu bytes of scratch a hardware thread "
			   "(CL_KERNEL_SPILL_MEM_SIZE_INTEL)%s", (unsigned long long)pt->res.spill_mem,
			   pt->res.grf_large || !(r->ops->flags & BENCH_SG) ? ""
				: "; --grf large gives it 256 registers on Xe-HPG and Xe-HPC");
	if (!pt->model_json && pt->model_groups) {
		struct occ_kernel k;
		occ_kernel_from_res(&k, &pt->res, pt->model_wg, pt->model_simd, pt->model_barrier);
		pt->model_json = occ_live_point(&r->model, &k, pt->model_groups, &pt->model);
	}
	phase(r, PHASE_VIEWS, &t0);
	if (pt->status == POINT_OK) {
		r->n_ok++;
	} else if (pt->status == POINT_SKIPPED) {
		r->n_skipped++;
	} else {
		json_t *pa = harness_params_json(r, pt);
		char *s = json_dumps(pa, JSON_COMPACT);
		r->n_failed++;
		fprintf(stderr, "bench %s: point %s failed: %s\n", cli_cmd, s ? s : "?",
			pt->reason[0] ? pt->reason : "(no reason recorded)");
		free(s);
		json_decref(pa);
	}
}

/* ---- the run ---- */

/* Where the run's time went, seconds, up to the writing of the outputs. */
static json_t *phases_json(const struct bench_run *r)
{
	static const char *const names[] = { "session", "plan", "points", "timed", "ceiling", "views" };
	json_t *o = json_object();

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		json_object_set_new(o, names[i], json_real(r->phase_ns[i] / 1e9));
	return o;
}

static bench_run_hook run_hook;
static void *run_hook_arg;

void bench_set_run_hook(bench_run_hook fn, void *arg)
{
	run_hook = fn;
	run_hook_arg = arg;
}

/*
 * The point loop; returns the number of points completed (fewer when a signal came). Runs
 * measured at once start each point, and its timed launches, together (bench/multi.c's
 * rendezvous), and print no progress line (several threads would draw over each other).
 */
size_t bench_run_loop(struct bench_run *r)
{
	size_t i;

	for (i = 0; i < r->n_points; i++) {
		if (r->sync)
			multi_sync_point(r->sync);
		if (watch_signal())
			break;
		r->points[i].index = i;
		if (!r->sync)
			progress(r, i);
		watch_point_start(r);
		run_point(r, &r->points[i]);
		watch_point_done(r, i + 1);
		if (r->sync)
			multi_sync_point_done(r->sync, r->sync_index);
	}
	if (r->sync)
		multi_sync_leave(r->sync, r->sync_index);
	else if (i == r->n_points)
		progress(r, r->n_points);
	return i;
}

/* The shared settings a run measured with, typed: the document's `settings`. */
static json_t *settings_json(const struct bench_run *r)
{
	const struct common_opts *co = r->co;
	bool adapt = co->min_time_s > 0 || co->ci_width_pct > 0;
	const char *llc_source = NULL;
	uint64_t llc = bench_llc(r, &llc_source);
	json_t *flush = json_null();

	if (r->cold)
		flush = json_pack("{s:I, s:I, s:s}", "bytes", (json_int_t)bench_flush_bytes(r), "llc_bytes",
				  (json_int_t)llc, "llc_source", llc_source);
	return json_pack("{s:I, s:I, s:o, s:o, s:o, s:I, s:I, s:o, s:o, s:o, s:o}", "reps", (json_int_t)co->reps,
			 "warmup", (json_int_t)co->warmup,
			 "min_time_s", co->min_time_s > 0 ? json_real(co->min_time_s) : json_null(),
			 "ci_width_pct", co->ci_width_pct > 0 ? json_real(co->ci_width_pct) : json_null(),
			 "max_reps", adapt ? json_integer(co->max_reps ? co->max_reps : BENCH_MAX_REPS_DEFAULT)
					   : json_null(),
			 "timeout_s", (json_int_t)co->timeout_s, "noisy_cv", (json_int_t)co->noisy_cv,
			 "sg_backend", bench_json_str0(co->sg_backend), "cache",
			 co->validate_only ? json_null()   /* nothing timed */
					   : json_string(cache_names[r->cold ? BENCH_CACHE_COLD
									    : BENCH_CACHE_WARM]),
			 "cache_flush", flush, "clock_probe",
			 co->validate_only ? json_null()
					   : json_pack("{s:i, s:i}", "rounds", HARNESS_PROBE_ROUNDS, "launches",
						       HARNESS_PROBE_LAUNCHES));
}

/* The document of a run, before its points: the session's device, model and settings. */
static json_t *run_doc(const struct bench_run *r)
{
	json_t *doc = res_doc_new(cli_argc, cli_argv, r->dev, r->ops->name);

	json_object_set_new(doc, "model_device", r->model.known ? occ_params_json(&r->model.dev)
								 : json_string(r->model.note));
	json_object_set_new(doc, "settings", settings_json(r));
	return doc;
}

/* After the point loop: relations, the points' JSON, the table, the report; an exit code. */
static int run_views(struct bench_run *r, size_t done, int sig)
{
	int rc = EXIT_OK;

	if (done == r->n_points && r->ops->relate)
		r->ops->relate(r);
	for (size_t i = 0; i < done; i++)
		res_doc_add_point(r->doc, harness_point_json(r, &r->points[i]));
	if (done < r->n_points)
		harness_mark_interrupted(r, watch_sig_name(sig), done);
	if (!r->co->quiet && r->cols)
		harness_print_table(r, done);
	if (r->ops->report && done == r->n_points)
		rc = r->ops->report(r);
	if (run_hook)
		run_hook(r, rc, run_hook_arg);
	return rc;
}

struct bench_run *bench_run_begin(struct bench_session *s, struct bench_job *j)
{
	struct bench_run *r = bench_alloc(sizeof(*r));
	size_t n;
	double t0 = mono_ns();

	*r = (struct bench_run){ .ops = j->ops, .opts = j->opts, .co = &j->shared->co, .sess = s,
				 .dev = s->dev, .pc = s->pc, .model = s->model, .peers = s->peers,
				 .label = s->label };
	/* --validate-only times nothing: no cache state to set */
	r->cold = !r->co->validate_only &&
		  (r->co->cache == BENCH_CACHE_COLD ||
		   (r->co->cache == BENCH_CACHE_ROW && (r->ops->flags & BENCH_COLD) &&
		    (r->dev->type & CL_DEVICE_TYPE_GPU)));
	r->phase_ns[PHASE_SESSION] = s->open_ns;   /* the first run's; 0 for later ones */
	s->open_ns = 0;
	r->doc = run_doc(r);
	watch_run_add(r);
	r->cols = r->ops->cols;
	n = r->ops->plan(r);
	phase(r, PHASE_PLAN, &t0);
	r->points = bench_alloc((n ? n : 1) * sizeof(*r->points));
	memset(r->points, 0, (n ? n : 1) * sizeof(*r->points));
	r->n_points = n;
	return r;
}

int bench_run_end(struct bench_run *r, size_t done, json_t **doc)
{
	int rc = EXIT_OK, rrc, sig;
	double t0 = mono_ns();

	watch_claim_finish();
	sig = watch_signal();
	rrc = run_views(r, done, sig);
	phase(r, PHASE_VIEWS, &t0);
	json_object_set_new(r->doc, "phases_s", phases_json(r));
	json_object_set_new(r->doc, "time_origin", harness_origin_json(r->sess));
	if (r->n_failed) {
		fprintf(stderr, "bench %s: %u of %zu points failed%s%s (see their status and reason)\n",
			cli_cmd, r->n_failed, r->n_points, r->label ? " on " : "", r->label ? r->label : "");
		rc = EXIT_FAIL;
	}
	if (done < r->n_points) {
		fprintf(stderr, "bench %s: interrupted by %s: the results of the %zu points completed%s%s "
			"are written\n", cli_cmd, watch_sig_name(sig), done, r->label ? " on " : "",
			r->label ? r->label : "");
		rc = watch_exit_code(sig);
	}
	if (r->ops->teardown)
		r->ops->teardown(r);
	run_free(r);
	watch_run_remove(r);
	*doc = r->doc;
	free(r);
	return rc != EXIT_OK ? rc : rrc;
}

int bench_run_job(struct bench_session *s, struct bench_job *j, json_t **doc)
{
	struct bench_run *r = bench_run_begin(s, j);

	return bench_run_end(r, bench_run_loop(r), doc);
}

/* A single benchmark's run: its outputs reserved, the session, the run, the outputs written. */
static int run_points(struct bench_job *j)
{
	struct bench_session s = { 0 };
	const struct common_opts *co = &j->shared->co;
	json_t *doc = NULL;
	int rc, wrc;
	double t0 = mono_ns();

	if (bench_multi_wanted(j))
		return bench_multi_run(j);
	bench_outputs_open(co);
	bench_session_open(&s, co);
	s.open_ns = mono_ns() - t0;
	rc = bench_run_job(&s, j, &doc);
	wrc = bench_outputs_write(co, doc);
	json_decref(doc);
	bench_session_close(&s);
	return rc != EXIT_OK ? rc : wrc;
}

/* ---- parsing a row's arguments ---- */

static void shared_defaults(struct common_opts *co)
{
	*co = (struct common_opts){ .device = getenv("BENCH_DEVICE"), .reps = 10, .warmup = 2,
				    .timeout_s = 600, .noisy_cv = 10 };
}

/* Checks across the shared options (exit 2). */
static void shared_check(const struct common_opts *co)
{
	if (co->max_reps && co->max_reps < co->reps)
		cli_usage_error("--max-reps %u is below --reps %u: --reps launches come first, then "
				"more up to --max-reps", co->max_reps, co->reps);
	if (co->require && !co->require[0])
		cli_usage_error("--require-device '': give gpu, cpu or a device or platform name");
	if (co->concurrent && !co->sub_devices && !dev_spec_is_set(co->device))
		cli_usage_error("--concurrent runs several devices at once: give --device all, gpu, cpu "
				"or a comma-separated list, or --sub-devices (--device is %s%s%s)",
				co->device ? "'" : "", co->device ? co->device : "not given",
				co->device ? "'" : "");
}

void bench_job_parse(struct bench_job *j, const struct bench_ops *ops, int argc, char **argv)
{
	struct cli_set sets[3];
	size_t n = 0;

	memset(j, 0, sizeof(*j));
	j->ops = ops;
	j->argc = argc;
	j->argv = argv;
	j->opts = bench_alloc(ops->opts_size ? ops->opts_size : 1);
	memset(j->opts, 0, ops->opts_size ? ops->opts_size : 1);
	j->shared = ops->main && (ops->flags & BENCH_DEVICE)
		? (struct bench_shared *)((char *)j->opts + ops->shared_off) : &j->own;
	shared_defaults(&j->shared->co);
	if (ops->defaults)
		ops->defaults(j->opts);
	if (ops->opts)
		sets[n++] = (struct cli_set){ ops->opts, j->opts, j->given };
	if (ops->flags & BENCH_SG)
		sets[n++] = (struct cli_set){ sg_cli, &j->shared->co, j->shared->sg_given };
	if (ops->flags & BENCH_DEVICE)
		sets[n++] = (struct cli_set){ common_cli, &j->shared->co, j->shared->given };
	usage_ops = ops;
	j->operands = ops->flags & BENCH_OPERANDS
		? (struct cli_operands *)((char *)j->opts + ops->operands_off) : NULL;
	cli_parse_operands(argc, argv, sets, n, usage_cb, j->operands);
	if ((ops->flags & BENCH_DEVICE) && j->shared->co.validate_only) {
		/* a point that times on its own launches once, unless told */
		struct common_opts *co = &j->shared->co;
		co->reps = bench_shared_given(j->shared, "reps") ? co->reps : 1;
		co->warmup = bench_shared_given(j->shared, "warmup") ? co->warmup : 0;
	}
	if (ops->flags & BENCH_DEVICE)
		shared_check(&j->shared->co);
	if ((ops->flags & BENCH_PEERS) && j->shared->co.cache == BENCH_CACHE_COLD)
		cli_usage_error("--cache cold: bench %s measures across the devices of one context, and "
				"the flush evicts the cache of one device: allowed is --cache warm", ops->name);
	if (ops->check)
		ops->check(j->opts, &sets[0]);
}

void bench_job_free(struct bench_job *j)
{
	if (j->operands)
		free(j->operands->v);
	free(j->opts);
	j->opts = NULL;
	j->operands = NULL;
}

bool bench_shared_given(const struct bench_shared *s, const char *name)
{
	struct cli_set co = { common_cli, NULL, (bool *)s->given }, sg = { sg_cli, NULL, (bool *)s->sg_given };

	return cli_given(&co, name) || cli_given(&sg, name);
}

/* The shared options a run reads, by name, and where each lives. */
#define SHARED_FIELD(name, f) { name, CO(f), sizeof(((struct common_opts *)0)->f) }
static const struct { const char *name; size_t off, size; } run_fields[] = {
	SHARED_FIELD("reps", reps), SHARED_FIELD("warmup", warmup), SHARED_FIELD("quiet", quiet),
	SHARED_FIELD("timeout", timeout_s), SHARED_FIELD("noisy-cv", noisy_cv),
	SHARED_FIELD("min-time", min_time_s), SHARED_FIELD("ci-width", ci_width_pct),
	SHARED_FIELD("max-reps", max_reps), SHARED_FIELD("sg-backend", sg_backend),
	SHARED_FIELD("cache", cache), SHARED_FIELD("llc", llc),
};

void bench_shared_override(struct bench_shared *to, const struct bench_shared *from, bool sg)
{
	for (size_t i = 0; i < sizeof(run_fields) / sizeof(run_fields[0]); i++) {
		if (!bench_shared_given(from, run_fields[i].name) ||
		    (!sg && strcmp(run_fields[i].name, "sg-backend") == 0))
			continue;
		memcpy((char *)&to->co + run_fields[i].off, (const char *)&from->co + run_fields[i].off,
		       run_fields[i].size);
	}
	shared_check(&to->co);
}

int bench_run_main(const struct bench_ops *ops, int argc, char **argv)
{
	struct bench_job j;
	int rc;

	bench_job_parse(&j, ops, argc, argv);
	rc = ops->main ? ops->main(j.opts) : run_points(&j);
	bench_job_free(&j);
	return rc;
}

/* ---- helpers for benchmarks ---- */

uint64_t bench_llc(const struct bench_run *r, const char **source)
{
	if (r->co->llc) {
		*source = "--llc";
		return r->co->llc;
	}
	return chase_llc(r->dev, source);
}

uint64_t bench_flush_bytes(const struct bench_run *r)
{
	const char *src;
	uint64_t llc = bench_llc(r, &src), b = 2 * llc > (64ull << 20) ? 2 * llc : 64ull << 20;

	b = (b + 4095) & ~4095ull;
	if (b > r->dev->max_alloc)
		cli_usage_error("--cache cold needs a buffer of %llu bytes (2 x the %llu-byte last-level "
				"cache, %s; at least 64 MiB), above CL_DEVICE_MAX_MEM_ALLOC_SIZE of '%s': "
				"at most %llu bytes (give a smaller --llc, or --cache warm)",
				(unsigned long long)b, (unsigned long long)llc, src, r->dev->name,
				(unsigned long long)r->dev->max_alloc);
	return b;
}

void *bench_alloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);

	if (!p)
		cli_die(EXIT_FAIL, "out of host memory for %zu bytes", bytes);
	return p;
}

void *bench_push(void *v, size_t *n, size_t *cap, size_t size, size_t first)
{
	char *arr;

	/* v points at the caller's typed pointer: read and written as bytes, never as a void * */
	memcpy(&arr, v, sizeof(arr));
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : first;
		if (!(arr = realloc(arr, c * size)))
			cli_die(EXIT_FAIL, "out of host memory for %zu bytes", c * size);
		memcpy(v, &arr, sizeof(arr));
		*cap = c;
	}
	memset(arr + *n * size, 0, size);
	return arr + (*n)++ * size;
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
	return bench_build_pc(&r->pc, file, kname, options, prog, log);
}

cl_kernel bench_build_pc(struct prog_ctx *pc, const char *file, const char *kname,
			 const char *options, cl_program *prog, char **log)
{
	char err[16384];
	cl_kernel k = NULL;

	*prog = prog_build(pc, file, options, log, err, sizeof(err));
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
