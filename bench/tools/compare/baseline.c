/*
 * bench baseline DOC DOC DOC... -o FILE: one baseline made of several runs of the same
 * suite or benchmark on the same device. Each point keeps every run's samples (its time_ns
 * made of them all) and states how much it moves (run_spread), three ways:
 *   spread_pct        the largest distance of a run's median from the median of the runs'
 *                     medians (run to run);
 *   within_pct        the median, over the runs, of the half-width of a run's 95 % interval
 *                     of its median (order statistics): the noise inside one run, which a
 *                     few runs' medians can happen to hide;
 *   entry_spread_pct  the median spread_pct of the points of its suite entry (or benchmark):
 *                     a point measured alike by three runs is not thereby more stable than
 *                     its neighbours.
 * A point whose launches alternate between two levels in any run (compare.h, CMP_ALT_LAG1)
 * takes each run's median and interval from the means of its consecutive pairs (paired):
 * the median of two near equal groups lands anywhere between them, a pair's mean does not.
 * bench compare, given such a BASE, bands each point by the largest of the three
 * (verdict.c): stable points tightly, noisy ones widely. Three runs of the H100's gpu suite
 * (docs/regression.md) gave vecadd's sweep points spreads of 0.4 to 1.6 % though every point
 * of it does the same; the median over the entry, 0.7 %, keeps the lucky ones honest.
 */
#include "tool.h"
#include "compare.h"

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

/* A run's point whose clock probe ran this much slower than the point's fastest run's is
 * left out: the device was slow then (its clock or power state), and its times would widen
 * the band of a point that does not move. Three H100 runs of the gpu suite had points whose
 * probe took 44-59 us against 35 us, the point 15-30 % slower with it. */
#define BASELINE_PROBE_SLOW 1.05

/* Whether run point q's probe moved within it, or ran slower than ref by the factor above. */
static bool unsteady(const struct cmp_point *q, double ref)
{
	if (!(q->probe_med > 0 && ref > 0))
		return false;
	return q->probe_med > ref * BASELINE_PROBE_SLOW ||
	       q->probe_lo[1] > q->probe_hi[0] * BASELINE_PROBE_SLOW ||
	       q->probe_lo[0] > q->probe_hi[1] * BASELINE_PROBE_SLOW;
}

/* What the baseline left out because it was suspect, over every point. */
struct baseline_suspect {
	size_t runs;      /* a run's point left out: suspect there */
	size_t points;    /* points suspect in every run that has them: suspect in the baseline */
};

/*
 * The runs' points of p that are pooled: none that is suspect (its times are not to be
 * believed: the run numbers go into suspect), none calibrated differently from p (other
 * work: into calib); on a GPU those whose clock probe was steady (at
 * least one: the fastest probe's), the others into dropped. Returns how many are kept; *timed
 * how many were timed and trusted before the probe's rule.
 */
static size_t steady_runs(struct cmp_doc *d, size_t n, struct cmp_point *p, struct cmp_point **q,
			  json_t *dropped, json_t *suspect, json_t *calib, size_t *timed)
{
	size_t k = 0, kept = 0;
	char why[128];
	int run[BASELINE_MAX_RUNS];
	double ref = 0;

	for (size_t i = 0; i < n; i++) {
		struct cmp_point *x = i + 1 == n ? p : find(&d[i], p->key);
		if (x && x->suspect)
			json_array_append_new(suspect, json_integer((json_int_t)i + 1));
		if (!x || !x->samples || x->suspect)
			continue;
		if (!cmp_same_calibration(x, p, why, sizeof(why))) {   /* other work: not poolable */
			json_array_append_new(calib, json_pack("{s:i, s:s}", "run", (int)i + 1, "why", why));
			continue;
		}
		run[k] = (int)i + 1;
		q[k++] = x;
		if (x->probe_med > 0 && (ref == 0 || x->probe_med < ref))
			ref = x->probe_med;
	}
	for (size_t i = 0; i < k; i++) {
		if (!d[0].cpu && unsteady(q[i], ref) && !(kept == 0 && i + 1 == k)) {
			json_array_append_new(dropped, json_pack("{s:i, s:f, s:f}", "run", run[i], "probe_ns",
								  q[i]->probe_med, "median_ns", q[i]->median));
			continue;
		}
		q[kept++] = q[i];
	}
	*timed = k;
	return kept;
}

/*
 * The last run's point out, where it is suspect: the first trusted run's point instead (a
 * baseline's figure is never one the clocks disagreed on), or, suspect in every run that has
 * it, marked suspect with why (an ok point whose clock member disagreed included): true then.
 */
static bool trusted_point(const struct cmp_point *p, struct cmp_point *const *q, size_t timed,
			  json_t *out, struct baseline_suspect *left)
{
	if (!p->suspect)
		return false;
	if (timed) {
		json_t *copy = json_deep_copy(q[0]->pt);
		json_object_clear(out);
		json_object_update(out, copy);
		json_decref(copy);
		return false;
	}
	left->points++;
	if (strcmp(p->status, "suspect") != 0) {   /* ok, but its clocks disagreed: say so */
		char why[1024];
		snprintf(why, sizeof(why), "%s in every run: %s", p->suspect_what, p->suspect_why);
		json_object_set_new(out, "status", json_string("suspect"));
		json_object_set_new(out, "reason", json_string(why));
	}
	return true;
}

/*
 * A point whose level moves between processes: its runs' medians lie apart by more than
 * BASELINE_BETWEEN times the noise inside a run, and by more than BASELINE_BETWEEN_PCT. Such
 * a point's band is its runs' spread (compare's note says so): the noise of one run would
 * call the next process's level a change.
 */
#define BASELINE_BETWEEN 3.0
#define BASELINE_BETWEEN_PCT 1.0
static bool between_runs(double spread_pct, double within_pct)
{
	return spread_pct > BASELINE_BETWEEN_PCT && spread_pct > BASELINE_BETWEEN * within_pct;
}

/*
 * Point p of the last run, made of the runs that have it (on a GPU those with a steady clock
 * probe): every such run's samples in its time_ns, and its run_spread where two runs or more
 * measured it.
 */
static void pool_point(struct cmp_doc *d, size_t n, struct cmp_point *p, json_t *out,
		       struct baseline_suspect *left)
{
	struct cmp_point *q[BASELINE_MAX_RUNS];
	double *all = NULL, med[BASELINE_MAX_RUNS], spread = 0, m;
	double within[BASELINE_MAX_RUNS], lo, hi, cover, w;
	size_t total = 0, k, nw = 0, timed;
	json_t *dropped = json_array(), *medians = json_array(), *suspect = json_array();
	json_t *calib = json_array();
	struct stats st;

	k = steady_runs(d, n, p, q, dropped, suspect, calib, &timed);
	if (!trusted_point(p, q, timed, out, left))   /* else suspect in every run: kept so */
		left->runs += json_array_size(suspect);
	if (timed < 2) {   /* measured (and believed) in one run only */
		json_decref(dropped);
		json_decref(medians);
		json_decref(suspect);
		json_decref(calib);
		return;
	}
	/* a point whose launches alternate in any run: each run by the means of its pairs */
	bool paired = false, pairs = true;
	for (size_t i = 0; i < k; i++) {
		paired = paired || q[i]->alternates;
		pairs = pairs && q[i]->n_pairs > 0;
	}
	paired = paired && pairs;
	for (size_t i = 0; i < k; i++) {
		const double *x = paired ? q[i]->pairs : q[i]->samples;
		size_t nx = paired ? q[i]->n_pairs : q[i]->n;
		all = realloc(all, (total + q[i]->n) * sizeof(*all));
		if (!all)
			cli_die(EXIT_FAIL, "out of host memory");
		memcpy(all + total, q[i]->samples, q[i]->n * sizeof(*all));
		total += q[i]->n;
		med[i] = paired ? q[i]->pairs_median : q[i]->median;
		json_array_append_new(medians, json_real(med[i]));
		if (nx && stats_median_ci(x, nx, 0.95, &lo, &hi, &cover) && med[i] > 0)
			within[nw++] = (hi - lo) / 2 / med[i] * 100;
	}
	m = median_of(med, k);
	for (size_t i = 0; i < k; i++)
		spread = fmax(spread, fabs(q[i]->median / m - 1) * 100);
	w = nw ? median_of(within, nw) : 0.0;
	stats_compute(all, total, &st);
	json_object_set_new(out, "time_ns", res_stats_json(&st, all, total));
	if (json_object_get(q[0]->pt, "clock_probe_ns"))   /* a steady run's, not a dropped one's */
		json_object_set(out, "clock_probe_ns", json_object_get(q[0]->pt, "clock_probe_ns"));
	json_object_set_new(out, "run_spread", json_pack("{s:I, s:o, s:f, s:f, s:o, s:b, s:b}", "runs",
							 (json_int_t)k, "medians", medians, "spread_pct",
							 spread, "within_pct", w, "dropped", dropped,
							 "between_runs", nw && between_runs(spread, w),
							 "paired", paired));
	if (json_array_size(suspect))
		json_object_set(json_object_get(out, "run_spread"), "suspect", suspect);
	if (json_array_size(calib))
		json_object_set(json_object_get(out, "run_spread"), "calibrated_differently", calib);
	json_decref(suspect);
	json_decref(calib);
	free(all);
}

/* The group a point's spread is pooled in: its suite entry ("run"), else its benchmark. */
static json_int_t entry_of(json_t *pt)
{
	json_t *run = json_object_get(pt, "run");

	return json_is_integer(run) ? json_integer_value(run) : 0;
}

/* Every pooled point's entry_spread_pct: the median spread_pct of its entry's points. */
static void pool_entries(json_t *points)
{
	size_t n = json_array_size(points), i, k;
	double *v = bench_alloc((n ? n : 1) * sizeof(*v));
	json_t *p, *q;

	json_array_foreach(points, i, p) {
		json_t *rs = json_object_get(p, "run_spread");
		size_t m = 0;
		if (!rs)
			continue;
		json_array_foreach(points, k, q) {
			json_t *qs = json_object_get(q, "run_spread");
			if (qs && entry_of(q) == entry_of(p) &&
			    json_integer_value(json_object_get(qs, "runs")) >= 2)
				v[m++] = json_real_value(json_object_get(qs, "spread_pct"));
		}
		json_object_set_new(rs, "entry_spread_pct", json_real(m ? median_of(v, m) : 0.0));
	}
	free(v);
}

/* The baseline document: the last run's, every point pooled, and what it was made of. */
static json_t *make_baseline(struct cmp_doc *d, size_t n)
{
	json_t *doc = json_deep_copy(d[n - 1].root), *points = json_object_get(doc, "points");
	json_t *runs = json_array();
	struct baseline_suspect left = { 0 };

	for (size_t i = 0; i < d[n - 1].n; i++)
		pool_point(d, n, &d[n - 1].pts[i], json_array_get(points, i), &left);
	if (left.runs || left.points)
		fprintf(stderr, "bench baseline: %zu suspect point%s of the runs left out (%s); %zu "
			"point%s suspect in every run, suspect in the baseline\n", left.runs,
			left.runs == 1 ? "" : "s", CMP_SUSPECT_WHY, left.points,
			left.points == 1 ? "" : "s");
	pool_entries(points);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(runs, json_pack("{s:s, s:s?}", "path", d[i].path, "timestamp",
						      d[i].timestamp));
	json_object_set_new(doc, "baseline", json_pack("{s:I, s:o, s:{s:I, s:I}, s:s}", "runs",
		(json_int_t)n, "documents", runs, "suspect", "left_out", (json_int_t)left.runs,
		"points", (json_int_t)left.points, "spread",
		"per point: every run's samples in time_ns (on a GPU, of the runs whose clock probe was "
		"steady: the others in run_spread.dropped), and run_spread: spread_pct, the largest "
		"distance of a run's median from the median of the runs' medians; within_pct, the "
		"median half-width of a run's 95 % interval of its median; entry_spread_pct, the "
		"median spread_pct of its suite entry's points; percent"));
	return doc;
}

/* A run given twice would count its samples twice and hide its spread. */
static void distinct_runs(const struct baseline_opts *o)
{
	for (size_t i = 0; i < o->operands.n; i++)
		for (size_t j = i + 1; j < o->operands.n; j++)
			if (outf_same_file(o->operands.v[i], o->operands.v[j]))
				cli_usage_error("run %zu '%s' is run %zu '%s' again: its samples would count "
						"twice", j + 1, o->operands.v[j], i + 1, o->operands.v[i]);
}

static int baseline_main(void *opts)
{
	struct baseline_opts *o = opts;
	struct cmp_doc *d = bench_zalloc(o->operands.n * sizeof(*d));
	struct outf out = OUTF_NONE;
	char err[1024];
	int rc = EXIT_OK;

	distinct_runs(o);
	for (size_t i = 0; i < o->operands.n; i++) {
		char what[32];
		snprintf(what, sizeof(what), "run %zu", i + 1);
		bench_input(what, o->operands.v[i]);
	}
	bench_output(&out, "-o", o->output);
	for (size_t i = 0; i < o->operands.n; i++) {
		cmp_doc_load(&d[i], o->operands.v[i]);
		/* a baseline's samples are its runs' already: as a run they would count twice */
		if (json_object_get(d[i].root, "baseline"))
			cli_die(EXIT_USAGE, "%s (run %zu) is a baseline, not a run: its points pool "
				"the samples of %lld runs already; give the runs themselves", d[i].path,
				i + 1, (long long)json_integer_value(json_object_get(
					json_object_get(d[i].root, "baseline"), "runs")));
	}
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
			    "  --spread-mult x the spread. A run's suspect point (its clocks disagreed)\n"
			    "  is left out, counted on stderr; a point suspect in every run is suspect\n"
			    "  in the baseline.\n",
		.opts = baseline_cli,
		.opts_size = sizeof(struct baseline_opts),
		.check = baseline_check,
		.flags = BENCH_OPERANDS,
		.operands_off = offsetof(struct baseline_opts, operands),
	},
	.main = baseline_main,
};
