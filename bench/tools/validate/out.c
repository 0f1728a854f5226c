/*
 * bench validate's views: the summary table and the lines after it, TAP version 13 with YAML
 * diagnostics (a line per check as it ends), JUnit XML (written whole, atomically).
 */
#include "validate.h"
#include "table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool val_commit(const char *opt, struct outf *o, const char *text, size_t len, char *err,
		size_t errlen)
{
	char why[1024];

	if (!outf_commit(o, text, len, why, sizeof(why))) {
		snprintf(err, errlen, "--%s %s", opt, why);
		return false;
	}
	return true;
}

/* ---- notes ---- */

void val_note(const struct val_check *c, char *buf, size_t len)
{
	size_t n;

	if (c->known && c->verdict == VAL_V_FIXED)
		snprintf(buf, len, "known issue no longer seen: %s", c->known->reason);
	else if (c->known && c->verdict == VAL_V_KNOWN)
		snprintf(buf, len, "known issue: %s%s%s; %s", c->known->reason, c->known->link ? " " : "",
			 c->known->link ? c->known->link : "", c->reason);
	else
		snprintf(buf, len, "%s", c->reason);
	n = strlen(buf);
	if (c->base && (c->verdict == VAL_V_KNOWN || c->verdict == VAL_V_UNEXPECTED_PASS ||
			c->verdict == VAL_V_IMPROVED_FAIL || c->verdict == VAL_V_IMPROVED_SKIP ||
			c->verdict == VAL_V_FAIL || c->verdict == VAL_V_CRASH || c->verdict == VAL_V_TIMEOUT))
		snprintf(buf + n, len - n, "%sthe baseline expects %s (line %u)", n ? "; " : "",
			 c->base->status, c->base->line);
	n = strlen(buf);
	if (c->verdict == VAL_V_KNOWN_FLAKE)
		snprintf(buf + n, len - n, "%s--flakes names it (%s)", n ? "; " : "", c->flake_re);
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = ' ';
}

/* ---- the summary table ---- */

void val_print_table(const struct val_ctx *v, FILE *f)
{
	unsigned count[VAL_V_COUNT] = { 0 };
	int w = 5;
	char note[2400];
	size_t ran = 0;

	for (size_t i = 0; i < v->n; i++)
		w = (int)strlen(v->c[i].id) > w ? (int)strlen(v->c[i].id) : w;
	fprintf(f, "bench validate on %s (%s, driver %s)\n", v->dev->name, v->dev->platform_name,
		v->dev->driver);
	fprintf(f, "%-*s  %-15s  %6s  %s\n", w, "check", "result", "s", "note");
	for (size_t i = 0; i < v->n; i++) {
		const struct val_check *c = &v->c[i];
		if (!c->done)
			continue;
		val_note(c, note, sizeof(note));
		if (strlen(note) > 160)
			strcpy(note + 157, "...");
		fprintf(f, "%-*s  %-15s  %6.2f  %s\n", w, c->id, val_verdict_word(c->verdict), c->secs, note);
		count[c->verdict]++;
		ran++;
	}
	fprintf(f, "%zu checks: %u passed, %u failed, %u known issues, %u fixed, %u skipped; beyond the "
		"declared capabilities: %u work, %u fail", ran, count[VAL_V_PASS], count[VAL_V_FAIL],
		count[VAL_V_KNOWN], count[VAL_V_FIXED], count[VAL_V_SKIP], count[VAL_V_BEYOND_WORKS],
		count[VAL_V_BEYOND_FAIL]);
	if (count[VAL_V_CRASH] || count[VAL_V_TIMEOUT] || count[VAL_V_UNEXPECTED_PASS] ||
	    count[VAL_V_IMPROVED_FAIL] || count[VAL_V_IMPROVED_SKIP])
		fprintf(f, "; %u crashed, %u timed out, %u passed unexpectedly, %u improved to a "
			"failure or skip", count[VAL_V_CRASH], count[VAL_V_TIMEOUT],
			count[VAL_V_UNEXPECTED_PASS], count[VAL_V_IMPROVED_FAIL] + count[VAL_V_IMPROVED_SKIP]);
	if (count[VAL_V_MISSING])
		fprintf(f, "; %u missing (no result)", count[VAL_V_MISSING]);
	if (count[VAL_V_FLAKE] || count[VAL_V_KNOWN_FLAKE])
		fprintf(f, "; flaky: %u, %u known", count[VAL_V_FLAKE], count[VAL_V_KNOWN_FLAKE]);
	fprintf(f, "\n");
	for (size_t i = 0; i < v->n_known; i++)
		if (!v->known[i].matched && val_known_for_device(&v->known[i], v->dev))
			fprintf(f, "known issue for '%s' matches this device but no check run here\n",
				v->known[i].check);
}

/* The n slowest checks that ended, slowest first (indices into v->c). */
static size_t slowest(const struct val_ctx *v, size_t *idx, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < v->n; i++) {
		if (!v->c[i].done)
			continue;
		size_t at = k < n ? k++ : n;
		while (at > 0 && v->c[idx[at - 1]].secs < v->c[i].secs) {
			if (at < n)
				idx[at] = idx[at - 1];
			at--;
		}
		if (at < n)
			idx[at] = i;
	}
	return k;
}

void val_status_counts(const struct val_ctx *v, unsigned n[VAL_N_STATUSES])
{
	memset(n, 0, VAL_N_STATUSES * sizeof(*n));
	for (size_t i = 0; i < v->n; i++)
		for (size_t m = 0; v->c[i].done && m < VAL_N_STATUSES; m++)
			n[m] += strcmp(val_mesa_status(&v->c[i]), val_statuses[m]) == 0;
}

void val_print_summary(const struct val_ctx *v, FILE *f)
{
	unsigned count[VAL_N_STATUSES], shown = 0, unexpected = 0;
	size_t idx[3], n;
	char note[2400];

	val_status_counts(v, count);
	fprintf(f, "on %s:", v->identity);
	for (size_t m = 0; m < VAL_N_STATUSES; m++)
		fprintf(f, "%s %s %u", m ? "," : "", val_statuses[m], count[m]);
	fprintf(f, "\n");
	for (size_t i = 0; i < v->n; i++) {
		const struct val_check *c = &v->c[i];
		if (!c->done || !val_unexpected(c->verdict) || unexpected++ >= 10)
			continue;
		val_note(c, note, sizeof(note));
		if (strlen(note) > 110)
			strcpy(note + 107, "...");
		fprintf(f, "  %s %s: %s\n", val_mesa_status(c), c->id, note);
		shown++;
	}
	if (unexpected > shown)
		fprintf(f, "  ... and %u more unexpected results\n", unexpected - shown);
	n = slowest(v, idx, 3);
	fprintf(f, "slowest:");
	for (size_t i = 0; i < n; i++)
		fprintf(f, " %s %.2f s%s", v->c[idx[i]].id, v->c[idx[i]].secs, i + 1 < n ? "," : "");
	fprintf(f, "\n");
	if (v->interrupted) {
		size_t ended = 0;
		for (size_t i = 0; i < v->n; i++)
			ended += v->c[i].done;
		fprintf(f, "interrupted by %s: %zu of the %zu checks ended (above); the others did not run\n",
			watch_sig_name(v->interrupted), ended, v->n);
	}
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
	yaml_str(f, "severity", val_unexpected(c->verdict) ? "fail" : val_verdict_word(c->verdict));
	yaml_str(f, "status", val_mesa_status(c));
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

void val_tap_begin(const struct val_ctx *v, size_t n, FILE *f)
{
	fprintf(f, "TAP version 13\n1..%zu\n# bench validate on %s\n", n, v->identity);
	fflush(f);
}

/* The TAP directive of a verdict that is not a plain pass or failure ("" when none). */
static void directive(const struct val_check *c, char *buf, size_t len)
{
	char d[2400];

	buf[0] = '\0';
	if (c->verdict == VAL_V_SKIP) {
		directive_text(c->reason, d, sizeof(d));
		snprintf(buf, len, " # SKIP %s", d);
	} else if (c->verdict == VAL_V_KNOWN && c->known) {
		directive_text(c->known->reason, d, sizeof(d));
		snprintf(buf, len, " # TODO known issue: %s", d);
	} else if (c->verdict == VAL_V_KNOWN) {
		snprintf(buf, len, " # TODO the baseline expects %s", c->base->status);
	} else if (c->verdict == VAL_V_BEYOND_FAIL) {
		snprintf(buf, len, " # TODO beyond the declared capabilities");
	} else if (c->verdict == VAL_V_KNOWN_FLAKE) {
		snprintf(buf, len, " # TODO known flake");
	}
}

void val_tap_check(const struct val_ctx *v, const struct val_check *c, size_t i, FILE *f)
{
	enum val_verdict r = c->verdict;
	bool ok = r == VAL_V_PASS || r == VAL_V_FIXED || r == VAL_V_SKIP || r == VAL_V_BEYOND_WORKS ||
		  r == VAL_V_FLAKE;
	char d[2500];

	directive(c, d, sizeof(d));
	fprintf(f, "%s %zu - %s%s\n", ok ? "ok" : "not ok", i + 1, c->id, d);
	if (!ok || r == VAL_V_FIXED || r == VAL_V_FLAKE)
		tap_yaml(f, v, c);
	fflush(f);
}

/* ---- JUnit XML ---- */

/* s escaped by the one rule of JUnit text (table.h, text_xml). */
static void xml_text(FILE *f, const char *s)
{
	char *x = text_xml(s);

	fputs(x, f);
	free(x);
}

/* What JUnit makes of a verdict: 0 passed, 1 skipped, 2 failed. */
static int junit_kind(enum val_verdict r)
{
	if (val_unexpected(r))
		return 2;
	return r == VAL_V_SKIP || r == VAL_V_KNOWN || r == VAL_V_BEYOND_FAIL || r == VAL_V_KNOWN_FLAKE;
}

/*
 * A check's suite and test as a JUnit file names them: the check's benchmark and id, or (gtest:
 * --gtest_output) GoogleTest's names, as its lines on stdout print them (suite.test).
 */
static void junit_names(const struct val_check *c, bool gtest, char suite[256], char test[256])
{
	char full[512], *dot;

	if (!gtest) {
		snprintf(suite, 256, "%s", c->suite);
		snprintf(test, 256, "%s", c->id);
		return;
	}
	val_gtest_name(c->id, full, sizeof(full));
	dot = strchr(full, '.');
	snprintf(suite, 256, "%.*s", dot ? (int)(dot - full) : (int)strlen(full), full);
	snprintf(test, 256, "%.255s", dot ? dot + 1 : full);   /* names stay far below 256 */
}

static void junit_case(FILE *f, const struct val_check *c, bool gtest)
{
	char note[2400], suite[256], test[256];
	int kind = junit_kind(c->verdict);

	val_note(c, note, sizeof(note));
	junit_names(c, gtest, suite, test);
	fprintf(f, "    <testcase classname=\"");
	xml_text(f, suite);
	fprintf(f, "\" name=\"");
	xml_text(f, test);
	fprintf(f, "\" time=\"%.3f\">\n", c->secs);
	if (kind == 2) {
		fprintf(f, "      <failure type=\"%s\" message=\"", val_mesa_status(c));
		xml_text(f, note);
		fprintf(f, "\">");
		xml_text(f, c->desc);
		fprintf(f, "</failure>\n");
	} else if (kind == 1) {
		fprintf(f, "      <skipped message=\"");
		xml_text(f, c->verdict == VAL_V_SKIP ? c->reason
			    : c->verdict == VAL_V_BEYOND_FAIL ? "beyond the declared capabilities: fails" : note);
		fprintf(f, "\"/>\n");
	}
	fprintf(f, "      <system-out>");
	xml_text(f, c->desc);
	fprintf(f, "\nstatus: %s (%u run%s)", val_mesa_status(c), c->runs, c->runs == 1 ? "" : "s");
	if (note[0]) {
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
		if (!c->done || (suite && strcmp(c->suite, suite) != 0))
			continue;
		(*n)++;
		*fail += junit_kind(c->verdict) == 2;
		*skip += junit_kind(c->verdict) == 1;
		*secs += c->secs;
	}
}

static void junit_property(FILE *f, const char *name, const char *value)
{
	fprintf(f, "      <property name=\"%s\" value=\"", name);
	xml_text(f, value);
	fprintf(f, "\"/>\n");
}

/* "interrupted by SIGINT: 2 of 9 checks ended; the others did not run", or "" for a whole run. */
static void junit_cut(const struct val_ctx *v, char *buf, size_t len)
{
	size_t ended = 0;

	buf[0] = '\0';
	if (!v->interrupted)
		return;
	for (size_t i = 0; i < v->n; i++)
		ended += v->c[i].done;
	snprintf(buf, len, "interrupted by %s: %zu of %zu checks ended; the others did not run",
		 watch_sig_name(v->interrupted), ended, v->n);
}

/* Every testsuite's properties: the device, and on a run cut short, that it was (a reader that
 * looks at one testsuite sees it too). */
static void junit_properties(FILE *f, const struct val_ctx *v)
{
	char cut[160];

	junit_cut(v, cut, sizeof(cut));
	fprintf(f, "    <properties>\n");
	junit_property(f, "device", v->dev->name);
	junit_property(f, "driver", v->dev->driver);
	junit_property(f, "platform", v->dev->platform_name);
	junit_property(f, "complete", v->interrupted ? "false" : "true");
	if (cut[0])
		junit_property(f, "interrupted", cut);
	fprintf(f, "    </properties>\n");
}

/*
 * A run cut short by a signal: a testsuite of its own holding one testcase in error, so that a
 * CI job that counts failures and errors (GitLab, Jenkins) never reads the checks that ended as
 * a whole run that passed.
 */
static void junit_interrupted(FILE *f, const struct val_ctx *v)
{
	char cut[160];

	junit_cut(v, cut, sizeof(cut));
	fprintf(f, "  <testsuite name=\"bench-validate\" tests=\"1\" failures=\"0\" errors=\"1\" "
		"skipped=\"0\" time=\"0.000\">\n");
	junit_properties(f, v);
	fprintf(f, "    <testcase classname=\"bench-validate\" name=\"bench-validate/interrupted\" "
		"time=\"0.000\">\n      <error type=\"Interrupted\" message=\"");
	xml_text(f, cut);
	fprintf(f, "\">the run ended early: the checks that did not run are not in this file</error>\n"
		"    </testcase>\n  </testsuite>\n");
}

static void junit_suite(FILE *f, const struct val_ctx *v, size_t i, bool gtest)
{
	unsigned n, fail, skip;
	double secs;
	char suite[256], test[256];

	junit_counts(v, v->c[i].suite, &n, &fail, &skip, &secs);
	junit_names(&v->c[i], gtest, suite, test);
	fprintf(f, "  <testsuite name=\"");
	xml_text(f, suite);
	fprintf(f, "\" tests=\"%u\" failures=\"%u\" errors=\"0\" skipped=\"%u\" time=\"%.3f\">\n",
		n, fail, skip, secs);
	junit_properties(f, v);
	for (size_t j = i; j < v->n; j++)
		if (v->c[j].done && strcmp(v->c[j].suite, v->c[i].suite) == 0)
			junit_case(f, &v->c[j], gtest);
	fprintf(f, "  </testsuite>\n");
}

bool val_write_junit(const struct val_ctx *v, const char *opt, struct outf *o, char *err,
		     size_t len)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	unsigned n, fail, skip;
	double secs;
	bool ok;

	if (!f) {
		snprintf(err, len, "--%s: %s", opt, strerror(errno));
		outf_abort(o);
		return false;
	}
	junit_counts(v, NULL, &n, &fail, &skip, &secs);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"bench validate\" "
		"tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" time=\"%.3f\">\n",
		n + !!v->interrupted, fail, (unsigned)!!v->interrupted, skip, secs);
	for (size_t i = 0; i < v->n; i++) {
		bool first = v->c[i].done;
		for (size_t j = 0; j < i && first; j++)
			first = !v->c[j].done || strcmp(v->c[j].suite, v->c[i].suite) != 0;
		if (first)   /* --gtest_output: GoogleTest's names, as its lines on stdout */
			junit_suite(f, v, i, strcmp(opt, "gtest_output") == 0);
	}
	if (v->interrupted)
		junit_interrupted(f, v);
	fprintf(f, "</testsuites>\n");
	if (fclose(f) != 0) {
		snprintf(err, len, "--%s: %s", opt, strerror(errno));
		outf_abort(o);
		free(text);
		return false;
	}
	ok = val_commit(opt, o, text, size, err, len);
	free(text);
	return ok;
}
