/*
 * bench vecadd: the vector-add variants of the occupancy experiments (the guide's
 * VectorAdd1-4), swept over the number of work-groups, each point validated and timed
 * with profiling events beside a copy ceiling of the same bytes. The streaming family
 * (variant 5) is bench stream (stream.c); both share common.c.
 */
#include "host.h"
#include "check.h"
#include "occ_point.h"

#include <stdlib.h>
#include <string.h>

/* --groups waves:A..B[:S]: work-group counts in units of the device's full wave. */
struct vecadd_waves {
	bool on;
	double lo, hi, step;
	unsigned long long wave;  /* work-groups in one full wave (the model's), once planned */
};

struct vecadd_opts {
	unsigned variant;        /* 1..4 (5: bench stream) */
	struct range groups;     /* work-groups per launch (variants 2-4) */
	struct vecadd_waves waves;
	unsigned wg;             /* --wg, 0 = variant default */
	unsigned sg;             /* --sg N, 0 = auto */
	unsigned iter;
	uint64_t slice;          /* elements per group, 0 = default */
	uint64_t n;              /* total elements, 0 = default */
	uint64_t seed;
	bool sg_given, iter_given, seed_given;
};

/* Variants 3-4: dependent rounds per element, and elements per work-group per work-item. */
#define VECADD_ITER_DEFAULT 1000
#define VECADD_SLICE_PER_ITEM 4
/* Variant 2: elements per work-group; variant 1: the problem. */
#define VECADD_SLICE_V2 65536
#define VECADD_N_V1 (16ull << 20)

/* ---- options ---- */

/* --vec, --per-item and --loop were variant 5's: bench stream's now. */
static void stream_only(void *base, const char *arg)
{
	(void)base;
	(void)arg;
	cli_usage_error("--vec, --per-item and --loop apply to variant 5 (streaming: bench stream)");
}

/* The most points a waves: sweep makes. */
#define VECADD_WAVES_MAX 4096

/*
 * --groups: a range of counts (host/range.h), or waves:A..B[:S], counts in units of the
 * device's full wave for this kernel (the model's), A to B by S (0.25 where not given).
 */
static void parse_groups(void *base, const char *arg)
{
	struct vecadd_opts *v = base;
	struct vecadd_waves *w = &v->waves;
	char lo[64] = "", hi[64] = "", step[64] = "0.25";
	const char *dots = strstr(arg, ".."), *colon = dots ? strchr(dots, ':') : NULL;

	if (strncmp(arg, "waves:", 6) != 0) {
		cli_range("groups", arg, 1, 1u << 24, &v->groups);
		return;
	}
	if (!dots || dots - (arg + 6) >= 64 || strlen(dots + 2) >= 64)
		cli_usage_error("--groups '%s': waves:A..B or waves:A..B:S, A to B full waves by S "
				"(e.g. waves:0.25..3:0.25)", arg);
	snprintf(lo, sizeof(lo), "%.*s", (int)(dots - (arg + 6)), arg + 6);
	snprintf(hi, sizeof(hi), "%.*s", (int)(colon ? colon - dots - 2 : (long)strlen(dots + 2)),
		 dots + 2);
	if (colon)
		snprintf(step, sizeof(step), "%s", colon + 1);
	w->lo = cli_real("groups waves: A", lo, 0.001, 1000);
	w->hi = cli_real("groups waves: B", hi, w->lo, 1000);
	w->step = cli_real("groups waves: S", step, 0.001, 1000);
	if ((w->hi - w->lo) / w->step + 1 > VECADD_WAVES_MAX)
		cli_usage_error("--groups '%s' makes more than %d points: a larger step", arg,
				VECADD_WAVES_MAX);
	w->on = true;
}

#define VO(f) offsetof(struct vecadd_opts, f)
static const struct cli_opt vecadd_cli[] = {
	{ "variant", "N", CLI_UINT, VO(variant), 1, 5, .def = "2",
	  .help = "1: one work-item per element, local size left to the driver\n"
		  "2: work-groups of 512 (or the device maximum), sub-group 32 where it\n"
		  "   can be required, each group adding its own slice\n"
		  "3: as 2 with --wg, --sg and --iter set by the user\n"
		  "4: as 3 with barriers at the start and the end\n"
		  "5: streaming, which is bench stream (see bench stream --help)" },
	{ "groups", "RANGE", CLI_FN, 0, .fn = parse_groups,
	  .help = "work-groups per launch, e.g. 1..48, 1..48:4, 1,2,4,8..16, 32..1024:x2;\n"
		  "or waves:A..B[:S], in units of the device's full wave for this kernel\n"
		  "(the model's), A to B by S (0.25 where not given), e.g. waves:0.25..3\n"
		  "(1..2^24 work-groups; variants 2-4)", .def_note = "1..48" },
	{ "wg", "N", CLI_UINT, VO(wg), 1, 1u << 20, .help = "work-group size (variants 3-4)",
	  .def_note = CLI_XSTR(VECADD_WG_DEFAULT) },
	{ "sg", "N|auto", CLI_SG, VO(sg),
	  .help = "required sub-group size (cl_intel_required_subgroup_size);\n"
		  "auto leaves it to the driver",
	  .def_note = CLI_XSTR(VECADD_SG_V2) " where possible for variant 2, auto for 3-4" },
	{ "iter", "N", CLI_UINT, VO(iter), 0, 1u << 24, .help = "dependent xorshift rounds per element",
	  .def_note = CLI_XSTR(VECADD_ITER_DEFAULT) " for variants 3-4, else 0" },
	{ "slice", "N", CLI_SIZE, VO(slice), 1, 1ull << 36,
	  .help = "elements per work-group (variants 2-4); sizes take K/M/G/Ki/Mi/Gi\nsuffixes",
	  .def_note = CLI_XSTR(VECADD_SLICE_V2) " for 2, " CLI_XSTR(VECADD_SLICE_PER_ITEM)
		      " x wg for 3-4" },
	{ "n", "N", CLI_SIZE, VO(n), 1, 1ull << 40,
	  .help = "total elements: variant 1's problem; for 2-4 it overrides --slice\n"
		  "with ceil(N / groups)", .def_note = "16Mi for variant 1" },
	{ "seed", "N", CLI_U64, VO(seed), 0, UINT64_MAX, .help = "random seed for the inputs",
	  .def_note = "fresh from the system" },
	{ "vec", "LIST", CLI_FN, 0, .fn = stream_only },
	{ "per-item", "RANGE", CLI_FN, 0, .fn = stream_only },
	{ "loop", "LIST", CLI_FN, 0, .fn = stream_only },
	{ 0 } };

static void vecadd_check(void *opts, const struct cli_set *given)
{
	struct vecadd_opts *v = opts;
	bool have_groups = cli_given(given, "groups");

	v->sg_given = cli_given(given, "sg");
	v->iter_given = cli_given(given, "iter");
	v->seed_given = cli_given(given, "seed");
	if (v->variant == VECADD_STREAM)   /* bench_row_resolve runs bench stream for it */
		cli_usage_error("--variant 5 is streaming: run bench stream");
	if (v->variant == 1 && (have_groups || v->wg || v->slice))
		cli_usage_error("--groups, --wg and --slice apply to variants 2-4; variant 1 takes --n");
	if (v->variant == 2 && v->wg)
		cli_usage_error("--wg applies to variants 3-4 (variant 2 uses 512 or the device maximum)");
	if (!have_groups && v->variant != 1)
		cli_range("groups", "1..48", 1, 48, &v->groups);
	if (v->waves.on && v->n)
		cli_usage_error("--groups waves: and --n: a sweep in waves keeps --slice per group");
	if (!v->iter_given)
		v->iter = v->variant == 3 || v->variant == 4 ? VECADD_ITER_DEFAULT : 0;
}

/* ---- plan ---- */

/* Elements and slice of the point with `groups` work-groups. */
static void point_size(const struct vecadd_opts *v, uint64_t groups, uint64_t *n, uint64_t *slice)
{
	if (v->variant == 1) {
		*n = v->n ? v->n : VECADD_N_V1;
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
 * What plan builds: variants 1-4 at --sg auto; at a size, variants 2-4 requiring it. The
 * streaming family's builds are bench stream's.
 */
static void vecadd_builds(struct bench_builds *b)
{
	for (unsigned variant = b->sg ? 2 : 1; variant <= 4; variant++)
		vecadd_build(b, variant, &(struct vecadd_shape){ .vec = 1, .per_item = 1 });
}

/*
 * --groups waves:A..B:S as work-group counts: A, A+S, ... B full waves of this kernel (the
 * model's wave_threads / threads a work-group, its limits with it), rounded, at least 1,
 * duplicates left out; recorded as the document's sweep_waves.
 */
static void waves_groups(struct bench_run *r, const struct vecadd_state *p, struct vecadd_opts *v)
{
	struct vecadd_waves *w = &v->waves;
	struct occ_kernel k;
	struct occ_result res;
	size_t n = (size_t)((w->hi - w->lo) / w->step + 1e-9) + 1;

	occ_kernel_from_res(&k, &p->shape[0].res, p->wg, p->sg_req, v->variant == 4);
	json_decref(occ_live_point(&r->model, &k, 1, &res));
	if (!r->model.known || !res.launchable || !res.threads_per_wg)
		cli_usage_error("--groups waves: counts in the model's full wave, which is not known "
				"here (%s): give counts, e.g. --groups 1..48",
				!r->model.known ? r->model.note : res.why_not);
	w->wave = res.wave_threads / res.threads_per_wg ? res.wave_threads / res.threads_per_wg : 1;
	v->groups.v = bench_alloc(n * sizeof(*v->groups.v));
	v->groups.n = 0;
	for (size_t i = 0; i < n; i++) {
		double g = (w->lo + (double)i * w->step) * (double)w->wave;
		uint64_t c = g < 1 ? 1 : (uint64_t)(g + 0.5);
		if (c > (1u << 24))
			cli_usage_error("--groups waves:...%g: %llu work-groups, above 2^24", w->hi,
					(unsigned long long)c);
		if (!v->groups.n || v->groups.v[v->groups.n - 1] != c)
			v->groups.v[v->groups.n++] = c;
	}
	json_object_set_new(r->doc, "sweep_waves",
			    json_pack("{s:f, s:f, s:f, s:I, s:I, s:s}", "from", w->lo, "to", w->hi,
				      "step", w->step, "wave_groups", (json_int_t)w->wave,
				      "wave_threads", (json_int_t)res.wave_threads, "limiter",
				      res.cu_limiter ? res.cu_limiter : res.limiter));
}

static size_t vecadd_plan(struct bench_run *r)
{
	struct vecadd_opts *v = r->opts;
	struct vecadd_state *p = bench_zalloc(sizeof(*p));
	size_t points;

	r->state = p;
	p->variant = v->variant;
	vecadd_plan_launch(r, p, v->sg_given, v->sg, v->wg);
	p->shape[0] = (struct vecadd_shape){ .vec = 1, .per_item = 1 };
	p->n_shapes = 1;
	if (v->waves.on) {   /* the wave is the built kernel's: build first */
		vecadd_build_shape(r, p, &p->shape[0]);
		waves_groups(r, p, v);
	}
	points = v->variant == 1 ? 1 : v->groups.n;
	if (!v->slice && !v->n && v->variant != 1)
		v->slice = v->variant == 2 ? VECADD_SLICE_V2 : VECADD_SLICE_PER_ITEM * (uint64_t)p->wg;
	for (size_t i = 0; i < points; i++) {
		uint64_t n, slice;
		point_size(v, v->variant == 1 ? 1 : v->groups.v[i], &n, &slice);
		p->max_n = n > p->max_n ? n : p->max_n;
	}
	vecadd_plan_memory(r->dev, p);
	if (!v->waves.on)
		vecadd_build_shape(r, p, &p->shape[0]);
	json_object_set(r->doc, "kernel", p->shape[0].kernel_json);
	if (!v->seed_given)
		v->seed = check_fresh_seed();
	vecadd_alloc(r, p);
	return points;
}

static void vecadd_teardown(struct bench_run *r)
{
	vecadd_free(r->state);
	range_free(&((struct vecadd_opts *)r->opts)->groups);
}

/* ---- one point ---- */

static void vecadd_point(struct bench_run *r, struct bench_point *pt)
{
	const struct vecadd_opts *v = r->opts;
	const struct vecadd_state *p = r->state;
	struct vecadd_params *a = pt->params;

	a->variant = v->variant;
	a->shape = &p->shape[0];
	a->groups = v->variant == 1 ? 0 : v->groups.v[pt->index];
	a->seed = v->seed + pt->index;
	a->iter = v->iter;
	a->wg = p->wg;
	a->wg_by_driver = !p->wg;
	a->barrier = v->variant == 4;
	a->sg_req = p->sg_req;
	a->sg_compiled = a->shape->res.compiled_sg;
	point_size(v, a->groups, &a->n, &a->slice);
	vecadd_run_point(r, pt, v->variant == 1 ? (size_t)a->n : (size_t)(a->groups * p->wg));
}

/* ---- views ---- */

static const struct bench_col vecadd_cols[] = {
	{ "Work-groups", vecadd_cell_groups }, { "Work-items", vecadd_cell_items },
	{ "WG size", vecadd_cell_wg }, { "SIMD", vecadd_cell_simd }, { "Threads/WG", vecadd_cell_tpwg },
	{ "Threads", vecadd_cell_threads },
	{ "Model occupancy", bench_cell_occupancy }, { "Limiter", bench_cell_limiter },
	{ "median us", bench_cell_median_us }, { "CV %", bench_cell_cv }, { "GB/s", bench_cell_gbps },
	{ "ceiling GB/s", bench_cell_ceiling_gbps }, { "of ceiling", bench_cell_of_ceiling },
	{ "status", bench_cell_status }, { 0 } };

static void vecadd_title(const struct bench_run *r, FILE *f)
{
	fprintf(f, "vecadd variant %u on %s (%s)\n", ((const struct vecadd_opts *)r->opts)->variant,
		r->dev->name, r->dev->platform_name);
}

static void vecadd_label(const struct bench_run *r, size_t i, char *buf, size_t len)
{
	const struct vecadd_opts *v = r->opts;

	snprintf(buf, len, "groups=%llu", v->variant == 1 ? 0ull : (unsigned long long)v->groups.v[i]);
}

/* ---- bench validate ---- */

/*
 * Work-group sizes: the smallest, one and two SIMD widths, then steps of x4 up to the
 * maximum, and the maximum (bounded: about eight per width, so a device with a maximum
 * of 8192 and five sub-group sizes stays under a hundred builds).
 */
static size_t wg_sizes(size_t max, unsigned simd, unsigned smallest, unsigned *out, size_t cap)
{
	size_t n = 0;
	unsigned last = 0;

	for (unsigned k = 0; n < cap; k++) {
		uint64_t w = k == 0 ? smallest : k <= 2 ? (uint64_t)k * simd : (uint64_t)simd << (2 * (k - 2));
		if (w > max)
			w = max;
		if (w > last)
			out[n++] = last = (unsigned)w;
		if (w == max)
			break;
	}
	return n;
}

/* Variants 3 and 4 at every work-group size of wg_sizes for sub-group sg (0: the driver's). */
static void checks_sg(struct bench_check_plan *p, size_t max, unsigned sg)
{
	const struct dev_info *d = p->dev;
	unsigned simd = sg ? sg : d->nv_warp_size ? d->nv_warp_size : 16, wgs[32];
	size_t n_wg = wg_sizes(max, simd, sg ? sg : 1, wgs, 32);
	char sgs[16];

	snprintf(sgs, sizeof(sgs), sg ? "%u" : "auto", sg);
	for (unsigned var = 3; var <= 4; var++)
		for (size_t i = 0; i < n_wg; i++) {
			struct bench_check c = { 0 };
			snprintf(c.args, sizeof(c.args), "--variant %u --wg %u --sg %s --groups 3 --iter 2",
				 var, wgs[i], sgs);
			snprintf(c.id, sizeof(c.id), "vecadd/v%u/wg=%u/sg=%s%s", var, wgs[i], sgs,
				 var == 4 ? "/barrier" : "");
			snprintf(c.desc, sizeof(c.desc), "variant %u, work-group %u, sub-group %s%s: 3 groups, "
				 "every word checked; the local size, group count and (where required) the "
				 "sub-group size the kernel saw", var, wgs[i], sg ? sgs : "left to the driver",
				 var == 4 ? ", barriers at the start and the end" : "");
			bench_check_add(p, &c);
		}
}

static void vecadd_checks(struct bench_check_plan *p)
{
	const struct dev_info *d = p->dev;
	size_t max = d->max_wg < d->max_item_sizes[0] ? d->max_wg : d->max_item_sizes[0];

	bench_check_add(p, &(struct bench_check){ .id = "vecadd/v1", .args = "--variant 1 --n 65536",
		.desc = "variant 1: one work-item per element, local size left to the driver; every "
			"word checked, the local size read back from the kernel" });
	bench_check_add(p, &(struct bench_check){ .id = "vecadd/v2",
		.args = "--variant 2 --groups 3 --slice 4096",
		.desc = "variant 2: work-groups of 512 (or the device maximum), sub-group 32 where it "
			"can be required; every word checked" });
	checks_sg(p, max, 0);   /* the driver's choice */
	for (unsigned i = 0; i < d->n_sg_sizes; i++)
		if (dev_can_require_sg(d, (unsigned)d->sg_sizes[i]))
			checks_sg(p, max, (unsigned)d->sg_sizes[i]);
}

const struct bench_row vecadd_row = {
	.cmd = {
		.name = "vecadd",
		.summary = "vector-add variants 1-4 swept over work-groups, with a copy ceiling",
		.synopsis = "usage: bench vecadd [options]\n",
		.flags = BENCH_DEVICE | BENCH_SG | BENCH_SG_NATIVE | BENCH_COLD,
		.opts = vecadd_cli,
		.opts_size = sizeof(struct vecadd_opts),
		.check = vecadd_check,
	},
	.params_size = sizeof(struct vecadd_params),
	.plan = vecadd_plan,
	.label = vecadd_label,
	.point = vecadd_point,
	.params = vecadd_params,
	.cols = vecadd_cols,
	.title = vecadd_title,
	.teardown = vecadd_teardown,
	.builds = vecadd_builds,
	.checks = vecadd_checks,
};
