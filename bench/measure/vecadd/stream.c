/*
 * bench stream: the streaming family of the vector add (kernels/vecadd.cl, VARIANT 5):
 * the same add on vectors of --vec ints, --per-item vectors per work-item, strided by the
 * grid or in blocks (--loop), every shape a validated point beside the copy ceiling, and
 * the fastest reported. It was `bench vecadd --variant 5`, which still runs it (rows.c),
 * and its documents are those of vecadd's variant 5 (benchmark "vecadd", schema version 1),
 * so baselines and comparisons hold across the two spellings.
 */
#include "host.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

/* The problem when --n is not given: 64 Mi elements, 256 MiB a buffer. */
#define STREAM_N_DEFAULT (64ull << 20)

struct stream_opts {
	unsigned variant;        /* 5 only: the spelling of vecadd's alias */
	unsigned wg;             /* --wg */
	unsigned sg;             /* --sg N, 0 = auto */
	unsigned iter;
	uint64_t n;              /* total elements */
	uint64_t seed;
	bool vec[5];             /* vector widths 1, 2, 4, 8, 16 */
	struct range per_item;   /* vectors per work-item */
	bool loop[2];            /* stride, block */
	bool sg_given, seed_given;
};

static const char *const vec_names[] = { "1", "2", "4", "8", "16" };

/* --groups and --slice are vecadd's: the shape sets the grid. */
static void not_streaming(void *base, const char *arg)
{
	(void)base;
	(void)arg;
	cli_usage_error("--groups and --slice do not apply to variant 5: the shape (--vec, --per-item, "
			"--wg) sets the grid for --n elements");
}

#define SO(f) offsetof(struct stream_opts, f)
static const struct cli_opt stream_cli[] = {
	{ "vec", "LIST", CLI_NAMES, SO(vec), .names = vec_names, .n_names = 5, .def = "1,2,4",
	  .help = "vector widths among 1,2,4,8,16 or all (ints per access)" },
	{ "per-item", "RANGE", CLI_RANGE, SO(per_item), 1, 1024, .def = "1,2,4",
	  .help = "vectors per work-item" },
	{ "loop", "LIST", CLI_NAMES, SO(loop), .names = vecadd_loop_names, .n_names = 2, .def = "stride",
	  .help = "stride (by the whole grid), block (consecutive), or all" },
	{ "n", "N", CLI_SIZE, SO(n), 1, 1ull << 40, .def = "64Mi",
	  .help = "total elements (--n 256Mi is 1 GiB per buffer); sizes take\n"
		  "K/M/G/Ki/Mi/Gi suffixes" },
	{ "wg", "N", CLI_UINT, SO(wg), 1, 1u << 20, .def = CLI_XSTR(VECADD_WG_DEFAULT),
	  .help = "work-group size" },
	{ "sg", "N|auto", CLI_SG, SO(sg), .def = "auto",
	  .help = "required sub-group size (cl_intel_required_subgroup_size);\n"
		  "auto leaves it to the driver" },
	{ "iter", "N", CLI_UINT, SO(iter), 0, 1u << 24, .def = "0",
	  .help = "dependent xorshift rounds per element" },
	{ "seed", "N", CLI_U64, SO(seed), 0, UINT64_MAX, .help = "random seed for the inputs",
	  .def_note = "fresh from the system" },
	{ "variant", "N", CLI_UINT, SO(variant), VECADD_STREAM, VECADD_STREAM,
	  .def = CLI_XSTR(VECADD_STREAM) },
	{ "groups", "RANGE", CLI_FN, 0, .fn = not_streaming },
	{ "slice", "N", CLI_FN, 0, .fn = not_streaming },
	{ 0 } };

static void stream_check(void *opts, const struct cli_set *given)
{
	struct stream_opts *o = opts;

	o->sg_given = cli_given(given, "sg");
	o->seed_given = cli_given(given, "seed");
	unsigned widths = 0, loops = (unsigned)o->loop[0] + o->loop[1];

	for (unsigned i = 0; i < 5; i++) {
		widths += o->vec[i];
		if (o->vec[i] && o->n % (1u << i))
			cli_usage_error("--n %llu is not a multiple of --vec %u", (unsigned long long)o->n,
					1u << i);
	}
	/* each shape is a build: too many is refused here, before the device opens */
	if ((size_t)widths * loops * o->per_item.n > VECADD_MAX_SHAPES)
		cli_usage_error("%u widths x %u loops x %zu per-item values make %zu shapes, more than %d "
				"(each a build): narrow --vec, --per-item or --loop", widths, loops,
				o->per_item.n, (size_t)widths * loops * o->per_item.n, VECADD_MAX_SHAPES);
}

/* ---- plan ---- */

/* The grid: work-groups for n elements in vectors of vec, per_item each. */
static uint64_t stream_groups(uint64_t n, unsigned vec, unsigned per_item, unsigned wg)
{
	uint64_t items = (n / vec + per_item - 1) / per_item;

	return (items + wg - 1) / wg;
}

/* What plan builds with its defaults: --vec 1,2,4 --per-item 1,2,4 --loop stride, at --sg auto. */
static void stream_builds(struct bench_builds *b)
{
	if (b->sg)
		return;
	for (unsigned w = 1; w <= 4; w *= 2)
		for (unsigned per = 1; per <= 4; per *= 2)
			vecadd_build(b, VECADD_STREAM, &(struct vecadd_shape){ .vec = w, .per_item = per });
}

/* Every vector width x loop x per-item asked, each its own build. */
static void plan_shapes(struct bench_run *r, const struct stream_opts *o, struct vecadd_state *p)
{
	for (unsigned w = 0; w < 5; w++)
		for (unsigned l = 0; l < 2; l++)
			for (size_t i = 0; i < o->per_item.n; i++) {
				if (!o->vec[w] || !o->loop[l])
					continue;
				struct vecadd_shape *sh = &p->shape[p->n_shapes++];
				*sh = (struct vecadd_shape){ .vec = 1u << w, .loop = l,
							     .per_item = (unsigned)o->per_item.v[i] };
			}
	for (size_t i = 0; i < p->n_shapes; i++)
		vecadd_build_shape(r, p, &p->shape[i]);
	json_object_set(r->doc, "kernel", p->shape[0].kernel_json);
}

static size_t stream_plan(struct bench_run *r)
{
	struct stream_opts *o = r->opts;
	struct vecadd_state *p = bench_zalloc(sizeof(*p));

	r->state = p;
	p->variant = VECADD_STREAM;
	vecadd_plan_launch(r, p, o->sg_given, o->sg, o->wg);
	p->max_n = o->n;
	vecadd_plan_memory(r->dev, p);
	plan_shapes(r, o, p);
	if (!o->seed_given)
		o->seed = check_fresh_seed();
	vecadd_alloc(r, p);
	return p->n_shapes;
}

static void stream_teardown(struct bench_run *r)
{
	vecadd_free(r->state);
	range_free(&((struct stream_opts *)r->opts)->per_item);
}

/* ---- one point: one shape ---- */

static void stream_point(struct bench_run *r, struct bench_point *pt)
{
	const struct stream_opts *o = r->opts;
	const struct vecadd_state *p = r->state;
	struct vecadd_params *a = pt->params;

	a->variant = VECADD_STREAM;
	a->shape = &p->shape[pt->index];
	a->seed = o->seed;   /* the shapes share their inputs */
	a->iter = o->iter;
	a->wg = p->wg;
	a->sg_req = p->sg_req;
	a->sg_compiled = a->shape->res.compiled_sg;
	a->n = o->n;
	a->groups = stream_groups(a->n, a->shape->vec, a->shape->per_item, p->wg);
	vecadd_run_point(r, pt, (size_t)(a->groups * p->wg));
}

/* ---- views ---- */

static const struct bench_col stream_cols[] = {
	{ "Shape", vecadd_cell_shape }, { "Work-groups", vecadd_cell_groups }, { "WG size", vecadd_cell_wg },
	{ "SIMD", vecadd_cell_simd }, { "Model occupancy", bench_cell_occupancy },
	{ "median us", bench_cell_median_us }, { "CV %", bench_cell_cv }, { "GB/s", bench_cell_gbps },
	{ "ceiling GB/s", bench_cell_ceiling_gbps }, { "of ceiling", bench_cell_of_ceiling },
	{ "status", bench_cell_status }, { 0 } };

/* The fastest shape, in the document and under the table. */
static int stream_report(struct bench_run *r)
{
	const struct bench_point *best = NULL;
	const struct vecadd_shape *sh;
	char shape[64];

	for (size_t i = 0; i < r->n_points; i++)
		if (r->points[i].n && (!best || r->points[i].time.median < best->time.median))
			best = &r->points[i];
	if (!best)
		return EXIT_OK;
	sh = ((const struct vecadd_params *)best->params)->shape;
	vecadd_shape_str(sh, shape, sizeof(shape));
	json_object_set_new(r->doc, "best_shape",
			    json_pack("{sisiss sf sf}", "vec", sh->vec, "per_item", sh->per_item, "loop",
				      vecadd_loop_names[sh->loop], "gbps", bench_point_gbps(best),
				      "ceiling_gbps", bench_point_ceiling_gbps(best)));
	if (!r->co->quiet)
		printf("fastest shape: %s, %.2f GB/s (%.3f of the ceiling, %s)\n", shape,
		       bench_point_gbps(best), bench_point_gbps(best) / bench_point_ceiling_gbps(best),
		       best->ceil_by);
	return EXIT_OK;
}

static void stream_title(const struct bench_run *r, FILE *f)
{
	fprintf(f, "vecadd variant 5 (stream) on %s (%s)\n", r->dev->name, r->dev->platform_name);
}

static void stream_label(const struct bench_run *r, size_t i, char *buf, size_t len)
{
	vecadd_shape_str(&((const struct vecadd_state *)r->state)->shape[i], buf, len);
}

/* ---- bench validate ---- */

static void stream_checks(struct bench_check_plan *p)
{
	bench_check_add(p, &(struct bench_check){ .id = "stream/stride",
		.args = "--n 16Ki --vec all --per-item 1,3 --loop stride",
		.desc = "the streaming family strided by the grid: every vector width at 1 and 3 vectors "
			"a work-item, every word checked" });
	bench_check_add(p, &(struct bench_check){ .id = "stream/block",
		.args = "--n 16Ki --vec all --per-item 1,3 --loop block",
		.desc = "the streaming family in blocks: every vector width at 1 and 3 consecutive "
			"vectors a work-item (a last block cut short), every word checked" });
}

const struct bench_row stream_row = {
	.cmd = {
		.name = "stream",
		.summary = "streaming add in vector widths and loop shapes, against the copy ceiling",
		.synopsis = "usage: bench stream [options]\n"
			    "  Also `bench vecadd --variant 5`; its documents are vecadd's (variant 5).\n",
		.flags = BENCH_DEVICE | BENCH_SG | BENCH_SG_NATIVE | BENCH_COLD,
		.opts = stream_cli,
		.opts_size = sizeof(struct stream_opts),
		.check = stream_check,
	},
	.benchmark = "vecadd",
	.params_size = sizeof(struct vecadd_params),
	.plan = stream_plan,
	.label = stream_label,
	.point = stream_point,
	.params = vecadd_params,
	.cols = stream_cols,
	.title = stream_title,
	.report = stream_report,
	.teardown = stream_teardown,
	.builds = stream_builds,
	.checks = stream_checks,
};
