/*
 * The copy ceiling beside every streaming figure: the faster of the driver's
 * clEnqueueCopyBuffer and the suite's own stream_copy kernel copying the same bytes.
 * Either alone can mislead: CPU drivers copy slowly (a kernel then reads above 1 of
 * the copy), and on an H200 a plain kernel outruns the driver's copy.
 */
#include "check.h"
#include "harness_int.h"

#include <stdlib.h>
#include <string.h>

#define CEIL_CHUNK (1u << 20)   /* words compared at a time when validating the kernel's copy */

struct bench_ceiling {
	size_t bytes;                 /* of the last measurement (0: none) */
	double copy_ns, kernel_ns;    /* medians */
	json_t *copy_stats, *kernel_stats;
	cl_program prog;
	cl_kernel k;                  /* NULL: not built (why_not says why) */
	bool tried;
	char why_not[1024];
};

void bench_ceiling_free(struct bench_run *r)
{
	struct bench_ceiling *c = r->ceil;

	if (!c)
		return;
	json_decref(c->copy_stats);
	json_decref(c->kernel_stats);
	if (c->k)
		clReleaseKernel(c->k);
	if (c->prog)
		clReleaseProgram(c->prog);
	free(c);
	r->ceil = NULL;
}

void bench_ceiling_builds(struct bench_builds *b)
{
	struct bench_build *bb;

	if (b->sg)
		return;
	bb = bench_builds_add(b, "stream_copy.cl");
	bench_build_kernel(bb, "stream_copy", "stream_copy", 0, "chosen by the driver");
}

/* Builds stream_copy once; a device that cannot build it gets the driver's copy alone. */
static void build_kernel(struct bench_run *r, struct bench_ceiling *c)
{
	char *log = NULL;

	c->tried = true;
	c->prog = prog_build(&r->pc, "stream_copy.cl", "", &log, c->why_not, sizeof(c->why_not));
	if (c->prog)
		c->k = prog_kernel(c->prog, "stream_copy", c->why_not, sizeof(c->why_not));
	free(log);
	if (!c->k)
		fprintf(stderr, "bench %s: note: the ceiling is the driver's copy alone: the stream_copy "
			"kernel did not build: %s\n", cli_cmd, c->why_not);
}

/* Checks that the kernel's copy in dst equals src, piece by piece. */
static bool kernel_copied(struct bench_run *r, cl_mem src, cl_mem dst, size_t words, char *err,
			  size_t len)
{
	size_t piece = words < CEIL_CHUNK ? words : CEIL_CHUNK;
	uint32_t *a = bench_alloc(piece * 4), *b = bench_alloc(piece * 4);
	struct check_tally t = { 0 };
	bool ok = true;

	for (size_t off = 0; ok && off < words; off += piece) {
		size_t m = words - off < piece ? words - off : piece;
		ok = CL_CHECK(clEnqueueReadBuffer(r->pc.q, src, CL_TRUE, off * 4, m * 4, a, 0, NULL, NULL),
			      err, len) &&
		     CL_CHECK(clEnqueueReadBuffer(r->pc.q, dst, CL_TRUE, off * 4, m * 4, b, 0, NULL, NULL),
			      err, len);
		if (ok)
			check_tally_u32(&t, b, a, m, off);
	}
	free(a);
	free(b);
	return ok && check_tally_reason(&t, err, len) == 0;
}

/* Times commands into a statistics object; returns the median (exit 1 on a driver failure). */
static double time_copy(struct bench_run *r, time_enqueue_fn fn, void *arg, size_t bytes,
			const char *what, json_t **stats)
{
	unsigned reps = r->co->reps;
	double *t = bench_alloc(2 * (size_t)reps * sizeof(double));
	struct stats st;
	char err[1024];

	if (!time_run(r->pc.q, fn, arg, r->co->warmup, reps, t, t + reps, err, sizeof(err)))
		cli_die(EXIT_FAIL, "driver: the %s of %zu bytes (the ceiling): %s", what, bytes, err);
	stats_compute(t, reps, &st);
	json_decref(*stats);
	*stats = res_stats_json(&st, t, reps);
	free(t);
	return st.median;
}

/* The stream_copy kernel of `bytes` (a multiple of 4), validated then timed; 0 if not built. */
static double time_kernel(struct bench_run *r, struct bench_ceiling *c, cl_mem src, cl_mem dst,
			  size_t bytes)
{
	cl_ulong words = bytes / 4;
	size_t wg = r->dev->max_wg < 256 ? r->dev->max_wg : 256;
	size_t items = (size_t)(words / 4 + words % 4);
	struct time_launch l = { c->k, (items + wg - 1) / wg * wg, wg };
	char err[2048];

	if (!c->k || bytes % 4)
		return 0;
	if (!PROG_SET_ARGS(c->k, err, sizeof(err), PROG_ARG(src), PROG_ARG(dst), PROG_ARG(words)) ||
	    !CL_CHECK(check_poison(r->pc.q, dst, bytes), err, sizeof(err)) ||
	    !bench_enqueue_once(r, time_enqueue_launch, &l, err, sizeof(err)) ||
	    !kernel_copied(r, src, dst, (size_t)words, err, sizeof(err)))
		cli_die(EXIT_FAIL, "driver: the stream_copy kernel of %zu bytes (the ceiling): %s", bytes,
			err);
	return time_copy(r, time_enqueue_launch, &l, bytes, "stream_copy kernel", &c->kernel_stats);
}

void bench_ceiling_measure(struct bench_run *r, struct bench_point *pt)
{
	struct bench_ceiling *c = r->ceil;
	struct time_copy copy = { pt->ceil_src, pt->ceil_dst, pt->ceil_bytes };

	if (!c) {
		c = r->ceil = bench_alloc(sizeof(*c));
		memset(c, 0, sizeof(*c));
	}
	if (!c->tried)
		build_kernel(r, c);
	if (c->bytes != pt->ceil_bytes) {
		c->copy_ns = time_copy(r, time_enqueue_copy, &copy, pt->ceil_bytes,
				       "clEnqueueCopyBuffer", &c->copy_stats);
		c->kernel_ns = time_kernel(r, c, pt->ceil_src, pt->ceil_dst, pt->ceil_bytes);
		c->bytes = pt->ceil_bytes;
	}
	pt->ceil_copy_ns = c->copy_ns;
	pt->ceil_kernel_ns = c->kernel_ns;
	pt->ceil_stats = json_incref(c->copy_stats);
	pt->ceil_kernel_stats = c->kernel_ns > 0 ? json_incref(c->kernel_stats) : NULL;
	bool kernel = c->kernel_ns > 0 && c->kernel_ns < c->copy_ns;
	pt->ceil_ns = kernel ? c->kernel_ns : c->copy_ns;
	pt->ceil_by = kernel ? "stream_copy kernel" : "clEnqueueCopyBuffer";
}
