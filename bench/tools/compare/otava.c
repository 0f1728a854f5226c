/*
 * Apache Otava's input (compare.h). What this relies on (apache-otava 0.8.0, otava/importer.py
 * CsvImporter and otava/test_config.py create_csv_test_config): a csv test names its file,
 * time_column (parsed by dateparser; rows before `--since`, a year ago by default, are left
 * out) and metrics (name: {column, direction, scale}); every metric cell must parse as a
 * float, so a point enters only where every document timed it. And where Otava is found:
 * otava_find (bench history runs it).
 */
#include "compare.h"
#include "mem.h"
#include "paths.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where an installed bench finds the Otava of its hint: a virtual environment under the user's
 * data folder (XDG_DATA_HOME, else ~/.local/share), made by one documented command. */
#define OTAVA_VENV "bench/otava"
#define OTAVA_PIN "apache-otava==0.8.0"

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

/* ---- Otava itself ---- */

static bool executable(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

/* The user's virtual environment for Otava (OTAVA_VENV) into buf; false without a home. */
static bool user_venv(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	if (xdg && *xdg == '/')
		return snprintf(buf, len, "%s/%s", xdg, OTAVA_VENV) < (int)len;
	return home && *home && snprintf(buf, len, "%s/.local/share/%s", home, OTAVA_VENV) < (int)len;
}

/* How to get Otava, for this bench: a build tree's set-up, or one command for an installed one. */
static const char *otava_hint(char *buf, size_t len)
{
	char deps[3900], venv[3900];

	if (paths_dir(PATHS_DEPS, deps, sizeof(deps)))
		snprintf(buf, len, "scripts/setup.sh installs it into %s/otava", deps);
	else if (user_venv(venv, sizeof(venv)))
		snprintf(buf, len, "python3 -m venv %s && %s/bin/pip install %s (found there; or set "
			 "BENCH_OTAVA to an otava executable)", venv, venv, OTAVA_PIN);
	else
		snprintf(buf, len, "pip install %s, then BENCH_OTAVA=PATH-TO/otava", OTAVA_PIN);
	return buf;
}

/* Otava's executable into buf, or exit 77 saying how to get it. */
void otava_find(char *buf, size_t len)
{
	const char *env = getenv("BENCH_OTAVA"), *path = getenv("PATH");
	char deps[3900], hint[8400];

	if (env && *env) {
		if (!executable(env))
			cli_die(EXIT_SKIP, "BENCH_OTAVA '%s' is not an executable file: %s", env,
				otava_hint(hint, sizeof(hint)));
		snprintf(buf, len, "%s", env);
		return;
	}
	for (const char *p = path; p && *p;) {
		size_t k = strcspn(p, ":");
		snprintf(buf, len, "%.*s/otava", (int)k, p);
		if (k && executable(buf))
			return;
		p += k + (p[k] == ':');
	}
	if (paths_dir(PATHS_DEPS, deps, sizeof(deps))) {
		snprintf(buf, len, "%s/otava/bin/otava", deps);
		if (executable(buf))
			return;
	}
	if (user_venv(deps, sizeof(deps))) {
		snprintf(buf, len, "%s/bin/otava", deps);
		if (executable(buf))
			return;
	}
	cli_die(EXIT_SKIP, "no Apache Otava (`otava`): BENCH_OTAVA unset, none on PATH%s: %s",
		paths_dir(PATHS_DEPS, deps, sizeof(deps)) ? " or in the build tree's .deps"
		: " or in the user's data folder", otava_hint(hint, sizeof(hint)));
}
