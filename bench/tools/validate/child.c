/*
 * bench validate's isolation: the checks run in child processes, this program again
 * (/proc/self/exe validate --device N --run-check PID), each child in a process group of its
 * own. A child is a worker: it reads check names on its stdin, one a line, runs each and writes
 * its result, one JSON line, on descriptor 3 (a pipe); its stdout and stderr go to a memory file
 * the parent reads, each check's part told apart by the file's size. The parent gives a worker
 * one check at a time, with a time limit: a worker that dies of a signal is a crash of the check
 * in flight (the signal's name and the check's last lines), one that runs past --check-timeout is
 * killed with its whole process group; either way the next check gets a new worker. A worker is
 * replaced after any result but a pass or a skip (a driver left in a bad state fails no later
 * check, and a re-run finds a fresh process) and after --checks-per-process checks.
 *
 * A worker says "begin ID" on descriptor 3 as it begins a check. One that ends (or hangs) before
 * it began the check has given no result: a new worker then gets the check again, where the one
 * lost had run earlier checks; a new worker lost before it began it leaves the check Missing,
 * deqp-runner's status of a test whose run yielded no result (expect.c, val_judge). A worker lost
 * during the check is its Crash (or Timeout), as deqp-runner makes the test in progress.
 *
 * A new process rather than fork(): the parent has loaded the driver to plan the checks, and a
 * forked copy of a process with a driver's threads has lost them. Under ocl-icd a worker loads
 * the driver under test alone (OCL_ICD_VENDORS names its library), not every driver registered:
 * its device is then the platform's own index.
 *
 * The parent blocks SIGINT, SIGTERM and SIGCHLD before any driver thread exists and reads SIGINT
 * and SIGTERM from a signalfd while a check runs: either stops the worker's group (SIGTERM, then
 * SIGKILL after a grace period) and the run. A worker dies with its parent (PR_SET_PDEATHSIG).
 */
#include "icd.h"
#include "validate.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RESULT_FD 3
#define GRACE_S 2.0           /* s: from SIGTERM (or the end of its input) to SIGKILL of a worker */
#define TAIL_BYTES 65536      /* the end of a check's output that is read back */
#define TAIL_LINES 12         /* lines of it a crash or a hang quotes */
#define LINE_MAX_BYTES 262144 /* one result line */
#define BEGIN "begin "        /* a worker's line as it begins a check: "begin ID" */

extern char **environ;

/* The parent's side: the environment and device of workers, the worker alive, the signals. */
struct val_children {
	char **env;              /* with ocl-icd: OCL_ICD_VENDORS naming the driver under test */
	char device[16];         /* the workers' --device */
	int sigfd;               /* SIGINT and SIGTERM */
	pid_t pid;               /* the worker (0: none) */
	int in, res, log;        /* its stdin, its results, its output */
	unsigned served;         /* checks it ran */
	bool begun;              /* it began the check in flight */
	char *line;              /* what it wrote on descriptor 3 and was not read yet */
	size_t len;
};

enum wait_end { GOT_LINE, WORKER_ENDED, TIMED_OUT, SIGNALLED };

static sigset_t run_signals(bool with_chld)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	if (with_chld)
		sigaddset(&s, SIGCHLD);
	return s;
}

void val_child_block_signals(void)
{
	sigset_t s = run_signals(true);

	pthread_sigmask(SIG_BLOCK, &s, NULL);
	signal(SIGPIPE, SIG_IGN);   /* a worker that died leaves a closed stdin: EPIPE, not death */
}

int val_child_pending_signal(void)
{
	sigset_t s = run_signals(false);
	struct timespec zero = { 0, 0 };
	int sig = sigtimedwait(&s, NULL, &zero);

	return sig > 0 ? sig : 0;
}

/* ---- workers ---- */

/* A descriptor above the standard ones and 3 (which a worker is given). */
static int high_fd(int fd, const char *what)
{
	int high = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 10) : -1;

	if (high < 0)
		cli_die(EXIT_FAIL, "cannot make %s for a check's process: %s", what, strerror(errno));
	close(fd);
	return high;
}

/* The environment and --device of every worker (see the top of this file). */
static struct val_children *children_setup(const struct val_ctx *v)
{
	struct val_children *k = bench_alloc(sizeof(*k));
	char lib[4096];
	size_t n = 0, j = 0;
	sigset_t s = run_signals(false);

	memset(k, 0, sizeof(*k));
	k->sigfd = high_fd(signalfd(-1, &s, SFD_CLOEXEC), "a signal descriptor");
	k->line = bench_alloc(LINE_MAX_BYTES);
	snprintf(k->device, sizeof(k->device), "%u", v->dev->index);
	k->env = environ;
	if (!icd_driver_file(v->dev->platform, lib, sizeof(lib)))
		return k;
	while (environ[n])
		n++;
	k->env = bench_alloc((n + 2) * sizeof(char *));
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "OCL_ICD_VENDORS=", 16) != 0)
			k->env[j++] = environ[i];
	if (asprintf(&k->env[j++], "OCL_ICD_VENDORS=%s", lib) < 0)
		cli_die(EXIT_FAIL, "out of host memory");
	k->env[j] = NULL;
	snprintf(k->device, sizeof(k->device), "%u", v->dev->device_index);
	return k;
}

static void spawn_actions(posix_spawn_file_actions_t *fa, posix_spawnattr_t *at, int in, int out,
			  int res)
{
	sigset_t none, dflt = run_signals(true);

	posix_spawn_file_actions_init(fa);
	posix_spawn_file_actions_adddup2(fa, in, STDIN_FILENO);
	posix_spawn_file_actions_adddup2(fa, out, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(fa, out, STDERR_FILENO);
	posix_spawn_file_actions_adddup2(fa, res, RESULT_FD);
	posix_spawnattr_init(at);
	posix_spawnattr_setflags(at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setpgroup(at, 0);
	sigemptyset(&none);
	posix_spawnattr_setsigmask(at, &none);
	sigaddset(&dflt, SIGPIPE);
	posix_spawnattr_setsigdefault(at, &dflt);
}

static void worker_start(const struct val_ctx *v, struct val_children *k)
{
	char parent[24];
	const char *argv[10];
	int argc = 0, in[2], res[2], err;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;

	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(res, O_CLOEXEC) != 0)
		cli_die(EXIT_FAIL, "cannot make a pipe for a check's process: %s", strerror(errno));
	k->log = high_fd(memfd_create("bench-validate-log", MFD_CLOEXEC), "a memory file");
	in[0] = high_fd(in[0], "a pipe");
	res[1] = high_fd(res[1], "a pipe");
	snprintf(parent, sizeof(parent), "%ld", (long)getpid());
	argv[argc++] = cli_argv && cli_argv[0] ? cli_argv[0] : "bench";
	argv[argc++] = "validate";
	argv[argc++] = "--device";
	argv[argc++] = k->device;
	argv[argc++] = "--run-check";
	argv[argc++] = parent;
	if (v->kernels_dir) {
		argv[argc++] = "--kernels";
		argv[argc++] = v->kernels_dir;
	}
	argv[argc] = NULL;
	spawn_actions(&fa, &at, in[0], k->log, res[1]);
	err = posix_spawn(&k->pid, "/proc/self/exe", &fa, &at, (char *const *)argv, k->env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (err)
		cli_die(EXIT_FAIL, "cannot start a process for the checks: %s", strerror(err));
	close(in[0]);
	close(res[1]);
	k->in = in[1];
	k->res = res[0];
	k->served = 0;
	k->len = 0;
}

/* The next line on the worker's descriptor 3, or why there is none before deadline (ns). */
static enum wait_end wait_line(struct val_children *k, double deadline, int *sig)
{
	for (;;) {
		char *nl = memchr(k->line, '\n', k->len);
		if (nl && nl - k->line >= (ptrdiff_t)strlen(BEGIN) &&
		    memcmp(k->line, BEGIN, strlen(BEGIN)) == 0) {
			k->begun = true;
			k->len -= (size_t)(nl + 1 - k->line);
			memmove(k->line, nl + 1, k->len);
			continue;
		}
		if (nl)
			return GOT_LINE;
		double left = deadline - time_now_ns();
		if (left <= 0)
			return TIMED_OUT;
		struct pollfd p[2] = { { k->res, POLLIN, 0 }, { k->sigfd, POLLIN, 0 } };
		if (poll(p, 2, (int)(left / 1e6) + 1) < 0 && errno != EINTR)
			cli_die(EXIT_FAIL, "waiting for a check: %s", strerror(errno));
		struct signalfd_siginfo si;
		if ((p[1].revents & POLLIN) && read(k->sigfd, &si, sizeof(si)) == sizeof(si)) {
			*sig = (int)si.ssi_signo;
			return SIGNALLED;
		}
		if (!(p[0].revents & (POLLIN | POLLHUP)))
			continue;
		if (k->len + 1 >= LINE_MAX_BYTES)
			k->len = 0;   /* no result is this long: start afresh, the check then fails */
		ssize_t n = read(k->res, k->line + k->len, LINE_MAX_BYTES - 1 - k->len);
		if (n == 0)
			return WORKER_ENDED;
		if (n > 0)
			k->len += (size_t)n;
	}
}

/*
 * Ends the worker: its input closed (an idle worker then exits), SIGTERM to its group first for
 * a check in flight, or SIGKILL at once; SIGKILL to what is left of its group either way (after
 * the grace period, or at a second signal). Its wait status in *status.
 */
enum stop_how { STOP_IDLE, STOP_TERM, STOP_KILL };

static void worker_stop(struct val_children *k, enum stop_how how, int *status)
{
	int sig;

	if (k->pid <= 0)
		return;
	close(k->in);
	if (how == STOP_TERM)
		kill(-k->pid, SIGTERM);
	if (how != STOP_KILL)
		while (wait_line(k, time_now_ns() + GRACE_S * 1e9, &sig) == GOT_LINE)
			k->len = 0;
	kill(-k->pid, SIGKILL);
	while (waitpid(k->pid, status, 0) < 0 && errno == EINTR)
		;
	close(k->res);
	close(k->log);
	k->pid = 0;
}

void val_child_done(struct val_ctx *v)
{
	struct val_children *k = v->children;
	int status;

	if (!k)
		return;
	worker_stop(k, STOP_IDLE, &status);
	if (k->env != environ) {
		size_t j = 0;
		while (k->env[j + 1])
			j++;
		free(k->env[j]);   /* the one string made here, last */
		free(k->env);
	}
	close(k->sigfd);
	free(k->line);
	free(k);
	v->children = NULL;
}

/* ---- one check ---- */

/* The check's part of the worker's output (from byte from on), its last len - 1 bytes at most. */
static void read_log(int fd, off_t from, char *buf, size_t len)
{
	struct stat st;
	off_t size = fstat(fd, &st) == 0 ? st.st_size : 0;

	if (size - from > (off_t)len - 1)
		from = size - (off_t)len + 1;
	ssize_t n = size > from ? pread(fd, buf, (size_t)(size - from), from) : 0;
	buf[n > 0 ? n : 0] = '\0';
}

/* The last lines of a check's output on one line, " | " between them. */
static void last_lines(const char *log, char *buf, size_t len)
{
	const char *p = log + strlen(log);
	unsigned lines = 0;
	size_t k = 0;

	while (p > log && (p[-1] == '\n' || p[-1] == ' '))
		p--;
	const char *end = p;
	while (p > log && lines < TAIL_LINES)
		if (*--p == '\n')
			lines++;
	if (*p == '\n')
		p++;
	for (; p < end && k + 4 < len; p++)
		if (*p == '\n') {
			memcpy(buf + k, " | ", 3);
			k += 3;
		} else {
			buf[k++] = *p;
		}
	buf[k] = '\0';
	if (!k)
		snprintf(buf, len, "(no output)");
}

static const char *sig_name(int sig, char *buf, size_t len)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, len, "SIG%s", abbrev);
	else
		snprintf(buf, len, "signal %d", sig);
	return buf;
}

/* Takes the worker's line: the check's result (false where it does not read as one). */
static bool take_result(const struct val_ctx *v, struct val_children *k, struct val_check *c)
{
	char *nl = memchr(k->line, '\n', k->len);
	json_error_t je;
	json_t *r = json_loadb(k->line, (size_t)(nl - k->line), 0, &je), *params = json_object_get(r, "params");
	const char *id = json_string_value(json_object_get(r, "id"));
	const char *res = json_string_value(json_object_get(r, "res"));
	const char *reason = json_string_value(json_object_get(r, "reason"));
	const char *dev = json_string_value(json_object_get(r, "device"));
	bool ok = r && id && res && reason && strcmp(id, c->id) == 0;

	k->len -= (size_t)(nl + 1 - k->line);
	memmove(k->line, nl + 1, k->len);
	c->res = VAL_FAIL;
	for (int i = VAL_PASS; ok && i <= VAL_TIMEOUT; i++)
		if (strcmp(res, val_res_name((enum val_res)i)) == 0)
			c->res = (enum val_res)i;
	if (ok) {
		snprintf(c->reason, sizeof(c->reason), "%s", reason);
		c->collected = json_is_true(json_object_get(r, "collected"));
		c->params = json_is_object(params) ? json_incref(params) : NULL;
	} else {
		snprintf(c->reason, sizeof(c->reason), "bench bug: the check's process wrote no result of "
			 "check %s that reads", c->id);
	}
	if (ok && (!dev || strcmp(dev, v->dev->name) != 0)) {
		c->res = VAL_FAIL;
		snprintf(c->reason, sizeof(c->reason), "bench bug: the check's process ran on '%.200s', not "
			 "on '%.200s'", dev ? dev : "?", v->dev->name);
	}
	json_decref(r);
	return ok;
}

/* What a worker's end says of the check in flight, with its last lines. */
static void judge_end(struct val_check *c, int status, const char *log)
{
	char tail[1600], name[32];
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;

	last_lines(log, tail, sizeof(tail));
	if (WIFSIGNALED(status)) {
		c->res = VAL_CRASH;
		snprintf(c->reason, sizeof(c->reason), "%s: the check's process died; its last output: %s",
			 sig_name(WTERMSIG(status), name, sizeof(name)), tail);
		return;
	}
	c->res = code == EXIT_SKIP ? VAL_SKIP : VAL_FAIL;
	snprintf(c->reason, sizeof(c->reason), "%s %d with no result: %s",
		 code == EXIT_OK ? "bench bug: the check's process exited" : "exit", code, tail);
}

/* What a worker lost before it began check c says: no result, Missing, with its last lines. */
static void judge_missing(struct val_check *c, enum wait_end end, int status, const char *log,
			  unsigned timeout_s)
{
	char tail[1600], name[32];

	last_lines(log, tail, sizeof(tail));
	c->res = VAL_MISSING;
	if (end == TIMED_OUT)
		snprintf(c->reason, sizeof(c->reason), "no result: its process began no check within %u s "
			 "(--check-timeout) and was killed; its last output: %s", timeout_s, tail);
	else if (WIFSIGNALED(status))
		snprintf(c->reason, sizeof(c->reason), "no result: its process died of %s before it "
			 "began the check; its last output: %s",
			 sig_name(WTERMSIG(status), name, sizeof(name)), tail);
	else
		snprintf(c->reason, sizeof(c->reason), "no result: its process exited %d before it began "
			 "the check; its last output: %s", WIFEXITED(status) ? WEXITSTATUS(status) : -1,
			 tail);
}

/*
 * A check that has run for half its --check-timeout (at most 10 s): one line on stderr saying
 * that bench waits for it and when it gives up (the clock time, UTC), and what happens then, so
 * that a hung check is never a silent wait of minutes. The first wait ends at that point, the
 * second at the deadline; a line half read is kept across both.
 */
static enum wait_end wait_noticed(const struct val_ctx *v, struct val_children *k,
				  const struct val_check *c, unsigned timeout_s, int *sig)
{
	double t0 = time_now_ns(), deadline = t0 + timeout_s * 1e9;
	unsigned after = timeout_s / 2 < 10 ? timeout_s / 2 : 10;
	enum wait_end end;

	if (!after || (end = wait_line(k, t0 + after * 1e9, sig)) == TIMED_OUT) {
		time_t due = time(NULL) + (time_t)(timeout_s - after);
		struct tm tm;
		char when[16];
		gmtime_r(&due, &tm);
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
		if (after && k->begun)
			fprintf(stderr, "bench validate: %s still running after %u s; waiting until %s UTC "
				"(--check-timeout %u s), then its process is killed and it is a Timeout%s\n",
				c->id, after, when, timeout_s, v->o->flake_runs ? " (run again where "
				"--flake-runs allows)" : "");
		else if (after)   /* its process has not begun it: Missing at the deadline */
			fprintf(stderr, "bench validate: %s not begun by its process after %u s; waiting "
				"until %s UTC (--check-timeout %u s), then its process is killed and the "
				"check is Missing\n", c->id, after, when, timeout_s);
		end = wait_line(k, deadline, sig);
	}
	return end;
}

/* Check c sent to the worker (one started where none runs), waited for; *fresh: a new one. */
static enum wait_end try_check(struct val_ctx *v, struct val_children *k, struct val_check *c,
			       unsigned timeout_s, char *log, size_t len, int *sig, bool *fresh)
{
	struct stat st;

	if (k->pid <= 0)
		worker_start(v, k);
	*fresh = k->served == 0;
	k->begun = false;
	off_t from = fstat(k->log, &st) == 0 ? st.st_size : 0;
	dprintf(k->in, "%s\n", c->id);   /* a worker that ended leaves EPIPE: its end is seen below */
	enum wait_end end = wait_noticed(v, k, c, timeout_s, sig);
	if (end != SIGNALLED)
		read_log(k->log, from, log, len);
	return end;
}

int val_child_run(struct val_ctx *v, struct val_check *c, unsigned timeout_s)
{
	struct val_children *k = v->children ? v->children : (v->children = children_setup(v));
	char log[TAIL_BYTES], tail[1600];
	int status = 0, sig = 0;
	enum wait_end end;
	bool fresh;

	/* a worker kept from earlier checks, lost before it began this one: a new one takes it */
	do {
		end = try_check(v, k, c, timeout_s, log, sizeof(log), &sig, &fresh);
		if (end == GOT_LINE && take_result(v, k, c) && ++k->served != v->o->checks_per_process &&
		    (c->res == VAL_PASS || c->res == VAL_SKIP))
			return 0;
		worker_stop(k, end == TIMED_OUT ? STOP_KILL : end == SIGNALLED ? STOP_TERM : STOP_IDLE,
			    &status);
		if (end == SIGNALLED)
			return sig;
	} while (end != GOT_LINE && !k->begun && !fresh);
	if (end != GOT_LINE && !k->begun) {
		judge_missing(c, end, status, log, timeout_s);
	} else if (end == TIMED_OUT) {
		last_lines(log, tail, sizeof(tail));
		c->res = VAL_TIMEOUT;
		snprintf(c->reason, sizeof(c->reason), "no end after %u s (--check-timeout): its process "
			 "group was killed; its last output: %s", timeout_s, tail);
	} else if (end == WORKER_ENDED) {
		judge_end(c, status, log);
	}
	if (c->res != VAL_PASS && c->res != VAL_SKIP && log[0] && !v->o->tap)
		fprintf(stderr, "--- %s: the output of its process ---\n%s\n", c->id, log);
	return 0;
}

/* ---- the worker's side ---- */

static void report(const struct val_ctx *v, const struct val_check *c)
{
	json_t *r = json_pack("{s:s, s:s, s:s, s:b, s:O?, s:s}", "id", c->id, "res", val_res_name(c->res),
			      "reason", c->reason, "collected", c->collected, "params", c->params,
			      "device", v->dev->name);
	char *s = r ? json_dumps(r, JSON_COMPACT) : NULL;
	size_t n = s ? strlen(s) : 0, off = 0;

	fflush(stdout);   /* the check's messages come before its result */
	while (s && off <= n) {   /* the line, then its end */
		ssize_t w = off < n ? write(RESULT_FD, s + off, n - off) : write(RESULT_FD, "\n", 1);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	free(s);
	json_decref(r);
}

int val_child_main(struct val_ctx *v, const char *spec)
{
	char *end, *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long parent = strtol(spec, &end, 10);

	/* the parent's end is this process's end: a killed parent leaves no check running */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (*end || parent <= 0 || fcntl(RESULT_FD, F_GETFD) < 0)
		cli_usage_error("--run-check is bench validate's own: it runs checks for its parent");
	if (getppid() != (pid_t)parent)
		return EXIT_FAIL;
	fcntl(RESULT_FD, F_SETFD, FD_CLOEXEC);   /* what the driver starts does not hold it */
	setvbuf(stdout, NULL, _IOLBF, 0);
	val_row_child_mode();
	while ((len = getline(&line, &cap, stdin)) > 0) {
		struct val_check *c = NULL;
		line[len - 1] = line[len - 1] == '\n' ? '\0' : line[len - 1];
		for (size_t i = 0; i < v->n && !c; i++)
			if (strcmp(v->c[i].id, line) == 0)
				c = &v->c[i];
		if (!c)
			cli_usage_error("--run-check: no check '%s' planned for '%s'", line, v->dev->name);
		dprintf(RESULT_FD, BEGIN "%s\n", c->id);
		int rc = val_row_run(v, c);
		if (rc > 128)
			return rc;
		report(v, c);
		json_decref(c->params);
		c->params = NULL;
	}
	free(line);
	val_row_done(v);
	return EXIT_OK;
}
