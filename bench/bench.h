/* The `bench` command: its rows, one per benchmark file under bench/ (listed in main.c). */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include "harness.h"

extern const struct bench_ops info_bench;
extern const struct bench_ops vecadd_bench;
extern const struct bench_ops model_bench;
extern const struct bench_ops occupancy_bench;
extern const struct bench_ops sg_info_bench;
extern const struct bench_ops sg_copy_bench;
extern const struct bench_ops transpose_bench;
extern const struct bench_ops atomics_bench;
extern const struct bench_ops latency_bench;
extern const struct bench_ops locality_bench;
extern const struct bench_ops report_bench;
extern const struct bench_ops compare_bench;
extern const struct bench_ops export_bench;
extern const struct bench_ops validate_bench;
extern const struct bench_ops suite_bench;
extern const struct bench_ops compile_bench;

/* The row of the command `name` (bench/main.c's table), NULL: none. */
const struct bench_ops *bench_find(const char *name);
/* The i-th row of the table in main.c, NULL past the end. */
const struct bench_ops *bench_row(size_t i);

#endif
