/*
 * The harness's layer 8 of 9 (multi.c, multi_doc.c, fleet.c): the state of a run on several
 * devices, which multi.c runs, and what multi_doc.c makes of it: the one document and the
 * figures of devices measured at once; and a tool on several devices, one process each
 * (fleet.c, tool.h's bench_fleet_run). Its files include this header alone, which includes
 * the layer below (layers.h).
 */
#ifndef BENCH_HARNESS_MULTI_H
#define BENCH_HARNESS_MULTI_H

#include "layers.h"
#if HARNESS_LAYER < HARNESS_LAYER_MULTI
#error "multi.h is the header of a layer above this file's (bench/harness/layers.h)"
#endif

#include "session.h"

enum { MULTI_ALONE, MULTI_TOGETHER, MULTI_PHASES };

/* One device of the set: its session, and the documents of its runs. */
struct multi_unit {
	struct bench_session s;
	bool open;
	struct bench_job job;        /* parsed again for each run */
	json_t *doc[MULTI_PHASES];   /* alone, then at once (--concurrent); NULL: not run */
	int rc[MULTI_PHASES];
	struct bench_run *run;       /* at once: the run in flight */
	size_t done;                 /* at once: its points completed */
};

struct multi {
	struct bench_job *j;
	const struct common_opts *co;
	struct bench_devset ds;
	struct multi_unit u[BENCH_MAX_DEVICES];
	struct bench_session top;    /* the watchdog's: writes what there is */
	struct bench_sync sync;
	json_t *together;            /* the figures of the devices at once (NULL: none) */
	json_t *peer_devices;        /* a BENCH_PEERS run: its devices' records */
	char started[32];            /* UTC, ISO 8601 */
	int phase;                   /* running: MULTI_ALONE or MULTI_TOGETHER */
	bool running;                /* an exit now writes what was measured */
};

/*
 * The one document of the runs so far: every device (`devices`), each run's own members
 * (`device_runs`), every point naming its device, the figures at once (`concurrent`), and
 * `interrupted` where runs are missing or cut short (by: the signal, "timeout", "error").
 * inflight: a run whose document is not yet its unit's (the watchdog's writer), or NULL.
 */
json_t *multi_doc(const struct multi *m, const struct bench_run *inflight, const char *by);
/*
 * The figures of the runs measured at once, per point: each device's at once and alone,
 * their sums, the wall-clock figure and how far the devices' timed launches overlapped.
 * Reads the runs before they end (their labels need the benchmark's state).
 */
json_t *multi_together_json(const struct multi *m, struct bench_run *const *runs, size_t n);
/* Prints the figures at once as a table (stdout). */
void multi_together_print(const struct multi *m, const json_t *together);

/* ---- multi.c ---- */
/* Runs the job on every device of its set, writes the one document; the exit code. */
int bench_multi_run(struct bench_job *j);

#endif
