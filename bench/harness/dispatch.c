/*
 * The top of the harness: a command's arguments parsed, then a tool's main, or a row's
 * run on one device or on several. This is the one place that decides which.
 */
#define HARNESS_LAYER HARNESS_LAYER_DISPATCH
#include "dispatch.h"

/* The watchdog's writer of a single run: its points so far, or nothing (the outputs dropped). */
static int single_write_now(struct bench_session *s, struct bench_run *r)
{
	if (!r) {
		bench_outputs_drop();
		return EXIT_OK;
	}
	return bench_outputs_write(s->co, r->doc);
}

/* A row's run on one device: its outputs reserved, the session, the run, the outputs written. */
static int run_single(struct bench_job *j)
{
	struct bench_session s = { .write_now = single_write_now };
	const struct common_opts *co = &j->shared->co;
	json_t *doc = NULL;
	int rc, wrc;
	double t0 = time_now_ns();

	bench_outputs_open(co);
	bench_session_open(&s, co);
	s.open_ns = time_now_ns() - t0;
	rc = bench_run_job(&s, j, &doc);
	wrc = bench_outputs_write(co, doc);
	json_decref(doc);
	bench_session_close(&s);
	return rc != EXIT_OK ? rc : wrc;
}

int bench_row_main(const struct bench_row *row, int argc, char **argv)
{
	struct bench_job j;
	int rc;

	bench_job_parse(&j, &row->cmd, row, argc, argv);
	rc = harness_several(&j.shared->co, row->cmd.flags) ? bench_multi_run(&j) : run_single(&j);
	bench_job_free(&j);
	return rc;
}

int bench_tool_main(const struct bench_tool *tool, int argc, char **argv)
{
	struct bench_job j;
	int rc;

	bench_job_parse(&j, &tool->cmd, NULL, argc, argv);
	if (!(tool->cmd.flags & BENCH_DEVICE) && j.own.co.timeout_s)
		watch_deadline_arm(j.own.co.timeout_s, NULL);
	rc = tool->main(j.opts);
	bench_job_free(&j);
	return rc;
}
