/*
 * The verdicts of bench compare, and of bench suite's confirmation (verdict.c): points of two
 * documents matched, each pair judged by the U test, the bootstrap interval against a noise
 * band (equivalence before unchanged), a directional clock gate, its outcomes, and the
 * majority of NEW's attempts; the views of a comparison (compare_out.c).
 */
#ifndef BENCH_VERDICT_H
#define BENCH_VERDICT_H

#include "compare_doc.h"

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
	/* a point of a baseline made of several runs: band max(floor_pct, spread_mult x spread) */
	double floor_pct, spread_mult;
	bool allow_different_device;
};

/* The defaults of the rules (bench compare's option table states the same macros). */
#define CMP_ALPHA_DEFAULT 0.05
#define CMP_NOISE_DEFAULT 2
#define CMP_FLOOR_DEFAULT 1
#define CMP_SPREAD_MULT_DEFAULT 3
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

/* The views (compare_out.c). */
void cmp_print(const struct cmp_result *c, FILE *f);
json_t *cmp_json(const struct cmp_result *c);
char *cmp_junit(const struct cmp_result *c);
char *cmp_markdown(const struct cmp_result *c);

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

/* The views (compare_out.c). */
void cmp_print(const struct cmp_result *c, FILE *f);
json_t *cmp_json(const struct cmp_result *c);
char *cmp_junit(const struct cmp_result *c);
char *cmp_markdown(const struct cmp_result *c);

#endif
