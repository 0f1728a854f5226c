/*
 * The document of a run on several devices, and the figures of devices measured at once.
 * The document is the harness's own for one device (results/README.md) with every device:
 * `devices` (each record with its `label`), `device_runs` (each run's own members: its
 * model, kernel, phases, time origin ...), `points` (each naming its `device`, and with
 * --concurrent whether it ran alone or at once) and `concurrent` (the figures at once).
 */
#define HARNESS_LAYER HARNESS_LAYER_MULTI
#include "multi.h"

#include <math.h>
#include <string.h>

/* Members of a run's document stated once at the top of the document of several. */
/* What the document of several devices holds once, not per run. */
static const char *const shared_keys[] = { "schema_version", "tool", "timestamp", "end_timestamp",
					   "command", "host", "environment", "device_hierarchy",
					   "device", "benchmark", "points", "settings", NULL };

/* The document of unit i's run in phase p: finished, or the run in flight (NULL: none). */
static json_t *doc_of(const struct multi *m, size_t i, int p, const struct bench_run *inflight)
{
	const struct multi_unit *u = &m->u[i];

	if (u->doc[p])
		return u->doc[p];
	if (p == MULTI_TOGETHER && u->run)
		return u->run->doc;
	if (inflight && inflight->sess == &u->s && p == m->phase)
		return inflight->doc;
	return NULL;
}

/* device_runs[k]: whose run, how it ended, where its points are, and its own members. */
static json_t *run_json(const struct multi *m, size_t i, int p, json_t *doc, size_t first)
{
	json_t *r = json_object();
	bool done = m->u[i].doc[p] != NULL;

	json_object_set_new(r, "device", json_string(m->ds.label[i]));
	json_object_set_new(r, "concurrent", json_boolean(p == MULTI_TOGETHER));
	json_object_set_new(r, "exit_code", done ? json_integer(m->u[i].rc[p]) : json_null());
	harness_run_members(r, doc, first, shared_keys);
	return r;
}

/* Sums each phase's seconds over the runs. */
static void add_phases(json_t *sum, const json_t *phases)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)phases, k, v) {
		double have = json_number_value(json_object_get(sum, k));
		json_object_set_new(sum, k, json_real(have + json_number_value(v)));
	}
}

/* The counts `interrupted` states: points done and planned, runs done and planned. */
struct tally {
	size_t points_done, points_planned, runs_done, runs_planned;
	const char *by;
};

static void tally_run(struct tally *t, const json_t *doc, bool finished)
{
	const json_t *it = json_object_get(doc, "interrupted");
	size_t n = json_array_size(json_object_get(doc, "points"));

	if (it) {
		t->points_done += (size_t)json_integer_value(json_object_get(it, "points_done"));
		t->points_planned += (size_t)json_integer_value(json_object_get(it, "points_planned"));
		t->by = t->by ? t->by : json_string_value(json_object_get(it, "by"));
	} else {
		t->points_done += n;
		t->points_planned += n;
	}
	t->runs_done += finished && !it;
}

/* Appends a run's points, each naming its device (the harness wrote it). */
static void add_points(json_t *points, const json_t *doc)
{
	size_t k;
	json_t *p;

	json_array_foreach(json_object_get(doc, "points"), k, p)
		json_array_append(points, p);
}

json_t *multi_doc(const struct multi *m, const struct bench_run *inflight, const char *by)
{
	json_t *doc = res_doc_new(cli_argc, cli_argv, m->ds.dev[0], harness_benchmark(m->j->row));
	json_t *devices = json_array(), *runs = json_array(), *points = json_array();
	json_t *phases = json_object(), *settings = NULL;
	int n_phases = m->co->concurrent ? MULTI_PHASES : 1;
	struct tally t = { .runs_planned = m->ds.n * (size_t)n_phases, .by = by };

	json_object_set_new(doc, "timestamp", json_string(m->started));
	json_object_del(doc, "points");
	for (size_t i = 0; i < m->ds.n; i++) {
		json_t *d = dev_to_json(m->ds.dev[i]);
		json_object_set_new(d, "label", json_string(m->ds.label[i]));
		json_array_append_new(devices, d);
	}
	for (int p = 0; p < n_phases; p++)
		for (size_t i = 0; i < m->ds.n; i++) {
			json_t *rd = doc_of(m, i, p, inflight);
			if (!rd)
				continue;
			settings = settings ? settings : json_object_get(rd, "settings");
			json_array_append_new(runs, run_json(m, i, p, rd, json_array_size(points)));
			add_points(points, rd);
			add_phases(phases, json_object_get(rd, "phases_s"));
			tally_run(&t, rd, m->u[i].doc[p] != NULL);
		}
	json_object_set_new(doc, "devices", devices);
	if (settings)
		json_object_set(doc, "settings", settings);
	json_object_set_new(doc, "device_runs", runs);
	if (json_object_size(phases))
		json_object_set_new(doc, "phases_s", phases);
	else
		json_decref(phases);
	if (m->together)
		json_object_set(doc, "concurrent", m->together);
	if (t.runs_done < t.runs_planned)
		json_object_set_new(doc, "interrupted", json_pack("{s:s, s:I, s:I, s:I, s:I}", "by",
			t.by ? t.by : watch_signal() ? watch_sig_name(watch_signal()) : "error",
			"points_done", (json_int_t)t.points_done, "points_planned", (json_int_t)t.points_planned,
			"runs_done", (json_int_t)t.runs_done, "runs_planned", (json_int_t)t.runs_planned));
	json_object_set_new(doc, "points", points);
	return doc;
}

/* ---- the figures at once ---- */

/* The point of a run's document in phase alone, by index (NULL: none). */
static const json_t *alone_point(const struct multi *m, size_t i, size_t k)
{
	const json_t *doc = m->u[i].doc[MULTI_ALONE];

	return doc ? json_array_get(json_object_get(doc, "points"), k) : NULL;
}

static json_t *num_or_null(double v)
{
	return v > 0 && isfinite(v) ? json_real(v) : json_null();
}

/* One device's figures of point k: at once, and alone. */
static json_t *device_json(const struct multi *m, size_t i, const struct bench_point *pt, size_t k,
			   double *gbps, double *alone_gbps)
{
	const json_t *a = alone_point(m, i, k);
	bool ok = pt->status == POINT_OK && pt->n;
	double am = a ? json_number_value(json_object_get(json_object_get(a, "time_ns"), "median")) : 0;

	*gbps = ok ? bench_point_gbps(pt) : 0;
	*alone_gbps = a ? json_number_value(json_object_get(json_object_get(a, "metrics"), "gbps")) : 0;
	return json_pack("{s:s, s:s, s:I, s:o, s:o, s:o, s:o}", "device", m->ds.label[i],
			 "status", bench_status_names[pt->status], "launches", (json_int_t)pt->n,
			 "median_ns", num_or_null(ok ? pt->time.median : 0), "gbps", num_or_null(*gbps),
			 "alone_median_ns", num_or_null(am), "alone_gbps", num_or_null(*alone_gbps));
}

/* Point k across the runs: each device, the sums, the wall-clock figure and the overlap. */
static json_t *point_json(const struct multi *m, struct bench_run *const *runs, size_t n, size_t k)
{
	json_t *o = json_object(), *devs = json_array();
	double sum = 0, alone = 0, bytes = 0, lo = INFINITY, hi = 0, last_start = 0, first_end = INFINITY;
	bool all_rates = true, all_alone = true;
	char label[128];

	harness_point_label(runs[0], k, label, sizeof(label));
	for (size_t i = 0; i < n; i++) {
		const struct bench_point *pt = &runs[i]->points[k];
		double g, ag;
		json_array_append_new(devs, device_json(m, i, pt, k, &g, &ag));
		all_rates &= g > 0;
		all_alone &= ag > 0;
		sum += g;
		alone += ag;
		if (pt->n && pt->win_t1 > pt->win_t0) {
			bytes += pt->bytes * (double)pt->n;
			lo = fmin(lo, pt->win_t0);
			hi = fmax(hi, pt->win_t1);
			last_start = fmax(last_start, pt->win_t0);
			first_end = fmin(first_end, pt->win_t1);
		} else {
			all_rates = false;
		}
	}
	json_object_set_new(o, "point", json_integer((json_int_t)k));
	json_object_set_new(o, "label", json_string(label));
	json_object_set_new(o, "devices", devs);
	json_object_set_new(o, "sum_gbps", num_or_null(all_rates ? sum : 0));
	json_object_set_new(o, "alone_sum_gbps", num_or_null(all_alone ? alone : 0));
	json_object_set_new(o, "of_alone_sum", num_or_null(all_rates && all_alone ? sum / alone : 0));
	json_object_set_new(o, "wall_gbps", num_or_null(all_rates && hi > lo ? bytes / (hi - lo) : 0));
	json_object_set_new(o, "overlap", hi > lo && lo < INFINITY
				  ? json_real(fmax(0, first_end - last_start) / (hi - lo)) : json_null());
	return o;
}

json_t *multi_together_json(const struct multi *m, struct bench_run *const *runs, size_t n)
{
	json_t *o = json_object(), *labels = json_array(), *pts = json_array();
	size_t np = SIZE_MAX;

	for (size_t i = 0; i < n; i++) {
		json_array_append_new(labels, json_string(m->ds.label[i]));
		np = runs[i]->n_points < np ? runs[i]->n_points : np;
	}
	for (size_t i = 0; i < n; i++)   /* the points every run completed */
		np = m->u[i].done < np ? m->u[i].done : np;
	for (size_t k = 0; k < np; k++)
		json_array_append_new(pts, point_json(m, runs, n, k));
	json_object_set_new(o, "devices", labels);
	json_object_set_new(o, "method", json_string(
		"each device alone first, in turn (the points with concurrent false), then every device "
		"at once, a host thread each, each point and its timed launches started together; a "
		"device that reaches its "
		"own --reps goes on launching, every launch timed, while another is still short of its "
		"own (at most --max-reps, 1000), so each device's figures are taken under the others' "
		"load. sum_gbps: the devices' GB/s at once added; alone_sum_gbps: their GB/s alone "
		"added; wall_gbps: all bytes moved at once over the span from the first timed launch "
		"to the last; overlap: the share of that span in which every device was launching"));
	json_object_set_new(o, "points", pts);
	return o;
}

/* ---- the table ---- */

static void cell_num(char *b, size_t n, const json_t *v, const char *fmt, double scale)
{
	if (json_is_number(v))
		snprintf(b, n, fmt, json_number_value(v) * scale);
	else
		snprintf(b, n, "-");
}

void multi_together_print(const struct multi *m, const json_t *together)
{
	static const char *const head[] = { "Point", "Device", "alone GB/s", "at once GB/s", "of alone",
					    "alone us", "at once us", "overlap" };
	char c[8][BENCH_LABEL_LEN];
	const char *cells[8];
	struct table t;
	size_t k, i;
	json_t *p, *d;

	(void)m;
	for (i = 0; i < 8; i++)
		cells[i] = c[i];
	table_init(&t, 8, head);
	json_array_foreach(json_object_get(together, "points"), k, p) {
		json_array_foreach(json_object_get(p, "devices"), i, d) {
			double g = json_number_value(json_object_get(d, "gbps"));
			double a = json_number_value(json_object_get(d, "alone_gbps"));
			snprintf(c[0], sizeof(c[0]), "%s", json_string_value(json_object_get(p, "label")));
			snprintf(c[1], sizeof(c[1]), "%s", json_string_value(json_object_get(d, "device")));
			cell_num(c[2], sizeof(c[2]), json_object_get(d, "alone_gbps"), "%.2f", 1);
			cell_num(c[3], sizeof(c[3]), json_object_get(d, "gbps"), "%.2f", 1);
			snprintf(c[4], sizeof(c[4]), g > 0 && a > 0 ? "%.3f" : "-", g > 0 && a > 0 ? g / a : 0);
			cell_num(c[5], sizeof(c[5]), json_object_get(d, "alone_median_ns"), "%.2f", 1e-3);
			cell_num(c[6], sizeof(c[6]), json_object_get(d, "median_ns"), "%.2f", 1e-3);
			snprintf(c[7], sizeof(c[7]), " ");
			table_add(&t, cells);
		}
		snprintf(c[1], sizeof(c[1]), "all %zu (sum; wall %s GB/s)", json_array_size(json_object_get(p, "devices")),
			 json_is_number(json_object_get(p, "wall_gbps")) ? "" : "-");
		if (json_is_number(json_object_get(p, "wall_gbps")))
			snprintf(c[1], sizeof(c[1]), "all %zu (sum; wall %.2f GB/s)",
				 json_array_size(json_object_get(p, "devices")),
				 json_number_value(json_object_get(p, "wall_gbps")));
		cell_num(c[2], sizeof(c[2]), json_object_get(p, "alone_sum_gbps"), "%.2f", 1);
		cell_num(c[3], sizeof(c[3]), json_object_get(p, "sum_gbps"), "%.2f", 1);
		cell_num(c[4], sizeof(c[4]), json_object_get(p, "of_alone_sum"), "%.3f", 1);
		snprintf(c[5], sizeof(c[5]), "-");
		snprintf(c[6], sizeof(c[6]), "-");
		cell_num(c[7], sizeof(c[7]), json_object_get(p, "overlap"), "%.2f", 1);
		table_add(&t, cells);
	}
	printf("\n%s: each device alone, then all %zu at once\n", cli_cmd,
	       json_array_size(json_object_get(together, "devices")));
	table_print(&t, stdout);
	table_free(&t);
	fflush(stdout);
}
