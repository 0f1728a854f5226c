/* bench vecadd: the sweep itself (plan, buffers, one validated and timed point each). */
#include "vecadd_host.h"

#include "check.h"
#include "timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What the run resolves once for the device. */
struct vecadd_plan {
	unsigned wg;             /* work-group size, 0: driver's choice (variant 1) */
	unsigned sg_req;         /* required sub-group size, 0: none */
	const char *sg_note;     /* why none was required where one was wanted */
	char wg_note[160];       /* a work-group above CL_KERNEL_WORK_GROUP_SIZE that ran */
	uint64_t max_n;          /* largest problem of the sweep */
	cl_program prog;
	cl_kernel k;
	char *build_log;
	struct kernel_res res;
};

struct vecadd_bufs {
	cl_mem a, b, out, info, scratch;
	uint32_t *ha, *hb, *hout, *href;
};

/* Elements and slice of the point with `groups` work-groups. */
static void point_size(const struct vecadd_opts *v, uint64_t groups, uint64_t *n, uint64_t *slice)
{
	if (v->variant == 1) {
		*n = v->n ? v->n : 16ull << 20;
		*slice = 0;
	} else if (v->n) {
		*n = v->n;
		*slice = (v->n + groups - 1) / groups;
	} else {
		*slice = v->slice;
		*n = groups * v->slice;
	}
}

/* The sub-group request: explicit --sg must be honourable (exit 2 otherwise). */
static void plan_sg(const struct bench_session *s, const struct vecadd_opts *v,
		    struct vecadd_plan *p)
{
	const struct dev_info *d = s->dev;
	char sizes[128];

	if (v->sg_auto)
		return;
	if (!v->sg_given) {   /* variant 2's default: 32 where it can be required */
		if (dev_can_require_sg(d, 32))
			p->sg_req = 32;
		else
			p->sg_note = d->has_intel_reqd_sg
					     ? "sub-group size 32 not required: the device does not list it"
					     : "sub-group size 32 not required: no cl_intel_required_subgroup_size";
		return;
	}
	if (!d->has_intel_reqd_sg)
		usage_error("--sg %u: '%s' cannot require a sub-group size (no "
			    "cl_intel_required_subgroup_size); use --sg auto", v->sg, d->name);
	if (!dev_can_require_sg(d, v->sg))
		usage_error("--sg %u is not supported by '%s': supported sizes are %s", v->sg, d->name,
			    dev_sg_sizes_str(d, sizes, sizeof(sizes)));
	p->sg_req = v->sg;
}

static void plan_wg(const struct bench_session *s, struct vecadd_opts *v, struct vecadd_plan *p)
{
	const struct dev_info *d = s->dev;

	if (v->variant == 1)
		return;
	if (v->variant == 2)
		p->wg = d->max_wg < 512 ? (unsigned)d->max_wg : 512;
	else
		p->wg = v->wg ? v->wg : 256;
	if (p->wg > d->max_wg)
		usage_error("--wg %u exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE of '%s': allowed 1..%zu",
			    p->wg, d->name, d->max_wg);
	if (p->wg > d->max_item_sizes[0])
		usage_error("--wg %u exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES[0] of '%s': allowed 1..%zu",
			    p->wg, d->name, d->max_item_sizes[0]);
	if (p->sg_req && p->wg % p->sg_req)
		usage_error("--wg %u is not a multiple of --sg %u", p->wg, p->sg_req);
	if (!v->slice && !v->n)
		v->slice = v->variant == 2 ? 65536 : 4ull * p->wg;
}

/* Problem sizes against the device's memory (exit 2 naming the limits). */
static void plan_memory(const struct bench_session *s, const struct vecadd_opts *v,
			struct vecadd_plan *p)
{
	const struct dev_info *d = s->dev;

	for (size_t i = 0; i < (v->variant == 1 ? 1 : v->groups.n); i++) {
		uint64_t n, slice;
		point_size(v, v->variant == 1 ? 1 : v->groups.v[i], &n, &slice);
		p->max_n = n > p->max_n ? n : p->max_n;
	}
	if (p->max_n > UINT64_MAX / 16)
		usage_error("problem of %llu elements is too large", (unsigned long long)p->max_n);
	uint64_t buf = p->max_n * 4;
	if (buf > d->max_alloc)
		usage_error("a buffer of %llu bytes (%llu elements) exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE "
			    "of '%s': at most %llu bytes (%llu elements)", (unsigned long long)buf,
			    (unsigned long long)p->max_n, d->name, (unsigned long long)d->max_alloc,
			    (unsigned long long)(d->max_alloc / 4));
	if (4 * buf > d->global_mem)
		usage_error("4 buffers of %llu bytes (a, b, out, copy target) exceed the global memory "
			    "of '%s': %llu bytes in all", (unsigned long long)buf, d->name,
			    (unsigned long long)d->global_mem);
}

static void plan_build(struct bench_session *s, const struct vecadd_opts *v, struct vecadd_plan *p)
{
	const struct dev_info *d = s->dev;
	char opts[512], err[16384];
	int off;

	off = snprintf(opts, sizeof(opts), "-DVARIANT=%u -DBARRIER=%d", v->variant, v->variant == 4);
	prog_sg_options(d, p->sg_req, opts + off, sizeof(opts) - (size_t)off);
	p->prog = prog_build(&s->pc, "vecadd.cl", opts, &p->build_log, err, sizeof(err));
	if (!p->prog || !(p->k = prog_kernel(p->prog, "vecadd", err, sizeof(err))))
		die(EXIT_FAIL, "%s", err);
	prog_kernel_res(&s->pc, p->k, p->wg, p->build_log, &p->res);
	json_object_set_new(s->doc, "kernel", prog_kernel_res_json("vecadd.cl", "vecadd", opts, &p->res));
	/* above CL_KERNEL_WORK_GROUP_SIZE the first launch decides (wg_note, wg_refused) */
	if (p->wg && !wg_note(p->wg, &p->res, p->wg_note, sizeof(p->wg_note)))
		p->wg_note[0] = '\0';
}

static void free_bufs(struct vecadd_bufs *b)
{
	cl_mem *m[] = { &b->a, &b->b, &b->out, &b->info, &b->scratch };

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (*m[i])
			clReleaseMemObject(*m[i]);
	free(b->ha);
	free(b->hb);
	free(b->hout);
	free(b->href);
}

static void alloc_bufs(struct bench_session *s, uint64_t n, struct vecadd_bufs *b)
{
	char err[512];
	size_t bytes = (size_t)n * 4;

	memset(b, 0, sizeof(*b));
	if (!(b->a = prog_buffer(&s->pc, CL_MEM_READ_ONLY, bytes, err, sizeof(err))) ||
	    !(b->b = prog_buffer(&s->pc, CL_MEM_READ_ONLY, bytes, err, sizeof(err))) ||
	    !(b->out = prog_buffer(&s->pc, CL_MEM_READ_WRITE, bytes, err, sizeof(err))) ||
	    !(b->scratch = prog_buffer(&s->pc, CL_MEM_READ_WRITE, bytes, err, sizeof(err))) ||
	    !(b->info = prog_buffer(&s->pc, CL_MEM_READ_WRITE, 16, err, sizeof(err))))
		die(EXIT_FAIL, "driver: %s", err);
	b->ha = malloc(bytes);
	b->hb = malloc(bytes);
	b->hout = malloc(bytes);
	b->href = malloc(bytes);
	if (!b->ha || !b->hb || !b->hout || !b->href)
		die(EXIT_FAIL, "out of host memory for 4 x %zu bytes", bytes);
}


/* ---- one point ---- */

static const char *const va_head[] = {
	"Work-groups", "Work-items", "WG size", "SIMD", "Threads/WG", "Threads", "Model occupancy",
	"Limiter", "median us", "CV %", "GB/s", "copy GB/s", "of copy", "status" };
#define VA_NCOLS (sizeof(va_head) / sizeof(va_head[0]))

/* What the launch really ran with, read back from the kernel and the compiler. */
struct va_seen {
	unsigned wg, groups, sg_kernel, simd;
	const char *simd_source;
};

static bool va_upload(struct bench_session *s, const struct vecadd_opts *v, struct vecadd_bufs *b,
		      uint64_t n, uint64_t seed, char *err, size_t len)
{
	size_t bytes = (size_t)n * 4;
	cl_int e;

	check_fill_random(b->ha, n, seed);
	check_fill_random(b->hb, n, seed ^ 0x5bd1e995ull);
	for (uint64_t k = 0; k < n; k++)
		b->href[k] = vecadd_ref(b->ha[k], b->hb[k], v->iter);
	e = clEnqueueWriteBuffer(s->pc.q, b->a, CL_TRUE, 0, bytes, b->ha, 0, NULL, NULL);
	if (e == CL_SUCCESS)
		e = clEnqueueWriteBuffer(s->pc.q, b->b, CL_TRUE, 0, bytes, b->hb, 0, NULL, NULL);
	if (e == CL_SUCCESS)
		e = check_poison(s->pc.q, b->out, bytes);
	if (e == CL_SUCCESS)
		e = check_poison(s->pc.q, b->info, 16);
	if (e != CL_SUCCESS)
		snprintf(err, len, "preparing buffers: %s", cl_err_name(e));
	return e == CL_SUCCESS;
}

static bool va_set_args(const struct vecadd_plan *p, const struct vecadd_bufs *b, uint64_t n,
			uint64_t slice, unsigned iter, char *err, size_t len)
{
	cl_ulong cn = n, cs = slice;
	cl_uint ci = iter;
	cl_int e = clSetKernelArg(p->k, 0, sizeof(cl_mem), &b->a);

	if (e == CL_SUCCESS) e = clSetKernelArg(p->k, 1, sizeof(cl_mem), &b->b);
	if (e == CL_SUCCESS) e = clSetKernelArg(p->k, 2, sizeof(cl_mem), &b->out);
	if (e == CL_SUCCESS) e = clSetKernelArg(p->k, 3, sizeof(cn), &cn);
	if (e == CL_SUCCESS) e = clSetKernelArg(p->k, 4, sizeof(cs), &cs);
	if (e == CL_SUCCESS) e = clSetKernelArg(p->k, 5, sizeof(ci), &ci);
	if (e == CL_SUCCESS) e = clSetKernelArg(p->k, 6, sizeof(cl_mem), &b->info);
	if (e != CL_SUCCESS)
		snprintf(err, len, "clSetKernelArg: %s", cl_err_name(e));
	return e == CL_SUCCESS;
}

/* Checks the output and what the kernel recorded of its own launch. */
static bool va_validate(struct bench_session *s, const struct vecadd_plan *p, struct vecadd_bufs *b,
			uint64_t n, uint64_t groups, struct va_seen *seen, char *err, size_t len)
{
	cl_uint info[4];
	cl_int e = clEnqueueReadBuffer(s->pc.q, b->out, CL_TRUE, 0, (size_t)n * 4, b->hout, 0, NULL,
				       NULL);

	if (e == CL_SUCCESS)
		e = clEnqueueReadBuffer(s->pc.q, b->info, CL_TRUE, 0, sizeof(info), info, 0, NULL, NULL);
	if (e != CL_SUCCESS) {
		snprintf(err, len, "reading results: %s", cl_err_name(e));
		return false;
	}
	if (check_compare_u32(b->hout, b->href, n, err, len))
		return false;
	seen->wg = info[0];
	seen->groups = info[1];
	seen->sg_kernel = info[2];
	if ((p->wg && info[0] != p->wg) || (groups && info[1] != groups)) {
		snprintf(err, len, "the kernel saw local size %u and %u groups, launched with %u and %llu",
			 info[0], info[1], p->wg, (unsigned long long)groups);
		return false;
	}
	if (p->sg_req && (info[2] != p->sg_req || (p->res.compiled_sg && p->res.compiled_sg != p->sg_req))) {
		snprintf(err, len, "required sub-group size %u, but the compiler reports %u and the kernel "
			 "ran with %u", p->sg_req, p->res.compiled_sg, info[2]);
		return false;
	}
	return true;
}

/* SIMD width the launch ran with and where that figure comes from. */
static void va_simd(const struct bench_session *s, const struct vecadd_plan *p, struct va_seen *seen)
{
	if (seen->sg_kernel) {
		seen->simd = seen->sg_kernel;
		seen->simd_source = p->sg_req ? "required, read back in the kernel"
					      : "chosen by the driver, read back in the kernel";
	} else if (s->dev->nv_warp_size) {
		seen->simd = s->dev->nv_warp_size;
		seen->simd_source = "warp size (CL_DEVICE_WARP_SIZE_NV)";
	} else {
		seen->simd = 0;
		seen->simd_source = "unknown: the device offers no sub-groups";
	}
}

static json_t *va_params(const struct vecadd_opts *v, const struct vecadd_plan *p, uint64_t groups,
			 uint64_t n, uint64_t slice, uint64_t seed, const struct va_seen *seen)
{
	json_t *o = json_object();

	json_object_set_new(o, "variant", json_integer(v->variant));
	json_object_set_new(o, "groups", json_integer((json_int_t)(groups ? groups : seen->groups)));
	json_object_set_new(o, "wg_size", json_integer(p->wg ? p->wg : seen->wg));
	json_object_set_new(o, "wg_size_chosen_by", json_string(p->wg ? "bench" : "driver"));
	json_object_set_new(o, "sg_size_requested", p->sg_req ? json_integer(p->sg_req) : json_null());
	json_object_set_new(o, "sg_size_compiled", p->res.compiled_sg ? json_integer(p->res.compiled_sg) : json_null());
	json_object_set_new(o, "sg_size_kernel", seen->sg_kernel ? json_integer(seen->sg_kernel) : json_null());
	json_object_set_new(o, "simd", seen->simd ? json_integer(seen->simd) : json_null());
	json_object_set_new(o, "simd_source", json_string(seen->simd_source));
	json_object_set_new(o, "barrier", json_boolean(v->variant == 4));
	json_object_set_new(o, "iter", json_integer(v->iter));
	json_object_set_new(o, "n", json_integer((json_int_t)n));
	json_object_set_new(o, "slice", slice ? json_integer((json_int_t)slice) : json_null());
	json_object_set_new(o, "seed", json_integer((json_int_t)(seed & 0x7fffffffffffffffull)));
	return o;
}

/* Times the kernel and the copy of the same bytes; fills metrics. */
static bool va_time(struct bench_session *s, const struct vecadd_plan *p, struct vecadd_bufs *b,
		    size_t global, uint64_t n, unsigned iter, json_t *pt, double *med, char *err,
		    size_t len)
{
	unsigned reps = s->opts->reps;
	double *t = calloc(2 * (size_t)reps, sizeof(double));
	struct time_launch l = { p->k, global, p->wg };
	struct stats ks;
	bool ok = t && time_run(s->pc.q, time_enqueue_launch, &l, s->opts->warmup, reps, t, t + reps,
				err, len);

	if (ok) {   /* the copy ceiling: the same n * 4 bytes read and written */
		json_t *m = json_object(), *copy_stats;
		double copy_gbps = 8.0 * (double)n /
				   session_copy_ceiling(s, b->a, b->scratch, (size_t)n * 4, &copy_stats);
		stats_compute(t, reps, &ks);
		point_set_times(pt, t, t + reps, reps);
		json_object_set_new(pt, "copy_time_ns", copy_stats);
		json_object_set_new(m, "bytes", json_real(vecadd_bytes(n)));
		json_object_set_new(m, "gbps", json_real(vecadd_bytes(n) / ks.median));
		json_object_set_new(m, "copy_gbps", json_real(copy_gbps));
		json_object_set_new(m, "fraction_of_copy", json_real(vecadd_bytes(n) / ks.median / copy_gbps));
		json_object_set_new(m, "gops", json_real(vecadd_ops(n, iter) / ks.median));
		json_object_set_new(pt, "metrics", m);
		med[0] = ks.median;
		med[1] = ks.cv;
		med[2] = copy_gbps;
	}
	free(t);
	return ok;
}

static void va_row(struct table *t, const json_t *pt, const struct va_seen *seen, const double *med)
{
	const json_t *pa = json_object_get(pt, "params"), *mo = json_object_get(pt, "model");
	const char *status = json_string_value(json_object_get(pt, "status"));
	char c[VA_NCOLS][48];
	const char *cells[VA_NCOLS];
	long long groups = json_integer_value(json_object_get(pa, "groups"));
	long long wg = json_integer_value(json_object_get(pa, "wg_size"));
	bool ok = strcmp(status, "ok") == 0;

	snprintf(c[0], 48, "%lld", groups);
	snprintf(c[1], 48, "%lld", groups * wg);
	snprintf(c[2], 48, "%lld%s", wg, json_is_null(json_object_get(pa, "sg_size_requested")) &&
					  strcmp(json_string_value(json_object_get(pa, "wg_size_chosen_by")), "driver") == 0 ? " (driver)" : "");
	snprintf(c[3], 48, seen->simd ? "%u" : "-", seen->simd);
	snprintf(c[4], 48, seen->simd ? "%lld" : "-", seen->simd ? (wg + seen->simd - 1) / seen->simd : 0);
	snprintf(c[5], 48, seen->simd ? "%lld" : "-", seen->simd ? groups * ((wg + seen->simd - 1) / seen->simd) : 0);
	snprintf(c[6], 48, "%s", model_occupancy_cell(mo));
	snprintf(c[7], 48, "%s", model_limiter_cell(mo));
	snprintf(c[8], 48, ok ? "%.2f" : "-", med[0] / 1e3);
	snprintf(c[9], 48, ok ? "%.1f" : "-", med[1]);
	snprintf(c[10], 48, ok ? "%.2f" : "-", json_real_value(json_object_get(json_object_get(pt, "metrics"), "gbps")));
	snprintf(c[11], 48, ok ? "%.2f" : "-", med[2]);
	snprintf(c[12], 48, ok ? "%.3f" : "-", json_real_value(json_object_get(json_object_get(pt, "metrics"), "fraction_of_copy")));
	snprintf(c[13], 48, "%s%s", status, ok && !json_is_null(json_object_get(pt, "reason")) ? " (note)" : "");
	for (size_t i = 0; i < VA_NCOLS; i++)
		cells[i] = c[i];
	table_add(t, cells);
}

/* The model's prediction for this launch on the live device. */
static void va_model(const struct bench_session *s, const struct vecadd_plan *p,
		     const struct va_seen *seen, json_t *pt, bool barrier)
{
	struct occ_result r;
	const json_t *pa = json_object_get(pt, "params");

	json_object_set_new(pt, "model", session_model(s, &p->res,
		(unsigned)json_integer_value(json_object_get(pa, "wg_size")), seen->simd, barrier,
		(uint64_t)json_integer_value(json_object_get(pa, "groups")), &r));
}

/* The caveats of an ok point, or NULL. */
static const char *va_note(const struct vecadd_plan *p, char *buf, size_t len)
{
	if (!p->sg_note && !p->wg_note[0])
		return NULL;
	snprintf(buf, len, "%s%s%s", p->sg_note ? p->sg_note : "",
		 p->sg_note && p->wg_note[0] ? "; " : "", p->wg_note);
	return buf;
}

static void va_point(struct bench_session *s, const struct vecadd_opts *v, struct vecadd_plan *p,
		     struct vecadd_bufs *b, uint64_t groups, size_t idx, struct table *t)
{
	uint64_t n, slice, seed = v->seed + idx;
	struct va_seen seen = { 0 };
	json_t *pt = point_new();
	double med[3] = { 0 };
	char err[4096];
	size_t global;
	struct time_launch l;

	point_size(v, groups, &n, &slice);
	global = v->variant == 1 ? (size_t)n : (size_t)(groups * p->wg);
	l = (struct time_launch){ p->k, global, p->wg };
	bool ok = va_upload(s, v, b, n, seed, err, sizeof(err)) &&
		  va_set_args(p, b, n, slice, v->iter, err, sizeof(err));
	double d0, w0;
	cl_clear_last();
	ok = ok && time_run(s->pc.q, time_enqueue_launch, &l, 0, 1, &d0, &w0, err, sizeof(err));
	if (!ok && p->wg)
		wg_refused(s, "wg", p->wg, &p->res);
	ok = ok && va_validate(s, p, b, n, groups, &seen, err, sizeof(err));
	va_simd(s, p, &seen);
	json_object_set_new(pt, "params", va_params(v, p, groups, n, slice, seed, &seen));
	if (ok) {
		json_object_set_new(pt, "validated", json_true());
		ok = va_time(s, p, b, global, n, v->iter, pt, med, err, sizeof(err));
	}
	point_set_status(pt, ok ? "ok" : "failed", ok ? va_note(p, err, sizeof(err)) : err);
	va_model(s, p, &seen, pt, v->variant == 4);
	va_row(t, pt, &seen, med);
	session_add_point(s, pt);
}

int vecadd_run(struct bench_session *s, struct vecadd_opts *v)
{
	struct vecadd_plan p = { 0 };
	struct vecadd_bufs b;
	struct table t;
	size_t npts = v->variant == 1 ? 1 : v->groups.n;

	plan_sg(s, v, &p);
	plan_wg(s, v, &p);
	plan_memory(s, v, &p);
	plan_build(s, v, &p);
	if (!v->seed_given)
		v->seed = check_fresh_seed();
	alloc_bufs(s, p.max_n, &b);
	table_init(&t, VA_NCOLS, va_head);
	for (size_t i = 0; i < npts; i++) {
		uint64_t groups = v->variant == 1 ? 0 : v->groups.v[i];
		char label[64];
		snprintf(label, sizeof(label), "groups=%llu", (unsigned long long)groups);
		session_progress(s, i, npts, label);
		va_point(s, v, &p, &b, groups, i, &t);
	}
	session_progress(s, npts, npts, "");
	if (!s->opts->quiet) {
		printf("vecadd variant %u on %s (%s)\n", v->variant, s->dev->name, s->dev->platform_name);
		table_print(&t, stdout);
	}
	table_free(&t);
	free_bufs(&b);
	free(p.build_log);
	clReleaseKernel(p.k);
	clReleaseProgram(p.prog);
	return session_finish(s);
}
