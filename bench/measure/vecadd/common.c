/*
 * The vector add that bench vecadd and bench stream share (host.h): the sub-group and
 * work-group of a variant, its builds, its inputs made and its output checked in pieces,
 * one validated launch per point, the point's parameters and the table's cells.
 */
#include "host.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

const char *const vecadd_loop_names[2] = { "stride", "block" };

/* The kernel's counts per launch (kernels/vecadd.cl states them). */
static double vecadd_bytes(uint64_t n)
{
	return 12.0 * (double)n;
}

static double vecadd_ops(uint64_t n, unsigned iter)
{
	return (double)n * (1.0 + 4.0 * iter);
}

/* Host reference of one piece: b[k] = mix^iter(a[k] + b[k]), as the kernel computes each
 * element. One element's rounds are a dependent chain; the rounds run outside a block of
 * VECADD_REF_LANES elements, whose chains are independent, so they fill the vector lanes and
 * the pipeline: at the default 1000 rounds the element at a time took most of a point's time. */
#define VECADD_REF_LANES 16

static void vecadd_ref(uint32_t *restrict b, const uint32_t *restrict a, size_t m, unsigned iter)
{
	uint32_t v[VECADD_REF_LANES] = { 0 };

	for (size_t i = 0; i < m; i++)
		v[i] = a[i] + b[i];
	for (unsigned j = 0; j < iter; j++) {
#pragma omp simd
		for (size_t i = 0; i < VECADD_REF_LANES; i++)
			v[i] = check_chain_round(v[i], j);
	}
	for (size_t i = 0; i < m; i++)
		b[i] = v[i];
}

/* ---- the launch: sub-group and work-group ---- */

/*
 * The sub-group a variant without --sg-backend requires on d (0: none): --sg where given (0:
 * auto), else variant 2's 32 where the device can require it; the decision and its messages
 * are sgb.c's, as for every row (backend none: intel_reqd_sub_group_size). *why: why 32 was
 * not required. False with the message a run exits 2 with (the build is skipped).
 */
static bool vecadd_sg(const struct dev_info *d, unsigned variant, bool sg_given, unsigned sg,
		      unsigned *sg_req, const char **why, char *err, size_t len)
{
	struct sgb_choice c = { .backend = SGB_NONE };
	bool ok = sgb_set_width(d, &c, sg_given, sg, variant == 2 ? VECADD_SG_V2 : 0, err, len);

	/* refused, the size asked still names the build (bench compile shows the compiler's verdict) */
	*sg_req = ok ? c.width : sg_given ? sg : 0;
	*why = c.unrequired;
	return ok;
}

bool vecadd_wg(const struct dev_info *d, unsigned variant, unsigned wg_opt, unsigned sg_req,
	       unsigned *wg, char *err, size_t len)
{
	*wg = variant == 1 ? 0 : variant == 2 ? (d->max_wg < 512 ? (unsigned)d->max_wg : 512)
			   : wg_opt ? wg_opt : VECADD_WG_DEFAULT;
	if (*wg > d->max_wg)
		snprintf(err, len, "--wg %u exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE of '%s': allowed "
			 "1..%zu", *wg, d->name, d->max_wg);
	else if (*wg > d->max_item_sizes[0])
		snprintf(err, len, "--wg %u exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES[0] of '%s': allowed "
			 "1..%zu", *wg, d->name, d->max_item_sizes[0]);
	else if (sg_req && *wg % sg_req)
		snprintf(err, len, "--wg %u is not a multiple of --sg %u", *wg, sg_req);
	else
		return true;
	return false;
}

/*
 * --sg-backend: the kernel reads its sub-group size through that layer (intel, khr: the
 * driver's; nv: the warp; emulated: the layer's width), and --sg is that layer's width.
 */
static void plan_backend(const struct bench_run *r, struct vecadd_state *p, bool sg_given,
			 unsigned sg)
{
	char err[1024];

	if (!sgb_select(r->dev, r->co->sg_backend, 0, &p->sgc, err, sizeof(err)) ||
	    !sgb_set_width(r->dev, &p->sgc, sg_given && sg, sg, p->variant == 2 ? 32 : 0, err,
			   sizeof(err)))
		cli_usage_error("%s", err);
	p->sg_req = p->sgc.required ? p->sgc.width : 0;
}

void vecadd_plan_launch(const struct bench_run *r, struct vecadd_state *p, bool sg_given,
			unsigned sg, unsigned wg_opt)
{
	const struct dev_info *d = r->dev;
	char err[512];

	if (r->co->sg_backend)
		plan_backend(r, p, sg_given, sg);
	else if (!vecadd_sg(d, p->variant, sg_given, sg, &p->sg_req, &p->sg_unrequired, err, sizeof(err)))
		cli_usage_error("%s", err);
	/* --grf large is an Intel GPU's, as every row with sub-groups says (built through the layer) */
	if (!sgb_set_grf(d, &p->sgc, r->co->grf, err, sizeof(err)))
		cli_usage_error("%s", err);
	if (!vecadd_wg(d, p->variant, wg_opt, p->sg_req, &p->wg, err, sizeof(err)))
		cli_usage_error("%s", err);
}

void vecadd_plan_memory(const struct dev_info *d, struct vecadd_state *p)
{
	if (p->max_n > UINT64_MAX / 16)
		cli_usage_error("problem of %llu elements is too large", (unsigned long long)p->max_n);
	uint64_t buf = p->max_n * 4;
	if (buf > d->max_alloc)
		cli_usage_error("a buffer of %llu bytes (%llu elements) exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE "
				"of '%s': at most %llu bytes (%llu elements)", (unsigned long long)buf,
				(unsigned long long)p->max_n, d->name, (unsigned long long)d->max_alloc,
				(unsigned long long)(d->max_alloc / 4));
	if (4 * buf > d->global_mem)
		cli_usage_error("4 buffers of %llu bytes (a, b, out, copy target) exceed the global memory "
				"of '%s': %llu bytes in all", (unsigned long long)buf, d->name,
				(unsigned long long)d->global_mem);
}

/* ---- builds ---- */

/*
 * The build options of a shape of a variant: through the layer of --sg-backend (forced,
 * wg its work-group) where given, else with sub-group size sg_req required (0: none).
 */
static void vecadd_options(const struct dev_info *d, unsigned variant, const struct vecadd_shape *sh,
			   unsigned sg_req, const struct sgb_choice *forced, unsigned wg, char *opts,
			   size_t len)
{
	int off = snprintf(opts, len, "-DVARIANT=%u -DBARRIER=%d", variant, variant == 4);

	if (variant == VECADD_STREAM)
		off += snprintf(opts + off, len - (size_t)off, " -DVEC=%u -DLOOP=%u -DPER_ITEM=%u",
				sh->vec, sh->loop, sh->per_item);
	if (forced) {
		opts[off++] = ' ';
		sgb_build_options(d, forced, wg, opts + off, len - (size_t)off);
	} else
		prog_sg_options(d, sg_req, opts + off, len - (size_t)off);
}

void vecadd_build_shape(struct bench_run *r, struct vecadd_state *p, struct vecadd_shape *sh)
{
	char opts[768];

	vecadd_options(r->dev, p->variant, sh, p->sg_req, p->sgc.forced ? &p->sgc : NULL, p->wg,
		       opts, sizeof(opts));
	sh->k = bench_build(r, "vecadd.cl", "vecadd", opts, &sh->prog, &sh->build_log);
	prog_kernel_res(&r->pc, sh->k, p->wg, sh->build_log, &sh->res);
	sh->kernel_json = prog_kernel_res_json("vecadd.cl", "vecadd", opts, &sh->res);
	json_object_set_new(sh->kernel_json, "build", p->sgc.forced ? sgb_build_json(r->dev, &p->sgc)
							     : prog_sg_build_json(r->dev, p->sg_req));
	/* above CL_KERNEL_WORK_GROUP_SIZE the first launch decides (bench_launch_once) */
	if (p->wg && !bench_wg_note(p->wg, &sh->res, sh->wg_note, sizeof(sh->wg_note)))
		sh->wg_note[0] = '\0';
}

void vecadd_build(struct bench_builds *b, unsigned variant, const struct vecadd_shape *sh)
{
	struct bench_build *bb = bench_builds_add(b, "vecadd.cl");
	char err[512] = "", scratch[512], name[48];
	const char *note;
	unsigned sg_req, wg;
	bool ok = vecadd_sg(b->dev, variant, true, b->sg, &sg_req, &note, err, sizeof(err));

	ok = vecadd_wg(b->dev, variant, 0, ok ? sg_req : 0, &wg, ok ? err : scratch, sizeof(err)) && ok;
	if (variant == VECADD_STREAM)
		snprintf(name, sizeof(name), "5-vec%u-per%u-%s", sh->vec, sh->per_item,
			 vecadd_loop_names[sh->loop]);
	else
		snprintf(name, sizeof(name), "%u", variant);
	bench_build_kernel(bb, "vecadd", name, wg, variant == 1 ? "chosen by the driver"
				: variant == 2 ? "512 or the device's maximum" : "--wg (default "
				CLI_XSTR(VECADD_WG_DEFAULT) ")");
	vecadd_options(b->dev, variant, sh, sg_req, NULL, wg, bb->options, sizeof(bb->options));
	bb->build = prog_sg_build_json(b->dev, sg_req);
	if (!ok)
		bench_build_skip(bb, "%s", err);
}

/* ---- buffers ---- */

/*
 * Inputs are made, and the output checked, in pieces of at most VECADD_CHUNK elements:
 * host memory stays three pieces however large the problem.
 */
#define VECADD_CHUNK (4u << 20)

void vecadd_alloc(struct bench_run *r, struct vecadd_state *p)
{
	size_t bytes = (size_t)p->max_n * 4;

	p->chunk = p->max_n < VECADD_CHUNK ? (size_t)p->max_n : VECADD_CHUNK;
	bench_host_fits(r, 3 * (uint64_t)p->chunk * 4, 4 * (uint64_t)bytes,
			"3 host pieces of the inputs and output");
	p->a = bench_buffer(r, CL_MEM_READ_ONLY, bytes);
	p->b = bench_buffer(r, CL_MEM_READ_ONLY, bytes);
	p->out = bench_buffer(r, CL_MEM_READ_WRITE, bytes);
	p->scratch = bench_buffer(r, CL_MEM_READ_WRITE, bytes);
	p->info = bench_buffer(r, CL_MEM_READ_WRITE, 16);
	p->ha = bench_alloc(p->chunk * 4);
	p->hb = bench_alloc(p->chunk * 4);
	p->hout = bench_alloc(p->chunk * 4);
}

void vecadd_free(struct vecadd_state *p)
{
	cl_mem m[] = { p->a, p->b, p->out, p->info, p->scratch };

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i])
			clReleaseMemObject(m[i]);
	free(p->ha);
	free(p->hb);
	free(p->hout);
	for (size_t i = 0; i < p->n_shapes; i++) {
		free(p->shape[i].build_log);
		clReleaseKernel(p->shape[i].k);
		clReleaseProgram(p->shape[i].prog);
		json_decref(p->shape[i].kernel_json);
	}
	free(p);
}

/* ---- one point ---- */

/* The inputs a and b of elements [off, off + len): two random streams of the point's seed. */
static void make_inputs(struct vecadd_state *p, uint64_t seed, uint64_t off, size_t len)
{
	check_fill_stream(p->ha, len, seed, off);
	check_fill_stream(p->hb, len, seed ^ 0x5bd1e995ull, off);
}

static bool upload(struct bench_run *r, struct vecadd_state *p, const struct vecadd_params *a,
		   char *err, size_t len)
{
	cl_ulong cn = a->n / a->shape->vec, cs = a->slice;
	cl_uint ci = a->iter;

	/* the streaming family's points share their inputs: uploaded once */
	for (uint64_t off = 0; (p->uploaded_n != a->n || p->uploaded_seed != a->seed) && off < a->n;
	     off += p->chunk) {
		size_t m = a->n - off < p->chunk ? (size_t)(a->n - off) : p->chunk;
		make_inputs(p, a->seed, off, m);
		if (!CL_CHECK(clEnqueueWriteBuffer(r->pc.q, p->a, CL_TRUE, off * 4, m * 4, p->ha, 0, NULL,
						   NULL), err, len) ||
		    !CL_CHECK(clEnqueueWriteBuffer(r->pc.q, p->b, CL_TRUE, off * 4, m * 4, p->hb, 0, NULL,
						   NULL), err, len))
			return false;
	}
	p->uploaded_n = a->n;
	p->uploaded_seed = a->seed;
	return CL_CHECK(check_poison(r->pc.q, p->out, (size_t)a->n * 4), err, len) &&
	       CL_CHECK(check_poison(r->pc.q, p->info, 16), err, len) &&
	       PROG_SET_ARGS(a->shape->k, err, len, PROG_ARG(p->a), PROG_ARG(p->b), PROG_ARG(p->out),
			     PROG_ARG(cn), PROG_ARG(cs), PROG_ARG(ci), PROG_ARG(p->info));
}

/* Compares the output with the host's reference, piece by piece. */
static bool check_output(struct bench_run *r, struct vecadd_state *p, const struct vecadd_params *a,
			 char *err, size_t len)
{
	struct check_tally t = { 0 };

	for (uint64_t off = 0; off < a->n; off += p->chunk) {
		size_t m = a->n - off < p->chunk ? (size_t)(a->n - off) : p->chunk;
		if (!CL_CHECK(clEnqueueReadBuffer(r->pc.q, p->out, CL_TRUE, off * 4, m * 4, p->hout, 0,
						  NULL, NULL), err, len))
			return false;
		make_inputs(p, a->seed, off, m);
#pragma omp parallel for schedule(static)
		for (long long k = 0; k < (long long)m; k += VECADD_REF_LANES)
			vecadd_ref(p->hb + k, p->ha + k,
				   (size_t)((long long)m - k < VECADD_REF_LANES ? (long long)m - k : VECADD_REF_LANES),
				   a->iter);
		check_tally_u32(&t, p->hout, p->hb, m, off);
	}
	return check_tally_reason(&t, err, len) == 0;
}

/* Checks the output and what the kernel recorded of its own launch. */
static bool validate(struct bench_run *r, struct vecadd_state *p, struct vecadd_params *a,
		     char *err, size_t len)
{
	cl_uint info[4];

	if (!check_output(r, p, a, err, len) ||
	    !CL_CHECK(clEnqueueReadBuffer(r->pc.q, p->info, CL_TRUE, 0, sizeof(info), info, 0, NULL,
					  NULL), err, len))
		return false;
	if ((p->wg && info[0] != p->wg) || (a->groups && info[1] != a->groups)) {
		snprintf(err, len, "the kernel saw local size %u and %u groups, launched with %u and %llu",
			 info[0], info[1], p->wg, (unsigned long long)a->groups);
		return false;
	}
	a->wg = info[0];
	a->groups = info[1];
	a->sg_kernel = info[2];
	if (p->sg_req && (info[2] != p->sg_req || (a->sg_compiled && a->sg_compiled != p->sg_req))) {
		snprintf(err, len, "required sub-group size %u, but the compiler reports %u and the kernel "
			 "ran with %u", p->sg_req, a->sg_compiled, info[2]);
		return false;
	}
	return true;
}

/* SIMD width the launch ran with and where that figure comes from. */
static void point_simd(const struct bench_run *r, const struct vecadd_state *p, struct vecadd_params *a)
{
	if (a->sg_kernel && p->sgc.forced && p->sgc.backend == SGB_NV) {
		a->simd = a->sg_kernel;
		a->simd_source = "the warp (nv backend), read back in the kernel";
	} else if (p->sgc.forced && p->sgc.backend == SGB_EMULATED) {
		a->simd = 0;   /* sg_size_kernel holds the layer's width, which is not the hardware's */
		a->simd_source = "unknown: the emulated sub-group layer's width is not the hardware's";
	} else if (a->sg_kernel) {
		a->simd = a->sg_kernel;
		a->simd_source = p->sg_req ? "required, read back in the kernel"
					   : "chosen by the driver, read back in the kernel";
	} else if (r->dev->nv_warp_size) {
		a->simd = r->dev->nv_warp_size;
		a->simd_source = "warp size (CL_DEVICE_WARP_SIZE_NV)";
	} else {
		a->simd = 0;
		a->simd_source = "unknown: the device offers no sub-groups";
	}
}

void vecadd_run_point(struct bench_run *r, struct bench_point *pt, size_t global)
{
	struct vecadd_state *p = r->state;
	struct vecadd_params *a = pt->params;
	const struct vecadd_shape *sh = a->shape;
	char err[4096];

	if (!upload(r, p, a, err, sizeof(err)) ||
	    !bench_launch_once(r, sh->k, global, p->wg, &sh->res, "wg", err, sizeof(err)) ||
	    !validate(r, p, a, err, sizeof(err)))
		bench_fail(pt, "%s", err);
	point_simd(r, p, a);
	if (pt->status != POINT_OK)
		return;
	pt->validated = true;
	bench_point_time_launch(pt, sh->k, global, p->wg);
	pt->bytes = vecadd_bytes(a->n);
	pt->ops = vecadd_ops(a->n, a->iter);
	pt->ceil_src = p->a;   /* the copy ceiling: the same n * 4 bytes read and written */
	pt->ceil_dst = p->scratch;
	pt->ceil_bytes = (size_t)a->n * 4;
	if (p->sg_unrequired)
		bench_note(pt, "sub-group size " CLI_XSTR(VECADD_SG_V2) " not required: %s", p->sg_unrequired);
	if (sh->wg_note[0])
		bench_note(pt, "%s", sh->wg_note);
	if (a->variant == VECADD_STREAM)
		pt->extra = json_pack("{sO}", "kernel", sh->kernel_json);
	bench_point_model(pt, &sh->res, a->wg, a->simd, a->barrier, a->groups);
}

/* ---- views ---- */

static const char *const chosen_by_names[] = { "bench", "driver" };

#define VA(pt) ((const struct vecadd_params *)(pt)->params)

static json_t *param_seed(const struct bench_run *r, const struct bench_point *pt)
{
	(void)r;   /* JSON's integers are signed: the seed's low 63 bits */
	return json_integer((json_int_t)(VA(pt)->seed & 0x7fffffffffffffffull));
}

/* The streaming family's shape: variant 5 alone. */
static json_t *param_vec(const struct bench_run *r, const struct bench_point *pt)
{
	(void)r;
	return VA(pt)->variant == VECADD_STREAM ? json_integer(VA(pt)->shape->vec) : NULL;
}

static json_t *param_per_item(const struct bench_run *r, const struct bench_point *pt)
{
	(void)r;
	return VA(pt)->variant == VECADD_STREAM ? json_integer(VA(pt)->shape->per_item) : NULL;
}

static json_t *param_loop(const struct bench_run *r, const struct bench_point *pt)
{
	(void)r;
	return VA(pt)->variant == VECADD_STREAM ? json_string(vecadd_loop_names[VA(pt)->shape->loop])
						: NULL;
}

#define AT(m) BENCH_AT(struct vecadd_params, m)
const struct bench_param vecadd_params[] = {
	{ "variant", .type = BENCH_PT_COUNT, AT(variant), .help = "the guide's variant, 1-5" },
	{ "groups", .type = BENCH_PT_COUNT, AT(groups), .unit = "work-groups",
	  .help = "the grid launched (variant 5: the grid its shape makes of n)" },
	{ "wg_size", .type = BENCH_PT_COUNT, AT(wg), .unit = "work-items", .help = "the work-group" },
	{ "wg_size_chosen_by", .type = BENCH_PT_NAME, AT(wg_by_driver), BENCH_NAMES(chosen_by_names),
	  .help = "who chose the work-group (variant 1 reads the driver's choice back from the kernel)" },
	{ "sg_size_requested", .type = BENCH_PT_COUNT0, AT(sg_req), .unit = "work-items",
	  .help = "the sub-group size required (null: none)" },
	{ "sg_size_compiled", .type = BENCH_PT_COUNT0, AT(sg_compiled), .unit = "work-items",
	  .help = "CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL (null: none)" },
	{ "sg_size_kernel", .type = BENCH_PT_COUNT0, AT(sg_kernel), .unit = "work-items",
	  .help = "get_max_sub_group_size() read back from the kernel" },
	{ "simd", .type = BENCH_PT_COUNT0, AT(simd), .unit = "lanes", .help = "null where unknown" },
	{ "simd_source", .type = BENCH_PT_STR0, AT(simd_source), .help = "where simd came from" },
	{ "barrier", .type = BENCH_PT_BOOL, AT(barrier), .help = "the kernel has a work-group barrier" },
	{ "iter", .type = BENCH_PT_COUNT, AT(iter), .help = "rounds of work per element" },
	{ "n", .type = BENCH_PT_COUNT, AT(n), .unit = "elements", .help = "the vectors' length" },
	{ "slice", .type = BENCH_PT_COUNT0, AT(slice), .unit = "elements",
	  .help = "elements per group (null: variant 1)" },
	{ "seed", .type = BENCH_PT_COUNT, .value = param_seed, .help = "of the random inputs" },
	{ "vec", .optional = true, .type = BENCH_PT_COUNT, .value = param_vec, .unit = "ints",
	  .help = "variant 5: ints per vector" },
	{ "per_item", .optional = true, .type = BENCH_PT_COUNT, .value = param_per_item,
	  .unit = "vectors", .help = "variant 5: vectors per work-item" },
	{ "loop", .optional = true, .type = BENCH_PT_NAME, .value = param_loop,
	  BENCH_NAMES(vecadd_loop_names),
	  .help = "variant 5: stride, by the whole grid; block, consecutive" },
	{ 0 } };


static unsigned long long threads_per_wg(const struct vecadd_params *a)
{
	return a->simd ? (a->wg + a->simd - 1) / a->simd : 0;
}

VECADD_CELL(vecadd_cell_groups) { (void)r; snprintf(b, n, "%llu", (unsigned long long)VA(pt)->groups); }
VECADD_CELL(vecadd_cell_items)
{
	(void)r;
	snprintf(b, n, "%llu", (unsigned long long)(VA(pt)->groups * VA(pt)->wg));
}
VECADD_CELL(vecadd_cell_wg)
{
	(void)r;
	snprintf(b, n, "%u%s", VA(pt)->wg, VA(pt)->wg_by_driver && !VA(pt)->sg_req ? " (driver)" : "");
}
VECADD_CELL(vecadd_cell_simd) { (void)r; snprintf(b, n, VA(pt)->simd ? "%u" : "-", VA(pt)->simd); }
VECADD_CELL(vecadd_cell_tpwg) { (void)r; snprintf(b, n, VA(pt)->simd ? "%llu" : "-", threads_per_wg(VA(pt))); }
VECADD_CELL(vecadd_cell_threads)
{
	(void)r;
	snprintf(b, n, VA(pt)->simd ? "%llu" : "-", VA(pt)->groups * threads_per_wg(VA(pt)));
}

void vecadd_shape_str(const struct vecadd_shape *sh, char *b, size_t n)
{
	char v[16] = "";

	if (sh->vec > 1)
		snprintf(v, sizeof(v), "%u", sh->vec);
	snprintf(b, n, "uint%s x%u %s", v, sh->per_item, vecadd_loop_names[sh->loop]);
}

VECADD_CELL(vecadd_cell_shape) { (void)r; vecadd_shape_str(VA(pt)->shape, b, n); }
