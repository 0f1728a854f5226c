/*
 * bench compare: reading a results document and checking every member the
 * comparison uses, so that a bad document is an exit 2 naming the file and the
 * field, never a crash or a silent "0 regressed".
 */
#include "compare.h"
#include "jsonfile.h"
#include "stats.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const struct cmp_ignored cmp_ignored_params[] = {
	{ "seed", "the random inputs' seed, new in every run" },
	{ "spin", "occupancy's chain length, calibrated (or taken from the baseline: bench suite "
		  "--baseline, --calibration); times are compared only where it is equal" },
	{ "sg_size_compiled", "what the compiler chose, not what was asked: compared, a difference "
			      "is `changed`" },
	{ "sg_size_kernel", "the sub-group size the kernel saw: compared, a difference is `changed`" },
	{ "nv_registers", "occupancy's registers a thread, from NVIDIA's build log: what the compiler "
			  "chose, compared, a difference is `changed`" },
	{ "local_mem_kernel", "occupancy's CL_KERNEL_LOCAL_MEM_SIZE: what the build gave the kernel, "
			      "compared, a difference is `changed`" },
	{ NULL, NULL } };

const struct cmp_outcome cmp_outcomes[] = {
	{ "measured.resident_wg", CMP_WORSE_NEVER, "occupancy's residency" },
	{ "params.sg_size_compiled", CMP_WORSE_NEVER, "the sub-group size the compiler chose" },
	{ "params.sg_size_kernel", CMP_WORSE_NEVER, "the sub-group size the kernel saw" },
	{ "params.nv_registers", CMP_WORSE_NEVER, "registers a thread (NVIDIA's build log)" },
	{ "params.local_mem_kernel", CMP_WORSE_NEVER, "local memory the build gave a work-group" },
	/* what the compiler made of a kernel: bench compile's points, and runs' `compiled` */
	{ "compiled.simd", CMP_WORSE_ANY, "the compiled SIMD width (bench compile)" },
	{ "compiled.grf_count", CMP_WORSE_NEVER, "registers a thread (bench compile)" },
	{ "compiled.spill_mem_bytes", CMP_WORSE_UP, "spill: a new or larger one" },
	{ "compiled.private_mem_bytes", CMP_WORSE_UP, "private memory a thread" },
	{ "compiled.local_mem_bytes", CMP_WORSE_NEVER, "local memory a work-group" },
	{ "compiled.barrier_count", CMP_WORSE_NEVER, "barriers (bench compile)" },
	{ NULL, CMP_WORSE_NEVER, NULL } };

noreturn static void bad(const char *path, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void bad(const char *path, const char *field, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!*path)   /* an empty operand: say so, not ": cannot read" */
		path = "'' (an empty file name)";
	if (field)
		cli_die(EXIT_USAGE, "%s: %s: %s", path, field, msg);
	cli_die(EXIT_USAGE, "%s: %s", path, msg);
}

/* The document at path, parsed strictly (jsonfile.h); exits 2 naming what is wrong. */
static json_t *parse(const char *path)
{
	char err[1024];
	json_t *root = jf_load(path, err, sizeof(err));

	if (!root)
		bad(path, NULL, "%s", err);
	return root;
}

/* An integer, as JSON Schema counts one: 3, or a real with no fraction (3.0). */
static bool is_integral(const json_t *v)
{
	return json_is_integer(v) || (json_is_real(v) && json_real_value(v) == (double)(json_int_t)json_real_value(v));
}

static json_int_t int_value(const json_t *v)
{
	return json_is_integer(v) ? json_integer_value(v) : (json_int_t)json_number_value(v);
}

/* How a member may be: required, and whether null stands for absent (results/schema/input.schema.json). */
enum { OPTIONAL = 0, REQUIRED = 1, NULLABLE = 2 };

/* The member key of obj (field names it for messages), of the type wanted. */
static json_t *member(const char *path, const char *field, json_t *obj, const char *key,
		      json_type type, int how)
{
	static const char *const names[] = { "an object", "an array", "a string", "an integer",
					      "a real number", "true", "false", "null" };
	json_t *v = json_object_get(obj, key);

	if (!v) {
		if (how & REQUIRED)
			bad(path, field, "missing");
		return NULL;
	}
	if (json_is_null(v) && (how & NULLABLE))
		return NULL;
	if (type == JSON_REAL ? !json_is_number(v) : type == JSON_TRUE ? !json_is_boolean(v)
		   : type == JSON_INTEGER ? !is_integral(v) : json_typeof(v) != type)
		bad(path, field, "is %s, expected %s", names[json_typeof(v)],
		    type == JSON_TRUE ? "true or false" : type == JSON_REAL ? "a number" : names[type]);
	return v;
}

static const char *string_member(const char *path, const char *field, json_t *obj, const char *key,
				 int how)
{
	json_t *v = member(path, field, obj, key, JSON_STRING, how);

	return v ? json_string_value(v) : NULL;
}

/* time_ns: samples (finite, not negative), n equal to their count, median positive and theirs. */
static void check_times(struct cmp_doc *d, struct cmp_point *p, json_t *t, const char *at)
{
	char f[256];
	json_t *s;
	struct stats st;

	snprintf(f, sizeof(f), "%s.time_ns.samples", at);
	s = member(d->path, f, t, "samples", JSON_ARRAY, REQUIRED);
	p->n = json_array_size(s);
	if (p->n == 0)
		bad(d->path, f, "empty: a point with timings has at least one sample");
	if (!(p->samples = malloc(p->n * sizeof(double))))
		cli_die(EXIT_FAIL, "out of host memory");
	for (size_t i = 0; i < p->n; i++) {
		json_t *v = json_array_get(s, i);
		snprintf(f, sizeof(f), "%s.time_ns.samples[%zu]", at, i);
		if (!json_is_number(v))
			bad(d->path, f, "is not a number");
		p->samples[i] = json_number_value(v);
		if (!isfinite(p->samples[i]) || p->samples[i] < 0)
			bad(d->path, f, "%g: a time is a finite number of ns, not negative", p->samples[i]);
	}
	snprintf(f, sizeof(f), "%s.time_ns.n", at);
	json_t *n = member(d->path, f, t, "n", JSON_INTEGER, REQUIRED);
	if (int_value(n) != (json_int_t)p->n)
		bad(d->path, f, "%lld, but time_ns.samples holds %zu (a truncated or edited document?)",
		    (long long)int_value(n), p->n);
	snprintf(f, sizeof(f), "%s.time_ns.median", at);
	p->median = json_number_value(member(d->path, f, t, "median", JSON_REAL, REQUIRED));
	if (!(p->median > 0))
		bad(d->path, f, "%g: a median time must be positive (a ratio to it means nothing)",
		    p->median);
	stats_compute(p->samples, p->n, &st);
	if (fabs(st.median - p->median) > 1e-9 * p->median)
		bad(d->path, f, "%.17g, but the median of time_ns.samples is %.17g", p->median, st.median);
	if (!(p->pairs = malloc((p->n / 2 + 1) * sizeof(double))))
		cli_die(EXIT_FAIL, "out of host memory");
	if ((p->n_pairs = stats_pair_means(p->samples, p->n, p->pairs))) {
		stats_compute(p->pairs, p->n_pairs, &st);
		p->pairs_median = st.median;
	}
	p->lag1 = stats_lag1(p->samples, p->n);
	p->alternates = p->n >= CMP_ALT_MIN && p->lag1 <= CMP_ALT_LAG1;
}

/*
 * clock_probe_ns: before and after, each 1..CMP_PROBE_MAX positive times; the least, most and
 * median of each, the median of all.
 */
static void check_probe(struct cmp_doc *d, struct cmp_point *p, json_t *v, const char *at)
{
	static const char *const when[] = { "before", "after" };
	double all[2 * CMP_PROBE_MAX];
	size_t n = 0, first;
	struct stats st;
	char f[256];

	for (int k = 0; k < 2; k++) {
		snprintf(f, sizeof(f), "%s.clock_probe_ns.%s", at, when[k]);
		json_t *a = member(d->path, f, v, when[k], JSON_ARRAY, REQUIRED);
		if (json_array_size(a) < 1 || json_array_size(a) > CMP_PROBE_MAX)
			bad(d->path, f, "holds %zu times: 1 to %d", json_array_size(a), CMP_PROBE_MAX);
		p->probe_lo[k] = INFINITY;
		p->probe_hi[k] = 0;
		first = n;
		for (size_t i = 0; i < json_array_size(a); i++) {
			json_t *x = json_array_get(a, i);
			snprintf(f, sizeof(f), "%s.clock_probe_ns.%s[%zu]", at, when[k], i);
			double ns = json_number_value(x);
			if (!json_is_number(x) || !(ns > 0) || !isfinite(ns))
				bad(d->path, f, "is not a positive number of ns");
			p->probe_lo[k] = fmin(p->probe_lo[k], ns);
			p->probe_hi[k] = fmax(p->probe_hi[k], ns);
			all[n++] = ns;
		}
		stats_compute(all + first, n - first, &st);
		p->probe_mid[k] = st.median;
	}
	stats_compute(all, n, &st);
	p->probe_med = st.median;
}

/*
 * The match key: the benchmark, its device where several are compared (its name and, for a
 * run with --concurrent, alone or at once), its params without the ignored members, keys sorted.
 */
static char *point_key(const char *bench, const char *device, int together, json_t *params)
{
	json_t *c = json_copy(params);
	char *dump, *key;

	for (size_t i = 0; cmp_ignored_params[i].key; i++)
		json_object_del(c, cmp_ignored_params[i].key);
	dump = json_dumps(c, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(c);
	if (!dump || asprintf(&key, "%s\n%s%s\n%s", bench, device ? device : "",
			      together < 0 ? "" : together ? " (at once)" : " (alone)", dump) < 0)
		cli_die(EXIT_FAIL, "out of host memory");
	free(dump);
	return key;
}

static void check_point_at(struct cmp_doc *d, struct cmp_point *p, json_t *pt, const char *at,
			   const char *doc_bench);

/* A percentage of run_spread (0 where an optional one is absent: an older baseline). */
static double spread_member(struct cmp_doc *d, json_t *v, const char *at, const char *name,
			    int how)
{
	char f[256];
	json_t *x;
	double pct;

	snprintf(f, sizeof(f), "%s.run_spread.%s", at, name);
	if (!(x = member(d->path, f, v, name, JSON_REAL, how)))
		return 0;
	pct = json_number_value(x);
	if (!isfinite(pct) || pct < 0)
		bad(d->path, f, "%g: a spread is a percentage, not negative", pct);
	return pct;
}

/* run_spread (a baseline of several runs: bench baseline): the runs and their spreads. */
static void check_spread(struct cmp_doc *d, struct cmp_point *p, json_t *v, const char *at)
{
	char f[256];
	json_t *x;

	snprintf(f, sizeof(f), "%s.run_spread.runs", at);
	x = member(d->path, f, v, "runs", JSON_INTEGER, REQUIRED);
	if (int_value(x) < 1)
		bad(d->path, f, "%lld: a spread is of one run or more", (long long)int_value(x));
	p->spread_runs = (size_t)int_value(x);
	p->spread_pct = spread_member(d, v, at, "spread_pct", REQUIRED);
	p->within_pct = spread_member(d, v, at, "within_pct", OPTIONAL);
	p->entry_spread_pct = spread_member(d, v, at, "entry_spread_pct", OPTIONAL);
	snprintf(f, sizeof(f), "%s.run_spread.between_runs", at);
	x = member(d->path, f, v, "between_runs", JSON_TRUE, OPTIONAL);
	p->between_runs = json_is_true(x);
	snprintf(f, sizeof(f), "%s.run_spread.paired", at);
	x = member(d->path, f, v, "paired", JSON_TRUE, OPTIONAL);
	if (json_is_true(x) && p->n_pairs)   /* its spread is of its pairs: judged by them too */
		p->alternates = true;
}

/*
 * Whether p's times are to be believed. A suspect point (the harness found its clocks in
 * disagreement, or its figure beyond a bound) is not; nor a point whose clock member says the
 * host's witness disagreed though its status is ok (a document edited, or written by a harness
 * that judged otherwise), nor a timed point of a session whose clock_check failed.
 */
static void check_clock(struct cmp_doc *d, struct cmp_point *p, json_t *pt, json_t *times,
			const char *at)
{
	char f[256];
	json_t *c, *agree;

	snprintf(f, sizeof(f), "%s.clock", at);
	if ((c = member(d->path, f, pt, "clock", JSON_OBJECT, OPTIONAL))) {
		snprintf(f, sizeof(f), "%s.clock.figure", at);
		const char *fig = string_member(d->path, f, c, "figure", REQUIRED);
		if (strcmp(fig, "event") != 0 && strcmp(fig, "host") != 0)
			bad(d->path, f, "'%s' is not one of event, host", fig);
		snprintf(f, sizeof(f), "%s.clock.agree", at);
		agree = member(d->path, f, c, "agree", JSON_TRUE, REQUIRED);
		snprintf(f, sizeof(f), "%s.clock.finding", at);
		p->suspect_why = string_member(d->path, f, c, "finding", OPTIONAL | NULLABLE);
		if (json_is_false(agree)) {
			p->suspect = true;
			p->suspect_what = "clock.agree false";
			if (!p->suspect_why)
				p->suspect_why = "clock.agree is false: the host's witness disagreed";
		}
	}
	if (d->clock_bad && times && !p->suspect) {
		p->suspect = true;
		p->suspect_what = "clock_check failed";
		p->suspect_why = d->clock_bad;
	}
	if (strcmp(p->status, "suspect") == 0) {   /* as a failed one, it says why */
		snprintf(f, sizeof(f), "%s.reason", at);
		if (!p->reason)
			bad(d->path, f, "%s: a suspect point says why", json_object_get(pt, "reason")
					? "is null, expected a string" : "missing");
		p->suspect = true;
		p->suspect_what = "status suspect";
		p->suspect_why = p->reason;
	}
}

/* attempts (bench suite's confirmation): the point measured again, each a point of its own. */
static void check_attempts(struct cmp_doc *d, struct cmp_point *p, json_t *a, const char *at)
{
	char f[256];

	p->n_attempts = json_array_size(a);
	if (!(p->attempts = calloc(p->n_attempts ? p->n_attempts : 1, sizeof(*p->attempts))))
		cli_die(EXIT_FAIL, "out of host memory");
	for (size_t k = 0; k < p->n_attempts; k++) {
		json_t *x = json_array_get(a, k);
		snprintf(f, sizeof(f), "%s.attempts[%zu]", at, k);
		if (!json_is_object(x))
			bad(d->path, f, "is not an object");
		if (json_object_get(x, "attempts"))
			bad(d->path, f, "an attempt holds attempts of its own");
		check_point_at(d, &p->attempts[k], x, f, p->bench);   /* its point's benchmark */
		char *ka = point_key(p->attempts[k].bench, NULL, -1, p->attempts[k].params);
		char *kp = point_key(p->bench, NULL, -1, p->params);
		bool same = strcmp(ka, kp) == 0;
		free(ka);
		free(kp);
		if (!same)
			bad(d->path, f, "params differ from its point's: an attempt measures the same point");
	}
}

static void check_point_at(struct cmp_doc *d, struct cmp_point *p, json_t *pt, const char *at,
			   const char *doc_bench)
{
	static const char *const statuses[] = { "ok", "failed", "skipped", "suspect" };
	json_t *t, *v;
	char f[256];
	size_t k;

	if (!json_is_object(pt))
		bad(d->path, at, "is not an object");
	p->pt = pt;
	p->spread_pct = -1;
	snprintf(f, sizeof(f), "%s.benchmark", at);
	p->bench = string_member(d->path, f, pt, "benchmark", OPTIONAL);
	if (!p->bench && !(p->bench = doc_bench))
		bad(d->path, "benchmark", "missing (and %s has no benchmark of its own)", at);
	snprintf(f, sizeof(f), "%s.params", at);
	p->params = member(d->path, f, pt, "params", JSON_OBJECT, REQUIRED);
	snprintf(f, sizeof(f), "%s.status", at);
	p->status = string_member(d->path, f, pt, "status", REQUIRED);
	for (k = 0; k < 4 && strcmp(p->status, statuses[k]) != 0; k++)
		;
	if (k == 4)
		bad(d->path, f, "'%s' is not one of ok, failed, skipped, suspect", p->status);
	snprintf(f, sizeof(f), "%s.reason", at);
	p->reason = string_member(d->path, f, pt, "reason", NULLABLE);
	snprintf(f, sizeof(f), "%s.validated", at);
	p->validated = json_is_true(member(d->path, f, pt, "validated", JSON_TRUE, REQUIRED));
	snprintf(f, sizeof(f), "%s.time_ns", at);
	if ((t = member(d->path, f, pt, "time_ns", JSON_OBJECT, OPTIONAL)) && strcmp(p->status, "ok") == 0)
		check_times(d, p, t, at);
	check_clock(d, p, pt, t, at);
	snprintf(f, sizeof(f), "%s.clock_probe_ns", at);
	/* a suspect point's probe ran on the clock that failed: kept in the document, never read */
	if ((v = member(d->path, f, pt, "clock_probe_ns", JSON_OBJECT, OPTIONAL)) && !p->suspect)
		check_probe(d, p, v, at);
	snprintf(f, sizeof(f), "%s.measured", at);
	if ((v = member(d->path, f, pt, "measured", JSON_OBJECT, OPTIONAL))) {
		snprintf(f, sizeof(f), "%s.measured.resident_wg", at);
		member(d->path, f, v, "resident_wg", JSON_INTEGER, NULLABLE);
	}
	snprintf(f, sizeof(f), "%s.run_spread", at);
	if ((v = member(d->path, f, pt, "run_spread", JSON_OBJECT, OPTIONAL)))
		check_spread(d, p, v, at);
	snprintf(f, sizeof(f), "%s.attempts", at);
	if ((v = member(d->path, f, pt, "attempts", JSON_ARRAY, OPTIONAL)))
		check_attempts(d, p, v, at);
	snprintf(f, sizeof(f), "%s.device", at);
	if ((p->device = string_member(d->path, f, pt, "device", OPTIONAL)))
		d->several = true;
	snprintf(f, sizeof(f), "%s.concurrent", at);
	v = member(d->path, f, pt, "concurrent", JSON_TRUE, OPTIONAL);
	p->concurrent = v ? json_is_true(v) : -1;
}

/*
 * The least band of a suite's point: runs[run - 1].band_floor_pct, where its suite entry gave
 * one (results/suites/README.md); 0 where none.
 */
static void band_floor(struct cmp_doc *d, struct cmp_point *p, json_t *pt, const char *at)
{
	json_t *run = json_object_get(pt, "run"), *runs = json_object_get(d->root, "runs"), *v;
	char f[256];

	if (!json_is_integer(run) || !json_is_array(runs) || json_integer_value(run) < 1 ||
	    (size_t)json_integer_value(run) > json_array_size(runs))
		return;
	snprintf(f, sizeof(f), "runs[%lld].band_floor_pct (of %s)",
		 (long long)json_integer_value(run) - 1, at);
	v = member(d->path, f, json_array_get(runs, (size_t)json_integer_value(run) - 1),
		   "band_floor_pct", JSON_REAL, OPTIONAL);
	if (!v)
		return;
	p->band_floor_pct = json_number_value(v);
	if (!isfinite(p->band_floor_pct) || p->band_floor_pct < 0 || p->band_floor_pct > 1000)
		bad(d->path, f, "%g: a band is a percent in 0..1000", p->band_floor_pct);
}

static void check_point(struct cmp_doc *d, size_t i, const char *doc_bench)
{
	struct cmp_point *p = &d->pts[i];
	json_t *pt = json_array_get(json_object_get(d->root, "points"), i);
	char at[64];

	snprintf(at, sizeof(at), "points[%zu]", i);
	p->index = i;
	check_point_at(d, p, pt, at, doc_bench);
	p->key = point_key(p->bench, NULL, -1, p->params);
	band_floor(d, p, pt, at);
}

void cmp_doc_keys(struct cmp_doc *d, bool with_device)
{
	for (size_t i = 0; i < d->n; i++) {
		struct cmp_point *p = &d->pts[i];
		free(p->key);
		p->key = with_device ? point_key(p->bench, p->device ? p->device : d->label, p->concurrent,
						 p->params)
				     : point_key(p->bench, NULL, -1, p->params);
	}
}

void cmp_doc_load(struct cmp_doc *d, const char *path)
{
	cmp_doc_from_json(d, parse(path), path);
}

char *cmp_point_key(const char *bench, json_t *params)
{
	return point_key(bench, NULL, -1, params);
}

static bool ignored_param(const char *k)
{
	for (size_t i = 0; cmp_ignored_params[i].key; i++)
		if (strcmp(k, cmp_ignored_params[i].key) == 0)
			return true;
	return false;
}

bool cmp_same_calibration(const struct cmp_point *a, const struct cmp_point *b, char *why, size_t len)
{
	json_t *sa = json_object_get(a->params, "spin"), *sb = json_object_get(b->params, "spin");

	if (!sa || !sb || json_equal(sa, sb))
		return true;
	snprintf(why, len, "params.spin %lld -> %lld (calibrated differently)",
		 (long long)json_integer_value(sa), (long long)json_integer_value(sb));
	return false;
}

json_t *cmp_doc_calibrated(const struct cmp_doc *d, const char *bench, json_t *params,
			   const char *const *names)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct cmp_point *p = &d->pts[i];
		bool same = !p->device && strcmp(p->bench, bench) == 0;
		json_t *v, *out;
		const char *k;

		json_object_foreach(params, k, v)
			if (same && !ignored_param(k))
				same = json_equal(json_object_get(p->params, k), v);
		for (const char *const *n = names; same && *n; n++)
			same = json_is_integer(json_object_get(p->params, *n));
		if (!same || (strcmp(p->status, "ok") != 0 && strcmp(p->status, "suspect") != 0))
			continue;
		out = json_object();
		for (const char *const *n = names; *n; n++)
			json_object_set(out, *n, json_object_get(p->params, *n));
		return out;
	}
	return NULL;
}

/* device_runs[i].device: a string, one of devices[].label. */
static void check_label(struct cmp_doc *d, json_t *devices, json_t *r, size_t i)
{
	char f[128];
	const char *label;
	json_t *dev;
	size_t k;

	snprintf(f, sizeof(f), "device_runs[%zu].device", i);
	label = string_member(d->path, f, r, "device", REQUIRED);
	json_array_foreach(devices, k, dev) {
		json_t *l = json_object_get(dev, "label");
		if (json_is_string(l) && strcmp(json_string_value(l), label) == 0)
			return;
	}
	bad(d->path, f, "'%s' is not one of devices[].label", label);
}

/* A span's member (first_point, points): an integer, not negative. */
static json_int_t span_member(const char *path, json_t *r, const char *key, size_t i, const char *at)
{
	char f[128];
	json_t *v;

	snprintf(f, sizeof(f), "%s[%zu].%s", at, i, key);
	v = member(path, f, r, key, JSON_INTEGER, REQUIRED);
	if (int_value(v) < 0)
		bad(path, f, "%lld: a count is not negative", (long long)int_value(v));
	return int_value(v);
}

/*
 * device_runs (a document of several devices) and runs (a suite's): each run's points within
 * points[], a run's device one of devices[].label (input.schema.json).
 */
/*
 * A run's own clock_check (a suite's entry, or a device's run, keeps the member its document had):
 * where it failed, every timed point of the run's span is suspect, as for a document's.
 */
static void span_clock(struct cmp_doc *d, json_t *r, const char *at, json_int_t first, json_int_t n)
{
	char f[160];
	json_t *cc;
	const char *why;

	snprintf(f, sizeof(f), "%s.clock_check", at);
	if (!(cc = member(d->path, f, r, "clock_check", JSON_OBJECT, OPTIONAL | NULLABLE)))
		return;
	snprintf(f, sizeof(f), "%s.clock_check.ok", at);
	if (!json_is_false(member(d->path, f, cc, "ok", JSON_TRUE, REQUIRED)))
		return;
	snprintf(f, sizeof(f), "%s.clock_check.reason", at);
	if (!(why = string_member(d->path, f, cc, "reason", OPTIONAL | NULLABLE)))
		why = "clock_check.ok is false: the driver's clock ran at another rate";
	for (json_int_t i = first; i < first + n; i++) {
		struct cmp_point *p = &d->pts[i];
		if (p->suspect || !json_object_get(p->pt, "time_ns"))
			continue;
		p->suspect = true;
		p->suspect_what = "clock_check failed";
		p->suspect_why = why;
	}
}

static void check_spans(struct cmp_doc *d)
{
	static const char *const keys[] = { "device_runs", "runs" };
	json_t *devices = member(d->path, "devices", d->root, "devices", JSON_ARRAY, OPTIONAL), *dev;
	size_t i;

	json_array_foreach(devices, i, dev) {
		char f[128];
		snprintf(f, sizeof(f), "devices[%zu]", i);
		if (!json_is_object(dev))
			bad(d->path, f, "is not an object");
		snprintf(f, sizeof(f), "devices[%zu].label", i);
		string_member(d->path, f, dev, "label", REQUIRED);
	}
	for (int k = 0; k < 2; k++) {
		json_t *runs = member(d->path, keys[k], d->root, keys[k], JSON_ARRAY, OPTIONAL), *r;
		json_array_foreach(runs, i, r) {
			char f[128];
			snprintf(f, sizeof(f), "%s[%zu]", keys[k], i);
			if (!json_is_object(r))
				bad(d->path, f, "is not an object");
			json_int_t first = span_member(d->path, r, "first_point", i, keys[k]);
			json_int_t n = span_member(d->path, r, "points", i, keys[k]);
			snprintf(f, sizeof(f), "%s[%zu].first_point", keys[k], i);
			if (first + n > (json_int_t)d->n)
				bad(d->path, f, "points %lld..%lld lie outside points[0..%zu]", (long long)first,
				    (long long)(first + n - 1), d->n - 1);
			if (k == 0)
				check_label(d, devices, r, i);
			snprintf(f, sizeof(f), "%s[%zu]", keys[k], i);
			span_clock(d, r, f, first, n);
		}
	}
}

static bool allow_partial;

void cmp_doc_allow_partial(bool on)
{
	allow_partial = on;
}

/* "6 of 9 points": how far an interrupted run came, in its own words (a suite: entries). */
static void progress_words(json_t *intr, char *buf, size_t len)
{
	static const char *const units[] = { "points", "entries", "runs" };

	buf[0] = '\0';
	for (size_t i = 0; i < 3 && !buf[0]; i++) {
		char done[32], planned[32];
		snprintf(done, sizeof(done), "%s_done", units[i]);
		snprintf(planned, sizeof(planned), "%s_planned", units[i]);
		json_t *a = json_object_get(intr, done), *b = json_object_get(intr, planned);
		if (json_is_integer(a) && json_is_integer(b))
			snprintf(buf, len, " after %lld of %lld %s", (long long)json_integer_value(a),
				 (long long)json_integer_value(b), units[i]);
	}
}

/*
 * A valid document the readers cannot use as a whole: no device (a model of a named GPU);
 * interrupted or empty, unless --allow-partial.
 */
static void usable(const struct cmp_doc *d, json_t *intr)
{
	char how[128];

	if (!d->device)
		bad(d->path, "device", "null: a model of a named GPU (bench model --gpu) measures nothing "
		    "on a device, so there is nothing to compare or export");
	if (allow_partial && (intr || !d->n)) {   /* let in, and said so: the reader sees a part */
		progress_words(intr, how, sizeof(how));
		fprintf(stderr, "bench %s: %s: read with --allow-partial: %s%s%s%s\n", cli_cmd, d->path,
			intr ? "the run was cut short (by " : "it holds no point", intr ? (d->interrupted ?
			d->interrupted : "?") : "", intr ? how : "", intr ? "); only what it holds is read" : "");
	}
	if (allow_partial)
		return;
	if (intr) {
		progress_words(intr, how, sizeof(how));
		bad(d->path, "interrupted", "the run was cut short (by %s%s): a partial document; give "
		    "--allow-partial to read what it holds", d->interrupted ? d->interrupted : "?", how);
	}
	if (!d->n)
		bad(d->path, "points", "empty: the document holds no point; give --allow-partial to read "
		    "it anyway");
}

void cmp_doc_from_json(struct cmp_doc *d, json_t *root, const char *path)
{
	json_t *v, *dev, *points;
	const char *doc_bench, *kind;

	memset(d, 0, sizeof(*d));
	d->path = path;
	d->root = root;
	if (!json_is_object(d->root))
		bad(path, NULL, "not a results document: the top level is not an object");
	if ((kind = string_member(path, "kind", d->root, "kind", OPTIONAL)) && strcmp(kind, "results") != 0)
		bad(path, "kind", "'%s': not a results document", kind);
	v = member(path, "schema_version", d->root, "schema_version", JSON_INTEGER, REQUIRED);
	if (int_value(v) != 1)
		bad(path, "schema_version", "%lld: this bench reads results documents of version 1",
		    (long long)int_value(v));
	if ((dev = member(path, "device", d->root, "device", JSON_OBJECT, REQUIRED | NULLABLE))) {
		d->device = string_member(path, "device.name", dev, "name", REQUIRED);
		d->platform = string_member(path, "device.platform", dev, "platform", REQUIRED);
		d->driver = string_member(path, "device.driver_version", dev, "driver_version", REQUIRED);
		snprintf(d->label, sizeof(d->label), "%s (%s)", d->device, d->platform);
		v = member(path, "device.type", dev, "type", JSON_STRING, OPTIONAL);
		d->cpu = v && strcmp(json_string_value(v), "CPU") == 0;
	}
	if ((v = member(path, "host", d->root, "host", JSON_OBJECT, OPTIONAL)))
		d->hostname = string_member(path, "host.hostname", v, "hostname", OPTIONAL);
	d->timestamp = string_member(path, "timestamp", d->root, "timestamp", OPTIONAL);
	doc_bench = string_member(path, "benchmark", d->root, "benchmark", OPTIONAL);
	d->name = string_member(path, "suite", d->root, "suite", OPTIONAL);
	if ((d->noise = member(path, "noise", d->root, "noise", JSON_OBJECT, OPTIONAL))) {
		const char *k;
		json_object_foreach(d->noise, k, v) {
			char f[256];
			snprintf(f, sizeof(f), "noise.%s", k);
			if (!json_is_number(v) || json_number_value(v) < 0 || json_number_value(v) > 1000)
				bad(path, f, "is not a noise band in percent, 0..1000");
		}
	}
	if (!d->name)
		d->name = doc_bench;
	if ((v = member(path, "clock_check", d->root, "clock_check", JSON_OBJECT, OPTIONAL | NULLABLE)) &&
	    json_is_false(member(path, "clock_check.ok", v, "ok", JSON_TRUE, REQUIRED))) {
		d->clock_bad = string_member(path, "clock_check.reason", v, "reason", OPTIONAL | NULLABLE);
		if (!d->clock_bad)
			d->clock_bad = "clock_check.ok is false: the driver's clock ran at another rate";
	}
	points = member(path, "points", d->root, "points", JSON_ARRAY, REQUIRED);
	d->n = json_array_size(points);
	if (!(d->pts = calloc(d->n ? d->n : 1, sizeof(*d->pts))))
		cli_die(EXIT_FAIL, "out of host memory");
	for (size_t i = 0; i < d->n; i++)
		check_point(d, i, doc_bench);
	check_spans(d);
	if ((v = member(path, "interrupted", d->root, "interrupted", JSON_OBJECT, OPTIONAL)))
		d->interrupted = string_member(path, "interrupted.by", v, "by", OPTIONAL);
	usable(d, v);
}

/* Frees what a point owns, its attempts' too. */
static void point_free(struct cmp_point *p)
{
	for (size_t k = 0; k < p->n_attempts; k++)
		point_free(&p->attempts[k]);
	free(p->attempts);
	free(p->samples);
	free(p->pairs);
	free(p->key);
}

void cmp_doc_free(struct cmp_doc *d)
{
	for (size_t i = 0; i < d->n; i++)
		point_free(&d->pts[i]);
	free(d->pts);
	json_decref(d->root);
	memset(d, 0, sizeof(*d));
}

void cmp_slug(const char *s, char *out, size_t len)
{
	size_t o = 0;

	for (; *s && o + 2 < len; s++) {
		if (isalnum((unsigned char)*s))
			out[o++] = (char)tolower((unsigned char)*s);
		else if (o && out[o - 1] != '-')
			out[o++] = '-';
	}
	while (o && out[o - 1] == '-')
		o--;
	out[o] = '\0';
}

void cmp_baseline_name(const struct cmp_doc *d, char *buf, size_t len)
{
	char dev[256], name[128];

	cmp_slug(d->device, dev, sizeof(dev));
	cmp_slug(d->name ? d->name : "results", name, sizeof(name));
	snprintf(buf, len, "%s--%s.json", dev, name);
}

const char *cmp_verdict_name(enum cmp_verdict v)
{
	static const char *const names[] = { "regressed", "failed", "suspect", "changed", "improved",
					      "inconclusive", "new", "missing", "unchanged" };
	return names[v];
}

size_t cmp_doc_suspects(const struct cmp_doc *d)
{
	size_t k = 0;

	for (size_t i = 0; i < d->n; i++)
		k += d->pts[i].suspect;
	return k;
}

bool cmp_utc_format(const char *ts, const char *fmt, char *out, size_t len)
{
	int y, mo, dd, hh, mi, ss;
	char z[2] = "";

	if (!ts || sscanf(ts, "%4d-%2d-%2dT%2d:%2d:%2d%1s", &y, &mo, &dd, &hh, &mi, &ss, z) < 6 ||
	    (z[0] && z[0] != 'Z'))
		return false;
	snprintf(out, len, fmt, y, mo, dd, hh, mi, ss);
	return true;
}
