/* Strict number and range parsing (see range.h). */
#include "range.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool parse_digits(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

static bool check_bounds(const char *s, uint64_t v, uint64_t min, uint64_t max, char *err,
			 size_t errlen)
{
	if (v < min || v > max) {
		snprintf(err, errlen, "'%s' is out of range: allowed %llu..%llu", s,
			 (unsigned long long)min, (unsigned long long)max);
		return false;
	}
	return true;
}

bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *err,
	       size_t errlen)
{
	uint64_t v;

	if (!parse_digits(s, strlen(s), &v)) {
		size_t len = strlen(s);
		bool digits = len > 0 && strspn(s, "0123456789") == len;
		snprintf(err, errlen, digits ? "'%s' overflows: allowed %llu..%llu"
					     : "'%s' is not a whole number in %llu..%llu", s,
			 (unsigned long long)min, (unsigned long long)max);
		return false;
	}
	if (!check_bounds(s, v, min, max, err, errlen))
		return false;
	*out = v;
	return true;
}

/* Parses digits with an optional K/M/G/T or Ki/Mi/Gi/Ti suffix; 1 ok, 0 malformed, -1 overflow. */
static int parse_suffixed(const char *s, size_t len, uint64_t *out)
{
	static const struct { const char *sfx; uint64_t mul; } sfx[] = {
		{ "Ki", 1ull << 10 }, { "Mi", 1ull << 20 }, { "Gi", 1ull << 30 },
		{ "Ti", 1ull << 40 }, { "K", 1000ull }, { "M", 1000000ull },
		{ "G", 1000000000ull }, { "T", 1000000000000ull },
	};
	size_t dl = 0;
	uint64_t v, mul = 1;
	bool found;

	while (dl < len && s[dl] >= '0' && s[dl] <= '9')
		dl++;
	found = dl == len;
	for (size_t i = 0; !found && i < sizeof(sfx) / sizeof(sfx[0]); i++)
		if (len - dl == strlen(sfx[i].sfx) && strncmp(s + dl, sfx[i].sfx, len - dl) == 0) {
			mul = sfx[i].mul;
			found = true;
		}
	if (!found || dl == 0)
		return 0;
	if (!parse_digits(s, dl, &v) || v > UINT64_MAX / mul)
		return -1;
	*out = v * mul;
	return 1;
}

bool parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *err,
		size_t errlen)
{
	uint64_t v;
	int r = parse_suffixed(s, strlen(s), &v);

	if (r < 0) {
		snprintf(err, errlen, "'%s' overflows: allowed %llu..%llu", s,
			 (unsigned long long)min, (unsigned long long)max);
		return false;
	}
	if (r == 0) {
		snprintf(err, errlen,
			 "'%s' is not a size: a whole number with an optional K, M, G, Ki, Mi or Gi "
			 "suffix, in %llu..%llu", s, (unsigned long long)min, (unsigned long long)max);
		return false;
	}
	if (!check_bounds(s, v, min, max, err, errlen))
		return false;
	*out = v;
	return true;
}

static bool push(struct range *r, size_t *cap, uint64_t v, const char *s, char *err,
		 size_t errlen)
{
	if (r->n >= RANGE_MAX_VALUES) {
		snprintf(err, errlen, "'%s' has too many values: at most %d", s, RANGE_MAX_VALUES);
		return false;
	}
	if (r->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		uint64_t *nv = realloc(r->v, nc * sizeof(*nv));
		if (!nv) {
			snprintf(err, errlen, "out of memory parsing '%s'", s);
			return false;
		}
		r->v = nv;
		*cap = nc;
	}
	r->v[r->n++] = v;
	return true;
}

/* A number of a range item: plain digits, or a size with a suffix where sizes is set. */
static bool parse_num(const char *s, size_t len, bool sizes, uint64_t *out)
{
	return sizes ? parse_suffixed(s, len, out) == 1 : parse_digits(s, len, out);
}

/* One item "A", "A..B", "A..B:S" or "A..B:xF" of a range list. */
/*
 * The STEP of A..B:STEP, or the factor F of A..B:xF (*geometric): 1 parsed, -1 not a number,
 * 0 a number that never advances (a step of 0, a factor of 0 or 1), said in err.
 */
static int parse_step(const char *st, bool sizes, const char *whole, uint64_t *step,
		      bool *geometric, char *err, size_t errlen)
{
	*geometric = *st == 'x';
	st += *geometric;
	if (!(*geometric ? parse_digits(st, strlen(st), step) : parse_num(st, strlen(st), sizes, step)))
		return -1;
	if (!*geometric && *step == 0) {
		snprintf(err, errlen, "'%s': a step of 0 never reaches the end of the range: give a "
			 "step of 1 or more (A..B:STEP)", whole);
		return 0;
	}
	if (*geometric && *step < 2) {
		snprintf(err, errlen, "'%s': a factor of %llu never grows: give a factor of 2 or more "
			 "(A..B:xF)", whole, (unsigned long long)*step);
		return 0;
	}
	return 1;
}

static bool parse_item(const char *item, const char *whole, uint64_t min, uint64_t max, bool sizes,
		       struct range *r, size_t *cap, char *err, size_t errlen)
{
	const char *dots = strstr(item, "..");
	const char *colon = strchr(item, ':');
	uint64_t a, b, step = 1;
	bool geometric = false;

	if (!dots) {
		if (colon)
			goto bad;
		return (sizes ? parse_size(item, min, max, &a, err, errlen)
			      : parse_u64(item, min, max, &a, err, errlen)) &&
		       push(r, cap, a, whole, err, errlen);
	}
	if (colon && colon < dots)
		goto bad;
	const char *bend = colon ? colon : item + strlen(item);
	if (!parse_num(item, (size_t)(dots - item), sizes, &a) ||
	    !parse_num(dots + 2, (size_t)(bend - dots - 2), sizes, &b))
		goto bad;
	if (colon) {
		int e = parse_step(colon + 1, sizes, whole, &step, &geometric, err, errlen);
		if (e < 0)
			goto bad;
		if (e == 0)
			return false;
	}
	if (a > b) {
		snprintf(err, errlen, "'%s': range %llu..%llu runs backwards: the first value "
			 "must not exceed the last", whole, (unsigned long long)a,
			 (unsigned long long)b);
		return false;
	}
	if (!check_bounds(whole, a, min, max, err, errlen) ||
	    !check_bounds(whole, b, min, max, err, errlen))
		return false;
	if (geometric && a == 0) {   /* 0, 0, 0, ... would never reach b */
		snprintf(err, errlen, "'%s': a range by a factor cannot start at 0 (0 times any "
			 "factor is 0): write 0,1..B:xF", whole);
		return false;
	}
	for (uint64_t v = a; v <= b;) {
		if (!push(r, cap, v, whole, err, errlen))
			return false;
		if (geometric ? v > b / step : v > b - step)
			break;
		v = geometric ? v * step : v + step;
	}
	return true;
bad:
	snprintf(err, errlen,
		 "'%s' is not a range: use N, A..B, A..B:STEP or A..B:xFACTOR, comma-separated, "
		 "values in %llu..%llu", whole, (unsigned long long)min, (unsigned long long)max);
	return false;
}

static bool parse_list(const char *s, uint64_t min, uint64_t max, bool sizes, struct range *r,
		       char *err, size_t errlen)
{
	size_t cap = 0;
	char *copy = strdup(s), *save = NULL;
	bool ok = copy != NULL && *s != '\0';

	r->v = NULL;
	r->n = 0;
	if (ok && (s[0] == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,")))
		ok = false;
	if (!ok)
		snprintf(err, errlen, "'%s' is not a range: use N, A..B, A..B:STEP or A..B:xFACTOR, "
			 "values in %llu..%llu", s, (unsigned long long)min,
			 (unsigned long long)max);
	for (char *tok = ok ? strtok_r(copy, ",", &save) : NULL; ok && tok;
	     tok = strtok_r(NULL, ",", &save))
		ok = parse_item(tok, s, min, max, sizes, r, &cap, err, errlen);
	free(copy);
	if (!ok)
		range_free(r);
	return ok;
}

bool range_parse(const char *s, uint64_t min, uint64_t max, struct range *r, char *err,
		 size_t errlen)
{
	return parse_list(s, min, max, false, r, err, errlen);
}

bool range_parse_sizes(const char *s, uint64_t min, uint64_t max, struct range *r, char *err,
		       size_t errlen)
{
	return parse_list(s, min, max, true, r, err, errlen);
}

void range_free(struct range *r)
{
	free(r->v);
	r->v = NULL;
	r->n = 0;
}
