/*
 * bench sg-copy: the guide's three copies of n ints (sg_mem_access_0..2):
 * per-work-item contiguous (gathered reads, scattered writes), sub-group
 * strided, and sub-group block reads/writes of 8-vectors, each validated and
 * timed beside clEnqueueCopyBuffer of the same bytes (the copy ceiling).
 */
#include "compat.h"
#include "check.h"
#include "sgb.h"
#include "stats.h"
#include "subcommands.h"
#include "timing.h"

#include <stdlib.h>
#include <string.h>

enum { SGC_GATHER, SGC_STRIDED, SGC_BLOCK, SGC_NVAR };
static const char *const sgc_names[SGC_NVAR] = { "gather", "strided", "block" };
static const char *const sgc_kernels[SGC_NVAR] = { "sg_copy_gather", "sg_copy_strided",
						   "sg_copy_block" };

#define SGC_INTS_PER_ITEM 16

struct sgc_opts {
	struct sg_cli cli;       /* --sg-backend, --wg, --sg, --seed */
	struct range sizes;      /* bytes per buffer */
	bool variant[SGC_NVAR];
};

/* What the run resolved once: backend, kernels (NULL with skip or fail set). */
struct sgc_plan {
	struct sgb_choice c;
	uint64_t max_bytes;
	cl_program prog[SGC_NVAR];
	cl_kernel k[SGC_NVAR];
	struct kernel_res res[SGC_NVAR];
	const char *block_impl;
	char *skip[SGC_NVAR];    /* heap: why the variant is skipped */
	char *fail[SGC_NVAR];    /* heap: why it failed to build */
};

struct sgc_bufs {
	cl_mem src, dst, cpy, info;
	uint32_t *hsrc, *hout;
};

/* One variant at one size, kept until the size's rows are written. */
struct sgc_result {
	json_t *pt;
	bool ok;
	double median, cv, gbps;
};

void sg_copy_usage(FILE *f)
{
	fprintf(f,
		"usage: bench sg-copy [options]\n"
		"  Copies n ints three ways, each work-item moving 16 (the guide's sg_mem_access_0..2):\n"
		"    gather   each work-item 16 contiguous ints (gathered reads, scattered writes)\n"
		"    strided  each sub-group 16 x width contiguous ints, lane l every width-th\n"
		"    block    as strided, by sub-group block reads/writes of 8-vectors (intel:\n"
		"             intel_sub_group_block_read8/write8; nv: coalesced loads of the same\n"
		"             addresses; khr, emulated: skipped)\n"
		"  and compares each with clEnqueueCopyBuffer of the same bytes in the same run.\n"
		"  --size RANGE    bytes per buffer, e.g. 4Mi, 4Mi..256Mi:x2, 1Mi,64Mi (default\n"
		"                  4Mi..256Mi:x4); each a multiple of 64 x --wg bytes\n"
		"  --variant LIST  gather,strided,block or all (default all)\n"
		"  --wg N          work-group size (default 256; a multiple of the sub-group width)\n"
		"  --sg N|auto     sub-group width: intel/khr a size to require (default 16 where it\n"
		"                  can be required), nv 32, emulated 4..64 (default 16)\n"
		"  --sg-backend B  intel, khr, nv or emulated (default: the first the device runs)\n"
		"  --seed N        random seed for the data (default: fresh from the system)\n"
		COMMON_USAGE);
}

static void parse_args(int argc, char **argv, struct sgc_opts *o, struct common_opts *co)
{
	enum { O_SIZE = OPT_BENCH_BASE, O_VARIANT };
	static const struct option lo[] = {
		COMMON_LONGOPTS,
		SG_CLI_LONGOPTS,
		{ "size", required_argument, NULL, O_SIZE },
		{ "variant", required_argument, NULL, O_VARIANT },
		{ 0 } };
	int c;

	memset(o, 0, sizeof(*o));
	sg_cli_defaults(&o->cli, 256);
	o->variant[0] = o->variant[1] = o->variant[2] = true;
	common_defaults(co);
	while ((c = getopt_long(argc, argv, "+:", lo, NULL)) != -1) {
		if (common_opt(co, c, optarg) || sg_cli_opt(&o->cli, c, optarg))
			continue;
		switch (c) {
		case O_SIZE: range_free(&o->sizes); opt_size_range("size", optarg, 4, 1ull << 40, &o->sizes); break;
		case O_VARIANT: opt_names("variant", optarg, sgc_names, SGC_NVAR, o->variant); break;
		case 'h': sg_copy_usage(stdout); exit(EXIT_OK);
		default: opt_reject(c, argv);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!o->sizes.n)
		opt_size_range("size", "4Mi..256Mi:x4", 4, 1ull << 40, &o->sizes);
}

/* Backend, width, work-group and sizes against the device: exit 2 naming the limits. */
static void plan_limits(const struct bench_session *s, const struct sgc_opts *o, struct sgc_plan *p)
{
	const struct dev_info *d = s->dev;
	uint64_t unit = (uint64_t)SGC_INTS_PER_ITEM * o->cli.wg * 4;
	char err[1024];

	if (!sgb_select(d, o->cli.backend, &p->c, err, sizeof(err)) ||
	    !sgb_set_width(d, &p->c, o->cli.sg_given, o->cli.sg, 16, err, sizeof(err)))
		usage_error("%s", err);
	if (o->cli.wg > d->max_wg || o->cli.wg > d->max_item_sizes[0])
		usage_error("--wg %u exceeds the work-group limit of '%s': allowed 1..%zu", o->cli.wg,
			    d->name, d->max_wg < d->max_item_sizes[0] ? d->max_wg : d->max_item_sizes[0]);
	if (p->c.width && o->cli.wg % p->c.width)
		usage_error("--wg %u is not a multiple of the sub-group width %u (%s backend): "
			    "sub-groups must be full", o->cli.wg, p->c.width, sgb_name(p->c.backend));
	for (size_t i = 0; i < o->sizes.n; i++) {
		uint64_t b = o->sizes.v[i];
		if (b % unit)
			usage_error("--size %llu is not a multiple of 16 ints x %u work-items x 4 bytes "
				    "= %llu bytes (whole work-groups)", (unsigned long long)b, o->cli.wg,
				    (unsigned long long)unit);
		p->max_bytes = b > p->max_bytes ? b : p->max_bytes;
	}
	if (p->max_bytes > d->max_alloc)
		usage_error("--size %llu exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE of '%s': at most %llu "
			    "bytes", (unsigned long long)p->max_bytes, d->name,
			    (unsigned long long)d->max_alloc);
	if (3 * p->max_bytes > d->global_mem)
		usage_error("3 buffers of %llu bytes (source, destination, copy target) exceed the "
			    "global memory of '%s': %llu bytes in all", (unsigned long long)p->max_bytes,
			    d->name, (unsigned long long)d->global_mem);
}

static void plan_build(struct bench_session *s, const struct sgc_opts *o, struct sgc_plan *p)
{
	json_t *ks = json_object();
	const char *why_not;
	char opts[512], err[16384];

	sgb_block_io(p->c.backend, &p->block_impl, &why_not);
	for (int v = 0; v < SGC_NVAR; v++) {
		char *log = NULL;
		if (!o->variant[v])
			continue;
		if (v == SGC_BLOCK && why_not) {
			p->skip[v] = strdup(why_not);
			continue;
		}
		int off = sgb_build_options(s->dev, &p->c, o->cli.wg, opts, sizeof(opts));
		snprintf(opts + off, sizeof(opts) - (size_t)off, " -DSGC_VARIANT=%d", v);
		p->prog[v] = prog_build(&s->pc, "sg_copy.cl", opts, &log, err, sizeof(err));
		if (p->prog[v])
			p->k[v] = prog_kernel(p->prog[v], sgc_kernels[v], err, sizeof(err));
		if (!p->k[v]) {
			p->fail[v] = strdup(err);
			free(log);
			continue;
		}
		prog_kernel_res(&s->pc, p->k[v], o->cli.wg, log, &p->res[v]);
		json_object_set_new(ks, sgc_names[v], prog_kernel_res_json("sg_copy.cl", sgc_kernels[v],
									    opts, &p->res[v]));
		free(log);
		if (v != SGC_GATHER && p->res[v].max_sg_for_local &&
		    o->cli.wg % p->res[v].max_sg_for_local) {
			snprintf(err, sizeof(err), "the driver chose sub-group size %u and --wg %u is not "
				 "a multiple of it: sub-groups would be partial", p->res[v].max_sg_for_local,
				 o->cli.wg);
			p->skip[v] = strdup(err);
		}
	}
	json_object_set_new(s->doc, "kernels", ks);
}

static void alloc_bufs(struct bench_session *s, uint64_t bytes, struct sgc_bufs *b)
{
	char err[512];

	memset(b, 0, sizeof(*b));
	if (!(b->src = prog_buffer(&s->pc, CL_MEM_READ_WRITE, bytes, err, sizeof(err))) ||
	    !(b->dst = prog_buffer(&s->pc, CL_MEM_READ_WRITE, bytes, err, sizeof(err))) ||
	    !(b->cpy = prog_buffer(&s->pc, CL_MEM_READ_WRITE, bytes, err, sizeof(err))) ||
	    !(b->info = prog_buffer(&s->pc, CL_MEM_READ_WRITE, 16, err, sizeof(err))))
		die(EXIT_FAIL, "driver: %s", err);
	b->hsrc = malloc(bytes);
	b->hout = malloc(bytes);
	if (!b->hsrc || !b->hout)
		die(EXIT_FAIL, "out of host memory for 2 x %llu bytes", (unsigned long long)bytes);
}

static void free_bufs(struct sgc_bufs *b)
{
	cl_mem m[] = { b->src, b->dst, b->cpy, b->info };

	for (size_t i = 0; i < 4; i++)
		if (m[i])
			clReleaseMemObject(m[i]);
	free(b->hsrc);
	free(b->hout);
}


/* ---- one size: the copy ceiling, then each variant ---- */

/* Launches once, checks the copy and what the kernel ran with. */
static bool sgc_validate(struct bench_session *s, const struct sgc_plan *p, const struct sgc_bufs *b,
			 int v, uint64_t bytes, size_t global, size_t wg, unsigned *seen,
			 char *err, size_t len)
{
	struct time_launch l = { p->k[v], global, wg };
	cl_uint info[4] = { 0 };
	double dn, wn;
	cl_int e = check_poison(s->pc.q, b->dst, (size_t)bytes);

	if (e == CL_SUCCESS)
		e = check_poison(s->pc.q, b->info, sizeof(info));
	if (e == CL_SUCCESS) e = clSetKernelArg(p->k[v], 0, sizeof(cl_mem), &b->src);
	if (e == CL_SUCCESS) e = clSetKernelArg(p->k[v], 1, sizeof(cl_mem), &b->dst);
	if (e == CL_SUCCESS) e = clSetKernelArg(p->k[v], 2, sizeof(cl_mem), &b->info);
	if (e != CL_SUCCESS) {
		snprintf(err, len, "preparing the launch: %s", cl_err_name(e));
		return false;
	}
	cl_clear_last();
	if (!time_run(s->pc.q, time_enqueue_launch, &l, 0, 1, &dn, &wn, err, len)) {
		wg_refused(s, "wg", (unsigned)wg, &p->res[v]);
		return false;
	}
	e = clEnqueueReadBuffer(s->pc.q, b->dst, CL_TRUE, 0, (size_t)bytes, b->hout, 0, NULL, NULL);
	if (e == CL_SUCCESS)
		e = clEnqueueReadBuffer(s->pc.q, b->info, CL_TRUE, 0, sizeof(info), info, 0, NULL, NULL);
	if (e != CL_SUCCESS) {
		snprintf(err, len, "reading results: %s", cl_err_name(e));
		return false;
	}
	*seen = info[0];
	if (check_compare_u32(b->hout, b->hsrc, (size_t)(bytes / 4), err, len))
		return false;
	if ((p->c.width && info[0] != p->c.width) || info[2] != wg) {
		snprintf(err, len, "built for sub-group width %u and work-group %zu, the kernel ran "
			 "with %u and %u", p->c.width, wg, info[0], info[2]);
		return false;
	}
	return true;
}

static json_t *sgc_params(const struct sgc_opts *o, const struct sgc_plan *p, int v, uint64_t bytes,
			  size_t global, unsigned seen, uint64_t seed)
{
	json_t *pa = json_object();

	json_object_set_new(pa, "variant", json_string(sgc_names[v]));
	json_object_set_new(pa, "bytes", json_integer((json_int_t)bytes));
	json_object_set_new(pa, "n_ints", json_integer((json_int_t)(bytes / 4)));
	json_object_set_new(pa, "wg_size", json_integer(o->cli.wg));
	json_object_set_new(pa, "global", json_integer((json_int_t)global));
	sgb_params(pa, &p->c);
	json_object_set_new(pa, "sg_size_kernel", seen ? json_integer(seen) : json_null());
	json_object_set_new(pa, "block_impl", v == SGC_BLOCK && p->block_impl
						      ? json_string(p->block_impl) : json_null());
	json_object_set_new(pa, "seed", json_integer((json_int_t)seed));
	return pa;
}

static void sgc_point(struct bench_session *s, const struct sgc_opts *o, const struct sgc_plan *p,
		      const struct sgc_bufs *b, int v, uint64_t bytes, uint64_t seed,
		      double copy_ns, struct sgc_result *r)
{
	size_t global = (size_t)(bytes / 4 / SGC_INTS_PER_ITEM);
	unsigned reps = s->opts->reps, seen = 0;
	double *t = calloc(2 * (size_t)reps, sizeof(double));
	char err[4096] = "";
	struct stats st;
	struct time_launch l = { p->k[v], global, o->cli.wg };
	bool ok;

	r->pt = point_new();
	if (!t)
		die(EXIT_FAIL, "out of host memory");
	if (p->skip[v] || p->fail[v]) {
		json_object_set_new(r->pt, "params", sgc_params(o, p, v, bytes, global, 0, seed));
		point_set_status(r->pt, p->skip[v] ? "skipped" : "failed", p->skip[v] ? p->skip[v] : p->fail[v]);
		free(t);
		return;
	}
	ok = sgc_validate(s, p, b, v, bytes, global, o->cli.wg, &seen, err, sizeof(err));
	json_object_set_new(r->pt, "params", sgc_params(o, p, v, bytes, global, seen, seed));
	if (ok) {
		json_object_set_new(r->pt, "validated", json_true());
		ok = time_run(s->pc.q, time_enqueue_launch, &l, s->opts->warmup, reps, t, t + reps, err,
			      sizeof(err));
	}
	if (ok) {
		json_t *m = json_object();
		stats_compute(t, reps, &st);
		point_set_times(r->pt, t, t + reps, reps);
		r->median = st.median;
		r->cv = st.cv;
		r->gbps = 2.0 * (double)bytes / st.median;
		json_object_set_new(m, "bytes", json_real(2.0 * (double)bytes));
		json_object_set_new(m, "gbps", json_real(r->gbps));
		json_object_set_new(m, "copy_gbps", json_real(2.0 * (double)bytes / copy_ns));
		json_object_set_new(m, "fraction_of_copy", json_real(r->gbps * copy_ns / (2.0 * (double)bytes)));
		json_object_set_new(r->pt, "metrics", m);
	}
	r->ok = ok;
	point_set_status(r->pt, ok ? "ok" : "failed", ok ? wg_note(o->cli.wg, &p->res[v], err, sizeof(err)) : err);
	struct occ_result mr;
	json_object_set_new(r->pt, "model", session_model(s, &p->res[v], o->cli.wg, seen ? seen : p->c.width,
							  false, global / o->cli.wg, &mr));
	free(t);
}

static const char *const sgc_head[] = { "size", "ints", "variant", "backend", "SG", "WG",
					"Model occupancy", "median us", "CV %", "GB/s", "copy GB/s",
					"of copy", "vs strided", "status" };
#define SGC_NCOLS (sizeof(sgc_head) / sizeof(sgc_head[0]))

static void sgc_row(struct table *t, const struct sgc_opts *o, const struct sgc_plan *p, int v,
		    uint64_t bytes, const struct sgc_result *r, double copy_gbps, double vs)
{
	char c[SGC_NCOLS][48];
	const char *cells[SGC_NCOLS];

	snprintf(c[0], 48, "%.0f MiB", (double)bytes / 1048576.0);
	snprintf(c[1], 48, "%llu", (unsigned long long)(bytes / 4));
	snprintf(c[2], 48, "%s", sgc_names[v]);
	snprintf(c[3], 48, "%s", sgb_name(p->c.backend));
	snprintf(c[4], 48, p->c.width ? "%u" : "driver", p->c.width);
	snprintf(c[5], 48, "%u", o->cli.wg);
	snprintf(c[6], 48, "%s", model_occupancy_cell(json_object_get(r->pt, "model")));
	snprintf(c[7], 48, r->ok ? "%.2f" : "-", r->median / 1e3);
	snprintf(c[8], 48, r->ok ? "%.1f" : "-", r->cv);
	snprintf(c[9], 48, r->ok ? "%.2f" : "-", r->gbps);
	snprintf(c[10], 48, "%.2f", copy_gbps);
	snprintf(c[11], 48, r->ok ? "%.3f" : "-", r->gbps / copy_gbps);
	snprintf(c[12], 48, vs > 0 ? "%.3f" : "-", vs);
	snprintf(c[13], 48, "%s", json_string_value(json_object_get(r->pt, "status")));
	for (size_t i = 0; i < SGC_NCOLS; i++)
		cells[i] = c[i];
	table_add(t, cells);
}

static void sgc_size(struct bench_session *s, const struct sgc_opts *o, const struct sgc_plan *p,
		     struct sgc_bufs *b, uint64_t bytes, uint64_t seed, struct table *t)
{
	struct sgc_result r[SGC_NVAR] = { 0 };
	json_t *copy_stats = NULL;
	double copy_ns = 0;
	cl_int e;

	check_fill_random(b->hsrc, (size_t)(bytes / 4), seed);
	e = clEnqueueWriteBuffer(s->pc.q, b->src, CL_TRUE, 0, (size_t)bytes, b->hsrc, 0, NULL, NULL);
	if (e != CL_SUCCESS)
		die(EXIT_FAIL, "driver: writing %llu bytes: %s", (unsigned long long)bytes, cl_err_name(e));
	copy_ns = session_copy_ceiling(s, b->src, b->cpy, (size_t)bytes, &copy_stats);
	for (int v = 0; v < SGC_NVAR; v++)
		if (o->variant[v])
			sgc_point(s, o, p, b, v, bytes, seed, copy_ns, &r[v]);
	for (int v = 0; v < SGC_NVAR; v++) {
		double vs = 0;
		if (!o->variant[v])
			continue;
		json_object_set(r[v].pt, "copy_time_ns", copy_stats);
		json_t *m = json_object_get(r[v].pt, "metrics");
		/* The gather variant against the sub-group ones (the guide's point). */
		if (v == SGC_GATHER && m && r[SGC_STRIDED].ok) {
			vs = r[v].gbps / r[SGC_STRIDED].gbps;
			json_object_set_new(m, "vs_strided", json_real(vs));
		}
		if (v == SGC_GATHER && m && r[SGC_BLOCK].ok)
			json_object_set_new(m, "vs_block", json_real(r[v].gbps / r[SGC_BLOCK].gbps));
		if (v == SGC_BLOCK && m && r[SGC_STRIDED].ok)
			json_object_set_new(m, "vs_strided", json_real(vs = r[v].gbps / r[SGC_STRIDED].gbps));
		sgc_row(t, o, p, v, bytes, &r[v], 2.0 * (double)bytes / copy_ns, vs);
		session_add_point(s, r[v].pt);
	}
	json_decref(copy_stats);
}

int sg_copy_main(int argc, char **argv)
{
	struct sgc_opts o;
	struct common_opts co;
	struct bench_session s;
	struct sgc_plan p = { 0 };
	struct sgc_bufs b;
	struct table t;

	parse_args(argc, argv, &o, &co);
	session_open(&s, &co, "sg-copy");
	plan_limits(&s, &o, &p);
	plan_build(&s, &o, &p);
	json_object_set_new(s.doc, "sub_groups", sgb_report_json(s.dev, &p.c));
	if (!o.cli.seed_given)
		o.cli.seed = check_fresh_seed() & INT64_MAX; /* stored as a JSON integer */
	alloc_bufs(&s, p.max_bytes, &b);
	table_init(&t, SGC_NCOLS, sgc_head);
	for (size_t i = 0; i < o.sizes.n; i++) {
		char label[64];
		snprintf(label, sizeof(label), "size=%llu", (unsigned long long)o.sizes.v[i]);
		session_progress(&s, i, o.sizes.n, label);
		sgc_size(&s, &o, &p, &b, o.sizes.v[i], (o.cli.seed + i) & INT64_MAX, &t);
	}
	session_progress(&s, o.sizes.n, o.sizes.n, "");
	if (!co.quiet) {
		printf("sg-copy on %s (%s)\n", s.dev->name, s.dev->platform_name);
		sgb_print(stdout, s.dev, &p.c);
		table_print(&t, stdout);
	}
	table_free(&t);
	free_bufs(&b);
	for (int v = 0; v < SGC_NVAR; v++) {
		if (p.k[v])
			clReleaseKernel(p.k[v]);
		if (p.prog[v])
			clReleaseProgram(p.prog[v]);
		free(p.skip[v]);
		free(p.fail[v]);
	}
	range_free(&o.sizes);
	return session_finish(&s);
}
