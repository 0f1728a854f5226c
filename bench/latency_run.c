/* bench latency: the sweep (chain, device check, timed chases), plateaus and tables. */
#include "latency_host.h"

#include "stats.h"
#include "timing.h"

#include <stdlib.h>
#include <string.h>

enum { V_SINGLE, V_PER_CU, V_LOCAL };
static const char *const lat_variant_names[] = { "single", "per-cu", "local" };

/* One point: what ran and what it measured. */
struct lat_pt {
	int variant;
	uint64_t size, ws, nodes;
	uint32_t chases;
	bool ok;
	double med_ns, cv, ns;     /* ns: per load, overhead subtracted */
	char model[64];            /* the model's occupancy string for the launch */
};

static double cycles_of(const struct bench_session *s, double ns)
{
	return ns * s->dev->clock_mhz / 1e3;
}

/* "1.25 KiB", "48 MiB" */
static const char *fmt_bytes(uint64_t b, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, v == (double)(uint64_t)v ? "%.0f %s" : "%.4g %s", v, unit[u]);
	return buf;
}


/* ---- chain, check, timing ---- */

/* Lays a fresh chain of n nodes `words` apart into buffer m. */
static bool lat_upload(struct bench_session *s, struct lat_plan *p, cl_mem m, uint64_t n,
		       unsigned words, uint64_t seed, char *err, size_t len)
{
	cl_int e;

	chase_build(p->next, p->order, (uint32_t)n, seed);
	for (uint64_t k = 0; k < n; k++)
		p->h_buf[k * words] = p->next[k] * words;
	e = clEnqueueWriteBuffer(s->pc.q, m, CL_TRUE, 0, (size_t)(n * words * 4), p->h_buf, 0, NULL,
				 NULL);
	if (e != CL_SUCCESS)
		snprintf(err, len, "uploading the chain: %s", cl_err_name(e));
	return e == CL_SUCCESS;
}

static cl_int lat_args(const struct lat_plan *p, int v, cl_kernel k, uint64_t n, unsigned loads)
{
	cl_uint cl_loads = loads, cl_n = (cl_uint)n;
	cl_int e = clSetKernelArg(k, 0, sizeof(cl_mem), v == V_LOCAL ? &p->lsrc : &p->buf);

	if (e == CL_SUCCESS)
		e = clSetKernelArg(k, 1, sizeof(cl_mem), &p->state);
	if (v != V_LOCAL)
		return e == CL_SUCCESS ? clSetKernelArg(k, 2, sizeof(cl_loads), &cl_loads) : e;
	if (e == CL_SUCCESS)
		e = clSetKernelArg(k, 2, sizeof(cl_n), &cl_n);
	if (e == CL_SUCCESS)
		e = clSetKernelArg(k, 3, sizeof(cl_loads), &cl_loads);
	if (e == CL_SUCCESS)
		e = clSetKernelArg(k, 4, (size_t)n * 4, NULL);
	return e;
}

static bool state_io(struct bench_session *s, struct lat_plan *p, bool write, size_t words,
		     char *err, size_t len)
{
	cl_int e = write ? clEnqueueWriteBuffer(s->pc.q, p->state, CL_TRUE, 0, words * 4, p->h_state,
						0, NULL, NULL)
			 : clEnqueueReadBuffer(s->pc.q, p->state, CL_TRUE, 0, words * 4, p->h_state,
					       0, NULL, NULL);

	if (e != CL_SUCCESS)
		snprintf(err, len, "%s the chase state: %s", write ? "writing" : "reading",
			 cl_err_name(e));
	return e == CL_SUCCESS;
}

/* One lap on the device from node 0: back at 0, once, having summed every node. */
static bool lat_check(struct bench_session *s, struct lat_plan *p, int v, uint64_t n,
		      unsigned words, char *err, size_t len)
{
	cl_kernel k = v == V_LOCAL ? p->k_local_check : p->k_check;
	struct time_launch l = { k, v == V_LOCAL ? p->local_wg : 1, v == V_LOCAL ? p->local_wg : 1 };
	uint32_t want = chase_lap_sum((uint32_t)n, words);
	double d, w;
	cl_int e;

	p->h_state[0] = 0;
	if (!state_io(s, p, true, 1, err, len))
		return false;
	if ((e = lat_args(p, v, k, n, (unsigned)n)) != CL_SUCCESS) {
		snprintf(err, len, "clSetKernelArg: %s", cl_err_name(e));
		return false;
	}
	if (!time_run(s->pc.q, time_enqueue_launch, &l, 0, 1, &d, &w, err, len) ||
	    !state_io(s, p, false, 3, err, len))
		return false;
	if (p->h_state[0] != 0 || p->h_state[1] != 1 || p->h_state[2] != want) {
		snprintf(err, len, "one lap of %llu loads from node 0 ended at word %u, reached the start "
			 "%u times, summed 0x%08x; one cycle through every node gives word 0, once, "
			 "0x%08x", (unsigned long long)n, p->h_state[0], p->h_state[1], p->h_state[2],
			 want);
		return false;
	}
	return true;
}

static struct time_launch lat_launch(const struct lat_plan *p, int v)
{
	if (v == V_LOCAL)
		return (struct time_launch){ p->k_local, p->local_wg, p->local_wg };
	return (struct time_launch){ p->k_chase, v == V_PER_CU ? p->cus : 1, 1 };
}

/* Median of `reps` launches of 0 loads: what a launch costs without the chase. */
static bool lat_overhead(struct bench_session *s, struct lat_plan *p, int v, uint64_t n,
			 double *med, char *err, size_t len)
{
	unsigned reps = s->opts->reps;
	double *dev = calloc(reps, sizeof(double)), *wall = calloc(reps, sizeof(double));
	struct time_launch l = lat_launch(p, v);
	struct stats st;
	bool ok = dev && wall && lat_args(p, v, l.kernel, n, 0) == CL_SUCCESS &&
		  time_run(s->pc.q, time_enqueue_launch, &l, s->opts->warmup, reps, dev, wall, err, len);

	if (ok) {
		stats_compute(dev, reps, &st);
		*med = st.median;
	}
	free(dev);
	free(wall);
	return ok;
}

/* Starting positions (along the cycle) of the chases, written to the device. */
static bool lat_start(struct bench_session *s, struct lat_plan *p, uint32_t chases, uint64_t n,
		      unsigned words, char *err, size_t len)
{
	for (uint32_t k = 0; k < chases; k++)
		p->h_state[k] = p->order[(uint64_t)k * n / chases] * words;
	return state_io(s, p, true, chases, err, len);
}

/* After `loads` more loads each chase must stand `loads` nodes further along the cycle. */
static bool lat_check_end(struct bench_session *s, struct lat_plan *p, uint32_t chases,
			  uint64_t n, unsigned words, uint64_t loads, char *err, size_t len)
{
	if (!state_io(s, p, false, chases, err, len))
		return false;
	for (uint32_t k = 0; k < chases; k++) {
		uint32_t want = p->order[((uint64_t)k * n / chases + loads) % n] * words;
		if (p->h_state[k] != want) {
			snprintf(err, len, "chase %u ended at word %u after %llu loads; the chain says %u",
				 k, p->h_state[k], (unsigned long long)loads, want);
			return false;
		}
	}
	return true;
}

static void lat_metrics(const struct bench_session *s, const struct lat_pt *t, double overhead,
			json_t *pt)
{
	json_t *m = json_object();
	bool mhz = s->dev->clock_mhz != 0;

	json_object_set_new(m, "ns_per_load", json_real(t->ns));
	json_object_set_new(m, "cycles_per_load", mhz ? json_real(cycles_of(s, t->ns)) : json_null());
	if (!mhz)
		json_object_set_new(m, "cycles_note",
				    json_string("CL_DEVICE_MAX_CLOCK_FREQUENCY reports 0 MHz"));
	json_object_set_new(m, "launch_overhead_ns", json_real(overhead));
	json_object_set_new(pt, "metrics", m);
}

/* Warm-up and timed launches of `loads` loads, then the end positions checked. */
static bool lat_time(struct bench_session *s, const struct latency_opts *o, struct lat_plan *p,
		     struct lat_pt *t, unsigned words, json_t *pt, char *err, size_t len)
{
	const struct common_opts *co = s->opts;
	double *dev = calloc(co->reps, sizeof(double)), *wall = calloc(co->reps, sizeof(double));
	int oi = t->variant == V_PER_CU;
	struct time_launch l = lat_launch(p, t->variant);
	struct stats st;
	bool ok = dev && wall;

	if (ok && t->variant != V_LOCAL && !p->have_overhead[oi]) {
		ok = lat_overhead(s, p, t->variant, t->nodes, &p->overhead_ns[oi], err, len);
		p->have_overhead[oi] = ok;
	}
	ok = ok && lat_start(s, p, t->chases, t->nodes, words, err, len) &&
	     lat_args(p, t->variant, l.kernel, t->nodes, o->loads) == CL_SUCCESS &&
	     time_run(s->pc.q, time_enqueue_launch, &l, co->warmup, co->reps, dev, wall, err, len) &&
	     lat_check_end(s, p, t->chases, t->nodes, words,
			   (uint64_t)(co->warmup + co->reps) * o->loads, err, len);
	double oh = t->variant == V_LOCAL ? 0 : p->overhead_ns[oi];
	if (ok && t->variant == V_LOCAL)   /* its overhead includes copying this chain in */
		ok = lat_overhead(s, p, V_LOCAL, t->nodes, &oh, err, len);
	if (ok) {
		stats_compute(dev, co->reps, &st);
		point_set_times(pt, dev, wall, co->reps);
		t->med_ns = st.median;
		t->cv = st.cv;
		t->ns = (st.median - oh) / o->loads;
		lat_metrics(s, t, oh, pt);
	}
	free(dev);
	free(wall);
	return ok;
}


/* ---- points ---- */

static json_t *lat_params(const struct latency_opts *o, const struct lat_plan *p,
			  const struct lat_pt *t, uint64_t seed)
{
	json_t *j = json_object();

	json_object_set_new(j, "memory", json_string(t->variant == V_LOCAL ? "local" : "global"));
	json_object_set_new(j, "variant", json_string(lat_variant_names[t->variant]));
	json_object_set_new(j, "chases", json_integer(t->chases));
	json_object_set_new(j, "size_bytes", json_integer((json_int_t)t->size));
	json_object_set_new(j, "working_set_bytes", json_integer((json_int_t)t->ws));
	json_object_set_new(j, "nodes", json_integer((json_int_t)t->nodes));
	json_object_set_new(j, "stride_bytes", json_integer(t->variant == V_LOCAL ? 4 : p->stride));
	json_object_set_new(j, "loads", json_integer(o->loads));
	json_object_set_new(j, "seed", json_integer((json_int_t)seed));
	return j;
}

static void lat_point(struct bench_session *s, const struct latency_opts *o, struct lat_plan *p,
		      struct lat_pt *t, uint64_t seed, bool fresh, char *why, size_t wlen)
{
	unsigned words = t->variant == V_LOCAL ? 1 : p->stride_words;
	json_t *pt = point_new();
	char err[2048] = "";
	bool ok = true;

	if (fresh) {   /* a new chain, checked on the device before any timing */
		why[0] = '\0';
		ok = lat_upload(s, p, t->variant == V_LOCAL ? p->lsrc : p->buf, t->nodes, words, seed,
				err, sizeof(err)) &&
		     lat_check(s, p, t->variant, t->nodes, words, err, sizeof(err));
		if (!ok)
			snprintf(why, wlen, "%s", err);
	} else if (why[0]) {
		ok = false;
		snprintf(err, sizeof(err), "%s", why);
	}
	json_object_set_new(pt, "params", lat_params(o, p, t, seed));
	if (ok) {
		json_object_set_new(pt, "validated", json_true());
		ok = lat_time(s, o, p, t, words, pt, err, sizeof(err));
		if (!ok)
			json_object_set_new(pt, "validated", json_false());
	}
	t->ok = ok;
	point_set_status(pt, ok ? "ok" : "failed", ok ? (t->ns <= 0 ? "below the launch "
						"overhead's noise: raise --loads" : NULL) : err);
	struct occ_result mr;   /* chases of one work-item each: one work-group per chase */
	json_object_set_new(pt, "model", session_model_kernel(s, t->variant == V_LOCAL ? p->k_local
									       : p->k_chase,
							      NULL, 1, 0, t->variant == V_LOCAL,
							      t->chases, &mr));
	snprintf(t->model, sizeof(t->model), "%s", model_occupancy_cell(json_object_get(pt, "model")));
	session_add_point(s, pt);
}


/* ---- plateaus and the guide's table ---- */

struct lat_curve {
	uint64_t *ws;
	double *ns;
	size_t n;
	struct chase_plateau pl[64];
	size_t npl;
};

/* One plateau: its label, size range, the next size measured, and latency. */
static json_t *level_json(const struct bench_session *s, const struct lat_curve *c,
			  const struct chase_plateau *q)
{
	json_t *e = json_object();
	bool next = q->last + 1 < c->n;

	json_object_set_new(e, "label", json_string(q->label));
	json_object_set_new(e, "first_bytes", json_integer((json_int_t)q->first_bytes));
	json_object_set_new(e, "last_bytes", json_integer((json_int_t)q->last_bytes));
	json_object_set_new(e, "next_bytes", next ? json_integer((json_int_t)c->ws[q->last + 1])
						  : json_null());
	json_object_set_new(e, "ns", json_real(q->median));
	json_object_set_new(e, "cycles", s->dev->clock_mhz ? json_real(cycles_of(s, q->median))
							 : json_null());
	json_object_set_new(e, "points", json_integer(q->points));
	json_object_set_new(e, "outliers", json_integer(q->outliers));
	return e;
}

static void lat_plateaus(struct bench_session *s, const struct latency_opts *o,
			 const struct lat_plan *p, struct lat_curve *c)
{
	struct chase_rule rule = { o->tol, 3 };
	json_t *j = json_object(), *lv = json_array(), *r = json_object();

	c->npl = chase_plateaus(c->ws, c->ns, c->n, &rule, c->pl, 64);
	chase_label(c->pl, c->npl, p->llc);
	json_object_set_new(r, "tolerance", json_real(o->tol));
	json_object_set_new(r, "min_points", json_integer(rule.min_points));
	json_object_set_new(r, "text", json_string(
		"sizes in order; a size joins the plateau while its latency is within tolerance of "
		"the plateau's median and the plateau's max/min within 1 + 2 x tolerance; one stray "
		"point is skipped when the next fits; at least min_points sizes make a plateau; "
		"neighbouring plateaus whose medians lie within tolerance are joined"));
	json_object_set_new(j, "rule", r);
	json_object_set_new(j, "curve", json_string("single chase, ns per load"));
	json_object_set_new(j, "llc_bytes", json_integer((json_int_t)p->llc));
	json_object_set_new(j, "llc_source", json_string(p->llc_source));
	for (size_t k = 0; k < c->npl; k++)
		json_array_append_new(lv, level_json(s, c, &c->pl[k]));
	json_object_set_new(j, "levels", lv);
	json_object_set_new(s->doc, "plateaus", j);
}

/* The reason of every point that has one (failures, notes). */
static void print_reasons(const struct bench_session *s)
{
	const json_t *pts = json_object_get(s->doc, "points");
	char b[32];

	for (size_t k = 0; k < json_array_size(pts); k++) {
		const json_t *pt = json_array_get(pts, k), *pa = json_object_get(pt, "params");
		const char *r = json_string_value(json_object_get(pt, "reason"));
		if (r)
			printf("  %s %s: %s\n", json_string_value(json_object_get(pa, "variant")),
			       fmt_bytes((uint64_t)json_integer_value(json_object_get(pa, "working_set_bytes")),
					 b, sizeof(b)), r);
	}
}

static void print_plateaus(const struct bench_session *s, const struct lat_curve *c, double tol)
{
	char a[32], b[32], nx[32];

	printf("\nplateaus of the single-chase curve (tolerance %.0f%%, at least 3 sizes):\n",
	       tol * 100);
	if (!c->npl)
		printf("  none found\n");
	for (size_t k = 0; k < c->npl; k++) {
		const struct chase_plateau *q = &c->pl[k];
		printf("  %-20s %10s .. %-10s %8.2f ns", q->label, fmt_bytes(q->first_bytes, a, 32),
		       fmt_bytes(q->last_bytes, b, 32), q->median);
		if (s->dev->clock_mhz)
			printf(" %8.1f cycles", cycles_of(s, q->median));
		if (q->last + 1 < c->n)
			printf("   (boundary: between %s and %s)", b, fmt_bytes(c->ws[q->last + 1], nx, 32));
		printf("\n");
	}
}

/* Seed 003's table (Intel Data Center GPU Max) beside what was measured. */
static void guide_table(struct bench_session *s, const struct lat_curve *c, double local_ns,
		       bool print)
{
	static const struct { const char *level, *ours; double lo, hi; } rows[] = {
		{ "Shared local memory", "local", 30, 30 },
		{ "Xe-core data cache hit", "first-level cache", 50, 50 },
		{ "GPU cache hit", "last-level cache", 150, 200 },
		{ "GPU cache miss", "device memory", 300, 500 },
	};
	json_t *j = json_object(), *lv = json_array();
	uint32_t mhz = s->dev->clock_mhz;

	if (print)
		printf("\nLatencies of Intel's GPU optimization guide (Data Center GPU Max) beside this device's:\n"
		       "  %-24s %-12s %-20s %s\n", "guide level", "guide cycles", "measured level",
		       "measured");
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		double ns = r == 0 ? local_ns : -1;
		for (size_t k = 0; r > 0 && k < c->npl && ns < 0; k++)
			if (strcmp(c->pl[k].label, rows[r].ours) == 0)
				ns = c->pl[k].median;
		json_t *e = json_object();
		json_object_set_new(e, "guide_level", json_string(rows[r].level));
		json_object_set_new(e, "guide_cycles_min", json_real(rows[r].lo));
		json_object_set_new(e, "guide_cycles_max", json_real(rows[r].hi));
		json_object_set_new(e, "measured_level", json_string(rows[r].ours));
		json_object_set_new(e, "measured_ns", ns >= 0 ? json_real(ns) : json_null());
		json_object_set_new(e, "measured_cycles", ns >= 0 && mhz ? json_real(cycles_of(s, ns)) : json_null());
		json_array_append_new(lv, e);
		if (!print)
			continue;
		char seed[32], meas[64];
		snprintf(seed, sizeof(seed), rows[r].lo == rows[r].hi ? "~%.0f" : "~%.0f-%.0f",
			 rows[r].lo, rows[r].hi);
		if (ns < 0)
			snprintf(meas, sizeof(meas), "not found");
		else if (mhz)
			snprintf(meas, sizeof(meas), "%.1f cycles (%.2f ns)", cycles_of(s, ns), ns);
		else
			snprintf(meas, sizeof(meas), "%.2f ns (no clock)", ns);
		printf("  %-24s %-12s %-20s %s\n", rows[r].level, seed, rows[r].ours, meas);
	}
	json_object_set_new(j, "source", json_string("Intel oneAPI GPU Optimization Guide, Data Center GPU Max memory "
						     "system, latency by access type (cycles)"));
	json_object_set_new(j, "levels", lv);
	json_object_set_new(s->doc, "reference", j);
}


/* ---- the sweep ---- */

static const char *const lat_head[] = {
	"Working set", "Nodes", "median us", "CV %", "ns/load", "cycles", "per-CU ns/load",
	"per-CU cycles", "Model occupancy (1 / per-CU)", "status" };
#define LAT_NCOLS (sizeof(lat_head) / sizeof(lat_head[0]))

static void lat_row(const struct bench_session *s, struct table *tb, const struct lat_pt *a,
		    const struct lat_pt *b, const char *name)
{
	char c[LAT_NCOLS][136];
	const char *cells[LAT_NCOLS];
	const struct lat_pt *t = a ? a : b;
	bool mhz = s->dev->clock_mhz != 0;

	if (name)
		snprintf(c[0], 136, "%s", name);
	else
		fmt_bytes(t->ws, c[0], 48);
	snprintf(c[1], 136, "%llu", (unsigned long long)t->nodes);
	snprintf(c[2], 136, a && a->ok ? "%.2f" : "-", a ? a->med_ns / 1e3 : 0);
	snprintf(c[3], 136, a && a->ok ? "%.1f" : "-", a ? a->cv : 0);
	snprintf(c[4], 136, a && a->ok ? "%.2f" : "-", a ? a->ns : 0);
	snprintf(c[5], 136, a && a->ok && mhz ? "%.1f" : "-", a ? cycles_of(s, a->ns) : 0);
	snprintf(c[6], 136, b && b->ok ? "%.2f" : "-", b ? b->ns : 0);
	snprintf(c[7], 136, b && b->ok && mhz ? "%.1f" : "-", b ? cycles_of(s, b->ns) : 0);
	snprintf(c[8], 136, "%s%s%s", a ? a->model : "", a && b ? " / " : "", b ? b->model : "");
	snprintf(c[9], 136, "%s", (!a || a->ok) && (!b || b->ok) ? "ok" : "failed");
	for (size_t i = 0; i < LAT_NCOLS; i++)
		cells[i] = c[i];
	table_add(tb, cells);
}

/* Every size: one chain, checked, then the single and per-CU chases. */
static void lat_sweep(struct bench_session *s, const struct latency_opts *o, struct lat_plan *p,
		      struct table *tb, struct lat_curve *c)
{
	char why[2048] = "";

	for (size_t i = 0; i < o->n_sizes; i++) {
		struct lat_pt a = { .variant = V_SINGLE, .chases = 1 }, b = a;
		uint64_t seed = o->seed + i;
		char label[48];

		a.size = o->sizes[i];
		a.nodes = a.size / p->stride;
		a.ws = a.nodes * p->stride;
		b = a;
		b.variant = V_PER_CU;
		b.chases = p->cus;
		session_progress(s, i, o->n_sizes, fmt_bytes(a.ws, label, sizeof(label)));
		if (o->chases & LAT_SINGLE)
			lat_point(s, o, p, &a, seed, true, why, sizeof(why));
		if (o->chases & LAT_PER_CU)
			lat_point(s, o, p, &b, seed, !(o->chases & LAT_SINGLE), why, sizeof(why));
		lat_row(s, tb, o->chases & LAT_SINGLE ? &a : NULL, o->chases & LAT_PER_CU ? &b : NULL,
			NULL);
		if ((o->chases & LAT_SINGLE) && a.ok) {
			c->ws[c->n] = a.ws;
			c->ns[c->n++] = a.ns;
		}
	}
	session_progress(s, o->n_sizes, o->n_sizes, "");
}

static void lat_free(struct lat_plan *p)
{
	cl_mem m[] = { p->buf, p->state, p->lsrc };
	cl_kernel k[] = { p->k_chase, p->k_check, p->k_local, p->k_local_check };

	for (size_t i = 0; i < 3; i++)
		if (m[i])
			clReleaseMemObject(m[i]);
	for (size_t i = 0; i < 4; i++)
		if (k[i])
			clReleaseKernel(k[i]);
	if (p->prog)
		clReleaseProgram(p->prog);
	free(p->h_buf);
	free(p->next);
	free(p->order);
	free(p->h_state);
}

static json_t *lat_setup_json(const struct bench_session *s, const struct latency_opts *o,
			      const struct lat_plan *p)
{
	json_t *j = json_object();

	json_object_set_new(j, "clock", dev_clock_json(s->dev));
	json_object_set_new(j, "stride_bytes", json_integer(p->stride));
	json_object_set_new(j, "loads", json_integer(o->loads));
	json_object_set_new(j, "per_cu_chases", json_integer(p->cus));
	json_object_set_new(j, "per_cu_note", json_string("one work-group of one work-item per "
		"compute unit; the driver places the groups (one per CU is not guaranteed); "
		"chases start evenly spaced along the same cycle"));
	json_object_set_new(j, "steps_per_octave", json_integer(o->steps));
	json_object_set_new(j, "seed", json_integer((json_int_t)o->seed));
	return j;
}

int latency_run(struct bench_session *s, const struct latency_opts *o, struct lat_plan *p)
{
	struct lat_curve c = { .ws = calloc(o->n_sizes, 8), .ns = calloc(o->n_sizes, 8) };
	struct lat_pt lp = { .variant = V_LOCAL, .chases = 1 };
	const struct dev_info *d = s->dev;
	struct table tb;
	char why[2048] = "";
	bool intel_gpu = d->vendor_kind == DEV_VENDOR_INTEL && (d->type & CL_DEVICE_TYPE_GPU);

	if (!c.ws || !c.ns)
		die(EXIT_FAIL, "out of host memory");
	json_object_set_new(s->doc, "setup", lat_setup_json(s, o, p));
	table_init(&tb, LAT_NCOLS, lat_head);
	lat_sweep(s, o, p, &tb, &c);
	if (o->local_bytes) {
		lp.size = lp.ws = o->local_bytes;
		lp.nodes = o->local_bytes / 4;
		lat_point(s, o, p, &lp, o->seed + o->n_sizes, true, why, sizeof(why));
		lat_row(s, &tb, &lp, NULL, "local memory");
	}
	lat_plateaus(s, o, p, &c);
	if (!s->opts->quiet) {
		printf("latency on %s (%s): random cyclic chain, nodes %u bytes apart, %u loads per "
		       "chase per launch, %u chases in the per-CU variant\n", d->name,
		       d->platform_name, p->stride, o->loads, p->cus);
		if (d->clock_mhz)
			printf("cycles from the nominal clock, CL_DEVICE_MAX_CLOCK_FREQUENCY = %u MHz\n",
			       d->clock_mhz);
		else
			printf("cycles: none (CL_DEVICE_MAX_CLOCK_FREQUENCY reports 0 MHz)\n");
		table_print(&tb, stdout);
		print_reasons(s);
		print_plateaus(s, &c, o->tol);
		printf("  last-level cache for the labels: %llu bytes (%s)\n",
		       (unsigned long long)p->llc, p->llc_source);
	}
	if (intel_gpu || o->guide_table)
		guide_table(s, &c, o->local_bytes && lp.ok ? lp.ns : -1, !s->opts->quiet);
	table_free(&tb);
	lat_free(p);
	free(c.ws);
	free(c.ns);
	return session_finish(s);
}
