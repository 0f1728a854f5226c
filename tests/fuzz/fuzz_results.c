/*
 * libFuzzer harness for results documents read back: arbitrary bytes loaded by jansson (as
 * json_load_file does for the tests), walked as a results document, then written again as JSON
 * and as the CSV view (res_write_csv's flattening). Properties checked, abort() on failure:
 *   - the JSON written back loads and equals the document;
 *   - the CSV has one header and one row per point, every row as many fields as the header.
 */
#include "results.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FUZZ_REQUIRE(cond)                                                              \
	do {                                                                            \
		if (!(cond)) {                                                          \
			fprintf(stderr, "fuzz_results: property failed: %s\n", #cond);  \
			abort();                                                        \
		}                                                                       \
	} while (0)

static char dir[256], path[300];

static void remove_dir(void)
{
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";   /* fsync is cheap */

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "%s/bench-fuzz-results-XXXXXX", base);
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/out", dir);
	atexit(remove_dir);
	return 0;
}

/* What the tests read of a document (tests/bench_json.py): every lookup on any shape. */
static double walk(const json_t *doc)
{
	const json_t *points = json_object_get(doc, "points"), *p;
	double sum = (double)json_integer_value(json_object_get(doc, "schema_version"));
	size_t i;

	sum += json_string_length(json_object_get(json_object_get(doc, "tool"), "version"));
	json_array_foreach(points, i, p) {
		const json_t *t = json_object_get(p, "time_ns"), *v;
		const char *k;
		sum += json_number_value(json_object_get(t, "median"));
		sum += (double)json_array_size(json_object_get(t, "samples"));
		sum += json_is_true(json_object_get(p, "validated"));
		sum += json_string_length(json_object_get(p, "status"));
		json_object_foreach((json_t *)json_object_get(p, "params"), k, v)
			sum += (double)strlen(k) + json_is_null(v);
	}
	return sum;
}

/* The file's fields in one CSV record starting at *s (RFC 4180 quoting); *s moves past it. */
static size_t csv_fields(const char **s)
{
	size_t n = 1;
	bool quoted = false;

	for (; **s; (*s)++) {
		if (quoted) {
			if (**s == '"')
				quoted = (*s)[1] == '"' ? ((*s)++, true) : false;
		} else if (**s == '"') {
			quoted = true;
		} else if (**s == ',') {
			n++;
		} else if (**s == '\n') {
			(*s)++;
			return n;
		}
	}
	FUZZ_REQUIRE(!quoted);
	return n;
}

static char *slurp(void)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int c;

	FUZZ_REQUIRE(f && m);
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	fclose(m);
	return buf;
}

static void check_csv(const json_t *doc)
{
	struct outf o;
	char err[1024];
	char *text;
	const char *s;
	size_t header, rows = 0;

	FUZZ_REQUIRE(outf_open(&o, "--json", path, err, sizeof(err)));
	FUZZ_REQUIRE(res_write_csv(&o, doc, err, sizeof(err)));
	text = slurp();
	s = text;
	FUZZ_REQUIRE(strchr(text, '\n'));
	header = csv_fields(&s);
	while (*s) {
		FUZZ_REQUIRE(csv_fields(&s) == header);
		rows++;
	}
	FUZZ_REQUIRE(rows == json_array_size(json_object_get(doc, "points")));
	free(text);
}

static void check_json(const json_t *doc)
{
	struct outf o;
	char err[1024];
	json_error_t je;
	json_t *back;

	FUZZ_REQUIRE(outf_open(&o, "--json", path, err, sizeof(err)));
	if (!json_is_object(doc) && !json_is_array(doc)) {   /* a document is an object */
		FUZZ_REQUIRE(!res_write_json(&o, doc, err, sizeof(err)));
		return;
	}
	FUZZ_REQUIRE(res_write_json(&o, doc, err, sizeof(err)));
	back = json_load_file(path, 0, &je);
	FUZZ_REQUIRE(back && json_equal(back, doc));
	json_decref(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t je;
	json_t *doc = json_loadb((const char *)data, size, JSON_DECODE_ANY, &je);
	volatile double sink;

	if (!doc)
		return 0;
	sink = walk(doc);
	(void)sink;
	check_csv(doc);
	check_json(doc);
	json_decref(doc);
	return 0;
}
