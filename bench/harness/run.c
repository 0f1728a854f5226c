/*
 * One run of one row: the document, plan, the point loop (each point's set-up, launch and
 * check, then the timed launches, the ceiling and the model), the views and teardown.
 */
#define HARNESS_LAYER HARNESS_LAYER_RUN
#include "run.h"

#include <math.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the run's state ---- */

static void run_free(struct bench_run *r)
{
	for (size_t i = 0; i < r->n_points; i++) {
		struct bench_point *pt = &r->points[i];
		free(pt->params);
		free(pt->dev_ns);
		json_decref(pt->ceil_stats);
		json_decref(pt->ceil_kernel_stats);
		json_decref(pt->ceil_by_stats);
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
		harness_point_label(r, i, label, sizeof(label));
		fprintf(stderr, "\r\033[K[%zu/%zu] %s %s", i + 1, r->n_points, r->row->cmd.name, label);
	}
	fflush(stderr);
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

/*
 * A fault (SIGSEGV, SIGBUS) during point i: its reason, and a message naming the point and the
 * kernel file, the likeliest cause on a CPU device being a kernel reaching outside its buffers.
 */
static void fault_reason(struct bench_run *r, size_t i, const char *by, char *reason, size_t len)
{
	char label[256], file[4200];
	const char *k = r->h->kernel_file;

	harness_point_label(r, i, label, sizeof(label));
	if (!k)
		snprintf(file, sizeof(file), "(no kernel built yet)");
	else if (r->co->kernels_dir)
		snprintf(file, sizeof(file), "%s/%s (from --kernels)", r->co->kernels_dir, k);
	else
		snprintf(file, sizeof(file), "kernels/%s (built in)", k);
	snprintf(reason, len, "%s: the process faulted during this point; its kernel file %.1500s "
		 "may read or write outside its buffers", by, file);
	fprintf(stderr, "\nbench %s: %s during point %zu of %zu (%s) on %s, kernel file %s: the "
		"kernel (or the driver) reached memory outside its buffers; the points before it are "
		"written, this one failed\n", r->row->cmd.name, by, i + 1, r->n_points, label,
		r->dev->name, file);
}

/*
 * The watchdog's (watch_abandon_fn): adds a run's points completed (and a timed-out one) to
 * its document, marked interrupted.
 */
static bool abandon_run(struct bench_run *r, size_t done, const char *by, bool timed_out)
{
	size_t n = done;

	if (!r->doc || !r->points)
		return false;
	if (timed_out && done < r->n_points) {
		struct bench_point *pt = &r->points[done];
		pt->status = POINT_FAILED;
		pt->n = 0;
		if (strcmp(by, "timeout") == 0)
			snprintf(pt->reason, sizeof(pt->reason), "timed out after %u s", r->co->timeout_s);
		else
			fault_reason(r, done, by, pt->reason, sizeof(pt->reason));
		n++;
	}
	for (size_t i = 0; i < n; i++)
		res_doc_add_point(r->doc, harness_point_json(r, &r->points[i]));
	mark_interrupted(r, by, done);
	if (!r->co->quiet && r->cols)
		harness_print_table(r, n);
	return true;
}

void bench_run_skip(struct bench_run *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->h->skip, sizeof(r->h->skip), fmt, ap);
	va_end(ap);
}

const char *bench_run_skipped(const struct bench_run *r)
{
	return r->h->skip[0] ? r->h->skip : NULL;
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

	r->h->phase_ns[ph] += t - *t0;
	*t0 = t;
}

/* The CV of a ceiling's statistics, percent (0: none). */
static double stats_cv(const json_t *stats)
{
	return json_number_value(json_object_get(stats, "cv"));
}

/*
 * A figure above the roof of the same bytes says so in its note. By more than the run's noise
 * (two standard deviations of both, from their CVs) it is a finding: a clear line on stderr
 * naming the kernel and both figures, and a record of the document's `roof_findings`, for a
 * roof that a kernel beats is no roof. Not a status: a kernel's counted bytes are not its
 * traffic (a gather of data a cache holds read 2.1-2.4 x the copy ceiling on Intel's CPU
 * runtime), so a finding is to explain, not a failure; a broken clock is the witness's to find.
 */
static void bound_check(struct bench_run *r, struct bench_point *pt)
{
	double g = bench_point_gbps(pt), c = bench_point_ceiling_gbps(pt);
	double cv = hypot(pt->time.cv, stats_cv(pt->ceil_by_stats)) / 100, noise = 2 * cv;
	char roof[160];

	if (g <= c)
		return;
	snprintf(roof, sizeof(roof), "%s %s %.2f GB/s", pt->ceil_by, pt->ceil_shape, c);
	if (g <= c * (1 + noise)) {
		bench_note(pt, "%.3f of the roof: above the roof of the same bytes within the run's "
			   "noise (+-%.1f %%) (%s)", g / c, 100 * noise, roof);
		return;
	}
	bench_note(pt, "%.3f of the roof: a finding: %.2f GB/s beats the roof of the same bytes by "
		   "more than the run's noise (+-%.1f %%) (%s)", g / c, g, 100 * noise, roof);
	json_t *pa = harness_params_json(r, pt);
	char *ps = json_dumps(pa, JSON_COMPACT | JSON_SORT_KEYS);
	fprintf(stderr, "bench %s: finding: %s %s measured %.2f GB/s, %.3f x the memory roof %.2f GB/s "
		"(%s %s) of the same bytes, beyond the run's noise (+-%.1f %%)\n", cli_cmd,
		r->row->cmd.name, ps ? ps : "?", g, g / c, c, pt->ceil_by, pt->ceil_shape, 100 * noise);
	harness_roof_finding(r, json_pack("{s:s, s:o, s:f, s:f, s:f, s:s, s:s, s:f}", "benchmark",
					  r->row->cmd.name, "params", pa, "gbps", g, "roof_gbps", c,
					  "fraction_of_roof", g / c, "roof_by", pt->ceil_by,
					  "roof_shape", pt->ceil_shape, "noise", noise));
	free(ps);
}

/*
 * Moves the host time spent reading QUEUED and SUBMIT since *mark (by every thread: at most
 * what phase ph holds) from ph to the witness's phase.
 */
static void witness_reads(struct bench_run *r, enum bench_phase ph, uint64_t *mark)
{
	uint64_t now = time_stamps_cost_ns();
	double spent = (double)(now - *mark);

	*mark = now;
	if (spent > r->h->phase_ns[ph])
		spent = r->h->phase_ns[ph];
	r->h->phase_ns[ph] -= spent;
	r->h->phase_ns[PHASE_WITNESS] += spent;
}

/* A failed or suspect point, counted and told on stderr with its params and reason. */
static void point_told(struct bench_run *r, struct bench_point *pt)
{
	json_t *pa = harness_params_json(r, pt);
	char *s = json_dumps(pa, JSON_COMPACT);

	if (pt->status == POINT_SUSPECT)
		r->n_suspect++;
	else
		r->n_failed++;
	fprintf(stderr, "bench %s: point %s %s: %s\n", cli_cmd, s ? s : "?",
		bench_status_names[pt->status] /* "failed" or "suspect" */,
		pt->reason[0] ? pt->reason : "(no reason recorded)");
	free(s);
	json_decref(pa);
}

static void run_point(struct bench_run *r, struct bench_point *pt)
{
	double t0 = mono_ns();
	uint64_t stamps0 = time_stamps_cost_ns();

	pt->params = bench_zalloc(r->row->params_size);
	r->row->point(r, pt);
	harness_guards_check(r, pt);   /* nothing written outside the row's buffers */
	phase(r, PHASE_POINTS, &t0);
	witness_reads(r, PHASE_POINTS, &stamps0);   /* a row that times in its point() */
	if (r->co->validate_only) {
		/* the correctness side alone: the model only where the point measured on its own */
		pt->ceil_bytes = 0;
		if (!pt->n)
			pt->model_groups = 0;
	} else if (pt->status == POINT_OK && pt->enqueue && !pt->n)
		bench_point_measure(r, pt, pt->enqueue, pt->enqueue_arg);
	phase(r, PHASE_TIMED, &t0);
	witness_reads(r, PHASE_TIMED, &stamps0);
	harness_witness_point(r, pt);   /* the host's clock against the event's */
	phase(r, PHASE_WITNESS, &t0);
	if (pt->ceil_bytes) {   /* also for a failed or skipped point: its size's ceiling */
		bench_ceiling_measure(r, pt);
		phase(r, PHASE_CEILING, &t0);
	}
	if (pt->status == POINT_OK && pt->n && pt->ceil_ns > 0)
		bound_check(r, pt);
	if (pt->status == POINT_OK && pt->res.spill_mem)
		bench_note(pt, "the kernel spills: %llu bytes of scratch a hardware thread "
			   "(CL_KERNEL_SPILL_MEM_SIZE_INTEL)%s", (unsigned long long)pt->res.spill_mem,
			   pt->res.grf_large || !(r->row->cmd.flags & BENCH_SG) ? ""
				: "; --grf large gives it 256 registers on Xe-HPG and Xe-HPC");
	if (!pt->model_json && pt->model_groups) {
		struct occ_kernel k;
		occ_kernel_from_res(&k, &pt->res, pt->model_wg, pt->model_simd, pt->model_barrier);
		pt->model_json = occ_live_point(&r->model, &k, pt->model_groups, &pt->model);
	}
	phase(r, PHASE_VIEWS, &t0);
	if (pt->status == POINT_OK)
		r->n_ok++;
	else if (pt->status == POINT_SKIPPED)
		r->n_skipped++;
	else
		point_told(r, pt);
}

/* ---- the run ---- */

/* Where the run's time went, seconds, up to the writing of the outputs. */
static json_t *phases_json(const struct bench_run *r)
{
	static const char *const names[] = { "session", "plan", "points", "timed", "ceiling", "views",
					     "witness" };
	json_t *o = json_object();

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		json_object_set_new(o, names[i], json_real(r->h->phase_ns[i] / 1e9));
	return o;
}

static bench_calib_fn calib_fn;
static void *calib_arg;

void bench_set_calibration(bench_calib_fn fn, void *arg)
{
	calib_fn = fn;
	calib_arg = arg;
}

json_t *bench_calibrated(const struct bench_run *r, const struct bench_point *pt,
			 const char *const *names)
{
	json_t *p, *v, *m;
	const char *k;
	void *tmp;

	if (!calib_fn || r->co->validate_only)
		return NULL;
	p = harness_params_json(r, pt);
	for (const char *const *n = names; *n; n++)
		json_object_del(p, *n);
	json_object_foreach_safe(p, tmp, k, m)
		if (json_is_null(m))   /* not known before the point has run */
			json_object_del(p, k);
	v = calib_fn(harness_benchmark(r->row), p, names, calib_arg);
	json_decref(p);
	for (const char *const *n = names; v && *n; n++)
		if (!json_is_integer(json_object_get(v, *n)) || json_integer_value(json_object_get(v, *n)) <= 0) {
			json_decref(v);
			v = NULL;
		}
	return v;
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
 * measured at once start each point, and its timed launches, together (the rendezvous of
 * bench/harness/sync.c), and print no progress line (several threads would draw over each
 * other).
 */
size_t bench_run_loop(struct bench_run *r)
{
	size_t i;

	for (i = 0; i < r->n_points; i++) {
		if (r->h->sync)
			sync_point(r->h->sync);
		if (watch_signal())
			break;
		r->points[i].index = i;
		if (!r->h->sync)
			progress(r, i);
		watch_point_start(r);
		run_point(r, &r->points[i]);
		watch_point_done(r, i + 1);
		if (r->h->sync)
			sync_point_done(r->h->sync, r->h->sync_index);
	}
	if (r->h->sync)
		sync_leave(r->h->sync, r->h->sync_index);
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
					   : json_string(harness_cache_name(r->cold ? BENCH_CACHE_COLD
										     : BENCH_CACHE_WARM)),
			 "cache_flush", flush, "clock_probe",
			 co->validate_only ? json_null()
					   : json_pack("{s:i, s:i}", "rounds", HARNESS_PROBE_ROUNDS, "launches",
						       HARNESS_PROBE_LAUNCHES));
}

/* The document of a run, before its points: the session's device, model and settings. */
static json_t *run_doc(const struct bench_run *r)
{
	json_t *doc = res_doc_new(cli_argc, cli_argv, r->dev, harness_benchmark(r->row));

	json_object_set_new(doc, "model_device", r->model.known ? occ_params_json(&r->model.dev)
								 : json_string(r->model.note));
	json_object_set_new(doc, "settings", settings_json(r));
	return doc;
}

/* After the point loop: relations, the points' JSON, the table, the report; an exit code. */
static int run_views(struct bench_run *r, size_t done, int sig)
{
	bool skipped = bench_run_skipped(r) != NULL;   /* no table or report of nothing */
	int rc = EXIT_OK;

	if (done == r->n_points && r->row->relate && !skipped)
		r->row->relate(r);
	for (size_t i = 0; i < done; i++)
		res_doc_add_point(r->doc, harness_point_json(r, &r->points[i]));
	if (done < r->n_points)
		mark_interrupted(r, watch_sig_name(sig), done);
	if (!r->co->quiet && r->cols && !skipped)
		harness_print_table(r, done);
	if (r->row->report && done == r->n_points && !skipped)
		rc = r->row->report(r);
	if (run_hook)
		run_hook(r, rc, run_hook_arg);
	return rc;
}

struct bench_run *bench_run_begin(struct bench_session *s, struct bench_job *j)
{
	struct bench_run *r = bench_alloc(sizeof(*r));
	size_t n;
	double t0 = mono_ns();

	*r = (struct bench_run){ .row = j->row, .opts = j->opts, .co = &j->shared->co, .sess = s,
				 .dev = s->dev, .pc = s->pc, .model = s->model, .peers = s->peers,
				 .label = s->label, .h = bench_zalloc(sizeof(*r->h)) };
	/* --validate-only times nothing: no cache state to set */
	r->cold = !r->co->validate_only &&
		  (r->co->cache == BENCH_CACHE_COLD ||
		   (r->co->cache == BENCH_CACHE_ROW && (r->row->cmd.flags & BENCH_COLD) &&
		    (r->dev->type & CL_DEVICE_TYPE_GPU)));
	r->h->phase_ns[PHASE_SESSION] = s->open_ns;   /* the first run's; 0 for later ones */
	s->open_ns = 0;
	r->doc = run_doc(r);
	watch_run_add(r, r->co->timeout_s, abandon_run);
	r->cols = r->row->cols;
	n = r->row->plan(r);
	phase(r, PHASE_PLAN, &t0);
	r->points = bench_zalloc((n ? n : 1) * sizeof(*r->points));
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
	json_object_set_new(r->doc, "clock_check", harness_clock_check_json(r->sess));
	json_t *roof = harness_roof_json(r), *found = harness_roof_findings(r);
	if (roof)   /* the roof of every size measured, and what beat it */
		json_object_set_new(r->doc, "roof", roof);
	if (found)
		json_object_set_new(r->doc, "roof_findings", found);
	if (r->n_suspect) {
		fprintf(stderr, "bench %s: %u of %zu points suspect%s%s: their times and the host's clock "
			"disagree (see their reason)\n", cli_cmd, r->n_suspect, r->n_points,
			r->label ? " on " : "", r->label ? r->label : "");
		rc = EXIT_FAIL;
	}
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
	if (r->h->skip[0]) {   /* nothing measured: the reason is the run's outcome */
		fprintf(stderr, "bench %s%s: device: %s\n", cli_cmd, cli_where, r->h->skip);
		json_object_set_new(r->doc, "skipped", json_string(r->h->skip));
		rc = EXIT_SKIP;
	}
	if (r->row->teardown)
		r->row->teardown(r);
	harness_guards_free(r);
	run_free(r);
	watch_run_remove(r);
	*doc = r->doc;
	free(r->h);
	free(r);
	return rc != EXIT_OK ? rc : rrc;
}

int bench_run_job(struct bench_session *s, struct bench_job *j, json_t **doc)
{
	struct bench_run *r = bench_run_begin(s, j);

	return bench_run_end(r, bench_run_loop(r), doc);
}

