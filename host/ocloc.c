/* Intel's offline compiler as a child process (ocloc.h). */
#include "ocloc.h"
#include "paths.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static bool executable(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

static bool on_path(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");

	for (const char *p = path; p && *p;) {
		size_t n = strcspn(p, ":");
		if (n && (size_t)snprintf(out, len, "%.*s/%s", (int)n, p, name) < len && executable(out))
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

/*
 * The environment of a child: ours, with libdir first on LD_LIBRARY_PATH where set, less
 * MALLOC_PERTURB_: glibc's filling of freed and fresh heap memory (which Meson's test runner
 * sets) makes the ocloc of Debian 12 (IGC 22.43) abort (SIGABRT) on some kernels it builds
 * without it, e.g. transpose_bcast at SIMD32 for tgllp and acm-g10: a compiler's own bug,
 * not the kernel's.
 */
static char **child_env(const struct ocloc *o)
{
	size_t n = 0;
	char **env;
	const char *old = getenv("LD_LIBRARY_PATH");

	while (environ[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0, k = 0; i < n; i++)
		if ((!o->libdir[0] || strncmp(environ[i], "LD_LIBRARY_PATH=", 16) != 0) &&
		    strncmp(environ[i], "MALLOC_PERTURB_=", 16) != 0)
			env[k++] = environ[i];
	if (o->libdir[0]) {
		size_t k = 0;
		while (env[k])
			k++;
		if (asprintf(&env[k], "LD_LIBRARY_PATH=%s%s%s", o->libdir, old && *old ? ":" : "",
			     old ? old : "") < 0)
			env[k] = NULL;
	}
	return env;
}

static void free_env(const struct ocloc *o, char **env)
{
	size_t k = 0;

	if (!env)
		return;
	while (env[k])
		k++;
	if (o->libdir[0] && k)
		free(env[k - 1]);
	free(env);
}

/* Starts argv in dir with its output to dir/log; the child's pid, or -1. */
static pid_t spawn(const struct ocloc *o, char **env, char *const *argv, const char *dir)
{
	char log[4200];
	pid_t pid;

	snprintf(log, sizeof(log), "%s/log", dir);
	pid = fork();
	if (pid != 0)
		return pid;
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644), nul = open("/dev/null", O_RDONLY);
	if (fd < 0 || nul < 0 || dup2(nul, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0 ||
	    chdir(dir) != 0)
		_exit(126);
	execve(o->path, argv, env);
	_exit(127);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			char *b = realloc(buf, cap = 2 * cap + 8192);
			if (!b)
				break;
			buf = b;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got);
	fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

/* Runs `ocloc query OCL_DRIVER_VERSION` in a temporary folder. */
static void query_version(struct ocloc *o)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], file[4200];
	char *argv[] = { o->path, "query", "OCL_DRIVER_VERSION", NULL };
	char **env = child_env(o);
	int st = -1;
	pid_t pid;

	snprintf(o->version, sizeof(o->version), "unknown");
	snprintf(dir, sizeof(dir), "%s/bench-ocloc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!env || !mkdtemp(dir)) {
		free_env(o, env);
		return;
	}
	pid = spawn(o, env, argv, dir);
	if (pid > 0)
		waitpid(pid, &st, 0);
	snprintf(file, sizeof(file), "%s/OCL_DRIVER_VERSION", dir);
	char *v = pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? slurp(file) : NULL;
	if (v) {
		v[strcspn(v, " \r\n")] = '\0';
		if (*v)
			snprintf(o->version, sizeof(o->version), "%s", v);
	}
	free(v);
	free_env(o, env);
	ocloc_rmtree(dir);
}

bool ocloc_find(struct ocloc *o, char *err, size_t len)
{
	const char *env = getenv("BENCH_OCLOC");
	const char *hint = paths_build_tree() ? OCLOC_SETUP_HINT : OCLOC_INSTALL_HINT;
	char deps_dir[3900] = "", deps[4000] = "";   /* each fits o->path and o->libdir */

	memset(o, 0, sizeof(*o));
	if (paths_dir(PATHS_DEPS, deps_dir, sizeof(deps_dir)))   /* a build tree's */
		snprintf(deps, sizeof(deps), "%s/intel-gpu/usr/bin/ocloc", deps_dir);
	if (env && *env) {
		if (!executable(env)) {
			snprintf(err, len, "BENCH_OCLOC '%s' is not an executable file: %s", env,
				 hint);
			return false;
		}
		snprintf(o->path, sizeof(o->path), "%s", env);
		o->found_by = "BENCH_OCLOC";
	} else if (on_path("ocloc", o->path, sizeof(o->path))) {
		o->found_by = "PATH";
	} else if (deps[0] && executable(deps)) {
		snprintf(o->path, sizeof(o->path), "%s", deps);
		snprintf(o->libdir, sizeof(o->libdir), "%s/intel-gpu/lib", deps_dir);
		o->found_by = ".deps/intel-gpu";
	} else {
		snprintf(err, len, "no ocloc (Intel's offline compiler) on PATH%s%s: %s",
			 deps[0] ? " or in " : "", deps, hint);
		return false;
	}
	query_version(o);
	return true;
}

/* Starts job j in dir; its pid or -1. */
static pid_t start(const struct ocloc *o, char **env, struct ocloc_job *j)
{
	char *argv[20];
	int a = 0;

	argv[a++] = (char *)o->path;
	argv[a++] = "compile";
	argv[a++] = "-file";
	argv[a++] = (char *)j->source;
	argv[a++] = "-device";
	argv[a++] = (char *)j->target;
	if (j->options && *j->options) {
		argv[a++] = "-options";
		argv[a++] = (char *)j->options;
	}
	argv[a++] = "-output";
	argv[a++] = "kernel";
	argv[a++] = "-out_dir";
	argv[a++] = j->dir;
	argv[a++] = "-output_no_suffix";
	argv[a++] = "--format";
	argv[a++] = "zebin";
	argv[a] = NULL;
	return spawn(o, env, argv, j->dir);
}

static void finish(struct ocloc_job *j, int st)
{
	char path[4200];

	j->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	j->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	snprintf(path, sizeof(path), "%s/log", j->dir);
	j->log = slurp(path);
	snprintf(j->binary, sizeof(j->binary), "%s/kernel", j->dir);
	if (j->status != 0 || access(j->binary, R_OK) != 0)
		j->binary[0] = '\0';
}

bool ocloc_run(const struct ocloc *o, struct ocloc_job *jobs, size_t n, unsigned parallel,
	       const char *work_dir, char *err, size_t len)
{
	char **env = child_env(o);
	pid_t *pids = calloc(n ? n : 1, sizeof(*pids));
	size_t next = 0, running = 0;
	bool ok = env && pids;

	if (!ok)
		snprintf(err, len, "out of host memory");
	for (size_t i = 0; i < n; i++) {
		jobs[i].status = -1;
		snprintf(jobs[i].dir, sizeof(jobs[i].dir), "%s/%zu", work_dir, i);
		if (mkdir(jobs[i].dir, 0700) != 0 && errno != EEXIST && ok) {
			snprintf(err, len, "cannot make %s: %s", jobs[i].dir, strerror(errno));
			ok = false;
		}
	}
	while (ok && (next < n || running)) {
		while (next < n && running < (parallel ? parallel : 1)) {
			pids[next] = start(o, env, &jobs[next]);
			if (pids[next] < 0) {
				snprintf(err, len, "cannot start %s: %s", o->path, strerror(errno));
				ok = false;
				break;
			}
			next++;
			running++;
		}
		int st;
		pid_t pid = running ? waitpid(-1, &st, 0) : 0;
		if (pid < 0 && errno == EINTR)
			continue;
		for (size_t i = 0; pid > 0 && i < next; i++)
			if (pids[i] == pid) {
				finish(&jobs[i], st);
				pids[i] = 0;
				running--;
			}
		if (pid < 0)
			break;
	}
	for (size_t i = 0; i < next; i++)   /* after a failure to start: the others' ends */
		if (pids[i] > 0) {
			int st;
			waitpid(pids[i], &st, 0);
			finish(&jobs[i], st);
		}
	free(pids);
	free_env(o, env);
	return ok;
}

void ocloc_job_free(struct ocloc_job *j)
{
	free(j->log);
	j->log = NULL;
}

void ocloc_error(const char *log, char *out, size_t len)
{
	size_t off = 0, found = 0;
	const char *last = NULL, *p;

	out[0] = '\0';
	for (p = log; p && *p && found < 3;) {
		size_t n = strcspn(p, "\n");
		bool again = n && memmem(out, off < len ? off : len, p, n) != NULL;
		if (n && !again && memmem(p, n, "error", 5) &&
		    !memmem(p, n, "Build failed with error", 23)) {
			off += (size_t)snprintf(out + off, off < len ? len - off : 0, "%s%.*s",
						found ? "; " : "", (int)n, p);
			found++;
		}
		if (n && strncmp(p, "Command was:", 12) != 0)
			last = p;
		p += n + (p[n] == '\n');
	}
	if (!found && last)
		snprintf(out, len, "%.*s", (int)strcspn(last, "\n"), last);
	if (!out[0])
		snprintf(out, len, "no output");
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

void ocloc_rmtree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}
