/* Output files: never over an input or another output, checked before any work, whole or absent. */
#include "outfile.h"

#include "range.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* ---- named temporaries, for signal handlers ---- */

/*
 * The named temporary files that exist now: a slot holds a pointer to a path that stays
 * allocated until the slot is cleared, so that a signal handler may unlink it. Lock-free
 * atomics are async-signal-safe (C17 7.14.1.1).
 */
static _Atomic(char *) named[OUTF_MAX];
static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "pointer atomics must be lock-free");
static bool force_named;   /* or BENCH_OUTFILE_NAMED set: tests of a whole command */

void outf_force_named(bool on)
{
	force_named = on;
}

/*
 * The scratch folder of a command that hands files to another program (bench history's to
 * Otava): its path and its files' paths, fixed while `scratch_live` is set, so that a signal
 * handler may unlink them and remove the folder with nothing but unlink() and rmdir().
 */
#define SCRATCH_FILES 8
static struct {
	char dir[4096];
	char file[SCRATCH_FILES][4200];
	size_t n;
} scratch;
static atomic_bool scratch_live;

static void scratch_remove_signal(void)
{
	if (!atomic_exchange(&scratch_live, false))
		return;
	for (size_t i = 0; i < scratch.n; i++)
		unlink(scratch.file[i]);
	rmdir(scratch.dir);
}

void outf_abort_all_signal(void)
{
	int saved = errno;

	for (size_t i = 0; i < OUTF_MAX; i++) {
		char *tmp = atomic_load(&named[i]);
		if (tmp)
			unlink(tmp);
	}
	scratch_remove_signal();
	errno = saved;
}

/* Signals that end a process by default: each removes the named temporaries, then ends it. */
static const int ending_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGXCPU,
				      SIGXFSZ, SIGUSR1, SIGUSR2, SIGSEGV, SIGBUS, SIGILL, SIGFPE,
				      SIGABRT, SIGSYS };

static void on_ending_signal(int sig)
{
	outf_abort_all_signal();
	raise(sig);   /* SA_RESETHAND: the default action now, as if never caught */
}

/*
 * Once, where a named temporary is first made: a handler for every signal whose action is
 * still the default (one ignored, or taken by another handler, is left as it is). The
 * harness blocks SIGINT and SIGTERM in every thread and takes them in its watchdog, which
 * calls outf_abort_all_signal itself: this handler never runs there.
 */
static void install_handlers(void)
{
	static atomic_bool done;
	struct sigaction sa = { .sa_handler = on_ending_signal, .sa_flags = SA_RESETHAND | SA_NODEFER };

	if (atomic_exchange(&done, true))
		return;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(ending_signals) / sizeof(ending_signals[0]); i++) {
		struct sigaction old;
		if (sigaction(ending_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
		    !(old.sa_flags & SA_SIGINFO))
			sigaction(ending_signals[i], &sa, NULL);
	}
}

bool outf_scratch_make(const char *prefix, const char *const *names, char *dir, size_t len,
		       char *err, size_t errlen)
{
	static atomic_bool at_exit;
	const char *tmp = getenv("TMPDIR");
	size_t n = 0;

	if (atomic_load(&scratch_live)) {
		snprintf(err, errlen, "bench bug: a second scratch folder");
		return false;
	}
	install_handlers();
	if (!atomic_exchange(&at_exit, true))
		atexit(outf_scratch_remove);   /* an exit on an error leaves no folder either */
	snprintf(scratch.dir, sizeof(scratch.dir), "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
	for (; names[n] && n < SCRATCH_FILES; n++)
		snprintf(scratch.file[n], sizeof(scratch.file[n]), "%s/%s", scratch.dir, names[n]);
	scratch.n = n;
	if (!mkdtemp(scratch.dir)) {
		snprintf(err, errlen, "cannot make a temporary folder %s: %s", scratch.dir, strerror(errno));
		return false;
	}
	for (size_t i = 0; i < n; i++)   /* the X's are filled in now */
		snprintf(scratch.file[i], sizeof(scratch.file[i]), "%s/%s", scratch.dir, names[i]);
	atomic_store(&scratch_live, true);
	snprintf(dir, len, "%s", scratch.dir);
	return true;
}

void outf_scratch_remove(void)
{
	scratch_remove_signal();
}

static bool named_add(char *tmp)
{
	install_handlers();
	for (size_t i = 0; i < OUTF_MAX; i++) {
		char *none = NULL;
		if (atomic_compare_exchange_strong(&named[i], &none, tmp))
			return true;
	}
	return false;
}

static void named_remove(const char *tmp)
{
	for (size_t i = 0; i < OUTF_MAX; i++)
		if (atomic_load(&named[i]) == tmp)
			atomic_store(&named[i], NULL);
}

/* ---- what a path is: the files of this run ---- */

/* A file of this run: an input, or an output reserved now. */
struct ident {
	bool used, output;
	bool exists;        /* dev and ino are set; else name is */
	bool named_fd;      /* "-", /dev/stdout, /dev/fd/N */
	dev_t dev;
	ino_t ino;
	mode_t kind;        /* S_IFMT bits where it exists */
	char *name;         /* a path that does not exist yet, its folder resolved */
	char *label;        /* an input's name, an output's option */
	char *path;         /* as given */
};

/* Grown as needed: a history or a baseline may read hundreds of documents. */
static struct ident *files;
static size_t n_files;

/* A name that does not exist yet, its folder resolved: "r/x.json" -> "/abs/r/x.json"; errno on NULL. */
static char *resolve_new(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	char *real = dir ? realpath(dir, NULL) : NULL;
	char *out = NULL;
	int e = errno;

	if (real && asprintf(&out, "%s%s%s", real, strcmp(real, "/") ? "/" : "", base) < 0) {
		out = NULL;
		e = ENOMEM;
	}
	free(dir);
	free(real);
	errno = e;
	return out;
}

/*
 * The descriptor a path names as such: "-" and /dev/stdout 1, /dev/stderr 2, /dev/fd/N and
 * /proc/self/fd/N N (a shell's process substitution); -1 for any other path. Opening these
 * names again would truncate, or replace, whatever the descriptor leads to.
 */
static int named_fd(const char *path)
{
	static const char *const fd_dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	uint64_t n;
	char err[8];

	if (strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0)
		return STDOUT_FILENO;
	if (strcmp(path, "/dev/stderr") == 0)
		return STDERR_FILENO;
	for (size_t i = 0; i < sizeof(fd_dirs) / sizeof(fd_dirs[0]); i++)
		if (strncmp(path, fd_dirs[i], strlen(fd_dirs[i])) == 0 &&
		    parse_u64(path + strlen(fd_dirs[i]), 0, INT_MAX, &n, err, sizeof(err)))
			return (int)n;
	return -1;
}

/* Where a path leads: its inode where it exists, else its resolved name (the path as given). */
static void identify(const char *p, struct ident *id)
{
	int fd = named_fd(p);
	struct stat st;

	memset(id, 0, sizeof(*id));
	id->named_fd = fd >= 0;
	if (fd >= 0 ? fstat(fd, &st) == 0 : stat(p, &st) == 0) {
		id->exists = true;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		id->kind = st.st_mode & S_IFMT;
		return;
	}
	id->name = resolve_new(p);
	if (!id->name)
		id->name = strdup(p);
}

static bool same(const struct ident *a, const struct ident *b)
{
	if (a->exists && b->exists)
		return a->dev == b->dev && a->ino == b->ino;
	return !a->exists && !b->exists && a->name && b->name && strcmp(a->name, b->name) == 0;
}

/*
 * The file of this run that id would clash with, or NULL: an output may be neither an input
 * nor another output; inputs may repeat. A character device (/dev/null, a terminal) is no
 * clash, unless both name a descriptor (standard output twice would interleave two files).
 */
static const struct ident *clash(const struct ident *id, bool output)
{
	for (size_t i = 0; i < n_files; i++) {
		const struct ident *f = &files[i];
		if (!f->used || (!output && !f->output) || !same(id, f))
			continue;
		if (id->exists && S_ISCHR(id->kind) && !(id->named_fd && f->named_fd))
			continue;
		return f;
	}
	return NULL;
}

/* Keeps id (its strings taken) as a file of this run; its slot, or -1 when full. */
static int keep(struct ident *id, bool output, const char *label, const char *path)
{
	size_t i = 0;

	while (i < n_files && files[i].used)
		i++;
	if (i == n_files) {
		size_t n = n_files ? 2 * n_files : 16;
		struct ident *grown = n <= INT_MAX ? realloc(files, n * sizeof(*files)) : NULL;
		if (!grown) {
			free(id->name);
			return -1;
		}
		memset(grown + n_files, 0, (n - n_files) * sizeof(*grown));
		files = grown;
		n_files = n;
	}
	files[i] = *id;
	files[i].used = true;
	files[i].output = output;
	files[i].label = strdup(label ? label : "");
	files[i].path = strdup(path);
	return (int)i;
}

static void forget(int slot)
{
	if (slot < 0)
		return;
	free(files[slot].name);
	free(files[slot].label);
	free(files[slot].path);
	memset(&files[slot], 0, sizeof(files[slot]));
}

bool outf_same_file(const char *a, const char *b)
{
	struct ident ia, ib;
	bool r;

	if (!a || !b || !*a || !*b)
		return false;
	identify(a, &ia);
	identify(b, &ib);
	r = same(&ia, &ib);
	free(ia.name);
	free(ib.name);
	return r;
}

/* ---- inputs ---- */

bool outf_input(const char *what, const char *path, char *err, size_t errlen)
{
	struct ident id;
	struct stat st;
	const struct ident *c;
	int fd;

	if (!path || !*path) {
		snprintf(err, errlen, "'' (an empty file name): cannot read: an empty name names no file");
		return false;
	}
	if (stat(path, &st) != 0 || (fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return false;
	}
	close(fd);
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: cannot read: it is a directory, not a file", path);
		return false;
	}
	identify(path, &id);
	if ((c = clash(&id, false))) {
		snprintf(err, errlen, "%s (%s): cannot read: it is the file %s '%s' writes (an output "
			 "never replaces an input): give the output another name", path, what, c->label,
			 c->path);
		free(id.name);
		return false;
	}
	if (keep(&id, false, what, path) < 0) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(ENOMEM));
		return false;
	}
	return true;
}

/* ---- outputs ---- */

static bool fail(struct outf *o, const char *path, const char *why, char *err, size_t errlen)
{
	snprintf(err, errlen, "cannot write '%s': %s", path, why);
	outf_abort(o);
	return false;
}

/* A new file's folder that cannot be resolved: the system's reason, and the folder. */
static bool fail_folder(struct outf *o, char *err, size_t errlen)
{
	int e = errno;
	const char *slash = strrchr(o->path, '/');
	char why[1024];

	snprintf(why, sizeof(why), "%s (the folder '%.*s')", strerror(e),
		 slash ? (int)(slash - o->path) : 1, slash ? o->path : ".");
	return fail(o, o->path, why, err, errlen);
}

/* The folder of a resolved destination, as a new string. */
static char *folder_of(const char *dest)
{
	const char *slash = strrchr(dest, '/');

	return slash ? strndup(dest, slash == dest ? 1 : (size_t)(slash - dest)) : strdup(".");
}

/* This host's name as it appears in a temporary's name: HOST of dest.tmp.HOST.PID.XXXXXX. */
static const char *host_tag(void)
{
	static char host[128];

	if (!host[0] && (gethostname(host, sizeof(host) - 1) != 0 || !host[0]))
		snprintf(host, sizeof(host), "host");
	for (char *c = host; *c; c++)
		if (*c == '/' || *c == '.')
			*c = '-';
	return host;
}

/*
 * The temporaries a process of this host killed where nothing could be caught (SIGKILL, a
 * power cut) left beside dest: dest.tmp.HOST.PID.* of a PID that no longer runs. Another
 * host's (a shared NFS folder) and a running process's are left alone, as is any other name.
 */
static void sweep_stale(const char *dest)
{
	const char *slash = strrchr(dest, '/');
	char *dir = folder_of(dest), prefix[512];
	struct dirent *e;
	DIR *d;

	snprintf(prefix, sizeof(prefix), "%s.tmp.%s.", slash ? slash + 1 : dest, host_tag());
	if (!dir || !(d = opendir(dir))) {
		free(dir);
		return;
	}
	while ((e = readdir(d))) {
		char *end, path[4096];
		long pid;
		if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
			continue;
		pid = strtol(e->d_name + strlen(prefix), &end, 10);
		if (end == e->d_name + strlen(prefix) || *end != '.' || pid <= 0 || pid == getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	free(dir);
}

/* A named temporary beside dest: dest.tmp.HOST.PID.XXXXXX, made by mkostemp. */
static bool open_named(struct outf *o, char *err, size_t errlen)
{
	if (asprintf(&o->tmp, "%s.tmp.%s.%ld.XXXXXX", o->dest, host_tag(), (long)getpid()) < 0) {
		o->tmp = NULL;
		return fail(o, o->path, strerror(ENOMEM), err, errlen);
	}
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		return fail(o, o->path, strerror(errno), err, errlen);
	}
	o->own_fd = true;
	if (!named_add(o->tmp))
		return fail(o, o->path, "too many output files at once", err, errlen);
	return true;
}

/*
 * A file replaced whole: an unnamed file in dest's folder, or where its filesystem cannot
 * make one (EOPNOTSUPP, EISDIR on a kernel without O_TMPFILE), a named temporary.
 */
static bool open_file(struct outf *o, char *dest, char *err, size_t errlen)
{
	char *dir;
	int e;

	o->dest = dest;
	if (!dest)
		return fail_folder(o, err, errlen);
	sweep_stale(dest);
	if (force_named || getenv("BENCH_OUTFILE_NAMED"))
		return open_named(o, err, errlen);
	if (!(dir = folder_of(dest)))
		return fail(o, o->path, strerror(ENOMEM), err, errlen);
	o->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	e = errno;
	free(dir);
	if (o->fd >= 0) {
		o->own_fd = o->unnamed = true;
		return true;
	}
	if (e == EOPNOTSUPP || e == EISDIR || e == EINVAL)
		return open_named(o, err, errlen);
	return fail(o, o->path, strerror(e), err, errlen);
}

/* A character device or FIFO opened as it is (a FIFO waits for its reader, as `>` does). */
static bool open_stream(struct outf *o, char *err, size_t errlen)
{
	o->stream = true;
	o->fd = open(o->path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (o->fd < 0)
		return fail(o, o->path, strerror(errno), err, errlen);
	o->own_fd = true;
	return true;
}

/* A Unix socket: connected as a stream. */
static bool open_socket(struct outf *o, char *err, size_t errlen)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };

	o->stream = true;
	if (strlen(o->path) >= sizeof(a.sun_path))
		return fail(o, o->path, strerror(ENAMETOOLONG), err, errlen);
	memcpy(a.sun_path, o->path, strlen(o->path) + 1);
	o->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (o->fd >= 0)
		o->own_fd = true;
	if (o->fd < 0 || connect(o->fd, (const struct sockaddr *)&a, sizeof(a)) != 0)
		return fail(o, o->path, strerror(errno), err, errlen);
	return true;
}

/* What the existing file st decides (see struct outf). */
static bool open_existing(struct outf *o, const struct stat *st, char *err, size_t errlen)
{
	if (S_ISREG(st->st_mode)) {
		o->mode = st->st_mode & 07777;   /* the replacement keeps the file's permissions */
		return open_file(o, realpath(o->path, NULL), err, errlen);
	}
	if (S_ISCHR(st->st_mode) || S_ISFIFO(st->st_mode))
		return open_stream(o, err, errlen);
	if (S_ISSOCK(st->st_mode))
		return open_socket(o, err, errlen);
	if (S_ISDIR(st->st_mode))
		return fail(o, o->path, "it is a directory; give a file name", err, errlen);
	return fail(o, o->path, S_ISBLK(st->st_mode) ? "it is a block device, which a results file "
		    "would overwrite; give a file name" : "it is not a file, device, FIFO or socket",
		    err, errlen);
}

/* The process's umask, without changing it (umask(2) would, for every thread, for a moment). */
static mode_t umask_now(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned m = 022;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Umask: %o", &m) == 1)
			break;
	if (f)
		fclose(f);
	return (mode_t)m;
}

/* Refuses a path that is an input or another output of this run; else keeps it (o->slot). */
static bool claim(struct outf *o, const char *opt, const char *path, char *err, size_t errlen)
{
	struct ident id;
	const struct ident *c;
	char why[1024];

	identify(path, &id);
	if ((c = clash(&id, true))) {
		if (c->output)
			snprintf(why, sizeof(why), "it is the same file as %s '%s' (two outputs of one run "
				 "would write one file): give each its own", c->label, c->path);
		else
			snprintf(why, sizeof(why), "it is %s '%s', an input of this command (an output "
				 "never replaces an input): give another file", c->label, c->path);
		free(id.name);
		return fail(o, path, why, err, errlen);
	}
	if ((o->slot = keep(&id, true, opt, path)) < 0)
		return fail(o, path, strerror(ENOMEM), err, errlen);
	return true;
}

bool outf_open(struct outf *o, const char *opt, const char *path, char *err, size_t errlen)
{
	struct stat st;

	*o = OUTF_NONE;
	o->mode = 0666 & ~umask_now();   /* a new file, as `>` makes it */
	if (!path || !*path)
		return fail(o, "", "an empty name names no file", err, errlen);
	if (!claim(o, opt, path, err, errlen))
		return false;
	if (!(o->path = strdup(path)))
		return fail(o, path, strerror(ENOMEM), err, errlen);
	o->fd = named_fd(path);
	if (o->fd >= 0) {
		o->stream = true;
		if (fcntl(o->fd, F_GETFD) == 0)
			return true;
		return fail(o, path, strerror(errno), err, errlen);
	}
	if (stat(path, &st) == 0)
		return open_existing(o, &st, err, errlen);
	if (errno != ENOENT)
		return fail(o, path, strerror(errno), err, errlen);
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return fail(o, path, "it is a symbolic link to a missing file", err, errlen);
	if (path[strlen(path) - 1] == '/')
		return fail(o, path, "a name ending in '/' names a folder; give a file name", err, errlen);
	return open_file(o, resolve_new(path), err, errlen);
}

bool outfile_write_all(int fd, const void *buf, size_t len)
{
	const char *data = buf;
	size_t off = 0;

	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			errno = w == 0 ? EIO : errno;
			return false;
		}
		off += (size_t)w;
	}
	return true;
}

/*
 * The unnamed file o->fd as o->dest: linked there where dest does not exist; else linked
 * under a free name dest.tmp.HOST.PID.N (a signal in between removes it), renamed over dest.
 */
static bool link_into_place(struct outf *o)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, o->dest, AT_SYMLINK_FOLLOW) == 0)
		return true;
	if (errno != EEXIST)
		return false;
	for (unsigned k = 0; k < 100; k++) {
		if (asprintf(&o->tmp, "%s.tmp.%s.%ld.%u", o->dest, host_tag(), (long)getpid(), k) < 0) {
			o->tmp = NULL;
			errno = ENOMEM;
			return false;
		}
		if (!named_add(o->tmp)) {
			errno = EMFILE;
			return false;
		}
		if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW) == 0)
			return rename(o->tmp, o->dest) == 0;
		int e = errno;
		named_remove(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		if (e != EEXIST) {
			errno = e;
			return false;
		}
	}
	errno = EEXIST;
	return false;
}

bool outf_commit(struct outf *o, const char *data, size_t len, char *err, size_t errlen)
{
	bool ok;

	if (o->stream && !o->own_fd)
		fflush(o->fd == STDERR_FILENO ? stderr : stdout);   /* what was printed comes first */
	ok = outfile_write_all(o->fd, data, len);
	if (!o->stream)
		ok = ok && fchmod(o->fd, o->mode) == 0 && fsync(o->fd) == 0;
	if (o->unnamed)
		ok = ok && link_into_place(o);
	if (o->own_fd)
		ok = close(o->fd) == 0 && ok;
	o->fd = -1;
	if (!o->stream && !o->unnamed)
		ok = ok && rename(o->tmp, o->dest) == 0;
	if (!ok)
		return fail(o, o->path, strerror(errno), err, errlen);
	if (o->tmp) {
		named_remove(o->tmp);   /* renamed: nothing left to unlink */
		free(o->tmp);
		o->tmp = NULL;
	}
	outf_abort(o);
	return true;
}

void outf_abort(struct outf *o)
{
	if (o->own_fd && o->fd >= 0)
		close(o->fd);
	if (o->tmp) {
		unlink(o->tmp);
		named_remove(o->tmp);
	}
	forget(o->slot);
	free(o->tmp);
	free(o->dest);
	free(o->path);
	*o = OUTF_NONE;
}

/* ---- folders ---- */

bool outf_mkdirs(const char *dir, char *err, size_t errlen)
{
	char *p = strdup(dir);
	mode_t mode = 0777 & ~umask_now();
	bool ok = p && *p;
	struct stat st;

	for (char *s = p + (p && *p == '/'); ok && s; ) {
		char *slash = strchr(s, '/');
		if (slash)
			*slash = '\0';
		if (*s && mkdir(p, mode) != 0 && (errno != EEXIST || stat(p, &st) != 0 ||
						  !S_ISDIR(st.st_mode))) {
			snprintf(err, errlen, "cannot make the folder '%s': %s", p,
				 errno == EEXIST ? "a file of that name is in the way" : strerror(errno));
			ok = false;
		}
		if (slash)
			*slash = '/';
		s = slash ? slash + 1 : NULL;
	}
	if (!p || !*p)
		snprintf(err, errlen, "cannot make the folder '%s': %s", dir,
			 p ? "an empty name names no folder" : strerror(ENOMEM));
	free(p);
	return ok;
}
