/*
 * bench validate: the correctness side of every benchmark as named checks, the OpenCL
 * specification's required answers on misuse, each check run in a process of its own, the
 * expectations of a driver (Mesa's baseline, flakes and skips; the known issues with their
 * reasons) and the views. This header is the wing's face and its one header; the files, from the
 * top down (none calls one above it):
 *
 *   validate.c   the command: options, inputs, selection, the listings, the exit code
 *   run.c        the run: each selected check in turn, re-runs of unexpected results, every
 *                output written as each check ends
 *   child.c      a check in a child process (time limit, crash, the child's own side)
 *   row.c        a check in this process: a row's configuration, or an API check
 *   results.c    the inputs and outputs (host/outfile.h: reserved before any work), the
 *                results folder (results.csv, failures.csv), the next baseline
 *   select.c     caselists, globs, regular expressions, fractions
 *   gtest.c      GoogleTest's names, filter, listing and lines
 *   out.c        the summary table, TAP and JUnit
 *   expect.c     expectations and verdicts
 *   api.c        the misuse checks
 *   profiling.c  the profiling clock: timestamps' order, scaling, the host's witness
 *   plan.c       the plan: the list of checks, the rows' checks
 */
#ifndef BENCH_VALIDATE_H
#define BENCH_VALIDATE_H

#include "tool.h"

#include <regex.h>

#define VAL_MAX_ARGS 32
#define VAL_CHECK_TIMEOUT_DEFAULT 120   /* s: the slowest check on a CPU driver takes a few */
#define VAL_FLAKE_RUNS_DEFAULT 1

/* What a run of a check did: its status in Mesa's words, before any expectation. */
enum val_res {
	VAL_PASS,
	VAL_FAIL,
	VAL_SKIP,           /* the device cannot run it (the reason says why) */
	VAL_CRASH,          /* its process died of a signal */
	VAL_TIMEOUT,        /* its process ran past --check-timeout and was killed */
	VAL_MISSING,        /* no result: its process ended, or hung, before it began the check */
};

/* The verdict once the expectations are applied; its words and weight: expect.c. */
enum val_verdict {
	VAL_V_PASS,
	VAL_V_FAIL,
	VAL_V_CRASH,
	VAL_V_TIMEOUT,
	VAL_V_SKIP,
	VAL_V_KNOWN,            /* an expected failure: a known issue or the baseline names it */
	VAL_V_FIXED,            /* a known issue names it, yet it passed: the entry can go */
	VAL_V_BEYOND_WORKS,     /* beyond the declared capabilities, and it works */
	VAL_V_BEYOND_FAIL,      /* beyond the declared capabilities, and it fails: never a failure */
	VAL_V_UNEXPECTED_PASS,  /* the baseline expects a failure, it passed: UnexpectedImprovement(Pass) */
	VAL_V_IMPROVED_FAIL,    /* the baseline expects a Crash or Timeout, it failed: ...(Fail) */
	VAL_V_IMPROVED_SKIP,    /* the baseline expects a failure, the device skipped it: ...(Skip) */
	VAL_V_FLAKE,            /* an unexpected result that a re-run did not repeat */
	VAL_V_KNOWN_FLAKE,      /* an unexpected result of a check --flakes names */
	VAL_V_MISSING,          /* no result (VAL_MISSING): always unexpected, whatever is expected */
	VAL_V_COUNT
};

struct val_ctx;
struct val_check;
struct val_children;

/* An API check: sets c->res (VAL_PASS, VAL_FAIL or VAL_SKIP) and c->reason. */
typedef void (*val_api_fn)(struct val_ctx *v, struct val_check *c);

/* One known-issues entry (expect.c reads the file; results/known-issues/README.md). */
struct val_known {
	const char *driver, *device, *platform, *check;   /* fnmatch patterns; NULL: any */
	const char *reason, *link;
	bool beyond_works;       /* "expect": "beyond-works": under-declared capabilities */
	unsigned matched;        /* checks it applied to */
};

/* One line of a baseline: a check expected to end with a failing status. */
/* What a baseline line expects (deqp-runner's RunnerStatus::with_baseline, docs/validation.md). */
enum val_base_exp {
	VAL_BASE_FAIL,           /* Fail */
	VAL_BASE_CRASH,          /* Crash */
	VAL_BASE_TIMEOUT,        /* Timeout */
	VAL_BASE_MISSING,        /* Missing: no result; a pass or skip is an improvement */
	VAL_BASE_XFAIL,          /* ExpectedFail (a results.csv): a Fail or Crash */
};

struct val_base {
	char *name;
	enum val_base_exp exp;
	const char *status;      /* its status as written (a static name) */
	unsigned line;
};

/* A file of regular expressions, one a line (--flakes, --skips). */
struct val_regexes {
	const char *path;
	regex_t *re;
	char **src;              /* each expression as written */
	size_t n;
};

/* One named check: a row run on one configuration, or an API check. */
struct val_check {
	char id[160];            /* vecadd/v3/wg=64/sg=16 */
	char suite[32];          /* its JUnit testsuite: the benchmark, or "api" */
	char desc[1024];         /* what it checks; an API check quotes the specification */
	bool beyond;             /* outside what the device declares: reported apart */
	/* a row's configuration: argv after the row's name (the harness adds the shared ones) */
	const struct bench_row *row;
	char args[256];
	unsigned retries;        /* runs again on a failed check of a measurement (residency) */
	/* or an API check */
	val_api_fn api;
	unsigned api_arg;
	/* the outcome of its run (the first, where a re-run did not repeat it) */
	bool collected;          /* a row's points came back through the harness */
	enum val_res res;
	char reason[2048];       /* why it failed or was skipped; a note on a pass */
	json_t *params;          /* the failing (or first) point's params, NULL for API checks */
	double secs;             /* wall time of the run, its process included */
	/* the verdict */
	bool done;               /* it ran (or was skipped) to the end */
	enum val_verdict verdict;
	const struct val_known *known;   /* the known issue that names it */
	const struct val_base *base;     /* the baseline line that names it */
	const char *flake_re;    /* the --flakes expression that names it */
	const char *skip_re;     /* the --skips expression that names it */
	unsigned runs;           /* runs taken, re-runs included */
};

/* The options, as parsed (validate.c's table). */
struct val_opts {
	const char *device, *junit, *known, *filter, *exclude, *kernels;
	const char *caselist, *baseline, *flakes, *skips, *results_dir, *write_baseline;
	const char *require_driver, *gtest_filter, *gtest_output, *run_check;
	const char *metrics;     /* --metrics FILE: GitLab's metrics report */
	bool github_annotations, github_summary;
	const char **include_re, **exclude_re;
	size_t n_include_re, n_exclude_re, cap_include_re, cap_exclude_re;
	unsigned check_timeout, flake_runs, fraction, fraction_start, checks_per_process;
	bool tap, list, verbose, quiet, in_process, gtest_list, gtest_disabled;
	bool gtest;              /* GoogleTest's lines on stdout: a --gtest_ option was given */
};

/* The run: the device, its context for the API checks, the checks, the expectations. */
struct val_ctx {
	const struct val_opts *o;
	const struct dev_info *dev;
	struct prog_ctx pc;      /* created at the first API check run in this process */
	bool have_pc;
	const char *kernels_dir;
	struct val_check *c;
	size_t n, cap;
	size_t planned;          /* checks planned for the device, before selection */
	struct val_known *known;
	size_t n_known;
	json_t *known_doc;       /* owns the strings of known[] */
	struct val_base *base;
	size_t n_base, cap_base;
	struct val_regexes flakes, skips;
	char identity[640];      /* platform, driver and device, for every output */
	int interrupted;         /* the signal that stopped the run (0: none) */
	struct val_children *children;   /* the parent's workers (child.c) */
	bool write_failed;       /* an output could not be written: exit 1 */
};

/* ---- plan.c ---- */
/* Appends a check; fmt makes its id. */
struct val_check *val_add(struct val_ctx *v, const char *suite, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * An API or profiling check's outcome: passed or failed, with a printf reason; true for a pass,
 * false for a failure, for a check to return.
 */
bool val_pass(struct val_check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool val_fail(struct val_check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Plans every row's checks for the device (each row's own). */
void val_plan_rows(struct val_ctx *v);

/* ---- api.c ---- */
/* Adds the misuse checks, each citing the specification's words. */
void val_plan_api(struct val_ctx *v);

/* ---- profiling.c ---- */
/* Adds the profiling chapter: the driver's clock against the specification and the host's. */
void val_plan_profiling(struct val_ctx *v);

/* ---- expect.c ---- */
/*
 * Reads a known-issues file: a path, or a name of the known-issues folder bench carries
 * ("nvidia"); exits 2 naming the file and the member at fault, or the names there are.
 */
void val_known_load(struct val_ctx *v, const char *spec);
/*
 * What --known-issues names: a file (any path that exists, or has a '/'), else a name of the
 * known-issues folder bench carries (paths.h: installed, or the source's results/known-issues):
 * NAME or NAME.json there, written into buf. A name found nowhere exits 2 listing the names
 * there are.
 */
const char *val_known_path(const char *spec, char *buf, size_t len);
/* Reads a baseline (Mesa's NAME,STATUS lines); exits 2 naming the file, line and value. */
void val_base_load(struct val_ctx *v, const char *path);
/*
 * A file of lines (--baseline, --flakes, --skips, --caselist) opened for reading; exit 2
 * "--OPT PATH: cannot read: why". Its lines come from val_line_next.
 */
FILE *val_lines_open(const char *opt, const char *path);
/*
 * The next line of f (counted in *line) without its end and surrounding blanks; NULL at the
 * end. A line holding a NUL byte (not a text file) and a failed read exit 2 naming the line.
 */
char *val_line_next(FILE *f, const char *opt, const char *path, char **buf, size_t *cap,
		    unsigned *line);
/* Reads a file of regular expressions, one a line, '#' comments; exits 2 naming a bad one. */
void val_regexes_load(struct val_regexes *r, const char *opt, const char *path);
/* The first expression of r that matches s (NULL: none). */
const char *val_regexes_match(const struct val_regexes *r, const char *s);
void val_expect_free(struct val_ctx *v);
/* Sets c's expectations (known issue, baseline line, flake and skip expressions). */
void val_expect_find(struct val_ctx *v, struct val_check *c);
/* c's verdict from its run's status and its expectations (flakes aside). */
enum val_verdict val_judge(const struct val_check *c);
/* Whether a verdict fails the run (exit 1): Fail, Crash, Timeout, UnexpectedImprovement(...). */
bool val_unexpected(enum val_verdict v);
/* deqp-runner's status names, in the order the summary and the metrics count them. */
#define VAL_N_STATUSES 12
extern const char *const val_statuses[VAL_N_STATUSES];
/* How many finished checks have each of val_statuses (out.c). */
void val_status_counts(const struct val_ctx *v, unsigned n[VAL_N_STATUSES]);
/* The summary table's word ("pass", "FAIL", "known", ...). */
const char *val_verdict_word(enum val_verdict v);
/* Mesa's status of a check's verdict (Pass, Fail, ExpectedFail, ...). */
const char *val_mesa_status(const struct val_check *c);
/* Mesa's name of a run's status (Pass, Fail, Skip, Crash, Timeout). */
const char *val_res_name(enum val_res r);
/* Whether a known-issues entry's device patterns match the device. */
bool val_known_for_device(const struct val_known *k, const struct dev_info *d);

/* ---- select.c ---- */
/* Keeps the checks the selection options name, in order (exit 2 where none is left). */
void val_select(struct val_ctx *v, const struct val_opts *o);
/* Keeps the checks of one shard: --fraction N --fraction-start K. */
void val_fraction(struct val_ctx *v, unsigned n, unsigned k);

/* ---- out.c ---- */
void val_print_table(const struct val_ctx *v, FILE *f);
/* The few lines after the table: counts in Mesa's words, the unexpected results, slowest. */
void val_print_summary(const struct val_ctx *v, FILE *f);
/* TAP version 13: the plan and identity, then one line per check as it ends. */
void val_tap_begin(const struct val_ctx *v, size_t n, FILE *f);
void val_tap_check(const struct val_ctx *v, const struct val_check *c, size_t i, FILE *f);
/* Writes text to the output reserved for --opt (host/outfile.h); false with a message naming it. */
bool val_commit(const char *opt, struct outf *o, const char *text, size_t len, char *err,
		size_t errlen);
/* Writes JUnit XML of the checks that ended to o, reserved for --opt; false with a message. */
bool val_write_junit(const struct val_ctx *v, const char *opt, struct outf *o, char *err,
		     size_t len);
/* A note on one line: the reason, the known issue, the expectation. */
void val_note(const struct val_check *c, char *buf, size_t len);

/* ---- results.c ---- */
/*
 * The one rule of inputs and outputs (host/outfile.h), before any work: registers the input
 * files (--known-issues, --baseline, --flakes, --skips, --caselist), then, unless nothing
 * will be written (a listing), makes the --results-dir folder (as mkdir -p) and reserves every
 * output (--junit, --gtest_output, --write-baseline, results.csv and failures.csv): exit 2
 * naming the option, the path and why (an input, another output, a folder, ...).
 */
void val_outputs_open(const struct val_opts *o);
/* Rewrites results.csv and failures.csv of --results-dir with the checks that ended. */
bool val_results_write(const struct val_ctx *v, bool last, char *err, size_t len);
/* Writes --write-baseline: the run's failures as NAME,STATUS lines. */
bool val_baseline_write(const struct val_ctx *v, char *err, size_t len);
/* Writes --junit and --gtest_output's XML: the checks that ended. */
bool val_junit_write(const struct val_ctx *v, char *err, size_t len);
/* Drops the outputs not written (an interrupted run's --write-baseline). */
void val_outputs_drop(void);

/* ---- channels.c: CI systems' own (host/ci.h) ---- */
/* Reserves --metrics and checks --github-summary's file, before any work (exit 2). */
void val_channels_open(const struct val_opts *o);
/* GitHub's annotations on stdout, its step summary, GitLab's metrics; false with err. */
bool val_channels_write(const struct val_ctx *v, char *err, size_t len);

/* ---- gtest.c ---- */
/* GoogleTest's SUITE.TEST of a check id (reversible: docs/validation.md). */
void val_gtest_name(const char *id, char *buf, size_t len);
/* The check id of a GoogleTest name; false where it is not one of ours. */
bool val_gtest_id(const char *name, char *buf, size_t len);
/* Whether a GoogleTest name passes --gtest_filter=POSITIVE[-NEGATIVE]. */
bool val_gtest_filter(const char *filter, const char *name);
/* The file of --gtest_output=xml[:PATH] (buf; a folder PATH/ gets validate.xml); NULL: not xml. */
const char *val_gtest_xml_path(const char *spec, char *buf, size_t len);
/* --gtest_list_tests: each suite on a line ending in '.', its tests indented. */
void val_gtest_list(const struct val_ctx *v, FILE *f);
/* GoogleTest's lines: the header, [ RUN ] and its end for each check, the totals. */
void val_gtest_begin(const struct val_ctx *v, FILE *f);
void val_gtest_run(const struct val_ctx *v, size_t i, FILE *f);
void val_gtest_end(const struct val_ctx *v, size_t i, FILE *f);
void val_gtest_finish(const struct val_ctx *v, FILE *f);

/* ---- row.c ---- */
/*
 * Runs check c in this process: a row's configuration through the harness (its retries
 * included) or an API check. Returns 0, or 128 + the signal that interrupted a row.
 */
int val_row_run(struct val_ctx *v, struct val_check *c);
/* The run's messages were captured: whether they go to the child's log as they come. */
void val_row_child_mode(void);
/* Releases the context the API checks used. */
void val_row_done(struct val_ctx *v);

/* ---- child.c ---- */
/*
 * Runs check c in a child process (this program again, with the hidden --run-check) in its
 * own process group, within timeout_s: a crash is VAL_CRASH, a hang VAL_TIMEOUT (the group
 * killed). Returns 0, or the signal (SIGINT, SIGTERM) that stopped it.
 */
int val_child_run(struct val_ctx *v, struct val_check *c, unsigned timeout_s);
/* The worker's side: runs the checks named on stdin, a result line each on descriptor 3. */
int val_child_main(struct val_ctx *v, const char *parent);
/* Ends the worker and frees what val_child_run keeps across checks. */
void val_child_done(struct val_ctx *v);
/* Blocks SIGINT, SIGTERM and SIGCHLD before any driver thread exists (the parent's waits). */
void val_child_block_signals(void);
/* A signal taken while no child ran (0: none). */
int val_child_pending_signal(void);

/* ---- run.c ---- */
/* Runs the selected checks and writes the outputs as each ends; 0 or the signal that stopped it. */
int val_run(struct val_ctx *v);

#endif
