/*
 * bench validate's files for a CI runner, in deqp-runner's form: --results-dir DIR holds
 * results.csv (every check that ended: test,status,duration in seconds) and failures.csv (the
 * unexpected results, what needs a look or becomes the next baseline), each rewritten whole as
 * each check ends (a temporary file renamed over it: a killed run leaves the checks that ended);
 * --write-baseline FILE, the run's failures as NAME,STATUS lines. Each file starts with a '#'
 * line naming the platform, driver and device (deqp-runner reads '#' lines as comments).
 */
#include "validate_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define RESULTS_CSV "results.csv"
#define FAILURES_CSV "failures.csv"

/* A path in the results folder (heap). */
static char *in_dir(const char *dir, const char *name)
{
	char *p = NULL;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		cli_die(EXIT_FAIL, "out of host memory");
	return p;
}

void val_results_dir_make(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			cli_usage_error("--results-dir %s: not a folder", dir);
		return;
	}
	if (errno != ENOENT || mkdir(dir, 0777) != 0)
		cli_usage_error("--results-dir %s: cannot make the folder: %s", dir, strerror(errno));
}

struct named {
	const char *opt, *path;
};

void val_outputs_check(const struct val_opts *o)
{
	char *res = NULL, *fail = NULL, known[4200];
	const char *known_path = o->known ? val_known_path(o->known, known, sizeof(known)) : NULL;
	const struct named in[] = { { "known-issues", known_path }, { "baseline", o->baseline },
				    { "flakes", o->flakes }, { "skips", o->skips },
				    { "caselist", o->caselist } };
	char xml[4096];
	const char *xml_path = o->gtest_output ? val_gtest_xml_path(o->gtest_output, xml, sizeof(xml)) : NULL;

	if (o->results_dir) {
		res = in_dir(o->results_dir, RESULTS_CSV);
		fail = in_dir(o->results_dir, FAILURES_CSV);
	}
	const struct named out[] = { { "junit", o->junit }, { "write-baseline", o->write_baseline },
				     { "results-dir", res }, { "results-dir", fail },
				     { "gtest_output", xml_path } };
	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
		if (!out[i].path)
			continue;
		for (size_t j = 0; j < sizeof(in) / sizeof(in[0]); j++)
			if (res_out_same_file(out[i].path, in[j].path))
				cli_usage_error("--%s %s is the same file as --%s %s: an output never "
						"overwrites an input", out[i].opt, out[i].path, in[j].opt,
						in[j].path);
		for (size_t j = 0; j < i; j++)
			if (res_out_same_file(out[i].path, out[j].path))
				cli_usage_error("--%s %s and --%s %s are the same file", out[i].opt,
						out[i].path, out[j].opt, out[j].path);
	}
	free(res);
	free(fail);
}

/* One file of NAME,STATUS,SECONDS lines: every check that ended, or the unexpected ones. */
static bool write_csv(const struct val_ctx *v, const char *name, bool failures, char *err, size_t len)
{
	char *path = in_dir(v->o->results_dir, name), *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	bool ok = f != NULL;

	if (f) {
		fprintf(f, "# bench validate on %s\n", v->identity);
		for (size_t i = 0; i < v->n; i++) {
			const struct val_check *c = &v->c[i];
			if (c->done && (!failures || val_unexpected(c->verdict)))
				fprintf(f, "%s,%s,%.3f\n", c->id, val_mesa_status(c), c->secs);
		}
		fclose(f);
		ok = val_commit("results-dir", path, text, size, err, len);
	} else {
		snprintf(err, len, "--results-dir %s: %s", path, strerror(errno));
	}
	free(text);
	free(path);
	return ok;
}

bool val_results_write(const struct val_ctx *v, bool last, char *err, size_t len)
{
	char *path;
	struct stat st;
	bool stream;

	if (!v->o->results_dir)
		return true;
	/* a device or FIFO in place of a file takes the whole text once, at the end */
	path = in_dir(v->o->results_dir, RESULTS_CSV);
	stream = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
	free(path);
	if (stream && !last)
		return true;
	return write_csv(v, RESULTS_CSV, false, err, len) && write_csv(v, FAILURES_CSV, true, err, len);
}

bool val_baseline_write(const struct val_ctx *v, const char *path, char *err, size_t len)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	bool ok;

	if (!f) {
		snprintf(err, len, "--write-baseline %s: %s", path, strerror(errno));
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
	fclose(f);
	ok = val_commit("write-baseline", path, text, size, err, len);
	free(text);
	return ok;
}
