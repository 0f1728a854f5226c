/*
 * bench validate's inputs and outputs, on the one rule of every file bench writes
 * (host/outfile.h): the input files registered and every output reserved before any work, so
 * that no output replaces an input or another output, and each appears whole or not at all.
 *
 * The files for a CI runner, in deqp-runner's form: --results-dir DIR holds results.csv (every
 * check that ended: test,status,duration in seconds) and failures.csv (the unexpected results,
 * what needs a look or becomes the next baseline), each replaced whole as each check ends (a
 * killed run leaves the checks that ended); --write-baseline FILE, the run's failures as
 * NAME,STATUS lines. Each file starts with a '#' line naming the platform, driver and device
 * (deqp-runner reads '#' lines as comments). --junit and --gtest_output's XML are written once,
 * at the end.
 */
#include "validate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define RESULTS_CSV "results.csv"
#define FAILURES_CSV "failures.csv"

/* The outputs reserved for the run (OUTF_NONE where not asked for, or written). */
static struct {
	struct outf junit, gtest_xml, baseline;
	struct outf csv[2];           /* results.csv, failures.csv */
	char *csv_path[2];
} outs = { OUTF_INIT, OUTF_INIT, OUTF_INIT, { OUTF_INIT, OUTF_INIT }, { NULL, NULL } };

static const char *const csv_name[2] = { RESULTS_CSV, FAILURES_CSV };

void val_outputs_drop(void)
{
	outf_abort(&outs.junit);
	outf_abort(&outs.gtest_xml);
	outf_abort(&outs.baseline);
	for (size_t i = 0; i < 2; i++) {
		outf_abort(&outs.csv[i]);
		free(outs.csv_path[i]);
		outs.csv_path[i] = NULL;
	}
}

/* An input of the run: exit 2 "--OPT PATH: cannot read: why" (a folder, missing, an output). */
static void input(const char *opt, const char *path)
{
	char err[1024];

	if (path && !outf_input(opt, path, err, sizeof(err)))
		cli_die(EXIT_USAGE, "%s %s", opt, err);
}

/* DIR/results.csv and DIR/failures.csv: the folder made as mkdir -p, both reserved. */
static void results_dir_open(const char *dir)
{
	char err[1024];

	if (!outf_mkdirs(dir, err, sizeof(err)))
		cli_usage_error("--results-dir %s", err);
	for (size_t i = 0; i < 2; i++) {
		if (asprintf(&outs.csv_path[i], "%s/%s", dir, csv_name[i]) < 0)
			cli_die(EXIT_FAIL, "out of host memory");
		bench_output(&outs.csv[i], "--results-dir", outs.csv_path[i]);
	}
}

void val_outputs_open(const struct val_opts *o)
{
	char known[4200], xml[4096];

	atexit(val_outputs_drop);
	input("--known-issues", o->known ? val_known_path(o->known, known, sizeof(known)) : NULL);
	input("--baseline", o->baseline);
	input("--flakes", o->flakes);
	input("--skips", o->skips);
	input("--caselist", o->caselist);
	if (o->list || o->gtest_list)
		return;   /* nothing is written */
	/* the folder first: the other outputs may lie inside it (--junit DIR/junit.xml) */
	if (o->results_dir)
		results_dir_open(o->results_dir);
	if (o->junit)
		bench_output(&outs.junit, "--junit", o->junit);
	if (o->gtest_output)
		bench_output(&outs.gtest_xml, "--gtest_output",
			     val_gtest_xml_path(o->gtest_output, xml, sizeof(xml)));
	if (o->write_baseline)
		bench_output(&outs.baseline, "--write-baseline", o->write_baseline);
}

/* DIR/NAME reserved again where the last write used its reservation up (or it failed). */
static bool reserve_csv(size_t which, char *err, size_t len)
{
	char why[1024];

	if (outs.csv[which].fd >= 0)
		return true;
	if (outf_open(&outs.csv[which], "--results-dir", outs.csv_path[which], why, sizeof(why)))
		return true;
	snprintf(err, len, "--results-dir %s", why);
	return false;
}

/*
 * The file's last line, a comment: whether the run was whole. While checks run the file is
 * rewritten as each ends, so one a SIGKILL left says it was written mid-run; one a signal cut
 * short names the signal. A reader that skips comments (deqp-runner) still sees only checks.
 */
static void csv_state(FILE *f, const struct val_ctx *v, bool last)
{
	size_t ended = 0;

	for (size_t i = 0; i < v->n; i++)
		ended += v->c[i].done;
	if (v->interrupted)
		fprintf(f, "# incomplete: interrupted by %s: %zu of %zu checks ended; the others did not "
			"run\n", watch_sig_name(v->interrupted), ended, v->n);
	else if (!last)
		fprintf(f, "# incomplete: %zu of %zu checks ended so far (the run was still going)\n",
			ended, v->n);
	else
		fprintf(f, "# complete: %zu of %zu checks ended\n", ended, v->n);
}

/* One file of NAME,STATUS,SECONDS lines: every check that ended, or the unexpected ones. */
static bool write_csv(const struct val_ctx *v, size_t which, bool last, char *err, size_t len)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f;
	bool ok;

	if (!reserve_csv(which, err, len))
		return false;
	if (!(f = open_memstream(&text, &size))) {
		snprintf(err, len, "--results-dir %s: %s", outs.csv_path[which], strerror(errno));
		return false;
	}
	fprintf(f, "# bench validate on %s\n", v->identity);
	for (size_t i = 0; i < v->n; i++) {
		const struct val_check *c = &v->c[i];
		if (c->done && (!which || val_unexpected(c->verdict)))
			fprintf(f, "%s,%s,%.3f\n", c->id, val_mesa_status(c), c->secs);
	}
	csv_state(f, v, last);
	ok = fclose(f) == 0;
	if (!ok)
		snprintf(err, len, "--results-dir %s: %s", outs.csv_path[which], strerror(errno));
	ok = ok && val_commit("results-dir", &outs.csv[which], text, size, err, len);
	free(text);
	return ok;
}

bool val_results_write(const struct val_ctx *v, bool last, char *err, size_t len)
{
	if (!v->o->results_dir)
		return true;
	/* a device or FIFO in place of a file takes the whole text once, at the end */
	if ((outs.csv[0].stream || outs.csv[1].stream) && !last)
		return true;
	return write_csv(v, 0, last, err, len) && write_csv(v, 1, last, err, len);
}

bool val_baseline_write(const struct val_ctx *v, char *err, size_t len)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	bool ok;

	if (!f) {
		snprintf(err, len, "--write-baseline: %s", strerror(errno));
		return false;
	}
	fprintf(f, "# bench validate --write-baseline: the failures of a run on %s\n", v->identity);
	for (size_t i = 0; i < v->n; i++) {
		const struct val_check *c = &v->c[i];
		/* a failure, expected or not; never beyond the declared capabilities, never flaky */
		bool fails = c->res == VAL_FAIL || c->res == VAL_CRASH || c->res == VAL_TIMEOUT;
		if (c->done && fails && !c->beyond && c->verdict != VAL_V_FLAKE &&
		    c->verdict != VAL_V_KNOWN_FLAKE)
			fprintf(f, "%s,%s\n", c->id, val_res_name(c->res));
	}
	ok = fclose(f) == 0;
	if (!ok)
		snprintf(err, len, "--write-baseline: %s", strerror(errno));
	ok = ok && val_commit("write-baseline", &outs.baseline, text, size, err, len);
	free(text);
	return ok;
}

bool val_junit_write(const struct val_ctx *v, char *err, size_t len)
{
	bool ok = true;

	if (v->o->junit)
		ok = val_write_junit(v, "junit", &outs.junit, err, len);
	if (v->o->gtest_output && ok)
		ok = val_write_junit(v, "gtest_output", &outs.gtest_xml, err, len);
	return ok;
}
