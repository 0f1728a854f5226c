/*
 * bench suite --baseline FILE --confirm N: a verdict confirmed before it is reported. After
 * the entries have run, every point is judged against the baseline (verdict.c); an entry
 * holding a point that came out regressed, improved or inconclusive is run again, and its
 * points' new measurements become their attempts, up to N more times. A point is settled
 * once its verdict is unchanged or two of its attempts agree on a change: then no further
 * attempt can outvote them. The document keeps every attempt, so bench compare reads the same
 * verdicts from it later. A transient state of the device then makes no regression, and a
 * real one is measured twice before it is called one.
 */
#include "suite.h"

#include <stdlib.h>
#include <string.h>

void confirm_open(struct suite_confirm *c, const char *path, unsigned rounds, const char *suite)
{
	memset(c, 0, sizeof(*c));
	c->path = path;
	c->rounds = rounds;
	cmp_rules_default(&c->rules);
	cmp_doc_load(&c->base, path);
	if (!c->base.name || strcmp(c->base.name, suite) != 0)
		cli_usage_error("--baseline %s is a document of '%s', not of the suite '%s'", path,
				c->base.name ? c->base.name : "(no suite)", suite);
}

/* Forgets the points flagged in the last round. */
static void unflag(struct suite_confirm *c)
{
	for (size_t i = 0; i < c->n_flagged; i++)
		free(c->flagged[i]);
	free(c->flagged);
	c->flagged = NULL;
	c->n_flagged = c->cap_flagged = 0;
}

void confirm_close(struct suite_confirm *c)
{
	unflag(c);
	cmp_doc_free(&c->base);
}

/* The verdict a row has and, where it is a change, how many of its attempts give it. */
static bool settled(const struct cmp_row *r)
{
	size_t agree = 0;

	if (r->verdict != CMP_REGRESSED && r->verdict != CMP_IMPROVED && r->verdict != CMP_INCONCLUSIVE)
		return true;
	for (size_t i = 0; i < r->n_attempts; i++)
		agree += r->attempt[i] == r->verdict;
	return r->verdict != CMP_INCONCLUSIVE && agree >= 2;
}

size_t confirm_flag(struct suite_confirm *c, json_t *doc, bool *again, size_t n_entries)
{
	struct cmp_result res = { .o = &c->rules };
	size_t n = 0;

	memset(again, 0, n_entries * sizeof(*again));
	unflag(c);
	cmp_doc_from_json(&res.new_, json_incref(doc), "(this run)");
	res.base = c->base;
	cmp_compare(&res);
	for (size_t i = 0; i < res.n; i++) {
		const struct cmp_row *r = &res.rows[i];
		json_t *run = r->new_ ? json_object_get(r->new_->pt, "run") : NULL;
		size_t e = json_is_integer(run) ? (size_t)json_integer_value(run) - 1 : n_entries;
		if (!r->new_ || !r->base || settled(r) || e >= n_entries ||
		    r->new_->n_attempts >= c->rounds)
			continue;
		n += !again[e];
		again[e] = true;
		char **k = bench_push(&c->flagged, &c->n_flagged, &c->cap_flagged, sizeof(*k), 16);
		*k = cmp_point_key(r->new_->bench, r->new_->params);
	}
	res.base = (struct cmp_doc){ 0 };   /* the baseline stays loaded for the next round */
	cmp_result_free(&res);
	cmp_doc_free(&res.new_);
	return n;
}

/* Whether the point of bench with params was flagged in the last round. */
static bool flagged(const struct suite_confirm *c, const char *bench, json_t *params)
{
	char *key = cmp_point_key(bench, params);
	bool hit = false;

	for (size_t i = 0; i < c->n_flagged && !hit; i++)
		hit = strcmp(c->flagged[i], key) == 0;
	free(key);
	return hit;
}

void confirm_attach(const struct suite_confirm *c, json_t *entry_doc, json_t *rerun,
		    const char *bench)
{
	json_t *p, *q;
	size_t i, k;

	json_array_foreach(json_object_get(entry_doc, "points"), i, p) {
		if (!flagged(c, bench, json_object_get(p, "params")))
			continue;
		char *key = cmp_point_key(bench, json_object_get(p, "params"));
		json_array_foreach(json_object_get(rerun, "points"), k, q) {
			char *qk = cmp_point_key(bench, json_object_get(q, "params"));
			bool same = strcmp(key, qk) == 0;
			free(qk);
			if (!same)
				continue;
			json_t *a = json_object_get(p, "attempts");
			if (!a)
				json_object_set_new(p, "attempts", a = json_array());
			json_array_append_new(a, json_deep_copy(q));
			break;
		}
		free(key);
	}
}

int confirm_report(struct suite_confirm *c, json_t *doc, bool quiet)
{
	struct cmp_result res = { .o = &c->rules };
	int rc;

	cmp_doc_from_json(&res.new_, json_incref(doc), "(this run)");
	res.base = c->base;
	cmp_compare(&res);
	if (!quiet) {
		printf("\nagainst the baseline %s, every change measured again up to %u more times:\n",
		       c->path, c->rounds);
		cmp_print(&res, stdout);
		fflush(stdout);
	}
	rc = res.exit_code;
	res.base = (struct cmp_doc){ 0 };
	cmp_result_free(&res);
	cmp_doc_free(&res.new_);
	return rc;
}
