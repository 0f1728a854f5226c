/*
 * A suite on every device of a set (suite_fleet.h). A runner with several GPUs runs its
 * regression suite on each at once, and each GPU's document is compared with that GPU's own
 * baseline: one process per device keeps the runs apart (a context, a watchdog, a driver
 * fault each), and the folders device-P.D tell identical GPUs apart where their documents'
 * names (DEVICE--SUITE.json) are the same.
 */
#include "suite_fleet.h"
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

/* SIGINT and SIGTERM reach every device's process; each writes what it finished. */
static void forward(int sig)
{
	for (size_t i = 0; i < n_kids; i++)
		if (kids[i] > 0)
			kill(kids[i], sig);
}

/* Whether argv[i] is an option this command sets per device (and eats its value: *skip). */
static bool per_device(char *const *argv, int i, int *skip)
{
	static const char *const names[] = { "--device", "--out", "-o" };

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		size_t len = strlen(names[k]);
		if (strcmp(argv[i], names[k]) == 0) {
			*skip = 1;
			return true;
		}
		if (strncmp(argv[i], names[k], len) == 0 && argv[i][len] == '=') {
			*skip = 0;
			return true;
		}
	}
	return false;
}

/* This command again for one device: argv less --device and -o, then theirs. */
static char **child_argv(const char *spec, const char *dir)
{
	char **a = bench_alloc(((size_t)cli_argc + 6) * sizeof(*a));
	int n = 0, skip;

	a[n++] = "bench";
	for (int i = 1; i < cli_argc; i++) {
		if (per_device(cli_argv, i, &skip)) {
			i += skip;
			continue;
		}
		a[n++] = cli_argv[i];
	}
	a[n++] = "--device";
	a[n++] = (char *)spec;
	a[n++] = "-o";
	a[n++] = (char *)dir;
	a[n] = NULL;
	return a;
}

/* Starts one device's run, its output into log; its pid. */
static pid_t start(const char *spec, const char *dir, const char *log)
{
	posix_spawn_file_actions_t fa;
	char **argv = child_argv(spec, dir);
	pid_t pid;
	int e;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
	e = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	free(argv);
	if (e)
		cli_die(EXIT_FAIL, "cannot start the run on device %s: %s", spec, strerror(e));
	return pid;
}

/* The last line of a log that says something (the suite's summary), into buf. */
static void last_line(const char *log, char *buf, size_t len)
{
	FILE *f = fopen(log, "r");
	char line[1024];

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f))
		if (line[strspn(line, " \t\n")])
			snprintf(buf, len, "%s", line);
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

static int wait_all(const struct bench_device_ref *d, char (*log)[4200])
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
			char line[1024];
			int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			last_line(log[i], line, sizeof(line));
			printf("  %s %s: exit %d (%s): %s\n", d[i].spec, d[i].label, code, log[i], line);
			fflush(stdout);
			rc = worse(rc, WIFEXITED(st) ? code : EXIT_FAIL);
			kids[i] = 0;
			done++;
		}
	}
	return rc;
}

bool suite_fleet(struct common_opts *co, const char *out_dir, bool one_file_outputs, int *rc)
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
	if (!out_dir || one_file_outputs)
		cli_usage_error("--device %s names %zu devices: the suite runs on each in a process of its "
				"own, writing -o DIR/device-P.D/ (give -o DIR; --json, --csv and --baseline "
				"are one device's)", co->device, n);
	if (mkdir(out_dir, 0777) != 0 && errno != EEXIST)
		cli_usage_error("-o %s: %s", out_dir, strerror(errno));
	printf("suite on %zu devices, one process each, at once:\n", n);
	signal(SIGINT, forward);
	signal(SIGTERM, forward);
	for (size_t i = 0; i < n; i++) {
		char name[48];
		snprintf(name, sizeof(name), "device-%.31s", d[i].spec);
		name[strcspn(name, ":")] = '.';
		snprintf(dir[i], sizeof(dir[i]), "%s/%s", out_dir, name);
		snprintf(log[i], sizeof(log[i]), "%s/%s.log", out_dir, name);
		kids[n_kids++] = start(d[i].spec, dir[i], log[i]);
		printf("  %s %s: %s/\n", d[i].spec, d[i].label, dir[i]);
	}
	fflush(stdout);
	*rc = wait_all(d, log);
	return true;
}
