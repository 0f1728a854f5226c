/*
 * What rows call in plan() and point(): builds that exit naming the build log, buffers
 * that exit naming the limits, host memory checked before any work, single untimed
 * launches, the cache figures, and the progress line.
 */
#define HARNESS_LAYER HARNESS_LAYER_LAUNCH
#include "launch.h"
#include "chase.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

cl_kernel bench_build(struct bench_run *r, const char *file, const char *kname, const char *options,
		      cl_program *prog, char **log)
{
	r->h->kernel_file = file;   /* a fault during a point names it (run.c) */
	return bench_build_pc(&r->pc, file, kname, options, prog, log);
}

cl_kernel bench_build_pc(struct prog_ctx *pc, const char *file, const char *kname,
			 const char *options, cl_program *prog, char **log)
{
	char err[16384];
	cl_kernel k = NULL;

	*prog = prog_build(pc, file, options, log, err, sizeof(err));
	if (!*prog || !(k = prog_kernel(*prog, kname, err, sizeof(err))))
		cli_die(EXIT_FAIL, "%s", err);
	return k;
}

cl_mem bench_buffer(struct bench_run *r, cl_mem_flags flags, size_t bytes)
{
	char err[512] = "";
	cl_mem m = flags & CL_MEM_READ_ONLY ? NULL : harness_guarded_buffer(r, flags, bytes, err,
									      sizeof(err));

	if (!m && !err[0])   /* an input, or no room for guards */
		m = prog_buffer(&r->pc, flags, bytes, err, sizeof(err));
	if (!m)
		cli_die(EXIT_FAIL, "driver: %s", err);
	return m;
}

void bench_host_fits(const struct bench_run *r, uint64_t host_bytes, uint64_t device_bytes,
		     const char *what)
{
	uint64_t avail = bench_host_available();
	bool shared = r->dev->type & CL_DEVICE_TYPE_CPU;
	uint64_t need = host_bytes + (shared ? device_bytes : 0);

	if (avail && need > avail)
		cli_usage_error("the run needs %llu bytes of host memory (%s: %llu; the CPU device's "
				"buffers, in host memory too: %llu), but the host has %llu bytes available "
				"(BENCH_HOST_MEMORY overrides)", (unsigned long long)need, what,
				(unsigned long long)host_bytes, (unsigned long long)(shared ? device_bytes : 0),
				(unsigned long long)avail);
}

bool bench_enqueue_once(struct bench_run *r, time_enqueue_fn fn, void *arg, char *err, size_t len)
{
	double d, w;

	cl_clear_last();
	return time_run(r->pc.q, fn, arg, 0, 1, &d, &w, err, len);
}

bool bench_launch_once(struct bench_run *r, cl_kernel k, size_t global, size_t local,
		       const struct kernel_res *res, const char *wg_opt, char *err, size_t len)
{
	struct time_launch l = { k, global, local };
	char lim[256];

	if (bench_enqueue_once(r, time_enqueue_launch, &l, err, len))
		return true;
	if (local && res && cl_last_code() == CL_INVALID_WORK_GROUP_SIZE)
		cli_usage_error("--%s %zu: '%s' refused the launch (CL_INVALID_WORK_GROUP_SIZE); %s",
				wg_opt, local, r->dev->name, prog_wg_limits(res, lim, sizeof(lim)));
	return false;
}

uint64_t bench_llc(const struct bench_run *r, const char **source)
{
	if (r->co->llc) {
		*source = "--llc";
		return r->co->llc;
	}
	return chase_llc(r->dev, source);
}

uint64_t bench_flush_bytes(const struct bench_run *r)
{
	const char *src;
	uint64_t llc = bench_llc(r, &src), b = 2 * llc > (64ull << 20) ? 2 * llc : 64ull << 20;

	b = (b + 4095) & ~4095ull;
	if (b > r->dev->max_alloc)
		cli_usage_error("--cache cold needs a buffer of %llu bytes (2 x the %llu-byte last-level "
				"cache, %s; at least 64 MiB), above CL_DEVICE_MAX_MEM_ALLOC_SIZE of '%s': "
				"at most %llu bytes (give a smaller --llc, or --cache warm)",
				(unsigned long long)b, (unsigned long long)llc, src, r->dev->name,
				(unsigned long long)r->dev->max_alloc);
	return b;
}

void harness_point_label(const struct bench_run *r, size_t i, char *buf, size_t len)
{
	if (r->row->label)
		r->row->label(r, i, buf, len);
	else
		snprintf(buf, len, "point %zu", i + 1);
}

void bench_progress_step(const struct bench_run *r, size_t i, const char *fmt, ...)
{
	char label[128];
	va_list ap;

	if (!isatty(STDERR_FILENO))
		return;
	if (i >= r->n_points) {   /* during plan */
		fprintf(stderr, "\r\033[K%s: ", r->row->cmd.name);
	} else {
		harness_point_label(r, i, label, sizeof(label));
		fprintf(stderr, "\r\033[K[%zu/%zu] %s %s: ", i + 1, r->n_points, r->row->cmd.name, label);
	}
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}
