/* Interrupts and hung kernels: the watchdog thread of a run. */
#define HARNESS_LAYER HARNESS_LAYER_JOB
#include "job.h"

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

/* A run in flight: several at once where devices are measured together (--concurrent). */
struct watch_slot {
	_Atomic(struct bench_run *) r;   /* NULL: free */
	atomic_size_t done;              /* points completed */
	atomic_llong started_ns;         /* start of the point in flight, 0: none */
	unsigned timeout_s;              /* its --timeout, 0: none (set before r) */
	watch_abandon_fn abandon;        /* writes its points when the process must end */
};

static struct {
	pthread_t th;
	bool running;
	struct bench_session *s;
	struct watch_slot slot[BENCH_MAX_DEVICES];
	atomic_int sig;              /* first signal taken, 0: none */
	atomic_bool finishing;       /* the outputs are being written (by whoever set it) */
	atomic_bool stop;
} watch;

/* The main thread holds the claim to write the outputs (watch_claim_finish). */
static _Thread_local bool claimed;

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


/*
 * From the watchdog: writes the points completed of every run in flight (and the point of
 * `late` that ran past --timeout), then ends the process.
 */
static noreturn void abandon(struct watch_slot *late, const char *by, int code)
{
	struct bench_run *first = NULL;
	bool first_writable = false;
	size_t done = 0;
	unsigned timeout = 0;

	for (size_t i = 0; i < BENCH_MAX_DEVICES; i++) {
		struct watch_slot *sl = &watch.slot[i];
		struct bench_run *r = atomic_load(&sl->r);
		if (!r)
			continue;
		if (sl == late)
			timeout = sl->timeout_s;
		done += atomic_load(&sl->done);
		bool writable = sl->abandon(r, atomic_load(&sl->done), by, sl == late);
		if (!first) {
			first = r;
			first_writable = writable;
		}
	}
	watch.s->write_now(watch.s, first_writable ? first : NULL);
	fflush(stdout);
	if (late)
		fprintf(stderr, "bench %s: a point ran longer than --timeout %u s (a hung kernel cannot be "
			"cancelled): the results of the %zu points completed are written\n", cli_cmd,
			timeout, done);
	else
		fprintf(stderr, "bench %s: interrupted by %s: the results of the %zu points completed "
			"are written\n", cli_cmd, by, done);
	fflush(stderr);
	_exit(code);
}

/* A run whose point in flight has run past --timeout at t (NULL: none). */
static struct watch_slot *late_slot(long long t)
{
	for (size_t i = 0; i < BENCH_MAX_DEVICES; i++) {
		struct watch_slot *sl = &watch.slot[i];
		struct bench_run *r = atomic_load(&sl->r);
		long long start = atomic_load(&sl->started_ns);
		if (r && sl->timeout_s && start && t - start > (long long)sl->timeout_s * 1000000000ll)
			return sl;
	}
	return NULL;
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
		long long t = now_ns();
		if (s > 0) {
			int first = 0;
			if (!atomic_compare_exchange_strong(&watch.sig, &first, s)) {
				/* a second signal: stop now */
				if (atomic_exchange(&watch.finishing, true)) {
					outf_abort_all_signal();   /* the main thread was writing */
					_exit(watch_exit_code(first));
				}
				abandon(NULL, watch_sig_name(first), watch_exit_code(first));
			}
			sig_at = t;
			fprintf(stderr, "\nbench %s: %s: finishing the point in flight (again to stop now)\n",
				cli_cmd, watch_sig_name(s));
		}
		bool grace = sig_at && t - sig_at > GRACE_S * 1000000000ll;
		struct watch_slot *late = late_slot(t);
		if ((grace || late) && !atomic_exchange(&watch.finishing, true)) {
			int sig = atomic_load(&watch.sig);
			abandon(late, late ? "timeout" : watch_sig_name(sig),
				late ? EXIT_FAIL : watch_exit_code(sig));
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
	/* a process may run several sessions one after another (bench validate); a signal stays */
	for (size_t i = 0; i < BENCH_MAX_DEVICES; i++) {
		atomic_store(&watch.slot[i].r, NULL);
		atomic_store(&watch.slot[i].done, 0);
		atomic_store(&watch.slot[i].started_ns, 0);
	}
	atomic_store(&watch.finishing, false);
	claimed = false;
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

void watch_run_add(struct bench_run *r, unsigned timeout_s, watch_abandon_fn abandon)
{
	for (unsigned i = 0; i < BENCH_MAX_DEVICES; i++) {
		struct watch_slot *sl = &watch.slot[i];
		struct bench_run *none = NULL;
		/* a free slot's counts are 0 (watch_start, watch_run_remove) */
		if (atomic_load(&sl->r))
			continue;
		sl->timeout_s = timeout_s;
		sl->abandon = abandon;
		if (atomic_compare_exchange_strong(&sl->r, &none, r)) {
			r->h->watch_slot = i;
			return;
		}
	}
	cli_die(EXIT_FAIL, "bench bug: more than %d runs in flight", BENCH_MAX_DEVICES);
}

void watch_run_remove(struct bench_run *r)
{
	struct watch_slot *sl = &watch.slot[r->h->watch_slot];

	atomic_store(&sl->r, NULL);
	atomic_store(&sl->started_ns, 0);
	atomic_store(&sl->done, 0);
}

/* Whether the main thread may write the outputs (false: the watchdog is, and will exit). */
bool watch_claim_finish(void)
{
	if (claimed || !atomic_exchange(&watch.finishing, true))
		return claimed = true;
	for (;;)
		pause();
}

bool watch_release_finish(void)
{
	if (atomic_load(&watch.sig))
		return false;
	claimed = false;
	atomic_store(&watch.finishing, false);
	return true;
}

int watch_signal(void)
{
	return atomic_load(&watch.sig);
}

void watch_point_start(struct bench_run *r)
{
	atomic_store(&watch.slot[r->h->watch_slot].started_ns, now_ns());
}

void watch_point_done(struct bench_run *r, size_t done)
{
	atomic_store(&watch.slot[r->h->watch_slot].started_ns, 0);
	atomic_store(&watch.slot[r->h->watch_slot].done, done);
}

/* ---- a tool's --timeout ---- */

/*
 * The clock of a tool's --timeout: a thread that waits for the deadline and, once it passes,
 * ends the process (exit 1) after removing what the outputs reserved. A hung driver call or a
 * FIFO that never fills cannot be cancelled from inside; the message goes to the standard
 * error the process started with (bench validate routes fd 2 to a log while a row runs).
 */
static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool running;
	unsigned seconds;
	long long due_ns;          /* 0: not armed */
	char what[200];            /* what runs now ("" : the command) */
	int err_fd;
} deadline = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, 0, 0, "", -1 };

static noreturn void deadline_expired(void)
{
	char msg[512];
	int n = snprintf(msg, sizeof(msg), "bench %s: %s%sstill running after --timeout %u s (a hung "
			 "driver or an input that never ends cannot be cancelled): stopped, what it "
			 "would have written is not\n", cli_cmd, deadline.what, deadline.what[0] ? " " : "",
			 deadline.seconds);

	outf_abort_all_signal();
	if (n > 0 && write(deadline.err_fd, msg, (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1) < 0)
		_exit(EXIT_FAIL);   /* stderr gone: the exit code says it */
	_exit(EXIT_FAIL);
}

static void *deadline_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&deadline.mu);
	for (;;) {
		long long due = deadline.due_ns;
		if (!due) {
			pthread_cond_wait(&deadline.cv, &deadline.mu);
			continue;
		}
		if (now_ns() >= due)
			deadline_expired();
		struct timespec ts = { (time_t)(due / 1000000000ll), (long)(due % 1000000000ll) };
		pthread_cond_timedwait(&deadline.cv, &deadline.mu, &ts);
	}
	return NULL;
}

void watch_deadline_arm(unsigned seconds, const char *what)
{
	pthread_condattr_t ca;
	pthread_t th;

	pthread_mutex_lock(&deadline.mu);
	if (!deadline.running && seconds) {
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_destroy(&deadline.cv);
		pthread_cond_init(&deadline.cv, &ca);
		deadline.err_fd = dup(STDERR_FILENO);
		deadline.running = pthread_create(&th, NULL, deadline_main, NULL) == 0;
		if (deadline.running)
			pthread_detach(th);
	}
	if (seconds)
		deadline.seconds = seconds;
	snprintf(deadline.what, sizeof(deadline.what), "%s", what ? what : "");
	deadline.due_ns = deadline.seconds ? now_ns() + (long long)deadline.seconds * 1000000000ll : 0;
	pthread_cond_signal(&deadline.cv);
	pthread_mutex_unlock(&deadline.mu);
}

unsigned watch_deadline_seconds(void)
{
	return deadline.seconds;
}
