/* bench occupancy: the residency sweep against the model, and the fixed-work waves. */
#include "occupancy_host.h"

#include "timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const probe_head[] = {
	"WG", "SIMD", "SLM B", "Barrier", "Groups", "Spin", "Whole", "Occupied", "Per CU", "Items",
	"Model", "Diff", "Limiter", "Status" };
#define PROBE_NCOLS (sizeof(probe_head) / sizeof(probe_head[0]))

/* Largest launch the probe tries: keeps buffers and run time bounded. */
#define PROBE_MAX_ITEMS (1ull << 26)

/* The model's resident work-groups for cfg on the live device (0 when it cannot say). */
static uint64_t model_resident(struct bench_session *s, const struct probe_kernel *pk,
			       const struct probe_cfg *cfg, unsigned simd, uint64_t groups,
			       json_t **model)
{
	struct occ_result r;

	*model = session_model(s, &pk->res, cfg->wg, simd, cfg->barrier, groups, &r);
	return s->model.known && r.launchable ? r.resident_wg : 0;
}

/* Launch size: several times what the device can hold. */
static uint64_t launch_groups(const struct bench_session *s, const struct occ_opts *o,
			      uint64_t predicted, unsigned wg)
{
	uint64_t g = o->fixed_groups;

	if (!g) {
		g = 4 * predicted;
		if (g < 8ull * s->dev->compute_units)
			g = 8ull * s->dev->compute_units;
	}
	if (g * wg > PROBE_MAX_ITEMS)
		g = PROBE_MAX_ITEMS / wg;
	return g ? g : 1;
}

/* Shortest probe launch the calibration accepts, ns: long beside thread wake-up and dispatch. */
#define PROBE_MIN_NS 2e6

/*
 * Doubles spin until the peak has stopped changing for two doublings in a row
 * and a launch lasts at least PROBE_MIN_NS: then every group the device holds
 * overlaps the others.
 */
static bool calibrate(struct bench_session *s, const struct occ_opts *o, struct probe_kernel *pk,
		      struct probe_bufs *b, unsigned wg, uint64_t groups, unsigned *spin,
		      struct probe_result *r, char *err, size_t len)
{
	struct probe_result r2;
	int steady = 0;

	*spin = o->spin ? o->spin : 2048;
	if (!probe_launch(s, pk, b, wg, groups, *spin, r, err, len))
		return false;
	while (!o->spin && (steady < 2 || r->ns < PROBE_MIN_NS) && *spin < (1u << 24)) {
		if (!probe_launch(s, pk, b, wg, groups, *spin * 2, &r2, err, len))
			return false;
		*spin *= 2;
		steady = r2.peak > r->peak ? 0 : steady + 1;
		r2.peak = r2.peak > r->peak ? r2.peak : r->peak;
		*r = r2;
	}
	return true;
}

/* Per rep: the compared peak, the time, and both definitions' peaks. */
struct probe_samples {
	double *peak, *ns, *whole, *occupied;
};

/* Runs reps validated launches and records their samples. */
static bool measure(struct bench_session *s, struct probe_kernel *pk, struct probe_bufs *b,
		    unsigned wg, uint64_t groups, unsigned spin, struct probe_samples *m,
		    struct probe_result *last, char *err, size_t len)
{
	for (unsigned i = 0; i < s->opts->reps; i++) {
		if (!probe_launch(s, pk, b, wg, groups, spin, last, err, len))
			return false;
		m->peak[i] = last->peak;
		m->ns[i] = last->ns;
		m->whole[i] = last->whole;
		m->occupied[i] = last->occupied;
	}
	return true;
}

static json_t *probe_params(const struct probe_cfg *cfg, const struct probe_kernel *pk,
			    unsigned sg_kernel, unsigned simd, uint64_t groups, unsigned spin)
{
	json_t *p = json_object();

	json_object_set_new(p, "wg_size", json_integer(cfg->wg));
	json_object_set_new(p, "sg_size_requested", cfg->sg ? json_integer(cfg->sg) : json_null());
	json_object_set_new(p, "sg_size_kernel", sg_kernel ? json_integer(sg_kernel) : json_null());
	json_object_set_new(p, "simd", simd ? json_integer(simd) : json_null());
	json_object_set_new(p, "slm_requested", json_integer((json_int_t)cfg->slm));
	json_object_set_new(p, "local_mem_kernel", json_integer((json_int_t)pk->res.local_mem));
	json_object_set_new(p, "barrier", json_boolean(cfg->barrier));
	json_object_set_new(p, "groups", json_integer((json_int_t)groups));
	json_object_set_new(p, "spin", json_integer(spin));
	json_object_set_new(p, "nv_registers", pk->res.nv_registers ? json_integer(pk->res.nv_registers)
								    : json_null());
	return p;
}

static void probe_row(struct table *t, const struct bench_session *s, const json_t *pt)
{
	const json_t *pa = json_object_get(pt, "params"), *me = json_object_get(pt, "measured");
	const json_t *mo = json_object_get(pt, "model");
	char c[PROBE_NCOLS][48];
	const char *cells[PROBE_NCOLS];
	long long res = json_integer_value(json_object_get(me, "resident_wg"));
	long long model = json_integer_value(json_object_get(mo, "resident_wg"));
	long long wg = json_integer_value(json_object_get(pa, "wg_size"));
	bool have = me != NULL, known = json_is_true(json_object_get(mo, "known"));
	const json_t *simd = json_object_get(pa, "simd"), *lim = json_object_get(mo, "cu_limiter");

	snprintf(c[0], 48, "%lld", wg);
	snprintf(c[1], 48, json_is_integer(simd) ? "%lld" : "-", (long long)json_integer_value(simd));
	snprintf(c[2], 48, "%lld", (long long)json_integer_value(json_object_get(pa, "local_mem_kernel")));
	snprintf(c[3], 48, "%s", json_is_true(json_object_get(pa, "barrier")) ? "yes" : "no");
	snprintf(c[4], 48, "%lld", (long long)json_integer_value(json_object_get(pa, "groups")));
	snprintf(c[5], 48, "%lld", (long long)json_integer_value(json_object_get(pa, "spin")));
	long long whole = json_integer_value(json_object_get(me, "whole_wg"));
	long long occ = json_integer_value(json_object_get(me, "occupied_wg"));
	bool cpu = s->dev->type & CL_DEVICE_TYPE_CPU;

	/* the compared definition is marked with '*' */
	snprintf(c[6], 48, have ? "%lld%s" : "-", whole, cpu ? "" : "*");
	snprintf(c[7], 48, have ? "%lld%s" : "-", occ, cpu ? "*" : "");
	snprintf(c[8], 48, have ? "%.2f" : "-", (double)res / s->dev->compute_units);
	snprintf(c[9], 48, have ? "%lld" : "-", res * wg);
	snprintf(c[10], 48, known ? "%lld" : "-", model);
	snprintf(c[11], 48, have && known ? "%+lld" : "-", res - model);
	snprintf(c[12], 48, "%s", json_is_string(lim) ? json_string_value(lim) : "-");
	snprintf(c[13], 48, "%s", json_string_value(json_object_get(pt, "status")));
	for (size_t i = 0; i < PROBE_NCOLS; i++)
		cells[i] = c[i];
	table_add(t, cells);
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

/* The measurement: the compared residency (the largest of the reps) and both definitions. */
static json_t *measured_json(const struct probe_samples *m, size_t n, const struct dev_info *d,
			     unsigned wg)
{
	json_t *o = json_object();
	double lo, hi = max_of(m->peak, n, &lo), wlo, olo;

	json_object_set_new(o, "definition", json_string(d->type & CL_DEVICE_TYPE_CPU ? "occupied"
										     : "whole"));
	json_object_set_new(o, "resident_wg", json_integer((json_int_t)hi));
	json_object_set_new(o, "resident_wg_min", json_integer((json_int_t)lo));
	json_object_set_new(o, "per_cu", json_real(hi / d->compute_units));
	json_object_set_new(o, "resident_items", json_integer((json_int_t)hi * wg));
	json_object_set_new(o, "whole_wg", json_integer((json_int_t)max_of(m->whole, n, &wlo)));
	json_object_set_new(o, "occupied_wg", json_integer((json_int_t)max_of(m->occupied, n, &olo)));
	json_object_set_new(o, "samples", samples_json(m->peak, n));
	json_object_set_new(o, "whole_samples", samples_json(m->whole, n));
	json_object_set_new(o, "occupied_samples", samples_json(m->occupied, n));
	return o;
}

/* One configuration: calibrate, grow the launch until over-full, measure, compare. */
static json_t *probe_point(struct bench_session *s, const struct occ_opts *o, struct probe_kernel *pk,
			   const struct probe_cfg *cfg, struct probe_bufs *b)
{
	json_t *pt = point_new(), *model = NULL;
	unsigned simd = cfg->sg ? cfg->sg : s->dev->nv_warp_size, spin = o->spin;
	uint64_t predicted = model_resident(s, pk, cfg, simd, 1, &model), groups;
	struct probe_result r = { 0 };
	unsigned reps = s->opts->reps;
	double *buf = calloc(4 * (size_t)reps, sizeof(double));
	struct probe_samples m = { buf, buf + reps, buf + 2 * reps, buf + 3 * reps };
	char err[4096];
	bool ok = true;

	groups = launch_groups(s, o, predicted, cfg->wg);
	cl_clear_last();
	ok = calibrate(s, o, pk, b, cfg->wg, groups, &spin, &r, err, sizeof(err));
	while (ok && !o->fixed_groups && (uint64_t)r.peak == groups &&
	       2 * groups * cfg->wg <= PROBE_MAX_ITEMS) {
		groups *= 2;
		ok = probe_launch(s, pk, b, cfg->wg, groups, spin, &r, err, sizeof(err));
	}
	ok = ok && measure(s, pk, b, cfg->wg, groups, spin, &m, &r, err, sizeof(err));
	if (!ok && cl_last_code() == CL_INVALID_WORK_GROUP_SIZE) {
		char lim[160];
		snprintf(err, sizeof(err), "the driver refused work-group %u (CL_INVALID_WORK_GROUP_SIZE); %s",
			 cfg->wg, prog_wg_limits(&pk->res, lim, sizeof(lim)));
		point_set_status(pt, "skipped", err);
	} else if (ok && wg_note(cfg->wg, &pk->res, err, sizeof(err))) {
		point_set_status(pt, "ok", err);
	} else {
		point_set_status(pt, ok ? "ok" : "failed", ok ? NULL : err);
	}
	if (ok && !simd && r.sg_kernel) {   /* the model with the width the kernel really ran with */
		simd = r.sg_kernel;
	}
	json_decref(model);
	model_resident(s, pk, cfg, simd, groups, &model);
	json_object_set_new(pt, "params", probe_params(cfg, pk, r.sg_kernel, simd, groups, spin));
	if (ok) {
		struct stats st;
		json_object_set_new(pt, "validated", json_true());
		json_object_set_new(pt, "measured", measured_json(&m, reps, s->dev, cfg->wg));
		stats_compute(m.ns, reps, &st);
		json_object_set_new(pt, "time_ns", res_stats_json(&st, m.ns, reps));
		if ((uint64_t)r.peak >= groups)
			point_set_status(pt, "ok", "the peak equals the launch size: a lower bound only");
	}
	json_object_set_new(pt, "model", model);
	free(buf);
	return pt;
}

/* True when a measured point disagrees with a known model. */
static bool disagrees(const json_t *pt)
{
	const json_t *me = json_object_get(pt, "measured"), *mo = json_object_get(pt, "model");

	return me && json_is_true(json_object_get(mo, "known")) &&
	       json_integer_value(json_object_get(me, "resident_wg")) !=
		       json_integer_value(json_object_get(mo, "resident_wg"));
}

/* Writes the results; with --check, exit 1 naming each point that disagrees with the model. */
static int occ_check_result(struct bench_session *s, const struct occ_opts *o, size_t bad)
{
	const json_t *pt;
	bool fail = false;
	size_t i;

	if (o->check && !s->model.known) {
		fprintf(stderr, "bench occupancy: --check: no model for '%s': %s\n", s->dev->name,
			s->model.note);
		fail = true;
	}
	if (o->check && bad) {
		fprintf(stderr, "bench occupancy: --check: %zu point(s) disagree with the model:\n", bad);
		json_array_foreach(json_object_get(s->doc, "points"), i, pt) {
			const json_t *pa = json_object_get(pt, "params");
			if (!disagrees(pt))
				continue;
			fprintf(stderr, "  wg %lld, slm %lld B, barrier %s: measured %lld, model %lld (%s)\n",
				(long long)json_integer_value(json_object_get(pa, "wg_size")),
				(long long)json_integer_value(json_object_get(pa, "local_mem_kernel")),
				json_is_true(json_object_get(pa, "barrier")) ? "yes" : "no",
				(long long)json_integer_value(json_object_get(json_object_get(pt, "measured"), "resident_wg")),
				(long long)json_integer_value(json_object_get(json_object_get(pt, "model"), "resident_wg")),
				json_string_value(json_object_get(json_object_get(pt, "model"), "cu_limiter")));
		}
		fail = true;
	}
	int rc = session_finish(s);
	return fail ? EXIT_FAIL : rc;
}

int occ_probe_run(struct bench_session *s, struct occ_opts *o)
{
	size_t nsg = o->sg.n ? o->sg.n : 1, n = 0, total, bad = 0;
	struct probe_bufs b = { 0 };
	struct table t;
	char err[16384];

	total = nsg * o->slm.n * (o->barrier_on + o->barrier_off) * o->wg.n;
	table_init(&t, PROBE_NCOLS, probe_head);
	for (size_t isg = 0; isg < nsg; isg++)
		for (size_t islm = 0; islm < o->slm.n; islm++)
			for (int bar = 0; bar < 2; bar++) {
				struct probe_cfg cfg = { 0, o->sg.n ? (unsigned)o->sg.v[isg] : 0,
							 o->slm.v[islm], bar == 1 };
				struct probe_kernel pk;
				if ((bar && !o->barrier_on) || (!bar && !o->barrier_off))
					continue;
				if (!probe_build(s, &cfg, &pk, err, sizeof(err)))
					die(EXIT_FAIL, "%s", err);
				for (size_t iw = 0; iw < o->wg.n; iw++, n++) {
					char label[96];
					cfg.wg = (unsigned)o->wg.v[iw];
					snprintf(label, sizeof(label), "wg=%u sg=%u slm=%llu barrier=%d", cfg.wg,
						 cfg.sg, (unsigned long long)cfg.slm, cfg.barrier);
					session_progress(s, n, total, label);
					json_t *pt = probe_point(s, o, &pk, &cfg, &b);
					probe_row(&t, s, pt);
					if (disagrees(pt))
						bad++;
					session_add_point(s, pt);
				}
				json_object_set_new(s->doc, "kernel", prog_kernel_res_json(
					"occupancy.cl", "occ_probe", pk.opts, &pk.res));
				probe_kernel_free(&pk);
			}
	session_progress(s, total, total, "");
	if (!s->opts->quiet) {
		printf("resident work-groups on %s (%s), %u compute units; * marks the count held to "
		       "the model\n", s->dev->name, s->dev->platform_name, s->dev->compute_units);
		table_print(&t, stdout);
		if (!s->model.known)
			printf("model: %s\n", s->model.note);
	}
	table_free(&t);
	probe_bufs_free(&b);
	return occ_check_result(s, o, bad);
}
