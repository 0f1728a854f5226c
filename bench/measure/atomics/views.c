/*
 * bench atomics's views: each point's parameters in the document (the API, order and scope the
 * kernel used), the table's columns, its title and the points' notes.
 */
#include "host.h"

#include <stdio.h>

/* The API, order and scope the kernel used; NULL for a point that did not run. */
static const char *api_used(const struct at_params *a)
{
	return !a->ran ? NULL : a->c11 ? "atomic_fetch_add_explicit" : "atomic_add";
}

static const char *order_used(const struct at_params *a)
{
	return !a->ran ? NULL : !a->c11 ? "none (OpenCL 1.x)" : a->ord == AT_RELAXED
		? "memory_order_relaxed" : "memory_order_acq_rel";
}

static const char *scope_used(const struct at_params *a)
{
	return !a->ran ? NULL : !a->c11 ? "none (OpenCL 1.x)" : at_is_local(a->pat)
		? "memory_scope_work_group" : "memory_scope_device";
}

json_t *atomics_params_json(const struct bench_run *r, const struct bench_point *pt)
{
	const struct at_params *a = pt->params;
	const struct at_state *p = r->state;
	json_t *j = json_object();

	json_object_set_new(j, "pattern", json_string(at_pattern_names[a->pat]));
	json_object_set_new(j, "order", json_string(at_order_names[a->ord]));
	json_object_set_new(j, "api", bench_json_str0(api_used(a)));
	json_object_set_new(j, "order_used", bench_json_str0(order_used(a)));
	json_object_set_new(j, "scope_used", bench_json_str0(scope_used(a)));
	json_object_set_new(j, "within_declared_caps", a->c11 ? json_boolean(!a->missing[0]) : json_null());
	json_object_set_new(j, "atomic_caps", a->caps_known ? json_integer((json_int_t)a->caps)
							    : json_null());
	json_object_set_new(j, "memory", json_string(at_is_local(a->pat) ? "local" : "global"));
	json_object_set_new(j, "work_items", json_integer((json_int_t)a->work_items));
	json_object_set_new(j, "wg_size", json_integer(a->wg));
	json_object_set_new(j, "scale", json_integer(a->scale));
	json_object_set_new(j, "ops", json_integer(a->ops));
	json_object_set_new(j, "sg_size", bench_json_uint0(a->sg));
	json_object_set_new(j, "sg_source", bench_json_str0(a->sg_source));
	json_object_set_new(j, "counters", json_integer((json_int_t)a->counters));
	json_object_set_new(j, "items_per_counter", json_integer(a->items_per_counter));
	json_object_set_new(j, "stride_bytes", bench_json_uint0(a->stride));
	json_object_set_new(j, "flush", json_boolean(a->flush_bytes > 0));
	json_object_set_new(j, "flush_bytes", bench_json_uint0(a->flush_bytes));
	if (p->sgc.forced)   /* the layer named: sg_backend, sg_width, sg_width_source, ... */
		sgb_params(j, &p->sgc);
	return j;
}

#define AP(pt) ((const struct at_params *)(pt)->params)
#define OK(pt) ((pt)->status == POINT_OK)
#define CELL(name) static void name(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)

CELL(cell_pattern) { (void)r; snprintf(b, n, "%s", at_pattern_names[AP(pt)->pat]); }
CELL(cell_order) { (void)r; snprintf(b, n, "%s", at_order_names[AP(pt)->ord]); }
CELL(cell_api) { (void)r; snprintf(b, n, "%s", !AP(pt)->ran ? "-" : AP(pt)->c11 ? "c11" : "1.x"); }
CELL(cell_scope)
{
	(void)r;
	snprintf(b, n, "%s", !AP(pt)->ran ? "-" : !AP(pt)->c11 ? "none"
				: at_is_local(AP(pt)->pat) ? "work_group" : "device");
}
CELL(cell_counters) { (void)r; snprintf(b, n, "%llu", (unsigned long long)AP(pt)->counters); }
CELL(cell_ipc) { (void)r; snprintf(b, n, "%u", AP(pt)->items_per_counter); }
/* a point that failed after its timed launches shows "-", as for its figures */
CELL(cell_median) { (void)r; snprintf(b, n, OK(pt) ? "%.2f" : "-", pt->time.median / 1e3); }
CELL(cell_cv) { (void)r; snprintf(b, n, OK(pt) ? "%.1f" : "-", pt->time.cv); }
CELL(cell_gatomics) { (void)r; snprintf(b, n, OK(pt) ? "%.4f" : "-", at_per_s(AP(pt)->ns) / 1e9); }
CELL(cell_ns) { (void)r; snprintf(b, n, OK(pt) ? "%.3f" : "-", AP(pt)->ns); }
CELL(cell_cycles)
{
	uint32_t mhz = r->dev->clock_mhz;

	snprintf(b, n, OK(pt) && mhz ? "%.1f" : "-", AP(pt)->ns * mhz / 1e3);
}
CELL(cell_kclock)
{
	(void)r;
	snprintf(b, n, OK(pt) && AP(pt)->kc_cycles >= 0 ? "%.1f" : "-", AP(pt)->kc_cycles);
}
/* "(note)" on any point with a reason: the reasons follow the table */
CELL(cell_status)
{
	(void)r;
	snprintf(b, n, "%s%s", bench_status_names[pt->status], pt->reason[0] ? " (note)" : "");
}

const struct bench_col atomics_cols[] = {
	{ "Pattern", cell_pattern }, { "Order", cell_order }, { "API", cell_api },
	{ "Scope", cell_scope }, { "Counters", cell_counters }, { "Items/ctr", cell_ipc },
	{ "Model occupancy", bench_cell_occupancy }, { "median us", cell_median },
	{ "CV %", cell_cv }, { "Gatomic/s", cell_gatomics }, { "ns/atomic", cell_ns },
	{ "cycles", cell_cycles }, { "clock cycles", cell_kclock }, { "status", cell_status },
	{ 0 } };

void atomics_title(const struct bench_run *r, FILE *f)
{
	const struct dev_info *d = r->dev;
	const struct atomics_opts *o = r->opts;
	const struct at_state *p = r->state;

	fprintf(f, "atomics on %s (%s): %llu work-items (1024 x %u), work-groups of %u, %u "
		"fetch-adds each\n", d->name, d->platform_name, (unsigned long long)p->items, o->scale,
		p->wg, o->ops);
	if (p->sgc.width)
		fprintf(f, "sub-group size %u: %s", p->sgc.width, p->sg_source);
	else
		fprintf(f, "sub-group size: %s", p->sg_source);
	fprintf(f, p->sgc.forced ? " (--sg-backend %s)\n" : "\n", sgb_name(p->sgc.backend));
	kclock_print_title(f, &p->kc, d->clock_mhz, "chain's clock cycles", AT_KCLOCK_LAUNCHES);
	if (p->flush_bytes)
		fprintf(f, "flush: %llu bytes read before each timed launch (last-level cache %llu "
			"bytes, %s)\n", (unsigned long long)p->flush_bytes, (unsigned long long)p->llc,
			p->llc_source);
}

/* The reasons and notes of the points, below the table. */
int atomics_report(struct bench_run *r)
{
	if (r->co->quiet)
		return EXIT_OK;
	for (size_t i = 0; i < r->n_points; i++) {
		const struct bench_point *pt = &r->points[i];
		if (pt->reason[0])
			printf("  %s %s: %s\n", at_pattern_names[AP(pt)->pat], at_order_names[AP(pt)->ord],
			       pt->reason);
	}
	return EXIT_OK;
}

void atomics_label(const struct bench_run *r, size_t i, char *buf, size_t len)
{
	const struct at_state *p = r->state;

	snprintf(buf, len, "%s %s", at_pattern_names[p->list[i].pat], at_order_names[p->list[i].ord]);
}
