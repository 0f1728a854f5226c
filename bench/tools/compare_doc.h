/*
 * Results documents as bench compare, bench baseline, bench export and bench suite read
 * them (compare_doc.c): read and checked, each point's times, clock probe, learned band and
 * re-measurements ready to judge (verdict.h).
 */
#ifndef BENCH_COMPARE_DOC_H
#define BENCH_COMPARE_DOC_H

#include "cli.h"
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

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

/* params members left out of matching, and why (compare_doc.c). */
struct cmp_ignored {
	const char *key;
	const char *why;
};
extern const struct cmp_ignored cmp_ignored_params[];

/* Which way a compared outcome gets worse (a worse one is `regressed`, another change `changed`). */
enum cmp_worse { CMP_WORSE_NEVER, CMP_WORSE_UP, CMP_WORSE_ANY };

/*
 * The outcomes compared between matched points (compare_doc.c), by dotted path in a point:
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
	/* run_spread.spread_pct: a baseline's run-to-run spread of this point, % (< 0: none);
	 * within_pct, entry_spread_pct: the noise inside a run, and the spread of its entry */
	double spread_pct, within_pct, entry_spread_pct;
	size_t spread_runs;        /* run_spread.runs */
	/* attempts: the point measured again (bench suite's confirmation), each a point */
	struct cmp_point *attempts;
	size_t n_attempts;
	/* clock_probe_ns: its times before and after, each side's least and most (0: none) */
	double probe_lo[2], probe_hi[2], probe_med;
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

/*
 * Reads and checks a results document: exits 2 with a message naming the file and
 * the field for an unreadable, truncated or malformed document, a missing member,
 * a NaN, a time that is not positive (the rules of results/schema/input.schema.json, which
 * bench report applies too), and for a valid document that cannot be read as a whole: one of
 * no device; an interrupted or empty one, unless cmp_doc_allow_partial.
 */
/* A document's UTC ISO 8601 time ("2026-11-23T10:00:00Z") formatted by fmt, whose six
 * conversions take year, month, day, hour, minute, second; false where ts is not one. */
bool cmp_utc_format(const char *ts, const char *fmt, char *out, size_t len);
void cmp_doc_load(struct cmp_doc *d, const char *path);
/* Whether interrupted and empty documents are read (--allow-partial); false at first. */
void cmp_doc_allow_partial(bool on);
/* The same for a document in memory (its reference taken; path names it in messages). */
void cmp_doc_from_json(struct cmp_doc *d, json_t *root, const char *path);
/* The key a point of bench with params is matched by (its params less the ignored members). */
char *cmp_point_key(const char *bench, json_t *params);
void cmp_doc_free(struct cmp_doc *d);
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

#endif
