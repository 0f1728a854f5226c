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

static double median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* The median of n values drawn from x with replacement (buf: n scratch values). */
static double resample_median(const double *x, size_t n, double *buf, uint64_t *state)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = x[rng_splitmix64(state) % n];
	qsort(buf, n, sizeof(*buf), dbl_cmp);
	return median_sorted(buf, n);
}

static double sample_median(const double *x, size_t n, double *buf)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = x[i];
	qsort(buf, n, sizeof(*buf), dbl_cmp);
	return median_sorted(buf, n);
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
