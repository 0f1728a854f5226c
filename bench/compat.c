/* Options, messages and the session every benchmark runs in. */
#include "compat.h"
#include "timing.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


noreturn void usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bench %s: usage: ", bench_cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'bench %s --help')\n", bench_cmd);
	exit(EXIT_USAGE);
}

noreturn void die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bench %s: ", bench_cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

uint64_t opt_u64(const char *opt, const char *arg, uint64_t min, uint64_t max)
{
	char err[512];
	uint64_t v;

	if (!parse_u64(arg, min, max, &v, err, sizeof(err)))
		usage_error("--%s %s", opt, err);
	return v;
}

uint64_t opt_size(const char *opt, const char *arg, uint64_t min, uint64_t max)
{
	char err[512];
	uint64_t v;

	if (!parse_size(arg, min, max, &v, err, sizeof(err)))
		usage_error("--%s %s", opt, err);
	return v;
}

void opt_range(const char *opt, const char *arg, uint64_t min, uint64_t max, struct range *r)
{
	char err[512];

	if (!range_parse(arg, min, max, r, err, sizeof(err)))
		usage_error("--%s %s", opt, err);
}

void sg_cli_defaults(struct sg_cli *o, unsigned wg)
{
	memset(o, 0, sizeof(*o));
	o->wg = wg;
}

bool sg_cli_opt(struct sg_cli *o, int c, const char *arg)
{
	switch (c) {
	case OPT_SG_BACKEND: o->backend = arg; return true;
	case OPT_SG_WG: o->wg = (unsigned)opt_u64("wg", arg, 1, 1u << 20); return true;
	case OPT_SG_SG:
		o->sg_given = true;
		o->sg = strcmp(arg, "auto") == 0 ? 0 : (unsigned)opt_u64("sg", arg, 1, 1024);
		return true;
	case OPT_SG_SEED:
		o->seed = opt_u64("seed", arg, 0, INT64_MAX);
		o->seed_given = true;
		return true;
	default: return false;
	}
}

void opt_size_range(const char *opt, const char *arg, uint64_t min, uint64_t max, struct range *r)
{
	char err[512];

	if (!range_parse_sizes(arg, min, max, r, err, sizeof(err)))
		usage_error("--%s %s", opt, err);
}

void opt_names(const char *opt, const char *arg, const char *const *names, size_t n, bool *flags)
{
	char *copy = strdup(arg), *save = NULL;
	char list[512] = "";
	bool any = false;

	memset(flags, 0, n * sizeof(*flags));
	for (size_t i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 names[i]);
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		bool all = strcmp(t, "all") == 0, found = all;
		for (size_t i = 0; i < n; i++)
			if (all || strcmp(t, names[i]) == 0)
				flags[i] = found = true;
		if (!found)
			usage_error("--%s '%s' is not one of: %s, all", opt, t, list);
		any = true;
	}
	free(copy);
	if (!any)
		usage_error("--%s '%s' names nothing: allowed %s, all", opt, arg, list);
}

void common_defaults(struct common_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->device = getenv("BENCH_DEVICE");
	o->reps = 10;
	o->warmup = 2;
}

bool common_opt(struct common_opts *o, int c, const char *arg)
{
	switch (c) {
	case OPT_DEVICE: o->device = arg; return true;
	case OPT_REPS: o->reps = (unsigned)opt_u64("reps", arg, 1, 100000); return true;
	case OPT_WARMUP: o->warmup = (unsigned)opt_u64("warmup", arg, 0, 1000); return true;
	case OPT_JSON: o->json_path = arg; return true;
	case OPT_CSV: o->csv_path = arg; return true;
	case OPT_KERNELS: o->kernels_dir = arg; return true;
	case OPT_QUIET: o->quiet = true; return true;
	default: return false;
	}
}

/* The reserved outputs that an early exit (usage_error, die) removes. */
static struct bench_outputs *open_outputs;

static void drop_reserved_outputs(void)
{
	if (open_outputs) {
		res_out_abort(&open_outputs->json);
		res_out_abort(&open_outputs->csv);
	}
}

void outputs_open(struct bench_outputs *out, const struct common_opts *o)
{
	char err[1024];

	memset(out, 0, sizeof(*out));
	out->json.fd = out->csv.fd = -1;
	out->json_path = o->json_path;
	out->csv_path = o->csv_path;
	open_outputs = out;
	atexit(drop_reserved_outputs);
	if (o->json_path && !res_out_open(&out->json, o->json_path, err, sizeof(err)))
		usage_error("--json %s", err);
	if (o->csv_path && !res_out_open(&out->csv, o->csv_path, err, sizeof(err)))
		usage_error("--csv %s", err);
}

int outputs_write(struct bench_outputs *out, const json_t *doc)
{
	char err[1024];
	int rc = EXIT_OK;

	if (out->json_path && !res_write_json(&out->json, doc, err, sizeof(err))) {
		fprintf(stderr, "bench %s: %s\n", bench_cmd, err);
		rc = EXIT_FAIL;
	}
	if (out->csv_path && !res_write_csv(&out->csv, doc, err, sizeof(err))) {
		fprintf(stderr, "bench %s: %s\n", bench_cmd, err);
		rc = EXIT_FAIL;
	}
	open_outputs = NULL;
	return rc;
}

void session_open(struct bench_session *s, const struct common_opts *o, const char *benchmark)
{
	char err[4096];

	memset(s, 0, sizeof(*s));
	s->opts = o;
	if (o->kernels_dir && access(o->kernels_dir, R_OK | X_OK) != 0)
		usage_error("--kernels '%s' is not a readable folder", o->kernels_dir);
	outputs_open(&s->out, o);
	if (!dev_list_query(&s->devs, err, sizeof(err)) ||
	    !(s->dev = dev_select(&s->devs, o->device, err, sizeof(err))))
		die(EXIT_USAGE, "%s%s", o->device && s->devs.n ? "--device " : "", err);
	if (!prog_ctx_create(&s->pc, s->dev, o->kernels_dir, err, sizeof(err)))
		die(EXIT_FAIL, "driver: %s on '%s'", err, s->dev->name);
	s->doc = res_doc_new(bench_argc, bench_argv, s->dev, benchmark);
	occ_live_init(&s->model, s->dev);
	json_object_set_new(s->doc, "model_device", s->model.known ? occ_params_json(&s->model.dev)
								    : json_string(s->model.note));
}

void session_add_point(struct bench_session *s, json_t *point)
{
	const char *st = json_string_value(json_object_get(point, "status"));

	if (st && strcmp(st, "ok") == 0) {
		s->n_ok++;
	} else if (st && strcmp(st, "skipped") == 0) {
		s->n_skipped++;
	} else {
		const char *why = json_string_value(json_object_get(point, "reason"));
		char *params = json_dumps(json_object_get(point, "params"), JSON_COMPACT);
		s->n_failed++;
		fprintf(stderr, "bench %s: point %s failed: %s\n", bench_cmd, params ? params : "?",
			why ? why : "(no reason recorded)");
		free(params);
	}
	res_doc_add_point(s->doc, point);
}

int session_finish(struct bench_session *s)
{
	int rc = outputs_write(&s->out, s->doc);

	if (s->n_failed) {
		fprintf(stderr, "bench %s: %u of %u points failed (see their status and reason)\n",
			bench_cmd, s->n_failed, s->n_ok + s->n_failed + s->n_skipped);
		rc = EXIT_FAIL;
	}
	json_decref(s->doc);
	prog_ctx_release(&s->pc);
	dev_list_free(&s->devs);
	return rc;
}

void session_progress(const struct bench_session *s, size_t i, size_t n, const char *label)
{
	(void)s;
	if (!isatty(STDERR_FILENO))
		return;
	if (i >= n)
		fprintf(stderr, "\r\033[K");
	else
		fprintf(stderr, "\r\033[K[%zu/%zu] %s", i + 1, n, label);
	fflush(stderr);
}

json_t *session_model(const struct bench_session *s, const struct kernel_res *res, unsigned wg,
		      unsigned simd, bool barrier, uint64_t groups, struct occ_result *r)
{
	struct occ_kernel k;

	occ_kernel_from_res(&k, res, wg, simd, barrier);
	return occ_live_point(&s->model, &k, groups, r);
}

json_t *session_model_kernel(const struct bench_session *s, cl_kernel k, const char *build_log,
			     unsigned wg, unsigned simd, bool barrier, uint64_t groups,
			     struct occ_result *r)
{
	struct kernel_res res;

	prog_kernel_res(&s->pc, k, wg, build_log, &res);
	return session_model(s, &res, wg, simd, barrier, groups, r);
}

double session_copy_ceiling(struct bench_session *s, cl_mem src, cl_mem dst, size_t bytes,
			    json_t **stats_out)
{
	unsigned reps = s->opts->reps;
	double *t = calloc(2 * (size_t)reps, sizeof(double));
	struct time_copy c = { src, dst, bytes };
	struct stats st;
	char err[1024];

	if (!t || !time_run(s->pc.q, time_enqueue_copy, &c, s->opts->warmup, reps, t, t + reps, err,
			    sizeof(err)))
		die(EXIT_FAIL, "driver: the copy ceiling of %zu bytes: %s", bytes, t ? err : "no memory");
	stats_compute(t, reps, &st);
	*stats_out = res_stats_json(&st, t, reps);
	free(t);
	return st.median;
}

const char *wg_note(unsigned wg, const struct kernel_res *res, char *buf, size_t len)
{
	if (!res->wg_max || wg <= res->wg_max)
		return NULL;
	snprintf(buf, len, "work-group %u exceeds the kernel's CL_KERNEL_WORK_GROUP_SIZE %zu, yet "
		 "the driver launched it", wg, res->wg_max);
	return buf;
}

void wg_refused(const struct bench_session *s, const char *opt, unsigned wg,
		const struct kernel_res *res)
{
	char lim[256];

	if (cl_last_code() == CL_INVALID_WORK_GROUP_SIZE)
		usage_error("--%s %u: '%s' refused the launch (CL_INVALID_WORK_GROUP_SIZE); %s", opt, wg,
			    s->dev->name, prog_wg_limits(res, lim, sizeof(lim)));
}

static const char *model_cell(const json_t *model, const char *key)
{
	const json_t *v = json_object_get(model, key);

	return json_is_string(v) ? json_string_value(v) : "-";
}

const char *model_occupancy_cell(const json_t *model)
{
	return model_cell(model, "occupancy");
}

const char *model_limiter_cell(const json_t *model)
{
	return model_cell(model, "limiter");
}

json_t *point_new(void)
{
	json_t *p = json_object();

	json_object_set_new(p, "params", json_object());
	json_object_set_new(p, "status", json_string("ok"));
	json_object_set_new(p, "reason", json_null());
	json_object_set_new(p, "validated", json_false());
	return p;
}

void point_set_status(json_t *point, const char *status, const char *reason)
{
	json_object_set_new(point, "status", json_string(status));
	json_object_set_new(point, "reason", reason ? json_string(reason) : json_null());
}

void point_set_times(json_t *point, const double *dev_ns, const double *wall_ns, size_t n)
{
	struct stats st;

	stats_compute(dev_ns, n, &st);
	json_object_set_new(point, "time_ns", res_stats_json(&st, dev_ns, n));
	stats_compute(wall_ns, n, &st);
	json_object_set_new(point, "wall_ns", res_stats_json(&st, wall_ns, n));
}

noreturn void opt_reject(int c, char **argv)
{
	const char *o = argv[optind - 1];

	if (c == ':')
		usage_error("option '%s' needs a value", o);
	usage_error("unknown option '%s'", o);
}
