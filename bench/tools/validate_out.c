/*
 * bench validate's known issues (a JSON file of entries, results/known-issues/README.md)
 * and its views: the summary table, TAP version 13 with YAML diagnostics, JUnit XML.
 */
#include "validate_out.h"
#include "jsonfile.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- known issues ---- */

/* The members of a known-issues file (results/schema/known-issues.schema.json). */
static const char *const known_top[] = { "kind", "schema_version", "issues", NULL };
static const char *const known_entry[] = { "check", "reason", "driver", "device", "platform", "link",
					   "expect", NULL };

noreturn static void known_bad(const char *path, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void known_bad(const char *path, const char *at, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cli_usage_error("--known-issues %s: %s%s%s", path, at ? at : "", at ? ": " : "", msg);
}

/* A string member of entry i: a non-empty one where present (required: it must be). */
static const char *member(json_t *e, const char *path, size_t i, const char *key, bool required)
{
	json_t *m = json_object_get(e, key);
	char at[64];

	snprintf(at, sizeof(at), "issues[%zu].%s", i, key);
	if (!m && !required)
		return NULL;
	if (!m)
		known_bad(path, at, "missing");
	if (!json_is_string(m) || !json_string_length(m))
		known_bad(path, at, "%s", json_is_string(m) ? "empty: say what it is" : "is not a string");
	return json_string_value(m);
}

/* kind, schema_version and issues: the file's head, strictly. */
static json_t *known_head(const char *path, json_t *doc)
{
	char err[1024];
	json_t *kind = json_object_get(doc, "kind"), *ver = json_object_get(doc, "schema_version");
	json_t *issues = json_object_get(doc, "issues");

	if (!json_is_object(doc))
		known_bad(path, NULL, "not an object with an \"issues\" array");
	if (!jf_members(doc, known_top, err, sizeof(err)))
		known_bad(path, "(top level)", "%s", err);
	if (!json_is_string(kind) || strcmp(json_string_value(kind), "known-issues") != 0)
		known_bad(path, "kind", "%s: a known-issues file says \"kind\": \"known-issues\"",
			  kind ? "not \"known-issues\"" : "missing");
	if (!json_is_integer(ver) || json_integer_value(ver) != 1)
		known_bad(path, "schema_version", "%s: this bench reads known-issues files of version 1",
			  ver ? "not 1" : "missing");
	if (!json_is_array(issues))
		known_bad(path, "issues", "%s", issues ? "is not an array" : "missing");
	return issues;
}

void val_known_load(struct val_ctx *v, const char *path)
{
	char err[1024], at[64];
	json_t *doc, *issues;

	bench_input("--known-issues", path);
	if (!(doc = jf_load(path, err, sizeof(err))))
		known_bad(path, NULL, "%s", err);
	issues = known_head(path, doc);
	v->known_doc = doc;
	v->n_known = json_array_size(issues);
	v->known = bench_alloc((v->n_known ? v->n_known : 1) * sizeof(*v->known));
	for (size_t i = 0; i < v->n_known; i++) {
		json_t *e = json_array_get(issues, i);
		struct val_known *k = &v->known[i];
		snprintf(at, sizeof(at), "issues[%zu]", i);
		if (!json_is_object(e))
			known_bad(path, at, "not an object");
		if (!jf_members(e, known_entry, err, sizeof(err)))
			known_bad(path, at, "%s", err);
		memset(k, 0, sizeof(*k));
		k->check = member(e, path, i, "check", true);
		k->reason = member(e, path, i, "reason", true);
		k->driver = member(e, path, i, "driver", false);
		k->device = member(e, path, i, "device", false);
		k->platform = member(e, path, i, "platform", false);
		k->link = member(e, path, i, "link", false);
		const char *expect = member(e, path, i, "expect", false);
		if (expect && strcmp(expect, "fail") != 0 && strcmp(expect, "beyond-works") != 0)
			known_bad(path, at, "expect: '%s' is not fail or beyond-works", expect);
		k->beyond_works = expect && strcmp(expect, "beyond-works") == 0;
	}
}

static bool matches(const char *pattern, const char *s, int flags)
{
	return !pattern || fnmatch(pattern, s, flags) == 0;
}

static bool for_device(const struct val_known *k, const struct dev_info *d)
{
	return matches(k->driver, d->driver, 0) && matches(k->device, d->name, FNM_CASEFOLD) &&
	       matches(k->platform, d->platform_name, FNM_CASEFOLD);
}

static const struct val_known *find_known(const struct val_ctx *v, const struct val_check *c)
{
	for (size_t i = 0; i < v->n_known; i++)
		if (for_device(&v->known[i], v->dev) && matches(v->known[i].check, c->id, 0))
			return &v->known[i];
	return NULL;
}

void val_known_apply(struct val_ctx *v)
{
	for (size_t i = 0; i < v->n; i++) {
		struct val_check *c = &v->c[i];
		if (c->beyond && c->res == VAL_FAIL)
			c->res = VAL_BEYOND_FAIL;   /* not declared: never a failure of the spec */
		const struct val_known *k = find_known(v, c);
		if (!k || c->res == VAL_SKIP)
			continue;
		c->known = k;
		((struct val_known *)k)->matched++;
		if (k->beyond_works)   /* the driver declares less than works */
			c->res = c->beyond && c->res == VAL_PASS ? VAL_KNOWN
				 : !c->beyond && c->res == VAL_PASS ? VAL_FIXED : c->res;
		else if (c->res == VAL_FAIL || c->res == VAL_BEYOND_FAIL)
			c->res = VAL_KNOWN;
		else if (c->res == VAL_PASS)
			c->res = VAL_FIXED;
	}
}

const char *val_res_name(enum val_res r)
{
	static const char *const names[] = { "pass", "FAIL", "skip", "known", "fixed", "beyond: fails" };

	return names[r];
}

/* ---- the summary table ---- */

static const char *result_cell(const struct val_check *c)
{
	if (c->beyond && c->res == VAL_PASS)
		return "beyond: works";
	return val_res_name(c->res);
}

static void note_cell(const struct val_check *c, char *buf, size_t len)
{
	if (c->known && c->res == VAL_FIXED)
		snprintf(buf, len, "known issue no longer seen: %s", c->known->reason);
	else if (c->known && c->res == VAL_KNOWN)
		snprintf(buf, len, "known issue: %s%s%s; %s", c->known->reason, c->known->link ? " " : "",
			 c->known->link ? c->known->link : "", c->reason);
	else
		snprintf(buf, len, "%s", c->reason);
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = ' ';
	if (strlen(buf) > 160)
		strcpy(buf + 157, "...");
}

void val_print_table(const struct val_ctx *v, FILE *f)
{
	unsigned count[6] = { 0 }, beyond_ok = 0;
	int w = 5;
	char note[2400];

	for (size_t i = 0; i < v->n; i++)
		w = (int)strlen(v->c[i].id) > w ? (int)strlen(v->c[i].id) : w;
	fprintf(f, "bench validate on %s (%s, driver %s)\n", v->dev->name, v->dev->platform_name,
		v->dev->driver);
	fprintf(f, "%-*s  %-13s  %6s  %s\n", w, "check", "result", "s", "note");
	for (size_t i = 0; i < v->n; i++) {
		const struct val_check *c = &v->c[i];
		note_cell(c, note, sizeof(note));
		fprintf(f, "%-*s  %-13s  %6.2f  %s\n", w, c->id, result_cell(c), c->secs, note);
		count[c->res]++;
		beyond_ok += c->beyond && c->res == VAL_PASS;
	}
	fprintf(f, "%zu checks: %u passed, %u failed, %u known issues, %u fixed, %u skipped; beyond the "
		"declared capabilities: %u work, %u fail\n", v->n, count[VAL_PASS] - beyond_ok,
		count[VAL_FAIL], count[VAL_KNOWN], count[VAL_FIXED], count[VAL_SKIP], beyond_ok,
		count[VAL_BEYOND_FAIL]);
	for (size_t i = 0; i < v->n_known; i++)
		if (!v->known[i].matched && for_device(&v->known[i], v->dev))
			fprintf(f, "known issue for '%s' matches this device but no check run here\n",
				v->known[i].check);
}

/* ---- TAP version 13 ---- */

/* A string as a YAML double-quoted scalar (a JSON string is one). */
static void yaml_str(FILE *f, const char *key, const char *s)
{
	json_t *j = json_string(s);
	char *d = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;

	fprintf(f, "  %s: %s\n", key, d ? d : "\"\"");
	free(d);
	json_decref(j);
}

/* The first differing word of a validation message ("first at N: expected X, got Y"). */
static void first_difference(FILE *f, const char *reason)
{
	const char *p = strstr(reason, "first at ");
	char buf[160];

	if (!p)
		p = strstr(reason, "word ");
	if (!p)
		return;
	snprintf(buf, sizeof(buf), "%s", p);
	buf[strcspn(buf, ";)")] = '\0';
	yaml_str(f, "first_difference", buf);
}

/* Directive text: one line, no '#'. */
static void directive_text(const char *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s", s);
	for (char *p = buf; *p; p++)
		if (*p == '\n' || *p == '#')
			*p = ' ';
}

static void tap_yaml(FILE *f, const struct val_ctx *v, const struct val_check *c)
{
	fprintf(f, "  ---\n");
	yaml_str(f, "message", c->reason);
	yaml_str(f, "severity", c->res == VAL_FAIL ? "fail" : val_res_name(c->res));
	yaml_str(f, "suite", c->suite);
	yaml_str(f, "description", c->desc);
	yaml_str(f, "device", v->dev->name);
	yaml_str(f, "driver", v->dev->driver);
	first_difference(f, c->reason);
	if (c->params) {
		char *p = json_dumps(c->params, JSON_COMPACT | JSON_SORT_KEYS);
		fprintf(f, "  params: %s\n", p ? p : "{}");   /* JSON flow: YAML reads it as is */
		free(p);
	}
	if (c->known) {
		yaml_str(f, "known_issue", c->known->reason);
		if (c->known->link)
			yaml_str(f, "link", c->known->link);
	}
	fprintf(f, "  ...\n");
}

void val_print_tap(const struct val_ctx *v, FILE *f)
{
	char d[2400];

	fprintf(f, "TAP version 13\n1..%zu\n", v->n);
	for (size_t i = 0; i < v->n; i++) {
		const struct val_check *c = &v->c[i];
		bool ok = c->res == VAL_PASS || c->res == VAL_FIXED || c->res == VAL_SKIP;
		fprintf(f, "%s %zu - %s", ok ? "ok" : "not ok", i + 1, c->id);
		if (c->res == VAL_SKIP) {
			directive_text(c->reason, d, sizeof(d));
			fprintf(f, " # SKIP %s", d);
		} else if (c->res == VAL_KNOWN) {
			directive_text(c->known->reason, d, sizeof(d));
			fprintf(f, " # TODO known issue: %s", d);
		} else if (c->res == VAL_BEYOND_FAIL) {
			fprintf(f, " # TODO beyond the declared capabilities");
		}
		fprintf(f, "\n");
		if (!ok || c->res == VAL_FIXED)
			tap_yaml(f, v, c);
	}
	fflush(f);
}

/* ---- JUnit XML ---- */

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, f);
		}
}

static void junit_case(FILE *f, const struct val_ctx *v, const struct val_check *c)
{
	char note[2400];

	(void)v;
	note_cell(c, note, sizeof(note));
	fprintf(f, "    <testcase classname=\"%s\" name=\"", c->suite);
	xml_text(f, c->id);
	fprintf(f, "\" time=\"%.3f\">\n", c->secs);
	if (c->res == VAL_FAIL) {
		fprintf(f, "      <failure type=\"fail\" message=\"");
		xml_text(f, c->reason);
		fprintf(f, "\">");
		xml_text(f, c->desc);
		fprintf(f, "</failure>\n");
	} else if (c->res != VAL_PASS && c->res != VAL_FIXED) {
		fprintf(f, "      <skipped message=\"");
		xml_text(f, c->res == VAL_SKIP ? c->reason
			    : c->res == VAL_BEYOND_FAIL ? "beyond the declared capabilities: fails" : note);
		fprintf(f, "\"/>\n");
	}
	fprintf(f, "      <system-out>");
	xml_text(f, c->desc);
	if (c->reason[0] || c->known) {
		fputc('\n', f);
		xml_text(f, note);
	}
	if (c->params) {
		char *p = json_dumps(c->params, JSON_COMPACT | JSON_SORT_KEYS);
		fputc('\n', f);
		xml_text(f, p ? p : "");
		free(p);
	}
	fprintf(f, "</system-out>\n    </testcase>\n");
}

/* The counts of one suite (or of all, suite NULL): tests, failures, skipped, seconds. */
static void junit_counts(const struct val_ctx *v, const char *suite, unsigned *n, unsigned *fail,
			 unsigned *skip, double *secs)
{
	*n = *fail = *skip = 0;
	*secs = 0;
	for (size_t i = 0; i < v->n; i++) {
		const struct val_check *c = &v->c[i];
		if (suite && strcmp(c->suite, suite) != 0)
			continue;
		(*n)++;
		*fail += c->res == VAL_FAIL;
		*skip += c->res == VAL_SKIP || c->res == VAL_KNOWN || c->res == VAL_BEYOND_FAIL;
		*secs += c->secs;
	}
}

bool val_write_junit(const struct val_ctx *v, struct outf *o, char *err, size_t len)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	unsigned n, fail, skip;
	double secs;
	bool ok;

	if (!f) {
		snprintf(err, len, "--junit: %s", strerror(errno));
		outf_abort(o);
		return false;
	}
	junit_counts(v, NULL, &n, &fail, &skip, &secs);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"bench validate\" "
		"tests=\"%u\" failures=\"%u\" errors=\"0\" skipped=\"%u\" time=\"%.3f\">\n", n, fail, skip, secs);
	for (size_t i = 0; i < v->n; i++) {
		bool first = true;
		for (size_t j = 0; j < i && first; j++)
			first = strcmp(v->c[j].suite, v->c[i].suite) != 0;
		if (!first)
			continue;
		junit_counts(v, v->c[i].suite, &n, &fail, &skip, &secs);
		fprintf(f, "  <testsuite name=\"%s\" tests=\"%u\" failures=\"%u\" errors=\"0\" skipped=\"%u\" "
			"time=\"%.3f\">\n    <properties>\n      <property name=\"device\" value=\"",
			v->c[i].suite, n, fail, skip, secs);
		xml_text(f, v->dev->name);
		fprintf(f, "\"/>\n      <property name=\"driver\" value=\"");
		xml_text(f, v->dev->driver);
		fprintf(f, "\"/>\n    </properties>\n");
		for (size_t j = i; j < v->n; j++)
			if (strcmp(v->c[j].suite, v->c[i].suite) == 0)
				junit_case(f, v, &v->c[j]);
		fprintf(f, "  </testsuite>\n");
	}
	fprintf(f, "</testsuites>\n");
	if (fclose(f) != 0) {
		snprintf(err, len, "--junit: %s", strerror(errno));
		outf_abort(o);
		free(text);
		return false;
	}
	ok = outf_commit(o, text, size, err, len);
	free(text);
	return ok;
}
