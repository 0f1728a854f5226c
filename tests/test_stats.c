/*
 * Unit tests of the statistics. Expected values computed by hand (shown) and
 * agreeing with numpy: np.percentile(x, 5) (linear), np.std(x, ddof=1).
 */
#include "stats.h"
#include "unit.h"

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
	return UNIT_RESULT();
}
