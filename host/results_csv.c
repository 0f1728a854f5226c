/* CSV view of a results document: one row per point, scalar fields flattened. */
#include "results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The point's objects whose scalar members become columns "section.key". */
static const char *const sections[] = { "params", "time_ns", "wall_ns", "metrics", "model" };

struct cols {
	char **name;
	size_t n, cap;
};

/* Adds name (taking it) unless present; false when out of memory. */
static bool cols_add(struct cols *c, char *name)
{
	if (!name)
		return false;
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->name[i], name) == 0) {
			free(name);
			return true;
		}
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 32;
		char **nn = realloc(c->name, cap * sizeof(*nn));
		if (!nn) {
			free(name);
			return false;
		}
		c->name = nn;
		c->cap = cap;
	}
	c->name[c->n++] = name;
	return true;
}

static void cols_free(struct cols *c)
{
	for (size_t k = 0; k < c->n; k++)
		free(c->name[k]);
	free(c->name);
}

static bool is_scalar(const json_t *v)
{
	return json_is_string(v) || json_is_number(v) || json_is_boolean(v) || json_is_null(v);
}

/* Collects column names in first-seen order (a key of any length, any characters). */
static bool collect(const json_t *points, struct cols *c)
{
	size_t i;
	json_t *p;

	/* a suite's points say their benchmark; a run on several devices', their device, and
	 * with --concurrent whether they ran alone or at once */
	static const char *const who[] = { "benchmark", "device", "concurrent" };
	for (size_t w = 0; w < sizeof(who) / sizeof(who[0]); w++)
		json_array_foreach(points, i, p)
			if (json_object_get(p, who[w])) {
				if (!cols_add(c, strdup(who[w])))
					return false;
				break;
			}
	if (!cols_add(c, strdup("status")) || !cols_add(c, strdup("reason")) ||
	    !cols_add(c, strdup("validated")))
		return false;
	json_array_foreach(points, i, p) {
		for (size_t s = 0; s < sizeof(sections) / sizeof(sections[0]); s++) {
			const char *key;
			json_t *v;
			json_object_foreach(json_object_get(p, sections[s]), key, v) {
				char *name;
				if (!is_scalar(v))
					continue;
				if (asprintf(&name, "%s.%s", sections[s], key) < 0)
					name = NULL;
				if (!cols_add(c, name))
					return false;
			}
		}
	}
	return true;
}

static const json_t *lookup(const json_t *p, const char *col)
{
	const char *dot = strchr(col, '.');
	char sec[64];

	if (!dot)
		return json_object_get(p, col);
	snprintf(sec, sizeof(sec), "%.*s", (int)(dot - col), col);
	return json_object_get(json_object_get(p, sec), dot + 1);
}

/* A quoted CSV field: '"' doubled, a newline written as a space (one record per line). */
static void put_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('"', f);
}

/* A column name, quoted only where a key holds a separator, a quote or a line break. */
static void put_name(FILE *f, const char *name)
{
	if (strpbrk(name, ",\"\r\n"))
		put_quoted(f, name);
	else
		fputs(name, f);
}

static void put_cell(FILE *f, const json_t *v)
{
	if (!v || json_is_null(v))
		return;
	if (json_is_string(v))
		put_quoted(f, json_string_value(v));
	else if (json_is_integer(v))
		fprintf(f, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		fprintf(f, "%.10g", json_real_value(v));
	else
		fputs(json_is_true(v) ? "true" : "false", f);
}

bool res_write_csv(struct outf *o, const json_t *doc, char *err, size_t errlen)
{
	const json_t *points = json_object_get(doc, "points");
	struct cols c = { 0 };
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);
	json_t *p;
	bool ok;

	if (!f) {
		snprintf(err, errlen, "out of memory");
		outf_abort(o);
		return false;
	}
	if (!collect(points, &c)) {
		fclose(f);
		free(buf);
		cols_free(&c);
		snprintf(err, errlen, "out of memory");
		outf_abort(o);
		return false;
	}
	for (size_t k = 0; k < c.n; k++) {
		if (k)
			fputc(',', f);
		put_name(f, c.name[k]);
	}
	fputc('\n', f);
	json_array_foreach(points, i, p) {
		for (size_t k = 0; k < c.n; k++) {
			if (k)
				fputc(',', f);
			put_cell(f, lookup(p, c.name[k]));
		}
		fputc('\n', f);
	}
	fclose(f);
	ok = outf_commit(o, buf, len, err, errlen);
	free(buf);
	cols_free(&c);
	return ok;
}
