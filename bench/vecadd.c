/*
 * bench vecadd: the vector-add variants of the occupancy experiments (the guide's
 * VectorAdd1-4), swept over the number of work-groups, each point validated
 * and timed with profiling events beside a copy ceiling of the same bytes.
 */
#include "bench.h"
#include "check.h"
#include "sgb.h"

#include <stdlib.h>
#include <string.h>

struct vecadd_opts {
	unsigned variant;        /* 1..4 */
	struct range groups;     /* work-groups per launch (variants 2-4) */
	unsigned wg;             /* --wg, 0 = variant default */
	unsigned sg;             /* --sg N, 0 = auto */
	unsigned iter;
	uint64_t slice;          /* elements per group, 0 = default */
	uint64_t n;              /* total elements, 0 = default */
	uint64_t seed;
	bool vec[5];             /* variant 5: vector widths 1, 2, 4, 8, 16 */
	struct range per_item;   /* variant 5: vectors per work-item */
	bool loop[2];            /* variant 5: stride, block */
	bool sg_given, iter_given, seed_given;
};

static const char *const vec_names[] = { "1", "2", "4", "8", "16" };
static const char *const loop_names[] = { "stride", "block" };
#define VECADD_MAX_SHAPES 64

/* One kernel of the run: variants 1-4 have one; the streaming family one per shape. */
struct vecadd_shape {
	unsigned vec, per_item, loop;   /* loop: 0 stride, 1 block */
	cl_program prog;
	cl_kernel k;
	char *build_log;
	struct kernel_res res;
	char wg_note[160];       /* a work-group above CL_KERNEL_WORK_GROUP_SIZE that ran */
	json_t *kernel_json;
};

/* What the run resolves once for the device. */
struct vecadd_state {
	unsigned wg;             /* work-group size, 0: driver's choice (variant 1) */
	unsigned sg_req;         /* required sub-group size, 0: none */
	const char *sg_note;     /* why none was required where one was wanted */
	struct sgb_choice sgc;   /* --sg-backend: the layer the kernel reads its sub-group through */
	uint64_t max_n;          /* largest problem of the sweep */
	struct vecadd_shape shape[VECADD_MAX_SHAPES];
	size_t n_shapes;
	uint64_t uploaded_n, uploaded_seed;   /* the inputs on the device (n 0: none) */
	cl_mem a, b, out, info, scratch;
	size_t chunk;            /* elements per piece of the host-side inputs and check */
	uint32_t *ha, *hb, *hout;
};

/* One point's parameters: what was asked and what the launch really ran with. */
struct vecadd_params {
	unsigned variant, wg, iter;
	uint64_t groups, n, slice, seed;
	bool wg_by_driver, barrier;
	unsigned sg_req, sg_compiled, sg_kernel, simd;
	const char *simd_source;
	const struct vecadd_shape *shape;
};

/* The kernel's counts per launch (kernels/vecadd.cl states them). */
static double vecadd_bytes(uint64_t n)
{
	return 12.0 * (double)n;
}

static double vecadd_ops(uint64_t n, unsigned iter)
{
	return (double)n * (1.0 + 4.0 * iter);
}

/* Host reference of one element: mix^iter(a + b), as the kernel computes it. */
static uint32_t vecadd_ref(uint32_t a, uint32_t b, unsigned iter)
{
	uint32_t v = a + b;

	for (unsigned j = 0; j < iter; j++) {
		v ^= v << 13;
		v ^= v >> 17;
		v ^= v << 5;
		v += j;
	}
	return v;
}

/* ---- options ---- */

#define VO(f) offsetof(struct vecadd_opts, f)
static const struct cli_opt vecadd_cli[] = {
	{ "variant", "N", CLI_UINT, VO(variant), 1, 5,
	  .help = "1: one work-item per element, local size left to the driver\n"
		  "2: work-groups of 512 (or the device maximum), sub-group 32 where it\n"
		  "   can be required, each group adding its own slice (default)\n"
		  "3: as 2 with --wg, --sg and --iter set by the user\n"
		  "4: as 3 with barriers at the start and the end\n"
		  "5: streaming: the same add on vectors of --vec ints, --per-item of\n"
		  "   them per work-item, strided by the grid or in blocks (--loop);\n"
		  "   every shape a point, the best reported" },
	{ "groups", "RANGE", CLI_RANGE, VO(groups), 1, 1u << 24,
	  .help = "work-groups per launch, e.g. 1..48, 1..48:4, 1,2,4,8..16, 32..1024:x2\n"
		  "(variants 2-4; default 1..48)" },
	{ "wg", "N", CLI_UINT, VO(wg), 1, 1u << 20, .help = "work-group size (variants 3-4; default 256)" },
	{ "sg", "N|auto", CLI_SG, VO(sg),
	  .help = "required sub-group size (cl_intel_required_subgroup_size);\n"
		  "auto leaves it to the driver (default: 32 where possible for\n"
		  "variant 2, auto for 3-4)" },
	{ "iter", "N", CLI_UINT, VO(iter), 0, 1u << 24,
	  .help = "dependent xorshift rounds per element (default 1000 for 3-4, else 0)" },
	{ "slice", "N", CLI_SIZE, VO(slice), 1, 1ull << 36,
	  .help = "elements per work-group (variants 2-4; default 65536 for 2, 4 x wg\n"
		  "for 3-4); sizes take K/M/G/Ki/Mi/Gi suffixes" },
	{ "n", "N", CLI_SIZE, VO(n), 1, 1ull << 40,
	  .help = "total elements: variant 1's problem (default 16Mi); for 2-4 it\n"
		  "overrides --slice with ceil(N / groups). Streaming: --n 256Mi is\n"
		  "1 GiB per buffer" },
	{ "vec", "LIST", CLI_NAMES, VO(vec), .names = vec_names, .n_names = 5,
	  .help = "variant 5: vector widths among 1,2,4,8,16 or all (default 1,2,4)" },
	{ "per-item", "RANGE", CLI_RANGE, VO(per_item), 1, 1024,
	  .help = "variant 5: vectors per work-item (default 1,2,4)" },
	{ "loop", "LIST", CLI_NAMES, VO(loop), .names = loop_names, .n_names = 2,
	  .help = "variant 5: stride (by the whole grid), block (consecutive), or all\n"
		  "(default stride)" },
	{ "seed", "N", CLI_U64, VO(seed), 0, UINT64_MAX,
	  .help = "random seed for the inputs (default: fresh from the system)" },
	{ 0 } };

static void vecadd_defaults(void *opts)
{
	((struct vecadd_opts *)opts)->variant = 2;
}

/* The streaming family's grid: work-groups for n elements in vectors of vec, per_item each. */
static uint64_t stream_groups(uint64_t n, unsigned vec, unsigned per_item, unsigned wg)
{
	uint64_t items = (n / vec + per_item - 1) / per_item;

	return (items + wg - 1) / wg;
}

static void vecadd_check(void *opts, const struct cli_set *given)
{
	struct vecadd_opts *v = opts;
	bool have_groups = cli_given(given, "groups");

	v->sg_given = cli_given(given, "sg");
	v->iter_given = cli_given(given, "iter");
	v->seed_given = cli_given(given, "seed");
	if (v->variant != 5 &&
	    (cli_given(given, "vec") || cli_given(given, "per-item") || cli_given(given, "loop")))
		cli_usage_error("--vec, --per-item and --loop apply to variant 5 (streaming)");
	if (v->variant == 5) {
		if (have_groups || v->slice)
			cli_usage_error("--groups and --slice do not apply to variant 5: the shape "
					"(--vec, --per-item, --wg) sets the grid for --n elements");
		if (!cli_given(given, "vec"))
			v->vec[0] = v->vec[1] = v->vec[2] = true;
		if (!cli_given(given, "per-item"))
			cli_range("per-item", "1,2,4", 1, 1024, &v->per_item);
		if (!cli_given(given, "loop"))
			v->loop[0] = true;
		for (unsigned i = 0; i < 5; i++)
			if (v->vec[i] && v->n % (1u << i))
				cli_usage_error("--n %llu is not a multiple of --vec %u",
						(unsigned long long)v->n, 1u << i);
	}
	if (v->variant == 1 && (have_groups || v->wg || v->slice))
		cli_usage_error("--groups, --wg and --slice apply to variants 2-4; variant 1 takes --n");
	if (v->variant == 2 && v->wg)
		cli_usage_error("--wg applies to variants 3-4 (variant 2 uses 512 or the device maximum)");
	if (!have_groups && v->variant < 5 && v->variant != 1)
		cli_range("groups", "1..48", 1, 48, &v->groups);
	if (!v->iter_given)
		v->iter = v->variant == 3 || v->variant == 4 ? 1000 : 0;
}

/* ---- plan ---- */

/* Elements and slice of the point with `groups` work-groups. */
static void point_size(const struct vecadd_opts *v, uint64_t groups, uint64_t *n, uint64_t *slice)
{
	if (v->variant == 1 || v->variant == 5) {
		*n = v->n ? v->n : (v->variant == 1 ? 16ull : 64ull) << 20;
		*slice = 0;
	} else if (v->n) {
		*n = v->n;
		*slice = (v->n + groups - 1) / groups;
	} else {
		*slice = v->slice;
		*n = groups * v->slice;
	}
}

/*
 * --sg-backend: the kernel reads its sub-group size through that layer (intel, khr: the
 * driver's; nv: the warp; emulated: the layer's width), and --sg is that layer's width.
 */
static void plan_backend(const struct bench_run *r, const struct vecadd_opts *v,
			 struct vecadd_state *p)
{
	char err[1024];

	if (!sgb_select(r->dev, r->co->sg_backend, 0, &p->sgc, err, sizeof(err)) ||
	    !sgb_set_width(r->dev, &p->sgc, v->sg_given && v->sg, v->sg, v->variant == 2 ? 32 : 0,
			   err, sizeof(err)))
		cli_usage_error("%s", err);
	p->sg_req = p->sgc.required ? p->sgc.width : 0;
}

/*
 * The sub-group request on d: explicit --sg must be honourable (false with the message a
 * run exits 2 with; *sg_req then holds the size asked). The default of variant 2 is 32
 * where it can be required, else *note says why none is.
 */
static bool vecadd_sg(const struct dev_info *d, unsigned variant, bool sg_given, unsigned sg,
		      unsigned *sg_req, const char **note, char *err, size_t len)
{
	char sizes[128];

	*sg_req = 0;
	*note = NULL;
	if (sg_given ? sg == 0 : variant != 2)
		return true;
	if (!sg_given) {   /* variant 2's default: 32 where it can be required */
		if (dev_can_require_sg(d, 32))
			*sg_req = 32;
		else
			*note = d->has_intel_reqd_sg
					? "sub-group size 32 not required: the device does not list it"
					: "sub-group size 32 not required: no cl_intel_required_subgroup_size";
		return true;
	}
	*sg_req = sg;
	if (!d->has_intel_reqd_sg)
		snprintf(err, len, "--sg %u: '%s' cannot require a sub-group size (no "
			 "cl_intel_required_subgroup_size); use --sg auto", sg, d->name);
	else if (!dev_can_require_sg(d, sg))
		snprintf(err, len, "--sg %u is not supported by '%s': supported sizes are %s", sg,
			 d->name, dev_sg_sizes_str(d, sizes, sizeof(sizes)));
	else
		return true;
	return false;
}

/* The work-group of a variant on d (0: the driver's, variant 1); false with the message. */
static bool vecadd_wg(const struct dev_info *d, unsigned variant, unsigned wg_opt, unsigned sg_req,
		      unsigned *wg, char *err, size_t len)
{
	*wg = variant == 1 ? 0 : variant == 2 ? (d->max_wg < 512 ? (unsigned)d->max_wg : 512)
			   : wg_opt ? wg_opt : 256;
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
 * The sub-group request (through --sg-backend's layer where given) and work-group against
 * the device (exit 2 naming the limits).
 */
static void plan_launch(const struct bench_run *r, struct vecadd_opts *v, struct vecadd_state *p)
{
	const struct dev_info *d = r->dev;
	char err[512];

	if (r->co->sg_backend)
		plan_backend(r, v, p);
	else if (!vecadd_sg(d, v->variant, v->sg_given, v->sg, &p->sg_req, &p->sg_note, err,
			    sizeof(err)))
		cli_usage_error("%s", err);
	if (!vecadd_wg(d, v->variant, v->wg, p->sg_req, &p->wg, err, sizeof(err)))
		cli_usage_error("%s", err);
	if (!v->slice && !v->n && v->variant != 5 && v->variant != 1)
		v->slice = v->variant == 2 ? 65536 : 4ull * p->wg;
}

/* Problem sizes against the device's memory (exit 2 naming the limits). */
static void plan_memory(const struct dev_info *d, const struct vecadd_opts *v, struct vecadd_state *p)
{
	bool one = v->variant == 1 || v->variant == 5;

	for (size_t i = 0; i < (one ? 1 : v->groups.n); i++) {
		uint64_t n, slice;
		point_size(v, one ? 1 : v->groups.v[i], &n, &slice);
		p->max_n = n > p->max_n ? n : p->max_n;
	}
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

/*
 * The build options of a shape of a variant: through the layer of --sg-backend (forced,
 * wg its work-group) where given, else with sub-group size sg_req required (0: none).
 */
static void vecadd_options(const struct dev_info *d, unsigned variant, const struct vecadd_shape *sh,
			   unsigned sg_req, const struct sgb_choice *forced, unsigned wg, char *opts,
			   size_t len)
{
	int off = snprintf(opts, len, "-DVARIANT=%u -DBARRIER=%d", variant, variant == 4);

	if (variant == 5)
		off += snprintf(opts + off, len - (size_t)off, " -DVEC=%u -DLOOP=%u -DPER_ITEM=%u",
				sh->vec, sh->loop, sh->per_item);
	if (forced) {
		opts[off++] = ' ';
		sgb_build_options(d, forced, wg, opts + off, len - (size_t)off);
	} else
		prog_sg_options(d, sg_req, opts + off, len - (size_t)off);
}

static void build_shape(struct bench_run *r, const struct vecadd_opts *v, struct vecadd_state *p,
			struct vecadd_shape *sh)
{
	char opts[768];

	vecadd_options(r->dev, v->variant, sh, p->sg_req, p->sgc.forced ? &p->sgc : NULL, p->wg,
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

/* One build of the hook: a variant's shape at --sg b->sg. */
static void vecadd_build(struct bench_builds *b, unsigned variant, const struct vecadd_shape *sh)
{
	struct bench_build *bb = bench_builds_add(b, "vecadd.cl");
	char err[512] = "", scratch[512], name[48];
	const char *note;
	unsigned sg_req, wg;
	bool ok = vecadd_sg(b->dev, variant, true, b->sg, &sg_req, &note, err, sizeof(err));

	ok = vecadd_wg(b->dev, variant, 0, ok ? sg_req : 0, &wg, ok ? err : scratch, sizeof(err)) && ok;
	if (variant == 5)
		snprintf(name, sizeof(name), "5-vec%u-per%u-%s", sh->vec, sh->per_item,
			 sh->loop ? "block" : "stride");
	else
		snprintf(name, sizeof(name), "%u", variant);
	bench_build_kernel(bb, "vecadd", name, wg, variant == 1 ? "chosen by the driver"
				: variant == 2 ? "512 or the device's maximum" : "--wg (default 256)");
	vecadd_options(b->dev, variant, sh, sg_req, NULL, wg, bb->options, sizeof(bb->options));
	bb->build = prog_sg_build_json(b->dev, sg_req);
	if (!ok)
		bench_build_skip(bb, "%s", err);
}

/*
 * What plan builds: at --sg auto variants 1-4 and the streaming family's default shapes
 * (--vec 1,2,4 --per-item 1,2,4 --loop stride); at a size variants 2-4 requiring it.
 */
static void vecadd_builds(struct bench_builds *b)
{
	for (unsigned variant = b->sg ? 2 : 1; variant <= (b->sg ? 4u : 5u); variant++) {
		if (variant < 5) {
			vecadd_build(b, variant, &(struct vecadd_shape){ .vec = 1, .per_item = 1 });
			continue;
		}
		for (unsigned w = 1; w <= 4; w *= 2)
			for (unsigned per = 1; per <= 4; per *= 2)
				vecadd_build(b, 5, &(struct vecadd_shape){ .vec = w, .per_item = per });
	}
}

/* Variants 1-4: one kernel; the streaming family: every vector width x loop x per-item. */
static void plan_build(struct bench_run *r, const struct vecadd_opts *v, struct vecadd_state *p)
{
	p->n_shapes = 0;
	for (unsigned w = 0; w < (v->variant == 5 ? 5u : 1u); w++)
		for (unsigned l = 0; l < (v->variant == 5 ? 2u : 1u); l++)
			for (size_t i = 0; i < (v->variant == 5 ? v->per_item.n : 1); i++) {
				if (v->variant == 5 && (!v->vec[w] || !v->loop[l]))
					continue;
				if (p->n_shapes == VECADD_MAX_SHAPES)
					cli_usage_error("more than %d shapes: narrow --vec, --per-item or "
							"--loop", VECADD_MAX_SHAPES);
				struct vecadd_shape *sh = &p->shape[p->n_shapes++];
				sh->vec = 1u << w;
				sh->loop = l;
				sh->per_item = v->variant == 5 ? (unsigned)v->per_item.v[i] : 1;
				build_shape(r, v, p, sh);
			}
	json_object_set(r->doc, "kernel", p->shape[0].kernel_json);
}

/*
 * Inputs are made, and the output checked, in pieces of at most VECADD_CHUNK elements:
 * host memory stays three pieces however large the problem.
 */
#define VECADD_CHUNK (4u << 20)

static void alloc_bufs(struct bench_run *r, struct vecadd_state *p)
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

static const struct bench_col *stream_columns(void);

static size_t vecadd_plan(struct bench_run *r)
{
	struct vecadd_opts *v = r->opts;
	struct vecadd_state *p = bench_alloc(sizeof(*p));

	memset(p, 0, sizeof(*p));
	r->state = p;
	plan_launch(r, v, p);
	plan_memory(r->dev, v, p);
	plan_build(r, v, p);
	if (!v->seed_given)
		v->seed = check_fresh_seed();
	alloc_bufs(r, p);
	if (v->variant == 5)
		r->cols = stream_columns();
	return v->variant == 5 ? p->n_shapes : v->variant == 1 ? 1 : v->groups.n;
}

static void vecadd_teardown(struct bench_run *r)
{
	struct vecadd_state *p = r->state;
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
	range_free(&((struct vecadd_opts *)r->opts)->groups);
	range_free(&((struct vecadd_opts *)r->opts)->per_item);
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
		for (long long k = 0; k < (long long)m; k++)
			p->hb[k] = vecadd_ref(p->ha[k], p->hb[k], a->iter);
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

/* The point's shape, problem and grid. */
static size_t point_plan(const struct vecadd_opts *v, const struct vecadd_state *p, size_t i,
			 struct vecadd_params *a)
{
	a->variant = v->variant;
	a->shape = &p->shape[v->variant == 5 ? i : 0];
	a->groups = v->variant == 1 || v->variant == 5 ? 0 : v->groups.v[i];
	a->seed = v->variant == 5 ? v->seed : v->seed + i;
	a->iter = v->iter;
	a->wg = p->wg;
	a->wg_by_driver = !p->wg;
	a->barrier = v->variant == 4;
	a->sg_req = p->sg_req;
	a->sg_compiled = a->shape->res.compiled_sg;
	point_size(v, a->groups, &a->n, &a->slice);
	if (v->variant == 5)
		a->groups = stream_groups(a->n, a->shape->vec, a->shape->per_item, p->wg);
	return v->variant == 1 ? (size_t)a->n : (size_t)(a->groups * p->wg);
}

static void vecadd_point(struct bench_run *r, struct bench_point *pt)
{
	struct vecadd_state *p = r->state;
	struct vecadd_params *a = pt->params;
	size_t global = point_plan(r->opts, p, pt->index, a);
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
	if (p->sg_note)
		bench_note(pt, "%s", p->sg_note);
	if (sh->wg_note[0])
		bench_note(pt, "%s", sh->wg_note);
	if (a->variant == 5)
		pt->extra = json_pack("{sO}", "kernel", sh->kernel_json);
	bench_point_model(pt, &sh->res, a->wg, a->simd, a->barrier, a->groups);
}

/* ---- views ---- */

static json_t *vecadd_params_json(const struct bench_run *r, const struct bench_point *pt)
{
	const struct vecadd_params *a = pt->params;
	json_t *o = json_object();

	(void)r;
	json_object_set_new(o, "variant", json_integer(a->variant));
	json_object_set_new(o, "groups", json_integer((json_int_t)a->groups));
	json_object_set_new(o, "wg_size", json_integer(a->wg));
	json_object_set_new(o, "wg_size_chosen_by", json_string(a->wg_by_driver ? "driver" : "bench"));
	json_object_set_new(o, "sg_size_requested", bench_json_uint0(a->sg_req));
	json_object_set_new(o, "sg_size_compiled", bench_json_uint0(a->sg_compiled));
	json_object_set_new(o, "sg_size_kernel", bench_json_uint0(a->sg_kernel));
	json_object_set_new(o, "simd", bench_json_uint0(a->simd));
	json_object_set_new(o, "simd_source", bench_json_str0(a->simd_source));
	json_object_set_new(o, "barrier", json_boolean(a->barrier));
	json_object_set_new(o, "iter", json_integer(a->iter));
	json_object_set_new(o, "n", json_integer((json_int_t)a->n));
	json_object_set_new(o, "slice", bench_json_uint0(a->slice));
	json_object_set_new(o, "seed", json_integer((json_int_t)(a->seed & 0x7fffffffffffffffull)));
	if (a->variant == 5) {
		json_object_set_new(o, "vec", json_integer(a->shape->vec));
		json_object_set_new(o, "per_item", json_integer(a->shape->per_item));
		json_object_set_new(o, "loop", json_string(loop_names[a->shape->loop]));
	}
	return o;
}

#define VA(pt) ((const struct vecadd_params *)(pt)->params)
#define CELL(name) static void name(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)

static unsigned long long threads_per_wg(const struct vecadd_params *a)
{
	return a->simd ? (a->wg + a->simd - 1) / a->simd : 0;
}

CELL(cell_groups) { (void)r; snprintf(b, n, "%llu", (unsigned long long)VA(pt)->groups); }
CELL(cell_items) { (void)r; snprintf(b, n, "%llu", (unsigned long long)(VA(pt)->groups * VA(pt)->wg)); }
CELL(cell_wg)
{
	(void)r;
	snprintf(b, n, "%u%s", VA(pt)->wg, VA(pt)->wg_by_driver && !VA(pt)->sg_req ? " (driver)" : "");
}
CELL(cell_simd) { (void)r; snprintf(b, n, VA(pt)->simd ? "%u" : "-", VA(pt)->simd); }
CELL(cell_tpwg) { (void)r; snprintf(b, n, VA(pt)->simd ? "%llu" : "-", threads_per_wg(VA(pt))); }
CELL(cell_threads)
{
	(void)r;
	snprintf(b, n, VA(pt)->simd ? "%llu" : "-", VA(pt)->groups * threads_per_wg(VA(pt)));
}

static const struct bench_col vecadd_cols[] = {
	{ "Work-groups", cell_groups }, { "Work-items", cell_items }, { "WG size", cell_wg },
	{ "SIMD", cell_simd }, { "Threads/WG", cell_tpwg }, { "Threads", cell_threads },
	{ "Model occupancy", bench_cell_occupancy }, { "Limiter", bench_cell_limiter },
	{ "median us", bench_cell_median_us }, { "CV %", bench_cell_cv }, { "GB/s", bench_cell_gbps },
	{ "ceiling GB/s", bench_cell_ceiling_gbps }, { "of ceiling", bench_cell_of_ceiling },
	{ "status", bench_cell_status }, { 0 } };

static void shape_str(const struct vecadd_shape *sh, char *b, size_t n)
{
	char v[16] = "";

	if (sh->vec > 1)
		snprintf(v, sizeof(v), "%u", sh->vec);
	snprintf(b, n, "uint%s x%u %s", v, sh->per_item, loop_names[sh->loop]);
}

CELL(cell_shape) { (void)r; shape_str(VA(pt)->shape, b, n); }

static const struct bench_col stream_cols[] = {
	{ "Shape", cell_shape }, { "Work-groups", cell_groups }, { "WG size", cell_wg },
	{ "SIMD", cell_simd }, { "Model occupancy", bench_cell_occupancy },
	{ "median us", bench_cell_median_us }, { "CV %", bench_cell_cv }, { "GB/s", bench_cell_gbps },
	{ "ceiling GB/s", bench_cell_ceiling_gbps }, { "of ceiling", bench_cell_of_ceiling },
	{ "status", bench_cell_status }, { 0 } };

static const struct bench_col *stream_columns(void)
{
	return stream_cols;
}

/* The streaming family: the fastest shape, in the document and under the table. */
static int vecadd_report(struct bench_run *r)
{
	const struct bench_point *best = NULL;
	char shape[64];

	if (((const struct vecadd_opts *)r->opts)->variant != 5)
		return EXIT_OK;
	for (size_t i = 0; i < r->n_points; i++)
		if (r->points[i].n && (!best || r->points[i].time.median < best->time.median))
			best = &r->points[i];
	if (!best)
		return EXIT_OK;
	shape_str(VA(best)->shape, shape, sizeof(shape));
	json_object_set_new(r->doc, "best_shape",
			    json_pack("{sisiss sf sf}", "vec", VA(best)->shape->vec, "per_item",
				      VA(best)->shape->per_item, "loop", loop_names[VA(best)->shape->loop],
				      "gbps", bench_point_gbps(best), "ceiling_gbps",
				      bench_point_ceiling_gbps(best)));
	if (!r->co->quiet)
		printf("fastest shape: %s, %.2f GB/s (%.3f of the ceiling, %s)\n", shape,
		       bench_point_gbps(best), bench_point_gbps(best) / bench_point_ceiling_gbps(best),
		       best->ceil_by);
	return EXIT_OK;
}

static void vecadd_title(const struct bench_run *r, FILE *f)
{
	fprintf(f, "vecadd variant %u on %s (%s)\n", ((const struct vecadd_opts *)r->opts)->variant,
		r->dev->name, r->dev->platform_name);
}

static void vecadd_label(const struct bench_run *r, size_t i, char *buf, size_t len)
{
	const struct vecadd_opts *v = r->opts;
	const struct vecadd_state *p = r->state;

	if (v->variant == 5)
		shape_str(&p->shape[i], buf, len);
	else
		snprintf(buf, len, "groups=%llu", v->variant == 1 ? 0ull : (unsigned long long)v->groups.v[i]);
}

const struct bench_ops vecadd_bench = {
	.name = "vecadd",
	.summary = "vector-add variants 1-4 swept over work-groups, with a copy ceiling",
	.synopsis = "usage: bench vecadd [options]\n",
	.flags = BENCH_DEVICE | BENCH_SG | BENCH_COLD,
	.opts = vecadd_cli,
	.opts_size = sizeof(struct vecadd_opts),
	.defaults = vecadd_defaults,
	.check = vecadd_check,
	.params_size = sizeof(struct vecadd_params),
	.plan = vecadd_plan,
	.label = vecadd_label,
	.point = vecadd_point,
	.params_json = vecadd_params_json,
	.cols = vecadd_cols,
	.title = vecadd_title,
	.report = vecadd_report,
	.teardown = vecadd_teardown,
	.builds = vecadd_builds,
};
