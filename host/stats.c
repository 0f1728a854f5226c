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
