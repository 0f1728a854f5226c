/*
 * bench sg-info: the guide's sg_size and sg_max_size experiments. For each
 * ND-range and sub-group width, every work-item's ids as the device reports
 * them, checked for consistency (ids contiguous, sizes adding up, only the
 * last sub-group partial), never assumed.
 */
#include "row.h"
#include "check.h"
#include "sg_data.h"

#include <stdlib.h>
#include <string.h>

#define SGI_WORDS 8   /* per work-item, kernels/sg_info.cl */
#define SGI_MAX_SG 64 /* sub-groups per work-group the summary lists */
#define SGI_MAX_POINTS (SGB_MAX_WIDTHS + 3)
#define SGI_MAX_GLOBAL 32

static const char *const sgi_columns[SGI_WORDS] = {
	"global_id", "group_id", "local_id", "sg_id", "sg_local_id", "sg_size", "sg_max_size",
	"num_sub_groups" };

struct sgi_opts {
	struct range sg;         /* --sg widths for nd_range(32, 32) */
	bool sg_given;
	bool dump;
	bool guide;              /* --guide: the chapter's ND-ranges and sizes alone */
};

/* One point: an ND-range captured with a backend and width (0: the driver's choice). */
struct sgi_params {
	size_t global, local;
	struct sgb_choice c;
	const char *skip;        /* set: a skipped point with this reason */
	unsigned seen;           /* the maximum sub-group size the kernel saw */
	char why[512];           /* a size that cannot be required here: the reason (skip) */
};

/* What the mapping of work-group 0 looked like, once checked. */
struct sgi_summary {
	unsigned max, nsg;
	unsigned sizes[SGI_MAX_SG];
	bool partial;
};

struct sgi_state {
	struct sgb_choice base;
	struct sgi_params cf[SGI_MAX_POINTS];  /* the plan */
	struct sgi_summary sum[SGI_MAX_POINTS];
	struct kernel_res res[SGI_MAX_POINTS];
	cl_mem m;
	uint32_t rec[SGI_MAX_GLOBAL * SGI_WORDS];
};

/* ---- options ---- */

#define IO(f) offsetof(struct sgi_opts, f)
static const struct cli_opt sgi_cli[] = {
	{ "sg", "LIST", CLI_RANGE, IO(sg), 1, 1024, .def_note = "every width the backend builds for",
	  .help = "widths for nd_range(32, 32), e.g. 8,16,32" },
	{ "dump", NULL, CLI_FLAG, IO(dump), .help = "print every work-item's row, not only the summary" },
	{ "guide", NULL, CLI_FLAG, IO(guide),
	  .help = "the sub-groups chapter's runs alone: nd_range(32, 32) at the driver's\n"
		  "choice and at required sizes 16 and 32, then nd_range(15, 15) at 16\n"
		  "(size against maximum size); a size that cannot be required here is\n"
		  "a skipped point saying why" },
	{ 0 } };

static void sgi_check(void *opts, const struct cli_set *given)
{
	struct sgi_opts *o = opts;

	o->sg_given = cli_given(given, "sg");
	if (o->guide && o->sg_given)
		cli_usage_error("--guide runs the guide's sizes (16 and 32): give --sg without it");
}

/* ---- plan ---- */

/* The guide's nd_range(15, 15) at a required 16, or why not and the backend's own width. */
static size_t plan_partial(const struct dev_info *d, const struct sgb_choice *base,
			   struct sgi_params *cf)
{
	bool native = sgb_native(base->backend);
	char err[512];

	cf[0] = (struct sgi_params){ .global = 15, .local = 15, .c = *base };
	if (sgb_set_width(d, &cf[0].c, true, 16, 0, err, sizeof(err)) && cf[0].c.width == 16)
		return 1;
	cf[0].c.width = 16;
	cf[0].c.required = native;
	cf[0].c.width_source = "required (intel_reqd_sub_group_size)";
	cf[0].skip = base->backend == SGB_NV
			     ? "the nv backend's sub-group is the 32-wide warp: a size of 16 cannot "
			       "be required"
			     : d->has_intel_reqd_sg ? "the device does not list sub-group size 16"
						    : "no cl_intel_required_subgroup_size: a size of "
						      "16 cannot be required";
	/* ...and the same range with the backend's own width, for its partial sub-group. */
	cf[1] = (struct sgi_params){ .global = 15, .local = 15, .c = *base };
	sgb_set_width(d, &cf[1].c, false, 0, 0, err, sizeof(err));
	return 2;
}

/* The guide's nd_range(32, 32): the driver's choice (a native layer), then required 16 and 32. */
static size_t plan_guide(const struct dev_info *d, const struct sgb_choice *base,
			 struct sgi_params *cf)
{
	static const unsigned sizes[] = { 16, 32 };
	size_t n = 0;
	char err[512];

	if (sgb_native(base->backend)) {
		cf[n] = (struct sgi_params){ .global = 32, .local = 32, .c = *base };
		sgb_set_width(d, &cf[n++].c, true, 0, 0, err, sizeof(err));
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++, n++) {
		cf[n] = (struct sgi_params){ .global = 32, .local = 32, .c = *base };
		if (sgb_set_width(d, &cf[n].c, true, sizes[i], 0, cf[n].why, sizeof(cf[n].why)))
			continue;
		cf[n].c.width = sizes[i];   /* the size asked, skipped with the layer's reason */
		cf[n].c.required = sgb_native(base->backend);
		cf[n].skip = cf[n].why;
	}
	return n + plan_partial(d, base, cf + n);
}

/* The points of the run, in order; exits 2 for a width the backend cannot build. */
static size_t plan_points(const struct dev_info *d, const struct sgi_opts *o,
			  const struct sgb_choice *base, struct sgi_params *cf)
{
	unsigned w[SGB_MAX_WIDTHS];
	size_t nw = sgb_widths(d, base->backend, w), n = 0;
	char err[512];

	if (o->guide)
		return plan_guide(d, base, cf);
	if (o->sg_given) {
		nw = 0;
		for (size_t i = 0; i < o->sg.n && nw < SGB_MAX_WIDTHS; i++)
			w[nw++] = (unsigned)o->sg.v[i];
	}
	for (size_t i = 0; i < nw; i++) {
		cf[n] = (struct sgi_params){ .global = 32, .local = 32, .c = *base };
		if (!sgb_set_width(d, &cf[n].c, true, w[i], 0, err, sizeof(err)))
			cli_usage_error("%s", err);
		n++;
	}
	if (sgb_native(base->backend) && !o->sg_given) {   /* the driver's own choice */
		cf[n] = (struct sgi_params){ .global = 32, .local = 32, .c = *base };
		sgb_set_width(d, &cf[n++].c, true, 0, 0, err, sizeof(err));
	}
	return n + plan_partial(d, base, cf + n);
}

static size_t sgi_plan(struct bench_run *r)
{
	struct sgi_state *p = bench_alloc(sizeof(*p));
	char err[1024];
	size_t n;

	memset(p, 0, sizeof(*p));
	r->state = p;
	if (!sgb_select(r->dev, r->co->sg_backend, 0, &p->base, err, sizeof(err)) ||
	    !sgb_set_grf(r->dev, &p->base, r->co->grf, err, sizeof(err)))
		cli_usage_error("%s", err);
	p->base.width_source = "per ND-range, below";
	n = plan_points(r->dev, r->opts, &p->base, p->cf);
	json_object_set_new(r->doc, "sub_groups", sgb_report_json(r->dev, &p->base));
	p->m = bench_buffer(r, CL_MEM_READ_WRITE, sizeof(p->rec));
	return n;
}

static void sgi_teardown(struct bench_run *r)
{
	struct sgi_state *p = r->state;

	if (p->m)
		clReleaseMemObject(p->m);
	free(p);
	range_free(&((struct sgi_opts *)r->opts)->sg);
}

/* One build of the builds hook: nd_range(global, local) with cf's choice. */
static void sgi_build(struct bench_builds *b, const struct sgi_params *cf, const char *err)
{
	struct bench_build *bb = bench_builds_add(b, "sg_info.cl");
	const char *variant = cf->global == 15 ? (cf->c.width == 16 ? "partial" : "partial-own-width")
					       : "nd_range-32";

	bench_build_kernel(bb, "sg_info", variant, (unsigned)cf->local, "the guide's nd_range");
	sgb_build_options(b->dev, &cf->c, cf->local, bb->options, sizeof(bb->options));
	bb->build = sgb_build_json(b->dev, &cf->c);
	if (err || cf->skip)
		bench_build_skip(bb, "%s", err ? err : cf->skip);
}

/* What plan builds for --sg b->sg: nd_range(32, 32) at that width; at auto the driver's
 * choice and the nd_range(15, 15) points. */
static void sgi_builds(struct bench_builds *b)
{
	struct sgb_choice base;
	struct sgi_params cf[2];
	char err[1024];
	size_t n;

	if (!sgb_select(b->dev, NULL, 0, &base, err, sizeof(err)) ||
	    !sgb_set_grf(b->dev, &base, b->grf_large, err, sizeof(err))) {
		struct bench_build *bb = bench_builds_add(b, "sg_info.cl");
		bench_build_kernel(bb, "sg_info", "nd_range-32", 32, "the guide's nd_range");
		bench_build_skip(bb, "%s", err);
		bb->skip_options = true;
		return;
	}
	cf[0] = (struct sgi_params){ .global = 32, .local = 32, .c = base };
	if (b->sg) {
		bool ok = sgb_set_width(b->dev, &cf[0].c, true, b->sg, 0, err, sizeof(err));
		if (!ok) {   /* the run exits 2; the width asked, for a compiler to judge */
			cf[0].c.width = b->sg;
			cf[0].c.required = sgb_native(base.backend);
		}
		sgi_build(b, &cf[0], ok ? NULL : err);
		return;
	}
	if (sgb_native(base.backend)) {
		sgb_set_width(b->dev, &cf[0].c, true, 0, 0, err, sizeof(err));
		sgi_build(b, &cf[0], NULL);
	}
	n = plan_partial(b->dev, &base, cf);
	for (size_t i = 0; i < n; i++)
		sgi_build(b, &cf[i], NULL);
}

/* ---- one point: capture and check ---- */

/* Checks that sub-group `id` runs over [pos, pos + run) with local ids 0.. and size run. */
static bool check_run(const uint32_t *r0, size_t g, size_t pos, size_t run, unsigned id,
		      char *err, size_t len)
{
	if (r0[pos * SGI_WORDS + 3] != id) {
		snprintf(err, len, "group %zu: local id %zu starts sub-group %u, expected %u (ids not "
			 "contiguous)", g, pos, r0[pos * SGI_WORDS + 3], id);
		return false;
	}
	for (size_t k = 0; k < run; k++) {
		const uint32_t *r = r0 + (pos + k) * SGI_WORDS;
		if (r[4] != k || r[5] != run) {
			snprintf(err, len, "group %zu: local id %zu in sub-group %u has sub-group local "
				 "id %u and size %u; its run is %zu long, it is item %zu", g, pos + k,
				 id, r[4], r[5], run, k);
			return false;
		}
	}
	return true;
}

/* Checks one work-group's items [g L, g L + L); fills sum for group 0. */
static bool check_group(const uint32_t *rec, size_t g, size_t L, const struct sgb_choice *c,
			struct sgi_summary *sum, char *err, size_t len)
{
	const uint32_t *r0 = rec + g * L * SGI_WORDS;
	unsigned max = r0[6], nsg = r0[7], runs = 0;

	if (max == 0 || (c->width && max != c->width)) {
		snprintf(err, len, "group %zu: maximum sub-group size %u, built for %u", g, max, c->width);
		return false;
	}
	for (size_t i = 0; i < L; i++) {
		const uint32_t *r = r0 + i * SGI_WORDS;
		if (r[0] != g * L + i || r[1] != g || r[2] != i || r[6] != max || r[7] != nsg) {
			snprintf(err, len, "work-item %zu reports global id %u, group %u, local id %u, "
				 "max size %u, %u sub-groups (group 0 item 0: max %u, %u sub-groups)",
				 g * L + i, r[0], r[1], r[2], r[6], r[7], max, nsg);
			return false;
		}
	}
	for (size_t pos = 0; pos < L; runs++) {
		size_t run = 0;
		while (pos + run < L && r0[(pos + run) * SGI_WORDS + 3] == r0[pos * SGI_WORDS + 3])
			run++;
		if (!check_run(r0, g, pos, run, runs, err, len))
			return false;
		if (run > max || (pos + run < L && run != max)) {
			snprintf(err, len, "group %zu: sub-group %u has %zu work-items, maximum %u "
				 "(only the last may be partial)", g, runs, run, max);
			return false;
		}
		if (g == 0 && runs < SGI_MAX_SG)
			sum->sizes[runs] = (unsigned)run;
		sum->partial = run < max;
		pos += run;
	}
	if (runs != nsg) {
		snprintf(err, len, "group %zu: %u sub-groups found, get_num_sub_groups() says %u", g, runs, nsg);
		return false;
	}
	sum->max = max;
	sum->nsg = nsg;
	return true;
}

/* The driver's own account of the kernel against what the kernel saw. */
static bool check_driver(const struct sgi_params *cf, const struct kernel_res *res,
			 const struct sgi_summary *sum, char *err, size_t len)
{
	/* nv and emulated sub-groups are the layer's own: the driver knows nothing of them. */
	if (!sgb_native(cf->c.backend))
		return true;
	if (cf->c.required && res->compiled_sg && res->compiled_sg != cf->c.width) {
		snprintf(err, len, "driver: CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL is %u, required %u",
			 res->compiled_sg, cf->c.width);
		return false;
	}
	if (res->max_sg_for_local && res->max_sg_for_local != sum->max) {
		snprintf(err, len, "driver: CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE(%zu) is %u, the "
			 "kernel saw %u", cf->local, res->max_sg_for_local, sum->max);
		return false;
	}
	if (res->sg_count_for_local && res->sg_count_for_local != sum->nsg) {
		snprintf(err, len, "driver: CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE(%zu) is %u, the "
			 "kernel saw %u", cf->local, res->sg_count_for_local, sum->nsg);
		return false;
	}
	return true;
}

/* Builds, launches once and reads back the records; false with the reason. */
static bool capture(struct bench_run *r, struct sgi_state *p, const struct sgi_params *cf,
		    struct kernel_res *res, const char *opts, char *err, size_t len)
{
	size_t bytes = cf->global * SGI_WORDS * 4;
	char *log = NULL;
	cl_program prog = prog_build(&r->pc, "sg_info.cl", opts, &log, err, len);
	cl_kernel k = prog ? prog_kernel(prog, "sg_info", err, len) : NULL;
	bool ok = false;

	if (!k)
		goto out;
	prog_kernel_res(&r->pc, k, cf->local, log, res);
	ok = CL_CHECK(check_poison(r->pc.q, p->m, bytes), err, len) &&
	     PROG_SET_ARGS(k, err, len, PROG_ARG(p->m)) &&
	     bench_launch_once(r, k, cf->global, cf->local, NULL, NULL, err, len) &&
	     CL_CHECK(clEnqueueReadBuffer(r->pc.q, p->m, CL_TRUE, 0, bytes, p->rec, 0, NULL, NULL),
		      err, len);
out:
	if (k)
		clReleaseKernel(k);
	if (prog)
		clReleaseProgram(prog);
	free(log);
	return ok;
}

static json_t *mapping_json(const uint32_t *rec, size_t global, const struct sgi_summary *sum)
{
	json_t *m = json_object(), *sz = json_array(), *cols = json_array(), *items = json_array();

	json_object_set_new(m, "max_sg_size", json_integer(sum->max));
	json_object_set_new(m, "num_sub_groups", json_integer(sum->nsg));
	for (unsigned i = 0; i < sum->nsg && i < SGI_MAX_SG; i++)
		json_array_append_new(sz, json_integer(sum->sizes[i]));
	json_object_set_new(m, "sizes", sz);
	json_object_set_new(m, "partial_last", json_boolean(sum->partial));
	json_object_set_new(m, "contiguous", json_true());
	for (size_t i = 0; i < SGI_WORDS; i++)
		json_array_append_new(cols, json_string(sgi_columns[i]));
	json_object_set_new(m, "columns", cols);
	for (size_t i = 0; i < global; i++) {
		json_t *row = json_array();
		for (size_t k = 0; k < SGI_WORDS; k++)
			json_array_append_new(row, json_integer(rec[i * SGI_WORDS + k]));
		json_array_append_new(items, row);
	}
	json_object_set_new(m, "items", items);
	return m;
}

static void dump_rows(const struct sgi_params *cf, const uint32_t *rec)
{
	printf("nd_range(%zu, %zu), %s, ", cf->global, cf->local, sgb_name(cf->c.backend));
	if (cf->c.width)
		printf("width %u:\n", cf->c.width);
	else
		printf("width chosen by the driver:\n");
	for (size_t i = 0; i < cf->global; i++) {
		const uint32_t *r = rec + i * SGI_WORDS;
		printf("  globalId = %2u groupId = %u sgGroupId = %u sgId = %2u sgSize = %2u "
		       "sgMaxSize = %2u\n", r[0], r[1], r[3], r[4], r[5], r[6]);
	}
}

static void sgi_point(struct bench_run *r, struct bench_point *pt)
{
	const struct sgi_opts *o = r->opts;
	struct sgi_state *p = r->state;
	struct sgi_params *a = pt->params;
	struct sgi_summary *sum = &p->sum[pt->index];
	struct kernel_res *res = &p->res[pt->index];
	char err[8192], opts[768];
	bool ok;

	*a = p->cf[pt->index];
	if (a->skip) {
		bench_skip(pt, "%s", a->skip);
		return;
	}
	sgb_build_options(r->dev, &a->c, a->local, opts, sizeof(opts));
	ok = capture(r, p, a, res, opts, err, sizeof(err));
	res->grf_large = sgb_grf_large(r->dev, &a->c);
	pt->build = sgb_build_json(r->dev, &a->c);
	for (size_t g = 0; ok && g < a->global / a->local; g++)
		ok = check_group(p->rec, g, a->local, &a->c, sum, err, sizeof(err));
	ok = ok && check_driver(a, res, sum, err, sizeof(err));
	a->seen = sum->max;
	pt->extra = json_object();
	json_object_set_new(pt->extra, "build_options", json_string(opts));
	json_object_set_new(pt->extra, "compiler",
			    prog_kernel_res_json("sg_info.cl", "sg_info", opts, res));
	if (ok)
		json_object_set_new(pt->extra, "mapping", mapping_json(p->rec, a->global, sum));
	else
		bench_fail(pt, "%s", err);
	pt->validated = ok;
	bench_point_model(pt, res, (unsigned)a->local, sum->max, false, a->global / a->local);
	if (o->dump && !r->co->quiet && sum->max)
		dump_rows(a, p->rec);
}

/* ---- views ---- */

#define IA(pt) ((const struct sgi_params *)(pt)->params)
#define IS(r, pt) (&((const struct sgi_state *)(r)->state)->sum[(pt)->index])
#define CELL(name) static void name(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)

/* "2x16", "15", "3x8+4" */
CELL(cell_sizes)
{
	const struct sgi_summary *sum = IS(r, pt);
	unsigned k = sum->nsg < SGI_MAX_SG ? sum->nsg : SGI_MAX_SG;
	size_t off = 0;

	snprintf(b, n, "-");
	for (unsigned i = 0; i < k && off < n;) {
		unsigned j = i;
		while (j < k && sum->sizes[j] == sum->sizes[i])
			j++;
		if (j - i > 1)
			off += (size_t)snprintf(b + off, n - off, "%s%ux%u", off ? "+" : "", j - i,
						sum->sizes[i]);
		else
			off += (size_t)snprintf(b + off, n - off, "%s%u", off ? "+" : "", sum->sizes[i]);
		i = j;
	}
}
CELL(cell_range) { (void)r; snprintf(b, n, "%zu, %zu", IA(pt)->global, IA(pt)->local); }
CELL(cell_backend) { (void)r; snprintf(b, n, "%s", sgb_name(IA(pt)->c.backend)); }
CELL(cell_width)
{
	(void)r;
	snprintf(b, n, IA(pt)->c.width ? "%u%s" : "driver", IA(pt)->c.width,
		 IA(pt)->c.required ? " (reqd)" : "");
}
CELL(cell_max) { snprintf(b, n, IS(r, pt)->max ? "%u" : "-", IS(r, pt)->max); }
CELL(cell_nsg) { snprintf(b, n, IS(r, pt)->max ? "%u" : "-", IS(r, pt)->nsg); }
CELL(cell_partial)
{
	const struct sgi_summary *sum = IS(r, pt);
	unsigned last = sum->nsg ? sum->sizes[(sum->nsg < SGI_MAX_SG ? sum->nsg : SGI_MAX_SG) - 1] : 0;

	snprintf(b, n, !sum->max ? "-" : sum->partial ? "last: %u of %u" : "none", last, sum->max);
}
CELL(cell_driver)
{
	const struct kernel_res *res = &((const struct sgi_state *)r->state)->res[pt->index];

	if (sgb_native(IA(pt)->c.backend) && (res->max_sg_for_local || res->sg_count_for_local))
		snprintf(b, n, "%u/%u", res->max_sg_for_local, res->sg_count_for_local);
	else
		snprintf(b, n, "-");
}

static const struct bench_col sgi_cols[] = {
	{ "nd_range", cell_range }, { "backend", cell_backend }, { "width", cell_width },
	{ "max", cell_max }, { "sub-groups", cell_nsg }, { "sizes", cell_sizes },
	{ "partial", cell_partial }, { "driver max/count", cell_driver },
	{ "status", bench_cell_status }, { 0 } };

static void sgi_title(const struct bench_run *r, FILE *f)
{
	sgd_print_title(r, f, &((const struct sgi_state *)r->state)->base);
}

static void sgi_label(const struct bench_run *r, size_t i, char *buf, size_t len)
{
	const struct sgi_params *cf = &((const struct sgi_state *)r->state)->cf[i];

	snprintf(buf, len, "nd_range(%zu, %zu) width %u", cf->global, cf->local, cf->c.width);
}

/* ---- bench validate ---- */

static void sgi_checks(struct bench_check_plan *p)
{
	sgd_checks_each(p, "sg-info", true, "--sg-backend %s",
			"the sub-group mapping at every width the backend builds for: contiguous ids, "
			"sizes adding up, only the last sub-group partial (15 of maximum 16), the size "
			"compiled and the size seen in the kernel against the driver's queries");
}

static json_t *param_seen(const struct bench_run *r, const struct bench_point *pt)
{
	(void)r;
	return IA(pt)->skip ? NULL : bench_json_uint0(IA(pt)->seen);
}

#define AT(m) BENCH_AT(struct sgi_params, m)
static const struct bench_param sgi_params[] = {
	{ "global", .type = BENCH_PT_COUNT, AT(global), .unit = "work-items", .help = "the ND-range" },
	{ "local", .type = BENCH_PT_COUNT, AT(local), .unit = "work-items", .help = "the work-group" },
	BENCH_PARAMS_SG_LAYER(false, struct sgi_params, c),
	{ "sg_size_kernel", .optional = true, .type = BENCH_PT_COUNT0, .value = param_seen,
	  .unit = "work-items", .help = "the largest sub-group size the kernel saw (absent: skipped)" },
	{ 0 } };

const struct bench_row sg_info_row = {
	.cmd = {
		.name = "sg-info",
		.summary = "sub-group mapping of every work-item, checked for consistency",
		.synopsis = "usage: bench sg-info [options]\n"
			    "  Captures every work-item's global id, work-group id, sub-group id, sub-group\n"
			    "  local id, sub-group size and maximum sub-group size for nd_range(32, 32) with\n"
			    "  each sub-group width the backend can build for (intel/khr: each size that can\n"
			    "  be required, then the driver's choice), and nd_range(15, 15) with a required\n"
			    "  size of 16 (the guide: size 15, maximum 16), and checks the mapping.\n"
			    "  One launch per ND-range: --reps and --warmup do not apply.\n",
		.flags = BENCH_DEVICE | BENCH_SG,
		.opts = sgi_cli,
		.opts_size = sizeof(struct sgi_opts),
		.check = sgi_check,
	},
	.params_size = sizeof(struct sgi_params),
	.plan = sgi_plan,
	.label = sgi_label,
	.point = sgi_point,
	.params = sgi_params,
	.cols = sgi_cols,
	.title = sgi_title,
	.teardown = sgi_teardown,
	.builds = sgi_builds,
	.checks = sgi_checks,
};
