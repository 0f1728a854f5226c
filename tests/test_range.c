/* Unit tests of the strict number, size and range parsers. */
#include "range.h"
#include "unit.h"

#include <stdint.h>

static void expect_list(const char *s, const uint64_t *want, size_t n)
{
	struct range r;
	char err[256];

	if (!range_parse(s, 1, 1u << 20, &r, err, sizeof(err))) {
		fprintf(stderr, "range '%s' rejected: %s\n", s, err);
		unit_failures++;
		return;
	}
	CHECK_EQ_U(r.n, n);
	for (size_t i = 0; i < n && i < r.n; i++)
		CHECK_EQ_U(r.v[i], want[i]);
	range_free(&r);
}

static void expect_bad(const char *s, uint64_t min, uint64_t max, const char *msg)
{
	struct range r;
	char err[256] = "";

	CHECK(!range_parse(s, min, max, &r, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, msg);
	CHECK(r.v == NULL && r.n == 0);
}

static void test_ranges(void)
{
	static const uint64_t one[] = { 7 };
	static const uint64_t step4[] = { 1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45 };
	static const uint64_t mixed[] = { 1, 2, 4, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	static const uint64_t geo[] = { 32, 64, 128, 256, 512, 1024 };
	static const uint64_t geo3[] = { 3, 9, 27, 81 };
	struct range r;
	char err[256];

	expect_list("7", one, 1);
	expect_list("1..48:4", step4, 12);
	expect_list("1,2,4,8..16", mixed, 12);
	expect_list("32..1024:x2", geo, 6);
	expect_list("3..100:x3", geo3, 4);
	CHECK(range_parse("1..48", 1, 48, &r, err, sizeof(err)));
	CHECK_EQ_U(r.n, 48);
	CHECK_EQ_U(r.v[0], 1);
	CHECK_EQ_U(r.v[47], 48);
	range_free(&r);

	expect_bad("0", 1, 48, "'0' is out of range: allowed 1..48");
	expect_bad("5..1", 1, 48, "runs backwards");
	expect_bad("abc", 1, 48, "'abc' is not a whole number in 1..48");
	expect_bad("1..", 1, 48, "'1..' is not a range");
	expect_bad("..5", 1, 48, "is not a range");
	/* a step or a factor that never advances, said as such (was the generic "is not a range") */
	expect_bad("1..8:0", 1, 48, "'1..8:0': a step of 0 never reaches the end of the range: give "
				    "a step of 1 or more");
	expect_bad("1..8:x0", 1, 48, "'1..8:x0': a factor of 0 never grows: give a factor of 2 or more");
	expect_bad("1..8:x1", 1, 48, "'1..8:x1': a factor of 1 never grows: give a factor of 2 or more");
	expect_bad("1..8:x", 1, 48, "is not a range");
	expect_bad("1..8:y2", 1, 48, "is not a range");
	/* a factor range from 0 used to repeat 0 until "too many values" */
	expect_bad("0..8:x2", 0, 48, "'0..8:x2': a range by a factor cannot start at 0 (0 times "
				      "any factor is 0): write 0,1..B:xF");
	expect_bad("0..0:x2", 0, 48, "cannot start at 0");
	expect_bad("1,,2", 1, 48, "is not a range");
	expect_bad("1,", 1, 48, "is not a range");
	expect_bad("", 1, 48, "is not a range");
	expect_bad("-3", 1, 48, "not a whole number");
	expect_bad("+3", 1, 48, "not a whole number");
	expect_bad("3 ", 1, 48, "not a whole number");
	expect_bad("99999999999999999999999", 1, 48, "overflows");
	expect_bad("1..99999999999999999999999", 1, 48, "is not a range");
	expect_bad("1..70000", 1, 1u << 20, "too many values");
}

static void test_numbers(void)
{
	uint64_t v = 0;
	char err[256];

	CHECK(parse_u64("0", 0, 10, &v, err, sizeof(err)) && v == 0);
	CHECK(parse_u64("18446744073709551615", 0, UINT64_MAX, &v, err, sizeof(err)) &&
	      v == UINT64_MAX);
	CHECK(!parse_u64("18446744073709551616", 0, UINT64_MAX, &v, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "overflows");
	CHECK(!parse_u64("11", 0, 10, &v, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "allowed 0..10");
	CHECK(!parse_u64("0x10", 0, 100, &v, err, sizeof(err)));
	CHECK(parse_size("256Mi", 1, UINT64_MAX, &v, err, sizeof(err)) && v == 268435456ull);
	CHECK(parse_size("1Gi", 1, UINT64_MAX, &v, err, sizeof(err)) && v == 1073741824ull);
	CHECK(parse_size("3K", 1, UINT64_MAX, &v, err, sizeof(err)) && v == 3000);
	CHECK(parse_size("4096", 1, UINT64_MAX, &v, err, sizeof(err)) && v == 4096);
	CHECK(!parse_size("1Xi", 1, UINT64_MAX, &v, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "is not a size");
	CHECK(!parse_size("Mi", 1, UINT64_MAX, &v, err, sizeof(err)));
	CHECK(!parse_size("20000000000Gi", 1, UINT64_MAX, &v, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "overflows");
	CHECK(!parse_size("2Gi", 1, 1ull << 30, &v, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "out of range");
}

static void test_size_ranges(void)
{
	struct range r;
	char err[256];

	CHECK(range_parse_sizes("4Mi..256Mi:x4", 1, 1ull << 40, &r, err, sizeof(err)));
	CHECK_EQ_U(r.n, 4);
	CHECK_EQ_U(r.v[0], 4ull << 20);
	CHECK_EQ_U(r.v[3], 256ull << 20);
	range_free(&r);
	CHECK(range_parse_sizes("0,16Ki,8Ki..24Ki:8Ki", 0, 1ull << 20, &r, err, sizeof(err)));
	CHECK_EQ_U(r.n, 5);
	CHECK_EQ_U(r.v[1], 16384);
	CHECK_EQ_U(r.v[4], 24576);
	range_free(&r);
	CHECK(!range_parse_sizes("2Gi", 0, 1ull << 30, &r, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "'2Gi' is out of range: allowed 0..1073741824");
	CHECK(!range_parse_sizes("lots", 0, 100, &r, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "'lots' is not a size");
	CHECK(!range_parse_sizes("1Mi..4Xi", 0, 1ull << 30, &r, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "is not a range");
	CHECK(!range_parse_sizes("8Ki..4Ki", 0, 1ull << 30, &r, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "runs backwards");
	/* plain ranges take no suffix */
	CHECK(!range_parse("4Ki", 0, 1ull << 30, &r, err, sizeof(err)));
}

int main(void)
{
	test_ranges();
	test_size_ranges();
	test_numbers();
	return UNIT_RESULT();
}
