/*
 * bench latency: the views of its points. The table draws a size's single and
 * per-CU chases in one row; after it come the points' reasons, the plateaus of
 * the single-chase curve (detected and labelled by host/chase.c) and the
 * latency table of Intel's guide beside what was measured.
 */
#include "host.h"

#include <stdlib.h>
#include <string.h>

const char *lat_fmt_bytes(uint64_t b, char *buf, size_t len)
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

/* ---- the table: one row per size (single, per-CU), then local memory ---- */

#define LP(pt) ((const struct lat_params *)(pt)->params)
#define CELL(name) static void name(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)

bool latency_joins_row(const struct bench_run *r, size_t i)
{
	const struct lat_state *p = r->state;

	return i > 0 && i < p->n_done && LP(&r->points[i])->variant == LAT_PER_CU &&
	       LP(&r->points[i - 1])->variant == LAT_SINGLE;
}

/* The points of pt's row: a the single (or local) chase, b the per-CU one; NULL where absent. */
struct lat_row {
	const struct bench_point *a, *b;
};

static struct lat_row row_of(const struct bench_run *r, const struct bench_point *pt)
{
	size_t next = pt->index + 1;

	if (LP(pt)->variant == LAT_PER_CU)
		return (struct lat_row){ NULL, pt };
	return (struct lat_row){ pt, next < r->n_points && latency_joins_row(r, next)
					     ? &r->points[next] : NULL };
}

static bool lat_ok(const struct bench_point *pt)
{
	return pt && pt->status == POINT_OK;
}

/* What a latency cell shows of a chase. */
enum lat_fig { FIG_NS, FIG_NOMINAL, FIG_KCLOCK };

/* ns per load of pt, its nominal cycles, or its kernel-clock cycles; "-" where none */
static void ns_cell(const struct bench_run *r, const struct bench_point *pt, enum lat_fig fig,
		    char *b, size_t n)
{
	const struct lat_state *p = r->state;
	bool shown = lat_ok(pt) && (fig != FIG_NOMINAL || r->dev->clock_mhz) &&
		     (fig != FIG_KCLOCK || p->kc_cycles[pt->index] >= 0);

	if (!shown)
		snprintf(b, n, "-");
	else if (fig == FIG_NS)
		snprintf(b, n, "%.2f", p->ns[pt->index]);
	else
		snprintf(b, n, "%.1f", fig == FIG_KCLOCK ? p->kc_cycles[pt->index]
							 : lat_cycles(r, p->ns[pt->index]));
}

CELL(cell_ws)
{
	(void)r;
	if (LP(pt)->variant == LAT_LOCAL)
		snprintf(b, n, "local memory");
	else
		lat_fmt_bytes(LP(pt)->ws, b, n);
}
CELL(cell_nodes) { (void)r; snprintf(b, n, "%llu", (unsigned long long)LP(pt)->nodes); }
/* A standard cell of the row's single (or local) chase; "-" in a per-CU-only row. */
static void single_cell(const struct bench_run *r, const struct bench_point *pt,
			void (*cell)(const struct bench_run *, const struct bench_point *, char *, size_t),
			char *b, size_t n)
{
	struct lat_row w = row_of(r, pt);

	if (w.a)
		cell(r, w.a, b, n);
	else
		snprintf(b, n, "-");
}

CELL(cell_median) { single_cell(r, pt, bench_cell_median_us, b, n); }
CELL(cell_cv) { single_cell(r, pt, bench_cell_cv, b, n); }
CELL(cell_ns) { ns_cell(r, row_of(r, pt).a, FIG_NS, b, n); }
CELL(cell_cycles) { ns_cell(r, row_of(r, pt).a, FIG_NOMINAL, b, n); }
CELL(cell_kclock) { ns_cell(r, row_of(r, pt).a, FIG_KCLOCK, b, n); }
CELL(cell_cu_ns) { ns_cell(r, row_of(r, pt).b, FIG_NS, b, n); }
CELL(cell_cu_cycles) { ns_cell(r, row_of(r, pt).b, FIG_NOMINAL, b, n); }
CELL(cell_cu_kclock) { ns_cell(r, row_of(r, pt).b, FIG_KCLOCK, b, n); }
CELL(cell_model)
{
	struct lat_row w = row_of(r, pt);
	char x[48] = "", y[48] = "";

	if (w.a)
		bench_cell_occupancy(r, w.a, x, sizeof(x));
	if (w.b)
		bench_cell_occupancy(r, w.b, y, sizeof(y));
	snprintf(b, n, "%s%s%s", x, w.a && w.b ? " / " : "", y);
}
/* "ok", with the numbers of the row's notes under the table, or "failed" */
CELL(cell_status)
{
	struct lat_row w = row_of(r, pt);
	size_t ka = w.a ? w.a->note_id : 0, kb = w.b ? w.b->note_id : 0;

	(void)r;
	if ((w.a && !lat_ok(w.a)) || (w.b && !lat_ok(w.b)))
		snprintf(b, n, "failed");
	else if (ka && kb && ka != kb)
		snprintf(b, n, "ok (notes %zu, %zu)", ka, kb);
	else if (ka || kb)
		snprintf(b, n, "ok (note %zu)", ka ? ka : kb);
	else
		snprintf(b, n, "ok");
}

const struct bench_col lat_cols[] = {
	{ "Working set", cell_ws }, { "Nodes", cell_nodes }, { "median us", cell_median },
	{ "CV %", cell_cv }, { "ns/load", cell_ns }, { "cycles", cell_cycles },
	{ "clock cycles", cell_kclock }, { "per-CU ns/load", cell_cu_ns },
	{ "per-CU cycles", cell_cu_cycles }, { "per-CU clock cycles", cell_cu_kclock },
	{ "Model occupancy (1 / per-CU)", cell_model }, { "status", cell_status }, { 0 } };

void latency_title(const struct bench_run *r, FILE *f)
{
	const struct latency_opts *o = r->opts;
	const struct lat_state *p = r->state;

	fprintf(f, "latency on %s (%s): random cyclic chain, nodes %u bytes apart, %u loads per "
		"chase per launch, %u chases in the per-CU variant\n", r->dev->name,
		r->dev->platform_name, p->stride, o->loads, p->cus);
	kclock_print_title(f, &p->kc, r->dev->clock_mhz, "clock cycles", LAT_KCLOCK_LAUNCHES);
}

/* The reason of every point that failed (the harness lists the ok points' notes under the table). */
static void print_reasons(const struct bench_run *r)
{
	char b[32];

	for (size_t i = 0; i < r->n_points; i++) {
		const struct bench_point *pt = &r->points[i];
		if (pt->status != POINT_OK && pt->reason[0])
			printf("  %s %s: %s\n", lat_variant_names[LP(pt)->variant],
			       lat_fmt_bytes(LP(pt)->ws, b, sizeof(b)), pt->reason);
	}
}

/* ---- plateaus ---- */

void latency_relate(struct bench_run *r)
{
	const struct latency_opts *o = r->opts;
	struct lat_state *p = r->state;
	struct chase_rule rule = { o->tol, 3 };

	p->curve_ws = bench_alloc(r->n_points * sizeof(*p->curve_ws));
	p->curve_ns = bench_alloc(r->n_points * sizeof(*p->curve_ns));
	p->curve_kc = bench_alloc(r->n_points * sizeof(*p->curve_kc));
	for (size_t i = 0; i < r->n_points; i++) {
		if (LP(&r->points[i])->variant != LAT_SINGLE || !lat_ok(&r->points[i]))
			continue;
		p->curve_ws[p->curve_n] = LP(&r->points[i])->ws;
		p->curve_kc[p->curve_n] = p->kc_cycles[i];
		p->curve_ns[p->curve_n++] = p->ns[i];
	}
	p->npl = chase_plateaus(p->curve_ws, p->curve_ns, p->curve_n, &rule, p->pl,
				sizeof(p->pl) / sizeof(p->pl[0]));
	chase_label(p->pl, p->npl, &p->caches);
}

/* The median kernel-clock cycles per load over plateau q's points; -1 where none was read. */
static double plateau_kclock(const struct lat_state *p, const struct chase_plateau *q)
{
	double v[4096];
	size_t n = 0;

	for (size_t i = q->first; i <= q->last && n < sizeof(v) / sizeof(v[0]); i++)
		if (p->curve_kc[i] >= 0)
			v[n++] = p->curve_kc[i];
	return n ? kclock_median(v, n) : -1;
}

/* One plateau: its label, size range, the next size measured, and latency. */
static json_t *level_json(const struct bench_run *r, const struct chase_plateau *q)
{
	const struct lat_state *p = r->state;
	json_t *e = json_object();
	bool next = q->last + 1 < p->curve_n;

	json_object_set_new(e, "label", json_string(q->label));
	json_object_set_new(e, "first_bytes", json_integer((json_int_t)q->first_bytes));
	json_object_set_new(e, "last_bytes", json_integer((json_int_t)q->last_bytes));
	json_object_set_new(e, "next_bytes", next ? json_integer((json_int_t)p->curve_ws[q->last + 1])
						  : json_null());
	json_object_set_new(e, "ns", json_real(q->median));
	json_object_set_new(e, "cycles", r->dev->clock_mhz ? json_real(lat_cycles(r, q->median))
							 : json_null());
	json_object_set_new(e, "kernel_clock_cycles", plateau_kclock(p, q) >= 0
			    ? json_real(plateau_kclock(p, q)) : json_null());
	json_object_set_new(e, "points", json_integer(q->points));
	json_object_set_new(e, "outliers", json_integer(q->outliers));
	return e;
}

static json_t *plateaus_json(const struct bench_run *r)
{
	const struct latency_opts *o = r->opts;
	const struct lat_state *p = r->state;
	json_t *j = json_object(), *lv = json_array(), *rule = json_object();

	json_object_set_new(rule, "tolerance", json_real(o->tol));
	json_object_set_new(rule, "min_points", json_integer(3));
	json_object_set_new(rule, "text", json_string(
		"sizes in order; a size joins the plateau while its latency is within tolerance of "
		"the plateau's median and the plateau's max/min within 1 + 2 x tolerance; one stray "
		"point is skipped when the next fits; at least min_points sizes make a plateau; "
		"neighbouring plateaus whose medians lie within tolerance are joined"));
	json_object_set_new(j, "rule", rule);
	json_object_set_new(j, "curve", json_string("single chase, ns per load"));
	json_object_set_new(j, "llc_bytes", json_integer((json_int_t)p->caches.llc));
	json_object_set_new(j, "llc_source", json_string(p->caches.llc_source));
	json_object_set_new(j, "l1_bytes", json_integer((json_int_t)p->caches.l1));
	json_object_set_new(j, "l1_source", json_string(p->caches.l1_source));
	json_object_set_new(j, "labels", json_string(
		"from the cache sizes and the working sets a plateau spans: all within l1_bytes, "
		"first-level cache; all above it and within llc_bytes, the last such last-level cache "
		"and others intermediate cache (on a GPU, where no level lies between, the first "
		"last-level cache and others last-level cache (slower part)); all above llc_bytes, device memory; else (a size "
		"unknown (0), or a plateau across one) plateau N, N its place from 1; an l1_bytes at "
		"or above llc_bytes is not used"));
	for (size_t k = 0; k < p->npl; k++)
		json_array_append_new(lv, level_json(r, &p->pl[k]));
	json_object_set_new(j, "levels", lv);
	return j;
}

static void print_plateaus(const struct bench_run *r)
{
	const struct lat_state *p = r->state;
	char a[32], b[32], nx[32];

	printf("\nplateaus of the single-chase curve (tolerance %.0f%%, at least 3 sizes):\n",
	       ((const struct latency_opts *)r->opts)->tol * 100);
	if (!p->npl)
		printf("  none found\n");
	for (size_t k = 0; k < p->npl; k++) {
		const struct chase_plateau *q = &p->pl[k];
		printf("  %-20s %10s .. %-10s %8.2f ns", q->label, lat_fmt_bytes(q->first_bytes, a, 32),
		       lat_fmt_bytes(q->last_bytes, b, 32), q->median);
		if (r->dev->clock_mhz)
			printf(" %8.1f cycles", lat_cycles(r, q->median));
		if (plateau_kclock(p, q) >= 0)
			printf(" %8.1f clock cycles (%s)", plateau_kclock(p, q),
			       kclock_builtin(p->kc.scope));
		if (q->last + 1 < p->curve_n)
			printf("   (boundary: between %s and %s)", b,
			       lat_fmt_bytes(p->curve_ws[q->last + 1], nx, 32));
		printf("\n");
	}
	printf("  labels from the sizes: first-level cache %llu bytes (%s); last-level cache %llu "
	       "bytes (%s)\n", (unsigned long long)p->caches.l1, p->caches.l1_source,
	       (unsigned long long)p->caches.llc, p->caches.llc_source);
}

/* ---- the guide's table (Intel Data Center GPU Max) beside what was measured ---- */

/* The guide's latency table (results/suites/guide-figures.json): access type, cycles, our level. */
#define GUIDE_LATENCY_TABLE "latency-max"

struct guide_row {
	const char *level, *ours;
	double lo, hi;   /* cycles */
};

static struct guide_row guide_row_of(json_t *row)
{
	return (struct guide_row){ json_string_value(json_object_get(row, "key")),
				   json_string_value(json_object_get(row, "ours_level")),
				   json_number_value(json_object_get(row, "cycles_min")),
				   json_number_value(json_object_get(row, "cycles_max")) };
}

/* The measured ns of our level `ours`: the local point, or the plateau of its label; -1: none. */
static double guide_measured(const struct bench_run *r, const char *ours)
{
	const struct lat_state *p = r->state;
	const struct bench_point *last = r->n_points ? &r->points[r->n_points - 1] : NULL;

	if (strcmp(ours, "local") == 0)
		return last && LP(last)->variant == LAT_LOCAL && lat_ok(last) ? p->ns[last->index] : -1;
	for (size_t i = 0; i < p->npl; i++)
		if (strcmp(p->pl[i].label, ours) == 0)
			return p->pl[i].median;
	return -1;
}

static json_t *guide_json(const struct bench_run *r, const struct guide_row *g, double ns)
{
	json_t *e = json_object();
	bool mhz = r->dev->clock_mhz != 0;

	json_object_set_new(e, "guide_level", json_string(g->level));
	json_object_set_new(e, "guide_cycles_min", json_real(g->lo));
	json_object_set_new(e, "guide_cycles_max", json_real(g->hi));
	json_object_set_new(e, "measured_level", json_string(g->ours));
	json_object_set_new(e, "measured_ns", ns >= 0 ? json_real(ns) : json_null());
	json_object_set_new(e, "measured_cycles",
			    ns >= 0 && mhz ? json_real(lat_cycles(r, ns)) : json_null());
	return e;
}

static void guide_print(const struct bench_run *r, const struct guide_row *g, double ns)
{
	char cyc[32], meas[64];

	snprintf(cyc, sizeof(cyc), g->lo == g->hi ? "~%.0f" : "~%.0f-%.0f", g->lo, g->hi);
	if (ns < 0)
		snprintf(meas, sizeof(meas), "not found");
	else if (r->dev->clock_mhz)
		snprintf(meas, sizeof(meas), "%.1f cycles (%.2f ns)", lat_cycles(r, ns), ns);
	else
		snprintf(meas, sizeof(meas), "%.2f ns (no clock)", ns);
	printf("  %-24s %-12s %-20s %s\n", g->level, cyc, g->ours, meas);
}

static json_t *guide_table(const struct bench_run *r, bool print)
{
	char err[512];
	json_t *t = bench_figures_table(BENCH_FIGURES_FILE, GUIDE_LATENCY_TABLE, err, sizeof(err));
	json_t *j = json_object(), *lv = json_array(), *row;
	size_t k;

	if (!t)
		cli_die(EXIT_FAIL, "bench bug: %s", err);
	if (print)
		printf("\nLatencies of Intel's GPU optimization guide (%s) beside this device's:\n  %-24s "
		       "%-12s %-20s %s\n", json_string_value(json_object_get(t, "device")), "guide level",
		       "guide cycles", "measured level", "measured");
	json_array_foreach(json_object_get(t, "rows"), k, row) {
		struct guide_row g = guide_row_of(row);
		double ns = guide_measured(r, g.ours);
		json_array_append_new(lv, guide_json(r, &g, ns));
		if (print)
			guide_print(r, &g, ns);
	}
	json_object_set_new(j, "source", json_pack("s++", "Intel oneAPI GPU Optimization Guide, ",
		json_string_value(json_object_get(t, "section")), " (cycles)"));
	json_object_set_new(j, "levels", lv);
	json_decref(t);
	return j;
}

int latency_report(struct bench_run *r)
{
	const struct latency_opts *o = r->opts;
	const struct dev_info *d = r->dev;
	bool print = !r->co->quiet;
	bool intel_gpu = d->vendor_kind == DEV_VENDOR_INTEL && (d->type & CL_DEVICE_TYPE_GPU);

	json_object_set_new(r->doc, "plateaus", plateaus_json(r));
	if (print) {
		print_reasons(r);
		print_plateaus(r);
	}
	if (intel_gpu || o->guide_table)
		json_object_set_new(r->doc, "reference", guide_table(r, print));
	return EXIT_OK;
}
