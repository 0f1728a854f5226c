/*
 * The harness's layer 6 of 9 (run.c): one run, its plan, the point loop, the views,
 * interrupts. Its file includes this header alone, which includes the layer below (layers.h).
 */
#ifndef BENCH_HARNESS_RUN_H
#define BENCH_HARNESS_RUN_H

#include "layers.h"
#if HARNESS_LAYER < HARNESS_LAYER_RUN
#error "run.h is the header of a layer above this file's (bench/harness/layers.h)"
#endif

#include "views.h"

/* ---- run.c ---- */
/*
 * A run in three steps, for runs on several devices at once: begin (the document, plan;
 * main thread, may exit), loop (the points; any thread), end (views, teardown; main thread).
 * bench_run_job is the three in a row.
 */
struct bench_run *bench_run_begin(struct bench_session *s, struct bench_job *j);
size_t bench_run_loop(struct bench_run *r);
int bench_run_end(struct bench_run *r, size_t done, json_t **doc);

#endif
