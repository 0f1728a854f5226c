/*
 * The harness's own kernels, built from the built-in copies whatever --kernels names (the
 * measuring tools are not the user's kernels) in the run's context: --cache cold's flush
 * (kernels/cache_flush.cl) and the clock probe (kernels/clock_probe.cl), each made at its
 * first use and kept for the session.
 */
#define HARNESS_LAYER HARNESS_LAYER_MEASURE
#include "measure.h"

#include <stdlib.h>
#include <string.h>

struct harness_own {
	struct prog_ctx pc;             /* the run's context, the built-in kernels */
	cl_program flush_prog;
	cl_kernel flush_k;
	cl_mem flush_buf, flush_sink;
	cl_ulong flush_vecs;            /* 16-byte vectors in flush_buf */
	cl_program probe_prog;
	cl_kernel probe_k;
	cl_mem probe_buf;
};

/* The session's own kernels' state, made at the first use. */
static struct harness_own *own_of(struct bench_session *s)
{
	if (!s->own)
		s->own = bench_zalloc(sizeof(*s->own));
	return s->own;
}

/*
 * Builds the harness's kernel NAME of FILE, always from the built-in copy whatever --kernels
 * names (the measuring tools are not the user's kernels), in the run's context.
 */
static bool own_kernel(struct bench_run *r, const char *file, const char *name, cl_program *prog,
		       cl_kernel *k, char *err, size_t len)
{
	struct harness_own *o = own_of(r->sess);

	o->pc = r->pc;
	o->pc.kernels_dir = NULL;
	return (*prog = prog_build_tool(&o->pc, file, "", NULL, err, len)) &&
	       (*k = prog_kernel(*prog, name, err, len));
}

/* The flush kernel and its zeroed scratch of bench_flush_bytes. */
static bool cache_make(struct bench_run *r, struct harness_own *s, char *err, size_t len)
{
	uint64_t bytes = bench_flush_bytes(r);
	cl_uint zero = 0;
	cl_int e = CL_SUCCESS;

	if (!own_kernel(r, "cache_flush.cl", "cache_flush", &s->flush_prog, &s->flush_k, err, len))
		return false;
	s->flush_vecs = bytes / 16;
	s->flush_buf = clCreateBuffer(r->pc.ctx, CL_MEM_READ_ONLY, (size_t)bytes, NULL, &e);
	if (e == CL_SUCCESS)
		s->flush_sink = clCreateBuffer(r->pc.ctx, CL_MEM_WRITE_ONLY, 4, NULL, &e);
	if (e != CL_SUCCESS) {
		snprintf(err, len, "clCreateBuffer (%llu bytes of cache-flush scratch): %s",
			 (unsigned long long)bytes, cl_err_name(e));
		return false;
	}
	return CL_CHECK(clEnqueueFillBuffer(r->pc.q, s->flush_buf, &zero, sizeof(zero), 0,
					    (size_t)bytes, 0, NULL, NULL), err, len) &&
	       CL_CHECK(clFinish(r->pc.q), err, len) &&   /* before a launch on another queue */
	       PROG_SET_ARGS(s->flush_k, err, len, PROG_ARG(s->flush_buf), PROG_ARG(s->flush_sink),
			     PROG_ARG(s->flush_vecs));
}

void harness_cache_flush(struct bench_run *r, cl_command_queue q, bool wait)
{
	struct harness_own *s = own_of(r->sess);
	size_t wg = r->dev->max_wg < 256 ? r->dev->max_wg : 256;
	size_t items;
	char err[4096];

	if (!s->flush_k && !cache_make(r, s, err, sizeof(err)))
		cli_die(EXIT_FAIL, "driver: evicting the cache (--cache cold): %s", err);
	items = (size_t)r->dev->compute_units * 2048;
	if (items > s->flush_vecs)
		items = (size_t)s->flush_vecs;
	items = (items + wg - 1) / wg * wg;
	if (!CL_CHECK(clEnqueueNDRangeKernel(q, s->flush_k, 1, NULL, &items, &wg, 0, NULL, NULL),
		      err, sizeof(err)) ||
	    (wait && !CL_CHECK(clFinish(q), err, sizeof(err))))
		cli_die(EXIT_FAIL, "driver: evicting the cache (--cache cold): %s", err);
}

/* Releases one of the harness's kernels, its program and its buffers (b may be NULL), and forgets them. */
static void own_free(cl_program *prog, cl_kernel *k, cl_mem *a, cl_mem *b)
{
	cl_mem *m[2] = { a, b };

	if (*k)
		clReleaseKernel(*k);
	if (*prog)
		clReleaseProgram(*prog);
	*k = NULL;
	*prog = NULL;
	for (int i = 0; i < 2; i++)
		if (m[i] && *m[i]) {
			clReleaseMemObject(*m[i]);
			*m[i] = NULL;
		}
}

void harness_own_free(struct bench_session *s)
{
	struct harness_own *o = s->own;

	if (!o)
		return;
	own_free(&o->flush_prog, &o->flush_k, &o->flush_buf, &o->flush_sink);
	own_free(&o->probe_prog, &o->probe_k, &o->probe_buf, NULL);
	free(o);
	s->own = NULL;
}

/* The probe kernel and its one-word output, with its arguments set. */
static bool probe_make(struct bench_run *r, struct harness_own *s, char *err, size_t len)
{
	cl_uint rounds = HARNESS_PROBE_ROUNDS;
	cl_int e = CL_SUCCESS;

	if (!own_kernel(r, "clock_probe.cl", "clock_probe", &s->probe_prog, &s->probe_k, err, len))
		return false;
	s->probe_buf = clCreateBuffer(r->pc.ctx, CL_MEM_WRITE_ONLY, 4, NULL, &e);
	if (e != CL_SUCCESS) {
		snprintf(err, len, "clCreateBuffer (4 bytes for the clock probe): %s", cl_err_name(e));
		return false;
	}
	return PROG_SET_ARGS(s->probe_k, err, len, PROG_ARG(s->probe_buf), PROG_ARG(rounds));
}

/* The probe (made at its first use) on q: warmup untimed launches, then n timed ones. */
static bool probe_run(struct bench_run *r, cl_command_queue q, unsigned warmup, unsigned n,
		      double *dev, double *wall, char *err, size_t len)
{
	struct harness_own *s = own_of(r->sess);

	if (!s->probe_k && !probe_make(r, s, err, len))
		return false;
	struct time_launch l = { s->probe_k, 1, 1 };
	return time_run(q, time_enqueue_launch, &l, warmup, n, dev, wall, err, len);
}

/*
 * The clock probe on q: HARNESS_PROBE_LAUNCHES timed launches of one work-item, their times
 * in ns to dev, after warmup untimed ones (a first launch pays for the kernel's first use).
 * Exit 1 naming the driver's error where it fails.
 */
void harness_clock_probe(struct bench_run *r, cl_command_queue q, unsigned warmup, double *dev)
{
	double wall[HARNESS_PROBE_LAUNCHES];
	char err[4096];

	if (!probe_run(r, q, warmup, HARNESS_PROBE_LAUNCHES, dev, wall, err, sizeof(err)))
		cli_die(EXIT_FAIL, "driver: the clock probe (clock_probe.cl): %s", err);
}

bool harness_probe_times(struct bench_run *r, cl_command_queue q, cl_uint rounds, unsigned n,
			 double *dev, double *wall, char *err, size_t len)
{
	struct harness_own *s = own_of(r->sess);
	cl_uint usual = HARNESS_PROBE_ROUNDS;
	bool ok;

	if (!s->probe_k && !probe_make(r, s, err, len))
		return false;
	ok = PROG_SET_ARGS(s->probe_k, err, len, PROG_ARG(s->probe_buf), PROG_ARG(rounds)) &&
	     probe_run(r, q, 0, n, dev, wall, err, len);
	/* the probe beside every point keeps its own rounds */
	return PROG_SET_ARGS(s->probe_k, err, len, PROG_ARG(s->probe_buf), PROG_ARG(usual)) && ok;
}

cl_int harness_enqueue_cold(void *arg, cl_command_queue q, cl_event *ev)
{
	struct harness_cold_cmd *c = arg;

	harness_cache_flush(c->r, q, false);
	return c->inner(c->arg, q, ev);
}
