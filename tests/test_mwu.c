/*
 * Unit tests of the exact Mann-Whitney U test (host/mwu.c) against values computed
 * independently:
 *   - the published two-sided 5 % critical values of U (the table printed in most
 *     statistics texts, e.g. for n = m = 9 reject at U <= 17): the p-value at U_crit is
 *     at most 0.05 and at U_crit + 1 above it; the p-values themselves are scipy's
 *   - scipy.stats.mannwhitneyu(x, y, method="exact") on samples without ties
 *   - with ties, scipy.stats.permutation_test of U with n_resamples=inf (every split
 *     of the pooled samples enumerated, two-sided = twice the smaller tail), and for
 *     25-30 a side the splits counted by midrank sum with Python's exact integers
 *   - past the exact table's size, scipy's method="asymptotic" (tie- and
 *     continuity-corrected)
 * Every number comes from tests/compare/stats_reference.py (scipy 1.17.1, numpy 2.4.6).
 */
#include "mwu.h"
#include "unit.h"

#include <stdlib.h>

/* x (n values) and y = 1..m with U of x == u, no ties (stats_reference.py's rule). */
static void samples_with_u(size_t n, size_t m, size_t u, double *x, double *y)
{
	for (size_t j = 0; j < m; j++)
		y[j] = (double)(j + 1);
	for (size_t i = 0; i < n; i++) {
		size_t c = u < m ? u : m;
		u -= c;
		x[i] = (double)c + 0.5 + (double)i * 1e-3;
	}
}

static const struct { size_t n, m, u_crit; double p_at, p_above; } crit[] = {
	{ 5, 5, 2, 0.031746031746031744, 0.05555555555555555 },
	{ 8, 8, 13, 0.04988344988344988, 0.06495726495726495 },
	{ 9, 9, 17, 0.039983545865898806, 0.05030851501439737 },
	{ 10, 10, 23, 0.04325705254497823, 0.0524259022711035 },
	{ 9, 10, 20, 0.04347355430946762, 0.053475935828877004 },
	{ 12, 12, 37, 0.04490199529908778, 0.051864611361178876 },
	{ 15, 15, 64, 0.04533389909792265, 0.0502223733334571 },
	{ 20, 20, 127, 0.04909032518937244, 0.05239952187284972 },
	{ 9, 20, 48, 0.049090539645262284, 0.05512508481024223 },
	{ 10, 15, 39, 0.04752444351986686, 0.05450996708231867 },
};

static void test_critical_values(void)
{
	for (size_t i = 0; i < sizeof(crit) / sizeof(crit[0]); i++) {
		double x[32], y[32];
		struct mwu_result r;

		for (size_t k = 0; k < 2; k++) {
			samples_with_u(crit[i].n, crit[i].m, crit[i].u_crit + k, x, y);
			CHECK(mwu_test(x, crit[i].n, y, crit[i].m, &r));
			CHECK_NEAR(r.u, (double)(crit[i].u_crit + k), 0);
			CHECK_NEAR(r.p, k ? crit[i].p_above : crit[i].p_at, 1e-12);
			CHECK(k ? r.p > 0.05 : r.p <= 0.05);
			CHECK(!r.ties && r.method == MWU_EXACT);
			/* the same U from the other side: the mirror image, the same p */
			CHECK(mwu_test(y, crit[i].m, x, crit[i].n, &r));
			CHECK_NEAR(r.u, (double)(crit[i].n * crit[i].m - crit[i].u_crit - k), 0);
			CHECK_NEAR(r.p, k ? crit[i].p_above : crit[i].p_at, 1e-12);
		}
	}
}

static const double nt0_x[] = {
	100.171, 106.799, 106.124, 97.448, 98.51, 97.363, 102.849, 99.72, 103.734
};
static const double nt0_y[] = {
	90.763, 107.833, 99.518, 103.402, 99.317, 98.105, 102.316, 104.123, 98.987
};

static const double nt1_x[] = {
	104.236, 108.428, 100.648, 97.428, 106.975, 101.647, 95.398, 100.93, 102.662
};
static const double nt1_y[] = {
	94.034, 92.538, 100.183, 104.486, 98.834, 96.282, 101.925, 103.586, 98.5
};

static const double nt2_x[] = {
	105.723, 108.214, 101.965, 98.932, 104.738, 104.238, 108.494, 96.577, 99.692, 98.809
};
static const double nt2_y[] = {
	91.33, 100.632, 102.639, 96.306, 106.928, 104.11, 103.137, 102.009, 104.778, 93.34, 103.07,
	103.014
};

static const double nt3_x[] = {
	89.661, 100.235, 97.248, 102.408, 96.305, 98.409, 100.214, 94.119, 101.493, 97.975, 100.962,
	95.891
};
static const double nt3_y[] = {
	105.431, 103.026, 99.11, 103.16, 106.299, 108.956, 92.132, 104.416, 102.325, 99.531
};

static const double nt4_x[] = {
	97.467, 108.786, 96.191, 105.335, 109.009, 94.502, 100.987, 95.954, 103.72, 110.072, 112.618,
	93.609, 99.625, 106.018, 110.397, 104.606, 98.769, 103.986, 102.417, 101.481
};
static const double nt4_y[] = {
	96.328, 101.936, 101.539, 99.535, 98.892, 93.575, 97.569, 106.032, 99.047, 92.802, 106.672,
	102.651, 110.54, 100.313, 97.693, 92.762, 106.619, 112.848, 95.895, 96.765
};

static const double nt5_x[] = {
	104.481, 97.348, 100.147, 99.751, 102.46, 106.974, 101.61, 106.095, 99.401, 103.139, 90.809,
	94.25, 105.48, 98.549, 104.4, 104.212, 108.111, 105.559, 106.585, 100.942, 98.009, 97.842,
	99.06, 95.851, 98.763, 101.037, 102.758, 99.806, 91.882, 101.139, 102.627, 106.922, 104.389,
	98.282, 97.881, 111.553, 105.283, 110.657, 112.147, 97.41
};
static const double nt5_y[] = {
	101.926, 102.291, 102.798, 102.71, 101.01, 100.871, 92.488, 99.173, 96.262, 100.63, 97.662,
	103.093, 104.095, 101.543, 101.581, 100.465, 97.761, 99.177, 97.522, 101.94, 100.071, 102.906,
	93.357, 104.439, 96.187, 96.329, 99.013, 97.183, 101.456, 97.129, 94.653, 95.771, 106.56,
	100.221, 94.162, 100.042, 92.22, 108.948, 92.378, 102.394
};

static const double tie0_x[] = {
	10, 11, 11, 12, 12, 12, 13, 14, 15
};
static const double tie0_y[] = {
	12, 13, 13, 14, 15, 15, 15, 16, 17
};

static const double tie1_x[] = {
	5, 5, 5, 5, 6, 6, 6, 7, 7
};
static const double tie1_y[] = {
	5, 5, 6, 6, 6, 7, 7, 7, 7, 8
};

static const double tie2_x[] = {
	1000, 1000, 1001, 1001, 1002, 1002, 1002, 1003, 1004, 1004
};
static const double tie2_y[] = {
	1001, 1002, 1002, 1003, 1003, 1004, 1004, 1005, 1005, 1006, 1006
};

static const double big_x[] = {
	1011, 971, 1006, 1020, 1009, 1005, 1019, 1003, 1007, 997, 1013, 981, 1016, 990, 978, 1007,
	1034, 1019, 990, 1014, 991, 998, 1002, 954, 1004, 979, 986, 971, 970, 981, 1017, 1033, 999,
	1022, 995, 962, 1003, 1009, 991, 1006, 1011, 983, 970, 996, 996, 993, 1020, 1035, 992, 1014,
	1019, 1014, 1021, 992, 1015, 1040, 1016, 988, 1012, 1025, 1007, 989, 1031, 975, 1010, 1000,
	976, 1024, 1007, 977, 1012, 991, 962, 986, 1005, 1013, 1003, 1001, 1009, 996, 1024, 1003,
	1006, 1011, 979, 986, 1031, 1007, 994, 1007, 990, 1006, 987, 1006, 968, 1027, 990, 968, 996,
	993, 1003, 977, 1008, 1072, 974, 1007, 994, 1004, 964, 977, 1009, 999, 1033, 986, 1003, 1058,
	985, 982, 999, 999, 1017, 1003, 985, 1004, 1053, 1025, 944, 997, 982, 1012, 997, 1039, 1019,
	1018, 1004, 999, 1007, 1026, 1011, 993, 1026, 1004, 998, 984, 989, 987, 944, 1020, 1011, 996,
	1021, 1009, 1007, 951, 995, 1011, 1032, 1037, 1029, 977, 956, 1011, 1001, 1019, 997, 1004,
	970, 1009, 991, 1007, 1009, 998, 1006, 1000, 1015, 1010, 989, 988, 1035, 998, 1020, 1008, 989,
	985, 1002, 1005, 1012, 975, 988, 998, 1032, 953, 1009, 989, 1009, 990, 1007, 1031, 1007, 1009,
	1007, 985, 1011, 996, 984, 999, 995, 1015, 999, 989, 1029, 1020, 1025, 1012, 998, 992, 994,
	1019, 1002, 970, 999, 972, 1003, 976, 975, 1002, 998, 967, 1015, 1043, 970, 1036, 986, 990,
	996, 971, 1026, 1010, 985, 994, 970, 993, 1019, 966, 991, 1003, 1021, 1027, 991, 985, 1009,
	993, 994, 1022, 1034, 1005, 996, 1011, 962, 1000, 979, 1048, 1014, 1003, 996, 950, 1014, 1033,
	985, 1014, 1014, 969, 1019, 1027, 1005, 999, 1016, 969, 1002, 1021, 975, 1020, 992, 958, 998,
	981, 1006, 977, 1021, 985, 1007, 988, 994, 1024, 1004, 992, 975, 1023, 1015, 993
};
static const double big_y[] = {
	1010, 984, 985, 988, 1012, 1011, 990, 1020, 1021, 1008, 1026, 999, 1003, 1014, 1004, 1021,
	980, 1034, 989, 1002, 977, 1017, 1030, 1026, 1022, 974, 989, 996, 986, 1027, 1009, 1005, 1015,
	986, 987, 987, 1015, 1012, 1017, 1027, 978, 994, 1008, 978, 994, 1025, 1027, 1027, 1006, 1001,
	1027, 998, 1012, 1032, 998, 993, 1005, 1017, 1015, 1008, 1016, 973, 988, 1008, 986, 978, 981,
	987, 1001, 985, 1010, 1039, 1002, 1030, 1011, 983, 1000, 985, 1020, 982, 1031, 1017, 965,
	1021, 1036, 989, 1025, 969, 1010, 972, 1015, 969, 952, 1013, 1051, 993, 1022, 1007, 999, 1017,
	1038, 980, 1016, 1012, 977, 1037, 1044, 986, 1040, 1006, 1002, 1035, 1010, 1011, 1035, 1031,
	1023, 977, 974, 1028, 986, 1008, 984, 1001, 979, 1038, 985, 1003, 1001, 1029, 977, 1004, 1001,
	1016, 1014, 996, 1010, 998, 1014, 1003, 992, 1004, 1012, 1050, 995, 1011, 1034, 963, 970, 981,
	1003, 1054, 1013, 1029, 1001, 956, 959, 1025, 1009, 979, 1027, 974, 1028, 1034, 990, 983,
	1022, 983, 1022, 981, 1021, 1007, 996, 987, 1010, 967, 999, 997, 1019, 980, 1039, 999, 982,
	1033, 1038, 1001, 987, 1005, 991, 999, 1036, 1013, 1008, 1012, 1004, 1022, 1023, 998, 1007,
	1053, 1013, 1001, 1046, 1005, 983, 1018, 987, 995, 1012, 1002, 990, 994, 993, 1028, 991, 994,
	1046, 994, 1035, 1031, 1002, 977, 1014, 1018, 1024, 1006, 1029, 1033, 984, 1034, 1008, 994,
	999, 1043, 1025, 969, 1007, 1002, 1001, 995, 976, 1022, 986, 998, 993, 990, 1020, 1013, 992,
	986, 996, 1024, 1008, 1010, 998, 1000, 1009, 968, 1037, 989, 994, 1032, 1009, 1006, 993, 974,
	1009, 1029, 987, 1032, 982, 990, 1015, 1005, 1019, 990, 984, 968, 981, 983, 976, 1011, 992,
	965, 1055, 988, 980, 1030, 1028, 982, 976, 985, 1028, 999, 989, 1004, 1029, 977, 997, 977
};

#define N(a) (sizeof(a) / sizeof(a[0]))
#define CASE(x, y) x, N(x), y, N(y)

static void test_no_ties(void)
{
	static const struct { const double *x; size_t n; const double *y; size_t m; double u, p; } c[] = {
		{ CASE(nt0_x, nt0_y), 43.0, 0.8633072809543397 },
		{ CASE(nt1_x, nt1_y), 56.0, 0.1902509255450432 },
		{ CASE(nt2_x, nt2_y), 71.0, 0.49650658938584646 },
		{ CASE(nt3_x, nt3_y), 22.0, 0.01115293375355295 },
		{ CASE(nt4_x, nt4_y), 243.0, 0.2533798988410392 },
		{ CASE(nt5_x, nt5_y), 1028.0, 0.028036352138851424 },
	};
	for (size_t i = 0; i < N(c); i++) {
		struct mwu_result r;
		CHECK(mwu_test(c[i].x, c[i].n, c[i].y, c[i].m, &r));
		CHECK_NEAR(r.u, c[i].u, 0);
		CHECK_NEAR(r.p, c[i].p, 1e-12);
		CHECK(!r.ties && r.method == MWU_EXACT);
	}
}

static void test_ties(void)
{
	static const struct {
		const double *x; size_t n; const double *y; size_t m; double u, p, p_le, p_ge;
	} c[] = {
		{ CASE(tie0_x, tie0_y), 12.5, 0.011559029206088029, 0.005779514603044014, 0.996606334841629 },
		{ CASE(tie1_x, tie1_y), 28.5, 0.23232804347355432, 0.11616402173677716, 0.9481370023165688 },
		{ CASE(tie2_x, tie2_y), 23.0, 0.022766191496841653, 0.011383095748420826, 0.9907375905827919 },
	};
	for (size_t i = 0; i < N(c); i++) {
		struct mwu_result r;
		CHECK(mwu_test(c[i].x, c[i].n, c[i].y, c[i].m, &r));
		CHECK_NEAR(r.u, c[i].u, 0);
		CHECK_NEAR(r.p, c[i].p, 1e-12);
		CHECK_NEAR(r.p_le, c[i].p_le, 1e-12);
		CHECK_NEAR(r.p_ge, c[i].p_ge, 1e-12);
		CHECK(r.ties && r.method == MWU_EXACT);
	}
}

/* Larger tied samples against counts of every split with Python integers (another algorithm). */
static const double lt0_x[] = { 9, 8, 10, 11, 12, 11, 10, 9, 12, 13, 11, 9, 9, 13, 11, 8, 10, 9, 9, 10,
				9, 11, 10, 10, 11 };
static const double lt0_y[] = { 11, 8, 10, 9, 10, 8, 10, 10, 10, 8, 9, 8, 8, 10, 8, 12, 11, 7, 10, 8,
				10, 10, 7, 10, 10, 11, 8, 11, 8, 10 };
static const double lt1_x[] = { 9, 12, 11, 14, 11, 11, 11, 9, 10, 12, 9, 10, 10, 11, 9, 10, 10, 10, 9,
				11, 8, 8, 8, 11, 9, 9, 8, 11, 8, 8 };
static const double lt1_y[] = { 11, 8, 10, 10, 9, 10, 12, 9, 8, 7, 10, 9, 10, 9, 9, 9, 9, 10, 9, 10,
				13, 11, 8, 13, 11, 9, 11, 10, 9, 9 };

static void test_larger_ties(void)
{
	static const struct {
		const double *x; size_t n; const double *y; size_t m; double u, p, p_le, p_ge;
	} c[] = {
		{ CASE(lt0_x, lt0_y), 492.0, 0.042412611042946656, 0.9792857131368807, 0.021206305521473328 },
		{ CASE(lt1_x, lt1_y), 480.5, 0.6484373644346108, 0.678596396042078, 0.3242186822173054 },
	};
	for (size_t i = 0; i < N(c); i++) {
		struct mwu_result r;
		CHECK(mwu_test(c[i].x, c[i].n, c[i].y, c[i].m, &r));
		CHECK_NEAR(r.u, c[i].u, 0);
		CHECK_NEAR(r.p, c[i].p, 1e-11);
		CHECK_NEAR(r.p_le, c[i].p_le, 1e-11);
		CHECK_NEAR(r.p_ge, c[i].p_ge, 1e-11);
		CHECK(r.ties && r.method == MWU_EXACT);
	}
}

/* 300 a side, U near the centre: past the exact table, the normal approximation. */
static void test_large(void)
{
	struct mwu_result r;

	CHECK(mwu_test(CASE(big_x, big_y), &r));
	CHECK_NEAR(r.u, 41248.0, 0);
	CHECK_NEAR(r.p, 0.07718643571472994, 1e-12);
	CHECK(r.ties && r.method == MWU_NORMAL);
}

/* Degenerate and edge cases, by hand. */
static void test_edges(void)
{
	const double same[] = { 5, 5, 5, 5, 5, 5, 5, 5, 5 }, one[] = { 1 }, two[] = { 2 };
	struct mwu_result r;

	/* every value tied: U = n m / 2, both tails 1 */
	CHECK(mwu_test(same, 9, same, 9, &r));
	CHECK_NEAR(r.u, 40.5, 0);
	CHECK_NEAR(r.p, 1, 0);
	/* one against one: U 0 or 1, each with probability 1/2, p = 1 */
	CHECK(mwu_test(one, 1, two, 1, &r));
	CHECK_NEAR(r.u, 0, 0);
	CHECK_NEAR(r.p_le, 0.5, 1e-15);
	CHECK_NEAR(r.p, 1, 0);
	/* 9 wholly below 9: p = 2 / C(18, 9) = 2 / 48620 */
	double lo[9], hi[9];
	for (int i = 0; i < 9; i++) {
		lo[i] = 100 + i;
		hi[i] = 200 + i;
	}
	CHECK(mwu_test(hi, 9, lo, 9, &r));
	CHECK_NEAR(r.u, 81, 0);
	CHECK_NEAR(r.p, 2.0 / 48620, 1e-15);
	CHECK_NEAR(r.p_ge, 1.0 / 48620, 1e-16);
}

int main(void)
{
	test_critical_values();
	test_no_ties();
	test_ties();
	test_larger_ties();
	test_large();
	test_edges();
	return UNIT_RESULT();
}
