/*
 * Unit tests of the statistics. Expected values computed by hand (shown) and
 * agreeing with numpy: np.percentile(x, 5) (linear), np.std(x, ddof=1).
 */
#include "stats.h"
#include "unit.h"

/*
 * The order-statistic interval of the median: ranks and coverage from exact binomial sums
 * computed independently in Python (fractions, math.comb):
 *   tail = (1 - conf) / 2; l = 1 + the largest j with sum(comb(n, k) for k <= j) / 2**n <= tail;
 *   ranks l and n + 1 - l; coverage 1 - 2 * that sum (None where no j qualifies).
 */
static const struct {
	double conf;
	size_t n, lo, hi;      /* lo 0: no interval */
	double coverage;
} ci_table[] = {
	{ 0.95, 5, 0, 0, 0 },
	{ 0.95, 6, 1, 6, 0.96875 },
	{ 0.95, 7, 1, 7, 0.984375 },
	{ 0.95, 8, 1, 8, 0.9921875 },
	{ 0.95, 9, 2, 8, 0.9609375 },
	{ 0.95, 10, 2, 9, 0.978515625 },
	{ 0.95, 12, 3, 10, 0.96142578125 },
	{ 0.95, 17, 5, 13, 0.950958251953125 },
	{ 0.95, 20, 6, 15, 0.9586105346679688 },
	{ 0.95, 30, 10, 21, 0.9572260547429323 },
	{ 0.95, 50, 18, 33, 0.9671608624357315 },
	{ 0.95, 100, 40, 61, 0.9647997997822951 },
	{ 0.95, 1000, 469, 532, 0.9537088026395019 },
	{ 0.95, 5000, 2431, 2570, 0.9506841418958282 },
	{ 0.95, 20000, 9861, 10140, 0.9514875384041096 },   /* 2^-20000 underflows: log space */
	{ 0.99, 7, 0, 0, 0 },
	{ 0.99, 8, 1, 8, 0.9921875 },
	{ 0.99, 20, 4, 17, 0.9974231719970703 },
	{ 0.99, 1000, 459, 542, 0.9913600509977395 },
	{ 0.9, 5, 1, 5, 0.9375 },
	{ 0.9, 30, 11, 20, 0.901262853294611 },
	{ 0.9, 5000, 2442, 2559, 0.902010126384676 },
};

static void test_median_ci(void)
{
	for (size_t i = 0; i < sizeof(ci_table) / sizeof(ci_table[0]); i++) {
		size_t lo = 0, hi = 0;
		double cov = 0;
		bool ok = stats_median_ci_ranks(ci_table[i].n, ci_table[i].conf, &lo, &hi, &cov);
		if (!ci_table[i].lo) {
			CHECK(!ok);
			continue;
		}
		CHECK(ok);
		CHECK_EQ_U(lo, ci_table[i].lo);
		CHECK_EQ_U(hi, ci_table[i].hi);
		CHECK_NEAR(cov, ci_table[i].coverage, 1e-9);
	}
	/* values: the 2nd and 9th smallest of ten, whatever their order and ties */
	const double x[] = { 70, 30, 100, 10, 50, 20, 80, 40, 90, 60 };
	const double t[] = { 5, 5, 5, 1, 5, 5, 5, 5, 5, 9 };
	double lo, hi, cov;
	CHECK(stats_median_ci(x, 10, 0.95, &lo, &hi, &cov));
	CHECK_NEAR(lo, 20, 0);
	CHECK_NEAR(hi, 90, 0);
	CHECK_NEAR(cov, 0.978515625, 1e-12);
	CHECK(x[0] == 70);   /* input untouched */
	CHECK(stats_median_ci(t, 10, 0.95, &lo, &hi, &cov));
	CHECK_NEAR(lo, 5, 0);
	CHECK_NEAR(hi, 5, 0);
	CHECK(!stats_median_ci(x, 5, 0.95, &lo, &hi, &cov));
	CHECK(!stats_median_ci(x, 0, 0.95, &lo, &hi, &cov));
}

/* Lag-1 autocorrelation and pair means, worked by hand. */
static void test_alternation(void)
{
	/* 1 3 1 3 1 3: mean 2, deviations -1 1 -1 1 -1 1: num -5, den 6 */
	const double alt[] = { 1, 3, 1, 3, 1, 3 };
	/* 1 2 3 4: mean 2.5, deviations -1.5 -0.5 0.5 1.5: num 0.75 - 0.25 + 0.75 = 1.25, den 5 */
	const double up[] = { 1, 2, 3, 4 };
	const double flat[] = { 7, 7, 7, 7 };
	double pm[3];

	CHECK_NEAR(stats_lag1(alt, 6), -5.0 / 6, 1e-12);
	CHECK_NEAR(stats_lag1(up, 4), 0.25, 1e-12);
	CHECK_NEAR(stats_lag1(flat, 4), 0, 0);
	CHECK_NEAR(stats_lag1(alt, 2), 0, 0);
	CHECK_EQ_U(stats_pair_means(alt, 6, pm), 3);
	CHECK_NEAR(pm[0], 2, 0);
	CHECK_NEAR(pm[2], 2, 0);
	CHECK_EQ_U(stats_pair_means(up, 3, pm), 1);   /* the odd last one left out */
	CHECK_NEAR(pm[0], 1.5, 0);
	CHECK(alt[1] == 3);   /* input untouched */
}

int main(void)
{
	/* 1..10: mean 5.5; median (5+6)/2 = 5.5; sample variance 82.5/9 = 9.1667, sd 3.02765;
	 * p5 at position 9*0.05 = 0.45: 1 + 0.45 = 1.45; p95 at 8.55: 9 + 0.55 = 9.55 */
	const double a[] = { 7, 3, 10, 1, 5, 2, 8, 4, 9, 6 };
	struct stats s;

	stats_compute(a, 10, &s);
	CHECK_EQ_U(s.n, 10);
	CHECK_NEAR(s.min, 1, 0);
	CHECK_NEAR(s.max, 10, 0);
	CHECK_NEAR(s.mean, 5.5, 1e-12);
	CHECK_NEAR(s.median, 5.5, 1e-12);
	CHECK_NEAR(s.stddev, 3.0276503540974917, 1e-12);
	CHECK_NEAR(s.cv, 3.0276503540974917 / 5.5 * 100, 1e-9);
	CHECK_NEAR(s.p5, 1.45, 1e-12);
	CHECK_NEAR(s.p95, 9.55, 1e-12);
	CHECK(a[0] == 7);   /* input untouched */

	/* odd n: {2, 4, 4, 4, 5, 5, 7, 9} + {100} -> median is the 5th value, 5 */
	const double b[] = { 100, 2, 4, 4, 4, 5, 5, 7, 9 };
	stats_compute(b, 9, &s);
	CHECK_NEAR(s.median, 5, 0);
	/* p95 at position 8*0.95 = 7.6: 9 + 0.6*(100-9) = 63.6 */
	CHECK_NEAR(s.p95, 63.6, 1e-9);

	/* one sample: stddev and cv 0, all percentiles equal it */
	const double c[] = { 42 };
	stats_compute(c, 1, &s);
	CHECK_NEAR(s.stddev, 0, 0);
	CHECK_NEAR(s.cv, 0, 0);
	CHECK_NEAR(s.p5, 42, 0);
	CHECK_NEAR(s.p95, 42, 0);
	CHECK_NEAR(s.median, 42, 0);

	test_median_ci();
	test_alternation();
	return UNIT_RESULT();
}
