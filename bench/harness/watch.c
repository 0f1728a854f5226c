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
	_Atomic pid_t th_tid;        /* the watchdog's thread id, for the fault handler */
	atomic_bool running;
	struct bench_session *s;
	struct watch_slot slot[BENCH_MAX_DEVICES];
	atomic_int sig;              /* first signal taken, 0: none */
	atomic_bool finishing;       /* the outputs are being written (by whoever set it) */
	atomic_bool stop;
	atomic_int fault;            /* SIGSEGV or SIGBUS taken during a point, 0: none */
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
	if (late && atomic_load(&watch.fault))
		fprintf(stderr, "bench %s: %s during a point (above): the results of the %zu points "
			"completed are written\n", cli_cmd, by, done);
	else if (late)
		fprintf(stderr, "bench %s: a point ran longer than --timeout %u s (a hung kernel cannot be "
			"cancelled): the results of the %zu points completed are written\n", cli_cmd,
			timeout, done);
	else
		fprintf(stderr, "bench %s: interrupted by %s: the results of the %zu points completed "
			"are written\n", cli_cmd, by, done);
	fflush(stderr);
	_exit(code);
}

/* The first run with a point in flight (NULL: none); async-signal-safe (atomic loads only). */
static struct watch_slot *slot_in_flight(void)
{
	for (size_t i = 0; i < BENCH_MAX_DEVICES; i++)
		if (atomic_load(&watch.slot[i].r) && atomic_load(&watch.slot[i].started_ns))
			return &watch.slot[i];
	return NULL;
}

/*
 * SIGSEGV and SIGBUS while a point runs: on a CPU device the kernel runs in the driver's
 * threads inside this process, and a kernel that reaches past its buffer (a --kernels copy that
 * writes 400 MB past the end) faults here, in one of them or in several at once.
 *
 * Not siglongjmp back to the point loop: the fault comes in a driver's worker thread, not on
 * the point loop's stack (a jump across threads is undefined), and a driver whose memory a
 * kernel overwrote cannot be trusted with another point anyway. Not the document written in the
 * handler either: JSON and stdio allocate, which a handler may not do. The handler records the
 * signal and parks the thread that faulted (it never returns to the faulting instruction); the
 * watchdog thread, which already writes a run's points and ends the process for --timeout and
 * a second SIGINT, sees it within 100 ms and does the same from its ordinary context: the
 * points completed written, the point in flight failed naming the signal, exit 1. A fault with
 * no point in flight (bench's own bug), in the watchdog itself (the heap the kernel overwrote),
 * or with no watchdog, is left to the default action (a core dump, 139), as before.
 */
static struct sigaction fault_prev[2];   /* SIGSEGV's and SIGBUS's handler before ours */

static size_t fault_index(int sig)
{
	return sig == SIGBUS;
}

static void on_fault(int sig, siginfo_t *si, void *ctx)
{
	int none = 0;

	(void)si;
	(void)ctx;
	if (!atomic_load(&watch.running) || gettid() == atomic_load(&watch.th_tid) || !slot_in_flight()) {
		/* not ours: the handler before ours (a driver's compiler's crash report) or the
		 * default action takes it when the faulting instruction runs again */
		struct sigaction dfl = { .sa_handler = SIG_DFL };
		const struct sigaction *prev = &fault_prev[fault_index(sig)];
		bool chained = (prev->sa_flags & SA_SIGINFO) ? prev->sa_sigaction != NULL
			       : prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN;
		sigaction(sig, chained ? prev : &dfl, NULL);
		return;
	}
	atomic_compare_exchange_strong(&watch.fault, &none, sig);
	for (;;)
		pause();
}

/*
 * Ours the handlers of SIGSEGV and SIGBUS, on the alternate stack where a thread has one; at
 * every point's start, since a driver may install its own when it first compiles (Intel's CPU
 * runtime installs two, LLVM's crash reports, with SA_RESETHAND: while they hold, a fault in
 * two driver threads at once meets the default action in the second, exit 139). The handler
 * found is kept and handed back a fault that is not a point's.
 */
static void fault_handlers(void)
{
	struct sigaction sa = { .sa_sigaction = on_fault, .sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER };
	const int sigs[] = { SIGSEGV, SIGBUS };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction cur;
		if (sigaction(sigs[i], NULL, &cur) != 0 ||
		    ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_fault))
			continue;
		fault_prev[fault_index(sigs[i])] = cur;
		sigaction(sigs[i], &sa, NULL);
	}
}

const char *watch_fault_name(int sig)
{
	return sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : NULL;
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
	atomic_store(&watch.th_tid, gettid());
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
		int fault = atomic_load(&watch.fault);
		if (fault && !atomic_exchange(&watch.finishing, true)) {
			struct watch_slot *in = slot_in_flight();
			abandon(in, watch_fault_name(fault), EXIT_FAIL);
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
	atomic_store(&watch.running, pthread_create(&watch.th, NULL, watch_main, NULL) == 0);
	fault_handlers();
}

void watch_stop(void)
{
	atomic_store(&watch.stop, true);
	if (atomic_load(&watch.running))
		pthread_join(watch.th, NULL);
	atomic_store(&watch.running, false);
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
	fault_handlers();
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
