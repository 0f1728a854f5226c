/*
 * bench suite's confirmation against a baseline (suite_confirm.c): which entries to run again,
 * their new measurements kept as the points' attempts, the verdicts at the end.
 */
#ifndef BENCH_SUITE_CONFIRM_H
#define BENCH_SUITE_CONFIRM_H

#include "tool.h"
#include "verdict.h"

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
