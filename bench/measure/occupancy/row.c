/*
 * bench occupancy: how many work-groups are really resident at once, measured
 * by the probe in kernels/occupancy.cl, beside the model's prediction. (The time of
 * a fixed amount of work per group against the number of groups is bench
 * occupancy-waves, occupancy_waves.c, which `occupancy --waves` runs.)
 *
 * A probe point does not time the standard way: it calibrates the kernel's spin,
 * grows the launch until it is over-full, then runs --reps validated launches
 * whose peak counts (and profiled times) are its samples.
 */
#include "row.h"
#include "host.h"

#include <stdlib.h>
#include <string.h>

/* Largest launch the probe tries: keeps buffers and run time bounded. */
#define PROBE_MAX_ITEMS (1ull << 26)
/* Shortest probe launch the calibration accepts, ns: long beside thread wake-up and dispatch. */
#define PROBE_MIN_NS 2e6
/*
 * On a CPU device, the shortest measured launch, ns. A device's compute units are the host's
 * worker threads there, and on a loaded host the scheduler holds one back for milliseconds at
 * a time: groups that last less than that can all run one after another on the other worker,
 * and the peak under-counts the residency. Once the peak is stable, the spin is scaled so that
 * a launch, and so each group, lasts long beside those slices (one scaling: the host checks
 * every chain it computes, at the cost of a launch).
 */
#define PROBE_MIN_NS_CPU 50e6
/* Without --groups: this many times the model's capacity, at least this many per compute unit. */
#define OCC_GROUPS_X_CAPACITY 4
#define OCC_GROUPS_PER_CU 8
/* Without --spin: the first spin of the calibration (doubled until the peak stops changing). */
#define OCC_SPIN_START 2048

/* ---- options ---- */

static const char *const dispatch_names[] = { "normal", "concurrent" };

#define OO(f) offsetof(struct occ_opts, f)
static const struct cli_opt occ_cli[] = {
	OCC_OPT_WG,
	OCC_OPT_SG,
	OCC_OPT_SLM,
	OCC_OPT_BARRIER,
	{ "groups", "N", CLI_U64, OO(fixed_groups), 1, 1u << 22, .help = "work-groups per launch",
	  .def_note = CLI_XSTR(OCC_GROUPS_X_CAPACITY) " x the model's capacity, at least "
		      CLI_XSTR(OCC_GROUPS_PER_CU) " x compute units; doubled while the peak equals it" },
	{ "spin", "N", CLI_UINT, OO(spin), 1, 1u << 26, .help = "dependent rounds per work-item",
	  .def_note = "from " CLI_XSTR(OCC_SPIN_START) ", doubled until the peak stops changing" },
	{ "check", NULL, CLI_FLAG, OO(check),
	  .help = "exit 1 when a measurement and the model disagree, naming each point" },
	{ "check-driver", NULL, CLI_FLAG, OO(check_driver),
	  .help = "exit 1 when the driver's count (cl_intel_concurrent_dispatch)\n"
		  "and the measurement disagree, or the driver's and the model's,\n"
		  "naming each point (and where the driver offers no count)" },
	{ "dispatch", "MODE", CLI_CHOICE, OO(dispatch), .names = dispatch_names, .n_names = 2,
	  .def = "normal", .help = "normal, or concurrent: the probe launched as a concurrent\n"
				   "dispatch (cl_intel_concurrent_dispatch) of the driver's\n"
				   "count of groups, every one promised to run at once" },
	{ "waves", NULL, CLI_FLAG, OO(waves),
	  .help = "instead: time fixed work per group against the number of groups\n"
		  "(bench occupancy-waves; first --wg, --sg, --slm; --groups RANGE\n"
		  "then sets the sweep)" },
	{ 0 } };

static void occ_check(void *opts, const struct cli_set *given)
{
	struct occ_opts *o = opts;

	(void)given;
	if (o->waves)   /* bench_row_resolve runs bench occupancy-waves for it */
		cli_usage_error("--waves is bench occupancy-waves");
	if (o->dispatch == OCC_DISPATCH_CONCURRENT && o->fixed_groups)
		cli_usage_error("--groups with --dispatch concurrent: the launch is the driver's count "
				"of groups (more are refused)");
}

/* ---- plan ---- */

/* One kernel per (sg, slm, barrier), in the order of the points; the work-group size varies fastest. */
static size_t probe_plan(struct bench_run *r, struct occ_opts *o, struct occ_state *s)
{
	size_t nsg = o->sg.n ? o->sg.n : 1;

	s->kern = bench_alloc(nsg * o->slm.n * 2 * sizeof(*s->kern));
	for (size_t isg = 0; isg < nsg; isg++)
		for (size_t islm = 0; islm < o->slm.n; islm++)
			for (int bar = 0; bar < 2; bar++) {
				struct probe_cfg cfg = { .sg = o->sg.n ? (unsigned)o->sg.v[isg] : 0,
							 .slm = o->slm.v[islm], .barrier = bar == 1 };
				if ((bar && !o->barrier_on) || (!bar && !o->barrier_off))
					continue;
				probe_build(r, &cfg, &s->kern[s->n_kern++]);
			}
	json_object_set_new(r->doc, "kernel", prog_kernel_res_json("occupancy.cl", "occ_probe",
		s->kern[s->n_kern - 1].opts, &s->kern[s->n_kern - 1].res));
	return s->n_kern * o->wg.n;
}

/* ---- one probe point ---- */

static const struct probe_kernel *point_kernel(const struct bench_run *r, size_t i, unsigned *wg)
{
	const struct occ_opts *o = r->opts;
	const struct occ_state *s = r->state;

	*wg = (unsigned)o->wg.v[i % o->wg.n];
	return &s->kern[i / o->wg.n];
}

static void probe_label(const struct bench_run *r, size_t i, char *buf, size_t len)
{
	unsigned wg;
	const struct probe_kernel *pk = point_kernel(r, i, &wg);
	char sg[32] = "";

	if (pk->cfg.sg)
		snprintf(sg, sizeof(sg), " sg=%u", pk->cfg.sg);
	snprintf(buf, len, "wg=%u%s %s slm=%llu", wg, sg, pk->cfg.barrier ? "barrier" : "no-barrier",
		 (unsigned long long)pk->cfg.slm);
}

/* Launch size: several times what the device can hold. */
static uint64_t launch_groups(const struct bench_run *r, uint64_t predicted, unsigned wg)
{
	const struct occ_opts *o = r->opts;
	uint64_t g = o->fixed_groups;

	if (!g) {
		g = OCC_GROUPS_X_CAPACITY * predicted;
		if (g < (uint64_t)OCC_GROUPS_PER_CU * r->dev->compute_units)
			g = (uint64_t)OCC_GROUPS_PER_CU * r->dev->compute_units;
	}
	if (g * wg > PROBE_MAX_ITEMS)
		g = PROBE_MAX_ITEMS / wg;
	return g ? g : 1;
}

/* On a CPU device: the spin scaled, by a power of two, to a launch of PROBE_MIN_NS_CPU. */
static bool lengthen(struct bench_run *r, const struct bench_point *pt, const struct probe_kernel *pk,
		     struct occ_point *a, struct probe_result *res, char *err, size_t len)
{
	struct probe_bufs *b = &((struct occ_state *)r->state)->bufs;
	struct probe_result r2;
	unsigned spin = a->spin;

	while (res->ns * ((double)spin / a->spin) < PROBE_MIN_NS_CPU && spin < (1u << 24))
		spin *= 2;
	if (spin == a->spin)
		return true;
	bench_progress_step(r, pt->index, "spin=%u for a launch of %.0f ms", spin, PROBE_MIN_NS_CPU / 1e6);
	if (!probe_launch(r, pk, b, a->wg, a->groups, spin, &r2, err, len))
		return false;
	a->spin = spin;
	r2.peak = r2.peak > res->peak ? r2.peak : res->peak;
	*res = r2;
	return true;
}

/*
 * Doubles spin until the peak has stopped changing for two doublings in a row
 * and a launch lasts at least PROBE_MIN_NS: then every group the device holds
 * overlaps the others.
 */
static bool calibrate(struct bench_run *r, const struct bench_point *pt, const struct probe_kernel *pk,
		      struct occ_point *a, struct probe_result *res, char *err, size_t len)
{
	const struct occ_opts *o = r->opts;
	struct probe_bufs *b = &((struct occ_state *)r->state)->bufs;
	struct probe_result r2;
	int steady = 0;

	a->spin = o->spin ? o->spin : OCC_SPIN_START;
	bench_progress_step(r, pt->index, "calibrating spin=%u", a->spin);
	if (!probe_launch(r, pk, b, a->wg, a->groups, a->spin, res, err, len))
		return false;
	while (!o->spin && (steady < 2 || res->ns < PROBE_MIN_NS) && a->spin < (1u << 24)) {
		bench_progress_step(r, pt->index, "calibrating spin=%u", a->spin * 2);
		if (!probe_launch(r, pk, b, a->wg, a->groups, a->spin * 2, &r2, err, len))
			return false;
		a->spin *= 2;
		steady = r2.peak > res->peak ? 0 : steady + 1;
		r2.peak = r2.peak > res->peak ? r2.peak : res->peak;
		*res = r2;
	}
	return o->spin || !(r->dev->type & CL_DEVICE_TYPE_CPU) || lengthen(r, pt, pk, a, res, err, len);
}

/* The members of a probe point's params its calibration sets. */
static const char *const occ_calibrated[] = { "spin", "groups", NULL };

/*
 * The reference run's spin and launch (bench suite --baseline, --calibration) in place of a
 * calibration, so that the two runs time the same work: one launch checks that it still lasts
 * at least a quarter of the calibration's least (a loaded host or a clock ramp moves a launch
 * by less) (on a faster device, or a driver that changed, the
 * calibration must differ: then it runs, and *why says so). True: the reference's are set.
 */
static bool reuse(struct bench_run *r, const struct bench_point *pt, const struct probe_kernel *pk,
		  struct occ_point *a, struct probe_result *res, char *why, size_t wlen, char *err,
		  size_t len, bool *ok)
{
	const struct occ_opts *o = r->opts;
	json_t *ref = o->spin || o->fixed_groups || o->dispatch != OCC_DISPATCH_NORMAL
		? NULL : bench_calibrated(r, pt, occ_calibrated);
	unsigned spin;
	uint64_t groups;
	double least = r->dev->type & CL_DEVICE_TYPE_CPU ? PROBE_MIN_NS_CPU : PROBE_MIN_NS;

	*ok = true;
	if (!ref)
		return false;
	spin = (unsigned)json_integer_value(json_object_get(ref, "spin"));
	groups = (uint64_t)json_integer_value(json_object_get(ref, "groups"));
	json_decref(ref);
	if (spin > 1u << 26 || groups * a->wg > PROBE_MAX_ITEMS) {
		snprintf(why, wlen, "calibrated anew: the reference's spin %u, %llu groups are out of "
			 "the probe's range", spin, (unsigned long long)groups);
		return false;
	}
	bench_progress_step(r, pt->index, "spin=%u groups=%llu of the reference", spin,
			    (unsigned long long)groups);
	if (!probe_launch(r, pk, &((struct occ_state *)r->state)->bufs, a->wg, groups, spin, res,
			  err, len)) {
		*ok = false;
		return false;
	}
	if (res->ns < least / 4) {
		snprintf(why, wlen, "calibrated anew: the reference's spin %u gives a launch of %.2f ms "
			 "here, under a quarter of the %.0f ms the probe needs", spin, res->ns / 1e6,
			 least / 1e6);
		return false;
	}
	a->spin = spin;
	a->groups = groups;
	return true;
}

/* Doubles the launch while the peak equals it (then it is only a lower bound). */
static bool overfill(struct bench_run *r, const struct bench_point *pt, const struct probe_kernel *pk,
		     struct occ_point *a, struct probe_result *res, char *err, size_t len)
{
	const struct occ_opts *o = r->opts;
	struct probe_bufs *b = &((struct occ_state *)r->state)->bufs;

	while (!o->fixed_groups && o->dispatch == OCC_DISPATCH_NORMAL && (uint64_t)res->peak == a->groups &&
	       2 * a->groups * a->wg <= PROBE_MAX_ITEMS) {
		a->groups *= 2;
		bench_progress_step(r, pt->index, "groups=%llu", (unsigned long long)a->groups);
		if (!probe_launch(r, pk, b, a->wg, a->groups, a->spin, res, err, len))
			return false;
	}
	return true;
}

/* Runs reps validated launches: their times are the point's samples, their peaks in m. */
static bool measure(struct bench_run *r, struct bench_point *pt, const struct probe_kernel *pk,
		    const struct occ_point *a, struct probe_samples *m, struct probe_result *res,
		    char *err, size_t len)
{
	struct probe_bufs *b = &((struct occ_state *)r->state)->bufs;
	unsigned reps = r->co->reps;

	pt->dev_ns = bench_alloc(2 * (size_t)reps * sizeof(double));
	pt->wall_ns = pt->dev_ns + reps;
	for (unsigned i = 0; i < reps; i++) {
		bench_progress_step(r, pt->index, "groups=%llu spin=%u rep %u/%u",
				    (unsigned long long)a->groups, a->spin, i + 1, reps);
		if (!probe_launch(r, pk, b, a->wg, a->groups, a->spin, res, err, len))
			return false;
		pt->dev_ns[i] = res->ns;
		pt->wall_ns[i] = res->wall_ns;
		m->peak[i] = res->peak;
		m->whole[i] = res->whole;
		m->occupied[i] = res->occupied;
	}
	pt->n = reps;
	stats_compute(pt->dev_ns, reps, &pt->time);
	return true;
}

/* The point's residency (the largest of the reps, typed) and its `measured` object. */
static json_t *measured(const struct bench_run *r, struct occ_point *a, const struct probe_samples *m,
			size_t n)
{
	struct probe_residency res;
	json_t *o = probe_measured_json(r, m, n, a->wg, &res);

	a->measured = true;
	a->resident = res.resident;
	a->resident_min = res.resident_min;
	a->whole = res.whole;
	a->occupied = res.occupied;
	return o;
}

/* The point's outcome: skipped where the driver refused the size, failed, or ok with notes. */
static void probe_status(struct bench_point *pt, const struct probe_kernel *pk, bool ok,
			 const char *err)
{
	const struct occ_point *a = pt->params;
	char buf[256];

	if (!ok && cl_last_code() == CL_INVALID_WORK_GROUP_SIZE)
		bench_skip(pt, "the driver refused work-group %u (CL_INVALID_WORK_GROUP_SIZE); %s", a->wg,
			   prog_wg_limits(&pk->res, buf, sizeof(buf)));
	else if (!ok)
		bench_fail(pt, "%s", err);
	else if (bench_wg_note(a->wg, &pk->res, buf, sizeof(buf)))
		bench_note(pt, "%s", buf);
}

/* --dispatch concurrent: the launch is the driver's count (a point without one fails). */
static bool concurrent_groups(const struct bench_run *r, struct occ_point *a, char *err, size_t len)
{
	const struct occ_opts *o = r->opts;

	if (o->dispatch != OCC_DISPATCH_CONCURRENT)
		return true;
	if (!a->driver.known || !a->driver.groups) {
		snprintf(err, len, "--dispatch concurrent: the driver gave no count of groups for "
			 "work-group %u: %s", a->wg, a->driver.known ? "0" : a->driver.note);
		return false;
	}
	a->groups = a->driver.groups;
	return true;
}

/* One configuration: calibrate, grow the launch until over-full, measure, compare. */
static void probe_point(struct bench_run *r, struct bench_point *pt)
{
	const struct occ_opts *o = r->opts;
	struct occ_point *a = pt->params;
	const struct probe_kernel *pk = point_kernel(r, pt->index, &a->wg);
	unsigned reps = r->co->reps;
	double *buf = bench_alloc(3 * (size_t)reps * sizeof(double));
	struct probe_samples m = { buf, buf + reps, buf + 2 * reps };
	struct probe_result res = { 0 };
	char err[4096], why[256];
	bool ok, reused;

	a->sg_req = pk->cfg.sg;
	a->sgc = r->co->sg_backend ? &pk->sgc : NULL;
	a->slm = pk->cfg.slm;
	a->barrier = pk->cfg.barrier;
	a->local_mem = pk->res.local_mem;
	a->nv_registers = pk->res.nv_registers;
	a->simd = probe_simd(r, pk);
	conc_query(&r->pc, pk->k, a->wg, &a->driver);
	a->groups = launch_groups(r, probe_model_resident(r, pk, a->wg, a->simd), a->wg);
	cl_clear_last();
	why[0] = 0;
	reused = reuse(r, pt, pk, a, &res, why, sizeof(why), err, sizeof(err), &ok);
	ok = ok && concurrent_groups(r, a, err, sizeof(err)) &&
	     (reused || (calibrate(r, pt, pk, a, &res, err, sizeof(err)) &&
			 overfill(r, pt, pk, a, &res, err, sizeof(err)))) &&
	     measure(r, pt, pk, a, &m, &res, err, sizeof(err));
	probe_status(pt, pk, ok, err);
	if (ok && why[0])
		bench_note(pt, "%s", why);
	/* the model with the width the kernel really ran with (not an emulated layer's) */
	if (ok && !a->simd && res.sg_kernel && pk->sgc.backend != SGB_EMULATED)
		a->simd = res.sg_kernel;
	a->sg_kernel = res.sg_kernel;
	bench_point_model(pt, &pk->res, a->wg, a->simd, a->barrier, a->groups);
	if (ok) {
		pt->validated = true;
		pt->extra = json_object();
		json_object_set_new(pt->extra, "measured", measured(r, a, &m, reps));
		json_object_set_new(pt->extra, "calibration", json_string(reused ? "reference" : "own"));
		if (a->resident >= a->groups)
			bench_note(pt, "%s", o->dispatch == OCC_DISPATCH_CONCURRENT
				   ? "every group of the concurrent dispatch was resident at once (the "
				     "driver's count held; more cannot be launched)"
				   : "the peak equals the launch size: a lower bound only");
	}
	if (!pt->extra)
		pt->extra = json_object();
	json_object_set_new(pt->extra, "driver", conc_json(&a->driver));
	free(buf);
}

/* ---- views ---- */



#define PA(pt) ((const struct occ_point *)(pt)->params)
#define CELL(name) static void name(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)

static bool is_cpu(const struct bench_run *r)
{
	return r->dev->type & CL_DEVICE_TYPE_CPU;
}

CELL(cell_wg) { (void)r; snprintf(b, n, "%u", PA(pt)->wg); }
CELL(cell_simd) { (void)r; snprintf(b, n, PA(pt)->simd ? "%u" : "-", PA(pt)->simd); }
CELL(cell_slm) { (void)r; snprintf(b, n, "%llu", (unsigned long long)PA(pt)->local_mem); }
CELL(cell_barrier) { (void)r; snprintf(b, n, "%s", PA(pt)->barrier ? "yes" : "no"); }
CELL(cell_groups) { (void)r; snprintf(b, n, "%llu", (unsigned long long)PA(pt)->groups); }
CELL(cell_spin) { (void)r; snprintf(b, n, "%u", PA(pt)->spin); }
/* the count held to the model is marked with '*' */
CELL(cell_whole)
{
	snprintf(b, n, PA(pt)->measured ? "%llu%s" : "-", (unsigned long long)PA(pt)->whole,
		 is_cpu(r) ? "" : "*");
}
CELL(cell_occupied)
{
	snprintf(b, n, PA(pt)->measured ? "%llu%s" : "-", (unsigned long long)PA(pt)->occupied,
		 is_cpu(r) ? "*" : "");
}
CELL(cell_per_cu)
{
	snprintf(b, n, PA(pt)->measured ? "%.2f" : "-", (double)PA(pt)->resident / r->dev->compute_units);
}
CELL(cell_items)
{
	(void)r;
	snprintf(b, n, PA(pt)->measured ? "%llu" : "-", (unsigned long long)(PA(pt)->resident * PA(pt)->wg));
}
CELL(cell_model)
{
	snprintf(b, n, r->model.known ? "%llu" : "-", pt->model.resident_wg);
}
CELL(cell_diff)
{
	snprintf(b, n, PA(pt)->measured && r->model.known ? "%+lld" : "-",
		 (long long)PA(pt)->resident - (long long)pt->model.resident_wg);
}
CELL(cell_driver)
{
	(void)r;
	if (PA(pt)->driver.offered)
		conc_cell(&PA(pt)->driver, b, n);
	else
		snprintf(b, n, "-");
}
CELL(cell_cu_limiter) { (void)r; snprintf(b, n, "%s", pt->model.cu_limiter ? pt->model.cu_limiter : "-"); }

static const struct bench_col probe_cols[] = {
	{ "WG", cell_wg }, { "SIMD", cell_simd }, { "SLM B", cell_slm }, { "Barrier", cell_barrier },
	{ "Groups", cell_groups }, { "Spin", cell_spin }, { "Whole", cell_whole },
	{ "Occupied", cell_occupied }, { "Per CU", cell_per_cu }, { "Items", cell_items },
	{ "Model", cell_model }, { "Diff", cell_diff }, { "Driver", cell_driver },
	{ "Limiter", cell_cu_limiter },
	{ "Status", bench_cell_status }, { 0 } };

/* ---- the row ---- */

static size_t occ_plan(struct bench_run *r)
{
	struct occ_opts *o = r->opts;
	struct occ_state *s = bench_zalloc(sizeof(*s));

	r->state = s;
	occ_plan_common(r, o, s);
	return probe_plan(r, o, s);
}

static void occ_title(const struct bench_run *r, FILE *f)
{
	fprintf(f, "resident work-groups on %s (%s), %u compute units; * marks the count held to the "
		"model\n", r->dev->name, r->dev->platform_name, r->dev->compute_units);
}

/* What plan builds at --sg b->sg (0: auto), --slm 0: the probe without and with barriers. */
static void occ_builds(struct bench_builds *b)
{
	occ_builds_add(b, true, true);
}

static const struct bench_param probe_params[] = {
	OCC_PARAM_WG,
	{ "sg_size_requested", .type = BENCH_PT_COUNT0, OCC_AT(sg_req), .unit = "work-items",
	  .help = "the sub-group size required (null: none)" },
	{ "sg_size_kernel", .type = BENCH_PT_COUNT0, OCC_AT(sg_kernel), .unit = "work-items",
	  .help = "the sub-group size the kernel saw" },
	{ "simd", .type = BENCH_PT_COUNT0, OCC_AT(simd), .unit = "lanes", .help = "null where unknown" },
	OCC_PARAM_SLM,
	{ "local_mem_kernel", .type = BENCH_PT_COUNT, OCC_AT(local_mem), .unit = "bytes",
	  .help = "CL_KERNEL_LOCAL_MEM_SIZE" },
	OCC_PARAM_BARRIER, OCC_PARAM_GROUPS, OCC_PARAM_SPIN,
	{ "nv_registers", .type = BENCH_PT_COUNT0, OCC_AT(nv_registers),
	  .help = "registers per thread (null but on NVIDIA)" },
	BENCH_PARAMS_SG_LAYER(true, struct occ_point, sgc),
	{ 0 } };

const struct bench_row occupancy_row = {
	.cmd = {
		.name = "occupancy",
		.summary = "measured resident work-groups against the model and the driver (--check)",
		.synopsis = "usage: bench occupancy [options]\n"
			    "  Launches several times more work-groups than the device can hold; each records\n"
			    "  its arrival and departure, and the peak count is the number resident at once.\n"
			    "  Beside it: the model's prediction and the driver's own count\n"
			    "  (cl_intel_concurrent_dispatch, where offered).\n",
		.flags = BENCH_DEVICE | BENCH_SG | BENCH_SG_NATIVE,
		.opts = occ_cli,
		.opts_size = sizeof(struct occ_opts),
		.check = occ_check,
	},
	.params_size = sizeof(struct occ_point),
	.plan = occ_plan,
	.label = probe_label,
	.point = probe_point,
	.params = probe_params,
	.cols = probe_cols,
	.title = occ_title,
	.report = occ_answers_report,
	.teardown = occ_teardown,
	.builds = occ_builds,
	.checks = occ_answers_checks,
};
