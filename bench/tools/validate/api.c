/*
 * bench validate's API checks: the answers the OpenCL 3.0 API specification requires
 * when a program misuses it, each with a correct use beside it where one makes sense.
 * Each check's description quotes the specification's words for the expected answer
 * (OpenCL 3.0 API specification: clEnqueueNDRangeKernel, clCreateBuffer,
 * clSetKernelArg; the cl_intel_required_subgroup_size extension).
 */
#include "validate.h"

#include <stdlib.h>
#include <string.h>

#define FILE_CL "validate_api.cl"

/* Builds validate_api.cl with options and creates kernel kname; NULL with c failed. */
static cl_kernel build(struct val_ctx *v, struct val_check *c, const char *options, const char *kname,
		       cl_program *prog)
{
	char err[8192];
	cl_kernel k = NULL;

	*prog = prog_build(&v->pc, FILE_CL, options, NULL, err, sizeof(err));
	if (!*prog || !(k = prog_kernel(*prog, kname, err, sizeof(err)))) {
		c->res = VAL_FAIL;
		snprintf(c->reason, sizeof(c->reason), "%.2000s", err);   /* it says whose fault */
	}
	return k;
}

static void release(cl_kernel k, cl_program p, cl_mem m)
{
	if (k)
		clReleaseKernel(k);
	if (p)
		clReleaseProgram(p);
	if (m)
		clReleaseMemObject(m);
}

/* Compares an answer with the one required; a launch the driver took is waited for. */
static bool expect(struct val_ctx *v, struct val_check *c, cl_int got, cl_int want, const char *what)
{
	if (got == want) {
		val_pass(c, "%s: %s, as required", what, cl_err_name(want));
		return true;
	}
	if (got == CL_SUCCESS)
		clFinish(v->pc.q);
	val_fail(c, "%s: the driver answered %s; the specification requires %s", what, cl_err_name(got),
	     cl_err_name(want));
	return false;
}

/* The control: k over `global` work-items with a fill of v0 must run and write v0 + i. */
static bool control(struct val_ctx *v, struct val_check *c, cl_kernel k, cl_mem out, size_t global,
		    const size_t *local, const char *what)
{
	char err[1024];
	cl_uint v0 = 0x1234;
	uint32_t *h = bench_alloc(global * 4);
	size_t bad = global;

	if (PROG_SET_ARGS(k, err, sizeof(err), PROG_ARG(out), PROG_ARG(v0)) &&
	    CL_CHECK(clEnqueueNDRangeKernel(v->pc.q, k, 1, NULL, &global, local, 0, NULL, NULL), err,
		     sizeof(err)) &&
	    CL_CHECK(clEnqueueReadBuffer(v->pc.q, out, CL_TRUE, 0, global * 4, h, 0, NULL, NULL), err,
		     sizeof(err))) {
		for (bad = 0; bad < global && h[bad] == v0 + bad; bad++)
			;
		snprintf(err, sizeof(err), "word %zu: expected 0x%08zx, got 0x%08x", bad, v0 + bad,
			 bad < global ? h[bad] : 0);
	}
	free(h);
	if (bad < global)
		val_fail(c, "the correct use failed (%s): %s", what, err);
	return bad == global;
}

static cl_mem buffer(struct val_ctx *v, struct val_check *c, size_t bytes)
{
	char err[512];
	cl_mem m = prog_buffer(&v->pc, CL_MEM_READ_WRITE, bytes, err, sizeof(err));

	if (!m)
		val_fail(c, "driver: %s", err);
	return m;
}

/* ---- work-group sizes ---- */

static void wg_above_device(struct val_ctx *v, struct val_check *c)
{
	const struct dev_info *d = v->dev;
	size_t a = d->max_wg < d->max_item_sizes[0] ? d->max_wg : d->max_item_sizes[0];
	size_t local[2] = { a, d->max_wg / a + 1 }, global[2] = { local[0], local[1] };
	cl_program p = NULL;
	cl_mem out = NULL;
	cl_kernel k = NULL;
	char err[512];

	if (local[1] > d->max_item_sizes[1]) {
		c->res = VAL_SKIP;
		snprintf(c->reason, sizeof(c->reason), "no 2-D work-group within CL_DEVICE_MAX_WORK_ITEM_SIZES "
			 "exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE %zu", d->max_wg);
		return;
	}
	cl_uint v0 = 1;
	if ((k = build(v, c, "", "fill", &p)) && (out = buffer(v, c, local[0] * local[1] * 4)) &&
	    control(v, c, k, out, a, &a, "a work-group of the device's maximum") &&
	    PROG_SET_ARGS(k, err, sizeof(err), PROG_ARG(out), PROG_ARG(v0)))
		expect(v, c, clEnqueueNDRangeKernel(v->pc.q, k, 2, NULL, global, local, 0, NULL, NULL),
		       CL_INVALID_WORK_GROUP_SIZE, "a work-group above CL_DEVICE_MAX_WORK_GROUP_SIZE");
	if (c->res == VAL_PASS || c->res == VAL_FAIL)
		snprintf(c->reason + strlen(c->reason), sizeof(c->reason) - strlen(c->reason),
			 " (local %zu x %zu = %zu work-items, CL_DEVICE_MAX_WORK_GROUP_SIZE %zu)", local[0],
			 local[1], local[0] * local[1], d->max_wg);
	release(k, p, out);
}

static void wg_above_kernel(struct val_ctx *v, struct val_check *c)
{
	const struct dev_info *d = v->dev;
	size_t lim = d->max_wg < d->max_item_sizes[0] ? d->max_wg : d->max_item_sizes[0];
	cl_program p = NULL;
	cl_mem out = NULL;
	cl_kernel k = NULL;
	size_t kwg = 0;
	char err[512];

	if (!(k = build(v, c, "", "fill", &p)))
		goto out;
	if (!CL_CHECK(clGetKernelWorkGroupInfo(k, d->id, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kwg), &kwg,
					       NULL), err, sizeof(err))) {
		val_fail(c, "driver: %s", err);
		goto out;
	}
	if (kwg >= lim) {
		c->res = VAL_SKIP;
		snprintf(c->reason, sizeof(c->reason), "CL_KERNEL_WORK_GROUP_SIZE %zu is the device's limit: "
			 "no work-group lies between", kwg);
		goto out;
	}
	cl_uint v0 = 1;
	if ((out = buffer(v, c, lim * 4)) && control(v, c, k, out, kwg, &kwg, "CL_KERNEL_WORK_GROUP_SIZE") &&
	    PROG_SET_ARGS(k, err, sizeof(err), PROG_ARG(out), PROG_ARG(v0)) &&
	    !expect(v, c, clEnqueueNDRangeKernel(v->pc.q, k, 1, NULL, &lim, &lim, 0, NULL, NULL),
		    CL_INVALID_WORK_GROUP_SIZE, "a work-group above the kernel's limit"))
		snprintf(c->reason + strlen(c->reason), sizeof(c->reason) - strlen(c->reason),
			 " (work-group %zu, CL_KERNEL_WORK_GROUP_SIZE %zu, CL_DEVICE_MAX_WORK_GROUP_SIZE %zu)",
			 lim, kwg, d->max_wg);
out:
	release(k, p, out);
}

static void reqd_wg(struct val_ctx *v, struct val_check *c)
{
	const struct dev_info *d = v->dev;
	size_t lim = d->max_wg < d->max_item_sizes[0] ? d->max_wg : d->max_item_sizes[0];
	size_t rwg = lim < 64 ? lim : 64, wrong = 2 * rwg <= lim ? 2 * rwg : rwg / 2, global = 4 * rwg;
	cl_program p = NULL;
	cl_mem out = NULL;
	cl_kernel k = NULL;
	char opts[64], err[512];

	if (rwg < 2) {
		c->res = VAL_SKIP;
		snprintf(c->reason, sizeof(c->reason), "work-groups of 1 only");
		return;
	}
	snprintf(opts, sizeof(opts), "-DRWG=%zu", rwg);
	cl_uint v0 = 1;
	if ((k = build(v, c, opts, "fill_reqd", &p)) && (out = buffer(v, c, global * 4)) &&
	    control(v, c, k, out, global, &rwg, "the required work-group size") &&
	    PROG_SET_ARGS(k, err, sizeof(err), PROG_ARG(out), PROG_ARG(v0)))
		expect(v, c, clEnqueueNDRangeKernel(v->pc.q, k, 1, NULL, &global, &wrong, 0, NULL, NULL),
		       CL_INVALID_WORK_GROUP_SIZE, "local size other than reqd_work_group_size");
	snprintf(c->reason + strlen(c->reason), sizeof(c->reason) - strlen(c->reason),
		 " (reqd_work_group_size(%zu, 1, 1), launched with %zu)", rwg, wrong);
	release(k, p, out);
}

static void non_uniform_1x(struct val_ctx *v, struct val_check *c)
{
	const struct dev_info *d = v->dev;
	size_t local = d->max_wg < 16 ? d->max_wg : 16, global = 2 * local + 1, even = 2 * local;
	cl_program p = NULL;
	cl_mem out = NULL;
	cl_kernel k = NULL;
	char err[512];

	if (local < 2) {
		c->res = VAL_SKIP;
		snprintf(c->reason, sizeof(c->reason), "work-groups of 1 only");
		return;
	}
	cl_uint v0 = 1;
	if ((k = build(v, c, "", "fill", &p)) && (out = buffer(v, c, global * 4)) &&
	    control(v, c, k, out, even, &local, "a global size that is a multiple") &&
	    PROG_SET_ARGS(k, err, sizeof(err), PROG_ARG(out), PROG_ARG(v0)))
		expect(v, c, clEnqueueNDRangeKernel(v->pc.q, k, 1, NULL, &global, &local, 0, NULL, NULL),
		       CL_INVALID_WORK_GROUP_SIZE, "a global size not a multiple of the local size");
	snprintf(c->reason + strlen(c->reason), sizeof(c->reason) - strlen(c->reason),
		 " (global %zu, local %zu, built without -cl-std)", global, local);
	release(k, p, out);
}

static void work_item_size(struct val_ctx *v, struct val_check *c)
{
	const struct dev_info *d = v->dev;
	size_t local[3] = { 1, 1, 1 }, dim = 3;
	cl_program p = NULL;
	cl_mem out = NULL;
	cl_kernel k = NULL;
	char err[512];

	for (size_t i = 0; i < 3 && dim == 3; i++)
		if (d->max_item_sizes[i] < d->max_wg)
			dim = i;
	if (dim == 3) {
		c->res = VAL_SKIP;
		snprintf(c->reason, sizeof(c->reason), "every CL_DEVICE_MAX_WORK_ITEM_SIZES entry equals "
			 "CL_DEVICE_MAX_WORK_GROUP_SIZE %zu: no size exceeds one alone", d->max_wg);
		return;
	}
	local[dim] = d->max_item_sizes[dim] + 1;
	cl_uint v0 = 1;
	if ((k = build(v, c, "", "fill", &p)) && (out = buffer(v, c, local[dim] * 4)) &&
	    PROG_SET_ARGS(k, err, sizeof(err), PROG_ARG(out), PROG_ARG(v0)))
		expect(v, c, clEnqueueNDRangeKernel(v->pc.q, k, 3, NULL, local, local, 0, NULL, NULL),
		       CL_INVALID_WORK_ITEM_SIZE, "a local size above CL_DEVICE_MAX_WORK_ITEM_SIZES");
	snprintf(c->reason + strlen(c->reason), sizeof(c->reason) - strlen(c->reason),
		 " (local[%zu] = %zu, the limit %zu)", dim, local[dim], d->max_item_sizes[dim]);
	release(k, p, out);
}

static void work_dim(struct val_ctx *v, struct val_check *c)
{
	size_t sizes[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	cl_uint dims = 0;
	cl_program p = NULL;
	cl_mem out = NULL;
	cl_kernel k = NULL;
	char err[512];

	if (!CL_CHECK(clGetDeviceInfo(v->dev->id, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof(dims), &dims,
				      NULL), err, sizeof(err)) || dims >= 8) {
		val_fail(c, "driver: %s", dims >= 8 ? "CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS above 7" : err);
		return;
	}
	cl_uint v0 = 1;
	if ((k = build(v, c, "", "fill", &p)) && (out = buffer(v, c, 64)) &&
	    PROG_SET_ARGS(k, err, sizeof(err), PROG_ARG(out), PROG_ARG(v0)))
		expect(v, c, clEnqueueNDRangeKernel(v->pc.q, k, dims + 1, NULL, sizes, sizes, 0, NULL, NULL),
		       CL_INVALID_WORK_DIMENSION, "work_dim = CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS + 1");
	release(k, p, out);
}

/* ---- sub-groups ---- */

static void reqd_sg_unlisted(struct val_ctx *v, struct val_check *c)
{
	const struct dev_info *d = v->dev;
	unsigned n = 0;
	char opts[256], err[8192];
	cl_program p = NULL;
	cl_mem out = NULL;
	cl_kernel k = NULL;

	if (!d->has_intel_reqd_sg) {
		c->res = VAL_SKIP;
		snprintf(c->reason, sizeof(c->reason), "no cl_intel_required_subgroup_size");
		return;
	}
	for (unsigned s = 2; s <= 256 && !n; s *= 2)
		if (!dev_can_require_sg(d, s))
			n = s;
	int off = snprintf(opts, sizeof(opts), "-DREQD_SG_UNLISTED=%u", n);
	prog_sg_options(d, 0, opts + off, sizeof(opts) - (size_t)off);
	p = prog_build(&v->pc, FILE_CL, opts, NULL, err, sizeof(err));
	if (!p) {
		val_pass(c, "size %u (not among %s) refused at build: %.200s", n,
		     dev_sg_sizes_str(d, opts, sizeof(opts)), err);
		return;
	}
	size_t global = 4 * n, local = n <= d->max_wg ? n : 0;
	uint32_t got[1024] = { 0 };
	if ((k = prog_kernel(p, "sg_unlisted", err, sizeof(err))) && (out = buffer(v, c, global * 4)) &&
	    PROG_SET_ARGS(k, err, sizeof(err), PROG_ARG(out)) &&
	    CL_CHECK(clEnqueueNDRangeKernel(v->pc.q, k, 1, NULL, &global, local ? &local : NULL, 0, NULL,
					    NULL), err, sizeof(err)) &&
	    CL_CHECK(clEnqueueReadBuffer(v->pc.q, out, CL_TRUE, 0, 4, got, 0, NULL, NULL), err, sizeof(err)))
		val_fail(c, "intel_reqd_sub_group_size(%u), a size CL_DEVICE_SUB_GROUP_SIZES_INTEL does not list "
		     "(%s), built; the kernel saw get_max_sub_group_size() = %u%s", n,
		     dev_sg_sizes_str(d, opts, sizeof(opts)), got[0],
		     got[0] == n ? " (the list is incomplete)" : " (the guarantee is broken)");
	else if (c->res != VAL_FAIL)
		val_fail(c, "intel_reqd_sub_group_size(%u) built although the device does not list it; then: %s",
		     n, err);
	release(k, p, out);
}

/* ---- buffers ---- */

static void buffer_size(struct val_ctx *v, struct val_check *c)
{
	size_t bytes = c->api_arg ? (size_t)v->dev->max_alloc + 1 : 0;
	cl_int e = CL_SUCCESS;
	cl_mem m = clCreateBuffer(v->pc.ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);

	if (m)
		clReleaseMemObject(m);
	expect(v, c, m ? CL_SUCCESS : e, CL_INVALID_BUFFER_SIZE,
	       c->api_arg ? "a buffer of CL_DEVICE_MAX_MEM_ALLOC_SIZE + 1 bytes" : "a buffer of 0 bytes");
	if (c->api_arg)
		snprintf(c->reason + strlen(c->reason), sizeof(c->reason) - strlen(c->reason),
			 " (%zu bytes)", bytes);
}

/* ---- kernel arguments ---- */

static void null_arg(struct val_ctx *v, struct val_check *c)
{
	size_t global = 64;
	cl_program p = NULL;
	cl_mem out = NULL, none = NULL;
	cl_kernel k = NULL;
	uint32_t h[64];
	char err[512];

	if (!(k = build(v, c, "", "null_arg", &p)) || !(out = buffer(v, c, global * 4)))
		goto out;
	for (int way = 0; way < 2; way++) {   /* arg_value NULL, then pointing to a NULL cl_mem */
		const char *what = way ? "arg_value pointing to NULL" : "arg_value NULL";
		if (!CL_CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), way ? (const void *)&none : NULL), err,
			      sizeof(err)) ||
		    !CL_CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), &out), err, sizeof(err)) ||
		    !CL_CHECK(clEnqueueNDRangeKernel(v->pc.q, k, 1, NULL, &global, NULL, 0, NULL, NULL), err,
			      sizeof(err)) ||
		    !CL_CHECK(clEnqueueReadBuffer(v->pc.q, out, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL), err,
			      sizeof(err))) {
			val_fail(c, "%s for a __global pointer: %s", what, err);
			goto out;
		}
		for (size_t i = 0; i < global; i++)
			if (h[i] != 1) {
				val_fail(c, "%s: the kernel saw a non-NULL pointer (word %zu = %u)", what, i, h[i]);
				goto out;
			}
	}
	val_pass(c, "both ways accepted, and the kernel saw NULL");
out:
	release(k, p, out);
}

static void args_unset(struct val_ctx *v, struct val_check *c)
{
	size_t global = 16;
	cl_program p = NULL;
	cl_mem out = NULL;
	cl_kernel k = NULL;
	char err[512];

	if ((k = build(v, c, "", "fill", &p)) && (out = buffer(v, c, global * 4)) &&
	    CL_CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &out), err, sizeof(err)))
		expect(v, c, clEnqueueNDRangeKernel(v->pc.q, k, 1, NULL, &global, NULL, 0, NULL, NULL),
		       CL_INVALID_KERNEL_ARGS, "a launch with argument 1 never set");
	release(k, p, out);
}

static void arg_index(struct val_ctx *v, struct val_check *c)
{
	cl_program p = NULL;
	cl_kernel k = build(v, c, "", "fill", &p);
	cl_uint x = 0;

	if (k)
		expect(v, c, clSetKernelArg(k, 2, sizeof(x), &x), CL_INVALID_ARG_INDEX,
		       "argument 2 of a kernel of 2");
	release(k, p, NULL);
}

static void arg_size(struct val_ctx *v, struct val_check *c)
{
	cl_program p = NULL;
	cl_mem out = NULL;
	cl_kernel k = build(v, c, "", "fill", &p);
	cl_ulong wide = 0;

	if (k && (out = buffer(v, c, 64)) &&
	    expect(v, c, clSetKernelArg(k, 1, sizeof(wide), &wide), CL_INVALID_ARG_SIZE,
		   "8 bytes for a uint argument"))
		expect(v, c, clSetKernelArg(k, 0, sizeof(cl_mem) / 2, &out), CL_INVALID_ARG_SIZE,
		       "half a cl_mem for a buffer argument");
	release(k, p, out);
}

static void local_arg_zero(struct val_ctx *v, struct val_check *c)
{
	cl_program p = NULL;
	cl_kernel k;

	if (v->dev->api_major > 3 || (v->dev->api_major == 3 && v->dev->api_minor >= 1)) {
		c->res = VAL_SKIP;
		snprintf(c->reason, sizeof(c->reason), "OpenCL %u.%u: from 3.1 a local argument may be of 0 "
			 "bytes", v->dev->api_major, v->dev->api_minor);
		return;
	}
	if ((k = build(v, c, "", "with_local", &p)))
		expect(v, c, clSetKernelArg(k, 1, 0, NULL), CL_INVALID_ARG_SIZE,
		       "0 bytes for a __local argument");
	release(k, p, NULL);
}

/* ---- the table ---- */

struct api_row {
	const char *id;
	val_api_fn fn;
	unsigned arg;
	const char *spec;     /* the specification's words for the expected answer */
};

static const struct api_row api_rows[] = {
	{ "wg-above-device-max", wg_above_device, 0,
	  "clEnqueueNDRangeKernel: \"CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and the "
	  "total number of work-items in the work-group computed as local_work_size[0] x ... "
	  "local_work_size[work_dim - 1] is greater than the value specified by CL_KERNEL_WORK_GROUP_SIZE\" "
	  "(which is at most CL_DEVICE_MAX_WORK_GROUP_SIZE); a 2-D group within "
	  "CL_DEVICE_MAX_WORK_ITEM_SIZES, above CL_DEVICE_MAX_WORK_GROUP_SIZE" },
	{ "wg-above-kernel-query", wg_above_kernel, 0,
	  "clEnqueueNDRangeKernel: \"CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and the "
	  "total number of work-items in the work-group ... is greater than the value specified by "
	  "CL_KERNEL_WORK_GROUP_SIZE in the Kernel Object Device Queries table\"; a launch at the query "
	  "must run" },
	{ "reqd-wg-mismatch", reqd_wg, 0,
	  "clEnqueueNDRangeKernel: \"CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and does "
	  "not match the required work-group size for kernel in the program source\"; the required size "
	  "must run" },
	{ "non-uniform-1.x", non_uniform_1x, 0,
	  "clEnqueueNDRangeKernel: \"CL_INVALID_WORK_GROUP_SIZE if the work-group size must be uniform "
	  "and the local_work_size is not NULL, is not equal to the required work-group size specified "
	  "in the kernel source, or the global_work_size is not evenly divisible by the "
	  "local_work_size\"; non-uniform work-groups need \"the -cl-std=CL2.0 or -cl-std=CL3.0 build "
	  "option\", so a program built without it must be uniform" },
	{ "work-item-size", work_item_size, 0,
	  "clEnqueueNDRangeKernel: \"CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in "
	  "any of local_work_size[0], ... local_work_size[work_dim - 1] is greater than the corresponding "
	  "values specified by CL_DEVICE_MAX_WORK_ITEM_SIZES[0], ..., "
	  "CL_DEVICE_MAX_WORK_ITEM_SIZES[work_dim - 1]\"" },
	{ "work-dim", work_dim, 0,
	  "clEnqueueNDRangeKernel: \"CL_INVALID_WORK_DIMENSION if work_dim is not a valid value (i.e. a "
	  "value between 1 and CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)\"" },
	{ "reqd-sg-unlisted", reqd_sg_unlisted, 0,
	  "cl_intel_required_subgroup_size: intel_reqd_sub_group_size \"can be used to indicate that the "
	  "kernel must be compiled and executed with the specified subgroup size. When this attribute is "
	  "present, get_max_sub_group_size() is guaranteed to return the specified integer value\", and "
	  "CL_DEVICE_SUB_GROUP_SIZES_INTEL \"returns the set of subgroup sizes supported by the device\": "
	  "a size outside the set must be refused at build" },
	{ "buffer-above-max-alloc", buffer_size, 1,
	  "clCreateBuffer: \"CL_INVALID_BUFFER_SIZE if size is 0 or if size is greater than "
	  "CL_DEVICE_MAX_MEM_ALLOC_SIZE value specified in the Device Queries table for all devices in "
	  "context\"" },
	{ "buffer-size-zero", buffer_size, 0,
	  "clCreateBuffer: \"CL_INVALID_BUFFER_SIZE if size is 0 ...\"" },
	{ "null-global-arg", null_arg, 0,
	  "clSetKernelArg: \"If the argument is a buffer object, the arg_value pointer can be NULL or "
	  "point to a NULL value in which case a NULL value will be used as the value for the argument "
	  "declared as a pointer to global or constant memory in the kernel\"" },
	{ "kernel-args-unset", args_unset, 0,
	  "clEnqueueNDRangeKernel: \"CL_INVALID_KERNEL_ARGS if the kernel argument values have not been "
	  "specified\"" },
	{ "arg-index", arg_index, 0,
	  "clSetKernelArg: \"CL_INVALID_ARG_INDEX if arg_index is not a valid argument index\"" },
	{ "arg-size", arg_size, 0,
	  "clSetKernelArg: \"CL_INVALID_ARG_SIZE if arg_size does not match the size of the data type for "
	  "an argument that is not a memory object or if the argument is a memory object and arg_size != "
	  "sizeof(cl_mem)\"" },
	{ "local-arg-size-zero", local_arg_zero, 0,
	  "clSetKernelArg: \"CL_INVALID_ARG_SIZE if ... arg_size is zero and the argument is declared "
	  "with the local qualifier\" (before OpenCL 3.1)" },
};

void val_plan_api(struct val_ctx *v)
{
	for (size_t i = 0; i < sizeof(api_rows) / sizeof(api_rows[0]); i++) {
		struct val_check *c = val_add(v, "api", "api/%s", api_rows[i].id);
		c->api = api_rows[i].fn;
		c->api_arg = api_rows[i].arg;
		snprintf(c->desc, sizeof(c->desc), "OpenCL 3.0 API specification, %s", api_rows[i].spec);
	}
}
