/*
 * Unit tests of the output files (host/outfile.c): what each kind of path is written as
 * (devices, FIFOs, sockets and standard output as streams, a link's target replaced, folders and
 * '' refused at open), an output never an input nor another output, and nothing left behind by
 * a process ended by any signal. Run twice: as on this machine's filesystem (O_TMPFILE), and
 * with `named`, the named temporaries of a filesystem without it.
 */
#include "outfile.h"
#include "unit.h"

#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static int named;   /* 1: named temporaries (outf_force_named) */

static void test_unwritable(void)
{
	struct outf o;
	char err[512] = "";

	CHECK(!outf_open(&o, "--json", "/nonexistent-dir/x.json", err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "cannot write '/nonexistent-dir/x.json'");
	CHECK_STR_CONTAINS(err, "No such file or directory");
}

static bool link_file(const char *from, const char *to)
{
	return link(from, to) == 0;
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static bool commit_text(const char *path, const char *text, char *err, size_t errlen)
{
	struct outf o;

	return outf_open(&o, "--json", path, err, errlen) &&
	       outf_commit(&o, text, strlen(text), err, errlen);
}

/* --json /dev/null used to replace the device node with a regular file (as root). */
static void test_char_device(void)
{
	struct stat st;
	char err[512] = "";

	CHECK(commit_text("/dev/null", "{}\n", err, sizeof(err)));
	CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
	/* a full device fails at commit with the system's reason, and stays a device */
	CHECK(!commit_text("/dev/full", "{}\n", err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "cannot write '/dev/full': No space left on device");
	CHECK(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode));
}

/* A FIFO is written through; its read end is held open (O_RDWR) so the open does not wait. */
static void test_fifo(const char *dir)
{
	char path[512], err[512] = "", buf[64] = "";
	struct stat st;
	int rd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/fifo", dir);
	CHECK(mkfifo(path, 0600) == 0);
	rd = open(path, O_RDWR | O_NONBLOCK);
	CHECK(rd >= 0);
	CHECK(commit_text(path, "fifo text\n", err, sizeof(err)));
	n = read(rd, buf, sizeof(buf) - 1);
	CHECK(n == 10);
	buf[n > 0 ? n : 0] = '\0';
	CHECK_STR_CONTAINS(buf, "fifo text\n");
	CHECK(stat(path, &st) == 0 && S_ISFIFO(st.st_mode));
	CHECK_EQ_U(unit_count_entries(dir), 1);
	close(rd);
	unlink(path);
}

/* A listening Unix socket is connected to and written through. */
static void test_socket(const char *dir)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char err[512] = "", buf[64] = "";
	int srv = socket(AF_UNIX, SOCK_STREAM, 0), c;
	ssize_t n;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s/sock", dir);
	CHECK(srv >= 0 && bind(srv, (struct sockaddr *)&a, sizeof(a)) == 0 && listen(srv, 1) == 0);
	CHECK(commit_text(a.sun_path, "socket text\n", err, sizeof(err)));
	c = accept(srv, NULL, NULL);
	CHECK(c >= 0);
	n = c >= 0 ? read(c, buf, sizeof(buf) - 1) : -1;
	buf[n > 0 ? n : 0] = '\0';
	CHECK_STR_CONTAINS(buf, "socket text\n");
	if (c >= 0)
		close(c);
	close(srv);
	unlink(a.sun_path);
}

/*
 * A descriptor named by the path is written as it is, never reopened: /dev/fd/N of a regular
 * file (a shell's "3>file") used to have that file replaced, /dev/fd/N of a closed descriptor
 * is refused at open.
 */
static void test_named_fd(const char *dir)
{
	char path[512], name[64], buf[64], err[512] = "";
	struct outf o;
	int fd;

	snprintf(path, sizeof(path), "%s/via-fd", dir);
	put_file(path, "head\n");
	fd = open(path, O_WRONLY | O_APPEND);
	CHECK(fd >= 0);
	snprintf(name, sizeof(name), "/dev/fd/%d", fd);
	CHECK(commit_text(name, "appended\n", err, sizeof(err)));
	CHECK(strcmp(unit_slurp(path, buf, sizeof(buf)), "head\nappended\n") == 0);
	snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
	CHECK(outf_same_file(name, path));
	CHECK(close(fd) == 0);   /* still open after the commit: the descriptor was not ours */
	snprintf(name, sizeof(name), "/dev/fd/%d", fd);
	CHECK(!outf_open(&o, "--json", name, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "': Bad file descriptor");
	CHECK_EQ_U(unit_count_entries(dir), 1);
	unlink(path);
}

/* "-" and /dev/stdout write to fd 1 as it is (here a pipe); /dev/stdout stays a link. */
static void test_stdout(void)
{
	const char *names[] = { "-", "/dev/stdout" };
	char err[512] = "", buf[64];
	struct stat st;

	for (size_t i = 0; i < 2; i++) {
		int p[2], saved = dup(STDOUT_FILENO);
		ssize_t n;
		CHECK(saved >= 0 && pipe(p) == 0);
		fflush(stdout);
		dup2(p[1], STDOUT_FILENO);
		close(p[1]);
		CHECK(commit_text(names[i], "to stdout\n", err, sizeof(err)));
		dup2(saved, STDOUT_FILENO);
		close(saved);
		n = read(p[0], buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = '\0';
		CHECK_STR_CONTAINS(buf, "to stdout\n");
		close(p[0]);
	}
	CHECK(lstat("/dev/stdout", &st) == 0 && S_ISLNK(st.st_mode));
}

/* Through a link the target is replaced atomically, written beside the target. */
static void test_symlink(const char *dir)
{
	char sub[512], target[600], link[512], cmd[1200], buf[64], err[512] = "";
	struct stat st;
	struct outf o;

	snprintf(sub, sizeof(sub), "%s/sub", dir);
	snprintf(target, sizeof(target), "%s/t.json", sub);
	snprintf(link, sizeof(link), "%s/l.json", dir);
	CHECK(mkdir(sub, 0700) == 0);
	put_file(target, "old\n");
	CHECK(chmod(target, 0600) == 0);
	CHECK(symlink("sub/t.json", link) == 0);
	CHECK(outf_open(&o, "--json", link, err, sizeof(err)));
	CHECK_EQ_U(unit_count_entries(sub), 1 + named);   /* t.json (and a named temporary) */
	CHECK_EQ_U(unit_count_entries(dir), 2);   /* sub and the link */
	CHECK(outf_commit(&o, "new\n", 4, err, sizeof(err)));
	CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	CHECK(strcmp(unit_slurp(target, buf, sizeof(buf)), "new\n") == 0);
	CHECK(stat(target, &st) == 0 && (st.st_mode & 0777) == 0600);   /* permissions kept */
	CHECK_EQ_U(unit_count_entries(sub), 1);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", sub, link);
	CHECK(system(cmd) == 0);
	/* a link to nothing is refused rather than guessed at */
	CHECK(symlink("missing.json", link) == 0);
	CHECK(!outf_open(&o, "--json", link, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "l.json': it is a symbolic link to a missing file");
	unlink(link);
}

/* A folder, '' and "x/" fail at open, before any work, naming the path and why. */
static void test_refused(const char *dir)
{
	struct outf o;
	char err[512] = "", want[600], path[512];

	CHECK(!outf_open(&o, "--json", dir, err, sizeof(err)));
	snprintf(want, sizeof(want), "cannot write '%s': it is a directory", dir);
	CHECK_STR_CONTAINS(err, want);
	CHECK(!outf_open(&o, "--json", "", err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "cannot write '': an empty name names no file");
	snprintf(path, sizeof(path), "%s/new/", dir);
	CHECK(!outf_open(&o, "--json", path, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "/new/': a name ending in '/' names a folder");
	CHECK_EQ_U(unit_count_entries(dir), 0);
	outf_abort(&o);   /* harmless after a refusal */
}

/*
 * A temporary of a name bench does not give, or of a process still running, does not stop a
 * later run and is not touched by it; one a dead process of this host left is removed.
 */
static void test_leftover(const char *dir)
{
	char path[512], left[800], host[128] = "", cmd[1200], buf[64], err[512] = "";
	pid_t dead = fork();

	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);   /* a PID that no longer runs */
	gethostname(host, sizeof(host) - 1);
	for (char *c = host; *c; c++)
		*c = *c == '.' || *c == '/' ? '-' : *c;
	snprintf(path, sizeof(path), "%s/r.json", dir);
	snprintf(left, sizeof(left), "%s.tmp.ABC", path);
	put_file(left, "");
	snprintf(left, sizeof(left), "%s.tmp.XXXXXX", path);
	put_file(left, "");
	snprintf(left, sizeof(left), "%s.tmp.%s.%ld.abc", path, host, (long)getppid());
	put_file(left, "");   /* a running process's */
	snprintf(left, sizeof(left), "%s.tmp.other-host.%ld.abc", path, (long)dead);
	put_file(left, "");   /* another host's */
	snprintf(left, sizeof(left), "%s.tmp.%s.%ld.abc", path, host, (long)dead);
	put_file(left, "");   /* a dead process's: removed */
	CHECK(commit_text(path, "fresh\n", err, sizeof(err)));
	CHECK(strcmp(unit_slurp(path, buf, sizeof(buf)), "fresh\n") == 0);
	CHECK(access(left, F_OK) != 0);
	CHECK_EQ_U(unit_count_entries(dir), 5);
	snprintf(cmd, sizeof(cmd), "rm -f '%s' '%s'*", path, path);
	CHECK(system(cmd) == 0);
}

static void on_signal(int sig)
{
	(void)sig;
	outf_abort_all_signal();
}

/* What a signal handler does: every named temporary goes, the destinations never appear. */
static void test_abort_all(const char *dir)
{
	struct outf a, b, c;
	char pa[512], pb[512], err[512] = "";

	snprintf(pa, sizeof(pa), "%s/a.json", dir);
	snprintf(pb, sizeof(pb), "%s/b.csv", dir);
	CHECK(outf_open(&a, "--json", pa, err, sizeof(err)));
	CHECK(outf_open(&b, "--csv", pb, err, sizeof(err)));
	CHECK(outf_open(&c, "--junit", "/dev/null", err, sizeof(err)));
	CHECK_EQ_U(unit_count_entries(dir), 2 * named);
	signal(SIGUSR1, on_signal);
	raise(SIGUSR1);
	signal(SIGUSR1, SIG_DFL);
	CHECK_EQ_U(unit_count_entries(dir), 0);
	outf_abort(&a);   /* harmless after the handler */
	outf_abort(&b);
	outf_abort(&c);
	CHECK_EQ_U(unit_count_entries(dir), 0);
	/* a slot freed by commit or abort is not unlinked again */
	CHECK(commit_text(pa, "kept\n", err, sizeof(err)));
	outf_abort_all_signal();
	CHECK(access(pa, F_OK) == 0);
	unlink(pa);
}

static void test_same_file(const char *dir)
{
	char f[512], l[512], dot[600], other[512], cwd_rel[600];

	snprintf(f, sizeof(f), "%s/x.json", dir);
	snprintf(l, sizeof(l), "%s/link.json", dir);
	snprintf(dot, sizeof(dot), "%s/./x.json", dir);
	snprintf(other, sizeof(other), "%s/y.json", dir);
	snprintf(cwd_rel, sizeof(cwd_rel), "%s/../%s/x.json", dir, strrchr(dir, '/') + 1);
	CHECK(outf_same_file(f, f));            /* neither exists yet: by resolved name */
	CHECK(outf_same_file(f, dot));
	CHECK(outf_same_file(f, cwd_rel));
	CHECK(!outf_same_file(f, other));
	put_file(f, "x");
	CHECK(symlink("x.json", l) == 0);
	CHECK(outf_same_file(f, l));            /* existing: by device and inode */
	CHECK(!outf_same_file(f, other));
	CHECK(!outf_same_file(other, f));
	CHECK(outf_same_file("-", "/dev/stdout"));
	CHECK(outf_same_file("/dev/null", "/dev/null"));
	CHECK(!outf_same_file("/dev/null", f));
	CHECK(!outf_same_file("", ""));
	CHECK(!outf_same_file(NULL, f));
	unlink(l);
	unlink(f);
}

/* Before commit nothing is seen at the destination: no file, and no temporary but a named one. */
static void test_unseen(const char *dir)
{
	char path[512], buf[64], err[512] = "";
	struct outf o;

	snprintf(path, sizeof(path), "%s/r.json", dir);
	CHECK(outf_open(&o, "--json", path, err, sizeof(err)));
	CHECK(access(path, F_OK) != 0);
	CHECK_EQ_U(unit_count_entries(dir), named);
	CHECK(outf_commit(&o, "one\n", 4, err, sizeof(err)));
	CHECK(strcmp(unit_slurp(path, buf, sizeof(buf)), "one\n") == 0);
	/* replacing an existing file: the old content until the commit, then the new */
	CHECK(outf_open(&o, "--json", path, err, sizeof(err)));
	CHECK(strcmp(unit_slurp(path, buf, sizeof(buf)), "one\n") == 0);
	CHECK(outf_commit(&o, "two\n", 4, err, sizeof(err)));
	CHECK(strcmp(unit_slurp(path, buf, sizeof(buf)), "two\n") == 0);
	CHECK_EQ_U(unit_count_entries(dir), 1);
	unlink(path);
}

/* An output is never an input: by name, through a link, a hard link; in either order. */
static void inputs_child(const char *dir)
{
	char in[512], link[512], hard[512], other[512], loop[512], err[1024] = "";
	struct outf o;

	snprintf(in, sizeof(in), "%s/in.json", dir);
	snprintf(link, sizeof(link), "%s/link.json", dir);
	snprintf(hard, sizeof(hard), "%s/hard.json", dir);
	snprintf(other, sizeof(other), "%s/other.json", dir);
	snprintf(loop, sizeof(loop), "%s/loop", dir);
	put_file(in, "input\n");
	CHECK(symlink("in.json", link) == 0 && link_file(in, hard));
	CHECK(outf_input("BASE", in, err, sizeof(err)));
	CHECK(outf_input("NEW", in, err, sizeof(err)));   /* an input may be given twice */
	const char *as[] = { in, link, hard };
	for (size_t i = 0; i < 3; i++) {
		CHECK(!outf_open(&o, "--json", as[i], err, sizeof(err)));
		CHECK_STR_CONTAINS(err, "it is BASE '");
		CHECK_STR_CONTAINS(err, "an input of this command");
	}
	CHECK(strcmp(unit_slurp(in, err, sizeof(err)), "input\n") == 0);
	/* an output reserved first: the input that is the same file is refused */
	put_file(other, "x\n");
	CHECK(outf_open(&o, "--markdown", other, err, sizeof(err)));
	CHECK(!outf_input("NEW", other, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "it is the file --markdown '");
	outf_abort(&o);
	/* inputs that cannot be read, with the system's reason */
	CHECK(!outf_input("BASE", dir, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "it is a directory");
	CHECK(symlink("loop", loop) == 0);
	CHECK(!outf_input("BASE", loop, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "Too many levels of symbolic links");
	CHECK(!outf_input("BASE", "", err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "'' (an empty file name): cannot read");
	/* a device is no clash: /dev/null read and written */
	CHECK(outf_input("BASE", "/dev/null", err, sizeof(err)));
	CHECK(outf_open(&o, "--json", "/dev/null", err, sizeof(err)));
	outf_abort(&o);
	exit(unit_failures ? 1 : 0);
}

/* Two outputs of one run never write one file; /dev/null twice is fine, stdout twice is not. */
static void test_two_outputs(const char *dir)
{
	char a[512], dot[600], err[1024] = "";
	struct outf o1, o2;

	snprintf(a, sizeof(a), "%s/a.json", dir);
	snprintf(dot, sizeof(dot), "%s/./a.json", dir);
	CHECK(outf_open(&o1, "--json", a, err, sizeof(err)));
	CHECK(!outf_open(&o2, "--csv", dot, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "it is the same file as --json '");
	outf_abort(&o1);
	CHECK(outf_open(&o2, "--csv", dot, err, sizeof(err)));   /* free again once dropped */
	outf_abort(&o2);
	CHECK(outf_open(&o1, "--json", "/dev/null", err, sizeof(err)));
	CHECK(outf_open(&o2, "--csv", "/dev/null", err, sizeof(err)));
	outf_abort(&o1);
	outf_abort(&o2);
	CHECK(outf_open(&o1, "--json", "-", err, sizeof(err)));
	CHECK(!outf_open(&o2, "--csv", "/dev/stdout", err, sizeof(err)));
	outf_abort(&o1);
	CHECK_EQ_U(unit_count_entries(dir), 0);
}

/*
 * A process ended by a signal while its outputs are reserved (a second SIGINT, SIGTERM, a
 * crash in a driver, SIGKILL) leaves no temporary, and an existing destination as it was;
 * SIGKILL cannot be caught: only the unnamed file of O_TMPFILE leaves nothing then.
 */
static void test_killed(const char *dir)
{
#ifdef __SANITIZE_ADDRESS__   /* the sanitizer takes SIGSEGV and SIGABRT for its own report */
	const int sigs[] = { SIGINT, SIGTERM, SIGKILL };
#else
	const int sigs[] = { SIGINT, SIGTERM, SIGSEGV, SIGABRT, SIGKILL };
#endif
	char kept[512], fresh[512], buf[64], err[512];

	snprintf(kept, sizeof(kept), "%s/kept.json", dir);
	snprintf(fresh, sizeof(fresh), "%s/fresh.json", dir);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		int status = 0;
		put_file(kept, "before\n");
		pid_t pid = fork();
		if (pid == 0) {
			struct outf a, b;
			if (!outf_open(&a, "--json", kept, err, sizeof(err)) ||
			    !outf_open(&b, "--csv", fresh, err, sizeof(err)) || write(a.fd, "half", 4) != 4)
				_exit(3);
			raise(sigs[i]);
			_exit(4);
		}
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == sigs[i]);
		CHECK(strcmp(unit_slurp(kept, buf, sizeof(buf)), "before\n") == 0);
		CHECK(access(fresh, F_OK) != 0);
		if (sigs[i] == SIGKILL && named) {   /* left: the next writer of each name removes it */
			struct outf o;
			CHECK_EQ_U(unit_count_entries(dir), 3);
			CHECK(outf_open(&o, "--json", kept, err, sizeof(err)));
			outf_abort(&o);
			CHECK(outf_open(&o, "--csv", fresh, err, sizeof(err)));
			outf_abort(&o);
		}
		CHECK_EQ_U(unit_count_entries(dir), 1);
		snprintf(buf, sizeof(buf), "rm -f '%s'/*", dir);
		CHECK(system(buf) == 0);
	}
}

/* `mkdir -p`: every missing folder made, an existing one fine, a file in the way named. */
static void test_mkdirs(const char *dir)
{
	char deep[512], file[512], under[600], err[512] = "", cmd[600];
	struct stat st;

	snprintf(deep, sizeof(deep), "%s/a/b/c/", dir);
	CHECK(outf_mkdirs(deep, err, sizeof(err)));
	CHECK(stat(deep, &st) == 0 && S_ISDIR(st.st_mode));
	CHECK(outf_mkdirs(deep, err, sizeof(err)));
	snprintf(file, sizeof(file), "%s/f", dir);
	put_file(file, "");
	snprintf(under, sizeof(under), "%s/g", file);
	CHECK(!outf_mkdirs(under, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "cannot make the folder '");
	CHECK(!outf_mkdirs("", err, sizeof(err)));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'/*", dir);
	CHECK(system(cmd) == 0);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/bench-test-outfile-XXXXXX";
	char cmd[128];
	int status = 0;
	pid_t pid;

	named = argc > 1 && strcmp(argv[1], "named") == 0;
	outf_force_named(named);
	if (!mkdtemp(dir))
		return 1;
	test_unwritable();
	test_char_device();
	test_fifo(dir);
	test_socket(dir);
	test_stdout();
	test_named_fd(dir);
	test_symlink(dir);
	test_refused(dir);
	test_leftover(dir);
	test_abort_all(dir);
	test_same_file(dir);
	test_unseen(dir);
	test_two_outputs(dir);
	/* inputs stay registered for the process's life: in a child of their own */
	if ((pid = fork()) == 0)
		inputs_child(dir);
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'/*", dir);
	CHECK(system(cmd) == 0);
	test_killed(dir);
	test_mkdirs(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		unit_failures++;
	return UNIT_RESULT();
}
