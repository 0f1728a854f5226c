/*
 * bench compare: the views of a comparison, all from the same rows: the text
 * table, the compare document (results/README.md), JUnit XML and Markdown.
 */
#include "boot.h"
#include "compare.h"
#include "results.h"
#include "table.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- a growing string ---- */

struct sbuf {
	char *s;
	size_t len, cap;
};

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = (b->len + (size_t)n + 1) * 2;
		if (!(b->s = realloc(b->s, b->cap)))
			cli_die(EXIT_FAIL, "out of host memory");
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* s as XML (the one rule of JUnit text: table.h, text_xml), or in a Markdown table (md). */
static void sb_escaped(struct sbuf *b, const char *s, bool md)
{
	if (!md) {
		char *x = text_xml(s);
		sb_printf(b, "%s", x);
		free(x);
		return;
	}
	for (; *s; s++) {
		switch (*s) {
		case '<': sb_printf(b, "&lt;"); break;
		case '>': sb_printf(b, "&gt;"); break;
		case '|': sb_printf(b, "\\|"); break;
		case '\n': sb_printf(b, " "); break;
		default:
			if ((unsigned char)*s < 0x20 && *s != '\t')
				sb_printf(b, "?");
			else
				sb_printf(b, "%c", *s);
		}
	}
}

/* ---- cells ---- */

const struct cmp_point *cmp_shown(const struct cmp_point *p)
{
	return p && p->n_attempts ? &p->attempts[p->n_attempts - 1] : p;
}

static const char *bench_of(const struct cmp_row *r)
{
	return r->new_ ? r->new_->bench : r->base->bench;
}

static void us_cell(const struct cmp_point *p, char *buf, size_t len)
{
	if (p && p->samples && !p->suspect)   /* a suspect figure is never shown as measured */
		snprintf(buf, len, "%.2f", p->median / 1e3);
	else if (p && p->suspect)
		snprintf(buf, len, "suspect");
	else
		snprintf(buf, len, "%s", p ? p->status : "-");
}

static void cells(const struct cmp_row *r, char c[5][64])
{
	us_cell(r->base, c[0], 64);
	us_cell(cmp_shown(r->new_), c[1], 64);   /* the attempt the ratio and verdict are of */
	snprintf(c[2], 64, r->have_ratio ? "%.3f" : "-", r->ratio);
	if (r->have_test) {
		snprintf(c[3], 64, "%.3f..%.3f", r->lo, r->hi);
		snprintf(c[4], 64, "%.2g", r->p);
	} else {
		snprintf(c[3], 64, "-");
		snprintf(c[4], 64, "-");
	}
}

static void counts_line(const struct cmp_result *c, struct sbuf *b, const char *sep)
{
	bool any = false;

	for (int v = 0; v < CMP_N_VERDICTS; v++)
		if (c->counts[v]) {
			sb_printf(b, "%s%u %s", any ? sep : "", c->counts[v],
				  cmp_verdict_name((enum cmp_verdict)v));
			any = true;
		}
	if (!any)
		sb_printf(b, "no points");
}

static void method_line(const struct cmp_result *c, struct sbuf *b)
{
	sb_printf(b, "exact two-sided Mann-Whitney U test (alpha %g, at least %d repetitions a side); "
		  "bootstrap %g %% interval of the ratio of medians (%d resamples, fixed seed) outside "
		  "the noise band +-%g %%", c->o->alpha, CMP_MIN_REPS, BOOT_CONFIDENCE * 100,
		  BOOT_RESAMPLES, c->o->noise_pct);
	for (size_t i = 0; i < c->o->n_noise_for; i++)
		sb_printf(b, "%s %.*s +-%g %%", i ? "," : " (", (int)c->o->noise_for[i].len,
			  c->o->noise_for[i].bench, c->o->noise_for[i].pct);
	if (c->o->n_noise_for)
		sb_printf(b, ")");
	if (c->noise_from) {
		const char *k;
		json_t *v;
		size_t i = 0;
		sb_printf(b, "; the suite's bands (%s):", c->noise_from == &c->new_ ? "NEW" : "BASE");
		json_object_foreach(c->noise_from->noise, k, v)
			sb_printf(b, "%s %s +-%g %%", i++ ? "," : "", k, json_number_value(v));
	}
}

static void doc_line(const struct cmp_doc *d, struct sbuf *b, bool md)
{
	sb_printf(b, "%s%s%s: %s (%s, driver %s), %s, %zu points", md ? "`" : "", d->path, md ? "`" : "",
		  d->device, d->platform, d->driver, d->timestamp ? d->timestamp : "no timestamp", d->n);
	if (d->interrupted)
		sb_printf(b, " (partial: interrupted by %s)", d->interrupted);
}

/* ---- the table ---- */

/* A CI log's width: the text around the table is wrapped to it. */
#define CMP_LOG_WIDTH 100

/* text printed from column col wrapped at spaces to CMP_LOG_WIDTH, every line after the first
 * indented; the column it ends at. */
static size_t wrap_at(FILE *f, const char *text, const char *indent, size_t col)
{
	size_t ind = strlen(indent), pend = 0;

	while (*text) {
		if (*text == ' ') {
			pend++;
			text++;
			continue;
		}
		if (*text == '\n') {
			fprintf(f, "\n%s", indent);
			col = ind;
			pend = 0;
			text++;
			continue;
		}
		size_t word = strcspn(text, " \n");
		if (col > ind && col + pend + word > CMP_LOG_WIDTH) {
			fprintf(f, "\n%s", indent);
			col = ind;
			pend = 0;
		}
		fprintf(f, "%*s%.*s", (int)pend, "", (int)word, text);
		col += pend + word;
		pend = 0;
		text += word;
	}
	return col;
}

static void print_wrapped(FILE *f, const char *text, const char *indent)
{
	wrap_at(f, text, indent, 0);
	fputc('\n', f);
}

static void print_wrapped_from(FILE *f, const char *text, const char *indent, size_t col)
{
	wrap_at(f, text, indent, col);
	fputc('\n', f);
}

/* Where per-point bands learned from a baseline of several runs judged rows: how many, their range. */
static void learned_line(const struct cmp_result *c, struct sbuf *b)
{
	size_t n = 0;
	double lo = 0, hi = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct cmp_row *r = &c->rows[i];
		if (!r->band_from || strcmp(r->band_from, "learned") != 0)
			continue;
		lo = n && lo < r->noise_pct ? lo : r->noise_pct;
		hi = n && hi > r->noise_pct ? hi : r->noise_pct;
		n++;
	}
	if (!n)
		return;
	sb_printf(b, "; per-point bands learned from BASE's runs for %zu of %zu points, +-%.4g..%.4g "
		  "%% (max(--noise-floor %g %%, ", n, c->n, lo, hi, c->o->floor_pct);
	if (c->o->spread_mult > 0)
		sb_printf(b, "--spread-mult %g", c->o->spread_mult);
	else
		sb_printf(b, "%d from %d runs, else %d", CMP_SPREAD_MULT_MANY, CMP_SPREAD_RUNS,
			  CMP_SPREAD_MULT_FEW);
	sb_printf(b, " x the point's spread)), in place of the bands above");
}

/*
 * The table: the figures' columns first, then the benchmark and the parameters that tell its
 * points apart, left-aligned and wrapped below their own column, so that a CI log's line holds
 * the figures whatever the parameters' length.
 */
static void print_rows(const struct cmp_result *c, const struct table *t, FILE *f)
{
	char *text = NULL, *line, *save = NULL, indent[128];
	size_t size = 0, i = 0;
	FILE *m = open_memstream(&text, &size);

	if (!m)
		cli_die(EXIT_FAIL, "out of host memory");
	table_print(t, m);
	fclose(m);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), i++) {
		size_t w = strlen(line);
		snprintf(indent, sizeof(indent), "%*s", (int)(w + 2 < sizeof(indent) ? w + 2 : 0), "");
		fprintf(f, "%s  ", line);
		if (!i) {
			fprintf(f, "benchmark params\n");
			continue;
		}
		const struct cmp_row *r = &c->rows[i - 1];
		struct sbuf b = { 0 };
		sb_printf(&b, "%s %s", bench_of(r), r->params[0] ? r->params : "-");
		print_wrapped_from(f, b.s, indent, w + 2);
		free(b.s);
	}
	free(text);
}

void cmp_print(const struct cmp_result *c, FILE *f)
{
	static const char *const head[] = { "base us", "new us", "ratio", "95% interval", "p",
					    "verdict" };
	struct table t;
	struct sbuf b = { 0 };

	sb_printf(&b, "BASE ");
	doc_line(&c->base, &b, false);
	print_wrapped(f, b.s, "     ");
	b.len = 0;
	sb_printf(&b, "NEW  ");
	doc_line(&c->new_, &b, false);
	print_wrapped(f, b.s, "     ");
	b.len = 0;
	method_line(c, &b);
	learned_line(c, &b);
	print_wrapped(f, b.s, "  ");
	fprintf(f, "\n");
	table_init(&t, 6, head);
	for (size_t i = 0; i < c->n; i++) {
		const struct cmp_row *r = &c->rows[i];
		char v[5][64];
		cells(r, v);
		const char *row[6] = { v[0], v[1], v[2], v[3], v[4], cmp_verdict_name(r->verdict) };
		table_add(&t, row);
	}
	print_rows(c, &t, f);
	table_free(&t);
	for (size_t i = 0, k = 0; i < c->n; i++) {
		const struct cmp_row *r = &c->rows[i];
		if (r->verdict == CMP_UNCHANGED && !r->notes[0])
			continue;
		if (k++ == 0)
			fprintf(f, "\n");
		b.len = 0;
		sb_printf(&b, "  %s %s%s%s: %s", cmp_verdict_name(r->verdict), bench_of(r),
			  r->params[0] ? " " : "", r->params, r->notes);
		print_wrapped(f, b.s, "      ");
	}
	b.len = 0;
	counts_line(c, &b, ", ");
	fprintf(f, "\n%zu points: %s\n", c->n, b.s);
	free(b.s);
}

/* ---- the compare document ---- */

static json_t *real_or_null(bool have, double v)
{
	return have && isfinite(v) ? json_real(v) : json_null();
}

/* A side's point; NEW's figures (n, median) those of its last attempt (cmp_shown). */
static json_t *side_json(const struct cmp_point *p, bool shown)
{
	if (!p)
		return json_null();
	const struct cmp_point *f = shown ? cmp_shown(p) : p;
	return json_pack("{s:I, s:s, s:s?, s:b, s:I, s:o, s:b, s:s?}", "index", (json_int_t)p->index,
			 "status", p->status, "reason", p->reason, "validated", p->validated,
			 "n", (json_int_t)f->n, "median_ns", real_or_null(f->samples != NULL, f->median),
			 "suspect", p->suspect, "suspect_why", p->suspect ? p->suspect_why : NULL);
}

static json_t *row_json(const struct cmp_row *r)
{
	const struct cmp_point *me = r->new_ ? r->new_ : r->base;
	json_t *j = json_object();

	json_object_set_new(j, "benchmark", json_string(me->bench));
	if (me->device)
		json_object_set_new(j, "device", json_string(me->device));
	if (me->concurrent >= 0)
		json_object_set_new(j, "concurrent", json_boolean(me->concurrent));
	json_object_set(j, "params", me->params);
	json_object_set_new(j, "verdict", json_string(cmp_verdict_name(r->verdict)));
	json_object_set_new(j, "notes", json_string(r->notes));
	json_object_set_new(j, "base", side_json(r->base, false));
	json_object_set_new(j, "new", side_json(r->new_, true));
	json_object_set_new(j, "ratio", real_or_null(r->have_ratio, r->ratio));
	json_object_set_new(j, "interval", r->have_test
				? json_pack("[o, o]", real_or_null(true, r->lo), real_or_null(true, r->hi))
				: json_null());
	json_object_set_new(j, "u", real_or_null(r->have_test, r->u));
	json_object_set_new(j, "p", real_or_null(r->have_test, r->p));
	json_object_set_new(j, "p_method", r->have_test ? json_string(r->p_method) : json_null());
	json_object_set_new(j, "significant", r->have_test ? json_boolean(r->significant) : json_null());
	json_object_set_new(j, "outside_noise", r->have_test ? json_boolean(r->outside_noise) : json_null());
	json_object_set_new(j, "noise_pct", json_real(r->noise_pct));
	json_object_set_new(j, "band_from", json_string(r->band_from ? r->band_from : "--noise"));
	json_object_set_new(j, "clock_probe_ratio", real_or_null(r->probe_ratio > 0, r->probe_ratio));
	json_object_set_new(j, "probe_units", json_boolean(r->probe_units));
	json_object_set_new(j, "paired", json_boolean(r->paired));
	json_t *att = json_array();
	for (size_t i = 0; i < r->n_attempts; i++)
		json_array_append_new(att, json_string(cmp_verdict_name(r->attempt[i])));
	json_object_set_new(j, "attempts", att);
	json_object_set_new(j, "suspect", !r->suspect ? json_null()
				: json_string(r->suspect == CMP_SIDE_NEW ? "new"
					      : r->suspect == CMP_SIDE_BASE ? "base" : "both"));
	json_object_set_new(j, "changed", r->changed ? json_incref(r->changed) : json_array());
	return j;
}

/* Whether both documents compared were whole runs (false: --allow-partial let in one cut short
 * or empty), for the compare document's `complete` and its JUnit properties. */
static bool compared_whole(const struct cmp_result *c)
{
	return !c->base.interrupted && !c->new_.interrupted && c->base.n && c->new_.n &&
	       !json_object_get(c->base.root, "interrupted") && !json_object_get(c->new_.root, "interrupted");
}

static json_t *doc_json(const struct cmp_doc *d)
{
	json_t *j = json_pack("{s:s, s:s?, s:s?, s:s?, s:{s:s, s:s, s:s}, s:I}", "path", d->path,
			      "name", d->name, "timestamp", d->timestamp, "hostname", d->hostname,
			      "device", "name", d->device, "platform", d->platform, "driver_version",
			      d->driver, "points", (json_int_t)d->n);

	if (d->interrupted)   /* a partial document read with --allow-partial */
		json_object_set_new(j, "interrupted", json_string(d->interrupted));
	return j;
}

static json_t *settings_json(const struct cmp_result *c)
{
	json_t *ign = json_object(), *nf = json_object(), *out = json_object();
	char seed[32];

	for (size_t i = 0; cmp_ignored_params[i].key; i++)
		json_object_set_new(ign, cmp_ignored_params[i].key, json_string(cmp_ignored_params[i].why));
	for (const struct cmp_outcome *o = cmp_outcomes; o->path; o++)
		json_object_set_new(out, o->path, json_pack("{s:s, s:s}", "worse",
			o->worse == CMP_WORSE_ANY ? "any change" : o->worse == CMP_WORSE_UP ? "larger"
										: "never", "what", o->why));
	for (size_t i = 0; i < c->o->n_noise_for; i++) {
		char k[128];
		snprintf(k, sizeof(k), "%.*s", (int)c->o->noise_for[i].len, c->o->noise_for[i].bench);
		json_object_set_new(nf, k, json_real(c->o->noise_for[i].pct));
	}
	snprintf(seed, sizeof(seed), "0x%016llx", (unsigned long long)BOOT_SEED);
	return json_pack("{s:s, s:f, s:i, s:{s:s, s:f, s:i, s:s}, s:f, s:o, s:O?, s:s?, s:o, s:o, s:b, "
			 "s:f, s:o, s:s, s:s}",
			 "test", "Mann-Whitney U, two-sided, exact (conditional on ties)",
			 "alpha", c->o->alpha, "min_reps", CMP_MIN_REPS,
			 "interval", "method", "percentile bootstrap of median(new) / median(base)",
			 "confidence", BOOT_CONFIDENCE, "resamples", BOOT_RESAMPLES, "seed", seed,
			 "noise_pct", c->o->noise_pct, "noise_for", nf,
			 "noise_suite", c->noise_from ? c->noise_from->noise : NULL,
			 "noise_suite_from", c->noise_from ? (c->noise_from == &c->new_ ? "new" : "base") : NULL,
			 "ignored_params", ign, "compared_outcomes", out,
			 "allow_different_device", c->o->allow_different_device,
			 "noise_floor_pct", c->o->floor_pct, "spread_mult",
			 c->o->spread_mult > 0 ? json_real(c->o->spread_mult) : json_string("auto"),
			 "equivalence", "unchanged only where the interval lies within the band; "
			 "otherwise inconclusive unless significant and wholly outside it",
			 "clock_gate", "a clock probe moved between the documents the same way as the "
			 "point: judged in probe units (a change the clock accounts for: inconclusive); "
			 "moved the other way: no excuse; moved within a point: judged again at the clock "
			 "ratio the probes allow most in the change's favour (inconclusive where that "
			 "explains it)");
}

json_t *cmp_json(const struct cmp_result *c)
{
	json_t *j = json_object(), *cmd = json_array(), *counts = json_object(), *pts = json_array();
	char ts[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (int i = 0; i < cli_argc; i++)
		json_array_append_new(cmd, json_string(cli_argv[i]));
	for (int v = 0; v < CMP_N_VERDICTS; v++)
		json_object_set_new(counts, cmp_verdict_name((enum cmp_verdict)v),
				    json_integer(c->counts[v]));
	for (size_t i = 0; i < c->n; i++)
		json_array_append_new(pts, row_json(&c->rows[i]));
	json_object_set_new(j, "kind", json_string("compare"));
	json_object_set_new(j, "schema_version", json_integer(1));
	json_object_set_new(j, "tool", json_pack("{s:s, s:s, s:s}", "name", "bench", "version",
						 res_tool_version(), "git_describe", res_tool_describe()));
	json_object_set_new(j, "timestamp", json_string(ts));
	json_object_set_new(j, "command", cmd);
	json_object_set_new(j, "base", doc_json(&c->base));
	json_object_set_new(j, "new", doc_json(&c->new_));
	json_object_set_new(j, "complete", json_boolean(compared_whole(c)));
	json_object_set_new(j, "settings", settings_json(c));
	json_object_set_new(j, "counts", counts);
	json_object_set_new(j, "exit_code", json_integer(c->exit_code));
	json_object_set_new(j, "points", pts);
	return j;
}

/* ---- JUnit ---- */

static void figures(const struct cmp_row *r, struct sbuf *b)
{
	char v[5][64];

	cells(r, v);
	sb_printf(b, "verdict %s\nbase median us %s (n %zu)\nnew median us %s (n %zu)\n"
		  "ratio %s\n95%% interval %s\np %s (%s)\nnoise band +-%g %%\n",
		  cmp_verdict_name(r->verdict), v[0], r->base ? r->base->n : 0, v[1],
		  r->new_ ? cmp_shown(r->new_)->n : 0, v[2], v[3], v[4], r->have_test ? r->p_method : "no test",
		  r->noise_pct);
	if (r->notes[0])
		sb_printf(b, "notes: %s\n", r->notes);
}

static void testcase(const struct cmp_row *r, struct sbuf *b)
{
	sb_printf(b, "    <testcase classname=\"bench.");
	sb_escaped(b, bench_of(r), false);
	sb_printf(b, "\" name=\"");
	sb_escaped(b, r->params[0] ? r->params : bench_of(r), false);
	sb_printf(b, "\" time=\"0\">\n");
	if (r->verdict == CMP_REGRESSED || r->verdict == CMP_FAILED ||
	    (r->verdict == CMP_SUSPECT && (r->suspect & CMP_SIDE_NEW))) {
		sb_printf(b, "      <failure type=\"%s\" message=\"", cmp_verdict_name(r->verdict));
		sb_escaped(b, r->notes, false);
		sb_printf(b, "\"/>\n");
	} else if (r->verdict == CMP_INCONCLUSIVE || r->verdict == CMP_NEW || r->verdict == CMP_MISSING ||
		   r->verdict == CMP_SUSPECT) {   /* BASE's alone: the run is not at fault */
		sb_printf(b, "      <skipped message=\"%s: ", cmp_verdict_name(r->verdict));
		sb_escaped(b, r->notes, false);
		sb_printf(b, "\"/>\n");
	}
	sb_printf(b, "      <system-out>");
	struct sbuf fig = { 0 };
	figures(r, &fig);
	sb_escaped(b, fig.s, false);
	free(fig.s);
	sb_printf(b, "</system-out>\n    </testcase>\n");
}

char *cmp_junit(const struct cmp_result *c)
{
	struct sbuf b = { 0 };
	unsigned fail = c->counts[CMP_REGRESSED] + c->counts[CMP_FAILED] + cmp_suspect_new(c);
	unsigned skip = c->counts[CMP_INCONCLUSIVE] + c->counts[CMP_NEW] + c->counts[CMP_MISSING] +
			c->counts[CMP_SUSPECT] - cmp_suspect_new(c);

	sb_printf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	sb_printf(&b, "<testsuites name=\"bench compare\" tests=\"%zu\" failures=\"%u\" skipped=\"%u\">\n",
		  c->n, fail, skip);
	sb_printf(&b, "  <testsuite name=\"");
	sb_escaped(&b, c->new_.path, false);
	sb_printf(&b, "\" tests=\"%zu\" failures=\"%u\" skipped=\"%u\" errors=\"0\">\n", c->n, fail, skip);
	if (!compared_whole(c)) {   /* --allow-partial: a side was cut short; a CI job can see it */
		sb_printf(&b, "    <properties>\n      <property name=\"complete\" value=\"false\"/>\n");
		for (int side = 0; side < 2; side++) {
			const struct cmp_doc *d = side ? &c->new_ : &c->base;
			if (!d->interrupted && d->n && !json_object_get(d->root, "interrupted"))
				continue;
			sb_printf(&b, "      <property name=\"partial\" value=\"%s ", side ? "new" : "base");
			sb_escaped(&b, d->path, false);
			sb_printf(&b, ": %s%s%s\"/>\n", d->n ? "interrupted by " : "no point",
				  d->n ? (d->interrupted ? d->interrupted : "?") : "", "");
		}
		sb_printf(&b, "    </properties>\n");
	}
	for (size_t i = 0; i < c->n; i++)
		testcase(&c->rows[i], &b);
	sb_printf(&b, "  </testsuite>\n</testsuites>\n");
	return b.s;
}

/* ---- Markdown ---- */

static void md_row(const struct cmp_row *r, struct sbuf *b)
{
	char v[5][64];

	cells(r, v);
	sb_printf(b, "| %s%s%s | ", r->verdict == CMP_UNCHANGED ? "" : "**",
		  cmp_verdict_name(r->verdict), r->verdict == CMP_UNCHANGED ? "" : "**");
	sb_escaped(b, bench_of(r), true);
	sb_printf(b, " | ");
	sb_escaped(b, r->params[0] ? r->params : "-", true);
	sb_printf(b, " | %s | %s | %s | %s | %s | ", v[0], v[1], v[2], v[3], v[4]);
	sb_escaped(b, r->notes, true);
	sb_printf(b, " |\n");
}

static void md_table(const struct cmp_result *c, struct sbuf *b, bool unchanged)
{
	sb_printf(b, "| verdict | benchmark | params | base µs | new µs | ratio | 95 %% interval | p | notes |\n"
		     "|---|---|---|---:|---:|---:|---|---:|---|\n");
	for (int v = 0; v < CMP_N_VERDICTS; v++) {
		if ((v == CMP_UNCHANGED) != unchanged)
			continue;
		for (size_t i = 0; i < c->n; i++)
			if (c->rows[i].verdict == (enum cmp_verdict)v)
				md_row(&c->rows[i], b);
	}
}

char *cmp_markdown(const struct cmp_result *c)
{
	struct sbuf b = { 0 };

	sb_printf(&b, "### bench compare: ");
	counts_line(c, &b, ", ");
	sb_printf(&b, "\n\n%s\n\n", c->exit_code ? "**Regressions, failures or suspect points found.**"
						  : "No regression, no failure.");
	sb_printf(&b, "- BASE ");
	doc_line(&c->base, &b, true);
	sb_printf(&b, "\n- NEW ");
	doc_line(&c->new_, &b, true);
	sb_printf(&b, "\n- ");
	method_line(c, &b);
	learned_line(c, &b);
	sb_printf(&b, "\n\n| verdict | points |\n|---|---:|\n");
	for (int v = 0; v < CMP_N_VERDICTS; v++)
		if (c->counts[v])
			sb_printf(&b, "| %s | %u |\n", cmp_verdict_name((enum cmp_verdict)v), c->counts[v]);
	if (c->n > c->counts[CMP_UNCHANGED]) {
		sb_printf(&b, "\n");
		md_table(c, &b, false);
	}
	if (c->counts[CMP_UNCHANGED]) {
		sb_printf(&b, "\n<details><summary>%u unchanged</summary>\n\n", c->counts[CMP_UNCHANGED]);
		md_table(c, &b, true);
		sb_printf(&b, "\n</details>\n");
	}
	return b.s;
}
