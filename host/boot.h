/*
 * The percentile bootstrap interval of a ratio of medians, median(new) / median(base):
 * each resample draws n values from base and m from new with replacement (independently,
 * indices from splitmix64 modulo the sample size), and the interval is the
 * (1 - confidence) / 2 and (1 + confidence) / 2 quantiles of the resampled ratios
 * (linear interpolation, numpy's default). A fixed seed makes it reproducible.
 */
#ifndef BENCH_BOOT_H
#define BENCH_BOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BOOT_RESAMPLES 2000
#define BOOT_CONFIDENCE 0.95
#define BOOT_SEED 0x626f6f7473747261ull   /* "bootstra" */

struct boot_ci {
	double ratio;          /* median(new) / median(base) of the samples themselves */
	double lo, hi;         /* the interval; +inf where a resampled base median is 0 */
};

/*
 * Resamples `resamples` times (>= 2) base (n >= 1 values, a positive median) and
 * new (m >= 1). False: out of host memory.
 */
bool boot_median_ratio(const double *base, size_t n, const double *new_, size_t m,
		       unsigned resamples, double confidence, uint64_t seed, struct boot_ci *out);

#endif
