/*
 * The exact Mann-Whitney U test, conditional on ties (method in mwu.h).
 *
 * The pooled samples, sorted, fall into tie groups of sizes t_1, t_2, ... Under the
 * null hypothesis every way of choosing which K of the N pooled values belong to one
 * side is equally likely. Walking the groups in order, with k values chosen so far
 * among the I before the group, choosing j of the group's t adds
 *     j (2 (I - k) + t - j)
 * to 2U of the chosen side: each chosen value beats the I - k others before it
 * (2 each) and ties the t - j others in its group (1 each). The table holds, for
 * every k, the probability of each value of 2U so far for a random k-subset of the
 * first I values; a group mixes rows k - j with the hypergeometric weights
 * C(t, j) C(I, k - j) / C(I + t, k), so every entry is a probability (no counts to
 * overflow). Only the lower tail up to the observed 2U is kept: contributions never
 * decrease it, and a row whose remaining K - k choices must each still add at least
 * 2 (I - k) is cut where that would pass the bound. The upper tail is the lower tail
 * of the other side (U_x + U_y = n m).
 *
 * Rows and bounds: after a group, a row k keeps the entries s <= c - (K - k) 2 (I - k).
 * Choosing j more and then K - k - j later adds at least (K - k) 2 (I - k), since every
 * value chosen later beats the I - k others already passed, so a read never reaches
 * beyond what the previous group zeroed and wrote.
 */
#include "mwu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct obs {
	double v;
	int side;      /* 0: x, 1: y */
};

static int obs_cmp(const void *a, const void *b)
{
	double x = ((const struct obs *)a)->v, y = ((const struct obs *)b)->v;

	return (x > y) - (x < y);
}

/* dst[s] += w src[s] for s < n; unrolled, as -O2 does not vectorise a loop of unknown length */
static void axpy(double *restrict dst, const double *restrict src, double w, size_t n)
{
	size_t s = 0;

	for (; s + 4 <= n; s += 4) {
		dst[s] += w * src[s];
		dst[s + 1] += w * src[s + 1];
		dst[s + 2] += w * src[s + 2];
		dst[s + 3] += w * src[s + 3];
	}
	for (; s < n; s++)
		dst[s] += w * src[s];
}

static double lchoose(size_t a, size_t b)
{
	return lgamma((double)a + 1) - lgamma((double)b + 1) - lgamma((double)(a - b) + 1);
}

/*
 * dist[s] = P(2 U_chosen == s) for s = 0..c, U_chosen the U of a random K-subset of
 * the N values in groups t[0..ng). False: out of host memory.
 */
static bool lower_tail(const size_t *t, size_t ng, size_t n_all, size_t K, size_t c, double *dist)
{
	size_t w = c + 1, i_before = 0;
	double *cur = calloc((K + 1) * w, sizeof(double)), *nxt = calloc((K + 1) * w, sizeof(double));
	size_t klo = 0, khi = 0;   /* the rows of cur in use */

	if (!cur || !nxt) {
		free(cur);
		free(nxt);
		return false;
	}
	cur[0] = 1;
	for (size_t g = 0; g < ng; g++) {
		size_t tg = t[g], i_after = i_before + tg;
		size_t nlo = K > n_all - i_after ? K - (n_all - i_after) : 0;
		size_t nhi = K < i_after ? K : i_after;

		for (size_t k = nlo; k <= nhi; k++) {
			size_t future = (K - k) * 2 * (i_after - k);
			double *dst = nxt + k * w;

			/* a row cut here is never read again (see the top of the file) */
			if (future > c)
				continue;
			memset(dst, 0, (c - future + 1) * sizeof(double));
			for (size_t j = 0; j <= tg && j <= k; j++) {
				size_t kb = k - j, ob;
				if (kb < klo || kb > khi || kb > i_before)
					continue;
				ob = i_before - kb;
				size_t d = j * (2 * ob + tg - j);
				if (d + future > c)
					continue;
				size_t smax = c - future - d, reach = 2 * kb * ob;
				if (reach < smax)
					smax = reach;
				double wgt = exp(lchoose(tg, j) + lchoose(i_before, kb) - lchoose(i_after, k));
				axpy(dst + d, cur + kb * w, wgt, smax + 1);
			}
		}
		double *tmp = cur;
		cur = nxt;
		nxt = tmp;
		klo = nlo;
		khi = nhi;
		i_before = i_after;
	}
	memcpy(dist, cur + K * w, w * sizeof(double));
	free(cur);
	free(nxt);
	return true;
}

/* The normal approximation with the tie and continuity corrections (scipy's asymptotic). */
static void normal_tails(double u, size_t n, size_t m, double tie_sum, struct mwu_result *r)
{
	double nn = (double)(n + m), mu = (double)n * (double)m / 2;
	double var = (double)n * (double)m / 12 * ((nn + 1) - tie_sum / (nn * (nn - 1)));

	if (!(var > 0)) {
		r->p_le = r->p_ge = 1;
		return;
	}
	double sd = sqrt(var);
	r->p_le = 0.5 * erfc(-(u - mu + 0.5) / (sd * M_SQRT2));
	r->p_ge = 0.5 * erfc((u - mu - 0.5) / (sd * M_SQRT2));
}

static double clamp01(double p)
{
	return p < 0 ? 0 : p > 1 ? 1 : p;
}

/* Sorts the pooled values into tie groups: sizes t[], count ng; 2U of x; sum of t^3 - t. */
static size_t tie_groups(struct obs *o, size_t nn, size_t *t, size_t *u2, double *tie_sum)
{
	size_t ng = 0, y_before = 0;

	qsort(o, nn, sizeof(*o), obs_cmp);
	*u2 = 0;
	*tie_sum = 0;
	for (size_t i = 0; i < nn;) {
		size_t j = i, gx = 0, gy = 0;
		while (j < nn && o[j].v == o[i].v) {
			gx += o[j].side == 0;
			gy += o[j].side == 1;
			j++;
		}
		t[ng++] = j - i;
		*u2 += gx * (2 * y_before + gy);
		*tie_sum += (double)(j - i) * (double)(j - i) * (double)(j - i) - (double)(j - i);
		y_before += gy;
		i = j;
	}
	return ng;
}

bool mwu_test(const double *x, size_t n, const double *y, size_t m, struct mwu_result *r)
{
	size_t nn = n + m, u2, ng, nm = n * m;
	struct obs *o = malloc(nn * sizeof(*o));
	size_t *t = malloc(nn * sizeof(*t));
	double tie_sum, *dist = NULL;
	bool ok = false;

	if (!o || !t)
		goto out;
	for (size_t i = 0; i < n; i++)
		o[i] = (struct obs){ x[i], 0 };
	for (size_t i = 0; i < m; i++)
		o[n + i] = (struct obs){ y[i], 1 };
	ng = tie_groups(o, nn, t, &u2, &tie_sum);
	r->u = (double)u2 / 2;
	r->ties = ng < nn;
	/* the tail on the side of the centre (2U = n m) is the short one to tabulate */
	bool low = u2 <= nm;
	size_t K = low ? n : m, c = low ? u2 : 2 * nm - u2;
	if ((double)(K + 1) * (double)(c + 1) > MWU_EXACT_MAX_CELLS) {
		r->method = MWU_NORMAL;
		normal_tails(r->u, n, m, tie_sum, r);
	} else {
		double tail = 0;
		r->method = MWU_EXACT;
		if (!(dist = malloc((c + 1) * sizeof(double))) || !lower_tail(t, ng, nn, K, c, dist))
			goto out;
		for (size_t s = 0; s <= c; s++)
			tail += dist[s];
		/* the other tail: 1 - P(strictly below) */
		r->p_le = low ? tail : 1 - tail + dist[c];
		r->p_ge = low ? 1 - tail + dist[c] : tail;
	}
	r->p_le = clamp01(r->p_le);
	r->p_ge = clamp01(r->p_ge);
	r->p = clamp01(2 * (r->p_le < r->p_ge ? r->p_le : r->p_ge));
	ok = true;
out:
	free(dist);
	free(t);
	free(o);
	return ok;
}

const char *mwu_method_name(const struct mwu_result *r)
{
	if (r->method == MWU_NORMAL)
		return "normal approximation, tie- and continuity-corrected (too many repetitions "
		       "for the exact table)";
	return r->ties ? "exact, conditional on ties" : "exact";
}
