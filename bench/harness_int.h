/* What the harness's own files share (harness.c, views.c, watch.c, ceiling.c). */
#ifndef BENCH_HARNESS_INT_H
#define BENCH_HARNESS_INT_H

#include "harness.h"

/* ---- harness.c ---- */
/* Removes the reserved output files (an exit before they are written). */
void harness_drop_outputs(void);

/* ---- views.c ---- */
/* The point's JSON: params, status, reason, samples, statistics, metrics, model. */
json_t *harness_point_json(const struct bench_run *r, const struct bench_point *pt);
/* Prints the title, the table of the first n points and their notes to stdout. */
void harness_print_table(struct bench_run *r, size_t n);

/* ---- watch.c: SIGINT, SIGTERM and --timeout ---- */
/* Blocks SIGINT and SIGTERM in every thread and starts the watchdog. */
void watch_start(struct bench_run *r);
void watch_stop(void);
/* The first signal taken (0: none), its name and exit code (128 + signal). */
int watch_signal(void);
const char *watch_sig_name(int sig);
int watch_exit_code(int sig);
/* A point starts; `done` points are complete. */
void watch_point_start(void);
void watch_point_done(size_t done);
/* Marks the document interrupted: by what, and how far the run came. */
void harness_mark_interrupted(struct bench_run *r, const char *by, size_t done);
/* Whether the main thread may write the outputs (it waits for the exit otherwise). */
bool watch_claim_finish(void);

#endif
