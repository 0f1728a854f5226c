/* Interrupts and hung kernels: the watchdog thread of a run. */
#include "harness_int.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


/*
 * SIGINT and SIGTERM are blocked in every thread (the drivers' too, which inherit the
 * mask) and taken by the watchdog with sigtimedwait, so no handler runs inside a
 * driver. A first signal lets the point in flight finish (for at most GRACE_S), then
 * the run writes what it measured, marked interrupted; a second signal, or a point
 * past --timeout (an OpenCL kernel cannot be cancelled), ends the process from the
 * watchdog after writing the points completed so far.
 */
#define GRACE_S 5

static struct {
	pthread_t th;
	bool running;
	struct bench_session *s;
	_Atomic(struct bench_run *) r;   /* the run in flight, NULL: none */
	atomic_int sig;              /* first signal taken, 0: none */
	atomic_size_t done;          /* points completed */
	atomic_llong started_ns;     /* start of the point in flight, 0: none */
	atomic_bool finishing;       /* the outputs are being written (by whoever set it) */
	atomic_bool stop;
} watch;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

int watch_exit_code(int sig)
{
	return 128 + sig;
}

const char *watch_sig_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : "SIGTERM";
}


/* Marks the document interrupted: by what, and how far the run came. */
void harness_mark_interrupted(struct bench_run *r, const char *by, size_t done)
{
	json_t *o = json_object();

	json_object_set_new(o, "by", json_string(by));
	json_object_set_new(o, "points_done", json_integer((json_int_t)done));
	json_object_set_new(o, "points_planned", json_integer((json_int_t)r->n_points));
	json_object_set_new(r->doc, "interrupted", o);
}


/* The session's writer, or the harness's own outputs (a single benchmark's run). */
static int write_now(struct bench_session *s, struct bench_run *r)
{
	if (s->write_now)
		return s->write_now(s, r);
	if (!r) {
		harness_drop_outputs();
		return EXIT_OK;
	}
	return bench_outputs_write(r->co, r->doc);
}

/* From the watchdog: writes the points completed (and a timed-out one), then ends the process. */
static noreturn void abandon(struct bench_run *r, const char *by, int code, bool timed_out)
{
	size_t done = atomic_load(&watch.done);
	unsigned timeout = r ? r->co->timeout_s : 0;
	bool have = r && r->doc && r->points;

	if (have) {
		size_t n = done;
		if (timed_out && done < r->n_points) {
			struct bench_point *pt = &r->points[done];
			pt->status = POINT_FAILED;
			pt->n = 0;
			snprintf(pt->reason, sizeof(pt->reason), "timed out after %u s", timeout);
			n++;
		}
		for (size_t i = 0; i < n; i++)
			res_doc_add_point(r->doc, harness_point_json(r, &r->points[i]));
		harness_mark_interrupted(r, by, done);
		if (!r->co->quiet && r->cols)
			harness_print_table(r, n);
	}
	write_now(watch.s, have ? r : NULL);
	fflush(stdout);
	if (timed_out)
		fprintf(stderr, "bench %s: a point ran longer than --timeout %u s (a hung kernel cannot be "
			"cancelled): the results of the %zu points completed are written\n", cli_cmd,
			timeout, done);
	else
		fprintf(stderr, "bench %s: interrupted by %s: the results of the %zu points completed "
			"are written\n", cli_cmd, by, done);
	fflush(stderr);
	_exit(code);
}

static void *watch_main(void *arg)
{
	sigset_t set;
	long long sig_at = 0;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	while (!atomic_load(&watch.stop)) {
		struct timespec ts = { 0, 100000000 };
		int s = sigtimedwait(&set, NULL, &ts);
		struct bench_run *r = atomic_load(&watch.r);
		long long start = atomic_load(&watch.started_ns), t = now_ns();
		if (s > 0) {
			int first = 0;
			if (!atomic_compare_exchange_strong(&watch.sig, &first, s)) {
				/* a second signal: stop now */
				if (atomic_exchange(&watch.finishing, true)) {
					res_out_abort_all_signal();   /* the main thread was writing */
					_exit(watch_exit_code(first));
				}
				abandon(r, watch_sig_name(first), watch_exit_code(first), false);
			}
			sig_at = t;
			fprintf(stderr, "\nbench %s: %s: finishing the point in flight (again to stop now)\n",
				cli_cmd, watch_sig_name(s));
		}
		bool grace = sig_at && t - sig_at > GRACE_S * 1000000000ll;
		bool late = r && r->co->timeout_s && start &&
			    t - start > (long long)r->co->timeout_s * 1000000000ll;
		if ((grace || late) && !atomic_exchange(&watch.finishing, true)) {
			int sig = atomic_load(&watch.sig);
			abandon(r, late ? "timeout" : watch_sig_name(sig),
				late ? EXIT_FAIL : watch_exit_code(sig), late);
		}
	}
	return NULL;
}

void watch_start(struct bench_session *s)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	watch.s = s;
	atomic_store(&watch.r, NULL);
	/* a process may run several sessions one after another (bench validate); a signal stays */
	atomic_store(&watch.done, 0);
	atomic_store(&watch.started_ns, 0);
	atomic_store(&watch.finishing, false);
	atomic_store(&watch.stop, false);
	watch.running = pthread_create(&watch.th, NULL, watch_main, NULL) == 0;
}

void watch_stop(void)
{
	atomic_store(&watch.stop, true);
	if (watch.running)
		pthread_join(watch.th, NULL);
	watch.running = false;
}

void watch_run(struct bench_run *r)
{
	atomic_store(&watch.started_ns, 0);
	atomic_store(&watch.done, 0);
	atomic_store(&watch.r, r);
}

/* Whether the main thread may write the outputs (false: the watchdog is, and will exit). */
bool watch_claim_finish(void)
{
	if (!atomic_exchange(&watch.finishing, true))
		return true;
	for (;;)
		pause();
}

bool watch_release_finish(void)
{
	if (atomic_load(&watch.sig))
		return false;
	atomic_store(&watch.finishing, false);
	return true;
}

int watch_signal(void)
{
	return atomic_load(&watch.sig);
}

void watch_point_start(void)
{
	atomic_store(&watch.started_ns, now_ns());
}

void watch_point_done(size_t done)
{
	atomic_store(&watch.started_ns, 0);
	atomic_store(&watch.done, done);
}
