/*
 * What a tool is and what it may call: the face of the harness for the commands that
 * work on rows and their results (bench/tools/: suite, validate, compile, compare, ...).
 * A tool has a main function of its own; the harness parses its options, and a tool that
 * runs rows opens a session and runs parsed jobs in it.
 */
#ifndef BENCH_TOOL_H
#define BENCH_TOOL_H

#include "row.h"

/* A device's name in a document of several: "NAME (PLATFORM)", then " #2" for a second root
 * device of that name and platform, ", sub-device K (SPEC)" for a sub-device. */
#define BENCH_LABEL_LEN 400

/* Timed launches at most when --min-time or --ci-width adapt and --max-reps is not given. */
#define BENCH_MAX_REPS_DEFAULT 1000

/*
 * Option rows that the shared options and the tools share, each at an offset into the
 * options struct that holds it: one wording for one option everywhere.
 */
#define BENCH_OPT_KERNELS(off) { "kernels", "DIR", CLI_STR, (off), \
	.help = "load kernel sources from DIR instead of the built-in copies" }
#define BENCH_OPT_JSON(off) { "json", "FILE", CLI_STR, (off), \
	.help = "write the results document (results/README.md)" }
#define BENCH_OPT_CSV(off) { "csv", "FILE", CLI_STR, (off), .help = "write one CSV row per point" }
#define BENCH_OPT_QUIET(off) { "quiet", NULL, CLI_FLAG, (off), .help = "print no table" }

/* A device of a set, for a tool that runs one process per device: its --device spec
 * ("P:D", platform and device index) and its label. */
struct bench_device_ref {
	char spec[32];
	char label[BENCH_LABEL_LEN];
};

/*
 * The devices co's --device names (all, gpu, cpu, a list, or one), held to --require-device
 * (exit 2 for a bad spec, 77 where there is none); at most max, into out. --sub-devices and
 * --concurrent are refused (they are a benchmark's run on several devices).
 */
size_t bench_device_refs(const struct common_opts *co, struct bench_device_ref *out, size_t max);

/*
 * A tool on every device of a set, one process each (harness/fleet.c): where co's --device
 * names a set (all, gpu, cpu or a list) holding one device, co->device becomes that device's
 * spec and false is returned (the tool runs in this process); with several, runs this command
 * again once per device, all at once, each as `--device P:D DIR_OPT OUT/device-P.D` (and
 * f->extra's options, their values files in that folder), its output in OUT/device-P.D.log,
 * prints how each ended and one line for all, and returns true with *rc the worst exit code (a
 * signal's, 2, 1, 77, then 0). Refuses (exit 2) several devices without OUT, or where
 * f->refuse (an output that is one device's: f->needs says which). Before any process starts,
 * every path is checked on the one rule of outputs (host/outfile.h): f->input and the
 * --kernels sources are inputs, OUT and each device's folder are made as mkdir -p, each log
 * is reserved and appears whole once its process ended. Not a set: false, nothing done.
 */
struct bench_fleet {
	const char *tool;                /* "suite" */
	const char *dir_opt;             /* the option naming each device's folder: "-o" */
	const char *const *per_device;   /* options dropped from the command line (NULL-ended) */
	const char *const *extra;        /* pairs added per device: option, file in its folder */
	const char *input_what, *input;  /* an input of the command ("the suite"), or NULL */
	bool refuse;                     /* an output given that is one device's */
	const char *needs;               /* what to give instead: "give -o DIR; --json ..." */
	const char *summary_has;         /* the log's line printed: the last holding it (NULL: last) */
};
bool bench_fleet_run(const struct bench_fleet *f, struct common_opts *co, const char *out_dir,
		     int *rc);

/* One tool: a row of the table in bench/main.c. */
struct bench_tool {
	struct bench_cmd cmd;
	int (*main)(void *opts);             /* the exit code */
};

/*
 * The shared options as parsed, with which were given: where a tool's options embed them
 * (a tool with BENCH_DEVICE, such as bench suite, at cmd.shared_off).
 */
struct bench_shared {
	struct common_opts co;
	bool given[CLI_MAX_OPTS];     /* per option of the shared table */
	bool sg_given[CLI_MAX_OPTS];  /* per option of the --sg-backend table */
};

/* A command's arguments parsed and checked, ready to run (a row's run; a suite's entries). */
struct bench_job {
	const struct bench_cmd *cmd;
	const struct bench_row *row; /* the row it runs (NULL: a tool) */
	int argc;                    /* what was parsed (a run on several devices parses it again */
	char **argv;                 /* for each device: a run may change its options) */
	void *opts;                  /* its options (opts_size bytes) */
	struct bench_shared own;     /* the shared options, where its options do not embed them */
	struct bench_shared *shared; /* &own, or inside opts (shared_off) */
	struct cli_operands *operands;
	bool given[CLI_MAX_OPTS];    /* per option of its own table */
};

/*
 * What stays open across the runs of one process (one row, or every entry of a suite):
 * the device, its context and queue, the model of the device, the time origin.
 */
struct bench_session {
	const struct common_opts *co;   /* its --device, --require-device, --kernels */
	struct dev_list devs;
	const struct dev_info *dev;
	struct prog_ctx pc;
	struct occ_live model;
	/* the zero of every point's start_ns: the first timed launch's device start, and the
	 * host's UTC time (ns since 1970) just before it was enqueued */
	bool have_origin;
	uint64_t origin_dev_ns;
	int64_t origin_unix_ns;
	double open_ns;                 /* host time opening it took (the first run's phases_s) */
	struct harness_own *own;        /* the harness's own kernels (flush, clock probe), or NULL */
	struct harness_roof_prog *roof; /* the memory roof's kernels (roof.c), or NULL */
	struct harness_witness *witness;/* the check of the driver's profiling clock, or NULL */
	/*
	 * Writes what was measured when the process must end at once (a second signal, a point
	 * past --timeout): r is the run in flight, its points added to its document (NULL:
	 * none). Returns an exit code. Set by whoever opens the session.
	 */
	int (*write_now)(struct bench_session *s, struct bench_run *r);
	void *owner;                    /* for write_now */
	const char *label;              /* the device's name in a document of several (NULL: one) */
	const struct bench_peers *peers;/* a BENCH_PEERS run's devices (NULL: others) */
	bool concurrent;                /* a --concurrent run: points say whether they ran alone */
};

/* ---- parsing (harness/job.c) ---- */

/*
 * Parses argv (argv[0] the command's name) into j: exits 2 naming a bad option or value,
 * 0 after --help. row: the row it runs, NULL for a tool.
 */
void bench_job_parse(struct bench_job *j, const struct bench_cmd *cmd, const struct bench_row *row,
		     int argc, char **argv);
void bench_job_free(struct bench_job *j);
/* Whether shared option `name` (without dashes) was given. */
bool bench_shared_given(const struct bench_shared *s, const char *name);
/*
 * Copies into `to` every shared option given in `from` that a row's run reads (not
 * --device, --require-device, --kernels, --json, --csv, which belong to the session and
 * its outputs), and checks the result (exit 2).
 */
void bench_shared_override(struct bench_shared *to, const struct bench_shared *from, bool sg);
/* Prints a command's usage: synopsis, its options, then the shared ones. */
void bench_usage(const struct bench_cmd *cmd, FILE *f);
/*
 * The tables of options that a command's usage lists after its own, as the command sees them
 * (the defaults that are its own filled in): fn(table, group, arg) for the sub-group options
 * ("sub-groups") where it has them, then the shared ones ("shared"), or a tool's ("tools":
 * --timeout) for a command that opens no device of its own.
 */
void bench_usage_shared(const struct bench_cmd *cmd,
			void (*fn)(const struct cli_opt *opts, const char *group, void *arg), void *arg);

/* ---- running (harness/dispatch.c, session.c, run.c) ---- */

/* Runs a row: parses argv (argv[0] is the command), then the point loop on its devices. */
int bench_row_main(const struct bench_row *row, int argc, char **argv);
/* Runs a tool: parses argv, then its main. */
int bench_tool_main(const struct bench_tool *tool, int argc, char **argv);

/*
 * Lists the devices and picks the one spec names (NULL: the default one). The one rule of
 * exit codes: no OpenCL platform or device at all is 77 (nothing to run on); a spec that
 * names none, several or is empty is 2, the message listing the devices.
 */
const struct dev_info *bench_device(struct dev_list *l, const char *spec);
/*
 * Opens the session for co: blocks SIGINT and SIGTERM and starts the watchdog (before
 * any driver thread exists), selects the device (exit 2 naming a bad --device, 77 where
 * --require-device finds none), creates the context and queue, resolves the model. A
 * session runs on one device: a spec of several is refused (exit 2).
 */
void bench_session_open(struct bench_session *s, const struct common_opts *co);
void bench_session_close(struct bench_session *s);
/*
 * One run of a parsed row in an open session: plan, the point loop, the views. *doc
 * receives the results document (the caller's to write and free). Returns the exit code
 * (1: a point failed or report() said so; 128 + signal: interrupted, with the points
 * completed in *doc).
 */
int bench_run_job(struct bench_session *s, struct bench_job *j, json_t **doc);
/*
 * The same for a row across the devices of one context (BENCH_PEERS) in a session of one
 * device (a suite's entry): the session's device partitioned (the entry's --sub-devices, or
 * the NUMA domains it offers: a GPU's stacks in COMPOSITE mode), else every device of its
 * platform and type (the stacks in FLAT mode), in a context of their own; the document's
 * `devices` lists them. With fewer than two the row's plan skips the run (exit 77).
 */
int bench_run_job_peers(struct bench_session *s, struct bench_job *j, json_t **doc);

/*
 * Validate-only runs (--validate-only, bench validate): each point runs its set-up, one
 * launch and its validation; the harness times nothing, measures no ceiling and runs the
 * model only for a point that measured on its own (the residency probe, whose check is
 * the model); --reps is 1 and --warmup 0 unless given, so a point that times on its own
 * launches once (the residency probe asks for more: its peak is a measurement).
 *
 * A hook, when set, sees every run once its points and report are done, before teardown:
 * the points (status, reason, params) and the report's exit code.
 */
typedef void (*bench_run_hook)(const struct bench_run *r, int report_rc, void *arg);
void bench_set_run_hook(bench_run_hook fn, void *arg);
/*
 * Calibrated values from another run (bench suite --baseline, --calibration): a row that
 * calibrates members of a point's params (occupancy's spin and launch size) asks
 * bench_calibrated (row.h) for the reference's values, so that the two runs' times measure
 * the same work. fn gets the benchmark, the point's params less those members and less any
 * not yet known (null), and the members' names; it returns a new object holding every name,
 * or NULL where the reference has no such point. NULL fn: no reference.
 */
typedef json_t *(*bench_calib_fn)(const char *bench, json_t *params, const char *const *names,
				  void *arg);
void bench_set_calibration(bench_calib_fn fn, void *arg);
/* A point's params: the row's own, and "cache": "cold" with --cache cold. */
json_t *harness_params_json(const struct bench_run *r, const struct bench_point *pt);

/* ---- outputs (harness/outputs.c) ---- */

/*
 * Reserves --json/--csv of o before any work (exit 2 naming a path that cannot be
 * written, or the same file twice); an early exit removes them.
 */
void bench_outputs_open(const struct common_opts *o);
/* Stamps doc's end_timestamp and writes it to the reserved files; 0, or 1 with a message. */
int bench_outputs_write(const struct common_opts *o, json_t *doc);
/* Removes the reserved output files (an exit before they are written). */
void bench_outputs_drop(void);
/*
 * The one rule of outputs for a tool's own files (outfile.h): registers an input of the
 * command before any work (what names it: "BASE", "the suite"), exit 2 where it cannot be
 * read or is one of the outputs; reserves the output opt names ("--json"), exit 2 naming the
 * option, the path and why (a folder, an input of the command, another output). Every
 * output and input is checked before the command does any work.
 */
void bench_input(const char *what, const char *path);
/*
 * --kernels DIR before any device opens: a readable folder (exit 2 with the system's reason:
 * missing, not a folder, a loop of links), its kernel sources inputs of the command.
 */
void bench_check_kernels(const char *dir);
void bench_output(struct outf *o, const char *opt, const char *path);

/* ---- documents of several runs (harness/views.c) ---- */

/*
 * One run's record in a document of several runs (a suite's entries, a run per device):
 * first_point, points (how many), and every member of the run's document doc not named in
 * shared (NULL-ended), which the whole document holds once.
 */
void harness_run_members(json_t *r, json_t *doc, size_t first, const char *const *shared);
/* The document's time_origin: what the points' start_ns count from (null: no timed launch). */
json_t *harness_origin_json(const struct bench_session *s);

/* ---- signals (harness/watch.c) ---- */

/* The first signal taken (0: none), its name and exit code (128 + signal). */
int watch_signal(void);
const char *watch_sig_name(int sig);
int watch_exit_code(int sig);
/*
 * Claims the writing of the outputs for the main thread (again, while it holds it: true);
 * where the watchdog has it (it writes and ends the process) the main thread waits for that.
 */
bool watch_claim_finish(void);
/*
 * A tool's --timeout (every tool without a run's own: compare, export, report, validate, ...):
 * arms the clock for seconds (0: the seconds armed before, or none) and names what runs now
 * (NULL: the command; bench validate: each check, the clock started again for it). Past it,
 * the process ends with exit 1 saying so, its reserved outputs removed.
 */
void watch_deadline_arm(unsigned seconds, const char *what);
/* The seconds of the tool's --timeout (0: none), for a tool that hands over to another program. */
unsigned watch_deadline_seconds(void);
/*
 * Gives the claim back before the next run of a session; false (the claim kept) where a
 * signal came: the caller writes what it has and stops.
 */
bool watch_release_finish(void);

/* ---- the harness's own builds (harness/ceiling.c) ---- */

/* The ceiling's stream_copy build and the harness's other kernels, for bench compile. */
void bench_ceiling_builds(struct bench_builds *b);

#endif
