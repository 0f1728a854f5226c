/*
 * bench occupancy: how many work-groups are really resident at once, measured
 * by the probe in kernels/occupancy.cl, beside the model's prediction; and
 * (--waves, occupancy_waves.c) the time of a fixed amount of work per group
 * against the number of groups, whose steps show where the device runs out of room.
 *
 * A probe point does not time the standard way: it calibrates the kernel's spin,
 * grows the launch until it is over-full, then runs --reps validated launches
 * whose peak counts (and profiled times) are its samples.
 */
#include "bench.h"
#include "occupancy.h"

#include <stdlib.h>
#include <string.h>

/* Largest launch the probe tries: keeps buffers and run time bounded. */
#define PROBE_MAX_ITEMS (1ull << 26)
/* Shortest probe launch the calibration accepts, ns: long beside thread wake-up and dispatch. */
#define PROBE_MIN_NS 2e6

/* ---- options ---- */

static void parse_sg(void *base, const char *arg)
{
	struct occ_opts *o = base;

	range_free(&o->sg);
	if (strcmp(arg, "auto") != 0)
		cli_range("sg", arg, 1, 128, &o->sg);
}

static void parse_barrier(void *base, const char *arg)
{
	struct occ_opts *o = base;

	o->barrier_on = strcmp(arg, "on") == 0 || strcmp(arg, "both") == 0;
	o->barrier_off = strcmp(arg, "off") == 0 || strcmp(arg, "both") == 0;
	if (!o->barrier_on && !o->barrier_off)
		cli_usage_error("--barrier '%s': allowed on, off or both", arg);
}

#define OO(f) offsetof(struct occ_opts, f)
static const struct cli_opt occ_cli[] = {
	{ "wg", "RANGE", CLI_RANGE, OO(wg), 1, 65535,
	  .help = "work-group sizes (default 32..MAX:32, MAX the device maximum, <= 1024)" },
	{ "sg", "RANGE|auto", CLI_FN, 0, .fn = parse_sg,
	  .help = "required sub-group sizes (cl_intel_required_subgroup_size; default auto);\n"
		  "with --sg-backend, widths of that layer" },
	{ "slm", "RANGE", CLI_SIZE_RANGE, OO(slm), 0, 1ull << 30,
	  .help = "local memory per work-group, bytes: a range of sizes with K/Ki\n"
		  "suffixes, e.g. 0,16Ki,32Ki or 0..48Ki:8Ki (default 0)" },
	{ "barrier", "MODE", CLI_FN, 0, .fn = parse_barrier,
	  .help = "on, off or both (default both): departure after a barrier, or\n"
		  "counted per work-item with no barrier in the kernel" },
	{ "groups", "N", CLI_STR, OO(groups_arg),
	  .help = "work-groups per launch (default: 4 x the model's capacity, at least\n"
		  "8 x compute units; doubled while the peak equals it)" },
	{ "spin", "N", CLI_UINT, OO(spin), 1, 1u << 26,
	  .help = "dependent rounds per work-item (default: from 2048, doubled until\n"
		  "the peak stops changing)" },
	{ "check", NULL, CLI_FLAG, OO(check),
	  .help = "exit 1 when a measurement and the model disagree, naming each point" },
	{ "waves", NULL, CLI_FLAG, OO(waves),
	  .help = "instead: time fixed work per group against the number of groups\n"
		  "(first --wg, --sg, --slm; --groups RANGE then sets the sweep)" },
	{ 0 } };

static void occ_defaults(void *opts)
{
	struct occ_opts *o = opts;

	o->barrier_on = o->barrier_off = true;
}

static void occ_check(void *opts, const struct cli_set *given)
{
	struct occ_opts *o = opts;

	(void)given;
	if (o->groups_arg && o->waves)
		cli_range("groups", o->groups_arg, 1, 1u << 22, &o->groups);
	else if (o->groups_arg)
		o->fixed_groups = cli_u64("groups", o->groups_arg, 1, 1u << 22);
	if (o->waves && o->check)
		cli_usage_error("--check applies to the residency probe, not to --waves");
	if (!o->slm.n)
		cli_size_range("slm", "0", 0, 0, &o->slm);
}

/* ---- plan ---- */

/* Default and bounds of --wg and --slm against the device (exit 2). */
static void plan_check(const struct dev_info *d, struct occ_opts *o)
{
	size_t max = d->max_wg < 1024 ? d->max_wg : 1024;
	char buf[128];

	if (!o->wg.n) {
		snprintf(buf, sizeof(buf), "%zu..%zu:32", max < 32 ? max : 32, max);
		cli_range("wg", buf, 1, 65535, &o->wg);
	}
	for (size_t i = 0; i < o->wg.n; i++)
		if (o->wg.v[i] > d->max_wg)
			cli_usage_error("--wg %llu exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE of '%s': allowed "
					"1..%zu", (unsigned long long)o->wg.v[i], d->name, d->max_wg);
	for (size_t i = 0; i < o->slm.n; i++)
		if (o->slm.v[i] > d->local_mem)
			cli_usage_error("--slm %llu exceeds CL_DEVICE_LOCAL_MEM_SIZE of '%s': allowed 0..%llu",
					(unsigned long long)o->slm.v[i], d->name,
					(unsigned long long)d->local_mem);
}

/*
 * The sub-group backend: --sg-backend, every --sg checked against its widths; without
 * it, as before issue 9: the driver's own sub-groups or none, --sg a size to require.
 */
static void plan_sg(const struct bench_run *r, const struct occ_opts *o, struct occ_state *s)
{
	const struct dev_info *d = r->dev;
	const char *name = r->co->sg_backend;
	char err[1024], buf[128];

	if (!sgb_select(d, name, name ? 0 : SGB_NATIVE_OR_NONE, &s->sgc, err, sizeof(err)) ||
	    !sgb_set_grf(d, &s->sgc, r->co->grf, err, sizeof(err)))
		cli_usage_error("%s", err);
	for (size_t i = 0; i < o->sg.n; i++) {
		struct sgb_choice c = s->sgc;
		if (!name && !dev_can_require_sg(d, (unsigned)o->sg.v[i]))
			cli_usage_error("--sg %llu cannot be required on '%s': supported sizes are %s",
					(unsigned long long)o->sg.v[i], d->name,
					d->has_intel_reqd_sg ? dev_sg_sizes_str(d, buf, sizeof(buf))
							     : "none (no cl_intel_required_subgroup_size)");
		if (!sgb_set_width(d, &c, true, (unsigned)o->sg.v[i], 0, err, sizeof(err)))
			cli_usage_error("%s", err);
	}
}

/* What plan builds at --sg b->sg (0: auto), --slm 0: the probe without and with barriers. */
static void occ_builds(struct bench_builds *b)
{
	char sizes[128], err[1024];
	struct sgb_choice c;

	/* as plan_sg without --sg-backend: the driver's own sub-groups or none, b->sg required */
	prog_sg_choice(b->dev, b->sg, &c);
	if (!sgb_set_grf(b->dev, &c, b->grf_large, err, sizeof(err)))
		cli_usage_error("%s", err);
	for (int bar = 0; bar < 2; bar++) {
		struct probe_cfg cfg = { b->sg, 0, bar == 1 };
		struct bench_build *bb = bench_builds_add(b, "occupancy.cl");
		bench_build_kernel(bb, "occ_probe", bar ? "barrier" : "no-barrier", 0,
				   "--wg (every size 32..MAX:32)");
		probe_options(b->dev, &c, &cfg, bb->options, sizeof(bb->options));
		bb->build = sgb_build_json(b->dev, &c);
		if (b->sg && !dev_can_require_sg(b->dev, b->sg))   /* plan_check's words */
			bench_build_skip(bb, "--sg %u cannot be required on '%s': supported sizes are %s",
					 b->sg, b->dev->name, b->dev->has_intel_reqd_sg
					 ? dev_sg_sizes_str(b->dev, sizes, sizeof(sizes))
					 : "none (no cl_intel_required_subgroup_size)");
	}
}

/* One kernel per (sg, slm, barrier), in the order of the points; the work-group size varies fastest. */
static size_t probe_plan(struct bench_run *r, struct occ_opts *o, struct occ_state *s)
{
	size_t nsg = o->sg.n ? o->sg.n : 1;

	s->kern = bench_alloc(nsg * o->slm.n * 2 * sizeof(*s->kern));
	for (size_t isg = 0; isg < nsg; isg++)
		for (size_t islm = 0; islm < o->slm.n; islm++)
			for (int bar = 0; bar < 2; bar++) {
				struct probe_cfg cfg = { o->sg.n ? (unsigned)o->sg.v[isg] : 0,
							 o->slm.v[islm], bar == 1 };
				if ((bar && !o->barrier_on) || (!bar && !o->barrier_off))
					continue;
				probe_build(r, &cfg, &s->kern[s->n_kern++]);
			}
	json_object_set_new(r->doc, "kernel", prog_kernel_res_json("occupancy.cl", "occ_probe",
		s->kern[s->n_kern - 1].opts, &s->kern[s->n_kern - 1].res));
	return s->n_kern * o->wg.n;
}

static void occ_teardown(struct bench_run *r)
{
	struct occ_opts *o = r->opts;
	struct occ_state *s = r->state;

	for (size_t i = 0; i < s->n_kern; i++)
		probe_kernel_free(&s->kern[i]);
	free(s->kern);
	probe_bufs_free(&s->bufs);
	free(s->steps);
	free(s);
	range_free(&o->wg);
	range_free(&o->sg);
	range_free(&o->slm);
	range_free(&o->groups);
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
		g = 4 * predicted;
		if (g < 8ull * r->dev->compute_units)
			g = 8ull * r->dev->compute_units;
	}
	if (g * wg > PROBE_MAX_ITEMS)
		g = PROBE_MAX_ITEMS / wg;
	return g ? g : 1;
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

	a->spin = o->spin ? o->spin : 2048;
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
	return true;
}

/* Doubles the launch while the peak equals it (then it is only a lower bound). */
static bool overfill(struct bench_run *r, const struct bench_point *pt, const struct probe_kernel *pk,
		     struct occ_point *a, struct probe_result *res, char *err, size_t len)
{
	const struct occ_opts *o = r->opts;
	struct probe_bufs *b = &((struct occ_state *)r->state)->bufs;

	while (!o->fixed_groups && (uint64_t)res->peak == a->groups &&
	       2 * a->groups * a->wg <= PROBE_MAX_ITEMS) {
		a->groups *= 2;
		bench_progress_step(r, pt->index, "groups=%llu", (unsigned long long)a->groups);
		if (!probe_launch(r, pk, b, a->wg, a->groups, a->spin, res, err, len))
			return false;
	}
	return true;
}

/* Per rep: the compared peak and both definitions' peaks. */
struct probe_samples {
	double *peak, *whole, *occupied;
};

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

static double max_of(const double *x, size_t n, double *lo)
{
	double hi = x[0];

	*lo = x[0];
	for (size_t i = 1; i < n; i++) {
		hi = x[i] > hi ? x[i] : hi;
		*lo = x[i] < *lo ? x[i] : *lo;
	}
	return hi;
}

static json_t *samples_json(const double *x, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)x[i]));
	return a;
}

/* The point's residency (the largest of the reps, typed) and its `measured` object. */
static json_t *measured(const struct bench_run *r, struct occ_point *a, const struct probe_samples *m,
			size_t n)
{
	json_t *o = json_object();
	double lo, unused;

	a->measured = true;
	a->resident = (uint64_t)max_of(m->peak, n, &lo);
	a->resident_min = (uint64_t)lo;
	a->whole = (uint64_t)max_of(m->whole, n, &unused);
	a->occupied = (uint64_t)max_of(m->occupied, n, &unused);
	json_object_set_new(o, "definition", json_string(r->dev->type & CL_DEVICE_TYPE_CPU ? "occupied"
											  : "whole"));
	json_object_set_new(o, "resident_wg", json_integer((json_int_t)a->resident));
	json_object_set_new(o, "resident_wg_min", json_integer((json_int_t)a->resident_min));
	json_object_set_new(o, "per_cu", json_real((double)a->resident / r->dev->compute_units));
	json_object_set_new(o, "resident_items", json_integer((json_int_t)(a->resident * a->wg)));
	json_object_set_new(o, "whole_wg", json_integer((json_int_t)a->whole));
	json_object_set_new(o, "occupied_wg", json_integer((json_int_t)a->occupied));
	json_object_set_new(o, "samples", samples_json(m->peak, n));
	json_object_set_new(o, "whole_samples", samples_json(m->whole, n));
	json_object_set_new(o, "occupied_samples", samples_json(m->occupied, n));
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

/* One configuration: calibrate, grow the launch until over-full, measure, compare. */
static void probe_point(struct bench_run *r, struct bench_point *pt)
{
	struct occ_point *a = pt->params;
	const struct probe_kernel *pk = point_kernel(r, pt->index, &a->wg);
	unsigned reps = r->co->reps;
	double *buf = bench_alloc(3 * (size_t)reps * sizeof(double));
	struct probe_samples m = { buf, buf + reps, buf + 2 * reps };
	struct probe_result res = { 0 };
	char err[4096];
	bool ok;

	a->sg_req = pk->cfg.sg;
	a->sgc = r->co->sg_backend ? &pk->sgc : NULL;
	a->slm = pk->cfg.slm;
	a->barrier = pk->cfg.barrier;
	a->local_mem = pk->res.local_mem;
	a->nv_registers = pk->res.nv_registers;
	a->simd = probe_simd(r, pk);
	a->groups = launch_groups(r, probe_model_resident(r, pk, a->wg, a->simd), a->wg);
	cl_clear_last();
	ok = calibrate(r, pt, pk, a, &res, err, sizeof(err)) &&
	     overfill(r, pt, pk, a, &res, err, sizeof(err)) &&
	     measure(r, pt, pk, a, &m, &res, err, sizeof(err));
	probe_status(pt, pk, ok, err);
	/* the model with the width the kernel really ran with (not an emulated layer's) */
	if (ok && !a->simd && res.sg_kernel && pk->sgc.backend != SGB_EMULATED)
		a->simd = res.sg_kernel;
	a->sg_kernel = res.sg_kernel;
	bench_point_model(pt, &pk->res, a->wg, a->simd, a->barrier, a->groups);
	if (ok) {
		pt->validated = true;
		pt->extra = json_object();
		json_object_set_new(pt->extra, "measured", measured(r, a, &m, reps));
		if (a->resident >= a->groups)
			bench_note(pt, "the peak equals the launch size: a lower bound only");
	}
	free(buf);
}

/* ---- views ---- */

static json_t *probe_params_json(const struct occ_point *a)
{
	json_t *p = json_object();

	json_object_set_new(p, "wg_size", json_integer(a->wg));
	json_object_set_new(p, "sg_size_requested", bench_json_uint0(a->sg_req));
	json_object_set_new(p, "sg_size_kernel", bench_json_uint0(a->sg_kernel));
	json_object_set_new(p, "simd", bench_json_uint0(a->simd));
	json_object_set_new(p, "slm_requested", json_integer((json_int_t)a->slm));
	json_object_set_new(p, "local_mem_kernel", json_integer((json_int_t)a->local_mem));
	json_object_set_new(p, "barrier", json_boolean(a->barrier));
	json_object_set_new(p, "groups", json_integer((json_int_t)a->groups));
	json_object_set_new(p, "spin", json_integer(a->spin));
	json_object_set_new(p, "nv_registers", bench_json_uint0(a->nv_registers));
	if (a->sgc)   /* sg_backend, sg_width, sg_width_source, sg_size_required */
		sgb_params(p, a->sgc);
	return p;
}

static json_t *occ_point_json(const struct bench_run *r, const struct bench_point *pt)
{
	return ((const struct occ_opts *)r->opts)->waves ? waves_params_json(pt->params)
							  : probe_params_json(pt->params);
}

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
CELL(cell_cu_limiter) { (void)r; snprintf(b, n, "%s", pt->model.cu_limiter ? pt->model.cu_limiter : "-"); }

static const struct bench_col probe_cols[] = {
	{ "WG", cell_wg }, { "SIMD", cell_simd }, { "SLM B", cell_slm }, { "Barrier", cell_barrier },
	{ "Groups", cell_groups }, { "Spin", cell_spin }, { "Whole", cell_whole },
	{ "Occupied", cell_occupied }, { "Per CU", cell_per_cu }, { "Items", cell_items },
	{ "Model", cell_model }, { "Diff", cell_diff }, { "Limiter", cell_cu_limiter },
	{ "Status", bench_cell_status }, { 0 } };

/* ---- after the points: --check ---- */

/* True when a measured point disagrees with a known model. */
static bool disagrees(const struct bench_run *r, const struct bench_point *pt)
{
	return PA(pt)->measured && r->model.known && PA(pt)->resident != pt->model.resident_wg;
}

/* With --check, exit 1 naming each point that disagrees with the model. */
static int probe_report(struct bench_run *r)
{
	const struct occ_opts *o = r->opts;
	size_t bad = 0;

	if (!r->co->quiet && !r->model.known)
		printf("model: %s\n", r->model.note);
	if (!o->check)
		return EXIT_OK;
	if (!r->model.known)
		fprintf(stderr, "bench %s: --check: no model for '%s': %s\n", cli_cmd, r->dev->name,
			r->model.note);
	for (size_t i = 0; i < r->n_points; i++)
		bad += disagrees(r, &r->points[i]);
	if (bad)
		fprintf(stderr, "bench %s: --check: %zu point(s) disagree with the model:\n", cli_cmd, bad);
	for (size_t i = 0; i < r->n_points; i++) {
		const struct bench_point *pt = &r->points[i];
		if (disagrees(r, pt))
			fprintf(stderr, "  wg %u, slm %llu B, barrier %s: measured %llu, model %llu (%s)\n",
				PA(pt)->wg, (unsigned long long)PA(pt)->local_mem,
				PA(pt)->barrier ? "yes" : "no", (unsigned long long)PA(pt)->resident,
				pt->model.resident_wg, pt->model.cu_limiter ? pt->model.cu_limiter : "-");
	}
	return bad || !r->model.known ? EXIT_FAIL : EXIT_OK;
}

/* ---- the row: the probe, or --waves ---- */

#define WAVES(r) (((const struct occ_opts *)(r)->opts)->waves)

static size_t occ_plan(struct bench_run *r)
{
	struct occ_opts *o = r->opts;
	struct occ_state *s = bench_alloc(sizeof(*s));

	memset(s, 0, sizeof(*s));
	r->state = s;
	plan_check(r->dev, o);
	plan_sg(r, o, s);
	probe_bufs_init(r, &s->bufs);
	r->cols = o->waves ? waves_cols : probe_cols;   /* the two modes have different tables */
	return o->waves ? waves_plan(r) : probe_plan(r, o, s);
}

static void occ_label(const struct bench_run *r, size_t i, char *buf, size_t len)
{
	(WAVES(r) ? waves_label : probe_label)(r, i, buf, len);
}

static void occ_point(struct bench_run *r, struct bench_point *pt)
{
	(WAVES(r) ? waves_point : probe_point)(r, pt);
}

static void occ_title(const struct bench_run *r, FILE *f)
{
	if (WAVES(r))
		waves_title(r, f);
	else
		fprintf(f, "resident work-groups on %s (%s), %u compute units; * marks the count held "
			"to the model\n", r->dev->name, r->dev->platform_name, r->dev->compute_units);
}

static void occ_relate(struct bench_run *r)
{
	if (WAVES(r))
		waves_relate(r);
}

static int occ_report(struct bench_run *r)
{
	return (WAVES(r) ? waves_report : probe_report)(r);
}

const struct bench_ops occupancy_bench = {
	.name = "occupancy",
	.summary = "measured resident work-groups against the model (--check)",
	.synopsis = "usage: bench occupancy [options]\n"
		    "  Launches several times more work-groups than the device can hold; each records\n"
		    "  its arrival and departure, and the peak count is the number resident at once.\n",
	.flags = BENCH_DEVICE | BENCH_SG,
	.opts = occ_cli,
	.opts_size = sizeof(struct occ_opts),
	.defaults = occ_defaults,
	.check = occ_check,
	.params_size = sizeof(struct occ_point),
	.plan = occ_plan,
	.label = occ_label,
	.point = occ_point,
	.params_json = occ_point_json,
	.cols = probe_cols,   /* plan sets waves_cols for --waves */
	.title = occ_title,
	.relate = occ_relate,
	.report = occ_report,
	.teardown = occ_teardown,
	.builds = occ_builds,
};
