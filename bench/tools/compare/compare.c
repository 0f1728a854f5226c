/*
 * bench compare BASE NEW: a verdict for every point of two results documents. verdict.c
 * judges (its header comment gives the rules; they follow Google Benchmark's U test,
 * criterion's noise band, Pinpoint's inconclusive and nvbench's comparison in cycles); this
 * file is the command: its options, its outputs reserved before any work, the baseline folder.
 */
#include "rows.h"
#include "tool.h"
#include "compare.h"
#include "results.h"
#include "ci.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- options ---- */

struct compare_opts {
	struct cli_operands operands;
	struct cmp_rules rules;
	const char *baseline_dir;
	const char *json_path, *junit_path, *markdown_path;
	const char *metrics_path;   /* --metrics: GitLab's metrics report */
	const char *summary_path;   /* --github-summary: $GITHUB_STEP_SUMMARY */
	bool quiet, allow_partial;
	bool github_annotations, github_summary;
};

static void parse_alpha(void *base, const char *arg)
{
	double a = cli_real("alpha", arg, 0, 0.5);

	if (a == 0)
		cli_usage_error("--alpha 0 rejects nothing: give a level in (0, 0.5]");
	((struct compare_opts *)base)->rules.alpha = a;
}

static void parse_noise(void *base, const char *arg)
{
	((struct compare_opts *)base)->rules.noise_pct = cli_real("noise", arg, 0, 1000);
}

static void parse_floor(void *base, const char *arg)
{
	((struct compare_opts *)base)->rules.floor_pct = cli_real("noise-floor", arg, 0, 1000);
}

static void parse_mult(void *base, const char *arg)
{
	double m = cli_real("spread-mult", arg, 0, 100);

	if (m == 0)
		cli_usage_error("--spread-mult 0 ignores the learned spread: give a factor in (0, 100]");
	((struct compare_opts *)base)->rules.spread_mult = m;
}

/* Whether the first len bytes of name are a benchmark a document can hold; else lists them. */
static bool known_benchmark(const char *name, size_t len, char *list, size_t list_len)
{
	const char *names[64] = { "model", "compile" };   /* the tools that write documents */
	const struct bench_row *row;
	size_t n = 2;

	for (size_t i = 0; (row = bench_row_at(i)) && n < 64; i++)
		names[n++] = row->benchmark ? row->benchmark : row->cmd.name;
	list[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (strlen(names[i]) == len && strncmp(names[i], name, len) == 0)
			return true;
		bool seen = false;
		for (size_t k = 0; k < i; k++)
			seen = seen || strcmp(names[k], names[i]) == 0;
		if (!seen)
			snprintf(list + strlen(list), list_len - strlen(list), "%s%s", i ? ", " : "", names[i]);
	}
	return false;
}

static void parse_noise_for(void *base, const char *arg)
{
	struct cmp_rules *o = &((struct compare_opts *)base)->rules;
	const char *eq = strchr(arg, '=');
	char list[512];

	if (!eq || eq == arg)
		cli_usage_error("--noise-for '%s' is not BENCH=PCT: a benchmark and its band, 0..1000 "
				"(e.g. vecadd=5)", arg);
	if (!known_benchmark(arg, (size_t)(eq - arg), list, sizeof(list)))
		cli_usage_error("--noise-for '%s': '%.*s' is not a benchmark of a results document: one "
				"of %s", arg, (int)(eq - arg), arg, list);
	if (o->n_noise_for == CMP_MAX_NOISE_FOR)
		cli_usage_error("--noise-for given more than %d times", CMP_MAX_NOISE_FOR);
	o->noise_for[o->n_noise_for++] = (struct cmp_noise_for){
		arg, (size_t)(eq - arg), cli_real("noise-for", eq + 1, 0, 1000) };
}

#define CO(f) offsetof(struct compare_opts, f)
static const struct cli_opt compare_cli[] = {
	{ "alpha", "P", CLI_FN, 0, .fn = parse_alpha, .def = CLI_XSTR(CMP_ALPHA_DEFAULT),
	  .help = "significance level of the U test" },
	{ "noise", "PCT", CLI_FN, 0, .fn = parse_noise, .def = CLI_XSTR(CMP_NOISE_DEFAULT),
	  .help = "noise band: a point whose interval lies within +-PCT % of no\n"
		  "change is unchanged (a suite's document gives its benchmarks their\n"
		  "own, in its `noise` map)" },
	{ "noise-for", "BENCH=PCT", CLI_FN, 0, .fn = parse_noise_for,
	  .help = "the noise band of one benchmark, over every other (repeatable):\n"
		  "--noise-for atomics=5" },
	{ "noise-floor", "PCT", CLI_FN, 0, .fn = parse_floor, .def = CLI_XSTR(CMP_FLOOR_DEFAULT),
	  .help = "where BASE is a baseline of several runs (bench baseline): the\n"
		  "least band of a point, whose band is else --spread-mult x its\n"
		  "run-to-run spread" },
	{ "spread-mult", "X", CLI_FN, 0, .fn = parse_mult,
	  .def_note = CLI_XSTR(CMP_SPREAD_MULT_FEW) " for a baseline of fewer than "
		      CLI_XSTR(CMP_SPREAD_RUNS) " runs, " CLI_XSTR(CMP_SPREAD_MULT_MANY) " for more",
	  .help = "where BASE is a baseline of several runs: a point's band is X\n"
		  "times its run-to-run spread (at least --noise-floor)" },
	{ "allow-different-device", NULL, CLI_FLAG, CO(rules.allow_different_device),
	  .help = "compare documents of different devices or drivers" },
	{ "baseline", "DIR", CLI_STR, CO(baseline_dir),
	  .help = "take BASE from DIR: the file named for NEW's device and suite" },
	{ "json", "FILE", CLI_STR, CO(json_path), .help = "write the comparison document" },
	{ "junit", "FILE", CLI_STR, CO(junit_path), .help = "write JUnit XML: a testcase per point" },
	{ "markdown", "FILE", CLI_STR, CO(markdown_path),
	  .help = "write a Markdown summary (for a merge-request comment)" },
	{ "github-annotations", NULL, CLI_FLAG, CO(github_annotations),
	  .help = "print GitHub Actions' annotations: ::error for each point that\n"
		  "regressed, failed or is suspect in NEW, ::notice for an improved one" },
	{ "github-summary", NULL, CLI_FLAG, CO(github_summary),
	  .help = "append the Markdown summary to GitHub Actions' step summary\n"
		  "($GITHUB_STEP_SUMMARY; refused where it is unset)" },
	{ "metrics", "FILE", CLI_STR, CO(metrics_path),
	  .help = "write GitLab's metrics report (OpenMetrics text: reports:metrics):\n"
		  "the counts of each verdict, each point's median and ratio" },
	{ "quiet", NULL, CLI_FLAG, CO(quiet), .help = "print no table" },
	{ "allow-partial", NULL, CLI_FLAG, CO(allow_partial),
	  .help = "read an interrupted or empty document as it is (refused without:\n"
		  "its missing points would read as `missing`)" },
	{ 0 } };

static void compare_check(void *opts, const struct cli_set *given)
{
	struct compare_opts *o = opts;
	size_t want = o->baseline_dir ? 1 : 2;

	(void)given;
	if (o->operands.n != want)
		cli_usage_error("%s (got %zu file%s)", o->baseline_dir ? "with --baseline give one "
				"document, NEW" : "give two results documents, BASE and NEW",
				o->operands.n, o->operands.n == 1 ? "" : "s");
}

/* ---- outputs, reserved before any work ---- */

static struct outf out_json = OUTF_INIT, out_junit = OUTF_INIT, out_md = OUTF_INIT;
static struct outf out_metrics = OUTF_INIT;

static void drop_outputs(void)
{
	outf_abort(&out_json);
	outf_abort(&out_junit);
	outf_abort(&out_md);
	outf_abort(&out_metrics);
}

/* The documents read and the files written, every one checked before any work. */
static void files_open(const struct compare_opts *o)
{
	atexit(drop_outputs);
	if (!o->baseline_dir)
		bench_input("BASE", o->operands.v[0]);
	bench_input("NEW", o->operands.v[o->baseline_dir ? 0 : 1]);
	if (o->json_path)
		bench_output(&out_json, "--json", o->json_path);
	if (o->junit_path)
		bench_output(&out_junit, "--junit", o->junit_path);
	if (o->markdown_path)
		bench_output(&out_md, "--markdown", o->markdown_path);
	if (o->metrics_path)
		bench_output(&out_metrics, "--metrics", o->metrics_path);
}

/* --github-summary's file, checked before any work: where GitHub Actions says. */
static void summary_open(struct compare_opts *o)
{
	if (o->github_summary && !(o->summary_path = ci_step_summary_path()))
		cli_usage_error(CI_STEP_SUMMARY_UNSET, "--markdown FILE");
}

static void commit(struct outf *o, const char *path, char *text)
{
	char err[1024];

	if (!path)
		return;
	if (!text)
		cli_die(EXIT_FAIL, "out of host memory writing %s", path);
	if (!outf_commit(o, text, strlen(text), err, sizeof(err)))
		cli_die(EXIT_FAIL, "%s", err);
	free(text);
}

/* ---- the baseline ---- */

/* DIR/NAME for NEW, or exit 2 saying which file was looked for and what DIR holds. */
static char *baseline_path(const char *dir, const struct cmp_doc *nw)
{
	char name[512], have[1024] = "";
	char *path;
	DIR *d;
	struct dirent *e;

	cmp_baseline_name(nw, name, sizeof(name));
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		cli_die(EXIT_FAIL, "out of host memory");
	if (access(path, R_OK) == 0)
		return path;
	if (!(d = opendir(dir)))
		cli_usage_error("--baseline %s: %s", dir, strerror(errno));
	while ((e = readdir(d)))
		if (strstr(e->d_name, ".json") && strlen(have) + strlen(e->d_name) + 3 < sizeof(have))
			snprintf(have + strlen(have), sizeof(have) - strlen(have), "%s%s",
				 have[0] ? ", " : "", e->d_name);
	closedir(d);
	cli_die(EXIT_USAGE, "%s: no baseline %s for device '%s' and suite '%s' (%s holds: %s); "
		"copy a results document there under that name to make one", nw->path, path,
		nw->device, nw->name ? nw->name : "results", dir, have[0] ? have : "no .json file");
}

static int compare_main(void *opts)
{
	struct compare_opts *o = opts;
	struct cmp_result c = { .o = &o->rules };
	char *base_path = NULL;

	files_open(o);
	summary_open(o);
	cmp_doc_allow_partial(o->allow_partial);
	cmp_doc_load(&c.new_, o->operands.v[o->baseline_dir ? 0 : 1]);
	if (o->baseline_dir) {
		base_path = baseline_path(o->baseline_dir, &c.new_);
		bench_input("BASE", base_path);
	}
	cmp_doc_load(&c.base, base_path ? base_path : o->operands.v[0]);
	cmp_compare(&c);
	if (!o->quiet)
		cmp_print(&c, stdout);
	if (o->json_path) {
		json_t *j = cmp_json(&c);
		char err[1024];
		if (!res_write_json(&out_json, j, err, sizeof(err)))
			cli_die(EXIT_FAIL, "%s", err);
		json_decref(j);
	}
	commit(&out_junit, o->junit_path, o->junit_path ? cmp_junit(&c) : NULL);
	commit(&out_md, o->markdown_path, o->markdown_path ? cmp_markdown(&c) : NULL);
	commit(&out_metrics, o->metrics_path, o->metrics_path ? cmp_metrics(&c) : NULL);
	if (o->github_annotations)
		cmp_annotate(&c, stdout);
	if (o->summary_path) {
		char *md = cmp_markdown(&c), err[1024];
		if (!md || !ci_step_summary_append(o->summary_path, md, err, sizeof(err)))
			cli_die(EXIT_FAIL, "--github-summary: %s", md ? err : "out of host memory");
		free(md);
	}
	cmp_result_free(&c);
	cmp_doc_free(&c.base);
	cmp_doc_free(&c.new_);
	free(base_path);
	return c.exit_code;
}

const struct bench_tool compare_tool = {
	.cmd = {
		.name = "compare",
		.summary = "compare two results documents: a verdict per point",
		.synopsis =
			"usage: bench compare [options] BASE NEW\n"
			"       bench compare --baseline DIR [options] NEW\n"
			"  Matches the points of two results documents by benchmark and params (less\n"
			"  seed, new every run; spin, calibrated (its times compared where equal); sg_size_compiled,\n"
			"  sg_size_kernel, nv_registers and local_mem_kernel, which are outcomes and are\n"
			"  compared instead) and gives each a\n"
			"  verdict: regressed or improved where an exact two-sided Mann-Whitney U test on\n"
			"  the repetitions is significant (p < alpha, at least 9 repetitions a side;\n"
			"  fewer: inconclusive) and the bootstrap 95 % interval of median(NEW) /\n"
			"  median(BASE) (2000 resamples, fixed seed) lies wholly outside the noise band;\n"
			"  unchanged where the interval lies wholly inside it; inconclusive otherwise,\n"
			"  saying why (an interval wider than the band, or one reaching past its edge).\n"
			"  The band: --noise-for, else (BASE a baseline of several runs: bench baseline)\n"
			"  the larger of --noise-floor and --spread-mult x the point's run-to-run spread,\n"
			"  else the band NEW's suite gives the benchmark, else BASE's, else --noise. Where\n"
			"  the clock probe moved between the documents the same way as the point, the\n"
			"  point is judged in probe units; a probe that moved the other way excuses\n"
			"  nothing. A point measured again (bench suite --confirm) takes the verdict most\n"
			"  of its attempts give, its figures (NEW's median, the ratio, its interval, p)\n"
			"  those of its last attempt, one of the attempts that gave the verdict. The\n"
			"  table: the figures, then the benchmark and its parameters, wrapped to 100\n"
			"  columns; the header says where bands learned per point apply. Failed where\n"
			"  NEW failed, was skipped or lost its\n"
			"  validation; suspect (never unchanged, improved or regressed) where either\n"
			"  side's times are not to be believed: status suspect, clock.agree false, or\n"
			"  a failed clock_check, the note naming the side and why; changed where the\n"
			"  residency, a sub-group size or what the compiler made of the kernel\n"
			"  differs (regressed where it is worse: a new or larger spill, more private\n"
			"  memory, another compiled SIMD width); new and missing for points on one\n"
			"  side only. Documents of different devices or drivers are refused.\n"
			"  --baseline DIR takes BASE from DIR/DEVICE--SUITE.json, DEVICE and SUITE the\n"
			"  device name and the document's suite (or benchmark) in lower case, other\n"
			"  characters as '-'.\n"
			"  Exit: 0 nothing regressed or failed and NEW has no suspect point, 1\n"
			"  something did (a pair suspect on BASE's side alone does not), 2 bad input.\n",
		.opts = compare_cli,
		.opts_size = sizeof(struct compare_opts),
		.check = compare_check,
		.flags = BENCH_OPERANDS,
		.operands_off = offsetof(struct compare_opts, operands),
	},
	.main = compare_main,
};
