/* Descriptive statistics of timing samples. */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stddef.h>

/*
 * Definitions (tested in tests/test_stats.c):
 *   median  middle value, the mean of the two middle values for even n
 *   mean    arithmetic mean
 *   stddev  sample standard deviation (divisor n - 1; 0 for n == 1)
 *   cv      stddev / mean * 100, in percent (0 when mean == 0)
 *   p5, p95 percentiles by linear interpolation between closest ranks:
 *           position (n - 1) * p, as numpy's default ("linear") method
 */
struct stats {
	size_t n;
	double min, max, median, mean, stddev, cv, p5, p95;
};

/* Computes stats of n samples (n >= 1); the input is not modified. */
void stats_compute(const double *x, size_t n, struct stats *out);

/* Percentile p in [0, 1] of sorted samples, linear interpolation. */
double stats_percentile_sorted(const double *sorted, size_t n, double p);

#endif
