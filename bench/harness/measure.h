/*
 * The harness's layer 4 of 9 (measure.c, own.c, witness.c, ceiling.c): warm-up, timed launches
 * and adaptive repetitions; the harness's own kernels; the host's clock against the driver's;
 * the copy ceiling. Its files include this header alone, which includes the layer below
 * (layers.h).
 */
#ifndef BENCH_HARNESS_MEASURE_H
#define BENCH_HARNESS_MEASURE_H

#include "layers.h"
#if HARNESS_LAYER < HARNESS_LAYER_MEASURE
#error "measure.h is the header of a layer above this file's (bench/harness/layers.h)"
#endif

#include "launch.h"

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

#endif
