/*
 * bench compare's reports in CI systems' own channels (host/ci.h): GitHub Actions'
 * annotations, a line each for a point that makes the exit code 1, and GitLab's metrics
 * report. The step summary is the Markdown summary (out.c) appended to $GITHUB_STEP_SUMMARY.
 */
#include "ci.h"
#include "compare.h"

#include <stdlib.h>
#include <string.h>

/* Whether a row makes the exit code 1 (verdict.c's rule): regressed, failed, NEW suspect. */
static bool fails(const struct cmp_row *r)
{
	return r->verdict == CMP_REGRESSED || r->verdict == CMP_FAILED ||
	       (r->verdict == CMP_SUSPECT && (r->suspect & CMP_SIDE_NEW));
}

void cmp_annotate(const struct cmp_result *c, FILE *f)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct cmp_row *r = &c->rows[i];
		const struct cmp_point *me = r->new_ ? r->new_ : r->base;
		char name[1024], title[128], msg[3000];
		if (!fails(r) && r->verdict != CMP_IMPROVED)
			continue;
		export_test_name(me, name, sizeof(name));
		snprintf(title, sizeof(title), "bench compare: %s", cmp_verdict_name(r->verdict));
		if (r->have_test)
			snprintf(msg, sizeof(msg), "%s: ratio %.3f (95 %% interval %.3f..%.3f, p %.2g), band "
				 "+-%g %%%s%s", name, r->ratio, r->lo, r->hi, r->p, r->noise_pct,
				 r->notes[0] ? "; " : "", r->notes);
		else
			snprintf(msg, sizeof(msg), "%s: %s", name, r->notes[0] ? r->notes : "no times");
		/* the document under test is what the line points at */
		ci_annotation(f, fails(r) ? "error" : "notice", c->new_.path, 0, title, msg);
	}
}

char *cmp_metrics(const struct cmp_result *c)
{
	char *text = NULL, name[1024];
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	for (int v = 0; v < CMP_N_VERDICTS; v++)
		ci_metric(f, "bench_compare_points", "verdict", cmp_verdict_name((enum cmp_verdict)v),
			  c->counts[v]);
	ci_metric(f, "bench_compare_exit_code", NULL, NULL, c->exit_code);
	for (size_t i = 0; i < c->n; i++) {
		const struct cmp_row *r = &c->rows[i];
		const struct cmp_point *nw = cmp_shown(r->new_);
		if (!r->new_)
			continue;
		export_test_name(r->new_, name, sizeof(name));
		if (nw->samples && !nw->suspect)
			ci_metric(f, "bench_median_us", "point", name, nw->median / 1e3);
		if (r->have_ratio)
			ci_metric(f, "bench_ratio", "point", name, r->ratio);
	}
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}
