/*
 * bench baseline DOC DOC DOC... -o FILE: one baseline made of several runs of the same
 * suite or benchmark on the same device. Each point keeps every run's samples (its time_ns
 * made of them all) and states its run-to-run spread: the largest distance of a run's median
 * from the median of the runs' medians. bench compare, given such a BASE, bands each point
 * by its own spread (verdict.c): stable points tightly, noisy ones widely.
 */
#include "tool.h"
#include "compare_doc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The fewest runs a baseline is made of: one spread needs a few runs to mean anything. */
#define BASELINE_MIN_RUNS 3
#define BASELINE_MAX_RUNS 64

struct baseline_opts {
	struct cli_operands operands;
	const char *output;
	bool allow_different_device;
};

#define BO(f) offsetof(struct baseline_opts, f)
static const struct cli_opt baseline_cli[] = {
	{ "output", "FILE", CLI_STR, BO(output), .short_name = 'o',
	  .help = "write the baseline there (required; never one of the runs)" },
	{ "allow-different-device", NULL, CLI_FLAG, BO(allow_different_device),
	  .help = "make it of runs of different devices or drivers" },
	{ 0 } };

static void baseline_check(void *opts, const struct cli_set *given)
{
	const struct baseline_opts *o = opts;

	(void)given;
	if (o->operands.n < BASELINE_MIN_RUNS || o->operands.n > BASELINE_MAX_RUNS)
		cli_usage_error("give %d to %d results documents of the same suite or benchmark, each a "
				"run (got %zu)", BASELINE_MIN_RUNS, BASELINE_MAX_RUNS, o->operands.n);
	if (!o->output)
		cli_usage_error("give -o FILE, the baseline to write");
}

/* Exit 2 where the runs are not of one device, driver and suite (unless allowed). */
static void same_runs(const struct cmp_doc *d, size_t n, bool allow)
{
	for (size_t i = 1; i < n; i++) {
		bool dev = strcmp(d[i].device, d[0].device) == 0 && strcmp(d[i].platform, d[0].platform) == 0 &&
			   strcmp(d[i].driver, d[0].driver) == 0;
		bool name = (!d[i].name && !d[0].name) || (d[i].name && d[0].name &&
							    strcmp(d[i].name, d[0].name) == 0);
		if (!name)
			cli_die(EXIT_USAGE, "%s is a run of '%s', %s of '%s': a baseline is made of runs of "
				"one suite or benchmark", d[i].path, d[i].name ? d[i].name : "(none)",
				d[0].path, d[0].name ? d[0].name : "(none)");
		if (!dev && !allow)
			cli_die(EXIT_USAGE, "%s ran on '%s' (%s, driver %s), %s on '%s' (%s, driver %s); "
				"--allow-different-device makes one baseline of them anyway", d[i].path,
				d[i].device, d[i].platform, d[i].driver, d[0].path, d[0].device, d[0].platform,
				d[0].driver);
	}
}

/* The point of run d with key (NULL: none; each point of a run is taken once). */
static struct cmp_point *find(struct cmp_doc *d, const char *key)
{
	for (size_t j = 0; j < d->n; j++)
		if (!d->pts[j].matched && strcmp(d->pts[j].key, key) == 0) {
			d->pts[j].matched = true;
			return &d->pts[j];
		}
	return NULL;
}

/* The median of n values (sorts them). */
static double median_of(double *v, size_t n)
{
	struct stats st;

	stats_compute(v, n, &st);
	return st.median;
}

/*
 * Point p of the last run, made of the runs that have it: every run's samples in its time_ns,
 * and its run_spread where two runs or more measured it.
 */
static void pool_point(struct cmp_doc *d, size_t n, struct cmp_point *p, json_t *out)
{
	double *all = NULL, med[BASELINE_MAX_RUNS], sorted[BASELINE_MAX_RUNS], spread = 0, m;
	size_t total = 0, k = 0;
	struct stats st;

	for (size_t i = 0; i < n; i++) {
		struct cmp_point *q = i + 1 == n ? p : find(&d[i], p->key);
		if (!q || !q->samples)
			continue;
		all = realloc(all, (total + q->n) * sizeof(*all));
		if (!all)
			cli_die(EXIT_FAIL, "out of host memory");
		memcpy(all + total, q->samples, q->n * sizeof(*all));
		total += q->n;
		med[k++] = q->median;
	}
	if (k < 2) {   /* measured in one run only: its own times, no spread to learn */
		free(all);
		return;
	}
	memcpy(sorted, med, k * sizeof(*med));
	m = median_of(sorted, k);
	for (size_t i = 0; i < k; i++)
		spread = fmax(spread, fabs(med[i] / m - 1) * 100);
	json_t *medians = json_array();
	for (size_t i = 0; i < k; i++)
		json_array_append_new(medians, json_real(med[i]));
	stats_compute(all, total, &st);
	json_object_set_new(out, "time_ns", res_stats_json(&st, all, total));
	json_object_set_new(out, "run_spread", json_pack("{s:I, s:o, s:f}", "runs", (json_int_t)k,
							 "medians", medians, "spread_pct", spread));
	free(all);
}

/* The baseline document: the last run's, every point pooled, and what it was made of. */
static json_t *make_baseline(struct cmp_doc *d, size_t n)
{
	json_t *doc = json_deep_copy(d[n - 1].root), *points = json_object_get(doc, "points");
	json_t *runs = json_array();

	for (size_t i = 0; i < d[n - 1].n; i++)
		pool_point(d, n, &d[n - 1].pts[i], json_array_get(points, i));
	for (size_t i = 0; i < n; i++)
		json_array_append_new(runs, json_pack("{s:s, s:s?}", "path", d[i].path, "timestamp",
						      d[i].timestamp));
	json_object_set_new(doc, "baseline", json_pack("{s:I, s:o, s:s}", "runs", (json_int_t)n,
		"documents", runs, "spread",
		"per point: every run's samples in time_ns, and run_spread: the largest distance of a "
		"run's median from the median of the runs' medians, percent"));
	return doc;
}

static int baseline_main(void *opts)
{
	struct baseline_opts *o = opts;
	struct cmp_doc *d = bench_zalloc(o->operands.n * sizeof(*d));
	struct outf out = OUTF_NONE;
	char err[1024];
	int rc = EXIT_OK;

	for (size_t i = 0; i < o->operands.n; i++) {
		char what[32];
		snprintf(what, sizeof(what), "run %zu", i + 1);
		bench_input(what, o->operands.v[i]);
	}
	bench_output(&out, "-o", o->output);
	for (size_t i = 0; i < o->operands.n; i++)
		cmp_doc_load(&d[i], o->operands.v[i]);
	same_runs(d, o->operands.n, o->allow_different_device);
	json_t *doc = make_baseline(d, o->operands.n);
	if (!res_write_json(&out, doc, err, sizeof(err))) {
		fprintf(stderr, "bench baseline: %s\n", err);
		rc = EXIT_FAIL;
	}
	json_decref(doc);
	for (size_t i = 0; i < o->operands.n; i++)
		cmp_doc_free(&d[i]);
	free(d);
	return rc;
}

const struct bench_tool baseline_tool = {
	.cmd = {
		.name = "baseline",
		.summary = "one baseline of several runs: each point's samples and run-to-run spread",
		.synopsis = "usage: bench baseline RUN RUN RUN... -o FILE\n"
			    "  Makes a baseline of 3 or more runs (results documents) of one suite or\n"
			    "  benchmark on one device: the last run's document, each point holding every\n"
			    "  run's samples and its run-to-run spread (run_spread). bench compare given it\n"
			    "  as BASE bands each point by its own spread: the larger of --noise-floor and\n"
			    "  --spread-mult x the spread.\n",
		.opts = baseline_cli,
		.opts_size = sizeof(struct baseline_opts),
		.check = baseline_check,
		.flags = BENCH_OPERANDS,
		.operands_off = offsetof(struct baseline_opts, operands),
	},
	.main = baseline_main,
};
