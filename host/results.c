/* Results documents: versioned JSON written atomically, and CSV views. */
#include "results.h"

#include "dev.h"
#include "range.h"
#include "version.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

const char *res_tool_version(void)
{
	return BENCH_VERSION;
}

const char *res_tool_describe(void)
{
	return BENCH_DESCRIBE;
}

/*
 * The temporary files reserved now, for res_out_abort_all_signal: a slot holds a pointer to a
 * path that stays allocated until the slot is cleared, so a signal handler may unlink it.
 * Lock-free atomics are async-signal-safe (C17 7.14.1.1).
 */
#define RES_OUT_SLOTS 64
static _Atomic(char *) reserved[RES_OUT_SLOTS];
static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "pointer atomics must be lock-free");

static bool reserve(char *tmp)
{
	for (size_t i = 0; i < RES_OUT_SLOTS; i++) {
		char *none = NULL;
		if (atomic_compare_exchange_strong(&reserved[i], &none, tmp))
			return true;
	}
	return false;
}

static void release(const char *tmp)
{
	for (size_t i = 0; i < RES_OUT_SLOTS; i++)
		if (atomic_load(&reserved[i]) == tmp)
			atomic_store(&reserved[i], NULL);
}

void res_out_abort_all_signal(void)
{
	int saved = errno;

	for (size_t i = 0; i < RES_OUT_SLOTS; i++) {
		char *tmp = atomic_load(&reserved[i]);
		if (tmp)
			unlink(tmp);
	}
	errno = saved;
}

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

static bool fail(struct res_out *o, const char *path, const char *why, char *err, size_t errlen)
{
	snprintf(err, errlen, "cannot write '%s': %s", path, why);
	res_out_abort(o);
	return false;
}

/* A file replaced whole: the temporary dest.tmp.XXXXXX beside the (resolved) destination. */
static bool open_file(struct res_out *o, char *dest, char *err, size_t errlen)
{
	size_t n;

	o->dest = dest;
	if (!dest)
		return fail(o, o->path, strerror(errno), err, errlen);
	n = strlen(dest) + sizeof(".tmp.XXXXXX");
	o->tmp = malloc(n);
	if (!o->tmp)
		return fail(o, o->path, strerror(ENOMEM), err, errlen);
	snprintf(o->tmp, n, "%s.tmp.XXXXXX", dest);
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		return fail(o, o->path, strerror(errno), err, errlen);
	}
	o->own_fd = true;
	if (!reserve(o->tmp))
		return fail(o, o->path, "too many results files open at once", err, errlen);
	return true;
}

/* A character device or FIFO opened as it is (a FIFO waits for its reader, as `>` does). */
static bool open_stream(struct res_out *o, char *err, size_t errlen)
{
	o->stream = true;
	o->fd = open(o->path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (o->fd < 0)
		return fail(o, o->path, strerror(errno), err, errlen);
	o->own_fd = true;
	return true;
}

/* A Unix socket: connected as a stream. */
static bool open_socket(struct res_out *o, char *err, size_t errlen)
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

/* What the existing file st decides (see struct res_out). */
static bool open_existing(struct res_out *o, const struct stat *st, char *err, size_t errlen)
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

bool res_out_open(struct res_out *o, const char *path, char *err, size_t errlen)
{
	struct stat st;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->mode = 0644;   /* mkstemp creates 0600; a new results file is an ordinary file */
	if (!path || !*path) {
		snprintf(err, errlen, "cannot write '': an empty name names no file");
		return false;
	}
	o->path = strdup(path);
	if (!o->path)
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
		return fail(o, path, "a name ending in '/' names a folder; give a file name", err,
			    errlen);
	return open_file(o, resolve_new(path), err, errlen);
}

static bool write_all(int fd, const char *data, size_t len)
{
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

bool res_out_commit(struct res_out *o, const char *data, size_t len, char *err, size_t errlen)
{
	bool ok;

	if (o->stream && !o->own_fd)
		fflush(o->fd == STDERR_FILENO ? stderr : stdout);   /* what was printed comes first */
	ok = write_all(o->fd, data, len);
	if (!o->stream)
		ok = ok && fchmod(o->fd, o->mode) == 0 && fsync(o->fd) == 0;
	if (o->own_fd)
		ok = close(o->fd) == 0 && ok;
	o->fd = -1;
	if (!o->stream)
		ok = ok && rename(o->tmp, o->dest) == 0;
	if (!ok)
		return fail(o, o->path, strerror(errno), err, errlen);
	if (o->tmp) {
		release(o->tmp);   /* renamed: nothing left to unlink */
		free(o->tmp);
		o->tmp = NULL;
	}
	res_out_abort(o);
	return true;
}

void res_out_abort(struct res_out *o)
{
	if (o->own_fd && o->fd >= 0)
		close(o->fd);
	if (o->tmp) {
		unlink(o->tmp);
		release(o->tmp);
	}
	free(o->tmp);
	free(o->dest);
	free(o->path);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}

/* Where a results path leads: its inode where it exists (true), else its resolved name in *name. */
static bool path_id(const char *p, struct stat *st, char **name)
{
	int fd = named_fd(p);

	*name = NULL;
	if (fd >= 0 ? fstat(fd, st) == 0 : stat(p, st) == 0)
		return true;
	*name = resolve_new(p);
	if (!*name)
		*name = strdup(p);
	return false;
}

bool res_out_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char *na, *nb;
	bool ea, eb, same;

	if (!a || !b || !*a || !*b)
		return false;
	ea = path_id(a, &sa, &na);
	eb = path_id(b, &sb, &nb);
	if (ea && eb)
		same = sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	else
		same = !ea && !eb && na && nb && strcmp(na, nb) == 0;
	free(na);
	free(nb);
	return same;
}

/*
 * What is recorded from the environment: names ending in '*' are prefixes. Each changes
 * which driver runs or how it runs, or what bench itself does.
 */
static const char *const env_recorded[] = {
	"OCL_ICD_*",                   /* ocl-icd: OCL_ICD_VENDORS, OCL_ICD_FILENAMES, platform order */
	"OPENCL_LAYERS", "OPENCL_LAYER_PATH",   /* Khronos loader layers */
	"ZE_*", "ZEX_*", "ZET_*",      /* Level Zero: ZE_FLAT_DEVICE_HIERARCHY, ZE_AFFINITY_MASK, ZEX_NUMBER_OF_CCS */
	"NEO*", "IGC_*",               /* Intel compute runtime debug keys, Intel Graphics Compiler */
	"SYCL_*", "ONEAPI_*",          /* oneAPI device selection */
	"CL_CONFIG_*",                 /* Intel's CPU runtime */
	"POCL_*",                      /* PoCL: devices, work-group method, cache */
	"CUDA_*",                      /* NVIDIA: CUDA_VISIBLE_DEVICES, CUDA_CACHE_DISABLE */
	"NVIDIA_VISIBLE_DEVICES",      /* containers */
	"GPU_*", "HSA_*", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "AMD_*",   /* AMD */
	"OMP_*",                       /* bench's host side (inputs and checks) runs on OpenMP */
	"BENCH_*",                     /* bench's own: BENCH_DEVICE, BENCH_SG, BENCH_HOST_MEMORY */
	"LD_LIBRARY_PATH", "LD_PRELOAD",        /* which loader and drivers are loaded */
};

static bool env_wanted(const char *entry)
{
	size_t name_len = strcspn(entry, "=");

	for (size_t i = 0; i < sizeof(env_recorded) / sizeof(env_recorded[0]); i++) {
		const char *pat = env_recorded[i];
		size_t n = strlen(pat);
		if (pat[n - 1] == '*' ? name_len >= n - 1 && strncmp(entry, pat, n - 1) == 0
				      : name_len == n && strncmp(entry, pat, n) == 0)
			return true;
	}
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

json_t *res_environment_json(void)
{
	extern char **environ;
	json_t *o = json_object();
	size_t n = 0, k = 0;
	const char **set;

	while (environ[n])
		n++;
	if (!(set = malloc((n ? n : 1) * sizeof(*set))))
		return o;
	for (size_t i = 0; i < n; i++)
		if (strchr(environ[i], '=') && env_wanted(environ[i]))
			set[k++] = environ[i];
	qsort(set, k, sizeof(*set), cmp_str);
	for (size_t i = 0; i < k; i++) {
		const char *eq = strchr(set[i], '=');
		char name[256];
		snprintf(name, sizeof(name), "%.*s", (int)(eq - set[i]), set[i]);
		json_object_set_new(o, name, json_string(eq + 1));
	}
	free(set);
	return o;
}

/*
 * What decides what a device is on Intel's GPU runtime: read when the driver starts, so one
 * mode per process. ZE_FLAT_DEVICE_HIERARCHY: FLAT (the default since 2023 on Xe-HPC) makes
 * each stack of a Max 1550 its own root device; COMPOSITE makes one root device per card
 * whose stacks are NUMA sub-devices, and a kernel on the root device has its work-groups
 * split over the stacks (implicit scaling); COMBINED, both. ZE_AFFINITY_MASK hides devices
 * or stacks; ZEX_NUMBER_OF_CCS splits a stack into 2 or 4 compute command streamers.
 * Their values are in `environment`; this names them and says which were unset.
 */
json_t *res_hierarchy_json(void)
{
	static const char *const vars[] = { "ZE_FLAT_DEVICE_HIERARCHY", "ZE_AFFINITY_MASK",
					    "ZEX_NUMBER_OF_CCS" };
	static const char *const modes[] = { "FLAT", "COMPOSITE", "COMBINED" };
	json_t *o = json_object(), *names = json_array(), *unset = json_array();
	const char *flat = getenv(vars[0]), *mode = "driver default";

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		json_array_append_new(names, json_string(vars[i]));
		if (!getenv(vars[i]))
			json_array_append_new(unset, json_string(vars[i]));
	}
	for (size_t i = 0; flat && i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcasecmp(flat, modes[i]) == 0)
			mode = modes[i];
	if (flat && strcmp(mode, "driver default") == 0)
		mode = "not a mode the driver knows";
	json_object_set_new(o, "mode", json_string(mode));
	json_object_set_new(o, "variables", names);
	json_object_set_new(o, "unset", unset);
	json_object_set_new(o, "note", json_string(
		"Intel's GPU runtime reads these when it starts: one mode per process (values of the "
		"ones set are in `environment`). FLAT, its default since 2023 on Xe-HPC: each stack is "
		"its own root device. COMPOSITE: one root device per card, its stacks NUMA "
		"sub-devices (--sub-devices numa), a kernel on the root device split over the stacks "
		"by work-group (implicit scaling). ZE_AFFINITY_MASK hides devices or stacks; "
		"ZEX_NUMBER_OF_CCS splits each stack into 2 or 4 compute command streamers. Other "
		"drivers ignore them."));
	return o;
}

static void utc_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void res_doc_finish(json_t *doc)
{
	char ts[32];

	utc_now(ts, sizeof(ts));
	json_object_set_new(doc, "end_timestamp", json_string(ts));
}

static json_t *host_json(void)
{
	json_t *h = json_object();
	struct utsname u;
	char name[256] = "";

	gethostname(name, sizeof(name) - 1);
	json_object_set_new(h, "hostname", json_string(name));
	if (uname(&u) == 0) {
		json_object_set_new(h, "os", json_string(u.sysname));
		json_object_set_new(h, "kernel", json_string(u.release));
		json_object_set_new(h, "machine", json_string(u.machine));
	}
	json_object_set_new(h, "cpus_online", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	return h;
}

json_t *res_doc_new(int argc, char **argv, const struct dev_info *dev, const char *benchmark)
{
	json_t *doc = json_object(), *tool = json_object(), *cmd = json_array();
	char ts[32];

	utc_now(ts, sizeof(ts));
	json_object_set_new(tool, "name", json_string("bench"));
	json_object_set_new(tool, "version", json_string(BENCH_VERSION));
	json_object_set_new(tool, "git_describe", json_string(BENCH_DESCRIBE));
	for (int i = 0; i < argc; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	json_object_set_new(doc, "schema_version", json_integer(RESULTS_SCHEMA_VERSION));
	json_object_set_new(doc, "tool", tool);
	json_object_set_new(doc, "timestamp", json_string(ts));
	json_object_set_new(doc, "command", cmd);
	json_object_set_new(doc, "host", host_json());
	json_object_set_new(doc, "environment", res_environment_json());
	json_object_set_new(doc, "device_hierarchy", res_hierarchy_json());
	json_object_set_new(doc, "device", dev ? dev_to_json(dev) : json_null());
	json_object_set_new(doc, "benchmark", json_string(benchmark));
	json_object_set_new(doc, "points", json_array());
	return doc;
}

void res_doc_add_point(json_t *doc, json_t *point)
{
	json_array_append_new(json_object_get(doc, "points"), point);
}

json_t *res_stats_json(const struct stats *s, const double *samples, size_t n)
{
	json_t *o = json_object(), *a = json_array();

	json_object_set_new(o, "min", json_real(s->min));
	json_object_set_new(o, "median", json_real(s->median));
	json_object_set_new(o, "mean", json_real(s->mean));
	json_object_set_new(o, "stddev", json_real(s->stddev));
	json_object_set_new(o, "cv", json_real(s->cv));
	json_object_set_new(o, "p5", json_real(s->p5));
	json_object_set_new(o, "p95", json_real(s->p95));
	json_object_set_new(o, "max", json_real(s->max));
	json_object_set_new(o, "n", json_integer((json_int_t)n));
	double lo, hi, level;
	if (stats_median_ci(samples, n, 0.95, &lo, &hi, &level)) {
		json_object_set_new(o, "median_ci95", json_pack("[f, f]", lo, hi));
		json_object_set_new(o, "median_ci95_level", json_real(level));
	} else {
		json_object_set_new(o, "median_ci95", json_null());   /* fewer than 6 samples */
		json_object_set_new(o, "median_ci95_level", json_null());
	}
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_real(samples[i]));
	json_object_set_new(o, "samples", a);
	return o;
}

bool res_write_json(struct res_out *o, const json_t *doc, char *err, size_t errlen)
{
	char *s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	bool ok;

	if (!s) {
		snprintf(err, errlen, "bench bug: cannot serialise the results document");
		res_out_abort(o);
		return false;
	}
	size_t n = strlen(s);
	char *text = realloc(s, n + 2);   /* room for the final newline */
	if (!text) {
		free(s);
		snprintf(err, errlen, "out of memory writing the results document");
		res_out_abort(o);
		return false;
	}
	s = text;
	s[n++] = '\n';
	ok = res_out_commit(o, s, n, err, errlen);
	free(s);
	return ok;
}
