/*
 * bench validate's selection of checks, in the order of the plan (or of a caselist): a
 * caselist of names, globs (--filter, --exclude), POSIX extended regular expressions
 * (--include-regex, --exclude-regex), GoogleTest's filter, then one shard of the result
 * (--fraction, --fraction-start).
 */
#include "validate.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* Whether id matches one of the comma-separated globs of list (NULL: none). */
static bool excluded(const char *list, const char *id)
{
	char buf[512];

	if (!list)
		return false;
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *save = NULL, *g = strtok_r(buf, ",", &save); g; g = strtok_r(NULL, ",", &save))
		if (fnmatch(g, id, 0) == 0)
			return true;
	return false;
}

/* The regular expressions of an option, compiled (exit 2 naming one that is not). */
static regex_t *compile_all(const char *opt, const char *const *src, size_t n)
{
	regex_t *re = bench_alloc((n ? n : 1) * sizeof(*re));
	char msg[256];

	for (size_t i = 0; i < n; i++) {
		if (!*src[i])
			cli_usage_error("--%s '': an empty expression matches every name; give a POSIX "
					"extended regular expression", opt);
		int err = regcomp(&re[i], src[i], REG_EXTENDED | REG_NOSUB);
		if (err) {
			regerror(err, &re[i], msg, sizeof(msg));
			cli_usage_error("--%s '%s' is not a POSIX extended regular expression: %s", opt,
					src[i], msg);
		}
	}
	return re;
}

static bool any_match(const regex_t *re, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (regexec(&re[i], id, 0, NULL, 0) == 0)
			return true;
	return false;
}

static void free_all(regex_t *re, size_t n)
{
	for (size_t i = 0; i < n; i++)
		regfree(&re[i]);
	free(re);
}

/* Whether a check passes the globs, the expressions and GoogleTest's filter. */
static bool chosen(const struct val_opts *o, const regex_t *inc, const regex_t *exc, const char *id)
{
	char gt[256];

	if (o->filter && fnmatch(o->filter, id, 0) != 0)
		return false;
	if (excluded(o->exclude, id))
		return false;
	if (o->n_include_re && !any_match(inc, o->n_include_re, id))
		return false;
	if (any_match(exc, o->n_exclude_re, id))
		return false;
	if (o->gtest_filter) {
		val_gtest_name(id, gt, sizeof(gt));
		return val_gtest_filter(o->gtest_filter, gt);
	}
	return true;
}

/* ---- caselists ---- */

static const struct val_check *find(const struct val_check *c, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(c[i].id, id) == 0)
			return &c[i];
	return NULL;
}

/* Appends one unknown name to the message (the first few, then a count). */
static void note_unknown(char *msg, size_t len, size_t *n, const char *name)
{
	size_t used = strlen(msg);

	if ((*n)++ < 8)
		snprintf(msg + used, len - used, "%s'%s'", used ? ", " : "", name);
}

/*
 * The checks a caselist names, one a line ('#' comments and blank lines aside), in its order:
 * a name the plan does not have, or a name twice, exits 2 naming them.
 */
static void caselist(struct val_ctx *v, const char *path)
{
	FILE *f = val_lines_open("caselist", path);
	struct val_check *out = bench_alloc((v->n ? v->n : 1) * sizeof(*out));
	char *buf = NULL, *s, msg[1024] = "";
	size_t cap = 0, k = 0, unknown = 0;
	unsigned line = 0;

	while ((s = val_line_next(f, "caselist", path, &buf, &cap, &line))) {
		if (!*s || *s == '#')
			continue;
		const struct val_check *c = find(v->c, v->n, s);
		if (!c)
			note_unknown(msg, sizeof(msg), &unknown, s);
		else if (find(out, k, s))
			cli_usage_error("--caselist %s: line %u: '%s' is listed twice", path, line, s);
		else
			out[k++] = *c;
	}
	free(buf);
	fclose(f);
	if (unknown)
		cli_usage_error("--caselist %s: %zu name%s no check planned for '%s' has: %s%s (see "
				"--list)", path, unknown, unknown == 1 ? " that" : "s that", v->dev->name,
				msg, unknown > 8 ? ", ..." : "");
	if (!k)
		cli_usage_error("--caselist %s names no check: it holds only blank lines and '#' comments",
				path);
	free(v->c);
	v->c = out;
	v->n = v->cap = k;
}

static void word(char *buf, size_t len, size_t *at, const char *opt, const char *val)
{
	if (*at < len)
		*at += (size_t)snprintf(buf + *at, len - *at, "%s%s '%s'", *at ? " " : "", opt, val);
}

/* The selection options given, as typed: "--filter 'x*' --include-regex 'nosuch'". */
static void selection_words(const struct val_opts *o, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	if (o->caselist)
		word(buf, len, &at, "--caselist", o->caselist);
	if (o->filter)
		word(buf, len, &at, "--filter", o->filter);
	if (o->exclude)
		word(buf, len, &at, "--exclude", o->exclude);
	for (size_t i = 0; i < o->n_include_re; i++)
		word(buf, len, &at, "--include-regex", o->include_re[i]);
	for (size_t i = 0; i < o->n_exclude_re; i++)
		word(buf, len, &at, "--exclude-regex", o->exclude_re[i]);
	if (o->gtest_filter)
		word(buf, len, &at, "--gtest_filter", o->gtest_filter);
}

void val_select(struct val_ctx *v, const struct val_opts *o)
{
	regex_t *inc = compile_all("include-regex", o->include_re, o->n_include_re);
	regex_t *exc = compile_all("exclude-regex", o->exclude_re, o->n_exclude_re);
	size_t k = 0, listed;

	if (o->caselist)
		caselist(v, o->caselist);
	listed = v->n;
	for (size_t i = 0; i < v->n; i++)
		if (chosen(o, inc, exc, v->c[i].id))
			v->c[k++] = v->c[i];
		else
			json_decref(v->c[i].params);
	free_all(inc, o->n_include_re);
	free_all(exc, o->n_exclude_re);
	if (!k) {
		char given[1024];
		selection_words(o, given, sizeof(given));
		cli_usage_error("%s leave none of the %zu checks %s for '%s' (see --list)", given, listed,
				o->caselist ? "the caselist names" : "planned", v->dev->name);
	}
	v->n = k;
}

/*
 * deqp-runner's sharding, which Mesa's CI drives with --fraction-start $CI_NODE_INDEX
 * --fraction $CI_NODE_TOTAL: of the tests in list order, counting from 1, the run keeps test i
 * where i >= K and (i - K) % N == 0, i.e. the list's .skip(fraction_start - 1).step_by(fraction)
 * in deqp-runner's source (the same lines as `sed -n K~Np`, the form Linux's drm CI scripts use
 * in its place: drivers/gpu/drm/ci/igt_runner.sh). Shards 1..N of N cover the list once.
 */
void val_fraction(struct val_ctx *v, unsigned n, unsigned k)
{
	size_t kept = 0;

	for (size_t i = 1; i <= v->n; i++)
		if (i >= k && (i - k) % n == 0)
			v->c[kept++] = v->c[i - 1];
		else
			json_decref(v->c[i - 1].params);
	v->n = kept;
}
