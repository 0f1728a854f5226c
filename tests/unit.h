/* Minimal checks for the unit tests: each failure prints where and what, main returns the count. */
#ifndef BENCH_TESTS_UNIT_H
#define BENCH_TESTS_UNIT_H

#include <dirent.h>
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

/* The whole content of path into buf (NUL-terminated); "" when it cannot be read. */
static inline const char *unit_slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
	return buf;
}

/* How many entries folder dir holds, less those whose name starts with '.'. */
static inline int unit_count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

#endif
