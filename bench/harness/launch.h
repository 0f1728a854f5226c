/*
 * The harness's layer 3 of 9 (launch.c, guard.c, sync.c): builds, buffers (guarded) and single
 * launches for rows; the rendezvous of devices measured at once. Its files include this header
 * alone, which includes the layer below (layers.h).
 */
#ifndef BENCH_HARNESS_LAUNCH_H
#define BENCH_HARNESS_LAUNCH_H

#include "layers.h"
#if HARNESS_LAYER < HARNESS_LAYER_LAUNCH
#error "launch.h is the header of a layer above this file's (bench/harness/layers.h)"
#endif

#include "job.h"

#include <pthread.h>
#include <stdatomic.h>

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

/* ---- launch.c ---- */
/* The label of point i of r (the row's, or "point I"). */
void harness_point_label(const struct bench_run *r, size_t i, char *buf, size_t len);

#endif
