/*
 * bench suite: the guide's published figures beside what an entry measured. An entry that
 * names a table of the figures file (entries[].figures) gets it printed after the suite's
 * summary, row by row: the guide's cells as published (an erratum marked), then this run's
 * cells, found by the table's own pointers (results/suites/guide-figures.json: `from`, `where`,
 * `key`, `ours`) in the entry's document, so what is compared is data, not code.
 */
#include "suite.h"

#include <math.h>
#include <string.h>

/*
 * A cell of a JSON value: a string, an integer as it is, another number times scale (4
 * significant digits, whole from 10^4 on), or "-".
 */
static void cell(json_t *v, double scale, char *buf, size_t len)
{
	double x = json_number_value(v) * scale;

	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_integer(v) && scale == 1)
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_number(v))
		snprintf(buf, len, fabs(x) >= 1e4 ? "%.0f" : "%.4g", x);
	else
		snprintf(buf, len, "-");
}

/* Whether an item holds every value of `where` ({pointer: value}). */
static bool where_ok(json_t *item, json_t *where)
{
	const char *ptr;
	json_t *want;

	json_object_foreach(where, ptr, want)
		if (!json_equal(bench_json_at(item, ptr), want))
			return false;
	return true;
}

/* The entry's item (a point, or an element of `from`) of the row whose key is `key`, or NULL. */
static json_t *match(json_t *doc, json_t *t, json_t *key)
{
	json_t *from = json_object_get(t, "from"), *where = json_object_get(t, "where"), *it;
	const char *kp = json_string_value(json_object_get(json_object_get(t, "key"), "path"));
	json_t *items = bench_json_at(doc, from ? json_string_value(from) : "/points");
	size_t i;

	json_array_foreach(items, i, it)
		if ((!where || where_ok(it, where)) && json_equal(bench_json_at(it, kp), key))
			return it;
	return NULL;
}

/* The table's column heads: the key, the guide's, a bar, ours, and a point's status. */
static size_t heads(json_t *t, bool points, const char **h)
{
	json_t *c;
	size_t n = 0, i;

	h[n++] = json_string_value(json_object_get(json_object_get(t, "key"), "head"));
	json_array_foreach(json_object_get(t, "guide"), i, c)
		if (n < TABLE_MAX_COLS - 2)
			h[n++] = json_string_value(json_object_get(c, "head"));
	h[n++] = "|";
	json_array_foreach(json_object_get(t, "ours"), i, c)
		if (n < TABLE_MAX_COLS - 1)
			h[n++] = json_string_value(json_object_get(c, "head"));
	if (points)
		h[n++] = "status";
	return n;
}

/* One row's cells: the key (an erratum marked '*'), the guide's, then ours from the matched item. */
static void row_cells(json_t *t, json_t *row, json_t *it, bool points, char (*buf)[64])
{
	json_t *c;
	size_t n = 0, i;

	cell(json_object_get(row, "key"), 1, buf[n], 64);
	if (json_object_get(row, "erratum"))
		strncat(buf[n], " *", 63 - strlen(buf[n]));
	n++;
	json_array_foreach(json_object_get(t, "guide"), i, c) {
		if (n >= TABLE_MAX_COLS - 2)
			break;
		cell(json_object_get(row, json_string_value(json_object_get(c, "name"))), 1, buf[n++], 64);
	}
	snprintf(buf[n++], 64, "|");
	json_array_foreach(json_object_get(t, "ours"), i, c) {
		json_t *sc = json_object_get(c, "scale");
		if (n >= TABLE_MAX_COLS - 1)
			break;
		cell(it ? bench_json_at(it, json_string_value(json_object_get(c, "path"))) : NULL,
		     sc ? json_number_value(sc) : 1, buf[n++], 64);
	}
	if (points)
		snprintf(buf[n], 64, "%s", it ? json_string_value(json_object_get(it, "status")) : "not run");
}

/* One entry's table: its title, the guide's device and section, the rows, the errata. */
static void one(const struct suite_entry *e, size_t index, json_t *doc, const char *device, FILE *f)
{
	json_t *t = e->figures, *row;
	bool points = !json_object_get(t, "from");
	const char *h[TABLE_MAX_COLS], *cells[TABLE_MAX_COLS];
	char buf[TABLE_MAX_COLS][64];
	struct table tab;
	size_t n = heads(t, points, h), i;

	fprintf(f, "\nentry %zu (bench %s): %s\n  the guide's section: %s\n  left of the bar, the guide's "
		"figures, on its device: %s (%s)\n  right of the bar, this run's, on another device: %s\n",
		index + 1, e->bench, json_string_value(json_object_get(t, "title")),
		json_string_value(json_object_get(t, "section")), json_string_value(json_object_get(t, "device")),
		json_string_value(json_object_get(t, "kind")), device);
	if (json_object_get(t, "note"))
		fprintf(f, "  %s\n", json_string_value(json_object_get(t, "note")));
	table_init(&tab, n, h);
	json_array_foreach(json_object_get(t, "rows"), i, row) {
		row_cells(t, row, match(doc, t, json_object_get(row, "key")), points, buf);
		for (size_t k = 0; k < n; k++)
			cells[k] = buf[k];
		table_add(&tab, cells);
	}
	table_print(&tab, f);
	table_free(&tab);
	json_array_foreach(json_object_get(t, "rows"), i, row) {
		if (!json_object_get(row, "erratum"))
			continue;
		cell(json_object_get(row, "key"), 1, buf[0], sizeof(buf[0]));
		fprintf(f, "  * %s %s, as published: %s\n", h[0], buf[0],
			json_string_value(json_object_get(row, "erratum")));
	}
}

void suite_figures_print(const struct suite *su, json_t *const *docs, size_t done, const char *device,
			 FILE *f)
{
	bool any = false;

	for (size_t i = 0; i < done; i++)
		any |= su->e[i].figures && docs[i];
	if (!any)
		return;
	fprintf(f, "\nthe guide's published figures beside this run's: the guide measured (or computed) "
		"them on its own device, a TGL, a Gen9 or a Data Center GPU Max as each table says; this "
		"run measured '%s', another device, so the two sides are set beside each other, not "
		"expected to agree\n", device);
	for (size_t i = 0; i < done; i++)
		if (su->e[i].figures && docs[i])
			one(&su->e[i], i, docs[i], device, f);
}
