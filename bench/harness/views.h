/*
 * The harness's layer 5 of 9 (views.c): a point's JSON, the text table and its cells. Its file
 * includes this header alone, which includes the layer below (layers.h).
 */
#ifndef BENCH_HARNESS_VIEWS_H
#define BENCH_HARNESS_VIEWS_H

#include "layers.h"
#if HARNESS_LAYER < HARNESS_LAYER_VIEWS
#error "views.h is the header of a layer above this file's (bench/harness/layers.h)"
#endif

#include "measure.h"

/* ---- views.c ---- */
/* The point's JSON: params, status, reason, samples, statistics, metrics, model. */
json_t *harness_point_json(const struct bench_run *r, const struct bench_point *pt);
/* Prints the title, the table of the first n points and their notes to stdout. */
void harness_print_table(struct bench_run *r, size_t n);

#endif
