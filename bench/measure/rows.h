/* The measurement rows: one file each in the folders of bench/measure/, listed in rows.c. */
#ifndef BENCH_ROWS_H
#define BENCH_ROWS_H

#include "row.h"

/* The row named `name` (NULL: none). */
const struct bench_row *bench_row_find(const char *name);
/* The i-th row of the table, NULL past the end. */
const struct bench_row *bench_row_at(size_t i);
/*
 * The row a command line runs (argv[0] is its name): the row of that name, or the row an
 * alias of it names for the options given (bench vecadd --variant 5 runs bench stream);
 * NULL where there is none.
 */
const struct bench_row *bench_row_resolve(int argc, char **argv);

#endif
