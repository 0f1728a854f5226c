/* Descriptive statistics; definitions in stats.h. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_percentile_sorted(const double *sorted, size_t n, double p)
{
	double pos = p * (double)(n - 1);
	size_t lo = (size_t)floor(pos);
	size_t hi = lo + 1 < n ? lo + 1 : lo;
	double frac = pos - (double)lo;

	return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

void stats_compute(const double *x, size_t n, struct stats *out)
{
	double *s = malloc(n * sizeof(*s));
	double sum = 0, ss = 0;

	memset(out, 0, sizeof(*out));
	if (!s || n == 0) {
		free(s);
		return;
	}
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->n = n;
	out->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (s[i] - out->mean) * (s[i] - out->mean);
	out->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
	out->cv = out->mean != 0 ? out->stddev / out->mean * 100.0 : 0.0;
	out->min = s[0];
	out->max = s[n - 1];
	out->median = stats_percentile_sorted(s, n, 0.5);
	out->p5 = stats_percentile_sorted(s, n, 0.05);
	out->p95 = stats_percentile_sorted(s, n, 0.95);
	free(s);
}

bool stats_median_ci_ranks(size_t n, double conf, size_t *lo_rank, size_t *hi_rank,
			   double *coverage)
{
	double tail = (1 - conf) / 2, cdf = 0, below = -1;
	/* log P(B = k), from log P(B = 0) = -n ln 2 by the ratio (n - k) / (k + 1): no underflow */
	double lp = -(double)n * log(2.0);
	size_t l = 0;

	for (size_t k = 0; k < n; k++) {
		cdf += exp(lp);
		if (cdf > tail)
			break;
		l = k + 1;           /* P(B <= k) <= tail: x_(k+1) may be the lower bound */
		below = cdf;
		lp += log((double)(n - k) / (double)(k + 1));
	}
	if (!l)
		return false;
	*lo_rank = l;
	*hi_rank = n + 1 - l;
	*coverage = 1 - 2 * below;
	return true;
}

bool stats_median_ci(const double *x, size_t n, double conf, double *lo, double *hi,
		     double *coverage)
{
	size_t l, h;
	double *s;

	if (!n || !stats_median_ci_ranks(n, conf, &l, &h, coverage) || !(s = malloc(n * sizeof(*s))))
		return false;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	*lo = s[l - 1];
	*hi = s[h - 1];
	free(s);
	return true;
}

double stats_lag1(const double *x, size_t n)
{
	double m = 0, num = 0, den = 0;

	if (n < 3)
		return 0;
	for (size_t i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++) {
		den += (x[i] - m) * (x[i] - m);
		if (i + 1 < n)
			num += (x[i] - m) * (x[i + 1] - m);
	}
	return den > 0 ? num / den : 0;
}

size_t stats_pair_means(const double *x, size_t n, double *out)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		out[i / 2] = (x[i] + x[i + 1]) / 2;
	return n / 2;
}
