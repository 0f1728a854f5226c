/*
 * bench report: results documents as one self-contained HTML page (charts inline as
 * SVG), drawn by scripts/report.py with matplotlib; this row parses the command line
 * and hands over. The Python module is installed beside bench's data (host/paths.h:
 * <datadir>/gpu-occupancy-bench/python), or in a build tree the source's scripts/;
 * BENCH_SCRIPTS names another folder.
 */
#include "rows.h"
#include "tool.h"
#include "paths.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct report_opts {
	struct cli_operands docs;
	const char *output;      /* -o */
	const char *png;         /* --png DIR */
	bool allow_partial;      /* --allow-partial */
};

#define RO(f) offsetof(struct report_opts, f)
static const struct cli_opt report_cli[] = {
	{ "output", "FILE", CLI_STR, RO(output), .short_name = 'o',
	  .help = "the HTML page (written whole or not at all)" },
	{ "png", "DIR", CLI_STR, RO(png), .help = "also write each chart as a PNG into DIR" },
	{ "allow-partial", NULL, CLI_FLAG, RO(allow_partial),
	  .help = "draw interrupted and empty documents, marked partial (refused\nwithout)" },
	{ 0 } };

static void report_check(void *opts, const struct cli_set *given)
{
	const struct report_opts *o = opts;

	(void)given;
	if (!o->docs.n)
		cli_usage_error("name one or more results documents (bench ... --json FILE)");
	if (!o->output)
		cli_usage_error("-o FILE names the page to write");
}

static int report_main(void *opts)
{
	const struct report_opts *o = opts;
	const char *env = getenv("BENCH_SCRIPTS");
	const char *python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
	size_t n = 0;
	const char **argv = bench_alloc((o->docs.n + 8) * sizeof(*argv));
	char dir[4096], script[4200];

	if (env && *env)
		snprintf(dir, sizeof(dir), "%s", env);
	else
		paths_dir(PATHS_PYTHON, dir, sizeof(dir));
	snprintf(script, sizeof(script), "%s/report.py", dir);
	if (access(script, R_OK) != 0)
		cli_die(EXIT_FAIL, "no report.py in %s%s (%s): it is installed with bench, beside its "
			"data", dir, env && *env ? ", named by BENCH_SCRIPTS" : "", strerror(errno));
	argv[n++] = python;
	argv[n++] = "-B";   /* no __pycache__ beside an installed module, which its package owns */
	argv[n++] = script;
	for (size_t i = 0; i < o->docs.n; i++)
		argv[n++] = o->docs.v[i];
	argv[n++] = "-o";
	argv[n++] = o->output;
	if (o->png) {
		argv[n++] = "--png";
		argv[n++] = o->png;
	}
	if (o->allow_partial)
		argv[n++] = "--allow-partial";
	char timeout[16];
	if (watch_deadline_seconds()) {   /* the clock does not survive execvp: the report keeps it */
		snprintf(timeout, sizeof(timeout), "%u", watch_deadline_seconds());
		argv[n++] = "--timeout";
		argv[n++] = timeout;
	}
	argv[n] = NULL;
	fflush(stdout);
	execvp(python, (char *const *)argv);
	cli_die(EXIT_FAIL, "cannot run %s %s: %s (Debian: apt-get install python3-matplotlib)", python,
		script, strerror(errno));
}

const struct bench_tool report_tool = {
	.cmd = {
		.name = "report",
		.summary = "results documents as one HTML page of charts (and PNGs)",
		.synopsis = "usage: bench report DOC... -o FILE [--png DIR]\n"
			    "  Draws results documents (bench ... --json) as one self-contained HTML page:\n"
			    "  every chart inline as SVG, no script, font or address to fetch. Two documents\n"
			    "  of one benchmark, or a bench compare --json document, also get before/after.\n"
			    "  Documents are judged as bench compare and export judge them; the page and the\n"
			    "  PNGs are never one of the documents, and appear whole or not at all.\n",
		.flags = BENCH_OPERANDS,
		.operands_off = RO(docs),
		.opts = report_cli,
		.opts_size = sizeof(struct report_opts),
		.check = report_check,
	},
	.main = report_main,
};
