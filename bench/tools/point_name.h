/*
 * A point's name across runs, for bench export (LNT, Otava) and bench history (point_name.c).
 */
#ifndef BENCH_POINT_NAME_H
#define BENCH_POINT_NAME_H

#include "compare_doc.h"

/*
 * The test name of a point: benchmark.variant/param=value/... (the params compare matches on,
 * after the device and alone or at once of a run on several devices).
 */
void export_test_name(const struct cmp_point *p, char *buf, size_t len);

#endif
