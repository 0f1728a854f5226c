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
#include "bench.h"
#include "atomics_host.h"
#include "occ_point.h"
#include "sgb.h"
#include "validate.h"

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
	{ "kernels", "DIR", CLI_STR, VO(kernels), .help = "load kernel sources from DIR instead of the built-in copies" },
	{ "quiet", NULL, CLI_FLAG, VO(quiet), .help = "no summary table" },
	{ 0 } };

struct val_check *val_add(struct val_ctx *v, const char *suite, const char *fmt, ...)
{
	va_list ap;

	struct val_check *c = bench_push(&v->c, &v->n, &v->cap, sizeof(*c), 64);

	snprintf(c->suite, sizeof(c->suite), "%s", suite);
	va_start(ap, fmt);
	vsnprintf(c->id, sizeof(c->id), fmt, ap);
	va_end(ap);
	return c;
}

static struct val_check *add_row(struct val_ctx *v, const struct bench_ops *row, const char *args,
				 const char *desc, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static struct val_check *add_row(struct val_ctx *v, const struct bench_ops *row, const char *args,
				 const char *desc, const char *fmt, ...)
{
	char id[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(id, sizeof(id), fmt, ap);
	va_end(ap);
	struct val_check *c = val_add(v, row->name, "%s", id);
	c->row = row;
	snprintf(c->args, sizeof(c->args), "%s", args);
	snprintf(c->desc, sizeof(c->desc), "%s", desc);
	return c;
}

/* ---- the plan: what the device declares ---- */

/*
 * Work-group sizes: the smallest, one and two SIMD widths, then steps of x4 up to the
 * maximum, and the maximum (bounded: about eight per width, so a device with a maximum
 * of 8192 and five sub-group sizes stays under a hundred builds).
 */
static size_t wg_sizes(size_t max, unsigned simd, unsigned smallest, unsigned *out, size_t cap)
{
	size_t n = 0;
	unsigned last = 0;

	for (unsigned k = 0; n < cap; k++) {
		uint64_t w = k == 0 ? smallest : k <= 2 ? (uint64_t)k * simd : (uint64_t)simd << (2 * (k - 2));
		if (w > max)
			w = max;
		if (w > last)
			out[n++] = last = (unsigned)w;
		if (w == max)
			break;
	}
	return n;
}

static void plan_vecadd(struct val_ctx *v)
{
	const struct dev_info *d = v->dev;
	size_t max = d->max_wg < d->max_item_sizes[0] ? d->max_wg : d->max_item_sizes[0];
	unsigned sgs[DEV_MAX_SG_SIZES + 1], wgs[32], n_sg = 0;
	char args[256];

	add_row(v, &vecadd_bench, "--variant 1 --n 65536",
		"variant 1: one work-item per element, local size left to the driver; every word "
		"checked, the local size read back from the kernel", "vecadd/v1");
	add_row(v, &vecadd_bench, "--variant 2 --groups 3 --slice 4096",
		"variant 2: work-groups of 512 (or the device maximum), sub-group 32 where it can be "
		"required; every word checked", "vecadd/v2");
	sgs[n_sg++] = 0;   /* the driver's choice */
	for (unsigned i = 0; i < d->n_sg_sizes; i++)
		if (dev_can_require_sg(d, (unsigned)d->sg_sizes[i]))
			sgs[n_sg++] = (unsigned)d->sg_sizes[i];
	for (unsigned s = 0; s < n_sg; s++) {
		unsigned simd = sgs[s] ? sgs[s] : d->nv_warp_size ? d->nv_warp_size : 16;
		size_t n_wg = wg_sizes(max, simd, sgs[s] ? sgs[s] : 1, wgs, 32);
		for (unsigned var = 3; var <= 4; var++)
			for (size_t i = 0; i < n_wg; i++) {
				char sg[16];
				snprintf(sg, sizeof(sg), sgs[s] ? "%u" : "auto", sgs[s]);
				snprintf(args, sizeof(args), "--variant %u --wg %u --sg %s --groups 3 --iter 2",
					 var, wgs[i], sg);
				struct val_check *c = add_row(v, &vecadd_bench, args, "",
							      "vecadd/v%u/wg=%u/sg=%s%s", var, wgs[i], sg,
							      var == 4 ? "/barrier" : "");
				snprintf(c->desc, sizeof(c->desc), "variant %u, work-group %u, sub-group %s%s: "
					 "3 groups, every word checked; the local size, group count and "
					 "(where required) the sub-group size the kernel saw", var, wgs[i],
					 sgs[s] ? sg : "left to the driver",
					 var == 4 ? ", barriers at the start and the end" : "");
			}
	}
}

static void plan_occupancy(struct val_ctx *v)
{
	const struct dev_info *d = v->dev;
	struct occ_live m;
	unsigned big = d->max_wg < 256 ? (unsigned)d->max_wg : 256;
	unsigned small = d->max_wg < 32 ? (unsigned)d->max_wg : 32;
	uint64_t slm[] = { 1024, d->local_mem / 2, d->local_mem };
	char args[256];

	occ_live_init(&m, d);
	for (int bar = 1; bar >= 0; bar--)
		for (unsigned w = small;; w = big) {
			snprintf(args, sizeof(args), "--wg %u --slm 0 --barrier %s --reps 5%s", w, bar ? "on" : "off",
				 m.known ? " --check" : "");
			struct val_check *c = add_row(v, &occupancy_bench, args, "",
						      "occupancy/wg=%u/slm=0%s", w, bar ? "/barrier" : "");
			c->retries = 2;
			snprintf(c->desc, sizeof(c->desc), "residency probe, work-group %u%s: the probe's counts "
				 "checked; %s", w, bar ? " with a barrier" : "",
				 m.known ? "resident work-groups equal to the model's" : m.note);
			if (w == big)
				break;
		}
	/* local memory up to the device limit (the probe's own words come out of the last) */
	for (size_t i = 0; i < sizeof(slm) / sizeof(slm[0]); i++) {
		uint64_t s = i == 2 ? slm[i] - 1024 : slm[i];
		snprintf(args, sizeof(args), "--wg %u --slm %llu --barrier on --reps 5%s", small,
			 (unsigned long long)s, m.known ? " --check" : "");
		struct val_check *c = add_row(v, &occupancy_bench, args, "",
					      "occupancy/wg=%u/slm=%llu/barrier", small, (unsigned long long)s);
		c->retries = 2;
		snprintf(c->desc, sizeof(c->desc), "local memory %llu of CL_DEVICE_LOCAL_MEM_SIZE %llu bytes "
			 "per work-group: the probe runs and its counts are exact; %s",
			 (unsigned long long)s, (unsigned long long)d->local_mem,
			 m.known ? "residency equal to the model's (local-memory limited)" : m.note);
	}
}

static void plan_atomics(struct val_ctx *v)
{
	const struct dev_info *d = v->dev;
	char args[256];

	for (unsigned o = 0; o < AT_NORDERS; o++)
		for (unsigned p = 0; p < AT_NPATTERNS; p++) {
			bool local = at_is_local((enum at_pattern)p);
			uint64_t order = o == AT_RELAXED ? CL_DEVICE_ATOMIC_ORDER_RELAXED
							 : CL_DEVICE_ATOMIC_ORDER_ACQ_REL;
			uint64_t scope = local ? CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP : CL_DEVICE_ATOMIC_SCOPE_DEVICE;
			/* OpenCL 2.x devices have no query and support every order and scope */
			bool declared = !d->atomic_caps_known ||
					((d->atomic_mem_caps & order) && (d->atomic_mem_caps & scope));
			snprintf(args, sizeof(args), "--patterns %s --orders %s --ops 16",
				 at_pattern_names[p], at_order_names[o]);
			struct val_check *c = add_row(v, &atomics_bench, args, "", "atomics/%s/%s/%s",
						      at_order_names[o], local ? "work_group" : "device",
						      at_pattern_names[p]);
			c->beyond = !declared;
			snprintf(c->desc, sizeof(c->desc), "%s fetch-adds at %s scope, pattern %s: every counter "
				 "exact%s", at_order_names[o], local ? "work_group" : "device",
				 at_pattern_names[p],
				 declared ? "" : "; beyond CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES (reported "
						 "apart, never a failure of the specification)");
		}
}

/* The sub-group rows: every backend the device offers, every width it can build for. */
static void plan_subgroups(struct val_ctx *v)
{
	char args[256], why[256];
	unsigned w[SGB_MAX_WIDTHS];

	for (int b = SGB_FIRST; b <= SGB_LAST; b++) {
		const char *bn = sgb_name((enum sgb_backend)b);
		if (!sgb_available(v->dev, (enum sgb_backend)b, 0, why, sizeof(why)))
			continue;
		snprintf(args, sizeof(args), "--sg-backend %s", bn);
		add_row(v, &sg_info_bench, args,
			"the sub-group mapping at every width the backend builds for: contiguous ids, "
			"sizes adding up, only the last sub-group partial (15 of maximum 16), the size "
			"compiled and the size seen in the kernel against the driver's queries",
			"sg-info/%s", bn);
		size_t n = b == SGB_EMULATED ? 0 : sgb_widths(v->dev, (enum sgb_backend)b, w);
		if (b == SGB_EMULATED)
			w[n++] = 16;
		for (size_t i = 0; i < (n ? n : 1); i++) {
			char sg[16];
			snprintf(sg, sizeof(sg), n ? "%u" : "auto", n ? w[i] : 0);
			if (n && w[i] > 256)
				continue;
			snprintf(args, sizeof(args), "--sg-backend %s --sg %s --size 1Mi --wg 256", bn, sg);
			add_row(v, &sg_copy_bench, args,
				"gather, sub-group-strided and block copies of 1 Mi bytes: every word "
				"checked (block reads and writes where the backend has them)",
				"sg-copy/%s/sg=%s", bn, sg);
			snprintf(args, sizeof(args), "--sg-backend %s --sg %s --n 64", bn, sg);
			add_row(v, &transpose_bench, args,
				"the guide's 16 x 16 shuffle transpose and 64 x 64 transposes by shuffles, "
				"broadcasts, local memory and naive: every word checked",
				"transpose/%s/sg=%s", bn, sg);
		}
	}
}

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
			 "resident work-groups (%s)", r->ops->name, ok->model.resident_wg,
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
	argv[argc++] = (char *)c->row->name;
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
	rc = bench_run_main(c->row, argc, argv);
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

static void plan(struct val_ctx *v)
{
	plan_vecadd(v);
	plan_occupancy(v);
	plan_atomics(v);
	plan_subgroups(v);
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

static int validate_main(void *opts)
{
	struct val_opts *o = opts;
	struct val_ctx v = { .kernels_dir = o->kernels };
	struct dev_list devs;
	char err[4096];
	int rc = EXIT_OK;

	if (o->kernels && access(o->kernels, R_OK | X_OK) != 0)
		cli_usage_error("--kernels '%s' is not a readable folder", o->kernels);
	if (!o->device)
		o->device = getenv("BENCH_DEVICE");
	if (!dev_list_query(&devs, err, sizeof(err)) || !(v.dev = dev_select(&devs, o->device, err, sizeof(err))))
		cli_die(EXIT_USAGE, "%s%s", o->device && devs.n ? "--device " : "", err);
	if (o->known)
		val_known_load(&v, o->known);
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
		if (o->junit && !val_write_junit(&v, o->junit, err, sizeof(err))) {
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

const struct bench_ops validate_bench = {
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
	.main = validate_main,
};
