/* Minimal checks for the unit tests: each failure prints where and what, main returns the count. */
#ifndef BENCH_TESTS_UNIT_H
#define BENCH_TESTS_UNIT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int unit_failures;

#define CHECK(cond)                                                                   \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			unit_failures++;                                              \
		}                                                                     \
	} while (0)

#define CHECK_EQ_U(a, b)                                                              \
	do {                                                                          \
		unsigned long long a_ = (a), b_ = (b);                                \
		if (a_ != b_) {                                                       \
			fprintf(stderr, "%s:%d: %s = %llu, expected %llu\n", __FILE__, __LINE__, #a, a_, b_); \
			unit_failures++;                                              \
		}                                                                     \
	} while (0)

#define CHECK_NEAR(a, b, tol)                                                         \
	do {                                                                          \
		double a_ = (a), b_ = (b);                                            \
		if (!(fabs(a_ - b_) <= (tol))) {                                      \
			fprintf(stderr, "%s:%d: %s = %.12g, expected %.12g\n", __FILE__, __LINE__, #a, a_, b_); \
			unit_failures++;                                              \
		}                                                                     \
	} while (0)

#define CHECK_STR_CONTAINS(hay, needle)                                               \
	do {                                                                          \
		if (!strstr((hay), (needle))) {                                       \
			fprintf(stderr, "%s:%d: '%s' does not contain '%s'\n", __FILE__, __LINE__, (hay), (needle)); \
			unit_failures++;                                              \
		}                                                                     \
	} while (0)

#define UNIT_RESULT() (unit_failures ? (fprintf(stderr, "%d check(s) failed\n", unit_failures), 1) : 0)

#endif
