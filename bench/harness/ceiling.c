/*
 * The copy ceiling beside every streaming figure: the faster of the driver's
 * clEnqueueCopyBuffer and the suite's own stream_copy kernel copying the same bytes.
 * Either alone can mislead: CPU drivers copy slowly (a kernel then reads above 1 of
 * the copy), and on an H200 a plain kernel outruns the driver's copy.
 */
#include "check.h"
#define HARNESS_LAYER HARNESS_LAYER_MEASURE
#include "measure.h"

#include <stdlib.h>
#include <string.h>

#define CEIL_CHUNK (1u << 20)   /* words compared at a time when validating the kernel's copy */

#define CEIL_SIZES 32            /* sizes remembered: points of a size measured already share it */

struct ceil_size {
	size_t bytes;                 /* 0: unused */
	double copy_ns, kernel_ns;    /* medians (kernel 0: not run) */
	json_t *copy_stats, *kernel_stats;
	/* what the host's clock found against each copy's events ("": they agreed) */
	char copy_why[512], kernel_why[512];
};

struct bench_ceiling {
	struct ceil_size size[CEIL_SIZES];
	unsigned next;                /* the entry replaced when all are used */
	cl_program prog;
	cl_kernel k;                  /* NULL: not built (why_not says why) */
	bool tried;
	char why_not[1024];
};

void bench_ceiling_free(struct bench_run *r)
{
	struct bench_ceiling *c = r->h->ceil;

	if (!c)
		return;
	for (unsigned i = 0; i < CEIL_SIZES; i++) {
		json_decref(c->size[i].copy_stats);
		json_decref(c->size[i].kernel_stats);
	}
	if (c->k)
		clReleaseKernel(c->k);
	if (c->prog)
		clReleaseProgram(c->prog);
	free(c);
	r->h->ceil = NULL;
}

void bench_ceiling_builds(struct bench_builds *b)
{
	struct bench_build *bb;

	if (b->sg)
		return;
	bb = bench_builds_add(b, "stream_copy.cl");
	bench_build_kernel(bb, "stream_copy", "stream_copy", 0, "chosen by the driver");
	/* the harness's other kernels: --cache cold's flush (bench/harness/own.c) */
	bb = bench_builds_add(b, "cache_flush.cl");
	bench_build_kernel(bb, "cache_flush", "cache_flush", 256, "256, or the device maximum if lower");
	bb = bench_builds_add(b, "clock_probe.cl");   /* and the clock probe, one work-item */
	bench_build_kernel(bb, "clock_probe", "clock_probe", 1, "1: one work-item's chain");
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

/*
 * Times commands into a statistics object; returns the median (exit 1 on a driver failure),
 * and in why what the host's clock found against the events ("": they agreed).
 */
static double time_copy(struct bench_run *r, time_enqueue_fn fn, void *arg, size_t bytes,
			const char *what, json_t **stats, char *why, size_t wlen)
{
	unsigned reps = r->co->reps;
	double *t = bench_alloc(2 * (size_t)reps * sizeof(double));
	struct stats st;
	char err[1024];

	struct harness_cold_cmd cold = { r, fn, arg };

	if (r->cold) {   /* the same start as the points' launches */
		fn = harness_enqueue_cold;
		arg = &cold;
	}
	if (!time_run(r->pc.q, fn, arg, r->co->warmup, reps, t, t + reps, err, sizeof(err)))
		cli_die(EXIT_FAIL, "driver: the %s of %zu bytes (the ceiling): %s", what, bytes, err);
	harness_witness_samples(r, t, t + reps, reps, why, wlen);
	stats_compute(t, reps, &st);
	json_decref(*stats);
	*stats = res_stats_json(&st, t, reps);
	free(t);
	return st.median;
}

/* The stream_copy kernel of `bytes` (a multiple of 4), validated then timed; 0 if not built. */
static double time_kernel(struct bench_run *r, struct bench_ceiling *c, cl_mem src, cl_mem dst,
			  size_t bytes, json_t **stats, char *why, size_t wlen)
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
	return time_copy(r, time_enqueue_launch, &l, bytes, "stream_copy kernel", stats, why, wlen);
}

/* The entry of `bytes`, measured on first use. */
static const struct ceil_size *size_entry(struct bench_run *r, struct bench_ceiling *c,
					  const struct bench_point *pt)
{
	struct time_copy copy = { pt->ceil_src, pt->ceil_dst, pt->ceil_bytes };
	struct ceil_size *e;

	for (unsigned i = 0; i < CEIL_SIZES; i++)
		if (c->size[i].bytes == pt->ceil_bytes)
			return &c->size[i];
	e = &c->size[c->next++ % CEIL_SIZES];
	json_decref(e->copy_stats);
	json_decref(e->kernel_stats);
	memset(e, 0, sizeof(*e));
	e->copy_ns = time_copy(r, time_enqueue_copy, &copy, pt->ceil_bytes, "clEnqueueCopyBuffer",
			       &e->copy_stats, e->copy_why, sizeof(e->copy_why));
	e->kernel_ns = time_kernel(r, c, pt->ceil_src, pt->ceil_dst, pt->ceil_bytes, &e->kernel_stats,
				   e->kernel_why, sizeof(e->kernel_why));
	e->bytes = pt->ceil_bytes;
	return e;
}

void bench_ceiling_measure(struct bench_run *r, struct bench_point *pt)
{
	struct bench_ceiling *c = r->h->ceil;
	const struct ceil_size *e;

	if (!c) {
		c = r->h->ceil = bench_alloc(sizeof(*c));
		memset(c, 0, sizeof(*c));
	}
	if (!c->tried)
		build_kernel(r, c);
	e = size_entry(r, c, pt);
	/* a copy whose events the host's clock contradicts is no ceiling (its statistics stay) */
	pt->ceil_copy_ns = e->copy_why[0] ? 0 : e->copy_ns;
	pt->ceil_kernel_ns = e->kernel_why[0] ? 0 : e->kernel_ns;
	pt->ceil_stats = json_incref(e->copy_stats);
	pt->ceil_kernel_stats = e->kernel_ns > 0 ? json_incref(e->kernel_stats) : NULL;
	bool kernel = pt->ceil_kernel_ns > 0 && (!pt->ceil_copy_ns || pt->ceil_kernel_ns < pt->ceil_copy_ns);
	pt->ceil_ns = kernel ? pt->ceil_kernel_ns : pt->ceil_copy_ns;
	pt->ceil_by = kernel ? "stream_copy kernel" : "clEnqueueCopyBuffer";
	if (e->copy_why[0])
		bench_note(pt, "clEnqueueCopyBuffer is not a ceiling: clock: %s", e->copy_why);
	if (e->kernel_why[0])
		bench_note(pt, "the stream_copy kernel is not a ceiling: clock: %s", e->kernel_why);
}
