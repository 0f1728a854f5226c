/*
 * The shared options of every command that runs kernels, and parsing a command's
 * arguments into a job: its own options, the sub-group ones, the shared ones.
 */
#define HARNESS_LAYER HARNESS_LAYER_JOB
#include "job.h"
#include "sgb.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
	{ "reps", "N", CLI_UINT, CO(reps), 1, 100000, .def = "10", .help = "timed launches per point" },
	{ "warmup", "N", CLI_UINT, CO(warmup), 0, 1000, .def = "2", .help = "untimed launches before them" },
	BENCH_OPT_JSON(CO(json_path)),
	BENCH_OPT_CSV(CO(csv_path)),
	BENCH_OPT_KERNELS(CO(kernels_dir)),
	BENCH_OPT_QUIET(CO(quiet)),
	{ "timeout", "SECONDS", CLI_UINT, CO(timeout_s), 0, 86400, .def = "600",
	  .help = "a point still running after SECONDS fails and the run ends, writing\n"
		  "what it measured (0: never)" },
	{ "noisy-cv", "PCT", CLI_UINT, CO(noisy_cv), 1, 1000, .def = "10",
	  .help = "flag a point whose timed launches vary by more than PCT % (CV)" },
	{ "validate-only", NULL, CLI_FLAG, CO(validate_only),
	  .help = "one validated launch per point: no timing, ceiling or model (the\n"
		  "correctness side alone, as bench validate runs it); refused\n"
		  "with --min-time, --ci-width, --max-reps, --cache, --noisy-cv;\n"
		  "--reps and --warmup count the validated launches of a row that\n"
		  "launches several (occupancy's probe), 1 and 0 unless given" },
	{ "min-time", "SECONDS", CLI_FN, 0, .fn = parse_min_time,
	  .help = "after --reps, keep launching until a point's timed launches have\n"
		  "taken SECONDS (at most --max-reps)" },
	{ "ci-width", "PCT", CLI_FN, 0, .fn = parse_ci_width,
	  .help = "after --reps, keep launching until the 95 % interval of the median\n"
		  "(order statistics) lies within +-PCT % of it (at most --max-reps)" },
	{ "max-reps", "N", CLI_UINT, CO(max_reps), 1, 1000000,
	  .def_note = CLI_XSTR(BENCH_MAX_REPS_DEFAULT),
	  .help = "the most timed launches of a point with --min-time or --ci-width" },
	{ "require-device", "gpu|cpu|NAME", CLI_STR, CO(require),
	  .help = "measure only on such a device (a name: in the device or platform\n"
		  "name); none found: exit 77 instead of measuring another" },
	/* the default is the row's (BENCH_COLD): shared_table() says which */
	{ "cache", "warm|cold", CLI_FN, 0, .fn = parse_cache,
	  .help = "the cache each timed launch starts from: as the launch before left\n"
		  "it, or cold: evicted first by reading max(2 x --llc, 64 MiB)" },
	{ "llc", "SIZE", CLI_SIZE, CO(llc), 1024, 1ull << 40, .def_note = "the device's figure",
	  .help = "the last-level cache's size, for --cache cold, latency's labels\n"
		  "and its chases' untimed walk" },
	{ 0 } };
/* The shared option of the tools, which run no row of their own (a run has its --timeout). */
static const struct cli_opt tool_cli[] = {
	{ "timeout", "SECONDS", CLI_UINT, CO(timeout_s), 0, 86400, .def = "0",
	  .help = "stop after SECONDS, exit 1 (a hung driver, an input that never\n"
		  "ends), nothing written (0: never; bench validate: each check)" },
	{ 0 } };
/* The backends' names, from host/sgb.c's table, for bench list --json (the completion offers
 * them); filled before main, as the option table that points to them is const. */
static const char *sg_backend_names[SGB_LAST - SGB_FIRST + 1];

__attribute__((constructor)) static void sg_backend_names_fill(void)
{
	for (int i = SGB_FIRST; i <= SGB_LAST; i++)
		sg_backend_names[i - SGB_FIRST] = sgb_name((enum sgb_backend)i);
}

static const struct cli_opt sg_cli[] = {
	/* the default is the row's (BENCH_SG_NATIVE): shared_table() says which */
	{ "sg-backend", "B", CLI_FN, 0, .fn = parse_sg_backend, .names = sg_backend_names,
	  .n_names = SGB_LAST - SGB_FIRST + 1,
	  .help = "sub-group backend: intel, khr, nv or emulated" },
	{ "grf", "MODE", CLI_CHOICE, CO(grf), .names = sgb_grf_names, .n_names = 2, .def = "small",
	  .help = "Intel GPUs' register file: small (128 registers a thread) or\n"
		  "large (" SGB_GRF_LARGE_OPTION ": 256, half the threads per XVE;\n"
		  "Xe-HPG and Xe-HPC)" },
	{ 0 } };

const char *harness_cache_name(enum bench_cache c)
{
	return c == BENCH_CACHE_COLD ? "cold" : "warm";
}

#define N_COMMON (sizeof(common_cli) / sizeof(common_cli[0]))
#define N_SG (sizeof(sg_cli) / sizeof(sg_cli[0]))

/*
 * A shared table as a command with flags sees it: the defaults that are the row's own
 * (--cache: BENCH_COLD; --sg-backend: BENCH_SG_NATIVE) filled in. out has room for n.
 */
static const struct cli_opt *shared_table(const struct cli_opt *t, size_t n, unsigned flags,
					  struct cli_opt *out)
{
	memcpy(out, t, n * sizeof(*out));
	for (size_t i = 0; out[i].kind != CLI_END; i++) {
		if (strcmp(out[i].name, "cache") == 0)
			out[i].def_note = flags & BENCH_COLD ? "cold on a GPU, else warm" : "warm";
		if (strcmp(out[i].name, "sg-backend") == 0)
			out[i].def_note = flags & BENCH_SG_NATIVE ? "the driver's own sub-groups, or none"
								  : "the first the device runs";
	}
	return out;
}

void bench_usage_shared(const struct bench_cmd *cmd,
			void (*fn)(const struct cli_opt *opts, const char *group, void *arg), void *arg)
{
	struct cli_opt common[N_COMMON], sg[N_SG];

	if (cmd->flags & BENCH_SG)
		fn(shared_table(sg_cli, N_SG, cmd->flags, sg), "sub-groups", arg);
	if (cmd->flags & BENCH_DEVICE)
		fn(shared_table(common_cli, N_COMMON, cmd->flags, common), "shared", arg);
	else
		fn(tool_cli, "tools", arg);   /* a tool (every row takes the shared table) */
}

static void print_table(const struct cli_opt *opts, const char *group, void *f)
{
	(void)group;
	cli_print_opts(f, opts);
}

void bench_usage(const struct bench_cmd *cmd, FILE *f)
{
	fputs(cmd->synopsis, f);
	if (cmd->opts)
		cli_print_opts(f, cmd->opts);
	bench_usage_shared(cmd, print_table, f);
}

static const struct bench_cmd *usage_cmd;
static void usage_cb(FILE *f)
{
	bench_usage(usage_cmd, f);
}

const char *harness_benchmark(const struct bench_row *row)
{
	return row->benchmark ? row->benchmark : row->cmd.name;
}

bool harness_several(const struct common_opts *co, unsigned flags)
{
	return (flags & BENCH_PEERS) || co->sub_devices || co->concurrent || dev_spec_is_set(co->device);
}

/* ---- parsing a command's arguments ---- */

static void shared_defaults(struct common_opts *co)
{
	*co = (struct common_opts){ .device = getenv("BENCH_DEVICE") };   /* the rest: the table's */
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

/* The shared options that act on timed launches alone: --validate-only times none. */
static const char *const timing_opts[] = { "min-time", "ci-width", "max-reps", "cache", "noisy-cv" };

/*
 * --validate-only, given in from (the command line), on the options of to: a timing option
 * given with it is refused; one a suite's file gives is dropped; a point that times on its own
 * (occupancy's probe) launches once unless --reps and --warmup are given.
 */
static void validate_only(struct bench_shared *to, const struct bench_shared *from)
{
	struct common_opts *co = &to->co;

	for (size_t i = 0; i < sizeof(timing_opts) / sizeof(timing_opts[0]); i++)
		if (bench_shared_given(from, timing_opts[i]))
			cli_usage_error("--%s has nothing to act on with --validate-only, which times "
					"nothing (one validated launch per point): give one or the other",
					timing_opts[i]);
	co->validate_only = true;
	co->reps = bench_shared_given(from, "reps") ? from->co.reps : 1;
	co->warmup = bench_shared_given(from, "warmup") ? from->co.warmup : 0;
	co->min_time_s = co->ci_width_pct = 0;
	co->max_reps = 0;
	co->cache = BENCH_CACHE_ROW;
}

void bench_job_parse(struct bench_job *j, const struct bench_cmd *cmd, const struct bench_row *row,
		     int argc, char **argv)
{
	struct cli_set sets[3];
	size_t n = 0;

	memset(j, 0, sizeof(*j));
	j->cmd = cmd;
	j->row = row;
	j->argc = argc;
	j->argv = argv;
	j->opts = bench_zalloc(cmd->opts_size);
	j->shared = !row && (cmd->flags & BENCH_DEVICE)
		? (struct bench_shared *)((char *)j->opts + cmd->shared_off) : &j->own;
	shared_defaults(&j->shared->co);
	if (cmd->defaults)
		cmd->defaults(j->opts);
	if (cmd->opts)
		sets[n++] = (struct cli_set){ cmd->opts, j->opts, j->given };
	if (cmd->flags & BENCH_SG)
		sets[n++] = (struct cli_set){ sg_cli, &j->shared->co, j->shared->sg_given };
	if (cmd->flags & BENCH_DEVICE)
		sets[n++] = (struct cli_set){ common_cli, &j->shared->co, j->shared->given };
	else if (!row)
		sets[n++] = (struct cli_set){ tool_cli, &j->shared->co, j->shared->given };
	usage_cmd = cmd;
	j->operands = cmd->flags & BENCH_OPERANDS
		? (struct cli_operands *)((char *)j->opts + cmd->operands_off) : NULL;
	cli_parse_operands(argc, argv, sets, n, usage_cb, j->operands);
	if ((cmd->flags & BENCH_DEVICE) && j->shared->co.validate_only)
		validate_only(j->shared, j->shared);
	if (cmd->flags & BENCH_DEVICE)
		shared_check(&j->shared->co);
	if ((cmd->flags & BENCH_PEERS) && j->shared->co.cache == BENCH_CACHE_COLD)
		cli_usage_error("--cache cold: bench %s measures across the devices of one context, and "
				"the flush evicts the cache of one device: allowed is --cache warm", cmd->name);
	if (cmd->check)
		cmd->check(j->opts, &sets[0]);
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
	if (from->co.validate_only)   /* bench suite NAME --validate-only: every entry */
		validate_only(to, from);
	shared_check(&to->co);
}

