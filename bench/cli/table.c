/* Text tables, and text made safe for XML. */
#include "table.h"
#include "cli.h"
#include "mem.h"

#include <stdlib.h>
#include <string.h>

void table_init(struct table *t, size_t ncols, const char *const *head)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	for (size_t i = 0; i < ncols; i++)
		t->head[i] = head[i];
}

void table_add(struct table *t, const char *const *cells)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->cells = realloc(t->cells, t->cap * t->ncols * sizeof(*t->cells));
		if (!t->cells)
			cli_die(EXIT_FAIL, "out of host memory for a table of %zu rows", t->cap);
	}
	for (size_t i = 0; i < t->ncols; i++)
		if (!(t->cells[t->nrows * t->ncols + i] = strdup(cells[i] ? cells[i] : "")))
			cli_die(EXIT_FAIL, "out of host memory for a table cell");
	t->nrows++;
}

void table_print(const struct table *t, FILE *f)
{
	size_t w[TABLE_MAX_COLS];

	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = strlen(t->head[c]);
		for (size_t r = 0; r < t->nrows; r++) {
			size_t l = strlen(t->cells[r * t->ncols + c]);
			w[c] = l > w[c] ? l : w[c];
		}
	}
	for (size_t c = 0; c < t->ncols; c++)
		fprintf(f, "%*s%s", (int)w[c], t->head[c], c + 1 < t->ncols ? "  " : "\n");
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++)
			fprintf(f, "%*s%s", (int)w[c], t->cells[r * t->ncols + c],
				c + 1 < t->ncols ? "  " : "\n");
}

void table_free(struct table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

char *text_xml(const char *s)
{
	static const char *const ent[] = { ['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;",
					   ['"'] = "&quot;", ['\''] = "&apos;", ['\r'] = "&#13;" };
	const size_t n_ent = sizeof(ent) / sizeof(ent[0]);
	size_t n = 1;
	char *out, *o;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		n += *p < n_ent && ent[*p] ? strlen(ent[*p]) : 1;
	o = out = bench_alloc(n);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < n_ent && ent[*p])
			o = stpcpy(o, ent[*p]);
		else
			*o++ = *p < 0x20 && *p != '\t' && *p != '\n' ? '?' : (char)*p;
	}
	*o = '\0';
	return out;
}
