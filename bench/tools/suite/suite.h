/*
 * The suite wing's face: bench suite, a named set of benchmark configurations run in one
 * session.
 *
 *   suite.c     the command: runs every entry and writes the documents
 *   file.c      a suite read and checked (results/suites/NAME.json, built in, or a file)
 *   figures.c   the guide's figures beside what an entry measured
 *   confirm.c   the confirmation against a baseline: entries run again, the verdicts
 */
#ifndef BENCH_SUITE_H
#define BENCH_SUITE_H

#include "tool.h"
#include "compare/compare.h"

/* ---- a suite (file.c, figures.c) ---- */

/* One entry: a benchmark row and its arguments, parsed and checked. */
struct suite_entry {
	const char *bench;        /* the row's name */
	const char *about;        /* what it reproduces (NULL: not said) */
	json_t *args;             /* array of strings (borrowed from the suite's document) */
	json_t *noise;            /* its noise band: a number, or {gpu, cpu, default} (NULL: none) */
	/* the least band bench compare gives its points, whatever a baseline learned: a number,
	 * or {gpu, cpu, default} (NULL: none) */
	json_t *band_floor;
	const char *figures_id;   /* the guide's figures it is set beside (NULL: none) */
	json_t *figures;          /* that table of the suite's figures file (owned) */
	struct bench_job job;     /* parsed: the row, its options, its shared options */
	char **argv;              /* [bench, args..., NULL] (strings borrowed) */
	int argc;
};

struct suite {
	const char *name;
	const char *description;
	const char *source;       /* "built-in" or the file's path */
	json_t *root;             /* the suite document */
	json_t *noise;            /* the default band of its entries (NULL: none) */
	json_t *args;             /* options before every entry's own (NULL: none) */
	const char *figures;      /* the figures file its entries name (NULL: the built-in one) */
	struct suite_entry *e;
	size_t n;
	char where[256];          /* " (suite NAME, entry I of N)" for messages */
};

/*
 * Reads suite `spec`: a built-in name (results/suites/NAME.json) or a file (a path with a
 * '/' or ending in .json). Checks every member and parses every entry's arguments with
 * its row (exit 2 naming the suite, the entry and the member).
 */
void suite_load(struct suite *s, const char *spec);
/* Parses entry i's arguments again, for another run of it (a run changes its own options). */
void suite_entry_reparse(struct suite *s, size_t i);
void suite_free(struct suite *s);
/* Prints the built-in suites: name, entries, description. */
void suite_list_builtin(FILE *f);
/* Prints a suite's entries as the commands they run. */
void suite_print_entries(const struct suite *s, FILE *f);
/*
 * After the summary: for each of the first `done` entries that names a table of the guide's
 * figures, the table beside what the entry's document docs[i] holds (figures.c).
 */
void suite_figures_print(const struct suite *su, json_t *const *docs, size_t done, const char *device,
			 FILE *f);
/* Sets cli_where for entry i (" (suite quick, entry 3 of 9)"), or clears it (i = n). */
void suite_where(struct suite *s, size_t i);
/*
 * The noise band (percent) that spec gives a device of type `type`: a number, or the
 * member "gpu" / "cpu" / "default" of an object. False where it gives none.
 */
bool suite_noise_for(const json_t *spec, cl_device_type type, double *pct);

/* ---- the confirmation against a baseline (confirm.c): which entries to run again, their new
 * measurements kept as the points' attempts, the verdicts at the end ---- */

/* The most rounds of re-measurement --confirm allows, and its default. */
#define CONFIRM_MAX 5
#define CONFIRM_DEFAULT 2

struct suite_confirm {
	const char *path;        /* --baseline */
	unsigned rounds;         /* --confirm: re-measurements a point gets at the most */
	struct cmp_rules rules;  /* bench compare's defaults */
	struct cmp_doc base;
	char **flagged;          /* the keys of the points of the last round to measure again */
	size_t n_flagged, cap_flagged;
};

/* Loads the baseline (exit 2 naming it where it is not a document of this suite). */
void confirm_open(struct suite_confirm *c, const char *path, unsigned rounds, const char *suite);
void confirm_close(struct suite_confirm *c);
/*
 * Judges the suite's document doc (each point naming its entry in `run`, from 1) against the
 * baseline: again[i] for each entry holding an unsettled point, flagged for confirm_attach;
 * the number of entries to run again.
 */
size_t confirm_flag(struct suite_confirm *c, json_t *doc, bool *again, size_t n_entries);
/* The points of rerun (an entry's new document) as attempts of entry_doc's flagged points. */
void confirm_attach(const struct suite_confirm *c, json_t *entry_doc, json_t *rerun, const char *bench);
/* Prints the final verdicts (unless quiet); the exit code: 1 where a point regressed or failed. */
int confirm_report(struct suite_confirm *c, json_t *doc, bool quiet);

#endif
