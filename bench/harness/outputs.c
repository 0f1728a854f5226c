/* The output files of a run (--json, --csv) and of the tools: reserved before any work. */
#define HARNESS_LAYER HARNESS_LAYER_SESSION
#include "session.h"

#include <stdlib.h>

static struct outf out_json = OUTF_INIT, out_csv = OUTF_INIT;

void bench_input(const char *what, const char *path)
{
	char err[1024];

	if (!outf_input(what, path, err, sizeof(err)))
		cli_die(EXIT_USAGE, "%s", err);
}

void bench_output(struct outf *o, const char *opt, const char *path)
{
	char err[1024];

	if (!outf_open(o, opt, path, err, sizeof(err)))
		cli_usage_error("%s %s", opt, err);
}

void bench_outputs_drop(void)
{
	outf_abort(&out_json);
	outf_abort(&out_csv);
}

void bench_outputs_open(const struct common_opts *o)
{
	static bool registered;

	if (!registered)
		atexit(bench_outputs_drop);
	registered = true;
	if (o->json_path)
		bench_output(&out_json, "--json", o->json_path);
	if (o->csv_path)
		bench_output(&out_csv, "--csv", o->csv_path);
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
