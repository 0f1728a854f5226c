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
 * --cache cold: evicts the cache of q's device (of the run's context) before a timed
 * command, waiting for it where wait (exit 1 naming the driver's error). The flush kernel
 * and its scratch buffer are made at the first call.
 */
void harness_cache_flush(struct bench_run *r, cl_command_queue q, bool wait);
/* Releases the harness's own kernels (the flush, the clock probe) and their buffers. */
void harness_own_free(struct bench_session *s);
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
/*
 * One run's record in a document of several runs (a suite's entries, a run per device):
 * first_point, points (how many), and every member of the run's document doc not named in
 * shared (NULL-ended), which the whole document holds once.
 */
void harness_run_members(json_t *r, json_t *doc, size_t first, const char *const *shared);

/* The point's JSON: params, status, reason, samples, statistics, metrics, model. */
json_t *harness_point_json(const struct bench_run *r, const struct bench_point *pt);
/* Prints the title, the table of the first n points and their notes to stdout. */
void harness_print_table(struct bench_run *r, size_t n);

/* ---- watch.c: SIGINT, SIGTERM and --timeout ---- */
/* Blocks SIGINT and SIGTERM in every thread and starts the watchdog of the session. */
void watch_start(struct bench_session *s);
void watch_stop(void);
/*
 * A run begins (its points start from 0) or ends; several may be in flight at once
 * (--concurrent), each watched for --timeout, each written when the process must end.
 */
void watch_run_add(struct bench_run *r);
void watch_run_remove(struct bench_run *r);
/* The first signal taken (0: none), its name and exit code (128 + signal). */
int watch_signal(void);
const char *watch_sig_name(int sig);
int watch_exit_code(int sig);
/* A point of r starts; `done` points of r are complete. */
void watch_point_start(struct bench_run *r);
void watch_point_done(struct bench_run *r, size_t done);
/* Marks the document interrupted: by what, and how far the run came. */
void harness_mark_interrupted(struct bench_run *r, const char *by, size_t done);
/*
 * Claims the writing of the outputs for the main thread (again, while it holds it: true);
 * where the watchdog has it (it writes and ends the process) the main thread waits for that.
 */
bool watch_claim_finish(void);
/*
 * Gives the claim back before the next run of a session; false (the claim kept) where a
 * signal came: the caller writes what it has and stops.
 */
bool watch_release_finish(void);

/* ---- session.c: the devices of a run on several ---- */
/* The devices a run on several measures on: roots, or the sub-devices made of them. */
struct bench_devset {
	struct dev_list devs;                        /* every device found */
	struct dev_info subs[BENCH_MAX_DEVICES];     /* --sub-devices: the parts */
	size_t n_subs;
	const struct dev_info *dev[BENCH_MAX_DEVICES];
	char label[BENCH_MAX_DEVICES][BENCH_LABEL_LEN];
	size_t n;
};
/*
 * Selects the devices of co (--device all|gpu|cpu|LIST or one, --require-device,
 * --sub-devices); peers: the devices of one platform a BENCH_PEERS row needs (at least
 * two: exit 77 naming why there are none). Exits 2 for a bad spec or a partition a device
 * does not offer, 77 where there is no such device.
 */
void bench_devset_open(struct bench_devset *ds, const struct common_opts *co, bool peers);
void bench_devset_close(struct bench_devset *ds);
/* Opens a session on one device of a set: context, queue, model (the watchdog runs). */
void harness_unit_open(struct bench_session *s, const struct common_opts *co,
		       const struct dev_info *d, const char *label);
void harness_unit_close(struct bench_session *s);

/* ---- multi.c: runs on several devices ---- */
/* Whether the job runs on several devices (a set spec, --sub-devices, --concurrent, BENCH_PEERS). */
bool bench_multi_wanted(const struct bench_job *j);
/* Runs the job on every device of its set, writes the one document; the exit code. */
int bench_multi_run(struct bench_job *j);
/* The rendezvous of devices measured at once: every run starts each point together. */
void multi_sync_point(struct bench_sync *s);
/* Run me's point is over: no run waits for its timings in it. */
void multi_sync_point_done(struct bench_sync *s, unsigned me);
/* Run me's points are over (or a signal stopped it): the others no longer wait for it. */
void multi_sync_leave(struct bench_sync *s, unsigned me);
/*
 * Run me begins a timing (its timed launches, after the warm-up): its k-th of the point waits
 * until every other run still in the point has begun its k-th, so the devices time together.
 * From then it counts as short of its targets until multi_sync_satisfied.
 */
void multi_sync_timing(struct bench_sync *s, unsigned me);
/* A run's timing reached its own targets (or failed): the others no longer keep on for it. */
void multi_sync_satisfied(struct bench_sync *s);
/* Whether another run is measuring and short of its targets (keep the load on). */
bool multi_sync_others_measuring(struct bench_sync *s);

#endif
