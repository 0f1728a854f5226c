/* Text tables: right-aligned columns sized to their widest cell; text made safe for XML. */
#ifndef BENCH_TABLE_H
#define BENCH_TABLE_H

#include <stddef.h>
#include <stdio.h>

#define TABLE_MAX_COLS 24

struct table {
	size_t ncols, nrows, cap;
	const char *head[TABLE_MAX_COLS];
	char **cells;   /* nrows * ncols, heap */
};

/* Starts a table of ncols columns (at most TABLE_MAX_COLS) headed by head[]. */
void table_init(struct table *t, size_t ncols, const char *const *head);
/* Adds a row of ncols cells (copied; NULL is an empty cell). */
void table_add(struct table *t, const char *const *cells);
void table_print(const struct table *t, FILE *f);
void table_free(struct table *t);

/*
 * s as XML text or an attribute's value (between double quotes), for every JUnit file bench
 * writes (bench validate's, bench compare's): & < > " ' as entities, tab and newline kept, a
 * carriage return as &#13; (a parser would turn it into a newline), any other control
 * character, which XML 1.0 cannot carry at all, as '?'. A new string (exits on no memory).
 */
char *text_xml(const char *s);

#endif
