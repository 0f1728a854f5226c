/*
 * bench sg-copy: the guide's three copies of n ints (sg_mem_access_0..2):
 * per-work-item contiguous (gathered reads, scattered writes), sub-group
 * strided, and sub-group block reads/writes of 8-vectors, each validated and
 * timed beside clEnqueueCopyBuffer of the same bytes (the copy ceiling).
 */
#include "row.h"
#include "check.h"
#include "sg_data.h"

#include <stdlib.h>
#include <string.h>

enum { SGC_GATHER, SGC_STRIDED, SGC_BLOCK, SGC_NVAR };
static const char *const sgc_names[SGC_NVAR] = { "gather", "strided", "block" };
static const char *const sgc_kernels[SGC_NVAR] = { "sg_copy_gather", "sg_copy_strided",
						   "sg_copy_block" };
_Static_assert(SGC_NVAR <= SGD_MAX_VARIANTS, "sg_data.h holds the variants");

/* The kernels' counts (kernels/sg_copy.cl): each work-item moves 16 ints; a buffer of
 * `bytes` is read once and written once per launch. */
#define SGC_INTS_PER_ITEM 16

static double sgc_bytes_moved(uint64_t bytes)
{
	return 2.0 * (double)bytes;
}

static size_t sgc_global(uint64_t bytes)
{
	return (size_t)(bytes / 4 / SGC_INTS_PER_ITEM);
}

struct sgc_opts {
	struct sgd_opts sg;      /* first: --variant, --wg, --sg, --seed */
	struct range sizes;      /* bytes per buffer */
};

struct sgc_state {
	struct sgd_state d;
	const char *block_impl;
};
_Static_assert(offsetof(struct sgc_opts, sg) == 0 && offsetof(struct sgc_state, d) == 0,
	       "sg_data.h's callbacks take the options and the state by their first members");

/* One point: a variant at one size, and what the launch ran with. */
struct sgc_params {
	int variant;
	uint64_t bytes;
	size_t global;
	unsigned wg;
	struct sgb_choice c;
	unsigned seen;           /* the maximum sub-group size the kernel saw, 0: not seen */
	const char *block_impl;
	uint64_t seed;
};

/* ---- options ---- */

#define SO(f) offsetof(struct sgc_opts, f)
static const struct cli_opt sgc_cli[] = {
	{ "size", "RANGE", CLI_SIZE_RANGE, SO(sizes), 4, 1ull << 40, .def = "4Mi..256Mi:x4",
	  .help = "bytes per buffer, e.g. 4Mi, 4Mi..256Mi:x2, 1Mi,64Mi; each a\n"
		  "multiple of 64 x --wg bytes" },
	{ "variant", "LIST", CLI_NAMES, SO(sg.variant), .names = sgc_names, .n_names = SGC_NVAR,
	  .def = "all", .help = "gather,strided,block or all" },
	SGD_CLI(struct sgc_opts, sg, "work-group size (a multiple of the sub-group width)",
		"sub-group width: intel/khr a size to require, nv 32, emulated 4..64"),
	{ 0 } };

static void sgc_check(void *opts, const struct cli_set *given)
{
	struct sgc_opts *o = opts;

	sgd_check(&o->sg, given);
}

/* ---- plan ---- */

static void plan_sizes(const struct bench_run *r, const struct sgc_opts *o, uint64_t *max_bytes)
{
	uint64_t unit = (uint64_t)SGC_INTS_PER_ITEM * o->sg.wg * 4;
	char what[64];

	*max_bytes = 0;
	for (size_t i = 0; i < o->sizes.n; i++) {
		uint64_t b = o->sizes.v[i];
		if (b % unit)
			cli_usage_error("--size %llu is not a multiple of 16 ints x %u work-items x 4 "
					"bytes = %llu bytes (whole work-groups)", (unsigned long long)b,
					o->sg.wg, (unsigned long long)unit);
		*max_bytes = b > *max_bytes ? b : *max_bytes;
	}
	snprintf(what, sizeof(what), "--size %llu", (unsigned long long)*max_bytes);
	sgd_check_memory(r->dev, *max_bytes, what);
}

/* The options of variant v's program (one kernel per program). */
static void sgc_options(const struct dev_info *d, const struct sgb_choice *c, unsigned wg, int v,
			char *opts, size_t len)
{
	int off = sgb_build_options(d, c, wg, opts, len);

	snprintf(opts + off, len - (size_t)off, " -DSGC_VARIANT=%d", v);
}

static void plan_build(struct bench_run *r, const struct sgc_opts *o, struct sgc_state *p)
{
	struct sgd_state *d = &p->d;
	char opts[768], why_not[512];
	bool block = sgb_block_io(r->dev, &d->c, &p->block_impl, why_not, sizeof(why_not));

	for (int v = 0; v < SGC_NVAR; v++) {
		if (!o->sg.variant[v])
			continue;
		if (v == SGC_BLOCK && !block) {
			d->skip[v] = strdup(why_not);
			continue;
		}
		/* one kernel per program: a driver that cannot link block reads fails that one */
		sgc_options(r->dev, &d->c, o->sg.wg, v, opts, sizeof(opts));
		sgd_build(r, d, "sg_copy.cl", opts, 1u << v, sgc_kernels, o->sg.wg);
		unsigned chosen = d->res[v].max_sg_for_local;
		if (d->k[v] && v != SGC_GATHER && chosen && o->sg.wg % chosen) {
			char why[256];
			snprintf(why, sizeof(why), "the driver chose sub-group size %u and --wg %u is not "
				 "a multiple of it: sub-groups would be partial", chosen, o->sg.wg);
			d->skip[v] = strdup(why);
		}
	}
}

/* The three programs plan builds at --sg b->sg (0: auto) with the default options. */
static void sgc_builds(struct bench_builds *b)
{
	struct sgc_opts all = { 0 };
	struct sgd_opts o;
	struct sgb_choice c;
	char err[1024], why_not[512];
	const char *impl;
	bool ok;

	cli_set_defaults(sgc_cli, &all);
	o = all.sg;
	range_free(&all.sizes);
	o.sg = b->sg;
	o.sg_given = true;
	ok = sgd_choose(b->dev, NULL, &o, 0, b->grf_large, &c, err, sizeof(err));
	for (int v = 0; v < SGC_NVAR; v++) {
		struct bench_build *bb = bench_builds_add(b, "sg_copy.cl");
		bench_build_kernel(bb, sgc_kernels[v], sgc_names[v], o.wg, "--wg (default 256)");
		if (!ok && c.backend == SGB_NONE) {
			bench_build_skip(bb, "%s", err);
			bb->skip_options = true;
			continue;
		}
		sgc_options(b->dev, &c, o.wg, v, bb->options, sizeof(bb->options));
		bb->build = sgb_build_json(b->dev, &c);
		if (!ok)
			bench_build_skip(bb, "%s", err);
		else if (v == SGC_BLOCK && !sgb_block_io(b->dev, &c, &impl, why_not, sizeof(why_not)))
			bench_build_skip(bb, "%s", why_not);
	}
}

static size_t sgc_plan(struct bench_run *r)
{
	struct sgc_opts *o = r->opts;
	struct sgc_state *p = bench_alloc(sizeof(*p));
	uint64_t max_bytes;

	memset(p, 0, sizeof(*p));
	r->state = p;
	sgd_plan_limits(r, &o->sg, 0, &p->d, sgc_names, "size");
	plan_sizes(r, o, &max_bytes);
	plan_build(r, o, p);
	json_object_set_new(r->doc, "sub_groups", sgb_report_json(r->dev, &p->d.c));
	sgd_alloc(r, &p->d, (size_t)max_bytes, false);
	for (size_t i = 0; i < o->sizes.n; i++)
		for (int v = 0; v < SGC_NVAR; v++)
			if (o->sg.variant[v])
				sgd_add(&p->d, v, (unsigned)i, o->sizes.v[i], (size_t)o->sizes.v[i],
					(o->sg.seed + i) & INT64_MAX);
	return p->d.n_items;
}

static void sgc_teardown(struct bench_run *r)
{
	struct sgc_state *p = r->state;

	sgd_teardown(&p->d);
	free(p);
	range_free(&((struct sgc_opts *)r->opts)->sizes);
}

/* ---- one point ---- */

static void sgc_fill(struct sgd_state *d, const struct sgd_item *it)
{
	check_fill_random(d->hsrc, it->bytes / 4, it->seed);
}

/* Launches once, checks the copy and what the kernel ran with. */
static bool sgc_validate(struct bench_run *r, struct sgc_state *p, const struct sgd_item *it,
			 struct sgc_params *a, char *err, size_t len)
{
	struct sgd_state *d = &p->d;
	cl_kernel k = d->k[a->variant];
	cl_uint info[4] = { 0 };
	bool ok = sgd_load(r, d, it, sgc_fill, err, len) &&
		  sgd_poison(r, d, d->dst, it->bytes, err, len) &&
		  PROG_SET_ARGS(k, err, len, PROG_ARG(d->src), PROG_ARG(d->dst), PROG_ARG(d->info)) &&
		  bench_launch_once(r, k, a->global, a->wg, &d->res[a->variant], "wg", err, len) &&
		  sgd_read_back(r, d, d->dst, it->bytes / 4, info, err, len);

	a->seen = info[2];   /* what the kernel saw, also when its copy is wrong */
	if (!ok)
		return false;
	if ((d->c.width && info[2] != d->c.width) || info[0] != a->wg) {
		snprintf(err, len, "built for sub-group width %u and work-group %u, the kernel ran "
			 "with %u and %u", d->c.width, a->wg, info[2], info[0]);
		return false;
	}
	return true;
}

static void sgc_point(struct bench_run *r, struct bench_point *pt)
{
	struct sgc_state *p = r->state;
	const struct sgd_item *it = &p->d.items[pt->index];
	struct sgc_params *a = pt->params;
	char err[4096], note[256];
	int v = it->variant;

	*a = (struct sgc_params){ v, it->bytes, sgc_global(it->bytes), p->d.wg, p->d.c, 0,
				  v == SGC_BLOCK ? p->block_impl : NULL, it->seed };
	sgd_ceiling(&p->d, pt, it);   /* every point of a size, skipped ones too, shows its ceiling */
	if (!sgd_ready(&p->d, pt, v))
		return;
	if (!sgc_validate(r, p, it, a, err, sizeof(err)))
		bench_fail(pt, "%s", err);
	bench_point_model(pt, &p->d.res[v], a->wg, a->seen ? a->seen : p->d.c.width, false,
			  a->global / a->wg);
	if (pt->status != POINT_OK)
		return;
	pt->validated = true;
	bench_point_time_launch(pt, p->d.k[v], a->global, a->wg);
	pt->bytes = sgc_bytes_moved(it->bytes);
	if (bench_wg_note(a->wg, &p->d.res[v], note, sizeof(note)))
		bench_note(pt, "%s", note);
}

/* The gather variant against the sub-group ones, block against strided (the guide's point). */
static void sgc_relate(struct bench_run *r)
{
	struct sgc_state *p = r->state;

	sgd_ratio(r, &p->d, SGC_GATHER, SGC_STRIDED, "vs_strided");
	sgd_ratio(r, &p->d, SGC_GATHER, SGC_BLOCK, "vs_block");
	sgd_ratio(r, &p->d, SGC_BLOCK, SGC_STRIDED, "vs_strided");
}

/* ---- views ---- */

#define SA(pt) ((const struct sgc_params *)(pt)->params)
#define CELL(name) static void name(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)

CELL(cell_size) { (void)r; snprintf(b, n, "%.0f MiB", (double)SA(pt)->bytes / 1048576.0); }
CELL(cell_ints) { (void)r; snprintf(b, n, "%llu", (unsigned long long)(SA(pt)->bytes / 4)); }
CELL(cell_variant) { (void)r; snprintf(b, n, "%s", sgc_names[SA(pt)->variant]); }
CELL(cell_sg) { (void)r; snprintf(b, n, SA(pt)->c.width ? "%u" : "driver", SA(pt)->c.width); }
CELL(cell_wg) { (void)r; snprintf(b, n, "%u", SA(pt)->wg); }
CELL(cell_vs)
{
	double vs = sgd_metric(pt, "vs_strided");

	(void)r;
	snprintf(b, n, vs > 0 ? "%.3f" : "-", vs);
}

static const struct bench_col sgc_cols[] = {
	{ "size", cell_size }, { "ints", cell_ints }, { "variant", cell_variant },
	{ "backend", sgd_cell_backend }, { "SG", cell_sg }, { "WG", cell_wg },
	{ "Model occupancy", bench_cell_occupancy }, { "median us", bench_cell_median_us },
	{ "CV %", bench_cell_cv }, { "GB/s", bench_cell_gbps }, { "ceiling GB/s", bench_cell_ceiling_gbps },
	{ "of ceiling", bench_cell_of_ceiling }, { "vs strided", cell_vs }, { "status", bench_cell_status },
	{ 0 } };

/* ---- bench validate ---- */

static void sgc_checks(struct bench_check_plan *p)
{
	sgd_checks_each(p, "sg-copy", false, "--sg-backend %s --sg %s --size 1Mi --wg 256",
			"gather, sub-group-strided and block copies of 1 Mi bytes: every word checked "
			"(block reads and writes where the backend has them)");
}

static json_t *param_n_ints(const struct bench_run *r, const struct bench_point *pt)
{
	(void)r;
	return json_integer((json_int_t)(SA(pt)->bytes / 4));
}

#define AT(m) BENCH_AT(struct sgc_params, m)
static const struct bench_param sgc_params[] = {
	{ "variant", .type = BENCH_PT_NAME, AT(variant), BENCH_NAMES(sgc_names),
	  .help = "gather, strided or block" },
	{ "bytes", .type = BENCH_PT_COUNT, AT(bytes), .unit = "bytes", .help = "the size copied" },
	{ "n_ints", .type = BENCH_PT_COUNT, .value = param_n_ints, .unit = "ints", .help = "the same in ints" },
	{ "wg_size", .type = BENCH_PT_COUNT, AT(wg), .unit = "work-items", .help = "the work-group" },
	{ "global", .type = BENCH_PT_COUNT, AT(global), .unit = "work-items", .help = "the ND-range" },
	BENCH_PARAMS_SG_LAYER(false, struct sgc_params, c),
	{ "sg_size_kernel", .type = BENCH_PT_COUNT0, AT(seen), .unit = "work-items",
	  .help = "the largest sub-group size the kernel saw (null: not seen)" },
	{ "block_impl", .type = BENCH_PT_STR0, AT(block_impl),
	  .help = "how block reads and writes were made (null: the variant has none)" },
	{ "seed", .type = BENCH_PT_COUNT, AT(seed), .help = "of the random data" },
	{ 0 } };

const struct bench_row sg_copy_row = {
	.cmd = {
		.name = "sg-copy",
		.summary = "gather, sub-group-strided and block copies against the copy ceiling",
		.synopsis = "usage: bench sg-copy [options]\n"
			    "  Copies n ints three ways, each work-item moving 16 (the guide's sg_mem_access_0..2):\n"
			    "    gather   each work-item 16 contiguous ints (gathered reads, scattered writes)\n"
			    "    strided  each sub-group 16 x width contiguous ints, lane l every width-th\n"
			    "    block    as strided, by sub-group block reads/writes of 8-vectors (intel:\n"
			    "             intel_sub_group_block_read8/write8; nv: coalesced loads of the same\n"
			    "             addresses; khr, emulated: skipped)\n"
			    "  and compares each with clEnqueueCopyBuffer of the same bytes in the same run.\n",
		.flags = BENCH_DEVICE | BENCH_SG | BENCH_COLD,
		.opts = sgc_cli,
		.opts_size = sizeof(struct sgc_opts),
		.check = sgc_check,
	},
	.params_size = sizeof(struct sgc_params),
	.plan = sgc_plan,
	.label = sgd_label,
	.point = sgc_point,
	.params = sgc_params,
	.cols = sgc_cols,
	.title = sgd_title,
	.relate = sgc_relate,
	.teardown = sgc_teardown,
	.builds = sgc_builds,
	.checks = sgc_checks,
};
