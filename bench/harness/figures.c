/*
 * The guide's published figures (results/suites/guide-figures.json, built into the binary by
 * scripts/embed.py, or a file of the same form): tables a suite's entries and a row's report
 * set beside what they measured. Read afresh at each call: nothing is kept.
 */
#define HARNESS_LAYER HARNESS_LAYER_POINT
#include "point.h"
#include "embedded.h"

#include <stdlib.h>
#include <string.h>

/* The figures files built into the binary. */
extern const struct embedded_file figures_files[];
extern const size_t figures_files_count;

json_t *bench_figures_load(const char *file, char *err, size_t len)
{
	json_error_t je;
	json_t *root = NULL;

	if (strchr(file, '/')) {
		root = json_load_file(file, JSON_REJECT_DUPLICATES, &je);
	} else {
		for (size_t i = 0; i < figures_files_count && !root; i++)
			if (strcmp(figures_files[i].name, file) == 0)
				root = json_loadb(figures_files[i].data, figures_files[i].len,
						  JSON_REJECT_DUPLICATES, &je);
		if (!root) {
			snprintf(err, len, "no built-in figures file '%s' (built in: %s)", file,
				 figures_files_count ? figures_files[0].name : "none");
			return NULL;
		}
	}
	if (!root) {
		if (je.line > 0)
			snprintf(err, len, "figures file %s: %s (line %d)", file, je.text, je.line);
		else
			snprintf(err, len, "figures file %s: %s", file, je.text);
		return NULL;
	}
	if (!json_is_array(json_object_get(root, "tables"))) {
		snprintf(err, len, "figures file %s: no array 'tables'", file);
		json_decref(root);
		return NULL;
	}
	return root;
}

/* Whether o[k] is a string, for each of the keys (NULL-ended); the first that is not, or NULL. */
static const char *strings_missing(json_t *o, const char *const *keys)
{
	for (; *keys; keys++)
		if (!json_is_string(json_object_get(o, *keys)))
			return *keys;
	return NULL;
}

/* Each element of t[member] an object with string members `keys`; the first bad one's path. */
static bool columns_ok(json_t *t, const char *member, const char *const *keys, char *at, size_t len)
{
	json_t *cols = json_object_get(t, member), *c;
	size_t i;
	const char *bad;

	if (!json_is_array(cols)) {
		snprintf(at, len, "%s: not an array", member);
		return false;
	}
	json_array_foreach(cols, i, c)
		if ((bad = strings_missing(c, keys))) {
			snprintf(at, len, "%s[%zu].%s: not a string", member, i, bad);
			return false;
		}
	return true;
}

/* A table is drawn from these members alone: each must be there, of its type. */
static bool table_ok(json_t *t, char *at, size_t len)
{
	static const char *const top[] = { "id", "title", "section", "device", "kind", "bench", NULL };
	static const char *const key[] = { "head", "path", NULL };
	static const char *const guide[] = { "name", "head", NULL };
	static const char *const ours[] = { "head", "path", NULL };
	const char *bad;
	json_t *rows = json_object_get(t, "rows"), *row;
	size_t i;

	if ((bad = strings_missing(t, top)) || (bad = strings_missing(json_object_get(t, "key"), key))) {
		snprintf(at, len, "%s: not a string", bad);
		return false;
	}
	if (!columns_ok(t, "guide", guide, at, len) || !columns_ok(t, "ours", ours, at, len))
		return false;
	if (!json_is_array(rows) || !json_array_size(rows)) {
		snprintf(at, len, "rows: not a non-empty array");
		return false;
	}
	json_array_foreach(rows, i, row)
		if (!json_object_get(row, "key")) {
			snprintf(at, len, "rows[%zu].key: missing", i);
			return false;
		}
	return true;
}

json_t *bench_figures_table(const char *file, const char *id, char *err, size_t len)
{
	json_t *root = bench_figures_load(file, err, len), *t, *found = NULL;
	char at[128];
	size_t i;

	if (!root)
		return NULL;
	json_array_foreach(json_object_get(root, "tables"), i, t) {
		const char *tid = json_string_value(json_object_get(t, "id"));
		if (tid && strcmp(tid, id) == 0)
			found = json_incref(t);
	}
	if (!found) {
		snprintf(err, len, "figures file %s has no table '%s'", file, id);
	} else if (!table_ok(found, at, sizeof(at))) {
		snprintf(err, len, "figures file %s, table '%s': %s", file, id, at);
		json_decref(found);
		found = NULL;
	}
	json_decref(root);
	return found;
}

json_t *bench_json_at(json_t *v, const char *pointer)
{
	char part[128];

	if (*pointer != '/')
		return NULL;
	while (v && *pointer == '/') {
		const char *end = strchr(pointer + 1, '/');
		size_t n = end ? (size_t)(end - pointer - 1) : strlen(pointer + 1);
		if (n >= sizeof(part))
			return NULL;
		memcpy(part, pointer + 1, n);
		part[n] = '\0';
		if (json_is_array(v)) {
			char *e;
			unsigned long k = strtoul(part, &e, 10);
			v = *e || !n ? NULL : json_array_get(v, k);
		} else {
			v = json_object_get(v, part);
		}
		pointer += n + 1;
	}
	return v;
}
