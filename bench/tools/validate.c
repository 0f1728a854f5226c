/*
 * bench validate: one named check per configuration the device declares, each the
 * correctness side of a benchmark row (one validated launch per point, through the
 * harness's validate-only mode: nothing timed), plus the OpenCL specification's
 * required answers on misuse (validate_api.c); known issues turn expected failures
 * into what they are (validate_out.c); a summary table, TAP and JUnit.
 *
 * The rows are run in this process, one configuration at a time, as the command line
 * would run them (`bench vecadd --variant 3 --wg 64 --sg 16 ... --validate-only`); a
 * row's points come back through the harness's run hook.
 */
#include "rows.h"
#include "tool.h"
#include "occ_point.h"
#include "sgb.h"
#include "validate_out.h"

#include <fnmatch.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct val_opts {
	const char *device, *junit, *known, *filter, *exclude, *kernels;
	bool tap, list, quiet;
};

#define VO(f) offsetof(struct val_opts, f)
static const struct cli_opt val_cli[] = {
	{ "device", "SPEC", CLI_STR, VO(device), .help = "index, platform:device, or name substring (env BENCH_DEVICE)" },
	{ "tap", NULL, CLI_FLAG, VO(tap),
	  .help = "TAP version 13 on stdout, YAML diagnostics per failure (the summary\n"
		  "table goes to stderr)" },
	{ "junit", "FILE", CLI_STR, VO(junit),
	  .help = "write JUnit XML: a testsuite per benchmark, a testcase per check" },
	{ "known-issues", "FILE", CLI_STR, VO(known),
	  .help = "known issues (results/known-issues/README.md): a matching failure is\n"
		  "expected; a matching check that passes is reported fixed" },
	{ "filter", "GLOB", CLI_STR, VO(filter), .help = "only the checks whose id matches GLOB (vecadd/v4/*)" },
	{ "exclude", "GLOBS", CLI_STR, VO(exclude),
	  .help = "leave out the checks whose id matches one of the comma-separated\nGLOBS (api/*,occupancy/*)" },
	{ "list", NULL, CLI_FLAG, VO(list), .help = "list the checks planned for the device and exit" },
	BENCH_OPT_KERNELS(VO(kernels)),
	{ "quiet", NULL, CLI_FLAG, VO(quiet), .help = "no summary table" },
	{ 0 } };

/* ---- running a row on one configuration ---- */

static struct {
	struct val_check *c;      /* the check in flight (for an exit inside a row) */
	int saved_out, saved_err;
	FILE *log;
	bool tap;
} flight = { NULL, -1, -1, NULL, false };

/* The row's points and its report's verdict, from the harness. */
static void collect(const struct bench_run *r, int report_rc, void *arg)
{
	struct val_check *c = arg;
	const struct bench_point *bad = NULL, *skip = NULL, *ok = NULL;

	for (size_t i = 0; i < r->n_points; i++) {
		const struct bench_point *pt = &r->points[i];
		if (pt->status == POINT_FAILED && !bad)
			bad = pt;
		else if (pt->status == POINT_SKIPPED && !skip)
			skip = pt;
		else if (pt->status == POINT_OK && !ok)
			ok = pt;
	}
	const struct bench_point *pt = bad ? bad : ok ? ok : skip;
	if (pt) {
		c->params = harness_params_json(r, pt);
		json_t *measured = pt->extra ? json_object_get(pt->extra, "measured") : NULL;
		if (measured)
			json_object_set(c->params, "measured", measured);
	}
	if (bad) {
		c->res = VAL_FAIL;
		snprintf(c->reason, sizeof(c->reason), "%s", bad->reason);
	} else if (!ok) {
		c->res = VAL_SKIP;
		snprintf(c->reason, sizeof(c->reason), "%s", skip ? skip->reason : "no configuration planned");
	} else if (report_rc) {
		c->res = VAL_FAIL;
		snprintf(c->reason, sizeof(c->reason), "%s disagrees with its check: the model predicts %llu "
			 "resident work-groups (%s)", r->row->cmd.name, ok->model.resident_wg,
			 ok->model.cu_limiter ? ok->model.cu_limiter : "no limiter");
	} else {
		c->res = VAL_PASS;
		snprintf(c->reason, sizeof(c->reason), "%s", ok->reason);
	}
	c->collected = true;
}

/* Routes stdout to /dev/null and stderr to a log while a row runs. */
static void mute(void)
{
	fflush(stdout);
	fflush(stderr);
	flight.log = tmpfile();
	flight.saved_out = dup(STDOUT_FILENO);
	flight.saved_err = dup(STDERR_FILENO);
	FILE *null = fopen("/dev/null", "w");
	if (null) {
		dup2(fileno(null), STDOUT_FILENO);
		fclose(null);
	}
	if (flight.log)
		dup2(fileno(flight.log), STDERR_FILENO);
}

/* Restores stdout and stderr; the row's messages into buf (its last line: last). */
static void unmute(char *buf, size_t len, const char **last)
{
	size_t n = 0;

	fflush(stdout);
	fflush(stderr);
	dup2(flight.saved_out, STDOUT_FILENO);
	dup2(flight.saved_err, STDERR_FILENO);
	close(flight.saved_out);
	close(flight.saved_err);
	flight.saved_out = flight.saved_err = -1;
	buf[0] = '\0';
	if (flight.log) {
		rewind(flight.log);
		n = fread(buf, 1, len - 1, flight.log);
		buf[n] = '\0';
		fclose(flight.log);
		flight.log = NULL;
	}
	while (n && (buf[n - 1] == '\n'))
		buf[--n] = '\0';
	char *nl = strrchr(buf, '\n');
	*last = nl ? nl + 1 : buf;
}

/* A row that ends the process (a usage error on a configuration it refuses) is named. */
static void on_exit_in_row(void)
{
	char buf[8192];
	const char *last;

	if (!flight.c)
		return;
	unmute(buf, sizeof(buf), &last);
	fprintf(stderr, "%s\nbench validate: check %s ended the process inside its row: %s\n", buf,
		flight.c->id, last);
	if (flight.tap)
		printf("Bail out! check %s ended the process: %s\n", flight.c->id, last);
	fflush(stdout);
}

static int run_row(const struct val_ctx *v, const struct val_opts *o, struct val_check *c)
{
	char buf[256], dev[16], log[8192];
	char *argv[VAL_MAX_ARGS + 16];
	const char *last;
	int argc = 0, rc;

	snprintf(buf, sizeof(buf), "%s", c->args);
	snprintf(dev, sizeof(dev), "%u", v->dev->index);
	argv[argc++] = (char *)c->row->cmd.name;
	for (char *t = strtok(buf, " "); t && argc < VAL_MAX_ARGS; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc++] = "--device";
	argv[argc++] = dev;
	argv[argc++] = "--quiet";
	argv[argc++] = "--validate-only";
	if (o->kernels) {
		argv[argc++] = "--kernels";
		argv[argc++] = (char *)o->kernels;
	}
	argv[argc] = NULL;
	c->collected = false;
	flight.c = c;
	mute();
	bench_set_run_hook(collect, c);
	optind = 0;   /* getopt starts afresh for each row */
	rc = bench_row_main(c->row, argc, argv);
	bench_set_run_hook(NULL, NULL);
	unmute(log, sizeof(log), &last);
	flight.c = NULL;
	if (rc > 128)
		return rc;   /* interrupted: the run stops */
	if (!c->collected) {   /* no points came back: the row's exit code answers */
		c->res = rc == EXIT_OK ? VAL_PASS : rc == EXIT_SKIP ? VAL_SKIP : VAL_FAIL;
		if (rc != EXIT_OK)
			snprintf(c->reason, sizeof(c->reason), "exit %d: %s", rc, last[0] ? last : "(no message)");
	}
	if (c->res == VAL_FAIL && log[0] && !o->tap)
		fprintf(stderr, "%s\n", log);
	return 0;
}

/* ---- the command ---- */

/* Every row's checks, then the specification's misuse checks. */
static void plan(struct val_ctx *v)
{
	val_plan_rows(v);
	val_plan_api(v);
}

/* Whether id matches one of the comma-separated globs of list (NULL: none). */
static bool excluded(const char *list, const char *id)
{
	char buf[512];

	if (!list)
		return false;
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *save = NULL, *g = strtok_r(buf, ",", &save); g; g = strtok_r(NULL, ",", &save))
		if (fnmatch(g, id, 0) == 0)
			return true;
	return false;
}

/* Keeps the checks whose id matches glob and not exclude (exit 2 when none is left). */
static void filter(struct val_ctx *v, const char *glob, const char *exclude)
{
	size_t k = 0;

	for (size_t i = 0; i < v->n; i++)
		if ((!glob || fnmatch(glob, v->c[i].id, 0) == 0) && !excluded(exclude, v->c[i].id))
			v->c[k++] = v->c[i];
	if (!k)
		cli_usage_error("--filter '%s' --exclude '%s' leave none of the %zu checks planned for '%s' "
				"(see --list)", glob ? glob : "*", exclude ? exclude : "", v->n, v->dev->name);
	v->n = k;
}

static void progress(const struct val_ctx *v, size_t i)
{
	if (!isatty(STDERR_FILENO))
		return;
	if (i < v->n)
		fprintf(stderr, "\r\033[K[%zu/%zu] validate %s", i + 1, v->n, v->c[i].id);
	else
		fprintf(stderr, "\r\033[K");
	fflush(stderr);
}

static int run_checks(struct val_ctx *v, const struct val_opts *o)
{
	char err[4096];
	int rc = 0;

	if (!prog_ctx_create(&v->pc, v->dev, o->kernels, err, sizeof(err)))
		cli_die(EXIT_FAIL, "driver: %s on '%s'", err, v->dev->name);
	flight.tap = o->tap;
	atexit(on_exit_in_row);
	for (size_t i = 0; i < v->n && !rc; i++) {
		struct val_check *c = &v->c[i];
		double t0 = time_now_ns();
		char what[200];
		snprintf(what, sizeof(what), "check %s", c->id);
		watch_deadline_arm(0, what);   /* --timeout: each check its own */
		progress(v, i);
		if (c->row) {
			/*
			 * A residency probe can under-count, never over-count, where the system
			 * lends the device's cores elsewhere (CPU devices): a systematic
			 * disagreement fails every attempt.
			 */
			unsigned attempt = 0;
			do {
				json_decref(c->params);
				c->params = NULL;
				rc = run_row(v, o, c);
			} while (!rc && c->res == VAL_FAIL && c->collected && attempt++ < c->retries);
			if (c->retries && attempt && !rc)
				snprintf(c->reason + strlen(c->reason), sizeof(c->reason) - strlen(c->reason),
					 "%s(attempt %u of %u)", c->reason[0] ? " " : "",
					 c->res == VAL_FAIL ? attempt : attempt + 1, c->retries + 1);
		} else {
			c->api(v, c);
			cl_clear_last();
		}
		c->secs = (time_now_ns() - t0) / 1e9;
		if (rc) {
			c->res = VAL_FAIL;
			snprintf(c->reason, sizeof(c->reason), "interrupted");
			v->n = i + 1;
		}
	}
	progress(v, v->n);
	prog_ctx_release(&v->pc);
	return rc;
}

static struct outf junit = OUTF_INIT;

static void drop_junit(void)
{
	outf_abort(&junit);
}

static int validate_main(void *opts)
{
	struct val_opts *o = opts;
	struct val_ctx v = { .kernels_dir = o->kernels };
	struct dev_list devs;
	char err[4096];
	int rc = EXIT_OK;

	bench_check_kernels(o->kernels);
	if (o->known)
		val_known_load(&v, o->known);
	atexit(drop_junit);
	if (o->junit && !o->list)
		bench_output(&junit, "--junit", o->junit);
	if (!o->device)
		o->device = getenv("BENCH_DEVICE");
	v.dev = bench_device(&devs, o->device);
	plan(&v);
	if (o->filter || o->exclude)
		filter(&v, o->filter, o->exclude);
	if (o->list) {
		for (size_t i = 0; i < v.n; i++)
			printf("%-44s %s%s\n", v.c[i].id, v.c[i].beyond ? "[beyond the declared] " : "",
			       v.c[i].desc);
	} else {
		int sig = run_checks(&v, o);
		val_known_apply(&v);
		if (o->tap)
			val_print_tap(&v, stdout);
		if (!o->quiet)
			val_print_table(&v, o->tap ? stderr : stdout);
		if (o->junit && !val_write_junit(&v, &junit, err, sizeof(err))) {
			fprintf(stderr, "bench validate: %s\n", err);
			rc = EXIT_FAIL;
		}
		for (size_t i = 0; i < v.n; i++)
			if (v.c[i].res == VAL_FAIL)
				rc = EXIT_FAIL;
		if (sig)
			rc = sig;
	}
	for (size_t i = 0; i < v.n; i++)
		json_decref(v.c[i].params);
	free(v.c);
	free(v.known);
	json_decref(v.known_doc);
	dev_list_free(&devs);
	return rc;
}

const struct bench_tool validate_tool = {
	.cmd = {
		.name = "validate",
		.summary = "every benchmark's correctness and the specification's answers, as named checks",
		.synopsis = "usage: bench validate [options]\n"
			    "  Runs the correctness side of every benchmark over the configurations the device\n"
			    "  declares (one validated launch each, nothing timed) and the OpenCL\n"
			    "  specification's required answers on misuse, each as one named check; what the\n"
			    "  device does not declare is reported apart. Exit 0 when every check passes or\n"
			    "  is a known issue, 1 otherwise.\n",
		.opts = val_cli,
		.opts_size = sizeof(struct val_opts),
	},
	.main = validate_main,
};
