/*
 * What the harness's own files share (harness.c, session.c, measure.c, views.c, watch.c,
 * ceiling.c, suite.c).
 */
#ifndef BENCH_HARNESS_INT_H
#define BENCH_HARNESS_INT_H

#include "harness.h"

/* ---- session.c ---- */
/* Removes the reserved output files (an exit before they are written). */
void harness_drop_outputs(void);
/* The document's time_origin: what the points' start_ns count from (null: no timed launch). */
json_t *harness_origin_json(const struct bench_session *s);

/* ---- measure.c ---- */
/*
 * --cache cold: evicts the device's cache before a timed command, waiting for it where
 * wait (exit 1 naming the driver's error). The flush kernel and its scratch buffer are
 * made at the first call and released by harness_cache_free.
 */
void harness_cache_flush(struct bench_run *r, bool wait);
void harness_cache_free(struct bench_session *s);
/* A time_enqueue_fn that flushes the cache, then enqueues inner (whose event it returns). */
struct harness_cold_cmd {
	struct bench_run *r;
	time_enqueue_fn inner;
	void *arg;
};
cl_int harness_enqueue_cold(void *arg, cl_command_queue q, cl_event *ev);
/* The point's `repetitions` (taken, min, max, stop, targets, timed_s), NULL: not the harness's loop. */
json_t *harness_reps_json(const struct bench_run *r, const struct bench_point *pt);

/* ---- views.c ---- */

/* The point's JSON: params, status, reason, samples, statistics, metrics, model. */
json_t *harness_point_json(const struct bench_run *r, const struct bench_point *pt);
/* Prints the title, the table of the first n points and their notes to stdout. */
void harness_print_table(struct bench_run *r, size_t n);

/* ---- watch.c: SIGINT, SIGTERM and --timeout ---- */
/* Blocks SIGINT and SIGTERM in every thread and starts the watchdog of the session. */
void watch_start(struct bench_session *s);
void watch_stop(void);
/* The run in flight (NULL: none, between runs); its points start from 0. */
void watch_run(struct bench_run *r);
/* The first signal taken (0: none), its name and exit code (128 + signal). */
int watch_signal(void);
const char *watch_sig_name(int sig);
int watch_exit_code(int sig);
/* A point starts; `done` points are complete. */
void watch_point_start(void);
void watch_point_done(size_t done);
/* Marks the document interrupted: by what, and how far the run came. */
void harness_mark_interrupted(struct bench_run *r, const char *by, size_t done);
/*
 * Claims the writing of the outputs for the main thread; where the watchdog has it (it
 * writes and ends the process) the main thread waits for that.
 */
bool watch_claim_finish(void);
/*
 * Gives the claim back before the next run of a session; false (the claim kept) where a
 * signal came: the caller writes what it has and stops.
 */
bool watch_release_finish(void);

#endif
