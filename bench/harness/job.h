/*
 * The harness's layer 2 of 9 (watch.c, job.c): signals and --timeout, the watchdog thread; the
 * shared options and parsing a command's arguments; the harness's state of a run. Its files
 * include this header alone, which includes the layer below (layers.h).
 */
#ifndef BENCH_HARNESS_JOB_H
#define BENCH_HARNESS_JOB_H

#include "layers.h"
#if HARNESS_LAYER < HARNESS_LAYER_JOB
#error "job.h is the header of a layer above this file's (bench/harness/layers.h)"
#endif

#include "point.h"

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
	const char *kernel_file;     /* the file of the last kernel built ("vecadd.cl"), NULL: none */
	struct harness_guard *guards;/* the guarded buffers of the row (guard.c) */
	size_t n_guards;
};

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
/* "SIGSEGV" or "SIGBUS": the `by` of a run a fault during a point ended; NULL for another. */
const char *watch_fault_name(int sig);

#endif
