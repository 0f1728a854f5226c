/*
 * A tool on every device of a set (tool.h: bench_fleet_run): bench suite and bench validate
 * with --device all, gpu, cpu or a list. A runner with several GPUs runs its regression suite,
 * or its validation, on each at once, and each GPU's results are held to that GPU's own
 * baseline: one process per device keeps the runs apart (a context, a watchdog, a driver
 * fault each), and the folders device-P.D tell identical GPUs apart where their documents'
 * names (DEVICE--SUITE.json) are the same.
 *
 * The outputs are on the one rule of every file bench writes (host/outfile.h): before any
 * device's process starts, the tool's input file and the --kernels sources are registered as
 * inputs, DIR and every device's folder are made (as mkdir -p), and every device's log is
 * reserved (never an input, never a folder); each log is an unnamed file that a device's
 * process writes and that is linked into place once that process ended, so that a log appears
 * whole or not at all. Each device's process holds its own documents to the same rule.
 */
#define HARNESS_LAYER HARNESS_LAYER_MULTI
#include "multi.h"
#include "mem.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static pid_t kids[BENCH_MAX_DEVICES];
static size_t n_kids;
static struct outf logs[BENCH_MAX_DEVICES];   /* DIR/device-P.D.log, reserved before any run */
static size_t n_logs;

static void drop_logs(void)
{
	for (size_t i = 0; i < n_logs; i++)
		outf_abort(&logs[i]);
}

/* SIGINT and SIGTERM reach every device's process; each writes what it finished. */
static void forward(int sig)
{
	for (size_t i = 0; i < n_kids; i++)
		if (kids[i] > 0)
			kill(kids[i], sig);
}

/* Whether argv[i] is an option f sets per device (and eats its value: *skip). */
static bool per_device(const struct bench_fleet *f, char *const *argv, int i, int *skip)
{
	for (const char *const *name = f->per_device; *name; name++) {
		size_t len = strlen(*name);
		if (strcmp(argv[i], *name) == 0) {
			*skip = 1;
			return true;
		}
		if (strncmp(argv[i], *name, len) == 0 && argv[i][len] == '=') {
			*skip = 0;
			return true;
		}
	}
	return false;
}

/* This command again for one device: argv less f's per-device options, then the device's. */
static char **child_argv(const struct bench_fleet *f, const char *spec, const char *dir)
{
	size_t extra = 0;
	char **a;
	int n = 0, skip;

	for (const char *const *e = f->extra; e && *e; e += 2)
		extra += 2;
	a = bench_alloc(((size_t)cli_argc + 6 + extra) * sizeof(*a));
	a[n++] = "bench";
	for (int i = 1; i < cli_argc; i++) {
		if (per_device(f, cli_argv, i, &skip)) {
			i += skip;
			continue;
		}
		a[n++] = cli_argv[i];
	}
	a[n++] = "--device";
	a[n++] = (char *)spec;
	a[n++] = (char *)f->dir_opt;
	a[n++] = (char *)dir;
	for (const char *const *e = f->extra; e && *e; e += 2) {
		char *v;
		if (asprintf(&v, "%s/%s", dir, e[1]) < 0)
			cli_die(EXIT_FAIL, "out of host memory");
		a[n++] = (char *)e[0];
		a[n++] = v;   /* lives until the process ends */
	}
	a[n] = NULL;
	return a;
}

/* Starts one device's run, its output into its reserved log (descriptor log_fd); its pid. */
static pid_t start(const struct bench_fleet *f, const char *spec, const char *dir, int log_fd)
{
	posix_spawn_file_actions_t fa;
	char **argv = child_argv(f, spec, dir);
	pid_t pid;
	int e;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, log_fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, log_fd, STDERR_FILENO);
	e = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	free(argv);
	if (e)
		cli_die(EXIT_FAIL, "cannot start the run on device %s: %s", spec, strerror(e));
	return pid;
}

/*
 * The last line of a log that says something (the suite's summary) and holds has (NULL: any;
 * where none holds it, the last line), into buf: read from the reserved file before it is linked into place ("" for a stream: a
 * FIFO, a device).
 */
static void last_line(const struct outf *log, const char *has, char *buf, size_t len)
{
	char self[64], line[1024];
	FILE *f = NULL;
	bool found = false;

	buf[0] = '\0';
	snprintf(self, sizeof(self), "/proc/self/fd/%d", log->fd);
	if (!log->stream && log->fd >= 0)
		f = fopen(self, "r");   /* the unnamed file opened again, for reading */
	while (f && fgets(line, sizeof(line), f))
		if (line[strspn(line, " \t\n")] && strncmp(line, "(see '", 6) != 0 &&
		    (!has || strstr(line, has) || !found)) {
			snprintf(buf, len, "%s", line);   /* the last line until one holds has */
			found = found || (has && strstr(line, has));
		}
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* The worse of two exit codes: a signal's (130, 143), then usage, failure, skipped, ok. */
static int worse(int a, int b)
{
	static const int order[] = { EXIT_OK, EXIT_SKIP, EXIT_FAIL, EXIT_USAGE };
	int ra = 4, rb = 4;

	for (int i = 0; i < 4; i++) {
		ra = a == order[i] ? i : ra;
		rb = b == order[i] ? i : rb;
	}
	return rb > ra ? b : a;
}

/* One device's process ended: its summary line printed, its log linked into place. */
static int ended(const struct bench_fleet *f, const struct bench_device_ref *d, size_t i,
		 const char *log, int st)
{
	char line[1024], err[1024];
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);

	last_line(&logs[i], f->summary_has, line, sizeof(line));
	printf("  %s %s: exit %d (%s): %s\n", d->spec, d->label, code, log, line);
	fflush(stdout);
	if (!outf_commit(&logs[i], "", 0, err, sizeof(err))) {
		fprintf(stderr, "bench %s: %s\n", f->tool, err);
		return EXIT_FAIL;
	}
	return WIFEXITED(st) ? code : EXIT_FAIL;
}

static int wait_all(const struct bench_fleet *f, const struct bench_device_ref *d, char (*log)[4200])
{
	int rc = EXIT_OK;

	for (size_t done = 0; done < n_kids;) {
		int st;
		pid_t pid = waitpid(-1, &st, 0);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			break;
		for (size_t i = 0; i < n_kids; i++) {
			if (kids[i] != pid)
				continue;
			rc = worse(rc, ended(f, &d[i], i, log[i], st));
			kids[i] = 0;
			done++;
		}
	}
	return rc;
}

/*
 * Every path before any device's process starts: f's input and the --kernels sources
 * registered as inputs, DIR and each device's folder made (as mkdir -p), each device's log
 * reserved. Exit 2 naming the path and why.
 */
static void fleet_paths(const struct bench_fleet *f, const char *kernels_dir, const char *out_dir,
			const struct bench_device_ref *d, size_t n, char (*dir)[4096], char (*log)[4200])
{
	char err[1024];

	atexit(drop_logs);
	if (f->input)
		bench_input(f->input_what, f->input);
	bench_check_kernels(kernels_dir);
	if (!outf_mkdirs(out_dir, err, sizeof(err)))
		cli_usage_error("%s %s: %s", f->dir_opt, out_dir, err);
	for (size_t i = 0; i < n; i++) {
		char name[48];
		snprintf(name, sizeof(name), "device-%.31s", d[i].spec);
		name[strcspn(name, ":")] = '.';
		snprintf(dir[i], sizeof(dir[i]), "%s/%s", out_dir, name);
		snprintf(log[i], sizeof(log[i]), "%s/%s.log", out_dir, name);
		logs[i] = OUTF_NONE;
		n_logs = i + 1;
		bench_output(&logs[i], f->dir_opt, log[i]);
	}
	for (size_t i = 0; i < n; i++)   /* once no log is refused */
		if (!outf_mkdirs(dir[i], err, sizeof(err)))
			cli_usage_error("%s %s: %s", f->dir_opt, out_dir, err);
}

bool bench_fleet_run(const struct bench_fleet *f, struct common_opts *co, const char *out_dir,
		     int *rc)
{
	static struct bench_device_ref d[BENCH_MAX_DEVICES];
	static char dir[BENCH_MAX_DEVICES][4096], log[BENCH_MAX_DEVICES][4200];
	size_t n;

	if (!co->device || !dev_spec_is_set(co->device))
		return false;
	n = bench_device_refs(co, d, BENCH_MAX_DEVICES);
	if (n == 1) {
		co->device = strdup(d[0].spec);
		return false;
	}
	if (!out_dir || f->refuse)
		cli_usage_error("--device %s names %zu devices: bench %s runs on each in a process of "
				"its own, writing %s DIR/device-P.D/ (%s)", co->device, n, f->tool,
				f->dir_opt, f->needs);
	fleet_paths(f, co->kernels_dir, out_dir, d, n, dir, log);
	printf("%s on %zu devices, one process each, at once:\n", f->tool, n);
	signal(SIGINT, forward);
	signal(SIGTERM, forward);
	for (size_t i = 0; i < n; i++) {
		kids[n_kids++] = start(f, d[i].spec, dir[i], logs[i].fd);
		printf("  %s %s: %s/\n", d[i].spec, d[i].label, dir[i]);
	}
	fflush(stdout);
	*rc = wait_all(f, d, log);
	printf("%s on %zu devices: exit %d (the worst of theirs)\n", f->tool, n, *rc);
	return true;
}
