/*
 * The compare wing's face: results documents read and judged, for bench compare, baseline,
 * history and export here, and for bench suite's confirmation.
 *
 *   compare.c     bench compare: the command, its options and outputs
 *   baseline.c    bench baseline: runs folded into one baseline document
 *   history.c     bench history: a baseline folder's runs over time (Apache Otava)
 *   export.c      bench export: documents as LNT reports or Otava's CSV
 *   verdict.c     the verdicts: matched points judged by the U test, the noise band, the clock
 *                 gate, the outcomes, the majority of NEW's attempts
 *   out.c         the views of a comparison: text table, JSON, JUnit, Markdown
 *   doc.c         documents read and checked, each point ready to judge
 *   otava.c       documents as Otava's CSV input
 *   point_name.c  a point's name across runs
 */
#ifndef BENCH_COMPARE_H
#define BENCH_COMPARE_H

#include "cli.h"
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* ---- documents (doc.c) ---- */

/* In the order the Markdown summary lists them: regressions first. */
enum cmp_verdict {
	CMP_REGRESSED, CMP_FAILED, CMP_SUSPECT, CMP_CHANGED, CMP_IMPROVED, CMP_INCONCLUSIVE,
	CMP_NEW, CMP_MISSING, CMP_UNCHANGED, CMP_N_VERDICTS
};

/* Repetitions each side needs for the U test; fewer gives inconclusive. */
#define CMP_MIN_REPS 9
/* The most clock probe times a side (before, after) of a point may hold. */
#define CMP_PROBE_MAX 16
/* The clock gate's least tolerance, %: the probe's own repeatability at a fixed clock. */
#define CMP_PROBE_MIN_PCT 1
/*
 * Samples that alternate between two levels launch to launch: a lag-1 autocorrelation at
 * most CMP_ALT_LAG1 over at least CMP_ALT_MIN samples (-0.5 over 20: about 2.2 standard
 * errors from none). On an H200 atomics on shared counters sit at -0.6 to -0.9, launches
 * 150 and 165 us in turn; where the two levels are near equally many, the median lands
 * anywhere between them. Such a point is compared by the means of consecutive pairs.
 */
#define CMP_ALT_LAG1 (-0.5)
#define CMP_ALT_MIN 20

/* params members left out of matching, and why (doc.c). */
struct cmp_ignored {
	const char *key;
	const char *why;
};
extern const struct cmp_ignored cmp_ignored_params[];

/* Which way a compared outcome gets worse (a worse one is `regressed`, another change `changed`). */
enum cmp_worse { CMP_WORSE_NEVER, CMP_WORSE_UP, CMP_WORSE_ANY };

/*
 * The outcomes compared between matched points (doc.c), by dotted path in a point:
 * a difference is `changed`, or `regressed` where it is worse. Extend it with a row.
 */
struct cmp_outcome {
	const char *path;
	enum cmp_worse worse;
	const char *why;
};
extern const struct cmp_outcome cmp_outcomes[];

/* One point of a results document, checked. */
struct cmp_point {
	size_t index;              /* in points[] */
	json_t *pt;                /* the point (borrowed from the document) */
	const char *bench;         /* its benchmark */
	json_t *params;
	const char *status, *reason;
	bool validated;
	/* its times are not to be believed: status suspect, its clock member saying the host's
	 * witness disagreed, or its document's clock_check failed; suspect_why says which */
	bool suspect;
	const char *suspect_what;  /* "status suspect", "clock.agree false", "clock_check failed" */
	const char *suspect_why;
	double *samples;           /* time_ns.samples; NULL: the point has no timings */
	size_t n;
	double median;             /* time_ns.median, ns */
	/* the means of consecutive samples (stats_pair_means) and their median; lag1 the
	 * samples' lag-1 autocorrelation; alternates: they alternate (CMP_ALT_LAG1), or a
	 * baseline's run_spread.paired says its runs were judged by their pairs */
	double *pairs, pairs_median, lag1;
	size_t n_pairs;
	bool alternates;
	/* run_spread.spread_pct: a baseline's run-to-run spread of this point, % (< 0: none);
	 * within_pct, entry_spread_pct: the noise inside a run, and the spread of its entry */
	double spread_pct, within_pct, entry_spread_pct;
	double band_floor_pct;     /* its suite entry's least band (runs[].band_floor_pct; 0: none) */
	size_t spread_runs;        /* run_spread.runs */
	bool between_runs;         /* run_spread.between_runs: its level moves between processes */
	/* attempts: the point measured again (bench suite's confirmation), each a point */
	struct cmp_point *attempts;
	size_t n_attempts;
	/* clock_probe_ns: its times before and after, each side's least, most and median, and
	 * the median of all (0: none) */
	double probe_lo[2], probe_hi[2], probe_mid[2], probe_med;
	char *key;                 /* benchmark (its device where the comparison has several)
				    * and params less the ignored members */
	const char *device;        /* the device it names, in a document of several (else NULL) */
	int concurrent;            /* --concurrent: 1 measured at once, 0 alone, -1 not said */
	bool matched;
};

/* A results document, checked. */
struct cmp_doc {
	const char *path;
	json_t *root;
	const char *device, *platform, *driver, *hostname, *timestamp;
	const char *name;          /* its `suite` member, or else its `benchmark` (baseline names) */
	json_t *noise;             /* its `noise` map, benchmark: percent (a suite's; NULL: none) */
	struct cmp_point *pts;
	size_t n;
	bool several;              /* its points name their devices (a run on several) */
	bool cpu;                  /* its device.type is CPU (the clock gate stays off) */
	const char *clock_bad;     /* clock_check.reason where the session's check failed, else NULL */
	const char *interrupted;   /* interrupted.by of a partial document read anyway, else NULL */
	char label[512];           /* its device's name as such a document writes it */
};

/* A document's UTC ISO 8601 time ("2026-11-23T10:00:00Z") formatted by fmt, whose six
 * conversions take year, month, day, hour, minute, second; false where ts is not one. */
bool cmp_utc_format(const char *ts, const char *fmt, char *out, size_t len);
/*
 * Reads and checks a results document: exits 2 with a message naming the file and
 * the field for an unreadable, truncated or malformed document, a missing member,
 * a NaN, a time that is not positive (the rules of results/schema/input.schema.json, which
 * bench report applies too), and for a valid document that cannot be read as a whole: one of
 * no device; an interrupted or empty one, unless cmp_doc_allow_partial.
 */
void cmp_doc_load(struct cmp_doc *d, const char *path);
/* Whether interrupted and empty documents are read (--allow-partial); false at first. */
void cmp_doc_allow_partial(bool on);
/* The same for a document in memory (its reference taken; path names it in messages). */
void cmp_doc_from_json(struct cmp_doc *d, json_t *root, const char *path);
/* The key a point of bench with params is matched by (its params less the ignored members). */
char *cmp_point_key(const char *bench, json_t *params);
void cmp_doc_free(struct cmp_doc *d);
/*
 * Whether two points' calibrated params (occupancy's spin) are equal, so that their times
 * measure the same work; false with why ("params.spin 32768 -> 16384 ...").
 */
bool cmp_same_calibration(const struct cmp_point *a, const struct cmp_point *b, char *why, size_t len);
/*
 * The values of the members `names` (NULL-ended) of d's first measured point (ok or suspect)
 * of benchmark bench whose params hold every member of params (the ignored ones aside): a
 * new object, or NULL where none does. A run timed with a reference's calibration.
 */
json_t *cmp_doc_calibrated(const struct cmp_doc *d, const char *bench, json_t *params,
			   const char *const *names);
/*
 * The measurement of p that its figures are shown from: its last attempt where it has any (bench
 * suite --confirm stops when two attempts agree, so the last is one of those that gave the
 * verdict, and the ratio and interval the verdict states are the last attempt's), else p itself.
 */
const struct cmp_point *cmp_shown(const struct cmp_point *p);
/*
 * The match keys of d's points: with devices (a point's own, or else the document's), where
 * either document of a comparison holds several; without, as for two of one device each.
 */
void cmp_doc_keys(struct cmp_doc *d, bool with_device);
/* s in lower-case letters and digits, every other run of characters one '-'. */
void cmp_slug(const char *s, char *out, size_t len);
/* "nvidia-h100-80gb-hbm3--gpu.json": the baseline file name for a document. */
void cmp_baseline_name(const struct cmp_doc *d, char *buf, size_t len);

/* "regressed", ... */
const char *cmp_verdict_name(enum cmp_verdict v);
/* How many of d's points (attempts left aside) are suspect (cmp_point.suspect). */
size_t cmp_doc_suspects(const struct cmp_doc *d);
/* The words every reader prints beside a count of suspect points it left out. */
#define CMP_SUSPECT_WHY "their times are not to be believed: the driver's clock and the host's " \
	"disagreed"

/* ---- verdicts (verdict.c) and their views (out.c) ---- */

/* The most attempts of a point judged (the first measurement and its re-measurements). */
#define CMP_MAX_ATTEMPTS 8

#define CMP_MAX_NOISE_FOR 64

struct cmp_noise_for {
	const char *bench;         /* argv's string, up to the '=' */
	size_t len;
	double pct;
};

/* How points are judged (bench compare's options; bench suite's confirmation the same). */
struct cmp_rules {
	double alpha;              /* --alpha: the U test's level */
	double noise_pct;          /* --noise, percent */
	struct cmp_noise_for noise_for[CMP_MAX_NOISE_FOR];
	size_t n_noise_for;
	/* a point of a baseline made of several runs: band max(floor_pct, spread_mult x spread);
	 * spread_mult 0: by the baseline's runs (CMP_SPREAD_MULT_FEW, _MANY) */
	double floor_pct, spread_mult;
	bool allow_different_device;
};

/* The defaults of the rules (bench compare's option table states the same macros). */
#define CMP_ALPHA_DEFAULT 0.05
#define CMP_NOISE_DEFAULT 2
#define CMP_FLOOR_DEFAULT 1
/*
 * --spread-mult's default (spread_mult 0): 3 x the spread of a baseline of fewer than
 * CMP_SPREAD_RUNS runs, 2 x that of one of more. The spread is the largest distance of a run's
 * median from the median of the runs' medians, so it grows with the runs; measured on an H200
 * (docs/regression.md): 10 A/A runs judged against 5 runs' baseline, 0 regressed with either
 * factor; a 5 % plant in vecadd's sweep caught at 55 % of its points with 3 x, 89 % with 2 x.
 * Against a baseline of 3 runs the same A/A runs gave 1-2 points outside a plant regressed.
 */
#define CMP_SPREAD_MULT_FEW 3
#define CMP_SPREAD_MULT_MANY 2
#define CMP_SPREAD_RUNS 5
void cmp_rules_default(struct cmp_rules *r);

/* The sides of a pair, as bits (cmp_row.suspect). */
#define CMP_SIDE_BASE 1u
#define CMP_SIDE_NEW 2u

/* One row of the comparison: a matched pair, or a point on one side only. */
struct cmp_row {
	const struct cmp_point *base, *new_;
	enum cmp_verdict verdict;
	char params[512];          /* the parameters that tell the benchmark's points apart */
	double noise_pct;
	const char *band_from;     /* where the band comes from: "--noise", "suite", "learned", ... */
	bool have_ratio, have_test;
	double ratio, lo, hi;      /* median(new) / median(base) and its bootstrap interval */
	double u, p;
	const char *p_method;
	bool significant, outside_noise;
	double probe_ratio;        /* the clock probe's NEW / BASE (0: not both probed) */
	bool probe_units;          /* judged in probe units: the times divided by the probe's */
	bool paired;               /* an attempt judged by the means of consecutive pairs (CMP_ALT_LAG1) */
	/* NEW's attempts (the first and its re-measurements): each one's verdict, in order */
	enum cmp_verdict attempt[CMP_MAX_ATTEMPTS];
	size_t n_attempts;
	unsigned suspect;          /* the sides found suspect: CMP_SIDE_BASE | CMP_SIDE_NEW */
	json_t *changed;           /* [{field, base, new}], owned */
	char notes[1024];
};

struct cmp_result {
	const struct cmp_rules *o;
	struct cmp_doc base, new_;
	/* the suite's noise bands: NEW's map where it has one, else BASE's (NULL: none) */
	const struct cmp_doc *noise_from;
	struct cmp_row *rows;
	size_t n;
	unsigned counts[CMP_N_VERDICTS];
	int exit_code;
};

/*
 * Judges c->new_ against c->base under c->o: refuses documents of different devices unless
 * allowed (exit 2), matches the points, a verdict each, the counts and the exit code (1 where
 * a point regressed or failed, or NEW's point was suspect; not where only BASE's was: the run
 * under test is not at fault).
 */
void cmp_compare(struct cmp_result *c);
/* The suspect pairs whose NEW side is suspect (those that make the exit code 1). */
unsigned cmp_suspect_new(const struct cmp_result *c);
void cmp_result_free(struct cmp_result *c);

/* The views (out.c). */
void cmp_print(const struct cmp_result *c, FILE *f);
json_t *cmp_json(const struct cmp_result *c);
char *cmp_junit(const struct cmp_result *c);
char *cmp_markdown(const struct cmp_result *c);
/* GitHub Actions' annotations on f (channels.c): an error for each point that makes the exit
 * code 1 (regressed, failed, NEW suspect), a notice for an improved one; file= NEW's path. */
void cmp_annotate(const struct cmp_result *c, FILE *f);
/* GitLab's metrics report (OpenMetrics text): the counts of each verdict, the exit code, and
 * each point's NEW median (us) and ratio, named as LNT's tests. A new string, NULL on no memory. */
char *cmp_metrics(const struct cmp_result *c);

/* ---- Otava (otava.c) ---- */

/*
 * The CSV of docs (in the order given): columns time (the document's timestamp as
 * "YYYY-MM-DD HH:MM:SS +0000"), run (1, 2, ...) and one per point timed in every document,
 * named as export_test_name, holding its median in ns. *metrics gets the names of those
 * columns (a new array), *left the number of timed points left out (not in every document).
 * Exits 2 naming the document whose timestamp is not a UTC ISO 8601 time.
 */
char *otava_csv(const struct cmp_doc *docs, size_t n, json_t **metrics, size_t *left);

/*
 * Otava's executable into buf: BENCH_OTAVA, else `otava` on PATH, else a build tree's
 * .deps/otava, else the user's $XDG_DATA_HOME/bench/otava (~/.local/share/bench/otava); else
 * exit 77 saying how to install it (for a build tree, scripts/setup.sh; for an installed
 * bench, one python3 -m venv ... && pip install command that makes the last).
 */
void otava_find(char *buf, size_t len);

/* Otava's configuration (YAML; JSON is YAML) of one csv test named `test` on csv_path:
 * time_column time, attribute run, each metric a time (direction -1: lower is better). */
json_t *otava_config(const char *test, const char *csv_path, json_t *metrics);

/* ---- names across runs (point_name.c) ---- */

/*
 * The test name of a point: benchmark.variant/param=value/... (the params compare matches on,
 * after the device and alone or at once of a run on several devices).
 */
void export_test_name(const struct cmp_point *p, char *buf, size_t len);

#endif
