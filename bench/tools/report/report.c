/*
 * bench report: results documents as one self-contained HTML page (charts inline as
 * SVG), drawn by scripts/report.py with matplotlib. The renderer only draws: it hands the page
 * and the PNGs back through a pipe, and this command writes them by the one rule of outputs
 * (host/outfile.h), as every other writer of bench does: the documents registered as inputs
 * and -o reserved before anything is drawn, each PNG reserved once its name is known, every
 * file whole or not at all. The Python module is installed beside bench's data (host/paths.h:
 * <datadir>/gpu-occupancy-bench/python), or in a build tree the source's scripts/;
 * BENCH_SCRIPTS names another folder.
 */
#include "rows.h"
#include "tool.h"
#include "paths.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The descriptor on which the renderer writes its frames (scripts/report.py, emit). */
#define REPORT_FRAMES_FD 3

struct report_opts {
	struct cli_operands docs;
	const char *output;      /* -o */
	const char *png;         /* --png DIR */
	bool allow_partial;      /* --allow-partial */
};

#define RO(f) offsetof(struct report_opts, f)
static const struct cli_opt report_cli[] = {
	{ "output", "FILE", CLI_STR, RO(output), .short_name = 'o',
	  .help = "the HTML page (written whole or not at all)" },
	{ "png", "DIR", CLI_STR, RO(png), .help = "also write each chart as a PNG into DIR" },
	{ "allow-partial", NULL, CLI_FLAG, RO(allow_partial),
	  .help = "draw interrupted and empty documents, marked partial (refused\nwithout)" },
	{ 0 } };

static void report_check(void *opts, const struct cli_set *given)
{
	const struct report_opts *o = opts;

	(void)given;
	if (!o->docs.n)
		cli_usage_error("name one or more results documents (bench ... --json FILE)");
	if (!o->output)
		cli_usage_error("-o FILE names the page to write");
}

/* The outputs reserved, dropped at any exit before they are written. */
static struct outf page = OUTF_INIT;
static struct report_png {
	struct outf out;
	const char *data;       /* in the renderer's frames */
	size_t len;
} *pngs;
static size_t n_pngs;

static void report_drop(void)
{
	outf_abort(&page);
	for (size_t i = 0; i < n_pngs; i++)
		outf_abort(&pngs[i].out);
}

static void say(const char *s)
{
	if (write(STDERR_FILENO, s, strlen(s)) < 0)
		return;   /* stderr gone: the exit code says it */
}

/* SIGINT, SIGTERM, SIGHUP: nothing written, the process ends by sig (and the renderer with it:
 * render, PR_SET_PDEATHSIG). */
static void on_signal(int sig)
{
	say(sig == SIGINT ? "\nbench report: interrupted by SIGINT" : sig == SIGTERM
	    ? "\nbench report: interrupted by SIGTERM" : "\nbench report: interrupted by SIGHUP");
	say(": nothing written\n");
	outf_abort_all_signal();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* The documents as inputs, -o and --png's folder: every refusal before anything is drawn. */
static void report_outputs_open(const struct report_opts *o)
{
	char what[32], err[1024];

	atexit(report_drop);
	for (size_t i = 0; i < o->docs.n; i++) {
		snprintf(what, sizeof(what), "document %zu", i + 1);
		bench_input(what, o->docs.v[i]);
	}
	bench_output(&page, "-o", o->output);
	if (!o->png)
		return;
	if (!*o->png)
		cli_usage_error("--png '': an empty name names no folder");
	if (!outf_mkdirs(o->png, err, sizeof(err)))
		cli_usage_error("--png %s: %s", o->png, err);
	if (access(o->png, W_OK | X_OK) != 0)
		cli_usage_error("--png %s: the folder is not writable", o->png);
}

/* The renderer's command line: python3 -B DIR/report.py DOC... [--png DIR] [--allow-partial]. */
static const char **renderer_argv(const struct report_opts *o, char *script, size_t len)
{
	const char *env = getenv("BENCH_SCRIPTS");
	const char **argv = bench_alloc((o->docs.n + 8) * sizeof(*argv));
	char dir[4096];
	size_t n = 0;

	if (env && *env)
		snprintf(dir, sizeof(dir), "%s", env);
	else
		paths_dir(PATHS_PYTHON, dir, sizeof(dir));
	snprintf(script, len, "%s/report.py", dir);
	if (access(script, R_OK) != 0)
		cli_die(EXIT_FAIL, "no report.py in %s%s (%s): it is installed with bench, beside its "
			"data", dir, env && *env ? ", named by BENCH_SCRIPTS" : "", strerror(errno));
	argv[n++] = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
	argv[n++] = "-B";   /* no __pycache__ beside an installed module, which its package owns */
	argv[n++] = script;
	for (size_t i = 0; i < o->docs.n; i++)
		argv[n++] = o->docs.v[i];
	if (o->png) {
		argv[n++] = "--png";
		argv[n++] = o->png;
	}
	if (o->allow_partial)
		argv[n++] = "--allow-partial";
	argv[n] = NULL;
	return argv;
}

/* Runs the renderer, its frames read whole into *out (*len bytes); its exit status. */
static int render(const char **argv, char **out, size_t *len)
{
	int fds[2], status;
	size_t cap = 1 << 16;
	sigset_t none;
	ssize_t got;
	pid_t pid, parent = getpid();

	if (pipe2(fds, O_CLOEXEC) != 0)
		cli_die(EXIT_FAIL, "cannot make a pipe: %s", strerror(errno));
	fflush(NULL);
	if ((pid = fork()) < 0)
		cli_die(EXIT_FAIL, "cannot start %s: %s", argv[0], strerror(errno));
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);   /* bench ended: the renderer goes too */
		if (getppid() != parent)
			_exit(EXIT_FAIL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		/* the frames' descriptor, open across exec (dup2 onto itself would keep CLOEXEC) */
		if (fds[1] == REPORT_FRAMES_FD ? fcntl(fds[1], F_SETFD, 0) == 0
					       : dup2(fds[1], REPORT_FRAMES_FD) == REPORT_FRAMES_FD)
			execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "bench report: cannot run %s %s: %s (Debian: apt-get install "
			"python3-matplotlib)\n", argv[0], argv[2], strerror(errno));
		_exit(EXIT_FAIL);
	}
	close(fds[1]);
	*out = bench_alloc(cap);
	*len = 0;
	while ((got = read(fds[0], *out + *len, cap - *len)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			cli_die(EXIT_FAIL, "reading the renderer's page: %s", strerror(errno));
		if ((*len += (size_t)got) == cap && !(*out = realloc(*out, cap *= 2)))
			cli_die(EXIT_FAIL, "out of host memory");
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			cli_die(EXIT_FAIL, "waiting for the renderer: %s", strerror(errno));
	return status;
}

/*
 * The next frame at *p: "WORD LEN NAME\n" and LEN bytes (scripts/report.py, emit); false
 * where there is none, or it is not whole.
 */
static bool frame(char **p, char *end, const char *word, char **name, char **data, size_t *len)
{
	size_t wl = strlen(word);
	char *nl = memchr(*p, '\n', (size_t)(end - *p)), *num;

	if (!nl || (size_t)(nl - *p) <= wl + 2 || strncmp(*p, word, wl) != 0 || (*p)[wl] != ' ')
		return false;
	*nl = '\0';
	errno = 0;
	*len = strtoull(*p + wl + 1, &num, 10);
	if (errno || *num != ' ' || !num[1] || *len > (size_t)(end - nl - 1))
		return false;
	*name = num + 1;
	*data = nl + 1;
	*p = nl + 1 + *len;
	return true;
}

static noreturn void bad_frames(void)
{
	cli_die(EXIT_FAIL, "bench bug: the renderer's frames are not PNG frames and one page frame");
}

/* Reserves each PNG, writes them and then the page; the line that says what was written. */
static int report_write(const struct report_opts *o, char *buf, size_t len)
{
	char *p = buf, *end = buf + len, *name, *data, path[4096], err[1024];
	size_t n, n_docs, cap = 0;
	struct report_png *png;

	while (frame(&p, end, "png", &name, &data, &n)) {
		if (!o->png || strchr(name, '/') || name[0] == '.')
			bad_frames();
		snprintf(path, sizeof(path), "%s/%s", o->png, name);
		png = bench_push(&pngs, &n_pngs, &cap, sizeof(*pngs), 16);
		*png = (struct report_png){ OUTF_INIT, data, n };
		bench_output(&png->out, "--png", path);   /* exit 2: another output's file */
	}
	if (!frame(&p, end, "page", &name, &data, &n) || p != end || !(n_docs = strtoul(name, NULL, 10)))
		bad_frames();
	for (size_t i = 0; i < n_pngs; i++)
		if (!outf_commit(&pngs[i].out, pngs[i].data, pngs[i].len, err, sizeof(err)))
			cli_die(EXIT_FAIL, "%s", err);
	if (!outf_commit(&page, data, n, err, sizeof(err)))
		cli_die(EXIT_FAIL, "%s", err);
	printf("%s: %zu document%s", o->output, n_docs, n_docs > 1 ? "s" : "");
	if (o->png)
		printf(", %zu PNG files in %s", n_pngs, o->png);
	printf("\n");
	return EXIT_OK;
}

static int report_main(void *opts)
{
	const struct report_opts *o = opts;
	char script[4200], *frames;
	size_t len;
	int status;

	catch_signals();
	report_outputs_open(o);
	status = render(renderer_argv(o, script, sizeof(script)), &frames, &len);
	if (WIFSIGNALED(status))
		cli_die(EXIT_FAIL, "%s ended by signal %d (%s): nothing written", script,
			WTERMSIG(status), strsignal(WTERMSIG(status)));
	if (WEXITSTATUS(status) != EXIT_OK)   /* the renderer said why, nothing is written */
		return WEXITSTATUS(status);
	status = report_write(o, frames, len);
	free(frames);
	return status;
}

const struct bench_tool report_tool = {
	.cmd = {
		.name = "report",
		.summary = "results documents as one HTML page of charts (and PNGs)",
		.synopsis = "usage: bench report DOC... -o FILE [--png DIR]\n"
			    "  Draws results documents (bench ... --json) as one self-contained HTML page:\n"
			    "  every chart inline as SVG, no script, font or address to fetch. Two documents\n"
			    "  of one benchmark, or a bench compare --json document, also get before/after.\n"
			    "  Documents are judged as bench compare and export judge them; the page and the\n"
			    "  PNGs are never one of the documents, and appear whole or not at all.\n",
		.flags = BENCH_OPERANDS,
		.operands_off = RO(docs),
		.opts = report_cli,
		.opts_size = sizeof(struct report_opts),
		.check = report_check,
	},
	.main = report_main,
};
