/* Text tables. */
#include "table.h"
#include "cli.h"

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
