/*
 * bench occupancy --waves: each work-group does the same fixed work (the probe's
 * chain); the launch time against the number of groups steps up where the device
 * runs out of room for another group, once per wave.
 *
 * A step is where one more group (G to G + 1) costs more than a quarter of one
 * group's time: within a wave the time also grows, gradually, because the groups
 * on a compute unit share its issue slots, so only single-group increments can
 * tell a step from that slope. The default sweep has G and G + 1 at each multiple
 * of the model's capacity.
 */
#include "occupancy_host.h"

#include "timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const waves_head[] = { "Groups", "Model waves", "median us", "CV %", "t / t(1)",
					  "Status" };
#define WAVES_NCOLS (sizeof(waves_head) / sizeof(waves_head[0]))

/* 1, then fractions and multiples of the capacity c, with c +- 1 at each step. */
static void default_groups(uint64_t c, struct range *r)
{
	static const double f[] = { 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3 };
	uint64_t v[64];
	size_t n = 0;

	v[n++] = 1;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		uint64_t g = (uint64_t)llround(f[i] * (double)c);
		if (f[i] == floor(f[i])) {
			v[n++] = g > 1 ? g - 1 : 1;
			v[n++] = g;
			v[n++] = g + 1;
		} else {
			v[n++] = g ? g : 1;
		}
	}
	r->v = malloc(n * sizeof(*r->v));
	r->n = 0;
	for (size_t i = 0; i < n; i++)   /* ascending, no repeats */
		if (r->n == 0 || v[i] > r->v[r->n - 1])
			r->v[r->n++] = v[i];
}

/* Validated first launch, then the timed ones; returns the median time (ns), 0 on failure. */
static double time_point(struct bench_session *s, struct probe_kernel *pk, struct probe_bufs *b,
			 unsigned wg, uint64_t groups, unsigned spin, json_t *pt)
{
	unsigned reps = s->opts->reps;
	double *t = calloc(2 * (size_t)reps, sizeof(double));
	struct time_launch l = { pk->k, (size_t)(groups * wg), wg };
	struct probe_result r;
	struct stats st = { 0 };
	char err[4096];
	bool ok = t && probe_launch(s, pk, b, wg, groups, spin, &r, err, sizeof(err)) &&
		  time_run(s->pc.q, time_enqueue_launch, &l, s->opts->warmup, reps, t, t + reps, err,
			   sizeof(err));

	point_set_status(pt, ok ? "ok" : "failed", ok ? NULL : err);
	if (ok) {
		json_object_set_new(pt, "validated", json_true());
		point_set_times(pt, t, t + reps, reps);
		stats_compute(t, reps, &st);
	}
	free(t);
	return ok ? st.median : 0;
}

int occ_waves_run(struct bench_session *s, struct occ_opts *o)
{
	struct probe_cfg cfg = { (unsigned)o->wg.v[0], o->sg.n ? (unsigned)o->sg.v[0] : 0, o->slm.v[0],
				 o->barrier_on && !o->barrier_off };
	unsigned spin = o->spin ? o->spin : 16384, simd = cfg.sg ? cfg.sg : s->dev->nv_warp_size;
	struct probe_kernel pk;
	struct probe_bufs b = { 0 };
	struct occ_result mr;
	struct table t;
	char err[16384];
	double t1 = 0;
	double prev_med = 0;
	json_t *steps = json_array();

	if (!probe_build(s, &cfg, &pk, err, sizeof(err)))
		die(EXIT_FAIL, "%s", err);
	json_decref(session_model(s, &pk.res, cfg.wg, simd, cfg.barrier, 1, &mr));
	uint64_t cap = s->model.known && mr.launchable ? mr.resident_wg : s->dev->compute_units;
	if (!o->groups.n)
		default_groups(cap, &o->groups);
	table_init(&t, WAVES_NCOLS, waves_head);
	for (size_t i = 0; i < o->groups.n; i++) {
		uint64_t g = o->groups.v[i], prev = i ? o->groups.v[i - 1] : 0;
		json_t *pt = point_new(), *pa = json_object();
		char c[WAVES_NCOLS][48];
		const char *cells[WAVES_NCOLS];
		session_progress(s, i, o->groups.n, "waves");
		double med = time_point(s, &pk, &b, cfg.wg, g, spin, pt);
		if (i == 0)
			t1 = med;
		if (med > 0 && prev_med > 0 && g == prev + 1 && med - prev_med > 0.25 * t1)
			json_array_append_new(steps, json_integer((json_int_t)prev));
		prev_med = med;
		json_object_set_new(pa, "wg_size", json_integer(cfg.wg));
		json_object_set_new(pa, "groups", json_integer((json_int_t)g));
		json_object_set_new(pa, "spin", json_integer(spin));
		json_object_set_new(pa, "barrier", json_boolean(cfg.barrier));
		json_object_set_new(pa, "slm_requested", json_integer((json_int_t)cfg.slm));
		json_object_set_new(pt, "params", pa);
		json_object_set_new(pt, "model", session_model(s, &pk.res, cfg.wg, simd, cfg.barrier, g, &mr));
		snprintf(c[0], 48, "%llu", (unsigned long long)g);
		snprintf(c[1], 48, "%llu", (unsigned long long)((g + cap - 1) / cap));
		snprintf(c[2], 48, med > 0 ? "%.2f" : "-", med / 1e3);
		snprintf(c[3], 48, med > 0 ? "%.1f" : "-",
			 med > 0 ? json_real_value(json_object_get(json_object_get(pt, "time_ns"), "cv")) : 0.0);
		snprintf(c[4], 48, med > 0 && t1 > 0 ? "%.2f" : "-", med / (t1 > 0 ? t1 : 1));
		snprintf(c[5], 48, "%s", json_string_value(json_object_get(pt, "status")));
		for (size_t j = 0; j < WAVES_NCOLS; j++)
			cells[j] = c[j];
		table_add(&t, cells);
		session_add_point(s, pt);
	}
	session_progress(s, o->groups.n, o->groups.n, "");
	json_t *sum = json_object();
	json_object_set_new(sum, "model_capacity_wg", json_integer((json_int_t)cap));
	json_object_set_new(sum, "steps_after", steps);
	json_object_set_new(sum, "rule", json_string("one more group (G to G + 1) costs more than a "
						      "quarter of one group's time"));
	json_object_set_new(s->doc, "waves", sum);
	if (!s->opts->quiet) {
		size_t i;
		json_t *v;
		printf("fixed work per group (spin %u) on %s: model capacity %llu work-groups\n", spin,
		       s->dev->name, (unsigned long long)cap);
		table_print(&t, stdout);
		printf("steps after %s", json_array_size(steps) ? "" : "none of the G, G + 1 pairs swept");
		json_array_foreach(steps, i, v)
			printf("%s%lld", i ? ", " : "", (long long)json_integer_value(v));
		printf(" groups (model: every %llu); the gradual rise between steps is the groups "
		       "sharing each compute unit's issue slots\n", (unsigned long long)cap);
	}
	table_free(&t);
	probe_bufs_free(&b);
	probe_kernel_free(&pk);
	return session_finish(s);
}
