/*
 * Unit tests of the bootstrap interval of a ratio of medians (host/boot.c). The
 * expected intervals were computed by the same algorithm written again in Python
 * (splitmix64, indices modulo the sample size, numpy.median and numpy.percentile):
 * tests/compare/stats_reference.py.
 */
#include "boot.h"
#include "unit.h"

#include <math.h>

int main(void)
{
	const double base[] = { 100.0, 103.0, 98.0, 101.0, 99.0, 102.0, 100.5, 97.0, 104.0, 100.0 };
	const double slow[] = { 110.0, 112.0, 108.5, 111.0, 109.0, 113.0, 110.0, 107.0, 111.5 };
	struct boot_ci ci;

	CHECK(boot_median_ratio(base, 10, slow, 9, BOOT_RESAMPLES, BOOT_CONFIDENCE, BOOT_SEED, &ci));
	CHECK_NEAR(ci.ratio, 1.0972568578553616, 1e-15);
	CHECK_NEAR(ci.lo, 1.0738736032680525, 1e-13);
	CHECK_NEAR(ci.hi, 1.121212121212121, 1e-13);

	CHECK(boot_median_ratio(base, 10, slow, 9, 500, 0.90, 1, &ci));
	CHECK_NEAR(ci.lo, 1.0792079207920793, 1e-13);
	CHECK_NEAR(ci.hi, 1.1172069825436408, 1e-13);

	/* the same seed, the same interval */
	struct boot_ci again;
	CHECK(boot_median_ratio(base, 10, slow, 9, 500, 0.90, 1, &again));
	CHECK(again.lo == ci.lo && again.hi == ci.hi);

	/* constant samples: every resample gives the same ratio */
	const double a[] = { 200, 200, 200 }, b[] = { 220, 220 };
	CHECK(boot_median_ratio(a, 3, b, 2, 100, 0.95, 7, &ci));
	CHECK_NEAR(ci.ratio, 1.1, 1e-15);
	CHECK_NEAR(ci.lo, 1.1, 1e-15);
	CHECK_NEAR(ci.hi, 1.1, 1e-15);

	/* identical samples: the interval holds 1 */
	CHECK(boot_median_ratio(base, 10, base, 10, BOOT_RESAMPLES, BOOT_CONFIDENCE, BOOT_SEED, &ci));
	CHECK_NEAR(ci.ratio, 1, 0);
	CHECK(ci.lo < 1 && ci.hi > 1);
	return UNIT_RESULT();
}
