/*
 * What a measurement row is and what it may call: the public face of the harness for
 * the files of bench/measure/. A row says how to plan its points and how to set up,
 * launch and check one point; the harness (bench/harness/) owns the command line, the
 * session, the point loop, the timing, the ceiling, the model and every view. Nothing
 * of the session or of the harness's own state is visible here: a row sees its run
 * (struct bench_run), its points and the helpers below.
 */
#ifndef BENCH_ROW_H
#define BENCH_ROW_H

#include "cli.h"
#include "dev.h"
#include "mem.h"
#include "occ_point.h"
#include "prog.h"
#include "results.h"
#include "sgb.h"
#include "stats.h"
#include "table.h"
#include "timing.h"

struct bench_run;
struct bench_point;
struct bench_builds;
struct bench_session;   /* the harness's: what one process keeps open across its runs */
struct harness_run;     /* the harness's own state of a run */

/* The most devices (or sub-devices) one run measures on. */
#define BENCH_MAX_DEVICES 16

/* What a command needs from the harness (struct bench_cmd's flags). */
enum bench_flags {
	BENCH_DEVICE = 1 << 0,   /* runs kernels: the shared options, a session and the point loop */
	BENCH_SG = 1 << 1,       /* runs sub-group code: takes --sg-backend and --grf */
	BENCH_OPERANDS = 1 << 2, /* takes operands: a struct cli_operands at operands_off in its options */
	BENCH_PEERS = 1 << 3,    /* runs on two or more devices of one context (r->peers) */
	BENCH_COLD = 1 << 4,     /* on a GPU, timed launches start from an evicted cache unless
				  * --cache warm (the L2 holds a varying share of a working set
				  * near its size from one launch to the next) */
	BENCH_SG_NATIVE = 1 << 5,/* without --sg-backend its kernels use the driver's own
				  * sub-groups, or none (BENCH_SG rows otherwise take the first
				  * backend the device runs) */
};

/* What every command has, measurement row or tool: its name, its words and its options. */
struct bench_cmd {
	const char *name;
	const char *summary;                 /* one line, for `bench list` */
	const char *synopsis;                /* the usage text above the options */
	unsigned flags;                      /* enum bench_flags */
	const struct cli_opt *opts;          /* its own options (offsets into its options struct) */
	size_t opts_size;                    /* sizeof its options struct */
	void (*defaults)(void *opts);        /* before parsing (the struct starts zeroed) */
	/* after parsing, before any device: defaults that depend on what was given, checks (exit 2) */
	void (*check)(void *opts, const struct cli_set *given);
	size_t operands_off;                 /* BENCH_OPERANDS: where its operands go */
	size_t shared_off;                   /* a tool with BENCH_DEVICE: its struct bench_shared */
};

/* Options shared by every command that runs kernels. */
struct common_opts {
	const char *device;      /* --device or BENCH_DEVICE */
	unsigned reps;           /* --reps: timed launches per point (the least, when adapting) */
	unsigned warmup;         /* --warmup: untimed launches first */
	const char *json_path;   /* --json FILE */
	const char *csv_path;    /* --csv FILE */
	const char *kernels_dir; /* --kernels DIR */
	bool quiet;              /* --quiet: no table */
	unsigned timeout_s;      /* --timeout: a point running longer ends the run, 0: never */
	unsigned noisy_cv;       /* --noisy-cv: CV % above which a point is flagged noisy */
	const char *sg_backend;  /* --sg-backend (benchmarks with BENCH_SG), checked at parse */
	bool validate_only;      /* --validate-only: one validated launch per point, nothing timed */
	const char *require;     /* --require-device gpu|cpu|NAME: exit 77 where there is none */
	double min_time_s;       /* --min-time: launch until the timed launches took this long (0: off) */
	double ci_width_pct;     /* --ci-width: launch until the median's 95 % interval is within
				  * +-PCT % of it (0: off) */
	unsigned max_reps;       /* --max-reps: the most timed launches when adapting (0: default) */
	unsigned grf;            /* --grf (BENCH_SG): 0 small, 1 large (Intel GPUs) */
	unsigned cache;          /* --cache: enum bench_cache */
	uint64_t llc;            /* --llc: the last-level cache's bytes, 0: the device's figure */
	const char *sub_devices; /* --sub-devices: partition each device, run on every part */
	struct dev_part part;    /* --sub-devices parsed (kind DEV_PART_NONE: not given) */
	bool concurrent;         /* --concurrent: the devices alone, then all at once */
};

/* The cache state each timed launch starts from (--cache). */
enum bench_cache {
	BENCH_CACHE_ROW,   /* not given: cold on a GPU for rows with BENCH_COLD, else warm */
	BENCH_CACHE_WARM,  /* as the launch before left it */
	BENCH_CACHE_COLD,  /* evicted first: cache_flush.cl reads bench_flush_bytes */
};

/*
 * The devices of one OpenCL context a BENCH_PEERS row measures across (bench locality):
 * pc[i] is device i's queue in the shared context (pc[0] is the run's own r->pc), label[i]
 * its name in the document. Where there is no second device the row gets the first alone,
 * and why (its plan skips the run, bench_run_skip).
 */
struct bench_peers {
	size_t n;
	struct prog_ctx pc[BENCH_MAX_DEVICES];
	const char *label[BENCH_MAX_DEVICES];
	const char *alone;       /* n == 1: why there is no second device (the row skips), else NULL */
};

/* One column of a row's text table: a heading and how to draw a point's cell. */
struct bench_col {
	const char *head;
	void (*cell)(const struct bench_run *r, const struct bench_point *pt, char *buf, size_t len);
};

/*
 * A point's parameters (`params` in the results document) are described once, in the row's
 * table of struct bench_param: each member's name, JSON type, unit, help and where the row's
 * typed parameters (struct bench_point.params) hold it. The harness writes every point's
 * params from the table (harness/views.c); `bench list --json` prints it; tests hold the
 * schema's params_NAME, the CSV columns and the docs' tables (results/README.md) to it.
 */
enum bench_ptype {
	BENCH_PT_COUNT,          /* an integer >= 0 */
	BENCH_PT_COUNT0,         /* an integer >= 0, or null where the field is 0 */
	BENCH_PT_INT,            /* an integer */
	BENCH_PT_BOOL,           /* true or false */
	BENCH_PT_BOOL0,          /* true, false or null (.value alone) */
	BENCH_PT_STR,            /* a string */
	BENCH_PT_STR0,           /* a string, or null where the field is NULL */
	BENCH_PT_NAME,           /* one of .names, the field its index (an enum, a bool) */
	BENCH_PT_NAME0,          /* one of .names, or null (.value alone) */
	BENCH_PT_COUNTS,         /* an array of integers >= 0 (.value alone) */
};

/* The C type of the field a member is read from (BENCH_AT); NONE: .value computes it. */
enum bench_ctype {
	BENCH_C_NONE, BENCH_C_UINT, BENCH_C_INT, BENCH_C_U64, BENCH_C_BOOL, BENCH_C_STR,
	BENCH_C_SGB,             /* a struct sgb_choice: the sub-group layer's four members */
	BENCH_C_SGB_PTR,         /* a const struct sgb_choice *, NULL: the four absent */
};
#define BENCH_CTYPE(p) _Generic((p), unsigned *: BENCH_C_UINT, int *: BENCH_C_INT,            \
	unsigned long *: BENCH_C_U64, unsigned long long *: BENCH_C_U64, bool *: BENCH_C_BOOL,  \
	const char **: BENCH_C_STR, struct sgb_choice *: BENCH_C_SGB,                          \
	const struct sgb_choice **: BENCH_C_SGB_PTR)
/* The names of a BENCH_PT_NAME member: an array of known size. */
#define BENCH_NAMES(a) .names = (a), .n_names = sizeof(a) / sizeof((a)[0])
/* Where a member is read from: field m of the row's parameters struct st. */
#define BENCH_AT(st, m) .off = offsetof(st, m), .ctype = BENCH_CTYPE(&((st *)0)->m)

struct bench_param {
	const char *name;
	bool optional;           /* only some points have it (false: every point) */
	enum bench_ptype type;
	const char *unit;        /* "bytes", "work-items" (NULL: none) */
	const char *help;        /* what it is, for the docs' tables */
	size_t off;              /* BENCH_AT: the field, and its C type */
	enum bench_ctype ctype;
	const char *const *names;/* BENCH_PT_NAME: the names by index (BENCH_NAMES) */
	size_t n_names;
	/* a member computed from the point (ctype NONE): a new reference, NULL where absent */
	json_t *(*value)(const struct bench_run *r, const struct bench_point *pt);
	bool in_group;           /* written with the entry before it (the sub-group layer's) */
};

/*
 * The four members sgb_params writes of a sub-group layer (host/sgb.h), from field m of st
 * (a struct sgb_choice, or a pointer to one: NULL writes none).
 */
#define BENCH_PARAMS_SG_LAYER(opt, st, m)                                                         \
	{ .name = "sg_backend", .optional = (opt), .type = BENCH_PT_STR, BENCH_AT(st, m),          \
	  .help = "the sub-group layer the kernel read its sub-group through (--sg-backend)" },   \
	{ .name = "sg_width", .optional = (opt), .type = BENCH_PT_COUNT0, .in_group = true,        \
	  .unit = "work-items", .help = "the layer's width (null: the driver chooses)" },         \
	{ .name = "sg_width_source", .optional = (opt), .type = BENCH_PT_STR, .in_group = true,    \
	  .help = "where that width comes from" },                                                 \
	{ .name = "sg_size_required", .optional = (opt), .type = BENCH_PT_COUNT0, .in_group = true,\
	  .unit = "work-items", .help = "the size required with intel_reqd_sub_group_size (null: none)" }

/* One check of bench validate: a configuration of a row, run with --validate-only. */
struct bench_check {
	char id[160];            /* vecadd/v3/wg=64/sg=16 */
	char args[256];          /* the row's arguments (the harness adds --device and the rest) */
	char desc[1024];         /* what it checks */
	unsigned retries;        /* runs again on a failed check of a measurement (residency) */
	bool beyond;             /* outside what the device declares: reported apart */
};

/* The plan a row's checks are added to (bench validate hands it down). */
struct bench_check_plan {
	const struct dev_info *dev;           /* the device the checks are for */
	void (*add)(struct bench_check_plan *p, const struct bench_check *c);
	void *arg;                            /* the caller's */
};
/* Adds a check to the plan. */
void bench_check_add(struct bench_check_plan *p, const struct bench_check *c);

/*
 * One measurement: a row of the table in bench/measure/rows.c. It gives plan (device
 * checks, builds, buffers; returns the number of points), point (sets the typed
 * parameters, sets up, launches once and validates, then says what to time, its counts
 * and the model's inputs), its params table (the document's params), the views (cols), its checks for
 * bench validate and the builds bench compile compiles; the harness does the rest.
 */
struct bench_row {
	struct bench_cmd cmd;
	/* the benchmark its documents name (NULL: the row's name); see bench/measure/vecadd/stream.c */
	const char *benchmark;
	size_t params_size;                  /* sizeof its typed point parameters */
	size_t (*plan)(struct bench_run *r);
	void (*label)(const struct bench_run *r, size_t i, char *buf, size_t len); /* progress */
	void (*point)(struct bench_run *r, struct bench_point *pt);
	const struct bench_param *params;    /* a NULL-named entry ends it */
	const struct bench_col *cols;        /* a NULL-headed entry ends it */
	/* point i is drawn in the table row of point i - 1 (NULL: one row per point) */
	bool (*joins_row)(const struct bench_run *r, size_t i);
	void (*title)(const struct bench_run *r, FILE *f);  /* lines above the table */
	void (*relate)(struct bench_run *r); /* after every point: figures across points */
	int (*report)(struct bench_run *r);  /* after the table: summaries, checks; exit code */
	void (*teardown)(struct bench_run *r);
	/*
	 * The programs plan would build on a device, with its default options and --sg asked,
	 * made by the same code (bench compile, bench model --kernel): bench_builds_add each.
	 */
	void (*builds)(struct bench_builds *b);
	/* Its configurations for bench validate on the plan's device: bench_check_add each. */
	void (*checks)(struct bench_check_plan *p);
};

/*
 * A point's outcome. SUSPECT: measured and validated, but its times are not to be believed:
 * the driver's profiling clock and the host's disagree (harness/witness.c); the reason says
 * how.
 */
enum point_status { POINT_OK, POINT_FAILED, POINT_SKIPPED, POINT_SUSPECT };
/* The JSON types of enum bench_ptype, in its order, as `bench list --json` names them. */
extern const char *const bench_ptype_names[];
/* The names of enum point_status, in its order: the documents' `status`. */
extern const char *const bench_status_names[];

/*
 * The host's witness of a point's times (harness/witness.c): which clock its figure comes
 * from, and what held the two clocks against each other found.
 */
struct bench_clock {
	bool host_figure;            /* the row times by the host's clock (set before measuring):
				      * once judged, dev_ns holds the host's waits and wall_ns the
				      * events' times */
	bool judged;                 /* the witness looked at the samples */
	bool agree;                  /* and found the two clocks in agreement */
	unsigned disordered;         /* launches whose QUEUED <= SUBMIT <= START <= END failed */
	struct time_stamps first_disorder;
	double host_min_ns;          /* the shortest host wait of the launches */
	double unexplained_ns;       /* host_min_ns less the launch overhead, less the event's
				      * median: time the host waited that the event does not show */
	char finding[512];           /* what disagreed ("": nothing) */
};

/* Why the timed launches of a point stopped. */
enum bench_stop {
	STOP_NONE,       /* not measured by the harness's loop */
	STOP_REPS,       /* --reps, with no target to adapt to */
	STOP_CI,         /* the median's 95 % interval within --ci-width (after --min-time) */
	STOP_MIN_TIME,   /* --min-time spent (with the interval within --ci-width, if given) */
	STOP_MAX_REPS,   /* --max-reps reached before the targets */
	STOP_DEVICES,    /* --concurrent: targets met, then on while other devices measured */
};

struct bench_reps {
	enum bench_stop stop;
	double timed_s;      /* host time from the first timed launch to the last one's end */
};

/*
 * The clock probe (kernels/clock_probe.cl) the measuring loop times before and after each
 * point's launches: rounds of its chain, and launches each time (settings.clock_probe).
 */
#define HARNESS_PROBE_ROUNDS 4096
#define HARNESS_PROBE_LAUNCHES 3

/* One point of a run: a typed record; its JSON, CSV and table row are views of it. */
struct bench_point {
	size_t index;                /* in the plan */
	void *params;                /* the row's parameters (params_size bytes, zeroed) */
	enum point_status status;
	char reason[2048];           /* why it failed or was skipped, or a note on an ok one */
	bool validated;

	/* Set by point(): the launch the harness times (enqueue NULL: none) and its counts. */
	time_enqueue_fn enqueue;
	void *enqueue_arg;           /* lives at least until point() returns to the harness */
	struct time_launch launch;   /* enqueue_arg may point here (bench_point_time_launch) */
	double bytes;                /* bytes moved per launch (0: no GB/s) */
	double ops;                  /* operations per launch (0: no GOP/s) */
	/* the copy ceiling of ceil_bytes each way (0: none), from ceil_src to ceil_dst */
	cl_mem ceil_src, ceil_dst;
	size_t ceil_bytes;
	/* The model's inputs (model_groups 0: no prediction unless model_json is set). */
	struct kernel_res res;
	unsigned model_wg, model_simd;
	bool model_barrier;
	uint64_t model_groups;

	/* Filled by the harness (or by point() where it times on its own). */
	double *dev_ns, *wall_ns;    /* samples, n each (one allocation: free dev_ns) */
	double *start_ns;            /* each launch's device start from the session's time origin
				      * (in the same allocation; NULL: not recorded) */
	size_t n;
	struct bench_reps reps;      /* how many timed launches, and why no more (the harness's) */
	/* the clock probe's times before and after the launches (where probed) */
	double probe_ns[2][HARNESS_PROBE_LAUNCHES];
	bool probed;
	double win_t0, win_t1;       /* host monotonic ns of the first timed launch's start and the
				      * last one's end (the overlap of devices measured at once) */
	cl_command_queue queue;      /* where the harness times it (NULL: the run's r->pc.q); a
				      * BENCH_PEERS row times on another device of the context */
	const char *device;          /* the device it ran on, in a document of several (a label;
				      * NULL: the run's); a BENCH_PEERS row sets the device it ran on */
	struct stats time;           /* of dev_ns */
	struct bench_clock clock;    /* the host's witness of dev_ns */
	bool noisy;                  /* CV above --noisy-cv */
	size_t note_id;              /* its note's number under the table, 0: none */
	double ceil_ns;              /* the ceiling (the memory roof) as 2 x ceil_bytes' time, 0: none */
	const char *ceil_by;         /* which candidate set it (roof.c, ceiling.c) */
	double ceil_copy_ns;         /* clEnqueueCopyBuffer's median */
	double ceil_kernel_ns;       /* the stream_copy kernel's median, 0: not run */
	json_t *ceil_stats;          /* owned: clEnqueueCopyBuffer's statistics */
	json_t *ceil_kernel_stats;   /* owned: the stream_copy kernel's, NULL: not run */
	json_t *ceil_by_stats;       /* owned: the statistics of the candidate that set ceil_ns */
	char ceil_shape[32];         /* its shape: "a copy", or a roof kernel's ("uint16 x16") */
	struct occ_result model;
	json_t *model_json;          /* owned; set by point() to give a model of its own */
	json_t *metrics;             /* owned; figures beyond bytes, gbps, copy_gbps, gops */
	json_t *extra;               /* owned; other members of the point's JSON */
	json_t *build;               /* owned; the build's record (sgb_build_json), or NULL */
};

/* One run of one row: what the row reads and keeps. */
struct bench_run {
	const struct bench_row *row;
	void *opts;                  /* the row's options */
	const struct common_opts *co;
	const struct dev_info *dev;
	struct prog_ctx pc;          /* the device's context and queue */
	struct occ_live model;       /* the occupancy model of the live device */
	json_t *doc;                 /* the results document */
	void *state;                 /* the row's own, made by plan, freed by teardown */
	const struct bench_col *cols;/* the table's columns: row->cols unless plan chose others */
	struct bench_point *points;
	size_t n_points;
	unsigned n_ok, n_failed, n_skipped, n_suspect;
	bool cold;                   /* --cache resolved: evict before every timed launch */
	const struct bench_peers *peers; /* BENCH_PEERS: the devices of the context, else NULL */
	const char *label;           /* the device's name in a document of several, else NULL */
	struct bench_session *sess;  /* the harness's */
	struct harness_run *h;       /* the harness's */
};

/* ---- the builds of a row, without a device (harness/builds.c) ---- */

#define BENCH_BUILD_KERNELS 4

/* One kernel of a build, and how the row launches it. */
struct bench_build_kernel {
	const char *name;            /* the kernel: "transpose_shuffle" */
	char variant[48];            /* the row's name for it: "shuffle" (--kernel ROW:VARIANT) */
	unsigned wg;                 /* the work-group the row launches it with; 0: varies */
	const char *wg_source;       /* where that comes from: "--wg (default 256)" */
};

/* One program a row builds: a file with options, the kernels it makes of it. */
struct bench_build {
	const char *bench;           /* the row */
	const char *file;            /* "transpose.cl" */
	char options[768];
	struct bench_build_kernel k[BENCH_BUILD_KERNELS];
	size_t n_k;
	char skip[1024];             /* why the row does not build it on this device ("": it does) */
	bool skip_options;           /* skipped before options could be made: nothing to compile */
	/* the row tries it and copes with a refusal (a fallback, a skip): the reason if it fails */
	char on_failure[256];
	json_t *build;               /* owned: the build's record (sgb_build_json), or NULL */
};

/* What builds are asked for, and the list they are added to. */
struct bench_builds {
	const struct dev_info *dev;  /* the device, or an offline target (host/igpu.h) */
	unsigned sg;                 /* --sg asked: 0 auto (the row's --sg auto or default) */
	bool grf_large;              /* --grf large */
	const char *bench;           /* the row asked (set by the caller) */
	struct bench_build *v;
	size_t n, cap;
};

/* A new build of b->bench (zeroed, file set), at the end of b's list. */
struct bench_build *bench_builds_add(struct bench_builds *b, const char *file);
/* Adds a kernel to a build. */
void bench_build_kernel(struct bench_build *bb, const char *name, const char *variant, unsigned wg,
			const char *wg_source);
/* Marks a build skipped with a printf reason (the run path's own words). */
void bench_build_skip(struct bench_build *bb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void bench_builds_free(struct bench_builds *b);

/* ---- a run skipped as a whole (harness/run.c) ---- */

/*
 * From plan (which then returns 0 points): the device is not one the row measures on, with
 * the printf reason. The run ends with exit 77, the reason on stderr and in its document's
 * `skipped`; in a suite the entry is skipped and the suite goes on.
 */
void bench_run_skip(struct bench_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The reason a run was skipped, or NULL where it measures. */
const char *bench_run_skipped(const struct bench_run *r);

/* ---- the guide's published figures (harness/figures.c) ---- */

/* The default figures file, built in: results/suites/guide-figures.json. */
#define BENCH_FIGURES_FILE "guide-figures.json"
/*
 * A figures file: a built-in name, or a path (with a '/'); a new reference, or NULL with err
 * (no such file, not JSON, no array `tables`).
 */
json_t *bench_figures_load(const char *file, char *err, size_t len);
/* Its table `id` (tables[].id), a new reference; NULL with err where there is none. */
json_t *bench_figures_table(const char *file, const char *id, char *err, size_t len);
/* The member a JSON pointer ("/params/groups", "/points/0") names in v, borrowed; NULL: none. */
json_t *bench_json_at(json_t *v, const char *pointer);

/* ---- a point's record (harness/point.c) ---- */

/*
 * The reference run's values of pt's calibrated params members `names` (NULL-ended), where
 * the run has a reference (tool.h: bench_set_calibration) holding this point: a new object
 * with an integer for every name; NULL: calibrate as usual. Never under --validate-only.
 */
json_t *bench_calibrated(const struct bench_run *r, const struct bench_point *pt,
			 const char *const *names);
/* Marks the point failed or skipped (or adds a note to an ok one) with a printf reason. */
void bench_fail(struct bench_point *pt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bench_skip(struct bench_point *pt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bench_note(struct bench_point *pt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Marks an ok point suspect (its times not to be believed), the reason replacing its notes. */
void bench_suspect(struct bench_point *pt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Points the harness's timing at pt->launch = {k, global, local}. */
void bench_point_time_launch(struct bench_point *pt, cl_kernel k, size_t global, size_t local);
/* The model's inputs: the kernel's resources, launch shape, SIMD width (0: the model's). */
void bench_point_model(struct bench_point *pt, const struct kernel_res *res, unsigned wg,
		       unsigned simd, bool barrier, uint64_t groups);
/*
 * A work-group above a kernel's CL_KERNEL_WORK_GROUP_SIZE that the driver launched:
 * the caveat for the point's note (NULL when wg is within the query).
 */
const char *bench_wg_note(unsigned wg, const struct kernel_res *res, char *buf, size_t len);
/* The point's figures (0 when not measured): its GB/s, clEnqueueCopyBuffer's, the ceiling's. */
double bench_point_gbps(const struct bench_point *pt);
double bench_point_copy_gbps(const struct bench_point *pt);
double bench_point_ceiling_gbps(const struct bench_point *pt);
/* JSON helpers for a computed member (bench_param.value): null for 0 / NULL. */
json_t *bench_json_uint0(uint64_t v);
json_t *bench_json_str0(const char *s);

/* ---- for plan() and point(): building, buffers, launches (harness/launch.c) ---- */

/* Builds kernel kname of file with options; exits 1 naming the error and the build log. */
cl_kernel bench_build(struct bench_run *r, const char *file, const char *kname, const char *options,
		      cl_program *prog, char **log);
/* The same for the device of pc (a BENCH_PEERS row's other devices: r->peers->pc[i]). */
cl_kernel bench_build_pc(struct prog_ctx *pc, const char *file, const char *kname,
			 const char *options, cl_program *prog, char **log);
/* A device buffer; exits 1 naming the size and limits when the driver refuses it. */
cl_mem bench_buffer(struct bench_run *r, cl_mem_flags flags, size_t bytes);
/*
 * Refuses (exit 2, with the numbers) a run whose host memory would not fit what the
 * system has available: host_bytes of the row's own, plus device_bytes where the
 * device's memory is the host's (a CPU device).
 */
void bench_host_fits(const struct bench_run *r, uint64_t host_bytes, uint64_t device_bytes,
		     const char *what);
/*
 * Launches k once, untimed, and waits (the validation launch). False with err set; a
 * launch above CL_KERNEL_WORK_GROUP_SIZE that the driver refused exits 2 naming the
 * kernel's limits and the option `wg_opt`.
 */
bool bench_launch_once(struct bench_run *r, cl_kernel k, size_t global, size_t local,
		       const struct kernel_res *res, const char *wg_opt, char *err, size_t len);
/* The same for any command (a fixed-shape launch of several dimensions, a copy). */
bool bench_enqueue_once(struct bench_run *r, time_enqueue_fn fn, void *arg, char *err, size_t len);
/* The last-level cache's bytes: --llc, else the device's figure (chase_llc); its source. */
uint64_t bench_llc(const struct bench_run *r, const char **source);
/*
 * What --cache cold reads before each timed launch: max(2 x the last-level cache, 64 MiB),
 * in whole 4 KiB; exit 2 naming it where it exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE.
 */
uint64_t bench_flush_bytes(const struct bench_run *r);
/*
 * A step after point i's progress line ("[3/8] occupancy wg=256: calibrating"), or during
 * plan (i >= n_points) "occupancy: building ..."; only when stderr is a terminal.
 */
void bench_progress_step(const struct bench_run *r, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- timing a point on its own (harness/measure.c) ---- */

/*
 * Times warmup + reps commands of fn(arg) into the point's samples and statistics (the
 * harness does this for pt->enqueue; point() calls it to time on its own). False with
 * the reason set (the point failed).
 */
bool bench_point_measure(struct bench_run *r, struct bench_point *pt, time_enqueue_fn fn, void *arg);
/* A step before timed command `rep`, outside its timing (a cache flush); false with err. */
typedef bool (*bench_prep_fn)(struct bench_run *r, void *arg, unsigned rep, char *err, size_t len);
/* bench_point_measure with prep before each timed command, outside its event and wall time. */
bool bench_point_measure_prep(struct bench_run *r, struct bench_point *pt, time_enqueue_fn fn,
			      void *arg, bench_prep_fn prep, void *prep_arg);

/* ---- the standard table cells (harness/views.c) ---- */
void bench_cell_occupancy(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n);
void bench_cell_limiter(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n);
void bench_cell_median_us(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n);
void bench_cell_cv(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n);
void bench_cell_gbps(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n);
void bench_cell_ceiling_gbps(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n);
void bench_cell_of_ceiling(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n);
void bench_cell_status(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n);

#endif
