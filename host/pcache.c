/* A cache of built programs across processes (pcache.h). */
#include "pcache.h"
#include "icd.h"
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PCACHE_MAGIC "BENCHPC1"
#define PCACHE_MAX_BYTES ((uint64_t)1 << 30)   /* an entry larger is not one of ours */

static char dir_path[PATH_MAX];
static pthread_once_t dir_once = PTHREAD_ONCE_INIT;

/* BENCH_PROGRAM_CACHE made absolute against the folder the run started in, once. */
static void find_dir(void)
{
	const char *d = getenv("BENCH_PROGRAM_CACHE");
	char cwd[PATH_MAX];

	if (!d || !*d)
		return;
	if (*d == '/')
		snprintf(dir_path, sizeof(dir_path), "%s", d);
	else if (getcwd(cwd, sizeof(cwd)) &&
		 (size_t)snprintf(dir_path, sizeof(dir_path), "%s/%s", cwd, d) >= sizeof(dir_path))
		dir_path[0] = '\0';
}

/* The cache's folder, or NULL where it is off. */
static const char *cache_dir(void)
{
	pthread_once(&dir_once, find_dir);
	return dir_path[0] ? dir_path : NULL;
}

char *pcache_key(const struct dev_info *dev, const char *options, const char *src, size_t *len)
{
	char file[PATH_MAX];
	struct stat st;
	char *key = NULL;
	size_t cap = 0;
	FILE *f;

	if (!cache_dir() || !icd_driver_file(dev->platform, file, sizeof(file)) || stat(file, &st) != 0)
		return NULL;
	f = open_memstream(&key, &cap);
	if (!f)
		return NULL;
	fprintf(f, "bench program cache 1\ndriver %s size %lld mtime %lld.%09ld ino %llu\n"
		"platform %s | %s\ndevice %s | %s | %s | %s\noptions %s\nsource %zu\n%s", file,
		(long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		(unsigned long long)st.st_ino, dev->platform_name, dev->platform_version, dev->name,
		dev->vendor, dev->driver, dev->version, options ? options : "", strlen(src), src);
	if (fclose(f) != 0) {
		free(key);
		return NULL;
	}
	*len = cap;
	return key;
}

/* The entry's file for key: DIR/<FNV-1a 64 of the key>.bin (the key inside decides). */
static bool entry_path(const char *key, size_t len, char *buf, size_t buflen)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)key[i]) * 0x100000001b3ull;
	return (size_t)snprintf(buf, buflen, "%s/%016llx.bin", cache_dir(),
				(unsigned long long)h) < buflen;
}

/* Reads a length-prefixed field at *at of buf[0..n); false past the end. */
static bool field(const unsigned char *buf, size_t n, size_t *at, const unsigned char **p,
		  uint64_t *len)
{
	if (n - *at < sizeof(*len))
		return false;
	memcpy(len, buf + *at, sizeof(*len));
	*at += sizeof(*len);
	if (*len > n - *at)
		return false;
	*p = buf + *at;
	*at += *len;
	return true;
}

/* The whole file at path (heap), at most PCACHE_MAX_BYTES; NULL where absent or unreadable. */
static unsigned char *read_all(const char *path, size_t *n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;
	unsigned char *buf = NULL;
	size_t got = 0;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > PCACHE_MAX_BYTES ||
	    !(buf = malloc((size_t)st.st_size + 1)))
		goto out;
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (got != (size_t)st.st_size) {
		free(buf);
		buf = NULL;
	}
out:
	close(fd);
	*n = got;
	return buf;
}

cl_program pcache_load(cl_context ctx, const struct dev_info *dev, const char *options,
		       const char *key, size_t klen, char **log)
{
	size_t n = 0, at = sizeof(PCACHE_MAGIC) - 1;
	char path[PATH_MAX];
	unsigned char *buf = NULL;
	const unsigned char *k, *l, *b;
	uint64_t kn, ln, bn;
	cl_program p = NULL;

	if (!key || !entry_path(key, klen, path, sizeof(path)) || !(buf = read_all(path, &n)) ||
	    n < at || memcmp(buf, PCACHE_MAGIC, at) != 0 || !field(buf, n, &at, &k, &kn) ||
	    kn != klen || memcmp(k, key, klen) != 0 || !field(buf, n, &at, &l, &ln) ||
	    !field(buf, n, &at, &b, &bn) || at != n || bn == 0)
		goto out;
	cl_int e = CL_SUCCESS, st = CL_SUCCESS;
	size_t bsize = (size_t)bn;
	p = clCreateProgramWithBinary(ctx, 1, &dev->id, &bsize, &b, &st, &e);
	if (e != CL_SUCCESS || st != CL_SUCCESS) {
		if (p)
			clReleaseProgram(p);
		p = NULL;
		goto out;
	}
	if (clBuildProgram(p, 1, &dev->id, options, NULL, NULL) != CL_SUCCESS) {
		clReleaseProgram(p);
		p = NULL;
		goto out;
	}
	if (log) {
		*log = malloc((size_t)ln + 1);
		if (!*log) {
			clReleaseProgram(p);
			p = NULL;
			goto out;
		}
		memcpy(*log, l, (size_t)ln);
		(*log)[ln] = '\0';
	}
out:
	free(buf);
	return p;
}

/* The binary of p for device d (heap); NULL where the driver gives none. */
static unsigned char *program_binary(cl_program p, cl_device_id d, size_t *len)
{
	cl_uint nd = 0;
	cl_device_id *devs = NULL;
	size_t *sizes = NULL;
	unsigned char **bins = NULL, *out = NULL;

	if (clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof(nd), &nd, NULL) != CL_SUCCESS ||
	    nd == 0 || nd > 64 || !(devs = calloc(nd, sizeof(*devs))) ||
	    !(sizes = calloc(nd, sizeof(*sizes))) || !(bins = calloc(nd, sizeof(*bins))) ||
	    clGetProgramInfo(p, CL_PROGRAM_DEVICES, nd * sizeof(*devs), devs, NULL) != CL_SUCCESS ||
	    clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, nd * sizeof(*sizes), sizes, NULL) != CL_SUCCESS)
		goto out;
	cl_uint i = 0;
	while (i < nd && devs[i] != d)
		i++;
	if (i == nd || sizes[i] == 0 || sizes[i] > PCACHE_MAX_BYTES || !(bins[i] = malloc(sizes[i])))
		goto out;
	if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, nd * sizeof(*bins), bins, NULL) == CL_SUCCESS) {
		out = bins[i];
		bins[i] = NULL;
		*len = sizes[i];
	}
out:
	if (bins)
		for (cl_uint j = 0; j < nd; j++)
			free(bins[j]);
	free(bins);
	free(sizes);
	free(devs);
	return out;
}

void pcache_store(cl_program p, const struct dev_info *dev, const char *key, size_t klen,
		  const char *log)
{
	size_t blen = 0;
	unsigned char *bin = NULL;
	char path[PATH_MAX], tmp[PATH_MAX];
	int fd = -1;

	if (!key || !entry_path(key, klen, path, sizeof(path)) ||
	    !(bin = program_binary(p, dev->id, &blen)))
		goto out;
	/* made like mkdir -p's last step only: the folder's parent is the user's to make */
	if (mkdir(cache_dir(), 0700) != 0 && errno != EEXIST)
		goto out;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.new-XXXXXX", cache_dir()) >= sizeof(tmp) ||
	    (fd = mkostemp(tmp, O_CLOEXEC)) < 0)
		goto out;
	uint64_t kn = klen, ln = log ? strlen(log) : 0, bn = blen;
	const struct { const void *p; size_t n; } part[] = {
		{ PCACHE_MAGIC, sizeof(PCACHE_MAGIC) - 1 }, { &kn, sizeof(kn) }, { key, klen },
		{ &ln, sizeof(ln) }, { log ? log : "", (size_t)ln }, { &bn, sizeof(bn) }, { bin, blen } };
	bool ok = true;
	for (size_t i = 0; ok && i < sizeof(part) / sizeof(part[0]); i++)
		ok = outfile_write_all(fd, part[i].p, part[i].n);
	/* whole or not at all: another process reads it only once renamed into place */
	if (close(fd) != 0 || !ok || rename(tmp, path) != 0)
		unlink(tmp);
out:
	free(bin);
}
