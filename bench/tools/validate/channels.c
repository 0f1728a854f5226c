/*
 * bench validate's results in CI systems' own channels (host/ci.h): GitHub Actions'
 * annotations (an error for each unexpected result, pointing at the baseline line where one
 * names the check), its step summary (Markdown appended to $GITHUB_STEP_SUMMARY), and GitLab's
 * metrics report (OpenMetrics text: each deqp-runner status's count, each check's seconds).
 */
#include "validate.h"
#include "ci.h"

#include <stdlib.h>
#include <string.h>

static struct outf metrics_out = OUTF_INIT;
static const char *summary_path;

static void drop_metrics(void)
{
	outf_abort(&metrics_out);
}

void val_channels_open(const struct val_opts *o)
{
	atexit(drop_metrics);
	if (o->metrics)
		bench_output(&metrics_out, "--metrics", o->metrics);
	if (o->github_summary && !(summary_path = ci_step_summary_path()))
		cli_usage_error(CI_STEP_SUMMARY_UNSET, "--junit FILE");
}

/* Each deqp-runner status's count (val_status_counts) and the unexpected results'. */
static void count(const struct val_ctx *v, unsigned n[VAL_N_STATUSES], unsigned *unexpected)
{
	val_status_counts(v, n);
	*unexpected = 0;
	for (size_t i = 0; i < v->n; i++)
		*unexpected += v->c[i].done && val_unexpected(v->c[i].verdict);
}

static void annotate(const struct val_ctx *v, FILE *f)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct val_check *c = &v->c[i];
		char note[2400], title[160], msg[2700];
		if (!c->done || !val_unexpected(c->verdict))
			continue;
		val_note(c, note, sizeof(note));
		snprintf(title, sizeof(title), "bench validate: %s", val_mesa_status(c));
		snprintf(msg, sizeof(msg), "%s: %s", c->id, note[0] ? note : c->desc);
		/* an improvement is the baseline's line to update: the annotation points at it */
		ci_annotation(f, "error", c->base ? v->o->baseline : NULL, c->base ? c->base->line : 0,
			      title, msg);
	}
}

/* The Markdown of a step summary: the counts in deqp-runner's names, the unexpected results. */
static char *summary(const struct val_ctx *v)
{
	unsigned n[VAL_N_STATUSES], unexpected, shown = 0;
	char *text = NULL, note[2400];
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	count(v, n, &unexpected);
	fprintf(f, "### bench validate: %s\n\non %s\n\n| status | checks |\n|---|---:|\n",
		unexpected ? "unexpected results" : "no unexpected result", v->identity);
	for (size_t k = 0; k < VAL_N_STATUSES; k++)
		if (n[k])
			fprintf(f, "| %s | %u |\n", val_statuses[k], n[k]);
	if (unexpected)
		fprintf(f, "\n| check | status | note |\n|---|---|---|\n");
	for (size_t i = 0; i < v->n && shown < 50; i++) {
		const struct val_check *c = &v->c[i];
		if (!c->done || !val_unexpected(c->verdict))
			continue;
		val_note(c, note, sizeof(note));
		for (char *p = note; *p; p++)
			*p = *p == '|' ? '/' : *p;
		fprintf(f, "| `%s` | %s | %s |\n", c->id, val_mesa_status(c), note);
		shown++;
	}
	if (unexpected > shown)
		fprintf(f, "\n... and %u more unexpected results\n", unexpected - shown);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

static char *metrics(const struct val_ctx *v)
{
	unsigned n[VAL_N_STATUSES], unexpected;
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	count(v, n, &unexpected);
	for (size_t k = 0; k < VAL_N_STATUSES; k++)
		ci_metric(f, "bench_validate_checks", "status", val_statuses[k], n[k]);
	ci_metric(f, "bench_validate_unexpected", NULL, NULL, unexpected);
	for (size_t i = 0; i < v->n; i++)
		if (v->c[i].done)
			ci_metric(f, "bench_validate_check_seconds", "check", v->c[i].id, v->c[i].secs);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

bool val_channels_write(const struct val_ctx *v, char *err, size_t len)
{
	char *text;
	bool ok = true;

	if (v->o->github_annotations)
		annotate(v, stdout);
	if (summary_path) {
		text = summary(v);
		ok = text && ci_step_summary_append(summary_path, text, err, len);
		if (!text)
			snprintf(err, len, "--github-summary: out of host memory");
		free(text);
	}
	if (v->o->metrics && ok) {
		text = metrics(v);
		ok = text && val_commit("metrics", &metrics_out, text, strlen(text), err, len);
		if (!text)
			snprintf(err, len, "--metrics: out of host memory");
		free(text);
	}
	return ok;
}
