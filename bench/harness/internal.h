/*
 * What the harness's own files share, and no row or tool sees. The files stand in
 * layers, each calling only those below it (a higher layer hands a lower one callbacks):
 *
 *   dispatch.c                 one device or several: the one place that decides
 *   multi.c, multi_doc.c       a run on several devices, in turn or at once
 *   session.c                  the session: device, context, queue, model
 *   select.c                   choosing devices: one, a set, sub-devices, --require-device
 *   outputs.c                  --json and --csv, reserved before any work
 *   run.c                      one run: plan, the point loop, the views, interrupts
 *   views.c                    a point's JSON, the text table and its cells
 *   ceiling.c                  the copy ceiling
 *   measure.c                  warm-up, timed launches, adaptive repetitions
 *   own.c                      the harness's own kernels: the cache flush, the clock probe
 *   launch.c, guard.c          building, buffers (guarded) and single launches for rows
 *   sync.c                     the rendezvous of devices measured at once
 *   watch.c                    signals and --timeout: the watchdog thread
 *   job.c                      the shared options and parsing a command's arguments
 *   point.c, builds.c          a point's record; the builds a row describes
 *   figures.c                  the guide's published figures, built in
 */
#ifndef BENCH_HARNESS_INTERNAL_H
#define BENCH_HARNESS_INTERNAL_H

#include "tool.h"

#include <pthread.h>
#include <stdatomic.h>

/* The phases of a run, timed on the host and recorded as the document's `phases_s`. */
enum bench_phase {
	PHASE_SESSION,   /* devices, context, queue */
	PHASE_PLAN,      /* checks, builds, buffers */
	PHASE_POINTS,    /* each point's set-up, validated launch and check */
	PHASE_TIMED,     /* warm-up and timed launches */
	PHASE_CEILING,   /* the copy ceilings */
	PHASE_VIEWS,     /* model, JSON, table, report */
	PHASE_WITNESS,   /* the host's clock against the events: the session's check of the
			  * driver's clock, each point's judging, QUEUED and SUBMIT read */
	PHASE_COUNT
};

/* The harness's own state of a run (struct bench_run's h). */
struct harness_run {
	struct bench_ceiling *ceil;  /* the copy ceilings measured (ceiling.c) */
	double phase_ns[PHASE_COUNT];/* where the run's time went */
	struct bench_sync *sync;     /* devices measured at once (--concurrent), else NULL */
	unsigned sync_index;         /* this run's place among them */
	bool together;               /* this run measures at the same time as the others */
	unsigned watch_slot;         /* watch.c's */
	char skip[2048];             /* bench_run_skip's reason ("": the run measures) */
	struct harness_guard *guards;/* the guarded buffers of the row (guard.c) */
	size_t n_guards;
};

/* ---- guard.c: guard words around the buffers a row's kernels write ---- */
/*
 * A buffer of bytes between two guards of known words, as a sub-buffer the row uses; NULL with
 * err "" where the device has no room for the guards (the caller makes a plain buffer), NULL
 * with err set where the driver failed.
 */
cl_mem harness_guarded_buffer(struct bench_run *r, cl_mem_flags flags, size_t bytes, char *err,
			      size_t len);
/* After a point's validated launch: a guard word changed fails an ok point, naming where. */
void harness_guards_check(struct bench_run *r, struct bench_point *pt);
/* Releases the guarded buffers (after the row's teardown released its sub-buffers). */
void harness_guards_free(struct bench_run *r);

/* ---- job.c ---- */
/*
 * Whether options co of a command with flags run on several devices: a set spec (all,
 * gpu, cpu, a list), --sub-devices, --concurrent, or a row across the devices of one
 * context (BENCH_PEERS). Dispatch decides by it, and a session of one device refuses by it.
 */
bool harness_several(const struct common_opts *co, unsigned flags);
/* The benchmark a row's documents name: its own name, unless it says otherwise. */
const char *harness_benchmark(const struct bench_row *row);
/* Names of --cache's states (enum bench_cache), for the settings of a document. */
const char *harness_cache_name(enum bench_cache c);

/* ---- watch.c: SIGINT, SIGTERM and --timeout ---- */
/*
 * Writes a run's points completed (and, with timed_out, the point in flight as failed) to its
 * document, marked interrupted by `by`; false where the run has no document with points yet.
 */
typedef bool (*watch_abandon_fn)(struct bench_run *r, size_t done, const char *by, bool timed_out);
/*
 * Blocks SIGINT and SIGTERM in every thread and starts the watchdog of session s, which
 * writes through s->write_now when the process must end at once.
 */
void watch_start(struct bench_session *s);
void watch_stop(void);
/*
 * A run begins (its points start from 0) or ends; several may be in flight at once
 * (--concurrent), each watched for its --timeout (0: none), each given to abandon when
 * the process must end.
 */
void watch_run_add(struct bench_run *r, unsigned timeout_s, watch_abandon_fn abandon);
void watch_run_remove(struct bench_run *r);
/* A point of r starts; `done` points of r are complete. */
void watch_point_start(struct bench_run *r);
void watch_point_done(struct bench_run *r, size_t done);

/* ---- sync.c: the rendezvous of runs measured at once (--concurrent) ---- */
/*
 * Each run known by its index: every run starts each point together, and the timed launches
 * of the k-th timing of a point (after its warm-up) start once every other run still in that
 * point has reached its own k-th, so the devices' set-up, checks and warm-up, which take their
 * own time, never leave one device timing alone.
 */
struct bench_sync {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned parties;        /* runs still in their point loops */
	unsigned arrived;        /* at the start of their next point */
	unsigned long round;
	bool looping[BENCH_MAX_DEVICES];   /* in its point loop */
	bool in_point[BENCH_MAX_DEVICES];  /* running the current point */
	unsigned calls[BENCH_MAX_DEVICES]; /* timings begun in the current point */
	atomic_uint measuring;   /* runs timing launches and short of their own targets */
};
/* Starts the rendezvous of n runs, each looping; sync_done ends it. */
void sync_init(struct bench_sync *s, unsigned n);
void sync_done(struct bench_sync *s);
/* Every run starts each point together. */
void sync_point(struct bench_sync *s);
/* Run me's point is over: no run waits for its timings in it. */
void sync_point_done(struct bench_sync *s, unsigned me);
/* Run me's points are over (or a signal stopped it): the others no longer wait for it. */
void sync_leave(struct bench_sync *s, unsigned me);
/*
 * Run me begins a timing (its timed launches, after the warm-up): its k-th of the point waits
 * until every other run still in the point has begun its k-th, so the devices time together.
 * From then it counts as short of its targets until sync_satisfied.
 */
void sync_timing(struct bench_sync *s, unsigned me);
/* A run's timing reached its own targets (or failed): the others no longer keep on for it. */
void sync_satisfied(struct bench_sync *s);
/* Whether another run is measuring and short of its targets (keep the load on). */
bool sync_others_measuring(struct bench_sync *s);

/* ---- own.c: the harness's own kernels ---- */
/*
 * --cache cold: evicts the cache of q's device (of the run's context) before a timed
 * command, waiting for it where wait (exit 1 naming the driver's error). The flush kernel
 * and its scratch buffer are made at the first call.
 */
void harness_cache_flush(struct bench_run *r, cl_command_queue q, bool wait);
/* A time_enqueue_fn that flushes the cache, then enqueues inner (whose event it returns). */
struct harness_cold_cmd {
	struct bench_run *r;
	time_enqueue_fn inner;
	void *arg;
};
cl_int harness_enqueue_cold(void *arg, cl_command_queue q, cl_event *ev);
/*
 * The clock probe on q: HARNESS_PROBE_LAUNCHES timed launches of one work-item, their times
 * in ns to dev, after warmup untimed ones. Exit 1 naming the driver's error where it fails.
 */
void harness_clock_probe(struct bench_run *r, cl_command_queue q, unsigned warmup, double *dev);
/*
 * The clock probe of `rounds` rounds on q, n timed launches (no warm-up): event and host
 * times in ns. False with the driver's error in err.
 */
bool harness_probe_times(struct bench_run *r, cl_command_queue q, cl_uint rounds, unsigned n,
			 double *dev, double *wall, char *err, size_t len);
/* Releases the harness's own kernels of the session and their buffers. */
void harness_own_free(struct bench_session *s);

/* ---- witness.c: the host's clock against the driver's ---- */
/*
 * Holds a measured ok point's event times against the host's waits (and the session's check
 * of the driver's profiling clock, made at the first call): a point whose clocks disagree is
 * suspect, the reason naming what disagreed. pt->clock records the finding either way.
 */
void harness_witness_point(struct bench_run *r, struct bench_point *pt);
/*
 * The same rules for other timed samples (a ceiling's copies): "" in why where event and
 * host agree, else what disagreed.
 */
void harness_witness_samples(struct bench_run *r, const double *dev, const double *wall, size_t n,
			     char *why, size_t len);
/* The session's check of the driver's profiling clock (null where none was made). */
json_t *harness_clock_check_json(const struct bench_session *s);
/* A point's `clock` member (NULL where it was not timed). */
json_t *harness_clock_json(const struct bench_point *pt);
/* Frees the session's check. */
void harness_witness_free(struct bench_session *s);

/* ---- measure.c ---- */
/* The point's `repetitions` (taken, min, max, stop, targets, timed_s), NULL: not the harness's loop. */
json_t *harness_reps_json(const struct bench_run *r, const struct bench_point *pt);

/* ---- ceiling.c ---- */
/*
 * The ceiling of a point that moves pt->ceil_bytes each way: the faster of the driver's
 * clEnqueueCopyBuffer and the suite's own stream_copy kernel (kernels/stream_copy.cl,
 * validated) copying the same bytes from ceil_src to ceil_dst; consecutive points of the
 * same bytes share one measurement. A driver failure is fatal (exit 1).
 */
void bench_ceiling_measure(struct bench_run *r, struct bench_point *pt);
void bench_ceiling_free(struct bench_run *r);

/* ---- launch.c ---- */
/* The label of point i of r (the row's, or "point I"). */
void harness_point_label(const struct bench_run *r, size_t i, char *buf, size_t len);

/* ---- views.c ---- */
/* The point's JSON: params, status, reason, samples, statistics, metrics, model. */
json_t *harness_point_json(const struct bench_run *r, const struct bench_point *pt);
/* Prints the title, the table of the first n points and their notes to stdout. */
void harness_print_table(struct bench_run *r, size_t n);
/* ---- run.c ---- */
/*
 * A run in three steps, for runs on several devices at once: begin (the document, plan;
 * main thread, may exit), loop (the points; any thread), end (views, teardown; main thread).
 * bench_run_job is the three in a row.
 */
struct bench_run *bench_run_begin(struct bench_session *s, struct bench_job *j);
size_t bench_run_loop(struct bench_run *r);
int bench_run_end(struct bench_run *r, size_t done, json_t **doc);

/* ---- select.c: the devices of a run ---- */
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
 * --sub-devices); peers: the devices of one platform a BENCH_PEERS row needs, at least two
 * (false, with why, where there are none: the set as selected). Exits 2 for a bad spec or a
 * partition a device does not offer, 77 where there is no such device.
 */
bool bench_devset_open(struct bench_devset *ds, const struct common_opts *co, bool peers, char *why,
		       size_t len);
void bench_devset_close(struct bench_devset *ds);
/* The one device of co: --device (an empty BENCH_DEVICE is none), held to --require-device. */
const struct dev_info *harness_pick_device(struct dev_list *l, const struct common_opts *co);

/* ---- session.c ---- */
/* Opens a session on one device of a set: context, queue, model (the watchdog runs). */
void harness_unit_open(struct bench_session *s, const struct common_opts *co,
		       const struct dev_info *d, const char *label);
void harness_unit_close(struct bench_session *s);
/* Refuses (exit 2) a --kernels folder that cannot be read. */
void harness_check_kernels(const struct common_opts *co);

/* ---- multi.c ---- */
/* Runs the job on every device of its set, writes the one document; the exit code. */
int bench_multi_run(struct bench_job *j);

#endif
