/*
 * libFuzzer harness for the strict parsers (host/range.h): parse_u64, parse_size, range_parse and
 * range_parse_sizes on arbitrary text and bounds, each result checked against a plain reference:
 *   byte 0: parser (low 2 bits), byte 1: min and max (index into BOUNDS), the rest: the text.
 * A violated property aborts, which libFuzzer reports as a crash with the input that did it.
 */
#include "range.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t bounds[] = {
	0, 1, 2, 32, 1024, 65536, 1ull << 32, UINT64_MAX,
};

#define FUZZ_REQUIRE(cond)                                                              \
	do {                                                                            \
		if (!(cond)) {                                                          \
			fprintf(stderr, "fuzz_range: property failed: %s\n", #cond);    \
			abort();                                                        \
		}                                                                       \
	} while (0)

/* The reference reading of a size: digits, then nothing or one of the suffixes; 0 on no. */
static int ref_size(const char *s, unsigned __int128 *v)
{
	static const struct { const char *sfx; uint64_t mul; } sfx[] = {
		{ "", 1 }, { "K", 1000ull }, { "M", 1000000ull }, { "G", 1000000000ull },
		{ "T", 1000000000000ull }, { "Ki", 1ull << 10 }, { "Mi", 1ull << 20 },
		{ "Gi", 1ull << 30 }, { "Ti", 1ull << 40 },
	};
	size_t d = strspn(s, "0123456789");
	unsigned __int128 x = 0;

	if (d == 0)
		return 0;
	for (size_t i = 0; i < d; i++) {
		x = x * 10 + (unsigned)(s[i] - '0');
		if (x > UINT64_MAX)
			x = (unsigned __int128)UINT64_MAX + 1;   /* saturate: it overflows anyway */
	}
	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++)
		if (strcmp(s + d, sfx[i].sfx) == 0) {
			*v = x * sfx[i].mul;
			return 1;
		}
	return 0;
}

/* parse_u64 and parse_size accept exactly what the reference reads within [min, max]. */
static void check_number(const char *s, bool sizes, uint64_t min, uint64_t max)
{
	char err[8192] = "";
	uint64_t v = 0;
	unsigned __int128 ref = 0;
	bool ok = sizes ? parse_size(s, min, max, &v, err, sizeof(err))
			: parse_u64(s, min, max, &v, err, sizeof(err));
	bool want = (sizes ? ref_size(s, &ref) : strspn(s, "0123456789") == strlen(s) &&
						  ref_size(s, &ref)) &&
		    ref >= min && ref <= max;

	FUZZ_REQUIRE(ok == want);
	FUZZ_REQUIRE(!ok || v == (uint64_t)ref);
	FUZZ_REQUIRE(ok || (err[0] == '\'' && strncmp(err + 1, s, strlen(s)) == 0));
}

/* A range parses into 1..RANGE_MAX_VALUES values within bounds; a failure says why, quoted. */
static void check_range(const char *s, bool sizes, uint64_t min, uint64_t max)
{
	char err[8192] = "";
	struct range r = { 0 };
	bool ok = sizes ? range_parse_sizes(s, min, max, &r, err, sizeof(err))
			: range_parse(s, min, max, &r, err, sizeof(err));

	if (ok) {
		FUZZ_REQUIRE(r.n >= 1 && r.n <= RANGE_MAX_VALUES && r.v);
		for (size_t i = 0; i < r.n; i++)
			FUZZ_REQUIRE(r.v[i] >= min && r.v[i] <= max);
		/* a single plain number reads as the number parser reads it */
		if (!strpbrk(s, ",.:")) {
			uint64_t v;
			FUZZ_REQUIRE(r.n == 1);
			FUZZ_REQUIRE(sizes ? parse_size(s, min, max, &v, err, sizeof(err))
					   : parse_u64(s, min, max, &v, err, sizeof(err)));
			FUZZ_REQUIRE(v == r.v[0]);
		}
	} else {
		FUZZ_REQUIRE(r.v == NULL && r.n == 0);
		FUZZ_REQUIRE(err[0] == '\'' || strncmp(err, "out of memory", 13) == 0);
	}
	range_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;
	uint64_t min, max;

	if (size < 2 || size > 2048)   /* options are short; the error buffer holds the text */
		return 0;
	min = bounds[data[1] & 7];
	max = bounds[(data[1] >> 3) & 7];
	s = malloc(size - 1);
	if (!s)
		return 0;
	memcpy(s, data + 2, size - 2);
	s[size - 2] = '\0';   /* argv strings end at the first NUL */
	switch (data[0] & 3) {
	case 0: check_number(s, false, min, max); break;
	case 1: check_number(s, true, min, max); break;
	case 2: check_range(s, false, min, max); break;
	default: check_range(s, true, min, max); break;
	}
	free(s);
	return 0;
}
