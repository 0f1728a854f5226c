/*
 * bench validate's run: the selected checks in turn, each in a child process (or, with the
 * hidden --in-process, in this one), its verdict from the expectations, an unexpected result
 * run again (--flake-runs) before it counts, and every output that grows with the run written as
 * each check ends: TAP and GoogleTest's lines on stdout, results.csv and failures.csv.
 */
#include "validate.h"

#include <string.h>
#include <unistd.h>

static void progress(const struct val_ctx *v, size_t i)
{
	if (!isatty(STDERR_FILENO) || v->o->tap || v->o->gtest)
		return;
	if (i < v->n)
		fprintf(stderr, "\r\033[K[%zu/%zu] validate %s", i + 1, v->n, v->c[i].id);
	else
		fprintf(stderr, "\r\033[K");
	fflush(stderr);
}

/* One run of c, in a child or here: its status, reason, params and seconds; 0 or a signal. */
static int attempt(struct val_ctx *v, struct val_check *c)
{
	double t0 = time_now_ns();
	int sig;

	json_decref(c->params);
	c->params = NULL;
	c->reason[0] = '\0';
	c->collected = false;
	if (v->o->in_process) {
		sig = val_row_run(v, c);
		sig = sig > 128 ? sig - 128 : 0;
	} else {
		sig = val_child_run(v, c, v->o->check_timeout);
	}
	c->secs = (time_now_ns() - t0) / 1e9;
	c->runs++;
	return sig;
}

/*
 * deqp-runner's rule: an unexpected result is run again; one that a re-run does not repeat is
 * a flake (the run goes on as if it had passed), one that every re-run repeats counts.
 */
static int rerun(struct val_ctx *v, struct val_check *c)
{
	struct val_check again = *c;
	int sig = 0;

	again.params = NULL;
	for (unsigned r = 1; r <= v->o->flake_runs && !sig; r++) {
		sig = attempt(v, &again);
		c->runs = again.runs;
		if (!sig && !val_unexpected(val_judge(&again))) {
			c->verdict = VAL_V_FLAKE;
			size_t n = strlen(c->reason);
			snprintf(c->reason + n, sizeof(c->reason) - n, "%s%s first; %s on re-run %u of %u",
				 n ? "; " : "", val_res_name(c->res), val_res_name(again.res), r,
				 v->o->flake_runs);
			break;
		}
	}
	json_decref(again.params);
	return sig;
}

/* Runs c to its verdict; 0, or the signal that stopped it (c then did not end). */
static int run_one(struct val_ctx *v, struct val_check *c)
{
	int sig;

	c->runs = 0;
	val_expect_find(v, c);
	if (c->skip_re) {   /* --skips: never run */
		c->res = VAL_SKIP;
		snprintf(c->reason, sizeof(c->reason), "--skips %s names it (%s)", v->skips.path, c->skip_re);
		c->verdict = VAL_V_SKIP;
		return 0;
	}
	if ((sig = attempt(v, c)))
		return sig;
	if (c->res == VAL_SKIP || c->res == VAL_MISSING)   /* no known issue's: skipped, no result */
		c->known = NULL;
	c->verdict = val_judge(c);
	if (c->known)
		((struct val_known *)c->known)->matched++;
	/* a Missing is neither a flake nor run again: deqp-runner's rule (expect.c, val_judge) */
	if (!val_unexpected(c->verdict) || c->verdict == VAL_V_MISSING)
		return 0;
	if (c->flake_re) {
		c->verdict = VAL_V_KNOWN_FLAKE;
		return 0;
	}
	return rerun(v, c);
}

int val_run(struct val_ctx *v)
{
	FILE *out = stdout;
	bool gtest = v->o->gtest;
	char err[1024];
	int sig = 0;

	if (v->o->tap)
		val_tap_begin(v, v->n, out);
	if (gtest)
		val_gtest_begin(v, out);
	for (size_t i = 0; i < v->n && !sig; i++) {
		struct val_check *c = &v->c[i];
		char what[200];
		snprintf(what, sizeof(what), "check %s", c->id);
		watch_deadline_arm(0, what);   /* --timeout: each check its own (--check-timeout: below) */
		progress(v, i);
		if (gtest)
			val_gtest_run(v, i, out);
		if (!v->o->in_process && (sig = val_child_pending_signal()))
			break;
		if ((sig = run_one(v, c)))
			break;
		c->done = true;
		if (v->o->tap)
			val_tap_check(v, c, i, out);
		if (gtest)
			val_gtest_end(v, i, out);
		if (!v->write_failed && !val_results_write(v, false, err, sizeof(err))) {
			fprintf(stderr, "bench validate: %s\n", err);
			v->write_failed = true;
		}
	}
	progress(v, v->n);
	watch_deadline_arm(0, NULL);   /* what is written now is the command's, not a check's */
	v->interrupted = sig;
	if (sig && v->o->tap)
		fprintf(out, "Bail out! interrupted by %s\n", watch_sig_name(sig));
	return sig;
}
