/* The bootstrap interval of a ratio of medians (boot.h). */
#include "boot.h"
#include "rng.h"
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * One sample as a resample's median needs it: its distinct values ascending (vals, d of them)
 * and, for each of its n values, the index of that value in vals (which). A resample is then
 * counted, draws per distinct value, and its median read off the running count: the same
 * value the quickselect of the drawn values finds, without writing and rearranging n doubles
 * a resample (at tens of thousands of repetitions a side, the comparison's seconds).
 */
struct boot_side {
	size_t n, d;
	double *vals;
	uint32_t *which;
	uint32_t *count;   /* d counters, zero between resamples */
};

static void side_free(struct boot_side *s)
{
	free(s->vals);
	free(s->which);
	free(s->count);
}

/* False where the sample cannot be counted (out of memory, too many values, a NaN): then the
 * drawn values are selected as before. */
static bool side_init(struct boot_side *s, const double *x, size_t n)
{
	*s = (struct boot_side){ .n = n };
	if (n > UINT32_MAX)
		return false;
	s->vals = malloc(n * sizeof(*s->vals));
	s->which = malloc(n * sizeof(*s->which));
	if (!s->vals || !s->which)
		return false;
	for (size_t i = 0; i < n; i++)
		s->vals[i] = x[i];
	qsort(s->vals, n, sizeof(*s->vals), dbl_cmp);
	for (size_t i = 0; i < n; i++)
		if (!s->d || s->vals[i] != s->vals[s->d - 1])
			s->vals[s->d++] = s->vals[i];
	for (size_t i = 0; i < n; i++) {
		const double *v = bsearch(&x[i], s->vals, s->d, sizeof(*s->vals), dbl_cmp);
		if (!v || memcmp(v, &x[i], sizeof(*v)) != 0)   /* a NaN, or a zero of the other sign */
			return false;
		s->which[i] = (uint32_t)(v - s->vals);
	}
	s->count = calloc(s->d, sizeof(*s->count));
	return s->count != NULL;
}

/* The median of n values drawn from the side with replacement, the draws as resample_median's. */
static double side_resample_median(struct boot_side *s, uint64_t *state)
{
	size_t k = s->n / 2, seen = 0, v = 0;
	double lo = 0, hi;

	for (size_t i = 0; i < s->n; i++)
		s->count[s->which[rng_splitmix64(state) % s->n]]++;
	/* the value at sorted position p is the first whose running count passes p */
	if (s->n % 2 == 0) {
		while (seen + s->count[v] <= k - 1)
			seen += s->count[v++];
		lo = s->vals[v];
	}
	while (seen + s->count[v] <= k)
		seen += s->count[v++];
	hi = s->vals[v];
	for (size_t i = 0; i < s->d; i++)
		s->count[i] = 0;
	return s->n % 2 ? hi : (lo + hi) / 2;
}

static double draw_median(struct boot_side *s, bool counted, const double *x, double *buf,
			  uint64_t *state)
{
	return counted ? side_resample_median(s, state) : resample_median(x, s->n, buf, state);
}

bool boot_median_ratio(const double *base, size_t n, const double *new_, size_t m,
		       unsigned resamples, double confidence, uint64_t seed, struct boot_ci *out)
{
	double *buf = malloc((n > m ? n : m) * sizeof(double));
	double *ratios = malloc(resamples * sizeof(double));
	struct boot_side sb, sn;
	bool counted = side_init(&sb, base, n) & side_init(&sn, new_, m);
	uint64_t state = seed;
	bool ok = buf && ratios;

	if (ok) {
		out->ratio = sample_median(new_, m, buf) / sample_median(base, n, buf);
		for (unsigned r = 0; r < resamples; r++) {
			double mb = draw_median(&sb, counted, base, buf, &state);
			double mn = draw_median(&sn, counted, new_, buf, &state);
			ratios[r] = mb > 0 ? mn / mb : INFINITY;
		}
		qsort(ratios, resamples, sizeof(*ratios), dbl_cmp);
		out->lo = stats_percentile_sorted(ratios, resamples, (1 - confidence) / 2);
		out->hi = stats_percentile_sorted(ratios, resamples, (1 + confidence) / 2);
	}
	side_free(&sb);
	side_free(&sn);
	free(ratios);
	free(buf);
	return ok;
}
