/* Descriptive statistics of timing samples. */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stdbool.h>
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

/*
 * The distribution-free confidence interval of the median (order statistics): with B the
 * number of n samples below the true median, B ~ Binomial(n, 1/2) for any continuous
 * distribution, so [x_(l), x_(n+1-l)] (1-based ranks of the sorted samples) covers it
 * with probability 1 - 2 P(B <= l - 1). l is the largest rank with P(B <= l - 1) <=
 * (1 - conf) / 2, so the coverage is at least conf (binomial steps make it larger: n = 10
 * at 95 % gives ranks 2 and 9, coverage 0.9785). False where no rank reaches conf: n < 6
 * at 95 % (even [min, max] covers only 1 - 2 / 2^n).
 */
bool stats_median_ci_ranks(size_t n, double conf, size_t *lo_rank, size_t *hi_rank,
			   double *coverage);

/* The interval's bounds from n samples (any order; not modified); false as above. */
bool stats_median_ci(const double *x, size_t n, double conf, double *lo, double *hi,
		     double *coverage);

/*
 * Lag-1 autocorrelation of n samples in the order taken: sum (x_i - m)(x_{i+1} - m) over
 * sum (x_i - m)^2, m their mean; 0 where n < 3 or every sample is equal. Near -1 the samples
 * alternate between two levels launch to launch; near 0 the order carries nothing.
 */
double stats_lag1(const double *x, size_t n);

/*
 * The means of consecutive pairs, (x_0 + x_1) / 2, (x_2 + x_3) / 2, ... into out (n / 2 of
 * them; an odd last sample left out): of samples that alternate between two levels, each
 * pair holds one of each, so the pairs' spread is the levels' drift, not their distance.
 * Returns n / 2.
 */
size_t stats_pair_means(const double *x, size_t n, double *out);

#endif
