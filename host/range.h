/* Strict parsing of numbers, sizes and ranges shared by every option. */
#ifndef BENCH_RANGE_H
#define BENCH_RANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RANGE_MAX_VALUES 65536

/* A parsed list of values, in the order written, duplicates kept. */
struct range {
	uint64_t *v;
	size_t n;
};

/*
 * Parses an unsigned decimal integer in [min, max]. Rejects empty strings,
 * signs, trailing characters and overflow. On failure writes a message that
 * names the value and the allowed range into err (size errlen), returns false.
 */
bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
	       char *err, size_t errlen);

/*
 * Like parse_u64 but accepts a binary or decimal suffix: K/M/G/T (x1000^k),
 * Ki/Mi/Gi/Ti (x1024^k), case-sensitive. "256Mi" = 268435456.
 */
bool parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out,
		char *err, size_t errlen);

/*
 * Parses a range list: comma-separated items, each one of
 *   N           a single value
 *   A..B        A to B inclusive, step 1
 *   A..B:S      step S (added)
 *   A..B:xF     geometric, factor F >= 2 (A, A*F, ... <= B)
 * Every value must lie in [min, max]; A <= B; at most RANGE_MAX_VALUES values.
 * On success fills r (free with range_free) and returns true.
 */
bool range_parse(const char *s, uint64_t min, uint64_t max, struct range *r,
		 char *err, size_t errlen);

/* Like range_parse, with every number a size (parse_size's suffixes): "4Mi..256Mi:x4", "0,16Ki". */
bool range_parse_sizes(const char *s, uint64_t min, uint64_t max, struct range *r, char *err,
		       size_t errlen);

void range_free(struct range *r);

#endif
