/*
 * bench validate: one named check per configuration the device declares, each the
 * correctness side of a benchmark row (one validated launch per point, through the
 * harness's validate-only mode: nothing timed), plus the OpenCL specification's
 * required answers on misuse (api.c). The checks run in child processes
 * (child.c), each with a time limit; expectations in Mesa's form and the known issues turn
 * results into verdicts (expect.c); the outputs are a table, TAP, JUnit, deqp-runner's
 * CSV files and GoogleTest's lines, so that a CI fleet runs it as it is (docs/validation.md).
 */
#include "rows.h"
#include "validate.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VO(f) offsetof(struct val_opts, f)

static void add_include(void *base, const char *arg)
{
	struct val_opts *o = base;
	const char **s = bench_push(&o->include_re, &o->n_include_re, &o->cap_include_re, sizeof(*s), 4);

	*s = arg;
}

static void add_exclude(void *base, const char *arg)
{
	struct val_opts *o = base;
	const char **s = bench_push(&o->exclude_re, &o->n_exclude_re, &o->cap_exclude_re, sizeof(*s), 4);

	*s = arg;
}

static const struct cli_opt val_cli[] = {
	{ "device", "SPEC", CLI_STR, VO(device),
	  .help = "index, platform:device, or name substring (env BENCH_DEVICE);\n"
		  "all, gpu, cpu or a list: one process per device, each writing\n"
		  "--results-dir DIR/device-P.D/ (results.csv, failures.csv, junit.xml)" },
	{ "require-driver", "REGEX", CLI_STR, VO(require_driver),
	  .help = "exit 77 before anything runs unless REGEX (POSIX extended) matches the\n"
		  "platform name, the driver version or the device name" },
	{ "list", NULL, CLI_FLAG, VO(list), .help = "print the names of the selected checks, one a line, and exit" },
	{ "verbose", NULL, CLI_FLAG, VO(verbose), .help = "with --list: each name with what it checks" },
	{ "caselist", "FILE", CLI_STR, VO(caselist),
	  .help = "run the checks FILE names, one a line, in its order ('#' comments)" },
	{ "filter", "GLOB", CLI_STR, VO(filter), .help = "only the checks whose name matches GLOB (vecadd/v4/*)" },
	{ "exclude", "GLOBS", CLI_STR, VO(exclude),
	  .help = "leave out the checks whose name matches one of the comma-separated\nGLOBS (api/*,occupancy/*)" },
	{ "include-regex", "REGEX", CLI_FN, 0, .fn = add_include,
	  .help = "only the checks whose name REGEX (POSIX extended, unanchored) matches;\n"
		  "repeated: any of them" },
	{ "exclude-regex", "REGEX", CLI_FN, 0, .fn = add_exclude,
	  .help = "leave out the checks whose name REGEX matches; repeatable" },
	{ "fraction", "N", CLI_UINT, VO(fraction), 1, 1000000, .def = "1",
	  .help = "run every Nth selected check (deqp-runner's sharding: one CI job of N)" },
	{ "fraction-start", "K", CLI_UINT, VO(fraction_start), 1, 1000000, .def = "1",
	  .help = "with --fraction N: start at the Kth check (1..N; $CI_NODE_INDEX)" },
	{ "checks-per-process", "N", CLI_UINT, VO(checks_per_process), 0, 1000000, .def = "0",
	  .help = "a new process after N checks (0: only after a result other than a pass or\n"
		  "a skip; 1: a process per check)" },
	{ "check-timeout", "SECONDS", CLI_UINT, VO(check_timeout), 1, 86400,
	  .def = CLI_XSTR(VAL_CHECK_TIMEOUT_DEFAULT),
	  .help = "kill a check's process (and its process group) after SECONDS: Timeout\n"
		  "(half way, at most 10 s in, a line on stderr says until when)" },
	{ "baseline", "FILE", CLI_STR, VO(baseline),
	  .help = "expected failures in Mesa's form: NAME,STATUS lines in deqp-runner's\n"
		  "names (Fail, Crash, Timeout, Missing, ExpectedFail expect a failure;\n"
		  "results.csv, failures.csv or --write-baseline's file)" },
	{ "flakes", "FILE", CLI_STR, VO(flakes),
	  .help = "checks known to be flaky, one regular expression a line: an unexpected\n"
		  "result of one is KnownFlake" },
	{ "skips", "FILE", CLI_STR, VO(skips),
	  .help = "checks never to run, one regular expression a line: Skip" },
	{ "flake-runs", "N", CLI_UINT, VO(flake_runs), 0, 10, .def = CLI_XSTR(VAL_FLAKE_RUNS_DEFAULT),
	  .help = "runs again of an unexpected result before it counts (one that passes\n"
		  "is a Flake; a Missing is never run again)" },
	{ "known-issues", "FILE|NAME", CLI_STR, VO(known),
	  .help = "known issues (results/known-issues/README.md): a matching failure is\n"
		  "expected; a matching check that passes is reported fixed. A NAME\n"
		  "(nvidia, oclgrind) is a file installed with bench" },
	{ "results-dir", "DIR", CLI_STR, VO(results_dir),
	  .help = "write DIR/results.csv and DIR/failures.csv (deqp-runner's columns and\n"
		  "statuses: Missing where a check's process was lost before it began it),\n"
		  "each rewritten as each check ends" },
	{ "write-baseline", "FILE", CLI_STR, VO(write_baseline),
	  .help = "write the run's failures as the next --baseline" },
	{ "tap", NULL, CLI_FLAG, VO(tap),
	  .help = "TAP version 13 on stdout, YAML diagnostics per failure (the summary\n"
		  "table goes to stderr)" },
	{ "junit", "FILE", CLI_STR, VO(junit),
	  .help = "write JUnit XML: a testsuite per benchmark, a testcase per check" },
	{ "github-annotations", NULL, CLI_FLAG, VO(github_annotations),
	  .help = "print GitHub Actions' annotations at the end: ::error for each\n"
		  "unexpected result (at the --baseline line that names it, if one does)" },
	{ "github-summary", NULL, CLI_FLAG, VO(github_summary),
	  .help = "append a Markdown summary to GitHub Actions' step summary\n"
		  "($GITHUB_STEP_SUMMARY; refused where it is unset)" },
	{ "metrics", "FILE", CLI_STR, VO(metrics),
	  .help = "write GitLab's metrics report (OpenMetrics text: reports:metrics):\n"
		  "each status's count, each check's seconds" },
	{ "gtest_list_tests", NULL, CLI_FLAG, VO(gtest_list),
	  .help = "list the checks as GoogleTest does (SUITE. then indented tests) and exit" },
	{ "gtest_filter", "FILTER", CLI_STR, VO(gtest_filter),
	  .help = "GoogleTest's POSITIVE[-NEGATIVE] globs over SUITE.TEST names; a --gtest_\n"
		  "option prints GoogleTest's lines on stdout" },
	{ "gtest_output", "xml:FILE", CLI_STR, VO(gtest_output),
	  .help = "GoogleTest's XML report (the JUnit file --junit writes)" },
	{ "gtest_also_run_disabled_tests", NULL, CLI_FLAG, VO(gtest_disabled),
	  .help = "accepted from GoogleTest runners: no check is disabled" },
	BENCH_OPT_KERNELS(VO(kernels)),
	{ "quiet", NULL, CLI_FLAG, VO(quiet), .help = "no summary table" },
	/* bench validate's own: the child that runs one check, and the run without children */
	{ "run-check", "PID", CLI_STR, VO(run_check), .help = NULL },
	{ "in-process", NULL, CLI_FLAG, VO(in_process), .help = NULL },
	{ 0 } };

static void val_check_opts(void *opts, const struct cli_set *given)
{
	struct val_opts *o = opts;
	char xml[16];

	(void)given;
	if (o->fraction_start > o->fraction)
		cli_usage_error("--fraction-start %u: with --fraction %u it is 1..%u", o->fraction_start,
				o->fraction, o->fraction);
	if (o->gtest_output && !val_gtest_xml_path(o->gtest_output, xml, sizeof(xml)))
		cli_usage_error("--gtest_output '%s' is not xml, xml:FILE or xml:DIR/", o->gtest_output);
	if (o->tap && (o->gtest_filter || o->gtest_output || o->gtest_disabled))
		cli_usage_error("--tap and the --gtest_ options both print on stdout: choose one");
	o->gtest = o->gtest_filter || o->gtest_output || o->gtest_disabled;
}

/* ---- the device ---- */

/* --require-driver: exit 77 unless REGEX matches the platform, the driver or the device. */
static void require_driver(const struct val_ctx *v, const char *re_src)
{
	regex_t re;
	char msg[256];
	int err = regcomp(&re, re_src, REG_EXTENDED | REG_NOSUB);

	if (err) {
		regerror(err, &re, msg, sizeof(msg));
		cli_usage_error("--require-driver '%s' is not a POSIX extended regular expression: %s",
				re_src, msg);
	}
	bool found = regexec(&re, v->dev->platform_name, 0, NULL, 0) == 0 ||
		     regexec(&re, v->dev->driver, 0, NULL, 0) == 0 ||
		     regexec(&re, v->dev->name, 0, NULL, 0) == 0;
	regfree(&re);
	if (!found)
		cli_die(EXIT_SKIP, "device: --require-driver '%s' matches none of what was found: %s",
			re_src, v->identity);
}

/* Every check's name is one GoogleTest name, and the names are distinct (a bench bug else). */
static void check_names(const struct val_ctx *v)
{
	char gt[256], back[256];

	for (size_t i = 0; i < v->n; i++) {
		val_gtest_name(v->c[i].id, gt, sizeof(gt));
		if (!val_gtest_id(gt, back, sizeof(back)) || strcmp(back, v->c[i].id) != 0)
			cli_die(EXIT_FAIL, "bench bug: check '%s' does not map to a GoogleTest name and back "
				"('%s')", v->c[i].id, gt);
		for (size_t j = 0; j < i; j++)
			if (strcmp(v->c[i].id, v->c[j].id) == 0)
				cli_die(EXIT_FAIL, "bench bug: two checks named '%s'", v->c[i].id);
	}
}

/* The device, its identity, the inputs and the plan; exits on bad input. */
static void prepare(struct val_ctx *v, struct dev_list *devs)
{
	const struct val_opts *o = v->o;

	v->dev = bench_device(devs, o->device);   /* 77 without any device, 2 for a bad spec */
	snprintf(v->identity, sizeof(v->identity), "platform '%s', driver '%s', device '%s'",
		 v->dev->platform_name, v->dev->driver, v->dev->name);
	if (o->require_driver)
		require_driver(v, o->require_driver);
	if (o->known)
		val_known_load(v, o->known);
	if (o->baseline)
		val_base_load(v, o->baseline);
	if (o->flakes)
		val_regexes_load(&v->flakes, "flakes", o->flakes);
	if (o->skips)
		val_regexes_load(&v->skips, "skips", o->skips);
	val_plan_rows(v);
	val_plan_api(v);
	val_plan_profiling(v);
	v->planned = v->n;
	check_names(v);
}

/* ---- the end of a run ---- */

/* The views and files written once the run ends; the exit code. */
static int finish(struct val_ctx *v, int sig)
{
	const struct val_opts *o = v->o;
	FILE *f = o->tap || o->gtest ? stderr : stdout;
	char err[1024];
	int rc = v->write_failed ? EXIT_FAIL : EXIT_OK;

	if (o->gtest)
		val_gtest_finish(v, stdout);
	if (!o->quiet) {
		val_print_table(v, f);
		val_print_summary(v, f);
	}
	if (!val_junit_write(v, err, sizeof(err))) {
		fprintf(stderr, "bench validate: %s\n", err);
		rc = EXIT_FAIL;
	}
	if (!val_results_write(v, true, err, sizeof(err))) {
		fprintf(stderr, "bench validate: %s\n", err);
		rc = EXIT_FAIL;
	}
	if (o->write_baseline && sig) {
		fprintf(stderr, "bench validate: --write-baseline %s not written: the run was interrupted\n",
			o->write_baseline);
		val_outputs_drop();
	} else if (o->write_baseline && !val_baseline_write(v, err, sizeof(err))) {
		fprintf(stderr, "bench validate: %s\n", err);
		rc = EXIT_FAIL;
	}
	if (!val_channels_write(v, err, sizeof(err))) {
		fprintf(stderr, "bench validate: %s\n", err);
		rc = EXIT_FAIL;
	}
	for (size_t i = 0; i < v->n; i++)
		if (v->c[i].done && val_unexpected(v->c[i].verdict))
			rc = EXIT_FAIL;
	return sig ? watch_exit_code(sig) : rc;
}

static void list(const struct val_ctx *v, const struct val_opts *o)
{
	if (o->gtest_list) {
		val_gtest_list(v, stdout);
		return;
	}
	for (size_t i = 0; i < v->n; i++)
		if (o->verbose)
			printf("%-44s %s%s\n", v->c[i].id, v->c[i].beyond ? "[beyond the declared] " : "",
			       v->c[i].desc);
		else
			printf("%s\n", v->c[i].id);
}

/* What a device's process of a validation on several gets of its own. */
static const char *const val_per_device[] = { "--device", "--results-dir", NULL };
static const char *const val_per_device_files[] = { "--junit", "junit.xml", NULL };

/*
 * --device all, gpu, cpu or a list naming several devices: one process per device, each
 * writing its folder DIR/device-P.D/ (results.csv, failures.csv, junit.xml), one summary; true
 * with *rc then. One device: o->device becomes its spec and false.
 */
static bool several_devices(struct val_opts *o, int *rc)
{
	struct common_opts co = { .device = o->device, .kernels_dir = o->kernels };
	bool done;

	if (o->run_check || !dev_spec_is_set(o->device))
		return false;
	done = bench_fleet_run(&(struct bench_fleet){
			.tool = "validate", .dir_opt = "--results-dir", .per_device = val_per_device,
			.extra = val_per_device_files, .summary_has = " checks: ",
			.refuse = o->junit || o->tap || o->gtest_output || o->write_baseline || o->list ||
				  o->gtest_list || o->metrics || o->github_annotations ||
				  o->github_summary,
			.needs = "give --results-dir DIR; --junit, --tap, --gtest_output, --write-baseline, "
				 "--metrics, --github-annotations, --github-summary and --list are one "
				 "device's: each device's folder gets its results.csv, failures.csv and "
				 "junit.xml" },
		&co, o->results_dir, rc);
	o->device = co.device;
	return done;
}

static int validate_main(void *opts)
{
	struct val_opts *o = opts;
	struct val_ctx v = { .o = o, .kernels_dir = o->kernels };
	struct dev_list devs;
	int rc;

	if (!o->device)
		o->device = getenv("BENCH_DEVICE");
	if (several_devices(o, &rc))
		return rc;
	/* the parent of isolated checks takes SIGINT and SIGTERM itself, and before drivers start */
	if (!o->in_process && !o->run_check)
		val_child_block_signals();
	bench_check_kernels(o->kernels);
	if (!o->run_check)
		val_outputs_open(o);
	if (!o->run_check && !o->list && !o->gtest_list)
		val_channels_open(o);
	prepare(&v, &devs);
	if (o->run_check) {
		rc = val_child_main(&v, o->run_check);
	} else {
		val_select(&v, o);
		val_fraction(&v, o->fraction, o->fraction_start);
		if (o->list || o->gtest_list) {
			list(&v, o);
			rc = EXIT_OK;
		} else {
			rc = finish(&v, val_run(&v));
			val_row_done(&v);
			val_child_done(&v);
		}
	}
	for (size_t i = 0; i < v.n; i++)
		json_decref(v.c[i].params);
	free(v.c);
	free(o->include_re);
	free(o->exclude_re);
	val_expect_free(&v);
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
			    "  specification's required answers on misuse, each as one named check, in child\n"
			    "  processes; what the device does not declare is reported apart. Exit 0\n"
			    "  when no result is unexpected (a failure the baseline or a known issue expects\n"
			    "  is not), 1 otherwise, 77 where --require-driver finds another driver.\n",
		.opts = val_cli,
		.opts_size = sizeof(struct val_opts),
		.check = val_check_opts,
	},
	.main = validate_main,
};
