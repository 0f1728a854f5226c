/* Random cyclic chains, size lists and plateau detection (see chase.h). */
#include "chase.h"
#include "rng.h"

#include "dev.h"
#include "range.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHASE_MAX_SIZES 4096


/* A value in [0, bound) (multiply-shift; bias below 2^-32 for bound < 2^32). */
static uint32_t chase_below(uint64_t *s, uint32_t bound)
{
	return (uint32_t)(((rng_splitmix64(s) >> 32) * (uint64_t)bound) >> 32);
}

void chase_build(uint32_t *next, uint32_t *order, uint32_t n, uint64_t seed)
{
	uint64_t s = seed;

	/*
	 * A uniformly random order of the nodes after node 0 (Fisher-Yates over order[1..n-1]),
	 * then each node pointing to the one after it: one cycle of length n, each of the
	 * (n-1)! equally likely. Every step is an independent load or store: no walk along the
	 * chain (at 1 GiB one dependent miss a node cost seconds).
	 */
	if (n == 0)
		return;
	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	for (uint32_t i = n - 1; i > 1; i--) {
		uint32_t j = 1 + chase_below(&s, i), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (uint32_t k = 0; k + 1 < n; k++)
		next[order[k]] = order[k + 1];
	next[order[n - 1]] = 0;
}

static uint32_t chase_fmix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x85ebca6bu;
	x ^= x >> 13;
	x *= 0xc2b2ae35u;
	return x ^ (x >> 16);
}

uint32_t chase_mix(uint32_t k, uint32_t word)
{
	return chase_fmix(word ^ (k * 0x9e3779b9u));
}

uint32_t chase_content_sum(const uint32_t *words, uint32_t n, uint32_t stride_words)
{
	uint32_t sum = 0;

	for (uint32_t k = 0; k < n; k++)
		sum += chase_mix(k, words[(uint64_t)k * stride_words]);
	return sum;
}

bool chase_is_one_cycle(const uint32_t *next, uint32_t n, char *err, size_t errlen)
{
	uint32_t idx = 0;

	for (uint64_t k = 1; k <= n; k++) {
		if (next[idx] >= n) {
			snprintf(err, errlen, "node %u points to %u, outside 0..%u", idx, next[idx], n - 1);
			return false;
		}
		idx = next[idx];
		if (idx == 0 && k < n) {
			snprintf(err, errlen, "back at node 0 after %llu of %u steps: a cycle of %llu nodes",
				 (unsigned long long)k, n, (unsigned long long)k);
			return false;
		}
	}
	if (idx != 0) {
		snprintf(err, errlen, "not back at node 0 after %u steps (at node %u): node 0 is not "
			 "on a cycle", n, idx);
		return false;
	}
	return true;
}

uint32_t chase_lap_sum(uint32_t n, uint32_t stride_words)
{
	uint64_t t = (uint64_t)n * (n - (n > 0)) / 2;

	return (uint32_t)t * stride_words;
}


/* ---- size lists ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool sizes_push(uint64_t *v, size_t *n, uint64_t x, char *err, size_t errlen)
{
	if (*n >= CHASE_MAX_SIZES) {
		snprintf(err, errlen, "gives more than %d sizes", CHASE_MAX_SIZES);
		return false;
	}
	v[(*n)++] = x;
	return true;
}

/* One item: SIZE or A..B, appended to v. */
static bool sizes_item(char *item, unsigned steps, uint64_t min, uint64_t max, uint64_t *v,
		       size_t *n, char *err, size_t errlen)
{
	char *dots = strstr(item, "..");
	uint64_t a, b;

	if (!dots)
		return parse_size(item, min, max, &a, err, errlen) &&
		       sizes_push(v, n, a, err, errlen);
	*dots = '\0';
	if (!parse_size(item, min, max, &a, err, errlen) ||
	    !parse_size(dots + 2, min, max, &b, err, errlen))
		return false;
	if (a > b) {
		snprintf(err, errlen, "range '%s..%s' runs backwards", item, dots + 2);
		return false;
	}
	if (!sizes_push(v, n, a, err, errlen) || !sizes_push(v, n, b, err, errlen))
		return false;
	for (unsigned k = 0; k < 63; k++) {
		uint64_t base = 1ull << k;
		if (base > b)
			break;
		for (unsigned m = 0; m < steps; m++) {
			uint64_t s = base + base / steps * m + (base % steps) * m / steps;
			if (s > a && s < b && !sizes_push(v, n, s, err, errlen))
				return false;
		}
	}
	return true;
}

bool chase_sizes_parse(const char *s, unsigned steps, uint64_t min, uint64_t max,
		       uint64_t **out, size_t *n, char *err, size_t errlen)
{
	uint64_t *v = malloc(CHASE_MAX_SIZES * sizeof(*v));
	char *copy = strdup(s), *save = NULL, *item;
	size_t cnt = 0, u = 0;
	bool ok = v && copy && *s;

	if (!*s)
		snprintf(err, errlen, "'' is empty: give SIZE or A..B, e.g. 1Ki..1Gi");
	for (item = ok ? strtok_r(copy, ",", &save) : NULL; ok && item;
	     item = strtok_r(NULL, ",", &save))
		ok = sizes_item(item, steps, min, max, v, &cnt, err, errlen);
	if (ok && cnt == 0) {
		snprintf(err, errlen, "'%s' names no size", s);
		ok = false;
	}
	free(copy);
	if (!ok) {
		free(v);
		return false;
	}
	qsort(v, cnt, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < cnt; i++)
		if (u == 0 || v[i] != v[u - 1])
			v[u++] = v[i];
	*out = v;
	*n = u;
	return true;
}


/* ---- plateaus ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of(const double *x, size_t n, double *tmp)
{
	memcpy(tmp, x, n * sizeof(*x));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
}

/* Does latency x join the cluster c[0..m) (median med, range lo..hi)? */
static bool joins(double x, double med, double lo, double hi, double tol)
{
	double nlo = x < lo ? x : lo, nhi = x > hi ? x : hi;

	return x >= med * (1.0 - tol) && x <= med * (1.0 + tol) && nhi <= nlo * (1.0 + 2.0 * tol);
}

/*
 * Joins neighbouring plateaus whose medians lie within tol of each other (a
 * burst of noise split one level): the joined plateau's median is that of
 * every point in its range, the points within tol of it count, the rest are
 * outliers.
 */
static size_t merge_plateaus(const uint64_t *sizes, const double *lat,
			     const struct chase_rule *rule, struct chase_plateau *p, size_t np,
			     double *tmp)
{
	size_t k = 0;

	while (k + 1 < np) {
		double a = p[k].median, b = p[k + 1].median, lo = a < b ? a : b;
		if (a > b ? a - b > rule->tol * lo : b - a > rule->tol * lo) {
			k++;
			continue;
		}
		struct chase_plateau *q = &p[k];
		q->last = p[k + 1].last;
		q->last_bytes = sizes[q->last];
		q->median = median_of(lat + q->first, q->last - q->first + 1, tmp);
		q->points = q->outliers = 0;
		for (size_t i = q->first; i <= q->last; i++) {
			if (lat[i] >= q->median * (1 - rule->tol) && lat[i] <= q->median * (1 + rule->tol))
				q->points++;
			else
				q->outliers++;
		}
		memmove(&p[k + 1], &p[k + 2], (np - k - 2) * sizeof(*p));
		np--;
	}
	return np;
}

size_t chase_plateaus(const uint64_t *sizes, const double *lat, size_t n,
		      const struct chase_rule *rule, struct chase_plateau *out, size_t max)
{
	double *c = malloc((n ? n : 1) * sizeof(*c)), *tmp = malloc((n ? n : 1) * sizeof(*tmp));
	size_t np = 0, i = 0;

	while (c && tmp && i < n) {
		size_t m = 0, j = i + 1;
		unsigned outl = 0;
		double lo = lat[i], hi = lat[i], med = lat[i];

		c[m++] = lat[i];
		while (j < n) {
			size_t take = j;
			if (!joins(lat[j], med, lo, hi, rule->tol)) {
				if (j + 1 >= n || !joins(lat[j + 1], med, lo, hi, rule->tol))
					break;
				outl++;
				take = j + 1;
			}
			c[m++] = lat[take];
			lo = lat[take] < lo ? lat[take] : lo;
			hi = lat[take] > hi ? lat[take] : hi;
			med = median_of(c, m, tmp);
			j = take + 1;
		}
		if (m >= rule->min_points && np < max)
			out[np++] = (struct chase_plateau){ i, j - 1, sizes[i], sizes[j - 1], med,
							    (unsigned)m, outl, "" };
		i = j;
	}
	if (c && tmp)
		np = merge_plateaus(sizes, lat, rule, out, np, tmp);
	free(c);
	free(tmp);
	return np;
}

/* Where plateau q lies against the sizes: 1 within l1, 2 between, 3 above llc, 0 unknown. */
static int plateau_level(const struct chase_plateau *q, uint64_t l1, uint64_t llc)
{
	if (l1 && q->last_bytes <= l1)
		return 1;
	if (llc && q->first_bytes > llc)
		return 3;
	if (l1 && llc && q->first_bytes > l1 && q->last_bytes <= llc)
		return 2;
	return 0;
}

void chase_label(struct chase_plateau *p, size_t n, const struct chase_caches *c)
{
	static const char *const names[] = { NULL, "first-level cache", "intermediate cache",
					     "device memory" };
	uint64_t llc = c->llc, l1 = llc && c->l1 >= llc ? 0 : c->l1;
	size_t last_between = n, between = 0;

	for (size_t k = 0; k < n; k++) {
		int lv = plateau_level(&p[k], l1, llc);
		const char *name = names[lv];
		if (lv == 2 && c->gpu)   /* nothing between L1 and the LLC: all of them the LLC */
			name = between ? "last-level cache (slower part)" : "last-level cache";
		if (lv)
			snprintf(p[k].label, sizeof(p[k].label), "%s", name);
		else
			snprintf(p[k].label, sizeof(p[k].label), "plateau %zu", k + 1);
		if (lv == 2) {
			last_between = k;
			between++;
		}
	}
	if (last_between < n && !c->gpu)
		snprintf(p[last_between].label, sizeof(p[last_between].label), "last-level cache");
}

uint64_t chase_l1(const struct dev_info *d, const char **source)
{
	static const struct { uint32_t major, minor; uint64_t bytes; const char *src; } nv[] = {
		{ 7, 0, 128ull << 10, "NVIDIA V100 L1 with shared memory, 128 KB per SM (NVIDIA Volta "
				     "architecture whitepaper)" },
		{ 8, 0, 192ull << 10, "NVIDIA A100 L1 with shared memory, 192 KB per SM (NVIDIA Ampere "
				     "architecture whitepaper)" },
		{ 8, 6, 128ull << 10, "NVIDIA GA10x L1 with shared memory, 128 KB per SM (NVIDIA "
				     "Ampere GA102 whitepaper)" },
		{ 8, 9, 128ull << 10, "NVIDIA AD10x L1 with shared memory, 128 KB per SM (NVIDIA Ada "
				     "architecture whitepaper)" },
		{ 9, 0, 256ull << 10, "NVIDIA GH100 (H100, H200) L1 with shared memory, 256 KB per SM "
				     "(NVIDIA Hopper architecture in-depth blog)" },
	};
	long host_l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE);

	if (d->vendor_kind == DEV_VENDOR_NVIDIA)
		for (size_t i = 0; i < sizeof(nv) / sizeof(nv[0]); i++)
			if (d->nv_cc_major == nv[i].major && d->nv_cc_minor == nv[i].minor) {
				*source = nv[i].src;
				return nv[i].bytes;
			}
	if (d->vendor_kind == DEV_VENDOR_INTEL && (d->type & CL_DEVICE_TYPE_GPU) &&
	    strstr(d->name, "Data Center GPU Max")) {
		*source = "Intel Data Center GPU Max L1 with shared local memory, 512 KB per Xe-core "
			  "(Intel oneAPI GPU Optimization Guide)";
		return 512ull << 10;
	}
	if ((d->type & CL_DEVICE_TYPE_CPU) && host_l1 > 0) {
		*source = "the host's L1 data cache, sysconf(_SC_LEVEL1_DCACHE_SIZE): a CPU device runs "
			  "on the host";
		return (uint64_t)host_l1;
	}
	*source = "unknown: OpenCL has no query for the first-level cache, and none is tabled for "
		  "this device";
	return 0;
}

uint64_t chase_llc(const struct dev_info *d, const char **source)
{
	static const struct { uint32_t major, minor; uint64_t bytes; const char *src; } nv[] = {
		{ 8, 0, 40ull << 20, "NVIDIA A100 L2, 40 MB (NVIDIA Ampere architecture whitepaper)" },
		{ 9, 0, 50ull << 20, "NVIDIA GH100 (H100, H200) L2, 50 MB (NVIDIA Hopper architecture "
				    "in-depth blog)" },
	};

	*source = "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE";
	if (d->vendor_kind == DEV_VENDOR_NVIDIA)
		for (size_t i = 0; i < sizeof(nv) / sizeof(nv[0]); i++)
			if (d->nv_cc_major == nv[i].major && d->nv_cc_minor == nv[i].minor &&
			    d->global_cache < nv[i].bytes) {
				*source = nv[i].src;
				return nv[i].bytes;
			}
	return d->global_cache;
}
