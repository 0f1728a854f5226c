/*
 * bench validate: one check in this process. A row's check runs as the command line would
 * run it (`bench vecadd --variant 3 --wg 64 --sg 16 ... --validate-only`), its points coming
 * back through the harness's run hook; an API check runs on a context of this process. The
 * child of an isolated run (child.c) and the hidden --in-process run both call this.
 */
#include "validate.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct {
	struct val_check *c;      /* the check in flight (for an exit inside a row) */
	int saved_out, saved_err;
	FILE *log;
	bool child;               /* stderr is the child's log: messages stay there as they come */
	off_t log_from;           /* child: where this row's messages start in it */
	bool tap;
} flight = { NULL, -1, -1, NULL, false, 0, false };

void val_row_child_mode(void)
{
	flight.child = true;
}

/*
 * The first disagreement the row's report failed on, from its document's residency_answers
 * (bench occupancy: the model, the driver's count, the measurement), into buf; false if none.
 */
static bool failed_answer(const struct bench_run *r, char *buf, size_t len)
{
	json_t *list = json_object_get(json_object_get(r->doc, "residency_answers"), "disagreements");
	json_t *e, *v;
	const char *key;
	size_t i;
	int n = 0;
	bool first = true;

	json_array_foreach(list, i, e) {
		if (!json_is_true(json_object_get(e, "fails")))
			continue;
		n = snprintf(buf, len, "%s disagrees with its check at point %lld (%s):", r->row->cmd.name,
			     (long long)json_integer_value(json_object_get(e, "point")),
			     json_string_value(json_object_get(e, "pair")));
		json_object_foreach(e, key, v) {
			if (!json_is_integer(v) || strcmp(key, "point") == 0 || n < 0 || (size_t)n >= len)
				continue;
			n += snprintf(buf + n, len - (size_t)n, "%s %s %lld", first ? "" : ",", key,
				      (long long)json_integer_value(v));
			first = false;
		}
		if (n >= 0 && (size_t)n < len && json_string_value(json_object_get(e, "why")))
			snprintf(buf + n, len - (size_t)n, ": %s", json_string_value(json_object_get(e, "why")));
		return true;
	}
	return false;
}

/* The row's points and its report's verdict, from the harness. */
static void collect(const struct bench_run *r, int report_rc, void *arg)
{
	struct val_check *c = arg;
	const struct bench_point *bad = NULL, *skip = NULL, *ok = NULL;

	for (size_t i = 0; i < r->n_points; i++) {
		const struct bench_point *pt = &r->points[i];
		if ((pt->status == POINT_FAILED || pt->status == POINT_SUSPECT) && !bad)
			bad = pt;
		else if (pt->status == POINT_SKIPPED && !skip)
			skip = pt;
		else if (pt->status == POINT_OK && !ok)
			ok = pt;
	}
	const struct bench_point *pt = bad ? bad : ok ? ok : skip;
	if (pt) {
		c->params = harness_params_json(r, pt);
		json_t *measured = pt->extra ? json_object_get(pt->extra, "measured") : NULL;
		if (measured)
			json_object_set(c->params, "measured", measured);
	}
	if (bad) {
		c->res = VAL_FAIL;
		snprintf(c->reason, sizeof(c->reason), "%s", bad->reason);
	} else if (!ok) {
		c->res = VAL_SKIP;
		snprintf(c->reason, sizeof(c->reason), "%s", skip ? skip->reason : bench_run_skipped(r)
			 ? bench_run_skipped(r) : "no configuration planned");
	} else if (report_rc) {
		c->res = VAL_FAIL;
		if (!failed_answer(r, c->reason, sizeof(c->reason)))
				snprintf(c->reason, sizeof(c->reason), "%s disagrees with its check: the model "
				 "predicts %llu resident work-groups (%s)", r->row->cmd.name,
				 ok->model.resident_wg, ok->model.cu_limiter ? ok->model.cu_limiter
				 : "no limiter");
	} else {
		c->res = VAL_PASS;
		snprintf(c->reason, sizeof(c->reason), "%s", ok->reason);
	}
	c->collected = true;
}

/*
 * Routes stdout to /dev/null and stderr to a log while a row runs. In a child, stderr is
 * already the log its parent reads, so the messages stay there (a crash keeps them).
 */
static void mute(void)
{
	fflush(stdout);
	fflush(stderr);
	if (flight.child) {
		flight.log_from = lseek(STDERR_FILENO, 0, SEEK_CUR);
		return;
	}
	flight.log = tmpfile();
	flight.saved_out = dup(STDOUT_FILENO);
	flight.saved_err = dup(STDERR_FILENO);
	FILE *null = fopen("/dev/null", "w");
	if (null) {
		dup2(fileno(null), STDOUT_FILENO);
		fclose(null);
	}
	if (flight.log)
		dup2(fileno(flight.log), STDERR_FILENO);
}

/* The row's messages into buf (its last line: last); stdout and stderr restored. */
static void unmute(char *buf, size_t len, const char **last)
{
	ssize_t n = 0;

	fflush(stdout);
	fflush(stderr);
	if (flight.child) {
		n = flight.log_from >= 0 ? pread(STDERR_FILENO, buf, len - 1, flight.log_from) : 0;
	} else {
		dup2(flight.saved_out, STDOUT_FILENO);
		dup2(flight.saved_err, STDERR_FILENO);
		close(flight.saved_out);
		close(flight.saved_err);
		flight.saved_out = flight.saved_err = -1;
		if (flight.log) {
			rewind(flight.log);
			n = (ssize_t)fread(buf, 1, len - 1, flight.log);
			fclose(flight.log);
			flight.log = NULL;
		}
	}
	n = n < 0 ? 0 : n;
	buf[n] = '\0';
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	char *nl = strrchr(buf, '\n');
	*last = nl ? nl + 1 : buf;
}

/* A row that ends the process (a usage error on a configuration it refuses) is named. */
static void on_exit_in_row(void)
{
	char buf[8192];
	const char *last;

	if (!flight.c)
		return;
	unmute(buf, sizeof(buf), &last);
	fprintf(stderr, "%s\nbench validate: check %s ended the process inside its row: %s\n",
		flight.child ? "" : buf, flight.c->id, last);
	if (flight.tap)
		printf("Bail out! check %s ended the process: %s\n", flight.c->id, last);
	fflush(stdout);
}

/* The row's arguments: the check's, then the device, --quiet, --validate-only and --kernels. */
static int row_argv(const struct val_ctx *v, const struct val_check *c, char *buf, size_t len,
		    char *dev, size_t dev_len, char **argv)
{
	int argc = 0;

	snprintf(buf, len, "%s", c->args);
	snprintf(dev, dev_len, "%u", v->dev->index);
	argv[argc++] = (char *)c->row->cmd.name;
	for (char *t = strtok(buf, " "); t && argc < VAL_MAX_ARGS; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc++] = "--device";
	argv[argc++] = dev;
	argv[argc++] = "--quiet";
	argv[argc++] = "--validate-only";
	if (v->kernels_dir) {
		argv[argc++] = "--kernels";
		argv[argc++] = (char *)v->kernels_dir;
	}
	argv[argc] = NULL;
	return argc;
}

static int run_row(struct val_ctx *v, struct val_check *c)
{
	char buf[256], dev[16], log[8192];
	char *argv[VAL_MAX_ARGS + 16];
	const char *last;
	int argc = row_argv(v, c, buf, sizeof(buf), dev, sizeof(dev), argv), rc;

	c->collected = false;
	flight.c = c;
	mute();
	bench_set_run_hook(collect, c);
	optind = 0;   /* getopt starts afresh for each row */
	rc = bench_row_main(c->row, argc, argv);
	bench_set_run_hook(NULL, NULL);
	unmute(log, sizeof(log), &last);
	flight.c = NULL;
	if (rc > 128)
		return rc;   /* interrupted: the run stops */
	if (!c->collected) {   /* no points came back: the row's exit code answers */
		c->res = rc == EXIT_OK ? VAL_PASS : rc == EXIT_SKIP ? VAL_SKIP : VAL_FAIL;
		if (rc != EXIT_OK)
			snprintf(c->reason, sizeof(c->reason), "exit %d: %s", rc, last[0] ? last : "(no message)");
	}
	if (c->res == VAL_FAIL && log[0] && !v->o->tap && !flight.child)
		fprintf(stderr, "%s\n", log);
	return 0;
}

/*
 * A residency probe can under-count, never over-count, where the system lends the device's
 * cores elsewhere (CPU devices): a systematic disagreement fails every attempt.
 */
static int run_row_retried(struct val_ctx *v, struct val_check *c)
{
	unsigned attempt = 0;
	int rc;

	do {
		json_decref(c->params);
		c->params = NULL;
		rc = run_row(v, c);
	} while (!rc && c->res == VAL_FAIL && c->collected && attempt++ < c->retries);
	if (c->retries && attempt && !rc)
		snprintf(c->reason + strlen(c->reason), sizeof(c->reason) - strlen(c->reason),
			 "%s(attempt %u of %u)", c->reason[0] ? " " : "",
			 c->res == VAL_FAIL ? attempt : attempt + 1, c->retries + 1);
	return rc;
}

int val_row_run(struct val_ctx *v, struct val_check *c)
{
	static bool registered;
	char err[4096];

	flight.tap = v->o->tap;
	if (!registered) {
		atexit(on_exit_in_row);
		registered = true;
	}
	c->reason[0] = '\0';
	if (c->row)
		return run_row_retried(v, c);
	if (!v->have_pc) {
		if (!prog_ctx_create(&v->pc, v->dev, v->kernels_dir, err, sizeof(err))) {
			c->res = VAL_FAIL;
			snprintf(c->reason, sizeof(c->reason), "driver: %.1800s on '%.200s'", err, v->dev->name);
			return 0;
		}
		v->have_pc = true;
	}
	c->api(v, c);
	cl_clear_last();
	return 0;
}

void val_row_done(struct val_ctx *v)
{
	if (v->have_pc)
		prog_ctx_release(&v->pc);
	v->have_pc = false;
}
