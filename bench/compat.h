/* The command's former API, kept while benchmarks move to the harness (harness.h). */
#ifndef BENCH_COMPAT_H
#define BENCH_COMPAT_H

#include "dev.h"
#include "occ_point.h"
#include "prog.h"
#include "range.h"
#include "results.h"
#include <getopt.h>
#include <stdbool.h>
#include <stdnoreturn.h>

#include "cli.h"
#include "table.h"
#define bench_cmd cli_cmd
#define bench_argc cli_argc
#define bench_argv cli_argv


/* Options shared by every benchmark that runs kernels. */
struct common_opts {
	const char *device;      /* --device or BENCH_DEVICE */
	unsigned reps;           /* --reps: timed launches per point */
	unsigned warmup;         /* --warmup: untimed launches first */
	const char *json_path;   /* --json FILE */
	const char *csv_path;    /* --csv FILE */
	const char *kernels_dir; /* --kernels DIR */
	bool quiet;              /* --quiet: no table */
};

/* getopt_long entries for the common options; ids start at 0x1000. */
enum {
	OPT_DEVICE = 0x1000, OPT_REPS, OPT_WARMUP, OPT_JSON, OPT_CSV, OPT_KERNELS, OPT_QUIET,
	OPT_SG_BACKEND = 0x1080, OPT_SG_WG, OPT_SG_SG, OPT_SG_SEED,   /* struct sg_cli */
	OPT_BENCH_BASE = 0x1100   /* first id free for a benchmark's own options */
};
#define COMMON_LONGOPTS                                            \
	{ "device", required_argument, NULL, OPT_DEVICE },         \
	{ "reps", required_argument, NULL, OPT_REPS },             \
	{ "warmup", required_argument, NULL, OPT_WARMUP },         \
	{ "json", required_argument, NULL, OPT_JSON },             \
	{ "csv", required_argument, NULL, OPT_CSV },               \
	{ "kernels", required_argument, NULL, OPT_KERNELS },       \
	{ "quiet", no_argument, NULL, OPT_QUIET },                 \
	{ "help", no_argument, NULL, 'h' }

#define COMMON_USAGE                                                                         \
	"  --device SPEC   index, platform:device, or name substring (env BENCH_DEVICE)\n"    \
	"  --reps N        timed launches per point (1..100000, default 10)\n"                \
	"  --warmup N      untimed launches before them (0..1000, default 2)\n"                \
	"  --json FILE     write the results document (results/README.md)\n"                  \
	"  --csv FILE      write one CSV row per point\n"                                       \
	"  --kernels DIR   load kernel sources from DIR instead of the built-in copies\n"      \
	"  --quiet         print no table\n"

void common_defaults(struct common_opts *o);

/* Options of the sub-group data benchmarks (sg-copy, transpose). */
struct sg_cli {
	const char *backend;     /* --sg-backend, NULL: the first the device runs */
	unsigned wg;             /* --wg */
	unsigned sg;             /* --sg N, 0 with auto */
	bool sg_given;
	uint64_t seed;           /* --seed of the random data */
	bool seed_given;
};
#define SG_CLI_LONGOPTS                                                 \
	{ "sg-backend", required_argument, NULL, OPT_SG_BACKEND },      \
	{ "wg", required_argument, NULL, OPT_SG_WG },                   \
	{ "sg", required_argument, NULL, OPT_SG_SG },                   \
	{ "seed", required_argument, NULL, OPT_SG_SEED }
/* Zeroes o with work-group size wg; sg_cli_opt handles one of its options (false: not one). */
void sg_cli_defaults(struct sg_cli *o, unsigned wg);
bool sg_cli_opt(struct sg_cli *o, int c, const char *arg);
/* Handles a common option; returns false when c is not one. Exits 2 on a bad value. */
bool common_opt(struct common_opts *o, int c, const char *arg);

/* Prints "bench NAME: usage: ..." style message and exits 2. */
noreturn void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "bench: <blame>: ..." and exits with code. */
noreturn void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Helpers around the strict parsers that exit 2 naming the option. */
uint64_t opt_u64(const char *opt, const char *arg, uint64_t min, uint64_t max);
uint64_t opt_size(const char *opt, const char *arg, uint64_t min, uint64_t max);
void opt_range(const char *opt, const char *arg, uint64_t min, uint64_t max, struct range *r);
/*
 * A comma-separated choice among names ("all" for every one): flags[i] is set for each
 * name given; an unknown name exits 2 listing the allowed ones.
 */
void opt_names(const char *opt, const char *arg, const char *const *names, size_t n, bool *flags);
/* A range of sizes with suffixes (range_parse_sizes), exiting 2 naming the option. */
void opt_size_range(const char *opt, const char *arg, uint64_t min, uint64_t max, struct range *r);



/* ---- running a benchmark: device, context, outputs, points ---- */


/* The output files of a run (--json, --csv): reserved before any work, written at the end. */
struct bench_outputs {
	const char *json_path, *csv_path;
	struct res_out json, csv;
};

/*
 * Reserves the files o names (exit 2 naming a path that cannot be written);
 * an early exit before outputs_write removes them.
 */
void outputs_open(struct bench_outputs *out, const struct common_opts *o);
/* Writes doc to the reserved files; returns 0, or 1 (with a message) on failure. */
int outputs_write(struct bench_outputs *out, const json_t *doc);

struct bench_session {
	const struct common_opts *opts;
	struct dev_list devs;
	const struct dev_info *dev;
	struct prog_ctx pc;
	struct bench_outputs out;
	json_t *doc;
	struct occ_live model;   /* the occupancy model of the live device */
	unsigned n_ok, n_failed, n_skipped;
};

/*
 * Reserves the output files (so a bad path fails before any work), lists the
 * devices, selects one and creates its context and queue. Exits 2 on bad
 * usage or no platform/device, 1 on a driver failure.
 */
void session_open(struct bench_session *s, const struct common_opts *o, const char *benchmark);
/* Adds a point to the document and counts its status. */
void session_add_point(struct bench_session *s, json_t *point);
/* Writes the outputs, releases everything; returns 0, or 1 if a point failed. */
int session_finish(struct bench_session *s);
/* "[12/48] groups=12" on stderr, overwritten in place, only when stderr is a terminal. */
void session_progress(const struct bench_session *s, size_t i, size_t n, const char *label);

/*
 * The occupancy model's prediction for a launch of `groups` work-groups of `wg`
 * work-items of a kernel whose resources are res, with SIMD width simd (0: the
 * model's default) and barrier use: the point's `model` object (see
 * occ_live_point); r receives the figures for the table.
 */
json_t *session_model(const struct bench_session *s, const struct kernel_res *res, unsigned wg,
		      unsigned simd, bool barrier, uint64_t groups, struct occ_result *r);
/* The same for a kernel object, querying its resources (build_log: for NVIDIA registers). */
json_t *session_model_kernel(const struct bench_session *s, cl_kernel k, const char *build_log,
			     unsigned wg, unsigned simd, bool barrier, uint64_t groups,
			     struct occ_result *r);
/*
 * The copy ceiling: warmup + reps clEnqueueCopyBuffer of `bytes` from src to dst,
 * timed like kernels; returns the median ns, *stats_out the statistics (caller
 * owns). A failed copy is a driver failure (exit 1).
 */
double session_copy_ceiling(struct bench_session *s, cl_mem src, cl_mem dst, size_t bytes,
			    json_t **stats_out);

/*
 * Work-group sizes above a kernel's CL_KERNEL_WORK_GROUP_SIZE: some drivers report
 * less than they launch (NVIDIA 580: 256 for every kernel, yet 1024 runs), so the
 * first launch decides. wg_note writes the caveat for a point that ran (NULL when
 * wg is within the query); wg_refused, called after a failed launch, exits 2
 * naming the kernel's limits when the driver refused the size
 * (CL_INVALID_WORK_GROUP_SIZE, as cl_last_code() recorded it).
 */
const char *wg_note(unsigned wg, const struct kernel_res *res, char *buf, size_t len);
void wg_refused(const struct bench_session *s, const char *opt, unsigned wg,
		const struct kernel_res *res);

/* The table cells of a model object: occupancy string and limiter ("-" when unknown). */
const char *model_occupancy_cell(const json_t *model);
const char *model_limiter_cell(const json_t *model);

/* A new point {params: {}, status, reason, validated}; params filled by the caller. */
json_t *point_new(void);
/* Sets status ("ok", "failed", "skipped") and reason (NULL: none). */
void point_set_status(json_t *point, const char *status, const char *reason);
/* Adds time_ns and wall_ns statistics of n samples to the point. */
void point_set_times(json_t *point, const double *dev_ns, const double *wall_ns, size_t n);

/* Reports the option getopt_long rejected (c is '?' or ':') and exits 2. */
noreturn void opt_reject(int c, char **argv);

#endif
