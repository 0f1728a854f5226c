/* JSON files read strictly, every fault named the same way (jsonfile.h). */
#include "jsonfile.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* JSON has no NaN; Python's json module writes one as a bare token, which is replaced by this. */
#define NAN_MARK "\x01NaN"

/*
 * Bare NaN, Infinity and -Infinity tokens (outside strings) quoted as NAN_MARK strings; NULL
 * when there are none. The result is only used to name the member.
 */
static char *mark_nans(const char *s, size_t len)
{
	static const char *const toks[] = { "-Infinity", "Infinity", "NaN" };
	char *out = malloc(len * 2 + 16);
	size_t o = 0;
	bool in_str = false, any = false;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (in_str) {
			if (s[i] == '\\' && i + 1 < len)
				out[o++] = s[i++];
			else if (s[i] == '"')
				in_str = false;
			out[o++] = s[i];
			continue;
		}
		size_t t = 0;
		while (t < 3 && strncmp(s + i, toks[t], strlen(toks[t])) != 0)
			t++;
		if (t < 3) {
			o += (size_t)sprintf(out + o, "\"\\u0001NaN\"");
			i += strlen(toks[t]) - 1;
			any = true;
			continue;
		}
		in_str = s[i] == '"';
		out[o++] = s[i];
	}
	out[o] = '\0';
	if (!any) {
		free(out);
		return NULL;
	}
	return out;
}

/* The path of the first NaN mark under v, into path (false: none). */
static bool find_nan(const json_t *v, char *path, size_t len)
{
	size_t at = strlen(path);

	if (json_is_string(v))
		return strcmp(json_string_value(v), NAN_MARK) == 0;
	if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++) {
			snprintf(path + at, len - at, "[%zu]", i);
			if (find_nan(json_array_get(v, i), path, len))
				return true;
		}
	} else if (json_is_object(v)) {
		const char *k;
		const json_t *m;
		json_object_foreach((json_t *)v, k, m) {
			snprintf(path + at, len - at, "%s%s", at ? "." : "", k);
			if (find_nan(m, path, len))
				return true;
		}
	}
	path[at] = '\0';
	return false;
}

/* The line where nesting first passes JF_MAX_DEPTH (brackets outside strings), 0: it does not. */
static int too_deep(const char *s, size_t len)
{
	int depth = 0, line = 1;
	bool in_str = false;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '\n')
			line++;
		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
		} else if (c == '"') {
			in_str = true;
		} else if (c == '[' || c == '{') {
			if (++depth > JF_MAX_DEPTH)
				return line;
		} else if (c == ']' || c == '}') {
			depth--;
		}
	}
	return 0;
}

/* The parser's error in words: what kind of fault, where. */
static void describe(const json_error_t *e, size_t len, char *err, size_t errlen)
{
	const char *near = strstr(e->text, " near ");
	int n = near ? (int)(near - e->text) : (int)strlen(e->text);

	if (strncmp(e->text, "end of file expected", 20) == 0)
		snprintf(err, errlen, "trailing data after the JSON value at line %d, column %d: one "
			 "document holds one value", e->line, e->column);
	else if (strstr(e->text, "near end of file") || strncmp(e->text, "premature end of input", 22) == 0 ||
		 (size_t)e->position >= len)
		snprintf(err, errlen, "truncated JSON at line %d, column %d: the document ends early "
			 "(%.*s)", e->line, e->column, n, e->text);
	else if (strncmp(e->text, "duplicate object key", 20) == 0)
		snprintf(err, errlen, "the key %.*s twice in one object at line %d, column %d: each key "
			 "once", near && strlen(near) > 8 ? (int)strlen(near) - 8 : 0, near ? near + 7 : "",
			 e->line, e->column);
	else if (strncmp(e->text, "too big integer", 15) == 0)
		snprintf(err, errlen, "an integer beyond 64 bits at line %d, column %d", e->line, e->column);
	else if (strncmp(e->text, "real number overflow", 20) == 0)
		snprintf(err, errlen, "a number beyond the range of a double at line %d, column %d",
			 e->line, e->column);
	else if (strstr(e->text, "\\u0000 is not allowed") || strncmp(e->text, "invalid Unicode", 15) == 0)
		snprintf(err, errlen, "a string holding U+0000 or a lone surrogate at line %d, column %d",
			 e->line, e->column);
	else if (strncmp(e->text, "unable to decode byte", 21) == 0)
		snprintf(err, errlen, "not UTF-8 text at line %d, column %d (%.*s)", e->line, e->column,
			 n, e->text);
	else
		snprintf(err, errlen, "not JSON at line %d, column %d: %s", e->line, e->column, e->text);
}

json_t *jf_parse(const char *text, size_t len, char *err, size_t errlen)
{
	json_error_t e;
	json_t *root;
	char *marked;
	int line;

	if (strspn(text, " \t\r\n") >= len) {
		snprintf(err, errlen, "empty file: no JSON in it");
		return NULL;
	}
	if ((line = too_deep(text, len))) {
		snprintf(err, errlen, "nested deeper than %d levels at line %d: not a document bench "
			 "reads", JF_MAX_DEPTH, line);
		return NULL;
	}
	if ((root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &e)))
		return root;
	if ((marked = mark_nans(text, len))) {
		char field[512] = "";
		json_t *again = json_loads(marked, 0, NULL);
		bool found = again && find_nan(again, field, sizeof(field));
		json_decref(again);
		free(marked);
		if (found) {
			snprintf(err, errlen, "%s: NaN or Infinity, which JSON does not allow: a number "
				 "is required", field[0] ? field : "(top level)");
			return NULL;
		}
	}
	describe(&e, len, err, errlen);
	return NULL;
}

json_t *jf_load(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;
	json_t *root;

	if (!f) {
		snprintf(err, errlen, "cannot read: %s", strerror(errno));
		return NULL;
	}
	for (;;) {
		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 1 << 16);
			if (!nb) {
				snprintf(err, errlen, "cannot read: %s", strerror(ENOMEM));
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read: %s", strerror(errno));
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	root = jf_parse(buf, n, err, errlen);
	free(buf);
	return root;
}

/* Edits from a to b: insertions, deletions, substitutions and swaps of neighbours (at most 63 bytes). */
static size_t edits(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b), d[64][64];

	if (n > 63 || m > 63)
		return 64;
	for (size_t i = 0; i <= n; i++)
		for (size_t j = 0; j <= m; j++) {
			if (!i || !j) {
				d[i][j] = i + j;
				continue;
			}
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			best = d[i - 1][j] + 1 < best ? d[i - 1][j] + 1 : best;
			best = d[i][j - 1] + 1 < best ? d[i][j - 1] + 1 : best;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[n][m];
}

bool jf_members(json_t *obj, const char *const *allowed, char *err, size_t errlen)
{
	const char *k, *near = NULL;
	json_t *v;
	char list[512] = "";

	json_object_foreach(obj, k, v) {
		size_t i = 0, best = 3;
		while (allowed[i] && strcmp(allowed[i], k) != 0)
			i++;
		if (allowed[i])
			continue;
		for (i = 0; allowed[i]; i++) {
			size_t e = edits(k, allowed[i]);
			if (e < best) {
				best = e;
				near = allowed[i];
			}
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
				 allowed[i]);
		}
		if (near)
			snprintf(err, errlen, "unknown member '%s' (did you mean '%s'?; allowed: %s)", k, near,
				 list);
		else
			snprintf(err, errlen, "unknown member '%s' (allowed: %s)", k, list);
		return false;
	}
	return true;
}
