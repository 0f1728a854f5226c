/*
 * Apache Otava's input (compare.h). What this relies on (apache-otava 0.8.0, otava/importer.py
 * CsvImporter and otava/test_config.py create_csv_test_config): a csv test names its file,
 * time_column (parsed by dateparser; rows before `--since`, a year ago by default, are left
 * out) and metrics (name: {column, direction, scale}); every metric cell must parse as a
 * float, so a point enters only where every document timed it.
 */
#include "compare.h"
#include "mem.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "2026-11-23T10:00:00Z" as "2026-11-23 10:00:00 +0000"; false where it is not one. */
static bool otava_time(const char *ts, char out[32])
{
	return cmp_utc_format(ts, "%04d-%02d-%02d %02d:%02d:%02d +0000", out, 32);
}

/* The point of d named `name` with timings, or NULL. */
static const struct cmp_point *timed(const struct cmp_doc *d, const char *name)
{
	char buf[1024];

	for (size_t i = 0; i < d->n; i++) {
		if (!d->pts[i].samples || strcmp(d->pts[i].status, "ok") != 0 || d->pts[i].suspect)
			continue;
		export_test_name(&d->pts[i], buf, sizeof(buf));
		if (strcmp(buf, name) == 0)
			return &d->pts[i];
	}
	return NULL;
}

/* A timed point's median in ns: its last attempt's (bench suite --confirm's, the measurement
 * its verdict rests on: compare.h, cmp_shown) where that one was timed, else its own. */
static double shown_median(const struct cmp_point *p)
{
	const struct cmp_point *a = cmp_shown(p);

	return a->samples && strcmp(a->status, "ok") == 0 && !a->suspect ? a->median : p->median;
}

/* The names of the last document's timed points that every document timed. */
static json_t *common_metrics(const struct cmp_doc *docs, size_t n, size_t *left)
{
	const struct cmp_doc *last = &docs[n - 1];
	json_t *names = json_array();
	char name[1024];

	*left = 0;
	for (size_t i = 0; i < last->n; i++) {
		const struct cmp_point *p = &last->pts[i];
		bool all = p->samples && strcmp(p->status, "ok") == 0 && !p->suspect;
		if (!all)
			continue;
		export_test_name(p, name, sizeof(name));
		for (size_t d = 0; d + 1 < n && all; d++)
			all = timed(&docs[d], name) != NULL;
		if (all)
			json_array_append_new(names, json_string(name));
		else
			(*left)++;
	}
	return names;
}

/* Appends printf output to a growing buffer. */
static void put(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	int k;

	for (;;) {
		va_start(ap, fmt);
		k = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
		va_end(ap);
		if (k >= 0 && (size_t)k < *cap - *len)
			break;
		*cap = *cap * 2 + (size_t)k + 1;
		if (!(*buf = realloc(*buf, *cap)))
			cli_die(EXIT_FAIL, "out of host memory for %zu bytes of CSV", *cap);
	}
	*len += (size_t)k;
}

char *otava_csv(const struct cmp_doc *docs, size_t n, json_t **metrics, size_t *left)
{
	size_t len = 0, cap = 4096, k;
	char *buf = bench_alloc(cap), t[32];
	json_t *m;

	*metrics = common_metrics(docs, n, left);
	put(&buf, &len, &cap, "time,run");
	json_array_foreach(*metrics, k, m)
		put(&buf, &len, &cap, ",%s", json_string_value(m));
	put(&buf, &len, &cap, "\n");
	for (size_t d = 0; d < n; d++) {
		if (!otava_time(docs[d].timestamp, t))
			cli_die(EXIT_USAGE, "%s: timestamp: '%s' is not a UTC ISO 8601 time "
				"(2026-11-23T10:00:00Z)", docs[d].path,
				docs[d].timestamp ? docs[d].timestamp : "missing");
		put(&buf, &len, &cap, "%s,%zu", t, d + 1);
		json_array_foreach(*metrics, k, m)
			put(&buf, &len, &cap, ",%.17g", shown_median(timed(&docs[d], json_string_value(m))));
		put(&buf, &len, &cap, "\n");
	}
	return buf;
}

json_t *otava_config(const char *test, const char *csv_path, json_t *metrics)
{
	json_t *ms = json_object(), *m;
	size_t k;

	json_array_foreach(metrics, k, m)
		json_object_set_new(ms, json_string_value(m),
				    json_pack("{s:s, s:i, s:i}", "column", json_string_value(m),
					      "direction", -1, "scale", 1));
	return json_pack("{s:{s:{s:s, s:s, s:s, s:[s], s:o}}}", "tests", test, "type", "csv",
			 "file", csv_path, "time_column", "time", "attributes", "run", "metrics", ms);
}
