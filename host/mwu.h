/*
 * The two-sided Mann-Whitney U test, exact: the p-value comes from the permutation
 * distribution of U given the observed ties (the conditional exact test), computed
 * by dynamic programming over the tie groups in sorted order. Without ties that is
 * the classical exact U distribution (the published tables; scipy's
 * mannwhitneyu(method="exact")); with ties it is the distribution of U over every
 * way of splitting the pooled, tied samples into groups of n and m (scipy's
 * permutation_test on U with every permutation enumerated).
 *
 * U of x is the number of pairs (x_i, y_j) with x_i > y_j plus half the pairs with
 * x_i == y_j. The two-sided p-value is twice the smaller one-sided tail,
 * min(1, 2 min(P(U <= u), P(U >= u))): with ties the conditional distribution need
 * not be symmetric, and this is the rule scipy's permutation_test uses.
 */
#ifndef BENCH_MWU_H
#define BENCH_MWU_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The exact distribution is used while its table, (samples on one side + 1) x
 * (n m + 1) probabilities at most, fits this many entries (about 150 repetitions a
 * side in the worst case, far more when the samples differ clearly); beyond it the
 * normal approximation with the tie and continuity corrections, and the result says so.
 */
#define MWU_EXACT_MAX_CELLS (1u << 22)

enum mwu_method { MWU_EXACT, MWU_NORMAL };

struct mwu_result {
	double u;              /* U of x */
	double p;              /* two-sided */
	double p_le, p_ge;     /* P(U <= u), P(U >= u) under the null hypothesis */
	bool ties;             /* some values occur more than once in the pooled samples */
	enum mwu_method method;
};

/*
 * Tests x (n values) against y (m values), both >= 1 and finite. False (out of
 * host memory) leaves r unset.
 */
bool mwu_test(const double *x, size_t n, const double *y, size_t m, struct mwu_result *r);

/* "exact (conditional on ties)", "exact", or "normal approximation ...". */
const char *mwu_method_name(const struct mwu_result *r);

#endif
