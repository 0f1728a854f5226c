/* Host memory: allocations that name the bytes when they fail, a growing array. */
#include "mem.h"
#include "cli.h"

#include <stdlib.h>
#include <string.h>

void *bench_alloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);

	if (!p)
		cli_die(EXIT_FAIL, "out of host memory for %zu bytes", bytes);
	return p;
}

void *bench_zalloc(size_t bytes)
{
	void *p = bench_alloc(bytes);

	memset(p, 0, bytes ? bytes : 1);
	return p;
}

void *bench_push(void *v, size_t *n, size_t *cap, size_t size, size_t first)
{
	char *arr;

	/* v points at the caller's typed pointer: read and written as bytes, never as a void * */
	memcpy(&arr, v, sizeof(arr));
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : first;
		if (!(arr = realloc(arr, c * size)))
			cli_die(EXIT_FAIL, "out of host memory for %zu bytes", c * size);
		memcpy(v, &arr, sizeof(arr));
		*cap = c;
	}
	memset(arr + *n * size, 0, size);
	return arr + (*n)++ * size;
}

/* The first number in a file (a /proc or cgroup value); false where there is none. */
static bool read_number(const char *path, const char *fmt, unsigned long long *v)
{
	FILE *f = fopen(path, "r");
	char line[256];
	bool ok = false;

	if (!f)
		return false;
	while (!ok && fgets(line, sizeof(line), f))
		ok = sscanf(line, fmt, v) == 1;
	fclose(f);
	return ok;
}

uint64_t bench_host_available(void)
{
	const char *env = getenv("BENCH_HOST_MEMORY");
	unsigned long long kib = 0, max, cur;
	uint64_t avail, v;
	char err[512];

	if (env) {
		if (!parse_size(env, 1, UINT64_MAX, &v, err, sizeof(err)))
			cli_usage_error("BENCH_HOST_MEMORY (environment) %s", err);
		return v;
	}
	if (!read_number("/proc/meminfo", "MemAvailable: %llu kB", &kib))
		return 0;
	avail = (uint64_t)kib * 1024;
	if (read_number("/sys/fs/cgroup/memory.max", "%llu", &max) &&
	    read_number("/sys/fs/cgroup/memory.current", "%llu", &cur) && max > cur && max - cur < avail)
		avail = max - cur;
	return avail;
}
