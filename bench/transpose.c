/*
 * bench transpose: the guide's 16 x 16 shuffle transpose, then whole n x n
 * matrices: sub-groups transposing 16 x 16 tiles with shuffles (butterfly,
 * and the guide's broadcasts), a local-memory tiled transpose and a naive one,
 * each validated and timed beside clEnqueueCopyBuffer of the same bytes.
 */
#include "compat.h"
#include "check.h"
#include "sgb.h"
#include "stats.h"
#include "subcommands.h"
#include "timing.h"

#include <stdlib.h>
#include <string.h>

enum { TR_GUIDE16, TR_SHUFFLE, TR_BCAST, TR_LOCAL, TR_NAIVE, TR_NVAR };
static const char *const tr_names[TR_NVAR] = { "guide16", "shuffle", "shuffle-bcast", "local",
					       "naive" };
static const char *const tr_kernels[TR_NVAR] = { "transpose_bcast", "transpose_shuffle",
						 "transpose_bcast", "transpose_local",
						 "transpose_naive" };

struct tr_opts {
	struct sg_cli cli;       /* --sg-backend, --wg, --sg, --seed */
	struct range n;
	bool variant[TR_NVAR];
};

struct tr_plan {
	struct sgb_choice c;
	uint64_t max_n;
	cl_program prog_sg, prog_plain;
	cl_kernel k[TR_NVAR];
	struct kernel_res res[TR_NVAR];
	char *skip[TR_NVAR];     /* heap: why skipped */
	char *fail[TR_NVAR];     /* heap: why the build failed */
};

struct tr_bufs {
	cl_mem src, dst, cpy, info, m16;
	uint32_t *hsrc, *href, *hout;
};

/* One 1-D or 2-D launch. */
struct tr_launch {
	cl_kernel k;
	cl_uint dims;
	size_t global[2], local[2];
};

struct tr_result {
	json_t *pt;
	bool ok;
	double median, cv, gbps;
};

void transpose_usage(FILE *f)
{
	fprintf(f,
		"usage: bench transpose [options]\n"
		"  Transposes n x n ints (n a multiple of 16) and compares each way with\n"
		"  clEnqueueCopyBuffer of the same bytes; GB/s count bytes read + written:\n"
		"    guide16         the guide's example: one 16 x 16 matrix in place, one sub-group,\n"
		"                   a broadcast shuffle per value\n"
		"    shuffle        sub-groups transposing 16 x 16 tiles in registers by butterfly\n"
		"                   shuffles\n"
		"    shuffle-bcast  the same tiles by the guide's broadcasts (256 shuffles a tile)\n"
		"    local          32 x 32 tiles through local memory\n"
		"    naive          one work-item per element\n"
		"  --n LIST        matrix sizes, e.g. 256, 1024..8192:x2 (default 4096,8192)\n"
		"  --variant LIST  of the names above (default all)\n"
		"  --wg N          work-group size of the shuffle kernels (default 256)\n"
		"  --sg N|auto     sub-group width: intel/khr a size to require (default 16 where it\n"
		"                  can be required; the shuffle kernels need a known width), nv 32,\n"
		"                  emulated 4..64 (default 16)\n"
		"  --sg-backend B  intel, khr, nv or emulated (default: the first the device runs)\n"
		"  --seed N        random seed for the matrices (default: fresh from the system)\n"
		COMMON_USAGE);
}

static void parse_args(int argc, char **argv, struct tr_opts *o, struct common_opts *co)
{
	enum { O_N = OPT_BENCH_BASE, O_VARIANT };
	static const struct option lo[] = {
		COMMON_LONGOPTS,
		SG_CLI_LONGOPTS,
		{ "n", required_argument, NULL, O_N },
		{ "variant", required_argument, NULL, O_VARIANT },
		{ 0 } };
	int c;

	memset(o, 0, sizeof(*o));
	sg_cli_defaults(&o->cli, 256);
	for (size_t i = 0; i < TR_NVAR; i++)
		o->variant[i] = true;
	common_defaults(co);
	while ((c = getopt_long(argc, argv, "+:", lo, NULL)) != -1) {
		if (common_opt(co, c, optarg) || sg_cli_opt(&o->cli, c, optarg))
			continue;
		switch (c) {
		case O_N:
			range_free(&o->n);
			opt_range("n", optarg, 16, 65536, &o->n);
			break;
		case O_VARIANT: opt_names("variant", optarg, tr_names, TR_NVAR, o->variant); break;
		case 'h': transpose_usage(stdout); exit(EXIT_OK);
		default: opt_reject(c, argv);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!o->n.n)
		opt_range("n", "4096,8192", 16, 65536, &o->n);
	for (size_t i = 0; i < o->n.n; i++)
		if (o->n.v[i] % 16)
			usage_error("--n %llu is not a multiple of 16 (the tile): allowed 16, 32, ... 65536",
				    (unsigned long long)o->n.v[i]);
}

static void plan_limits(const struct bench_session *s, const struct tr_opts *o, struct tr_plan *p)
{
	const struct dev_info *d = s->dev;
	char err[1024];
	uint64_t bytes;

	if (!sgb_select(d, o->cli.backend, &p->c, err, sizeof(err)) ||
	    !sgb_set_width(d, &p->c, o->cli.sg_given, o->cli.sg, 16, err, sizeof(err)))
		usage_error("%s", err);
	if (o->cli.wg > d->max_wg || o->cli.wg > d->max_item_sizes[0])
		usage_error("--wg %u exceeds the work-group limit of '%s': allowed 1..%zu", o->cli.wg,
			    d->name, d->max_wg < d->max_item_sizes[0] ? d->max_wg : d->max_item_sizes[0]);
	if (p->c.width && o->cli.wg % p->c.width)
		usage_error("--wg %u is not a multiple of the sub-group width %u (%s backend): "
			    "sub-groups must be full", o->cli.wg, p->c.width, sgb_name(p->c.backend));
	for (size_t i = 0; i < o->n.n; i++)
		p->max_n = o->n.v[i] > p->max_n ? o->n.v[i] : p->max_n;
	bytes = p->max_n * p->max_n * 4;
	if (bytes > d->max_alloc)
		usage_error("--n %llu: a matrix of %llu bytes exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE of "
			    "'%s': at most %llu bytes", (unsigned long long)p->max_n,
			    (unsigned long long)bytes, d->name, (unsigned long long)d->max_alloc);
	if (3 * bytes > d->global_mem)
		usage_error("--n %llu: 3 matrices of %llu bytes (source, destination, copy target) "
			    "exceed the global memory of '%s': %llu bytes in all",
			    (unsigned long long)p->max_n, (unsigned long long)bytes, d->name,
			    (unsigned long long)d->global_mem);
}

/* Builds one program; kernels of variants in `which` come from it (or fail with it). */
static cl_program tr_build(struct bench_session *s, const struct tr_opts *o, struct tr_plan *p,
			   bool sg, json_t *ks)
{
	char opts[512], err[16384];
	char *log = NULL;
	int off = sgb_build_options(s->dev, &p->c, o->cli.wg, opts, sizeof(opts));
	cl_program prog;

	snprintf(opts + off, sizeof(opts) - (size_t)off, " -DTR_SG=%d", sg);
	prog = prog_build(&s->pc, "transpose.cl", opts, &log, err, sizeof(err));
	for (int v = 0; v < TR_NVAR; v++) {
		bool mine = sg == (v == TR_GUIDE16 || v == TR_SHUFFLE || v == TR_BCAST);
		if (!mine || !o->variant[v] || p->skip[v])
			continue;
		if (prog)
			p->k[v] = prog_kernel(prog, tr_kernels[v], err, sizeof(err));
		if (!p->k[v]) {
			p->fail[v] = strdup(err);
			continue;
		}
		prog_kernel_res(&s->pc, p->k[v], sg ? o->cli.wg : 256, log, &p->res[v]);
		json_object_set_new(ks, tr_names[v], prog_kernel_res_json("transpose.cl", tr_kernels[v],
									   opts, &p->res[v]));
	}
	free(log);
	return prog;
}

static void plan_build(struct bench_session *s, const struct tr_opts *o, struct tr_plan *p)
{
	json_t *ks = json_object();

	for (int v = TR_GUIDE16; v <= TR_BCAST; v++)
		if (o->variant[v] && !p->c.width)
			p->skip[v] = strdup("the shuffle transpose is built for a known sub-group width; "
					    "with the driver's choice (--sg auto, or no size that can be "
					    "required) it cannot be: give --sg N");
	if (s->dev->max_wg < 256)
		for (int v = TR_LOCAL; v <= TR_NAIVE; v++)
			p->skip[v] = strdup("needs work-groups of 256 (32 x 8, 16 x 16)");
	if (o->variant[TR_GUIDE16] || o->variant[TR_SHUFFLE] || o->variant[TR_BCAST])
		p->prog_sg = tr_build(s, o, p, true, ks);
	if (o->variant[TR_LOCAL] || o->variant[TR_NAIVE])
		p->prog_plain = tr_build(s, o, p, false, ks);
	json_object_set_new(s->doc, "kernels", ks);
}

static void alloc_bufs(struct bench_session *s, uint64_t n, struct tr_bufs *b)
{
	size_t bytes = (size_t)(n * n * 4);
	char err[512];

	memset(b, 0, sizeof(*b));
	if (!(b->src = prog_buffer(&s->pc, CL_MEM_READ_WRITE, bytes, err, sizeof(err))) ||
	    !(b->dst = prog_buffer(&s->pc, CL_MEM_READ_WRITE, bytes, err, sizeof(err))) ||
	    !(b->cpy = prog_buffer(&s->pc, CL_MEM_READ_WRITE, bytes, err, sizeof(err))) ||
	    !(b->m16 = prog_buffer(&s->pc, CL_MEM_READ_WRITE, 1024, err, sizeof(err))) ||
	    !(b->info = prog_buffer(&s->pc, CL_MEM_READ_WRITE, 16, err, sizeof(err))))
		die(EXIT_FAIL, "driver: %s", err);
	b->hsrc = malloc(bytes);
	b->href = malloc(bytes);
	b->hout = malloc(bytes);
	if (!b->hsrc || !b->href || !b->hout)
		die(EXIT_FAIL, "out of host memory for 3 x %zu bytes", bytes);
}

static void free_bufs(struct tr_bufs *b)
{
	cl_mem m[] = { b->src, b->dst, b->cpy, b->info, b->m16 };

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i])
			clReleaseMemObject(m[i]);
	free(b->hsrc);
	free(b->href);
	free(b->hout);
}


/* ---- launches ---- */

static cl_int tr_enqueue(void *arg, cl_command_queue q, cl_event *ev)
{
	const struct tr_launch *l = arg;

	return clEnqueueNDRangeKernel(q, l->k, l->dims, NULL, l->global, l->local, 0, NULL, ev);
}

/* The launch of variant v on an n x n matrix. */
static struct tr_launch tr_shape(const struct tr_opts *o, const struct tr_plan *p, int v, uint64_t n)
{
	unsigned w = p->c.width, sw = w < 16 ? 16 : w;
	uint64_t sgs = n / 16 * ((n + sw - 1) / sw), items = sgs * w;

	switch (v) {
	case TR_GUIDE16:
		return (struct tr_launch){ p->k[v], 1, { w, 1 }, { w, 1 } };
	case TR_SHUFFLE:
	case TR_BCAST:
		return (struct tr_launch){ p->k[v], 1, { (size_t)((items + o->cli.wg - 1) / o->cli.wg * o->cli.wg), 1 },
					   { o->cli.wg, 1 } };
	case TR_LOCAL:
		return (struct tr_launch){ p->k[v], 2, { (size_t)((n + 31) / 32 * 32), (size_t)((n + 31) / 32 * 8) },
					   { 32, 8 } };
	default:
		return (struct tr_launch){ p->k[v], 2, { (size_t)n, (size_t)n }, { 16, 16 } };
	}
}

/* Shuffle calls per lane per 16 x 16 tile (the kernel header's algorithm). */
static unsigned tr_shuffles(const struct tr_plan *p, int v)
{
	unsigned w = p->c.width, tl = w < 16 ? w : 16, rounds = 0;

	if (v == TR_SHUFFLE) {
		for (unsigned s = 1; s < tl; s <<= 1)
			rounds++;
		return rounds * 8 * (16 / tl);
	}
	return v == TR_GUIDE16 || v == TR_BCAST ? 256 : 0;
}

static bool tr_args(const struct tr_plan *p, const struct tr_bufs *b, int v, uint64_t n, char *err,
		    size_t len)
{
	cl_mem src = v == TR_GUIDE16 ? b->m16 : b->src, dst = v == TR_GUIDE16 ? b->m16 : b->dst;
	cl_uint cn = (cl_uint)n;
	cl_int e = clSetKernelArg(p->k[v], 0, sizeof(cl_mem), &src);

	if (e == CL_SUCCESS) e = clSetKernelArg(p->k[v], 1, sizeof(cl_mem), &dst);
	if (e == CL_SUCCESS) e = clSetKernelArg(p->k[v], 2, sizeof(cn), &cn);
	if (e == CL_SUCCESS && v <= TR_BCAST) e = clSetKernelArg(p->k[v], 3, sizeof(cl_mem), &b->info);
	if (e != CL_SUCCESS)
		snprintf(err, len, "clSetKernelArg: %s", cl_err_name(e));
	return e == CL_SUCCESS;
}

/* Launches once on fresh data, checks the transpose and, for sub-group kernels, the width. */
static bool tr_validate(struct bench_session *s, const struct tr_plan *p, struct tr_bufs *b, int v,
			uint64_t n, struct tr_launch *l, unsigned *seen, char *err, size_t len)
{
	size_t words = (size_t)(n * n);
	cl_mem out = v == TR_GUIDE16 ? b->m16 : b->dst;
	cl_uint info[4] = { 0 };
	double dn, wn;
	cl_int e = CL_SUCCESS;

	if (v == TR_GUIDE16)   /* the guide's matrix: 0..255, transposed in place */
		e = clEnqueueWriteBuffer(s->pc.q, b->m16, CL_TRUE, 0, 1024, b->hsrc, 0, NULL, NULL);
	else
		e = check_poison(s->pc.q, b->dst, words * 4);
	if (e == CL_SUCCESS)
		e = check_poison(s->pc.q, b->info, sizeof(info));
	if (e != CL_SUCCESS) {
		snprintf(err, len, "preparing buffers: %s", cl_err_name(e));
		return false;
	}
	if (!tr_args(p, b, v, n, err, len) ||
	    !time_run(s->pc.q, tr_enqueue, l, 0, 1, &dn, &wn, err, len))
		return false;
	e = clEnqueueReadBuffer(s->pc.q, out, CL_TRUE, 0, words * 4, b->hout, 0, NULL, NULL);
	if (e == CL_SUCCESS)
		e = clEnqueueReadBuffer(s->pc.q, b->info, CL_TRUE, 0, sizeof(info), info, 0, NULL, NULL);
	if (e != CL_SUCCESS) {
		snprintf(err, len, "reading results: %s", cl_err_name(e));
		return false;
	}
	if (check_compare_u32(b->hout, b->href, words, err, len))
		return false;
	if (v <= TR_BCAST) {
		*seen = info[0];
		if (info[0] != p->c.width) {
			snprintf(err, len, "built for sub-group width %u, the kernel ran with %u",
				 p->c.width, info[0]);
			return false;
		}
	}
	return true;
}

/* Host data for an n x n point: random source (the guide's 0..255 for guide16) and reference. */
static void tr_data(struct tr_bufs *b, uint64_t n, uint64_t seed, bool guide16)
{
	if (guide16)
		for (uint32_t i = 0; i < 256; i++)
			b->hsrc[i] = i;
	else
		check_fill_random(b->hsrc, (size_t)(n * n), seed);
	for (uint64_t i = 0; i < n; i++)
		for (uint64_t j = 0; j < n; j++)
			b->href[j * n + i] = b->hsrc[i * n + j];
}

static json_t *tr_params(const struct tr_plan *p, int v, uint64_t n, const struct tr_launch *l,
			 unsigned seen, uint64_t seed)
{
	json_t *pa = json_object();
	char shape[32];

	if (!l->local[0])   /* guide16 without a known width */
		snprintf(shape, sizeof(shape), "-");
	else if (l->dims == 2)
		snprintf(shape, sizeof(shape), "%zu x %zu", l->local[0], l->local[1]);
	else
		snprintf(shape, sizeof(shape), "%zu", l->local[0]);
	json_object_set_new(pa, "variant", json_string(tr_names[v]));
	json_object_set_new(pa, "n", json_integer((json_int_t)n));
	json_object_set_new(pa, "bytes", json_integer((json_int_t)(n * n * 4)));
	json_object_set_new(pa, "wg_size", json_integer((json_int_t)(l->local[0] * l->local[1])));
	json_object_set_new(pa, "wg_shape", json_string(shape));
	json_object_set_new(pa, "uses_sub_groups", json_boolean(v <= TR_BCAST));
	sgb_params(pa, &p->c);
	json_object_set_new(pa, "sg_size_kernel", seen ? json_integer(seen) : json_null());
	json_object_set_new(pa, "shuffles_per_lane_per_tile",
			    v <= TR_BCAST && p->c.width ? json_integer(tr_shuffles(p, v)) : json_null());
	json_object_set_new(pa, "seed", v == TR_GUIDE16 ? json_null() : json_integer((json_int_t)seed));
	return pa;
}

static void tr_point(struct bench_session *s, const struct tr_opts *o, const struct tr_plan *p,
		     struct tr_bufs *b, int v, uint64_t n, uint64_t seed, double copy_ns,
		     struct tr_result *r)
{
	unsigned reps = s->opts->reps, seen = 0;
	double *t = calloc(2 * (size_t)reps, sizeof(double)), bytes = 8.0 * (double)(n * n);
	struct tr_launch l = tr_shape(o, p, v, n);
	char err[4096] = "";
	struct stats st;
	bool ok;

	r->pt = point_new();
	if (!t)
		die(EXIT_FAIL, "out of host memory");
	if (p->skip[v] || p->fail[v]) {
		json_object_set_new(r->pt, "params", tr_params(p, v, n, &l, 0, seed));
		point_set_status(r->pt, p->skip[v] ? "skipped" : "failed", p->skip[v] ? p->skip[v] : p->fail[v]);
		free(t);
		return;
	}
	ok = tr_validate(s, p, b, v, n, &l, &seen, err, sizeof(err));
	json_object_set_new(r->pt, "params", tr_params(p, v, n, &l, seen, seed));
	if (ok) {
		json_object_set_new(r->pt, "validated", json_true());
		ok = time_run(s->pc.q, tr_enqueue, &l, s->opts->warmup, reps, t, t + reps, err, sizeof(err));
	}
	if (ok) {
		json_t *m = json_object();
		stats_compute(t, reps, &st);
		point_set_times(r->pt, t, t + reps, reps);
		r->median = st.median;
		r->cv = st.cv;
		r->gbps = bytes / st.median;
		json_object_set_new(m, "bytes", json_real(bytes));
		json_object_set_new(m, "gbps", json_real(r->gbps));
		json_object_set_new(m, "copy_gbps", json_real(bytes / copy_ns));
		json_object_set_new(m, "fraction_of_copy", json_real(r->gbps * copy_ns / bytes));
		json_object_set_new(r->pt, "metrics", m);
	}
	r->ok = ok;
	point_set_status(r->pt, ok ? "ok" : "failed", ok ? NULL : err);
	size_t wg = l.local[0] * (l.dims > 1 ? l.local[1] : 1);
	size_t groups = l.global[0] / l.local[0] * (l.dims > 1 ? l.global[1] / l.local[1] : 1);
	struct occ_result mr;
	json_object_set_new(r->pt, "model", session_model(s, &p->res[v], (unsigned)wg,
							  v <= TR_BCAST ? (seen ? seen : p->c.width) : 0,
							  v == TR_LOCAL, groups, &mr));
	free(t);
}

static const char *const tr_head[] = { "n", "variant", "backend", "SG", "WG", "Model occupancy",
				       "median us", "CV %", "GB/s", "copy GB/s", "of copy",
				       "vs local", "status" };
#define TR_NCOLS (sizeof(tr_head) / sizeof(tr_head[0]))

static void tr_row(struct table *t, const struct tr_plan *p, int v, uint64_t n,
		   const struct tr_result *r, double copy_gbps, double vs)
{
	const json_t *pa = json_object_get(r->pt, "params");
	char c[TR_NCOLS][48];
	const char *cells[TR_NCOLS];

	snprintf(c[0], 48, "%llu", (unsigned long long)n);
	snprintf(c[1], 48, "%s", tr_names[v]);
	snprintf(c[2], 48, "%s", sgb_name(p->c.backend));
	snprintf(c[3], 48, v > TR_BCAST ? "-" : p->c.width ? "%u" : "driver", p->c.width);
	snprintf(c[4], 48, "%s", json_string_value(json_object_get(pa, "wg_shape")));
	snprintf(c[5], 48, "%s", model_occupancy_cell(json_object_get(r->pt, "model")));
	snprintf(c[6], 48, r->ok ? "%.2f" : "-", r->median / 1e3);
	snprintf(c[7], 48, r->ok ? "%.1f" : "-", r->cv);
	snprintf(c[8], 48, r->ok ? "%.2f" : "-", r->gbps);
	snprintf(c[9], 48, "%.2f", copy_gbps);
	snprintf(c[10], 48, r->ok ? "%.3f" : "-", r->gbps / copy_gbps);
	snprintf(c[11], 48, vs > 0 ? "%.3f" : "-", vs);
	snprintf(c[12], 48, "%s", json_string_value(json_object_get(r->pt, "status")));
	for (size_t i = 0; i < TR_NCOLS; i++)
		cells[i] = c[i];
	table_add(t, cells);
}

/* Every selected variant at size n (guide16: its own 16 x 16), rows in table order. */
static void tr_size(struct bench_session *s, const struct tr_opts *o, const struct tr_plan *p,
		    struct tr_bufs *b, uint64_t n, uint64_t seed, bool guide16, struct table *t)
{
	struct tr_result r[TR_NVAR] = { 0 };
	json_t *copy_stats = NULL;
	double copy_ns;
	size_t bytes = (size_t)(n * n * 4);
	cl_int e;

	tr_data(b, n, seed, guide16);
	e = clEnqueueWriteBuffer(s->pc.q, b->src, CL_TRUE, 0, bytes, b->hsrc, 0, NULL, NULL);
	if (e != CL_SUCCESS)
		die(EXIT_FAIL, "driver: writing %zu bytes: %s", bytes, cl_err_name(e));
	copy_ns = session_copy_ceiling(s, b->src, b->cpy, bytes, &copy_stats);
	for (int v = 0; v < TR_NVAR; v++)
		if (o->variant[v] && guide16 == (v == TR_GUIDE16))
			tr_point(s, o, p, b, v, n, seed, copy_ns, &r[v]);
	for (int v = 0; v < TR_NVAR; v++) {
		json_t *m;
		double vs = 0;
		if (!o->variant[v] || guide16 != (v == TR_GUIDE16))
			continue;
		json_object_set(r[v].pt, "copy_time_ns", copy_stats);
		m = json_object_get(r[v].pt, "metrics");
		if ((v == TR_SHUFFLE || v == TR_BCAST) && m && r[TR_LOCAL].ok) {
			vs = r[v].gbps / r[TR_LOCAL].gbps;
			json_object_set_new(m, "vs_local", json_real(vs));
		}
		if (v != TR_NAIVE && v != TR_GUIDE16 && m && r[TR_NAIVE].ok)
			json_object_set_new(m, "vs_naive", json_real(r[v].gbps / r[TR_NAIVE].gbps));
		tr_row(t, p, v, n, &r[v], 8.0 * (double)(n * n) / copy_ns, vs);
		session_add_point(s, r[v].pt);
	}
	json_decref(copy_stats);
}

static void tr_release(struct tr_plan *p)
{
	for (int v = 0; v < TR_NVAR; v++) {
		if (p->k[v])
			clReleaseKernel(p->k[v]);
		free(p->skip[v]);
		free(p->fail[v]);
	}
	if (p->prog_sg)
		clReleaseProgram(p->prog_sg);
	if (p->prog_plain)
		clReleaseProgram(p->prog_plain);
}

int transpose_main(int argc, char **argv)
{
	struct tr_opts o;
	struct common_opts co;
	struct bench_session s;
	struct tr_plan p = { 0 };
	struct tr_bufs b;
	struct table t;
	bool any_n = false;

	parse_args(argc, argv, &o, &co);
	for (int v = TR_SHUFFLE; v < TR_NVAR; v++)
		any_n = any_n || o.variant[v];
	session_open(&s, &co, "transpose");
	plan_limits(&s, &o, &p);
	plan_build(&s, &o, &p);
	json_object_set_new(s.doc, "sub_groups", sgb_report_json(s.dev, &p.c));
	if (!o.cli.seed_given)
		o.cli.seed = check_fresh_seed() & INT64_MAX; /* stored as a JSON integer */
	alloc_bufs(&s, any_n ? p.max_n : 16, &b);
	table_init(&t, TR_NCOLS, tr_head);
	if (o.variant[TR_GUIDE16])
		tr_size(&s, &o, &p, &b, 16, 0, true, &t);
	for (size_t i = 0; any_n && i < o.n.n; i++) {
		char label[64];
		snprintf(label, sizeof(label), "n=%llu", (unsigned long long)o.n.v[i]);
		session_progress(&s, i, o.n.n, label);
		tr_size(&s, &o, &p, &b, o.n.v[i], (o.cli.seed + i) & INT64_MAX, false, &t);
	}
	session_progress(&s, o.n.n, o.n.n, "");
	if (!co.quiet) {
		printf("transpose on %s (%s)\n", s.dev->name, s.dev->platform_name);
		sgb_print(stdout, s.dev, &p.c);
		table_print(&t, stdout);
	}
	table_free(&t);
	free_bufs(&b);
	tr_release(&p);
	range_free(&o.n);
	return session_finish(&s);
}
