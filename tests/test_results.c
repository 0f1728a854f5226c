/*
 * Unit tests of results documents: JSON round trip, atomic replacement, CSV view, and what each
 * kind of path is written as (devices, FIFOs, sockets and standard output as streams, a link's
 * target replaced, folders and '' refused at open, temporaries removed from a signal handler).
 */
#include "results.h"
#include "unit.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static json_t *sample_doc(void)
{
	char *argv[] = { "bench", "vecadd", "--groups", "1..2" };
	const double t[] = { 1000, 1200, 1100 };
	json_t *doc = res_doc_new(4, argv, NULL, "vecadd");
	struct stats st;

	for (int g = 1; g <= 2; g++) {
		json_t *p = json_object(), *pa = json_object(), *m = json_object();
		json_object_set_new(pa, "groups", json_integer(g));
		json_object_set_new(pa, "sg_size_requested", g == 1 ? json_integer(32) : json_null());
		json_object_set_new(p, "params", pa);
		json_object_set_new(p, "status", json_string(g == 1 ? "ok" : "failed"));
		json_object_set_new(p, "reason", g == 1 ? json_null() : json_string("a, \"quoted\" reason"));
		json_object_set_new(p, "validated", json_boolean(g == 1));
		stats_compute(t, 3, &st);
		json_object_set_new(p, "time_ns", res_stats_json(&st, t, 3));
		json_object_set_new(m, "gbps", json_real(12.5));
		json_object_set_new(p, "metrics", m);
		res_doc_add_point(doc, p);
	}
	return doc;
}

static void test_json_round_trip(const char *dir)
{
	char path[512], err[512];
	struct res_out o;
	json_t *doc = sample_doc(), *back;
	json_error_t je;

	snprintf(path, sizeof(path), "%s/r.json", dir);
	CHECK(res_out_open(&o, path, err, sizeof(err)));
	CHECK(access(path, F_OK) != 0);   /* nothing at the destination before commit */
	CHECK(res_write_json(&o, doc, err, sizeof(err)));
	back = json_load_file(path, 0, &je);
	CHECK(back != NULL);
	CHECK(json_equal(doc, back));
	CHECK_EQ_U(json_integer_value(json_object_get(back, "schema_version")), RESULTS_SCHEMA_VERSION);
	CHECK(json_is_string(json_object_get(json_object_get(back, "tool"), "git_describe")));
	CHECK_NEAR(json_real_value(json_object_get(json_object_get(json_array_get(
			   json_object_get(back, "points"), 0), "time_ns"), "median")), 1100, 0);
	CHECK_EQ_U(count_entries(dir), 1);   /* no temporary left */
	json_decref(back);

	/* a second write replaces the file whole; an aborted one leaves it untouched */
	CHECK(res_out_open(&o, path, err, sizeof(err)));
	res_out_abort(&o);
	back = json_load_file(path, 0, &je);
	CHECK(back && json_equal(doc, back));
	json_decref(back);
	CHECK_EQ_U(count_entries(dir), 1);
	json_decref(doc);
}

static void test_csv(const char *dir)
{
	char path[512], err[512], line[2048];
	struct res_out o;
	json_t *doc = sample_doc();
	FILE *f;

	snprintf(path, sizeof(path), "%s/r.csv", dir);
	CHECK(res_out_open(&o, path, err, sizeof(err)));
	CHECK(res_write_csv(&o, doc, err, sizeof(err)));
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (f && fgets(line, sizeof(line), f))
		CHECK_STR_CONTAINS(line, "status,reason,validated,params.groups,params.sg_size_requested,"
					 "time_ns.min,time_ns.median");
	if (f && fgets(line, sizeof(line), f))
		CHECK_STR_CONTAINS(line, "\"ok\",,true,1,32,1000,1100,");
	if (f && fgets(line, sizeof(line), f))
		CHECK_STR_CONTAINS(line, "\"failed\",\"a, \"\"quoted\"\" reason\",false,2,,");
	if (f)
		fclose(f);
	json_decref(doc);
}

static void test_unwritable(void)
{
	struct res_out o;
	char err[512] = "";

	CHECK(!res_out_open(&o, "/nonexistent-dir/x.json", err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "cannot write '/nonexistent-dir/x.json'");
	CHECK_STR_CONTAINS(err, "No such file or directory");
}

/* The whole content of path into buf (NUL-terminated); "" when it cannot be read. */
static const char *slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
	return buf;
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
	struct res_out o;

	return res_out_open(&o, path, err, errlen) &&
	       res_out_commit(&o, text, strlen(text), err, errlen);
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
	CHECK_EQ_U(count_entries(dir), 1);
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
	struct res_out o;
	int fd;

	snprintf(path, sizeof(path), "%s/via-fd", dir);
	put_file(path, "head\n");
	fd = open(path, O_WRONLY | O_APPEND);
	CHECK(fd >= 0);
	snprintf(name, sizeof(name), "/dev/fd/%d", fd);
	CHECK(commit_text(name, "appended\n", err, sizeof(err)));
	CHECK(strcmp(slurp(path, buf, sizeof(buf)), "head\nappended\n") == 0);
	snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
	CHECK(res_out_same_file(name, path));
	CHECK(close(fd) == 0);   /* still open after the commit: the descriptor was not ours */
	snprintf(name, sizeof(name), "/dev/fd/%d", fd);
	CHECK(!res_out_open(&o, name, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "': Bad file descriptor");
	CHECK_EQ_U(count_entries(dir), 1);
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

/* Through a link the target is replaced atomically, the temporary beside the target. */
static void test_symlink(const char *dir)
{
	char sub[512], target[600], link[512], cmd[1200], buf[64], err[512] = "";
	struct stat st;
	struct res_out o;

	snprintf(sub, sizeof(sub), "%s/sub", dir);
	snprintf(target, sizeof(target), "%s/t.json", sub);
	snprintf(link, sizeof(link), "%s/l.json", dir);
	CHECK(mkdir(sub, 0700) == 0);
	put_file(target, "old\n");
	CHECK(chmod(target, 0600) == 0);
	CHECK(symlink("sub/t.json", link) == 0);
	CHECK(res_out_open(&o, link, err, sizeof(err)));
	CHECK_EQ_U(count_entries(sub), 2);   /* t.json and its temporary */
	CHECK_EQ_U(count_entries(dir), 2);   /* sub and the link */
	CHECK(res_out_commit(&o, "new\n", 4, err, sizeof(err)));
	CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	CHECK(strcmp(slurp(target, buf, sizeof(buf)), "new\n") == 0);
	CHECK(stat(target, &st) == 0 && (st.st_mode & 0777) == 0600);   /* permissions kept */
	CHECK_EQ_U(count_entries(sub), 1);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", sub, link);
	CHECK(system(cmd) == 0);
	/* a link to nothing is refused rather than guessed at */
	CHECK(symlink("missing.json", link) == 0);
	CHECK(!res_out_open(&o, link, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "l.json': it is a symbolic link to a missing file");
	unlink(link);
}

/* A folder, '' and "x/" fail at open, before any work, naming the path and why. */
static void test_refused(const char *dir)
{
	struct res_out o;
	char err[512] = "", want[600], path[512];

	CHECK(!res_out_open(&o, dir, err, sizeof(err)));
	snprintf(want, sizeof(want), "cannot write '%s': it is a directory", dir);
	CHECK_STR_CONTAINS(err, want);
	CHECK(!res_out_open(&o, "", err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "cannot write '': an empty name names no file");
	snprintf(path, sizeof(path), "%s/new/", dir);
	CHECK(!res_out_open(&o, path, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "/new/': a name ending in '/' names a folder");
	CHECK_EQ_U(count_entries(dir), 0);
	res_out_abort(&o);   /* harmless after a refusal */
}

/* A temporary left by a crashed run does not stop a later one, and is not touched by it. */
static void test_leftover(const char *dir)
{
	char path[512], left[600], cmd[1200], buf[64], err[512] = "";

	snprintf(path, sizeof(path), "%s/r.json", dir);
	snprintf(left, sizeof(left), "%s.tmp.ABC", path);
	put_file(left, "");
	snprintf(left, sizeof(left), "%s.tmp.XXXXXX", path);
	put_file(left, "");
	CHECK(commit_text(path, "fresh\n", err, sizeof(err)));
	CHECK(strcmp(slurp(path, buf, sizeof(buf)), "fresh\n") == 0);
	CHECK_EQ_U(count_entries(dir), 3);
	snprintf(cmd, sizeof(cmd), "rm -f '%s' '%s'*", path, path);
	CHECK(system(cmd) == 0);
}

static void on_signal(int sig)
{
	(void)sig;
	res_out_abort_all_signal();
}

/* What SIGINT's handler does: every reserved temporary goes, the destinations never appear. */
static void test_abort_all(const char *dir)
{
	struct res_out a, b, c;
	char pa[512], pb[512], err[512] = "";

	snprintf(pa, sizeof(pa), "%s/a.json", dir);
	snprintf(pb, sizeof(pb), "%s/b.csv", dir);
	CHECK(res_out_open(&a, pa, err, sizeof(err)));
	CHECK(res_out_open(&b, pb, err, sizeof(err)));
	CHECK(res_out_open(&c, "/dev/null", err, sizeof(err)));
	CHECK_EQ_U(count_entries(dir), 2);
	signal(SIGUSR1, on_signal);
	raise(SIGUSR1);
	signal(SIGUSR1, SIG_DFL);
	CHECK_EQ_U(count_entries(dir), 0);
	res_out_abort(&a);   /* harmless after the handler */
	res_out_abort(&b);
	res_out_abort(&c);
	CHECK_EQ_U(count_entries(dir), 0);
	/* a slot freed by commit or abort is not unlinked again */
	CHECK(commit_text(pa, "kept\n", err, sizeof(err)));
	res_out_abort_all_signal();
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
	CHECK(res_out_same_file(f, f));            /* neither exists yet: by resolved name */
	CHECK(res_out_same_file(f, dot));
	CHECK(res_out_same_file(f, cwd_rel));
	CHECK(!res_out_same_file(f, other));
	put_file(f, "x");
	CHECK(symlink("x.json", l) == 0);
	CHECK(res_out_same_file(f, l));            /* existing: by device and inode */
	CHECK(!res_out_same_file(f, other));
	CHECK(!res_out_same_file(other, f));
	CHECK(res_out_same_file("-", "/dev/stdout"));
	CHECK(res_out_same_file("/dev/null", "/dev/null"));
	CHECK(!res_out_same_file("/dev/null", f));
	CHECK(!res_out_same_file("", ""));
	CHECK(!res_out_same_file(NULL, f));
	unlink(l);
	unlink(f);
}

/* Keys are data too: a comma, quote or line break in one is quoted, a long one kept whole. */
static void test_csv_odd_keys(const char *dir)
{
	char path[512], err[512], text[2048], want[400], longkey[301];
	struct res_out o;
	json_t *doc = json_object(), *pts = json_array(), *p = json_object(), *pa = json_object();

	memset(longkey, 'k', 300);
	longkey[300] = '\0';
	json_object_set_new(pa, "a,b", json_integer(1));
	json_object_set_new(pa, "say \"x\"\n", json_integer(2));
	json_object_set_new(pa, longkey, json_integer(3));
	json_object_set_new(p, "params", pa);
	json_array_append_new(pts, p);
	json_object_set_new(doc, "points", pts);
	snprintf(path, sizeof(path), "%s/k.csv", dir);
	CHECK(res_out_open(&o, path, err, sizeof(err)));
	CHECK(res_write_csv(&o, doc, err, sizeof(err)));
	snprintf(want, sizeof(want), "status,reason,validated,\"params.a,b\",\"params.say \"\"x\"\" \","
		 "params.%s\n,,,1,2,3\n", longkey);
	CHECK(strcmp(slurp(path, text, sizeof(text)), want) == 0);
	unlink(path);
	json_decref(doc);
}

int main(void)
{
	char dir[] = "/tmp/bench-test-results-XXXXXX";
	char cmd[128];

	if (!mkdtemp(dir))
		return 1;
	test_json_round_trip(dir);
	test_csv(dir);
	test_unwritable();
	snprintf(cmd, sizeof(cmd), "rm -f '%s'/*", dir);
	if (system(cmd) != 0)
		unit_failures++;
	test_csv_odd_keys(dir);
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
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		unit_failures++;
	return UNIT_RESULT();
}
