/*
 * bench barrier: the guide's barrier experiment as published (Thread Mapping and GPU
 * Occupancy, "Impact of Work-item Synchronization Within Work-group"): a 3-D ND-range of
 * global (64, 64, 128) and local (1, R, 128) work-items in SYCL's order, R = 1..5, a kernel
 * with work before and after a work-group barrier. Each R is one point: the launch
 * attempted (where 128 R exceeds what the device takes, the driver's refusal and its error
 * are the point: skipped, the guide's "fail to launch"), every work-item's output and the
 * barrier's counts validated, the work-groups resident at once measured, the launch timed,
 * and the model's prediction for this device; after the table the model's table for the
 * guide's TGL at SIMD 8 beside it.
 *
 * The kernel is the residency probe (kernels/occupancy.cl with ND3=1): work-items count
 * their group's arrival and departure around the barrier, so a group that passed the
 * barrier before all its work-items started would show (every group must be whole once).
 * SYCL's last dimension is OpenCL's first: the launch is global (128, 64, 64), local
 * (128, R, 1). Where R does not divide 64 the 64 rows are rounded up to a multiple of R
 * (66 for R = 3, 65 for R = 5): a global range must be a multiple of the local one (OpenCL
 * 1.2 and SYCL's nd_range alike); the extra rows run the same kernel, and are counted.
 */
#include "host.h"

#include <stdlib.h>
#include <string.h>

/* The guide's global range, SYCL's order: (64, 64, 128). */
#define BARRIER_GLOBAL_Z 64
#define BARRIER_GLOBAL_Y 64
#define BARRIER_GLOBAL_X 128
/* The calibration: from this spin, doubled until a launch lasts the least below. */
#define BARRIER_SPIN_START 16
#define BARRIER_SPIN_MAX (1u << 20)
#define BARRIER_MIN_NS 1e6      /* a GPU: long beside dispatching every group */
#define BARRIER_MIN_NS_CPU 50e6 /* a CPU: long beside a loaded host's scheduling slices */
/* Validated launches whose peaks give a point's residency. */
#define BARRIER_RESIDENCY_LAUNCHES 3
/* The guide's TGL, its sub-group width ("assuming the sub-group size is eight"). */
#define BARRIER_TGL "TGL-96"
#define BARRIER_TGL_SIMD 8

/* One point: R, its launch and what it measured, or the driver's refusal. */
struct barrier_point {
	unsigned r, wg, spin, simd, sg_req, sg_kernel;
	struct time_launch_nd l;
	uint64_t groups, items;
	const struct sgb_choice *sgc;     /* --sg-backend: the kernel's layer; NULL: not named */
	bool measured;
	struct probe_residency res;       /* of the residency launches */
	double peaks[3][BARRIER_RESIDENCY_LAUNCHES];   /* compared, whole, occupied */
	cl_int refused;                   /* the driver's error for a refused launch, else 0 */
};

/* ---- options ---- */

static void barrier_check(void *opts, const struct cli_set *given)
{
	struct occ_opts *o = opts;

	(void)given;
	if (o->sg.n > 1)
		cli_usage_error("--sg: one size to require (got %zu)", o->sg.n);
}

#define BO(f) offsetof(struct occ_opts, f)
static const struct cli_opt barrier_cli[] = {
	{ "r", "RANGE", CLI_RANGE, BO(rows), 1, BARRIER_GLOBAL_Y, .def = "1..5",
	  .help = "R of the guide's local range (1, R, 128): work-groups of 128 R" },
	OCC_OPT_SG,
	{ "spin", "N", CLI_UINT, BO(spin), 1, BARRIER_SPIN_MAX, .help = "dependent rounds per work-item",
	  .def_note = "calibrated at the first R that launches: from " CLI_XSTR(BARRIER_SPIN_START)
		      ", doubled until a launch lasts 1 ms (a CPU: 50 ms) and its peak has not moved "
		      "for two doublings; kept for every R" },
	{ 0 } };

/* ---- plan ---- */

static size_t barrier_plan(struct bench_run *r)
{
	struct occ_opts *o = r->opts;
	struct occ_state *s = bench_zalloc(sizeof(*s));
	struct probe_cfg cfg = { .sg = o->sg.n ? (unsigned)o->sg.v[0] : 0, .barrier = true, .nd3 = true };

	r->state = s;
	occ_plan_sg(r, o, s);
	probe_bufs_init(r, &s->bufs);
	s->kern = bench_alloc(sizeof(*s->kern));
	probe_build(r, &cfg, &s->kern[0]);
	s->n_kern = 1;
	s->spin = o->spin;
	json_object_set_new(r->doc, "kernel", prog_kernel_res_json("occupancy.cl", "occ_probe",
		s->kern[0].opts, &s->kern[0].res));
	return o->rows.n;
}

static void barrier_label(const struct bench_run *r, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "R=%llu", (unsigned long long)((const struct occ_opts *)r->opts)->rows.v[i]);
}

/* The launch of R: OpenCL's (128, R, 1) over (128, 64 rounded up to R, 64). */
static void shape(struct barrier_point *a, unsigned rr)
{
	size_t rows = (BARRIER_GLOBAL_Y + rr - 1) / rr * rr;

	a->r = rr;
	a->wg = BARRIER_GLOBAL_X * rr;
	a->l = (struct time_launch_nd){ NULL, 3, { BARRIER_GLOBAL_X, rows, BARRIER_GLOBAL_Z },
					{ BARRIER_GLOBAL_X, rr, 1 } };
	a->items = (uint64_t)BARRIER_GLOBAL_X * rows * BARRIER_GLOBAL_Z;
	a->groups = a->items / a->wg;
}

/* ---- one point ---- */

/* Whether a refused launch is the one the guide means: above what the device or kernel takes. */
static bool oversized(const struct bench_run *r, const struct barrier_point *a, cl_int code)
{
	const struct kernel_res *res = &((const struct occ_state *)r->state)->kern[0].res;
	const size_t *items = r->dev->max_item_sizes;

	return (code == CL_INVALID_WORK_GROUP_SIZE || code == CL_INVALID_WORK_ITEM_SIZE) &&
	       (a->wg > r->dev->max_wg || (res->wg_max && a->wg > res->wg_max) ||
		a->l.local[0] > items[0] || a->l.local[1] > items[1]);
}

/* The point skipped with the driver's refusal: its error, the limits, the guide's words. */
static void refused(struct bench_run *r, struct bench_point *pt, struct barrier_point *a)
{
	const struct kernel_res *res = &((const struct occ_state *)r->state)->kern[0].res;
	char lim[256];

	a->refused = cl_last_code();
	pt->extra = json_pack("{s:{s:s, s:i, s:I, s:I}}", "refused", "error", cl_err_name(a->refused),
			      "code", (int)a->refused, "max_work_group_size", (json_int_t)r->dev->max_wg,
			      "kernel_work_group_size", (json_int_t)res->wg_max);
	bench_skip(pt, "the driver refused local (1, %u, %u) = %u work-items: %s (%d); "
		   "CL_DEVICE_MAX_WORK_GROUP_SIZE %zu, %s (the guide: R > 4 fails to launch where "
		   "the maximum is 512)", a->r, BARRIER_GLOBAL_X, a->wg, cl_err_name(a->refused),
		   (int)a->refused, r->dev->max_wg, prog_wg_limits(res, lim, sizeof(lim)));
}

/*
 * Doubles the spin until a launch lasts long enough and its peak has settled (state->spin);
 * --spin, an earlier point's spin or --validate-only: one launch.
 */
static bool calibrate(struct bench_run *r, const struct bench_point *pt, struct barrier_point *a,
		      struct probe_result *res, char *err, size_t len)
{
	struct occ_state *s = r->state;
	double min_ns = r->dev->type & CL_DEVICE_TYPE_CPU ? BARRIER_MIN_NS_CPU : BARRIER_MIN_NS;
	unsigned spin = s->spin ? s->spin : BARRIER_SPIN_START;
	int steady = 0, peak;

	bench_progress_step(r, pt->index, "spin=%u", spin);
	if (!probe_launch_nd(r, &s->kern[0], &s->bufs, &a->l, spin, res, err, len))
		return false;
	while (!s->spin && !r->co->validate_only && (steady < 2 || res->ns < min_ns) &&
	       spin < BARRIER_SPIN_MAX) {
		peak = res->peak;
		spin *= 2;
		bench_progress_step(r, pt->index, "calibrating spin=%u", spin);
		if (!probe_launch_nd(r, &s->kern[0], &s->bufs, &a->l, spin, res, err, len))
			return false;
		steady = res->peak > peak ? 0 : steady + 1;
	}
	s->spin = spin;
	return true;
}

/* The residency: the peaks of BARRIER_RESIDENCY_LAUNCHES validated launches. */
static bool residency(struct bench_run *r, struct barrier_point *a, struct probe_result *res,
		      char *err, size_t len)
{
	struct occ_state *s = r->state;

	for (size_t i = 0; i < BARRIER_RESIDENCY_LAUNCHES; i++) {
		if (!probe_launch_nd(r, &s->kern[0], &s->bufs, &a->l, a->spin, res, err, len))
			return false;
		a->peaks[0][i] = res->peak;
		a->peaks[1][i] = res->whole;
		a->peaks[2][i] = res->occupied;
	}
	a->sg_kernel = res->sg_kernel;
	return true;
}

/* Before each timed launch: the counters as a fresh launch finds them (outside its time). */
static bool reset(struct bench_run *r, void *arg, unsigned rep, char *err, size_t len)
{
	const struct barrier_point *a = arg;
	struct probe_bufs *b = &((struct occ_state *)r->state)->bufs;
	cl_int zero = 0;

	(void)rep;
	return CL_CHECK(clEnqueueFillBuffer(r->pc.q, b->c, &zero, 4, 0, 32, 0, NULL, NULL), err, len) &&
	       CL_CHECK(clEnqueueFillBuffer(r->pc.q, b->state, &zero, 4, 0, a->groups * 4, 0, NULL,
					    NULL), err, len) &&
	       CL_CHECK(clFinish(r->pc.q), err, len);
}

/* Attempt the launch, calibrate, measure the residency, then time it (the counters reset). */
static void barrier_point(struct bench_run *r, struct bench_point *pt)
{
	const struct occ_opts *o = r->opts;
	struct occ_state *s = r->state;
	struct barrier_point *a = pt->params;
	const struct probe_kernel *pk = &s->kern[0];
	struct probe_result res = { 0 };
	char err[4096];

	shape(a, (unsigned)o->rows.v[pt->index]);
	a->l.kernel = pk->k;
	a->sg_req = pk->cfg.sg;
	a->sgc = r->co->sg_backend ? &pk->sgc : NULL;
	a->simd = probe_simd(r, pk);
	cl_clear_last();
	bool ok = calibrate(r, pt, a, &res, err, sizeof(err));
	a->spin = s->spin ? s->spin : BARRIER_SPIN_START;
	ok = ok && residency(r, a, &res, err, sizeof(err));
	if (!a->simd && a->sg_kernel && pk->sgc.backend != SGB_EMULATED)
		a->simd = a->sg_kernel;   /* the width the kernel ran with */
	bench_point_model(pt, &pk->res, a->wg, a->simd, true, a->groups);
	pt->ops = (double)a->items * 4 * a->spin;
	if (!ok && oversized(r, a, cl_last_code()))
		refused(r, pt, a);
	else if (!ok)
		bench_fail(pt, "%s", err);
	if (!ok)
		return;
	pt->validated = true;
	a->measured = true;
	struct probe_samples m = { a->peaks[0], a->peaks[1], a->peaks[2] };
	pt->extra = json_pack("{s:o}", "measured", probe_measured_json(r, &m, BARRIER_RESIDENCY_LAUNCHES,
								     a->wg, &a->res));
	if (a->res.resident >= a->groups)
		bench_note(pt, "the peak equals the launch size: a lower bound only");
	if (!r->co->validate_only)
		bench_point_measure_prep(r, pt, time_enqueue_launch_nd, &a->l, reset, a);
}

/* ---- views ---- */

static json_t *dims_json(const size_t *v)
{
	return json_pack("[I, I, I]", (json_int_t)v[0], (json_int_t)v[1], (json_int_t)v[2]);
}

#define PA(pt) ((const struct barrier_point *)(pt)->params)
#define CELL(name) static void name(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)

CELL(cell_r) { (void)r; snprintf(b, n, "%u", PA(pt)->r); }
CELL(cell_local) { (void)r; snprintf(b, n, "(1, %u, %u)", PA(pt)->r, BARRIER_GLOBAL_X); }
CELL(cell_wg) { (void)r; snprintf(b, n, "%u", PA(pt)->wg); }
CELL(cell_groups) { (void)r; snprintf(b, n, "%llu", (unsigned long long)PA(pt)->groups); }
CELL(cell_simd) { (void)r; snprintf(b, n, PA(pt)->simd ? "%u" : "-", PA(pt)->simd); }
CELL(cell_resident)
{
	snprintf(b, n, PA(pt)->measured ? "%llu" : "-", (unsigned long long)PA(pt)->res.resident);
	(void)r;
}
CELL(cell_per_cu)
{
	snprintf(b, n, PA(pt)->measured ? "%.2f" : "-", (double)PA(pt)->res.resident / r->dev->compute_units);
}
CELL(cell_model)
{
	snprintf(b, n, r->model.known && pt->model.launchable ? "%llu" : "-", pt->model.resident_wg);
}

static const struct bench_col barrier_cols[] = {
	{ "R", cell_r }, { "Local (SYCL)", cell_local }, { "WG", cell_wg }, { "Groups", cell_groups },
	{ "SIMD", cell_simd }, { "Resident", cell_resident }, { "Per CU", cell_per_cu },
	{ "Model", cell_model }, { "Model occupancy", bench_cell_occupancy },
	{ "median us", bench_cell_median_us }, { "CV %", bench_cell_cv }, { "Status", bench_cell_status },
	{ 0 } };

static void barrier_title(const struct bench_run *r, FILE *f)
{
	const struct occ_state *s = r->state;

	fprintf(f, "the guide's barrier kernel, global (%d, %d, %d), local (1, R, %d), on %s (%s), %u "
		"compute units, CL_DEVICE_MAX_WORK_GROUP_SIZE %zu; spin %u\n", BARRIER_GLOBAL_Z,
		BARRIER_GLOBAL_Y, BARRIER_GLOBAL_X, BARRIER_GLOBAL_X, r->dev->name, r->dev->platform_name,
		r->dev->compute_units, r->dev->max_wg, s->spin);
}

/* ---- after the table: the model's TGL table ---- */

/* One R on the guide's TGL at SIMD 8: utilization of one group, occupancy with as many as fit. */
static json_t *tgl_row(const struct occ_device *tgl, unsigned rr, bool print)
{
	struct occ_kernel k = { .wg_size = BARRIER_GLOBAL_X * rr, .sg_size = BARRIER_TGL_SIMD, .barrier = true };
	struct occ_result one, full;
	char util[64], occ[64], pct[32];

	occ_predict(tgl, &k, 1, &one);
	if (!one.launchable) {
		if (print)
			printf("  %2u  %10u  %7s  fails to launch: %s\n", rr, k.wg_size, "-", one.why_not);
		return json_pack("{s:I, s:I, s:b, s:s}", "r", (json_int_t)rr, "wg_size",
				 (json_int_t)k.wg_size, "launchable", 0, "why_not", one.why_not);
	}
	occ_predict(tgl, &k, one.wg_per_cu, &full);
	snprintf(util, sizeof(util), "%u/%u = %s", one.threads_per_wg, one.slots_per_cu,
		 occ_pct_str(one.cu_occupancy, OCC_PCT_ROUND0, pct, sizeof(pct)));
	snprintf(occ, sizeof(occ), "%s with %u work-group%s",
		 occ_pct_str(full.cu_occupancy, OCC_PCT_ROUND0, pct, sizeof(pct)), one.wg_per_cu,
		 one.wg_per_cu == 1 ? "" : "s");
	if (print)
		printf("  %2u  %10u  %7u  %-19s  %s\n", rr, k.wg_size, one.threads_per_wg, util, occ);
	return json_pack("{s:I, s:I, s:b, s:I, s:s, s:I, s:s, s:f}", "r", (json_int_t)rr, "wg_size",
			 (json_int_t)k.wg_size, "launchable", 1, "threads", (json_int_t)one.threads_per_wg,
			 "utilization", util, "wg_per_cu", (json_int_t)one.wg_per_cu, "occupancy", occ,
			 "cu_occupancy", full.cu_occupancy);
}

/* The model's table for the guide's TGL at every R of the run (model_tgl in the document). */
static int barrier_report(struct bench_run *r)
{
	const struct occ_opts *o = r->opts;
	const struct occ_device *tgl = occ_find(BARRIER_TGL);
	bool print = !r->co->quiet;
	json_t *rows = json_array();

	if (!tgl)
		cli_die(EXIT_FAIL, "bench bug: the model has no %s", BARRIER_TGL);
	if (print)
		printf("\nthe model's %s (%s) at SIMD %d, the guide's device and width (bench model --gpu "
		       "%s --sg %d --barrier --wg 128R):\n   R  work-items  threads  Xe-core utilization  "
		       "Xe-core occupancy\n", tgl->name, tgl->desc, BARRIER_TGL_SIMD, BARRIER_TGL,
		       BARRIER_TGL_SIMD);
	for (size_t i = 0; i < o->rows.n; i++)
		json_array_append_new(rows, tgl_row(tgl, (unsigned)o->rows.v[i], print));
	json_object_set_new(r->doc, "model_tgl", json_pack("{s:s, s:i, s:b, s:o}", "device", tgl->name,
		"simd", BARRIER_TGL_SIMD, "barrier", 1, "rows", rows));
	if (print && !r->model.known)
		printf("model for this device: %s\n", r->model.note);
	return EXIT_OK;
}

/* ---- builds and checks ---- */

static void barrier_builds(struct bench_builds *b)
{
	struct probe_cfg cfg = { .sg = b->sg, .barrier = true, .nd3 = true };

	occ_build_add(b, &cfg, "guide-3d", "--r (work-groups of 128 R)");
}

static void barrier_checks(struct bench_check_plan *p)
{
	unsigned most = (unsigned)(p->dev->max_wg / BARRIER_GLOBAL_X);
	struct bench_check c = { 0 };

	if (!most)
		return;
	most = most < 4 ? most : 4;
	snprintf(c.args, sizeof(c.args), "--r 1..%u --spin 64", most);
	snprintf(c.id, sizeof(c.id), "barrier/r=1..%u", most);
	snprintf(c.desc, sizeof(c.desc), "the guide's 3-D ND-range, local (1, R, 128) for R = 1..%u: "
		 "every work-item's output and every group whole once at its barrier", most);
	bench_check_add(p, &c);
}

#define VALUE(name) static json_t *name(const struct bench_run *r, const struct bench_point *pt)
VALUE(param_local_sycl)
{
	size_t v[3] = { 1, PA(pt)->r, BARRIER_GLOBAL_X };

	(void)r;
	return dims_json(v);
}
VALUE(param_global_guide)
{
	size_t v[3] = { BARRIER_GLOBAL_Z, BARRIER_GLOBAL_Y, BARRIER_GLOBAL_X };

	(void)r;
	(void)pt;
	return dims_json(v);
}
VALUE(param_local) { (void)r; return dims_json(PA(pt)->l.local); }
VALUE(param_global) { (void)r; return dims_json(PA(pt)->l.global); }

#define AT(m) BENCH_AT(struct barrier_point, m)
static const struct bench_param barrier_params[] = {
	{ "r", .type = BENCH_PT_COUNT, AT(r), .help = "the guide's R: local range (1, R, 128)" },
	{ "wg_size", .type = BENCH_PT_COUNT, AT(wg), .unit = "work-items", .help = "the work-group" },
	{ "local_sycl", .type = BENCH_PT_COUNTS, .value = param_local_sycl, .unit = "work-items",
	  .help = "the local range in SYCL's order" },
	{ "global_guide_sycl", .type = BENCH_PT_COUNTS, .value = param_global_guide, .unit = "work-items",
	  .help = "the guide's global range in SYCL's order" },
	{ "local", .type = BENCH_PT_COUNTS, .value = param_local, .unit = "work-items",
	  .help = "the local range launched, OpenCL's order" },
	{ "global", .type = BENCH_PT_COUNTS, .value = param_global, .unit = "work-items",
	  .help = "the global range launched, OpenCL's order (rows rounded up to a multiple of R)" },
	{ "groups", .type = BENCH_PT_COUNT, AT(groups), .unit = "work-groups", .help = "launched" },
	{ "work_items", .type = BENCH_PT_COUNT, AT(items), .unit = "work-items", .help = "launched" },
	{ "spin", .type = BENCH_PT_COUNT, AT(spin), .help = "dependent rounds per work-item" },
	{ "sg_size_requested", .type = BENCH_PT_COUNT0, AT(sg_req), .unit = "work-items",
	  .help = "the sub-group size required (null: none)" },
	{ "sg_size_kernel", .type = BENCH_PT_COUNT0, AT(sg_kernel), .unit = "work-items",
	  .help = "the sub-group size the kernel saw" },
	{ "simd", .type = BENCH_PT_COUNT0, AT(simd), .unit = "lanes", .help = "null where unknown" },
	BENCH_PARAMS_SG_LAYER(true, struct barrier_point, sgc),
	{ 0 } };

const struct bench_row barrier_row = {
	.cmd = {
		.name = "barrier",
		.summary = "the guide's barrier table: a 3-D ND-range, local (1, R, 128), R = 1..5",
		.synopsis = "usage: bench barrier [options]\n"
			    "  The guide's kernel with a barrier over global (64, 64, 128), local (1, R, 128)\n"
			    "  (SYCL's order; OpenCL's (128, R, 1)): each R launched, validated, its resident\n"
			    "  work-groups measured and timed beside the model; a local range the driver\n"
			    "  refuses is a skipped point with the driver's error. Then the model's table\n"
			    "  for the guide's TGL at SIMD 8.\n",
		.flags = BENCH_DEVICE | BENCH_SG | BENCH_SG_NATIVE,
		.opts = barrier_cli,
		.opts_size = sizeof(struct occ_opts),
		.check = barrier_check,
	},
	.params_size = sizeof(struct barrier_point),
	.plan = barrier_plan,
	.label = barrier_label,
	.point = barrier_point,
	.params = barrier_params,
	.cols = barrier_cols,
	.title = barrier_title,
	.report = barrier_report,
	.teardown = occ_teardown,
	.builds = barrier_builds,
	.checks = barrier_checks,
};
