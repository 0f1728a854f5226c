/* The views of a run's points: JSON, the text table and its standard cells. */
#define HARNESS_LAYER HARNESS_LAYER_VIEWS
#include "views.h"

#include <string.h>



static json_t *metrics_json(const struct bench_point *pt)
{
	json_t *m = json_object();

	if (pt->n && pt->bytes > 0) {
		json_object_set_new(m, "bytes", json_real(pt->bytes));
		json_object_set_new(m, "gbps", json_real(bench_point_gbps(pt)));
		if (pt->ceil_copy_ns > 0) {
			json_object_set_new(m, "copy_gbps", json_real(bench_point_copy_gbps(pt)));
			json_object_set_new(m, "fraction_of_copy",
					    json_real(bench_point_gbps(pt) / bench_point_copy_gbps(pt)));
		}
		if (pt->ceil_ns > 0) {
			if (pt->ceil_kernel_ns > 0)
				json_object_set_new(m, "stream_copy_gbps",
						    json_real(2.0 * (double)pt->ceil_bytes / pt->ceil_kernel_ns));
			json_object_set_new(m, "ceiling_gbps", json_real(bench_point_ceiling_gbps(pt)));
			json_object_set_new(m, "ceiling_by", json_string(pt->ceil_by));
			json_object_set_new(m, "ceiling_shape", json_string(pt->ceil_shape));
			json_object_set_new(m, "fraction_of_ceiling",
					    json_real(bench_point_gbps(pt) / bench_point_ceiling_gbps(pt)));
		}
	}
	if (pt->n && pt->ops > 0)
		json_object_set_new(m, "gops", json_real(pt->ops / pt->time.median));
	if (pt->metrics)
		json_object_update(m, pt->metrics);
	if (!json_object_size(m)) {
		json_decref(m);
		return NULL;
	}
	return m;
}

/*
 * The point's params: the row's, with "cache": "cold" where its timed launches started
 * from an evicted cache, so bench compare never matches a cold point with a warm one.
 */
/*
 * Holds a point's params to the row's table (row.h: struct bench_param): a member the table
 * does not name, or one it says every point has that is missing, is a bug of the row (its
 * facts and its output have drifted apart), and ends the run before a document says so.
 */
static void params_held(const struct bench_row *row, const json_t *p)
{
	const char *k;
	json_t *v;
	size_t i;

	json_object_foreach((json_t *)p, k, v) {
		for (i = 0; row->params[i].name && strcmp(row->params[i].name, k) != 0; i++)
			;
		if (!row->params[i].name)
			cli_die(EXIT_FAIL, "bench bug: %s's params member '%s' is not in its params table",
				row->cmd.name, k);
	}
	for (i = 0; row->params[i].name; i++)
		if (!row->params[i].optional && !json_object_get(p, row->params[i].name))
			cli_die(EXIT_FAIL, "bench bug: %s's point lacks params member '%s', which its "
				"params table says every point has", row->cmd.name, row->params[i].name);
}

const char *const bench_ptype_names[] = { "count", "count_or_null", "integer", "boolean",
					   "boolean_or_null", "string", "string_or_null", "name",
					   "name_or_null", "counts" };

/* An integer field of the point's parameters, as the table's C type says. */
static uint64_t field_u64(const void *at, enum bench_ctype c)
{
	switch (c) {
	case BENCH_C_UINT: return *(const unsigned *)at;
	case BENCH_C_INT: return (uint64_t)(int64_t)*(const int *)at;
	case BENCH_C_U64: return *(const uint64_t *)at;
	case BENCH_C_BOOL: return *(const bool *)at;
	default: return 0;
	}
}

/* Member d of the point's parameters from its field, as its type says. */
static json_t *param_value(const struct bench_param *d, const void *params)
{
	const char *at = (const char *)params + d->off;
	const char *s = d->ctype == BENCH_C_STR ? *(const char *const *)at : NULL;
	uint64_t v = field_u64(at, d->ctype);

	switch (d->type) {
	case BENCH_PT_COUNT0: return bench_json_uint0(v);
	case BENCH_PT_COUNT: return json_integer((json_int_t)v);
	case BENCH_PT_INT: return json_integer(d->ctype == BENCH_C_INT ? *(const int *)at : (json_int_t)v);
	case BENCH_PT_BOOL:
	case BENCH_PT_BOOL0: return json_boolean(v);
	case BENCH_PT_STR: return json_string(s ? s : "");
	case BENCH_PT_STR0: return bench_json_str0(s);
	case BENCH_PT_NAME:
	case BENCH_PT_NAME0: return v < d->n_names ? json_string(d->names[v]) : json_null();
	case BENCH_PT_COUNTS: break;
	}
	return json_null();
}

/* The point's params from the row's table (row.h: struct bench_param), in its order. */
static json_t *params_from_table(const struct bench_run *r, const struct bench_point *pt)
{
	json_t *j = json_object();

	for (const struct bench_param *d = r->row->params; d->name; d++) {
		const char *at = (const char *)pt->params + d->off;
		json_t *v;

		if (d->in_group)
			continue;
		if (d->ctype == BENCH_C_SGB || d->ctype == BENCH_C_SGB_PTR) {
			const struct sgb_choice *c = d->ctype == BENCH_C_SGB
				? (const struct sgb_choice *)at : *(const struct sgb_choice *const *)at;
			if (c)
				sgb_params(j, c);
			continue;
		}
		v = d->value ? d->value(r, pt) : param_value(d, pt->params);
		if (v)
			json_object_set_new(j, d->name, v);
	}
	return j;
}

json_t *harness_params_json(const struct bench_run *r, const struct bench_point *pt)
{
	json_t *p = params_from_table(r, pt);

	params_held(r->row, p);

	if (r->cold)
		json_object_set_new(p, "cache", json_string("cold"));
	return p;
}

json_t *harness_point_json(const struct bench_run *r, const struct bench_point *pt)
{
	json_t *p = json_object(), *m;
	struct stats st;
	const char *dev = pt->device ? pt->device : r->label;

	if (dev)   /* a document of several devices: the one this point ran on */
		json_object_set_new(p, "device", json_string(dev));
	if (r->sess->concurrent)
		json_object_set_new(p, "concurrent", json_boolean(r->h->together));
	json_object_set_new(p, "params", harness_params_json(r, pt));
	json_object_set_new(p, "status", json_string(bench_status_names[pt->status]));
	json_object_set_new(p, "reason", pt->reason[0] ? json_string(pt->reason) : json_null());
	json_object_set_new(p, "validated", json_boolean(pt->validated));
	if (pt->n) {
		json_t *t = res_stats_json(&pt->time, pt->dev_ns, pt->n), *reps;
		if (pt->start_ns) {   /* when each launch started: drift, gaps, clock ramps */
			json_t *a = json_array();
			for (size_t i = 0; i < pt->n; i++)
				json_array_append_new(a, json_real(pt->start_ns[i]));
			json_object_set_new(t, "start_ns", a);
		}
		json_object_set_new(p, "noisy", json_boolean(pt->noisy));
		if (pt->probed) {
			json_t *probe = json_object();
			for (int w = 0; w < 2; w++) {
				json_t *a = json_array();
				for (int i = 0; i < HARNESS_PROBE_LAUNCHES; i++)
					json_array_append_new(a, json_real(pt->probe_ns[w][i]));
				json_object_set_new(probe, w ? "after" : "before", a);
			}
			json_object_set_new(p, "clock_probe_ns", probe);
		}
		json_object_set_new(p, "time_ns", t);
		if ((m = harness_clock_json(pt)))
			json_object_set_new(p, "clock", m);
		stats_compute(pt->wall_ns, pt->n, &st);
		if (pt->clock.host_figure) {   /* time_ns is the host's (wall_ns too), the events' beside */
			json_object_set_new(p, "wall_ns", res_stats_json(&pt->time, pt->dev_ns, pt->n));
			json_object_set_new(p, "event_ns", res_stats_json(&st, pt->wall_ns, pt->n));
		} else {
			json_object_set_new(p, "wall_ns", res_stats_json(&st, pt->wall_ns, pt->n));
		}
		if ((reps = harness_reps_json(r, pt)))
			json_object_set_new(p, "repetitions", reps);
	}
	if (pt->ceil_stats)
		json_object_set(p, "copy_time_ns", pt->ceil_stats);
	if (pt->ceil_kernel_stats)
		json_object_set(p, "stream_copy_time_ns", pt->ceil_kernel_stats);
	if ((m = metrics_json(pt)))
		json_object_set_new(p, "metrics", m);
	if (pt->model_json)
		json_object_set(p, "model", pt->model_json);
	if (pt->build)
		json_object_set(p, "build", pt->build);
	if (pt->model_groups)   /* bench_point_model gave the kernel's resources */
		json_object_set_new(p, "compiled", prog_kernel_res_point_json(&pt->res));
	if (pt->extra)
		json_object_update(p, pt->extra);
	return p;
}

/* Numbers the distinct notes of ok points 1, 2, ... in order of first appearance. */
static size_t number_notes(struct bench_run *r, size_t n)
{
	size_t k = 0;

	for (size_t p = 0; p < n; p++) {
		struct bench_point *q = &r->points[p];
		q->note_id = 0;
		if (q->status != POINT_OK || !q->reason[0])
			continue;
		for (size_t j = 0; j < p && !q->note_id; j++)
			if (r->points[j].note_id && strcmp(r->points[j].reason, q->reason) == 0)
				q->note_id = r->points[j].note_id;
		if (!q->note_id)
			q->note_id = ++k;
	}
	return k;
}

/* The table of the first n points, then their notes. */
void harness_print_table(struct bench_run *r, size_t n)
{
	const struct bench_col *c = r->cols;
	const char *head[TABLE_MAX_COLS] = { 0 }, *cells[TABLE_MAX_COLS] = { 0 };
	char buf[TABLE_MAX_COLS][96];
	struct table t;
	size_t nc = 0, notes = number_notes(r, n);

	while (c[nc].head)
		nc++;
	for (size_t i = 0; i < nc; i++) {
		head[i] = c[i].head;
		cells[i] = buf[i];
	}
	table_init(&t, nc, head);
	for (size_t p = 0; p < n; p++) {
		if (p && r->row->joins_row && r->row->joins_row(r, p))
			continue;
		for (size_t i = 0; i < nc; i++)
			c[i].cell(r, &r->points[p], buf[i], sizeof(buf[i]));
		table_add(&t, cells);
	}
	if (r->row->title)
		r->row->title(r, stdout);
	table_print(&t, stdout);
	table_free(&t);
	for (size_t k = 1; k <= notes; k++)
		for (size_t p = 0; p < n; p++)
			if (r->points[p].note_id == k) {
				printf("%s  (note %zu) %s\n", k == 1 ? "notes:\n" : "", k, r->points[p].reason);
				break;
			}
	fflush(stdout);
}

/* ---- standard cells ---- */

static const char *model_str(const struct bench_point *pt, const char *key)
{
	const json_t *v = json_object_get(pt->model_json, key);

	return json_is_string(v) ? json_string_value(v) : "-";
}

void bench_cell_occupancy(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, "%s", model_str(pt, "occupancy"));
}

void bench_cell_limiter(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, "%s", model_str(pt, "limiter"));
}

void bench_cell_median_us(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, pt->n ? "%.2f" : "-", pt->time.median / 1e3);
}

void bench_cell_cv(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, pt->n ? "%.1f" : "-", pt->time.cv);
}

void bench_cell_gbps(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, pt->n && pt->bytes > 0 ? "%.2f" : "-", bench_point_gbps(pt));
}

void bench_cell_ceiling_gbps(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, pt->ceil_ns > 0 ? "%.2f" : "-", bench_point_ceiling_gbps(pt));
}

void bench_cell_of_ceiling(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, pt->ceil_ns > 0 && pt->n ? "%.3f" : "-",
		 pt->ceil_ns > 0 ? bench_point_gbps(pt) / bench_point_ceiling_gbps(pt) : 0);
}

void bench_cell_status(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	char note[32] = "";

	(void)r;
	if (pt->status == POINT_OK && pt->note_id)
		snprintf(note, sizeof(note), " (note %zu)", pt->note_id);
	snprintf(b, n, "%s%s%s", bench_status_names[pt->status], note, pt->noisy ? ", noisy" : "");
}

void harness_run_members(json_t *r, json_t *doc, size_t first, const char *const *shared)
{
	json_t *v;
	const char *k;

	json_object_set_new(r, "first_point", json_integer((json_int_t)first));
	json_object_set_new(r, "points",
			    json_integer((json_int_t)json_array_size(json_object_get(doc, "points"))));
	json_object_foreach(doc, k, v) {
		size_t i = 0;
		while (shared[i] && strcmp(shared[i], k) != 0)
			i++;
		if (!shared[i])
			json_object_set(r, k, v);
	}
}

/* The document's time_origin: what the points' start_ns count from. */
json_t *harness_origin_json(const struct bench_session *s)
{
	if (!s->have_origin)
		return json_null();
	return json_pack("{s:I, s:I, s:s}", "device_ns", (json_int_t)s->origin_dev_ns, "host_unix_ns",
			 (json_int_t)s->origin_unix_ns, "note",
			 "start_ns counts from the first timed launch's CL_PROFILING_COMMAND_START "
			 "(device_ns, the device's clock); host_unix_ns is the host's UTC time just "
			 "before that launch was enqueued");
}
