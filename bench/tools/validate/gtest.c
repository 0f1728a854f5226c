/*
 * bench validate as a GoogleTest program, for runners that drive one (CTest's
 * gtest_discover_tests, deqp-runner's gtest mode): --gtest_list_tests, --gtest_filter, and
 * GoogleTest's lines for each check ([ RUN      ], [       OK ], [  FAILED  ], [  SKIPPED ]).
 *
 * Names: the suite is the check id's first part (the benchmark, or api), the test the rest.
 * GoogleTest's names are C identifiers, so the other characters are written as letters:
 *   a '-' between a letter or digit and a letter   the letter in upper case (sg-info: sgInfo)
 *   '/'                                             '_'
 *   '=', another '-', '_', '.'                      "_E", "_H", "_U", "_D"
 *   any other byte (an upper-case letter included)  "_X" and its two hex digits
 * An upper-case letter after '_' is always such a code and one after a letter or digit always a
 * '-', so every name reads back to one id: vecadd/v4/wg=64/sg=16/barrier is
 * vecadd.v4_wg_E64_sg_E16_barrier, api/wg-above-device-max is api.wgAboveDeviceMax,
 * atomics/acq_rel/work_group/local-wg is atomics.acq_Urel_work_Ugroup_localWg.
 */
#include "validate.h"

#include <string.h>

#define GT_LEN 256

static const struct {
	char c, code;
} escapes[] = { { '=', 'E' }, { '-', 'H' }, { '_', 'U' }, { '.', 'D' } };

static bool lower_or_digit(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* Appends s[0..n) written as an identifier. */
static void encode(const char *s, size_t n, char *buf, size_t len, size_t *at)
{
	for (size_t i = 0; i < n && *at + 5 < len; i++) {
		char ch = s[i], code = 0;
		if (ch == '-' && i > 0 && lower_or_digit(s[i - 1]) && i + 1 < n && s[i + 1] >= 'a' &&
		    s[i + 1] <= 'z') {
			buf[(*at)++] = (char)(s[++i] - 'a' + 'A');   /* camel case */
			continue;
		}
		for (size_t e = 0; e < sizeof(escapes) / sizeof(escapes[0]); e++)
			if (escapes[e].c == ch)
				code = escapes[e].code;
		if (lower_or_digit(ch))
			buf[(*at)++] = ch;
		else if (ch == '/')
			buf[(*at)++] = '_';
		else if (code)
			*at += (size_t)snprintf(buf + *at, len - *at, "_%c", code);
		else
			*at += (size_t)snprintf(buf + *at, len - *at, "_X%02X", (unsigned char)ch);
	}
	buf[*at] = '\0';
}

void val_gtest_name(const char *id, char *buf, size_t len)
{
	const char *slash = strchr(id, '/');
	size_t at = 0;

	if (!slash)   /* an id of one part: the suite is the id, the test "check" */
		slash = id + strlen(id);
	encode(id, (size_t)(slash - id), buf, len, &at);
	if (at + 1 < len)
		buf[at++] = '.';
	if (*slash)
		encode(slash + 1, strlen(slash + 1), buf, len, &at);
	else
		at += (size_t)snprintf(buf + at, len - at, "check");
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The character of the escape at s[i] ('_' then a code), its length in *n; 0 where none. */
static char unescape(const char *s, size_t i, size_t end, size_t *n)
{
	*n = 2;
	for (size_t e = 0; i + 1 < end && e < sizeof(escapes) / sizeof(escapes[0]); e++)
		if (escapes[e].code == s[i + 1])
			return escapes[e].c;
	if (i + 3 < end && s[i + 1] == 'X' && hexval(s[i + 2]) >= 0 && hexval(s[i + 3]) >= 0) {
		*n = 4;
		return (char)(hexval(s[i + 2]) * 16 + hexval(s[i + 3]));
	}
	*n = 1;   /* a '_' before anything else is a '/' */
	return i + 1 < end && s[i + 1] >= 'A' && s[i + 1] <= 'Z' ? 0 : '/';
}

/* Decodes one identifier into buf at *at; false where it is not one we write. */
static bool decode(const char *s, size_t n, char *buf, size_t len, size_t *at)
{
	for (size_t i = 0; i < n; i++) {
		size_t used = 1;
		if (*at + 3 >= len)
			return false;
		if (lower_or_digit(s[i])) {
			buf[(*at)++] = s[i];
		} else if (s[i] >= 'A' && s[i] <= 'Z' && i > 0 && lower_or_digit(s[i - 1])) {
			buf[(*at)++] = '-';
			buf[(*at)++] = (char)(s[i] - 'A' + 'a');
		} else if (s[i] == '_' && (buf[*at] = unescape(s, i, n, &used))) {
			(*at)++;
			i += used - 1;
		} else {
			return false;
		}
	}
	buf[*at] = '\0';
	return true;
}

bool val_gtest_id(const char *name, char *buf, size_t len)
{
	const char *dot = strchr(name, '.');
	size_t at = 0;

	if (!dot || !decode(name, (size_t)(dot - name), buf, len, &at) || at + 1 >= len)
		return false;
	if (strcmp(dot + 1, "check") == 0)
		return true;
	buf[at++] = '/';
	return decode(dot + 1, strlen(dot + 1), buf, len, &at);
}

/* ---- the filter ---- */

/* GoogleTest's glob: '*' any text, '?' one character, nothing else special. */
static bool glob(const char *p, const char *pe, const char *s)
{
	if (p == pe)
		return !*s;
	if (*p == '*')
		return glob(p + 1, pe, s) || (*s && glob(p, pe, s + 1));
	return *s && (*p == '?' || *p == *s) && glob(p + 1, pe, s + 1);
}

/* Whether one of the ':'-separated patterns of [p, pe) matches name. */
static bool any_pattern(const char *p, const char *pe, const char *name)
{
	while (p <= pe) {
		const char *colon = memchr(p, ':', (size_t)(pe - p));
		const char *end = colon ? colon : pe;
		if (glob(p, end, name))
			return true;
		p = end + 1;
	}
	return false;
}

bool val_gtest_filter(const char *filter, const char *name)
{
	const char *dash = strchr(filter, '-');
	const char *pos_end = dash ? dash : filter + strlen(filter);

	if (pos_end == filter ? false : !any_pattern(filter, pos_end, name))
		return false;
	return !dash || !any_pattern(dash + 1, dash + 1 + strlen(dash + 1), name);
}

const char *val_gtest_xml_path(const char *spec, char *buf, size_t len)
{
	if (strcmp(spec, "xml") == 0)
		snprintf(buf, len, "test_detail.xml");   /* GoogleTest's own default */
	else if (strncmp(spec, "xml:", 4) == 0 && spec[4])
		snprintf(buf, len, "%s%s", spec + 4, spec[strlen(spec) - 1] == '/' ? "validate.xml" : "");
	else
		return NULL;
	return buf;
}

/* ---- the listing ---- */

static void split(const char *id, char *suite, char *test)
{
	char full[GT_LEN];

	val_gtest_name(id, full, sizeof(full));
	char *dot = strchr(full, '.');
	*dot = '\0';
	snprintf(suite, GT_LEN, "%s", full);
	snprintf(test, GT_LEN, "%s", dot + 1);
}

void val_gtest_list(const struct val_ctx *v, FILE *f)
{
	char suite[GT_LEN], test[GT_LEN], other[GT_LEN];

	for (size_t i = 0; i < v->n; i++) {
		bool first = true;
		split(v->c[i].id, suite, test);
		for (size_t j = 0; j < i && first; j++) {
			split(v->c[j].id, other, test);
			first = strcmp(other, suite) != 0;
		}
		if (!first)
			continue;
		fprintf(f, "%s.\n", suite);
		for (size_t j = i; j < v->n; j++) {
			split(v->c[j].id, other, test);
			if (strcmp(other, suite) == 0)
				fprintf(f, "  %s\n", test);
		}
	}
	fflush(f);
}

/* ---- the lines of a run ---- */

static const char *plural(size_t n, const char *one, const char *more)
{
	return n == 1 ? one : more;
}

/* Whether two check ids have one suite (their first parts). */
static bool same_suite(const char *a, const char *b)
{
	size_t n = strcspn(a, "/");

	return n == strcspn(b, "/") && strncmp(a, b, n) == 0;
}

/* The checks of the suite block around i (consecutive checks of one suite): its first and count. */
static size_t block(const struct val_ctx *v, size_t i, size_t *first, double *secs)
{
	size_t a = i, b = i;

	while (a > 0 && same_suite(v->c[a - 1].id, v->c[i].id))
		a--;
	while (b + 1 < v->n && same_suite(v->c[b + 1].id, v->c[i].id))
		b++;
	*first = a;
	*secs = 0;
	for (size_t k = a; k <= b; k++)
		*secs += v->c[k].secs;
	return b - a + 1;
}

static size_t suites(const struct val_ctx *v)
{
	size_t n = 0;

	for (size_t i = 0; i < v->n; i++) {
		bool first = true;
		for (size_t j = 0; j < i && first; j++)
			first = !same_suite(v->c[j].id, v->c[i].id);
		n += first;
	}
	return n;
}

void val_gtest_begin(const struct val_ctx *v, FILE *f)
{
	size_t m = suites(v);

	if (v->o->gtest_filter)
		fprintf(f, "Note: Google Test filter = %s\n", v->o->gtest_filter);
	fprintf(f, "Note: bench validate on %s\n", v->identity);
	fprintf(f, "[==========] Running %zu %s from %zu test %s.\n", v->n, plural(v->n, "test", "tests"), m,
		plural(m, "suite", "suites"));
	fprintf(f, "[----------] Global test environment set-up.\n");
	fflush(f);
}

void val_gtest_run(const struct val_ctx *v, size_t i, FILE *f)
{
	char name[GT_LEN], suite[GT_LEN], test[GT_LEN];
	size_t first;
	double secs;
	size_t k = block(v, i, &first, &secs);

	split(v->c[i].id, suite, test);
	if (first == i)
		fprintf(f, "[----------] %zu %s from %s\n", k, plural(k, "test", "tests"), suite);
	val_gtest_name(v->c[i].id, name, sizeof(name));
	fprintf(f, "[ RUN      ] %s\n", name);
	fflush(f);
}

/* How GoogleTest would print a verdict: 0 ok, 1 skipped, 2 failed. */
static int kind(enum val_verdict verdict)
{
	if (val_unexpected(verdict))
		return 2;
	return verdict == VAL_V_SKIP || verdict == VAL_V_KNOWN || verdict == VAL_V_BEYOND_FAIL ||
	       verdict == VAL_V_KNOWN_FLAKE;
}

void val_gtest_end(const struct val_ctx *v, size_t i, FILE *f)
{
	static const char *const tags[] = { "[       OK ]", "[  SKIPPED ]", "[  FAILED  ]" };
	const struct val_check *c = &v->c[i];
	char name[GT_LEN], note[2400], suite[GT_LEN], test[GT_LEN];
	int how = kind(c->verdict);
	size_t first;
	double secs;
	size_t k = block(v, i, &first, &secs);

	val_note(c, note, sizeof(note));
	if (how == 2)
		fprintf(f, "bench validate: Failure\n%s (%s): %s\n", val_mesa_status(c),
			val_verdict_word(c->verdict), note);
	else if (how == 1)
		fprintf(f, "bench validate: Skipped\n%s: %s\n\n", val_mesa_status(c), note);
	else if (note[0])
		fprintf(f, "%s\n", note);
	val_gtest_name(c->id, name, sizeof(name));
	fprintf(f, "%s %s (%.0f ms)\n", tags[how], name, c->secs * 1e3);
	if (first + k == i + 1) {
		split(c->id, suite, test);
		fprintf(f, "[----------] %zu %s from %s (%.0f ms total)\n\n", k, plural(k, "test", "tests"),
			suite, secs * 1e3);
	}
	fflush(f);
}

/* The checks that ended with one way of printing, listed under its tag. */
static void listed(const struct val_ctx *v, int how, const char *tag, FILE *f)
{
	char name[GT_LEN];
	size_t n = 0;

	for (size_t i = 0; i < v->n; i++)
		n += v->c[i].done && kind(v->c[i].verdict) == how;
	if (!n)
		return;
	fprintf(f, "%s %zu %s, listed below:\n", tag, n, plural(n, "test", "tests"));
	for (size_t i = 0; i < v->n; i++)
		if (v->c[i].done && kind(v->c[i].verdict) == how) {
			val_gtest_name(v->c[i].id, name, sizeof(name));
			fprintf(f, "%s %s\n", tag, name);
		}
}

void val_gtest_finish(const struct val_ctx *v, FILE *f)
{
	size_t ran = 0, ok = 0, failed = 0;
	double secs = 0;

	for (size_t i = 0; i < v->n; i++)
		if (v->c[i].done) {
			ran++;
			ok += kind(v->c[i].verdict) == 0;
			failed += kind(v->c[i].verdict) == 2;
			secs += v->c[i].secs;
		}
	fprintf(f, "[----------] Global test environment tear-down\n");
	fprintf(f, "[==========] %zu %s from %zu test %s ran. (%.0f ms total)\n", ran,
		plural(ran, "test", "tests"), suites(v), plural(suites(v), "suite", "suites"), secs * 1e3);
	fprintf(f, "[  PASSED  ] %zu %s.\n", ok, plural(ok, "test", "tests"));
	listed(v, 1, "[  SKIPPED ]", f);
	listed(v, 2, "[  FAILED  ]", f);
	if (failed)
		fprintf(f, "\n%2zu FAILED %s\n", failed, plural(failed, "TEST", "TESTS"));
	if (v->interrupted)
		fprintf(f, "bench validate: interrupted: %zu of %zu tests ran\n", ran, v->n);
	fflush(f);
}
