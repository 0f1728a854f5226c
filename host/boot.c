/* The bootstrap interval of a ratio of medians (boot.h). */
#include "boot.h"
#include "rng.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void swap(double *a, size_t i, size_t j)
{
	double t = a[i];

	a[i] = a[j];
	a[j] = t;
}

/*
 * Rearranges a[0..n) so that a[k] is the value a sorted copy has there, none before it larger
 * and none after it smaller (quickselect, Hoare's partition around a median of three):
 * linear time, where sorting each of thousands of resamples of thousands of repetitions
 * made a comparison take many seconds.
 */
static double select_kth(double *a, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (hi > lo) {
		size_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
		if (a[mid] < a[lo])
			swap(a, mid, lo);
		if (a[hi] < a[lo])
			swap(a, hi, lo);
		if (a[hi] < a[mid])
			swap(a, hi, mid);
		double pivot = a[mid];
		while (i <= j) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i <= j) {
				swap(a, i, j);
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j && j != (size_t)-1)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;   /* a[k] equals the pivot */
	}
	return a[k];
}

/* The median of buf (n values, rearranged): the middle one, or the mean of the two middle ones. */
static double median_of(double *buf, size_t n)
{
	double hi = select_kth(buf, n, n / 2), lo;

	if (n % 2)
		return hi;
	lo = buf[0];   /* the largest of the lower half: all of it is <= buf[n / 2] */
	for (size_t i = 1; i < n / 2; i++)
		lo = buf[i] > lo ? buf[i] : lo;
	return (lo + hi) / 2;
}

/* The median of n values drawn from x with replacement (buf: n scratch values). */
static double resample_median(const double *x, size_t n, double *buf, uint64_t *state)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = x[rng_splitmix64(state) % n];
	return median_of(buf, n);
}

static double sample_median(const double *x, size_t n, double *buf)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = x[i];
	return median_of(buf, n);
}

bool boot_median_ratio(const double *base, size_t n, const double *new_, size_t m,
		       unsigned resamples, double confidence, uint64_t seed, struct boot_ci *out)
{
	double *buf = malloc((n > m ? n : m) * sizeof(double));
	double *ratios = malloc(resamples * sizeof(double));
	uint64_t state = seed;
	bool ok = buf && ratios;

	if (ok) {
		out->ratio = sample_median(new_, m, buf) / sample_median(base, n, buf);
		for (unsigned r = 0; r < resamples; r++) {
			double mb = resample_median(base, n, buf, &state);
			double mn = resample_median(new_, m, buf, &state);
			ratios[r] = mb > 0 ? mn / mb : INFINITY;
		}
		qsort(ratios, resamples, sizeof(*ratios), dbl_cmp);
		out->lo = stats_percentile_sorted(ratios, resamples, (1 - confidence) / 2);
		out->hi = stats_percentile_sorted(ratios, resamples, (1 + confidence) / 2);
	}
	free(ratios);
	free(buf);
	return ok;
}
