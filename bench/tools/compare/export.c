/*
 * bench export lnt DOCS... --order N -o FILE: results documents as one run of LNT's
 * report format version 2, for `lnt import INSTANCE FILE -s bench` with the test-suite
 * schema results/lnt/bench.yaml.
 *
 * What this relies on (llvm/llvm-lnt, LNT 0.4.20): docs/importing_data.rst, "LNT
 * Report File Format": format_version "2", `machine` {name, string fields}, `run`
 * {start_time, end_time as %Y-%m-%dT%H:%M:%S, string fields, at least one of them the
 * schema's order field}, `tests` [{name, metric: number or list of numbers}];
 * "Custom Test Suites" and LNT's docs/schema-example.yaml for the schema (metrics with
 * type, bigger_is_better, unit; run_fields with `order: true`). From LNT's sources:
 * a list of n values becomes n samples of the test (LNT's testsuitedb.py,
 * _importSampleValues), the comparison takes the minimum and applies its
 * Mann-Whitney test only with at least 4 samples a side, and ignores absolute changes
 * under 0.01 (server/reporting/analysis.py): hence five samples a point by default (its
 * summary: min, p5, median, p95, max; a quick run's 49k repetitions took `lnt import` of three
 * runs 3.5 minutes), every repetition with --samples, and microseconds and GB/s, where 0.01
 * is small. LNT sorts orders as dotted integers.
 */
#include "rows.h"
#include "tool.h"
#include "compare.h"
#include "results.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct export_opts {
	struct cli_operands operands;
	const char *order;       /* --order: dotted integers, or "driver" (lnt) */
	const char *output;      /* -o */
	const char *config;      /* --config: Otava's configuration (otava) */
	bool allow_partial;      /* --allow-partial */
	bool samples;            /* --samples (lnt): every repetition, not the summary */
};

#define EO(f) offsetof(struct export_opts, f)
static const struct cli_opt export_cli[] = {
	{ "order", "N", CLI_STR, EO(order),
	  .help = "the run's order (LNT's llvm_project_revision): a commit count or\n"
		  "dotted integers (1.2.3); `driver` takes the documents' driver version" },
	{ "output", "FILE", CLI_STR, EO(output), .help = "write the report (lnt) or the CSV (otava) to FILE",
	  .short_name = 'o' },
	{ "config", "FILE", CLI_STR, EO(config),
	  .help = "otava: also write Otava's configuration of the CSV there (a test\n"
		  "named bench: otava analyze bench --config-file FILE)" },
	{ "samples", NULL, CLI_FLAG, EO(samples),
	  .help = "lnt: every repetition as a sample of its test, not the point's\n"
		  "summary (min, p5, median, p95, max): reports of thousands of samples" },
	{ "allow-partial", NULL, CLI_FLAG, EO(allow_partial),
	  .help = "export an interrupted document's points (lnt: marked in the run's\n"
		  "`interrupted` field; otava: named on stderr); refused without" },
	{ 0 } };

static bool dotted_integers(const char *s)
{
	bool digit = false;

	for (; *s; s++) {
		if (isdigit((unsigned char)*s))
			digit = true;
		else if (*s == '.' && digit)
			digit = false;
		else
			return false;
	}
	return digit;
}

static void export_check(void *opts, const struct cli_set *given)
{
	struct export_opts *o = opts;

	(void)given;
	if (o->operands.n < 1 || (strcmp(o->operands.v[0], "lnt") != 0 &&
				  strcmp(o->operands.v[0], "otava") != 0))
		cli_usage_error("the first argument is the format: lnt or otava%s%s%s",
				o->operands.n ? " (got '" : "", o->operands.n ? o->operands.v[0] : "",
				o->operands.n ? "')" : "");
	if (o->operands.n < 2)
		cli_usage_error("give one or more results documents after '%s'", o->operands.v[0]);
	if (!o->output)
		cli_usage_error("-o FILE is required");
	if (strcmp(o->operands.v[0], "otava") == 0) {
		if (o->order)
			cli_usage_error("--order is LNT's: Otava orders the runs by their time");
		if (o->samples)
			cli_usage_error("--samples is LNT's: Otava's CSV holds each point's median");
		if (o->config && outf_same_file(o->config, o->output))
			cli_usage_error("--config %s is -o: the configuration and the CSV are two files",
					o->config);
		return;
	}
	if (o->config)
		cli_usage_error("--config is Otava's: LNT takes its schema from lnt/bench.yaml of bench's "
				"data (bench --version names the folder)");
	if (!o->order)
		cli_usage_error("--order is required: LNT sorts runs by it");
	if (strcmp(o->order, "driver") != 0 && !dotted_integers(o->order))
		cli_usage_error("--order '%s' is not a number or dotted integers (1.2.3), nor 'driver'",
				o->order);
}

/* ---- machine and run ---- */

static const char *str_at(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A member as LNT's string field: strings as they are, numbers written out. */
static void set_field(json_t *to, const char *name, json_t *v)
{
	char buf[64];

	if (json_is_string(v)) {
		json_object_set_new(to, name, json_string(json_string_value(v)));
	} else if (json_is_integer(v)) {
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
		json_object_set_new(to, name, json_string(buf));
	} else if (json_is_boolean(v)) {
		json_object_set_new(to, name, json_string(json_is_true(v) ? "true" : "false"));
	}
}

/*
 * Host and device, with the device's name, driver and the Level Zero hierarchy mode
 * (ZE_FLAT_DEVICE_HIERARCHY, from the document's `environment` where it records one).
 */
static json_t *machine_json(const struct cmp_doc *d)
{
	json_t *m = json_object(), *host = json_object_get(d->root, "host");
	json_t *dev = json_object_get(d->root, "device"), *env = json_object_get(d->root, "environment");
	char name[512], h[128], dv[256];

	cmp_slug(d->hostname ? d->hostname : "host", h, sizeof(h));
	cmp_slug(d->device, dv, sizeof(dv));
	snprintf(name, sizeof(name), "%s--%s", h, dv);
	json_object_set_new(m, "name", json_string(name));
	set_field(m, "hostname", json_object_get(host, "hostname"));
	set_field(m, "os", json_object_get(host, "os"));
	set_field(m, "kernel", json_object_get(host, "kernel"));
	set_field(m, "arch", json_object_get(host, "machine"));
	set_field(m, "cpus_online", json_object_get(host, "cpus_online"));
	json_object_set_new(m, "device", json_string(d->device));
	set_field(m, "device_type", json_object_get(dev, "type"));
	json_object_set_new(m, "platform", json_string(d->platform));
	set_field(m, "platform_version", json_object_get(dev, "platform_version"));
	json_object_set_new(m, "driver", json_string(d->driver));
	if (!json_is_object(env))
		json_object_set_new(m, "hierarchy", json_string("not recorded"));
	else if (json_is_string(json_object_get(env, "ZE_FLAT_DEVICE_HIERARCHY")))
		set_field(m, "hierarchy", json_object_get(env, "ZE_FLAT_DEVICE_HIERARCHY"));
	else
		json_object_set_new(m, "hierarchy", json_string("unset"));
	return m;
}

/* "2026-11-23T10:00:00Z" as LNT's %Y-%m-%dT%H:%M:%S (UTC); false where it is not one. */
static bool lnt_time(const char *ts, char out[20])
{
	return cmp_utc_format(ts, "%04d-%02d-%02dT%02d:%02d:%02d", out, 20);
}

static json_t *run_json(const struct cmp_doc *docs, size_t n, const char *order)
{
	char start[20] = "", end[20] = "", t0[20], t1[20];
	json_t *r = json_object(), *names = json_array();

	/* a document's end: its end_timestamp where it records one, else its start */
	for (size_t i = 0; i < n; i++) {
		const char *fin = str_at(docs[i].root, "end_timestamp");
		if (!lnt_time(docs[i].timestamp, t0))
			cli_die(EXIT_USAGE, "%s: timestamp: '%s' is not a UTC ISO 8601 time "
				"(2026-11-23T10:00:00Z)", docs[i].path,
				docs[i].timestamp ? docs[i].timestamp : "missing");
		if (!fin || !lnt_time(fin, t1))
			memcpy(t1, t0, sizeof(t0));
		if (!start[0] || strcmp(t0, start) < 0)
			memcpy(start, t0, sizeof(t0));
		if (!end[0] || strcmp(t1, end) > 0)
			memcpy(end, t1, sizeof(t1));
		if (docs[i].name)
			json_array_append_new(names, json_string(docs[i].name));
	}
	json_object_set_new(r, "start_time", json_string(start));
	json_object_set_new(r, "end_time", json_string(end));
	json_object_set_new(r, "llvm_project_revision", json_string(order));
	set_field(r, "tool_version", json_object_get(json_object_get(docs[0].root, "tool"), "version"));
	set_field(r, "git_describe", json_object_get(json_object_get(docs[0].root, "tool"), "git_describe"));
	char *s = json_dumps(names, JSON_COMPACT);
	json_object_set_new(r, "documents", json_string(s ? s : "[]"));
	for (size_t i = 0; i < n; i++)   /* --allow-partial: which run was cut short, and by what */
		if (docs[i].interrupted) {
			char note[512];
			snprintf(note, sizeof(note), "%s (by %s)", docs[i].path, docs[i].interrupted);
			json_object_set_new(r, "interrupted", json_string(note));
		}
	free(s);
	json_decref(names);
	return r;
}

/* ---- tests ---- */

/* The samples of a statistics member (wall_ns) divided by div, or NULL where it has none like time_ns. */
static json_t *scaled_samples(json_t *stats, size_t n, double div)
{
	json_t *s = json_object_get(stats, "samples"), *out;

	if (!json_is_array(s) || json_array_size(s) != n)
		return NULL;
	out = json_array();
	for (size_t i = 0; i < n; i++) {
		double v = json_number_value(json_array_get(s, i));
		if (!json_is_number(json_array_get(s, i)) || !isfinite(v)) {
			json_decref(out);
			return NULL;
		}
		json_array_append_new(out, json_real(v / div));
	}
	return out;
}

/*
 * The summary a point sends by default: its statistics member's min, p5, median, p95 and max
 * (wall_ns's or time_ns's), each divided by div, as five samples. LNT compares a test's minimum
 * and, with 4 samples or more a side, holds its change to a Mann-Whitney test: the minimum and
 * the median stay the point's, and the test asks whether the two summaries lie apart. NULL
 * where the member lacks one of them.
 */
static json_t *summary_samples(json_t *stats, double div)
{
	static const char *const keys[] = { "min", "p5", "median", "p95", "max" };
	json_t *out = json_array();

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		json_t *v = json_object_get(stats, keys[i]);
		if (!json_is_number(v) || !isfinite(json_number_value(v))) {
			json_decref(out);
			return NULL;
		}
		json_array_append_new(out, json_real(json_number_value(v) / div));
	}
	return out;
}

/* Whether a test carries the point's summary (bench export lnt without --samples). */
static bool lnt_summary = true;

/* A point's kernel times in ns: the summary's five (*summary true), or every sample (--samples,
 * or a document whose time_ns lacks one of the summary's members). */
static json_t *time_values(const struct cmp_point *p, bool *summary)
{
	json_t *ns = lnt_summary ? summary_samples(json_object_get(p->pt, "time_ns"), 1) : NULL;

	*summary = ns != NULL;
	if (ns)
		return ns;
	ns = json_array();
	for (size_t i = 0; i < p->n; i++)
		json_array_append_new(ns, json_real(p->samples[i]));
	return ns;
}

/* One test of a point, or NULL where the point has nothing to report (skipped, no figures). */
static json_t *test_json(const struct cmp_point *p)
{
	json_t *t = json_object(), *m = json_object_get(p->pt, "metrics");
	json_t *res = json_object_get(json_object_get(p->pt, "measured"), "resident_wg");
	double bytes = json_number_value(json_object_get(m, "bytes"));
	bool any = false;

	if (strcmp(p->status, "failed") == 0) {
		json_object_set_new(t, "execution_status", json_integer(1));   /* lnt.testing.FAIL */
		return t;
	}
	if (strcmp(p->status, "ok") != 0 || p->suspect) {   /* a suspect figure is no result */
		json_decref(t);
		return NULL;
	}
	if (p->samples) {
		bool summary;
		json_t *ns = time_values(p, &summary), *v;
		json_t *us = json_array(), *gbps = bytes > 0 ? json_array() : NULL;
		size_t i;
		json_array_foreach(ns, i, v) {
			double x = json_number_value(v);
			json_array_append_new(us, json_real(x / 1e3));   /* us */
			if (gbps && x > 0)
				json_array_append_new(gbps, json_real(bytes / x));   /* GB/s */
		}
		json_object_set_new(t, "execution_time", us);
		json_t *wall_ns = json_object_get(p->pt, "wall_ns");
		json_t *wall = summary ? summary_samples(wall_ns, 1e3)             /* us */
				       : scaled_samples(wall_ns, p->n, 1e3);
		if (wall)
			json_object_set_new(t, "wall_time", wall);
		if (gbps && json_array_size(gbps) == json_array_size(ns))
			json_object_set_new(t, "bandwidth", gbps);
		else
			json_decref(gbps);
		json_decref(ns);
		any = true;
	}
	if (json_is_integer(res)) {
		json_object_set_new(t, "resident_wg", json_real((double)json_integer_value(res)));
		any = true;
	}
	if (!any) {
		json_decref(t);
		return NULL;
	}
	return t;
}

/* Every point's test, named; a name seen before gets #2, #3, ... *left counts the ok points
 * with no figure to export (no times, no residency: sg-info's mapping, a --validate-only run). */
static json_t *tests_json(const struct cmp_doc *docs, size_t n, size_t *left)
{
	json_t *tests = json_array(), *seen = json_object();

	*left = 0;
	for (size_t d = 0; d < n; d++)
		for (size_t i = 0; i < docs[d].n; i++) {
			json_t *t = test_json(&docs[d].pts[i]);
			char name[1024], unique[1100];
			if (!t) {
				*left += strcmp(docs[d].pts[i].status, "ok") == 0 && !docs[d].pts[i].suspect;
				continue;
			}
			export_test_name(&docs[d].pts[i], name, sizeof(name));
			json_int_t k = json_integer_value(json_object_get(seen, name)) + 1;
			json_object_set_new(seen, name, json_integer(k));
			if (k > 1)
				snprintf(unique, sizeof(unique), "%s#%lld", name, (long long)k);
			else
				snprintf(unique, sizeof(unique), "%s", name);
			json_t *named = json_pack("{s:s}", "name", unique);
			json_object_update(named, t);
			json_decref(t);
			json_array_append_new(tests, named);
		}
	json_decref(seen);
	return tests;
}

/*
 * On stderr: the suspect points left out (their figures are no results: neither a time nor an
 * execution_status; LNT and Otava would keep a broken clock's figure as history).
 */
static void export_suspect_note(const struct cmp_doc *docs, size_t n, size_t kept)
{
	size_t suspect = 0, in = 0;

	for (size_t i = 0; i < n; i++) {
		size_t k = cmp_doc_suspects(&docs[i]);
		suspect += k;
		in += k > 0;
	}
	if (suspect)
		fprintf(stderr, "bench export: %zu suspect point%s of %zu document%s left out of the %zu "
			"exported (%s)\n", suspect, suspect > 1 ? "s" : "", in, in > 1 ? "s" : "", kept,
			CMP_SUSPECT_WHY);
}

/* The tests of the documents: none is refused; ok points with no figure are named on stderr. */
static json_t *tests_checked(const struct cmp_doc *docs, size_t n)
{
	size_t left, total = 0, suspect = 0;
	json_t *tests = tests_json(docs, n, &left);

	for (size_t i = 0; i < n; i++)
		total += docs[i].n;
	for (size_t i = 0; i < n; i++)
		suspect += cmp_doc_suspects(&docs[i]);
	if (!json_array_size(tests))
		cli_die(EXIT_USAGE, "no test to export: the %zu points of the document%s are skipped, "
			"suspect (%zu) or have no time or residency (%zu ok without either)", total,
			n > 1 ? "s" : "", suspect, left);
	export_suspect_note(docs, n, json_array_size(tests));
	if (left)
		fprintf(stderr, "bench export: %zu ok point%s without a time or residency (sg-info's mapping, "
			"a --validate-only run) left out of the %zu tests\n", left, left > 1 ? "s" : "",
			json_array_size(tests));
	return tests;
}

/* A document given twice would export its run's tests twice, as tests #2. */
static void distinct_documents(const struct export_opts *o)
{
	for (size_t i = 1; i < o->operands.n; i++)
		for (size_t j = i + 1; j < o->operands.n; j++)
			if (outf_same_file(o->operands.v[i], o->operands.v[j]))
				cli_usage_error("document %zu '%s' is document %zu '%s' again: its tests would "
						"be exported twice", j, o->operands.v[j], i, o->operands.v[i]);
}

/* All documents come from one host and one device and driver: one LNT machine. */
static void same_machine(const struct cmp_doc *docs, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		const struct cmp_doc *a = &docs[0], *b = &docs[i];
		if (strcmp(a->device, b->device) || strcmp(a->platform, b->platform) ||
		    strcmp(a->driver, b->driver) ||
		    strcmp(a->hostname ? a->hostname : "", b->hostname ? b->hostname : ""))
			cli_die(EXIT_USAGE, "%s and %s come from different machines (host, device or "
				"driver): one LNT run has one machine", a->path, b->path);
	}
}

static struct outf out = OUTF_INIT;

static void drop_output(void)
{
	outf_abort(&out);
}

static struct outf config_out = OUTF_INIT;

static void drop_config(void)
{
	outf_abort(&config_out);
}

/* The documents in time order (Otava reads the rows in file order): an insertion sort by
 * timestamp, stable. */
static void by_time(struct cmp_doc *docs, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && docs[j - 1].timestamp && docs[j].timestamp &&
				   strcmp(docs[j - 1].timestamp, docs[j].timestamp) > 0; j--) {
			struct cmp_doc x = docs[j];
			docs[j] = docs[j - 1];
			docs[j - 1] = x;
		}
}

/* What the CSV leaves out, on stderr: points not timed in every document (none: exit 2), and
 * the runs cut short that --allow-partial let in (the CSV has no place to say so). */
static void otava_notes(const struct cmp_doc *docs, size_t n, const json_t *metrics, size_t left)
{
	if (!json_array_size(metrics))
		cli_die(EXIT_USAGE, "no point to export: none of %s's points is timed in every "
			"document (%zu timed there; Otava needs a value in every row)", docs[n - 1].path,
			left);
	if (left)
		fprintf(stderr, "bench export: %zu timed points of %s are not in every document: left "
			"out (Otava needs a value in every row)\n", left, docs[n - 1].path);
	for (size_t i = 0; i < n; i++)
		if (json_object_get(docs[i].root, "interrupted"))
			fprintf(stderr, "bench export: %s was cut short (by %s): run %zu holds the points "
				"it measured\n", docs[i].path, docs[i].interrupted ? docs[i].interrupted : "?",
				i + 1);
}

/* The documents as Otava's CSV, and its configuration where --config asks. */
static bool export_otava(const struct export_opts *o, struct cmp_doc *docs, size_t n, char *err,
			 size_t len)
{
	json_t *metrics;
	size_t left;
	char path[4096];
	bool ok;

	by_time(docs, n);
	char *csv = otava_csv(docs, n, &metrics, &left);
	export_suspect_note(docs, n, json_array_size(metrics));   /* before a refusal: why */
	otava_notes(docs, n, metrics, left);
	ok = outf_commit(&out, csv, strlen(csv), err, len);
	free(csv);
	if (ok && o->config) {
		if (!realpath(o->output, path))
			snprintf(path, sizeof(path), "%s", o->output);
		json_t *cfg = otava_config("bench", path, metrics);
		ok = res_write_json(&config_out, cfg, err, len);
		json_decref(cfg);
	}
	json_decref(metrics);
	return ok;
}

/* The documents as one run of LNT's report format 2. */
static bool export_lnt(const struct export_opts *o, struct cmp_doc *docs, size_t n, char *err,
		       size_t len)
{
	const char *order = strcmp(o->order, "driver") == 0 ? docs[0].driver : o->order;

	lnt_summary = !o->samples;
	if (!dotted_integers(order))
		cli_die(EXIT_USAGE, "%s: device.driver_version: '%s' is not dotted integers, which LNT "
			"needs to sort runs: give --order N", docs[0].path, order);
	json_t *report = json_pack("{s:s, s:o, s:o, s:o}", "format_version", "2",
				   "machine", machine_json(&docs[0]), "run", run_json(docs, n, order),
				   "tests", tests_checked(docs, n));
	bool ok = res_write_json(&out, report, err, len);
	json_decref(report);
	return ok;
}

static int export_main(void *opts)
{
	struct export_opts *o = opts;
	size_t n = o->operands.n - 1;
	struct cmp_doc *docs = bench_alloc(n * sizeof(*docs));
	bool otava = strcmp(o->operands.v[0], "otava") == 0;
	char err[1024];

	atexit(drop_output);
	atexit(drop_config);
	distinct_documents(o);
	cmp_doc_allow_partial(o->allow_partial);
	for (size_t i = 0; i < n; i++) {
		char what[32];
		snprintf(what, sizeof(what), "document %zu", i + 1);
		bench_input(what, o->operands.v[i + 1]);
	}
	bench_output(&out, "-o", o->output);
	if (o->config)
		bench_output(&config_out, "--config", o->config);
	for (size_t i = 0; i < n; i++)
		cmp_doc_load(&docs[i], o->operands.v[i + 1]);
	same_machine(docs, n);
	bool ok = otava ? export_otava(o, docs, n, err, sizeof(err))
			: export_lnt(o, docs, n, err, sizeof(err));
	for (size_t i = 0; i < n; i++)
		cmp_doc_free(&docs[i]);
	free(docs);
	if (!ok)
		cli_die(EXIT_FAIL, "%s", err);
	return EXIT_OK;
}

const struct bench_tool export_tool = {
	.cmd = {
		.name = "export",
		.summary = "results documents in another format: lnt (LNT's report format 2), otava (Apache Otava's CSV)",
		.synopsis =
			"usage: bench export lnt DOC... --order N -o FILE [--samples]\n"
			"       bench export otava DOC... -o FILE.csv [--config FILE.yaml]\n"
			"  Writes the results documents as one run of LNT's report format 2 (for\n"
			"  `lnt import INSTANCE FILE -s bench`, schema results/lnt/bench.yaml). The\n"
			"  machine is the host and the device (name, platform, driver, Level Zero\n"
			"  hierarchy as fields); the run has the documents' start and end times and\n"
			"  the order llvm_project_revision = N. Each point is a test named\n"
			"  benchmark.variant/param=value/... (the params bench compare matches on,\n"
			"  descriptions left out) with its summary as five samples (min, p5, median,\n"
			"  p95, max; --samples: every repetition): execution_time and wall_time in\n"
			"  microseconds, bandwidth in GB/s, resident_wg for occupancy, and\n"
			"  execution_status 1 for a failed point. Every document must come from the\n"
			"  same host, device and driver. The schema is installed with bench\n"
			"  (DATADIR/lnt/bench.yaml; bench --version names DATADIR).\n"
			"  otava: one CSV row a document, in time order (time, run 1, 2, ...), and one\n"
			"  column a point timed in every document, named as LNT's tests, holding its\n"
			"  median in ns; --config writes the test `bench` of Otava's configuration for\n"
			"  it (every point a time: lower is better). bench history runs Otava on it.\n",
		.opts = export_cli,
		.opts_size = sizeof(struct export_opts),
		.check = export_check,
		.flags = BENCH_OPERANDS,
		.operands_off = offsetof(struct export_opts, operands),
	},
	.main = export_main,
};
