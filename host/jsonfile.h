/*
 * JSON files read strictly, with one wording for what is wrong, for every reader of bench's
 * files (results documents, suites, known issues); scripts/benchreport/jsonfile.py is the same
 * for bench report: no NaN or Infinity (named by the member that holds it), no key twice in
 * one object, valid UTF-8, at most JF_MAX_DEPTH levels of nesting, nothing after the value,
 * and a truncated file told apart from trailing data.
 */
#ifndef BENCH_JSONFILE_H
#define BENCH_JSONFILE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The deepest nesting read: bench's documents nest 8 levels; this leaves room for more. */
#define JF_MAX_DEPTH 64

/*
 * Parses text (len bytes); NULL with one line in err: "empty file: no JSON in it", "truncated
 * JSON at line L, column C: ...", "trailing data after the JSON value at line L, column C",
 * "the key 'K' twice in one object at line L, column C", "not UTF-8 text at line L, column C",
 * "MEMBER: NaN or Infinity, which JSON does not allow: a number is required", "nested deeper
 * than 64 levels at line L", "an integer beyond 64 bits", "a number beyond the range of a
 * double", "a string holding U+0000 or a lone surrogate" (at line L, column C), or "not JSON at
 * line L, column C: the parser's words".
 */
json_t *jf_parse(const char *text, size_t len, char *err, size_t errlen);
/* Reads the file at path whole and parses it; NULL with "cannot read: why" or jf_parse's words. */
json_t *jf_load(const char *path, char *err, size_t errlen);
/*
 * Whether every member of obj is one of allowed (NULL-terminated); false with "unknown member
 * 'devcie' (did you mean 'device'?; allowed: check, reason, ...)" in err, the nearest allowed
 * name suggested where one is a typo away (two edits, a swap of neighbours counting one).
 */
bool jf_members(json_t *obj, const char *const *allowed, char *err, size_t errlen);

#endif
