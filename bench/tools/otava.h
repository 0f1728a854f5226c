/*
 * Results documents as Apache Otava's CSV input (otava.c), for bench export otava and
 * bench history: one row a document, one column a point.
 */
#ifndef BENCH_OTAVA_H
#define BENCH_OTAVA_H

#include "compare_doc.h"

/*
 * The CSV of docs (in the order given): columns time (the document's timestamp as
 * "YYYY-MM-DD HH:MM:SS +0000"), run (1, 2, ...) and one per point timed in every document,
 * named as export_test_name, holding its median in ns. *metrics gets the names of those
 * columns (a new array), *left the number of timed points left out (not in every document).
 * Exits 2 naming the document whose timestamp is not a UTC ISO 8601 time.
 */
char *otava_csv(const struct cmp_doc *docs, size_t n, json_t **metrics, size_t *left);

/* Otava's configuration (YAML; JSON is YAML) of one csv test named `test` on csv_path:
 * time_column time, attribute run, each metric a time (direction -1: lower is better). */
json_t *otava_config(const char *test, const char *csv_path, json_t *metrics);

#endif
