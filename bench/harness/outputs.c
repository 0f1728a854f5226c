/* The output files of a run (--json, --csv): reserved before any work, removed by an early exit. */
#include "internal.h"

#include <stdlib.h>

static struct res_out out_json = { .fd = -1 }, out_csv = { .fd = -1 };

void bench_outputs_drop(void)
{
	res_out_abort(&out_json);
	res_out_abort(&out_csv);
}

void bench_outputs_open(const struct common_opts *o)
{
	static bool registered;
	char err[1024];

	if (!registered)
		atexit(bench_outputs_drop);
	registered = true;
	if (o->json_path && o->csv_path && res_out_same_file(o->json_path, o->csv_path))
		cli_usage_error("--json and --csv name the same file '%s'", o->json_path);
	if (o->json_path && !res_out_open(&out_json, o->json_path, err, sizeof(err)))
		cli_usage_error("--json %s", err);
	if (o->csv_path && !res_out_open(&out_csv, o->csv_path, err, sizeof(err)))
		cli_usage_error("--csv %s", err);
}

int bench_outputs_write(const struct common_opts *o, json_t *doc)
{
	char err[1024];
	int rc = EXIT_OK;

	if (doc)
		res_doc_finish(doc);
	if (o->json_path && !res_write_json(&out_json, doc, err, sizeof(err))) {
		fprintf(stderr, "bench %s: %s\n", cli_cmd, err);
		rc = EXIT_FAIL;
	}
	if (o->csv_path && !res_write_csv(&out_csv, doc, err, sizeof(err))) {
		fprintf(stderr, "bench %s: %s\n", cli_cmd, err);
		rc = EXIT_FAIL;
	}
	return rc;
}
