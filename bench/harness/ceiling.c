/*
 * The ceiling beside every streaming figure, the memory roof: the fastest of the driver's
 * clEnqueueCopyBuffer, the suite's own stream_copy kernel copying the same bytes, and the
 * roof's validated copy, read and write kernels in their best shapes (roof.c). A copy alone
 * misleads: CPU drivers copy slowly, on an H200 a plain kernel outruns the driver's copy, and
 * a kernel that reads much and writes little (clpeak's) outruns any copy.
 */
#include "check.h"
#define HARNESS_LAYER HARNESS_LAYER_MEASURE
#include "measure.h"

#include <stdlib.h>
#include <string.h>

#define CEIL_SIZES 32            /* sizes remembered: points of a size measured already share it */

struct ceil_size {
	size_t bytes;                 /* 0: unused */
	double copy_ns, kernel_ns;    /* medians (kernel 0: not run) */
	json_t *copy_stats, *kernel_stats;
	/* what the host's clock found against each copy's events ("": they agreed) */
	char copy_why[512], kernel_why[512];
	struct harness_roof roof;     /* the roof's own kernels over the same bytes */
	double cost_s;                /* host seconds the size's ceiling took (ranking, validation) */
};

struct bench_ceiling {
	struct ceil_size size[CEIL_SIZES];
	unsigned next;                /* the entry replaced when all are used */
	cl_program prog;
	cl_kernel k;                  /* NULL: not built (why_not says why) */
	bool tried;
	char why_not[1024];
	json_t *doc;                  /* the document's `roof`: every size's record, in order */
	json_t *findings;             /* the document's `roof_findings` */
	struct harness_reader rd;     /* the checks' staging, open from the first size (rd.r set) */
};

void bench_ceiling_free(struct bench_run *r)
{
	struct bench_ceiling *c = r->h->ceil;

	if (!c)
		return;
	for (unsigned i = 0; i < CEIL_SIZES; i++) {
		json_decref(c->size[i].copy_stats);
		json_decref(c->size[i].kernel_stats);
		harness_roof_clear(&c->size[i].roof);
	}
	if (c->rd.r)
		harness_reader_close(&c->rd);
	json_decref(c->doc);
	json_decref(c->findings);
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
	harness_roof_builds(b);   /* the roof's own kernels */
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
	c->prog = prog_build_tool(&r->pc, "stream_copy.cl", "", &log, c->why_not,
				  sizeof(c->why_not));
	if (c->prog)
		c->k = prog_kernel(c->prog, "stream_copy", c->why_not, sizeof(c->why_not));
	free(log);
	if (!c->k)
		fprintf(stderr, "bench %s: note: the ceiling is the driver's copy alone: the stream_copy "
			"kernel did not build: %s\n", cli_cmd, c->why_not);
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
	    !harness_reader_copied(&c->rd, src, dst, (size_t)words, err, sizeof(err)))
		cli_die(EXIT_FAIL, "driver: the stream_copy kernel of %zu bytes (the ceiling): %s", bytes,
			err);
	return harness_time_stats(r, time_enqueue_launch, &l, bytes, "stream_copy kernel", stats, why,
				  wlen);
}

/* A candidate of the size's record that is a copy of ceil_bytes each way (median ns, 0: none). */
static json_t *copy_json(const char *kernel, size_t bytes, double ns, json_t *stats,
			 const char *why)
{
	json_t *c = json_pack("{s:s, s:s, s:f}", "kernel", kernel, "shape", "a copy",
			      "bytes", 2.0 * (double)bytes);

	json_object_set_new(c, "gbps", ns > 0 && !why[0] ? json_real(2.0 * (double)bytes / ns)
							 : json_null());
	json_object_set(c, "time_ns", stats);
	if (why[0])
		json_object_set_new(c, "clock", json_string(why));
	return c;
}

/* The GB/s of the size's ceiling and which candidate set it (bench/harness/row.h's names). */
static double size_best(const struct ceil_size *e, const char **by)
{
	double copy = e->copy_why[0] || !e->copy_ns ? 0 : 2.0 * (double)e->bytes / e->copy_ns;
	double kern = e->kernel_why[0] || !e->kernel_ns ? 0 : 2.0 * (double)e->bytes / e->kernel_ns;
	double best = copy;

	*by = "clEnqueueCopyBuffer";
	if (kern > best) {
		best = kern;
		*by = "stream_copy kernel";
	}
	if (e->roof.gbps > best) {
		best = e->roof.gbps;
		*by = e->roof.by;
	}
	return best;
}

/* Adds the size's record to the document's `roof`: its figure, who set it, every candidate. */
static void size_record(struct bench_ceiling *c, const struct ceil_size *e)
{
	json_t *rec = json_deep_copy(e->roof.doc), *cands = json_object_get(rec, "candidates");
	const char *by;
	double best = size_best(e, &by);

	json_array_insert_new(cands, 0, copy_json("clEnqueueCopyBuffer", e->bytes, e->copy_ns,
						  e->copy_stats, e->copy_why));
	if (e->kernel_ns > 0)
		json_array_insert_new(cands, 1, copy_json("stream_copy kernel", e->bytes, e->kernel_ns,
							  e->kernel_stats, e->kernel_why));
	json_object_set_new(rec, "bytes", json_integer((json_int_t)e->bytes));
	json_object_set_new(rec, "gbps", best > 0 ? json_real(best) : json_null());
	json_object_set_new(rec, "by", json_string(by));
	json_object_set_new(rec, "shape", json_string(by == e->roof.by ? e->roof.shape : "a copy"));
	json_object_set_new(rec, "cost_s", json_real(e->cost_s));
	if (!c->doc)
		c->doc = json_array();
	json_array_append_new(c->doc, rec);
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
	harness_roof_clear(&e->roof);
	memset(e, 0, sizeof(*e));
	double t0 = time_now_ns();

	if (!c->rd.r)
		harness_reader_open(r, &c->rd);
	e->copy_ns = harness_time_stats(r, time_enqueue_copy, &copy, pt->ceil_bytes,
					"clEnqueueCopyBuffer", &e->copy_stats, e->copy_why,
					sizeof(e->copy_why));
	e->kernel_ns = time_kernel(r, c, pt->ceil_src, pt->ceil_dst, pt->ceil_bytes,
				   &e->kernel_stats, e->kernel_why, sizeof(e->kernel_why));
	harness_roof_measure(r, &c->rd, pt->ceil_src, pt->ceil_dst, pt->ceil_bytes, &e->roof);
	e->cost_s = (time_now_ns() - t0) / 1e9;
	e->bytes = pt->ceil_bytes;
	size_record(c, e);
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
	double best = size_best(e, &pt->ceil_by);
	pt->ceil_ns = best > 0 ? 2.0 * (double)pt->ceil_bytes / best : 0;
	pt->ceil_by_stats = json_incref(pt->ceil_by == e->roof.by ? e->roof.stats
				       : pt->ceil_by[0] == 's' ? e->kernel_stats : e->copy_stats);
	snprintf(pt->ceil_shape, sizeof(pt->ceil_shape), "%s",
		 pt->ceil_by == e->roof.by ? e->roof.shape : "a copy");
	if (e->copy_why[0])
		bench_note(pt, "clEnqueueCopyBuffer is not a ceiling: clock: %s", e->copy_why);
	if (e->kernel_why[0])
		bench_note(pt, "the stream_copy kernel is not a ceiling: clock: %s", e->kernel_why);
}

json_t *harness_roof_json(const struct bench_run *r)
{
	return r->h->ceil && r->h->ceil->doc ? json_incref(r->h->ceil->doc) : NULL;
}

json_t *harness_roof_findings(const struct bench_run *r)
{
	return r->h->ceil && r->h->ceil->findings ? json_incref(r->h->ceil->findings) : NULL;
}

void harness_roof_finding(struct bench_run *r, json_t *f)
{
	struct bench_ceiling *c = r->h->ceil;

	if (!c->findings)
		c->findings = json_array();
	json_array_append_new(c->findings, f);
}
